% Rules for any knowledge graph: inverse relations, bounded transitive closure of
% "subclass of" / "part of", and two mentioned entities sharing a neighbour.
%
% Predicates arrive as short atoms: office predicates by local name, Wikidata properties by
% their id ('P279'), rdf:type as type, rdfs:subClassOf as subclass_of; any other predicate as
% its full IRI. See entity_linking.pl and commonsense.pl for the other facts.

% Known inverse pairs: inverse_relation(P, Q) means S P O gives O Q S.
inverse_relation(organizer, organizes).
inverse_relation(attendee, attends).
inverse_relation(location, hosts).
inverse_relation(office, office_of).
inverse_relation('P361', 'P527').   % part of -> has part
inverse_relation('P527', 'P361').   % has part -> part of
inverse_relation('P161', cast_member_of).
inverse_relation('P57', directed).
inverse_relation('P50', wrote).
inverse_relation('P1346', 'P166'). % winner -> award received
inverse_relation('P40', parent).

% An entity a mention of this turn refers to (not merely one of a type the user asked for).
mentioned(X) :- new(M), refers_to(M, X).

% The inverse of a fact that points at a mentioned entity, as an edge from it.
template(inverse/3, "{1} {2} {3}").
fact_args(inverse/3, 1, 3).
inverse(X, Q, Y) :- mentioned(X), edge(Y, P, X), inverse_relation(P, Q).

% "subclass of" and "part of" relations (Wikidata ids and RDF Schema).
subclass_rel(subclass_of).
subclass_rel('P279').
part_rel('P361').
part_rel('P131').   % located in the administrative territorial entity

% Up to three steps along one of those relations.
chain(Rel, X, Y, 1) :- edge(X, Rel, Y).
chain(Rel, X, Z, N) :- edge(X, Rel, Y), chain(Rel, Y, Z, N1), N1 < 3, N is N1 + 1.

template(kind_of/2, "{1} is a kind of {2}").
kind_of(X, Y) :- mentioned(X), subclass_rel(R), chain(R, X, Y, N), N > 1.
template(instance_of_kind/2, "{1} is a {2}").
instance_of_kind(X, Y) :- mentioned(X), type_rel(T), edge(X, T, C), subclass_rel(R), chain(R, C, Y, _).
type_rel(type).
type_rel('P31').
template(part_of/2, "{1} is part of {2}").
part_of(X, Y) :- mentioned(X), part_rel(R), chain(R, X, Y, N), N > 1.

% Two focused entities linked through one node: the bridge a question often needs.
% Neighbours through any relation but "instance of" (a class links everything of its kind) and
% the name records and bookkeeping relations the engine marks record_rel(P) (sex or gender,
% family name, described by source: "both described by Wikipedia" connects nothing).
adjacent(X, Z) :- edge(X, P, Z), \+ type_rel(P), \+ record_rel(P).
adjacent(X, Z) :- edge(Z, P, X), \+ type_rel(P), \+ record_rel(P).
template(connected_via/3, "{1} and {3} are both connected to {2}").
fact_args(connected_via/3, 1, 3).
% X and Y are what two different mentions of the turn refer to.
connected_via(X, Z, Y) :- new(M1), new(M2), M1 \= M2, refers_to(M1, X), refers_to(M2, Y), X @< Y,
                          adjacent(X, Z), adjacent(Y, Z), Z \= X, Z \= Y.
