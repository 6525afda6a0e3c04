% Commonsense rules of the office / calendar domain (GraphWOZ-like KGs).
%
% Facts the reasoner adds besides those listed in entity_linking.pl:
%   edge(S, P, O)        an entity-valued background fact; office predicates by local name
%                        (attendee, organizer, location, member_of, office, group)
%   attr(S, P, V)        a literal-valued one: date -> day ordinal, start_time/end_time -> minute
%                        of the day, numbers as numbers, anything else as a quoted atom
%   requested(E)         E is of a type the user asked for ("which rooms ...")
%   today(D), tomorrow(D), day_text(D, Text), clock(Min, Text)
%   slot(D, From, To, Text)  a time the user asked about (minutes of day D; "now" is a slot too)
%   part(D, From, To, Text)  a part of a day the user asked about (morning 8-11, afternoon 12-17)
%   asked_day(D, Text)   a day the user asked about that is neither today nor tomorrow
%
% Each derived predicate has a verbalization template: template(Name/Arity, "text"), where
% {1}, {2}, ... are its arguments (entities by their label). Binary predicates become edges
% (first argument -> second); fact_args(Name/Arity, S, O) names the two arguments of the edge
% for longer ones. about(Name/Arity, Kind) says the predicate is only about entities of that
% kind: the reasoner does not even ask it in a turn that mentions none. Derived facts are only sought for entities in focus: those a new mention
% refers to (with that link's probability) and those of a requested type.

focus(E) :- new(M), refers_to(M, E).
focus(E) :- requested(E).

% An event with its day and its start and end minute.
event_on(E, D, S, End) :- attr(E, date, D), attr(E, start_time, S), attr(E, end_time, End).
% Two time spans overlap.
overlaps(S1, E1, S2, E2) :- S1 < E2, S2 < E1.
% A person takes part in an event as attendee or organizer.
takes_part(P, Ev) :- edge(Ev, attendee, P).
takes_part(P, Ev) :- edge(Ev, organizer, P), \+ edge(Ev, attendee, P).
% A room or a person is busy at D from S to E.
room_busy(R, D, S, E) :- edge(Ev, location, R), event_on(Ev, D, S2, E2), overlaps(S, E, S2, E2).
person_busy_with(P, D, S, E, Ev) :- takes_part(P, Ev), event_on(Ev, D, S2, E2), overlaps(S, E, S2, E2).
person_busy(P, D, S, E) :- person_busy_with(P, D, S, E, _).
% A free full hour H..H+1 of room/person X on day D between hours From and To.
free_hour(X, D, From, To) :- kind(X, room), Last is To - 1, between(From, Last, H),
                             S is H * 60, E is S + 60, \+ room_busy(X, D, S, E).
free_hour(X, D, From, To) :- kind(X, person), Last is To - 1, between(From, Last, H),
                             S is H * 60, E is S + 60, \+ person_busy(X, D, S, E).

% Events today / tomorrow, with their start time.
template(event_today/2, "{1} takes place today at {2}").
about(event_today/2, event).
event_today(E, T) :- focus(E), kind(E, event), today(D), event_on(E, D, S, _), clock(S, T).
template(event_tomorrow/2, "{1} takes place tomorrow at {2}").
about(event_tomorrow/2, event).
event_tomorrow(E, T) :- focus(E), kind(E, event), tomorrow(D), event_on(E, D, S, _), clock(S, T).

% A person's group; a group's members and how many there are.
template(person_group/2, "{1} belongs to the {2} group").
about(person_group/2, person).
person_group(P, G) :- focus(P), kind(P, person), edge(P, member_of, G).
template(group_member/2, "{2} is a member of the {1} group").
about(group_member/2, group).
group_member(G, P) :- focus(G), kind(G, group), edge(P, member_of, G).
template(member_count/2, "the {1} group has {2} members").
about(member_count/2, group).
% (none known is not "0 members": a KG may simply not list them)
member_count(G, N) :- focus(G), kind(G, group), findall(P, edge(P, member_of, G), L), length(L, N), N > 0.

% A room one can book: one named in the turn, or one that hosts meetings, or one asked for that is
% nobody's office (a room with an empty calendar is free at any time, an office is not bookable).
bookable(R) :- new(M), refers_to(M, R).
bookable(R) :- requested(R), edge(_, location, R).
bookable(R) :- requested(R), \+ edge(_, location, R), \+ edge(_, office, R).

% A room is available at the asked time (or now) when no event in it overlaps.
template(room_available/2, "{1} is available {2}").
about(room_available/2, room).
room_available(R, Text) :- focus(R), kind(R, room), bookable(R), slot(D, S, E, Text), \+ room_busy(R, D, S, E).
% ... and when an event holds it, which one.
template(room_taken/3, "{1} is taken {2} by {3}").
about(room_taken/3, room).
fact_args(room_taken/3, 1, 3).
room_taken(R, Text, Ev) :- focus(R), kind(R, room), slot(D, S, E, Text), edge(Ev, location, R),
                           event_on(Ev, D, S2, E2), overlaps(S, E, S2, E2).
% A room with at least one free hour in the morning (8-11) or afternoon (12-17) asked about.
template(room_free_during/2, "{1} has a free hour {2}").
about(room_free_during/2, room).
room_free_during(R, Text) :- focus(R), kind(R, room), bookable(R), part(D, From, To, Text), free_hour(R, D, From, To).

% A person is available, or busy with an event, at the asked time (or now).
template(person_available/2, "{1} is available {2}").
about(person_available/2, person).
person_available(P, Text) :- focus(P), kind(P, person), slot(D, S, E, Text), \+ person_busy(P, D, S, E).
template(person_busy_at/3, "{1} is busy {2} with {3}").
about(person_busy_at/3, person).
fact_args(person_busy_at/3, 1, 3).
person_busy_at(P, Text, Ev) :- focus(P), kind(P, person), slot(D, S, E, Text), person_busy_with(P, D, S, E, Ev).
% ... and until when: the end of the event that keeps them busy is when they are free again.
template(person_busy_until/2, "{1} is busy until {2}").
about(person_busy_until/2, person).
person_busy_until(P, Until) :- focus(P), kind(P, person), slot(D, S, E, _), person_busy_with(P, D, S, E, Ev),
                               attr(Ev, end_time, End), clock(End, Until).
template(person_free_during/2, "{1} has a free hour {2}").
about(person_free_during/2, person).
person_free_during(P, Text) :- focus(P), kind(P, person), part(D, From, To, Text), free_hour(P, D, From, To).

% Who of a group asked about is available, or busy with what, at the asked time.
template(member_available/3, "{2} of the {1} group is available {3}").
about(member_available/3, group).
fact_args(member_available/3, 2, 3).
member_available(G, P, Text) :- focus(G), kind(G, group), slot(D, S, E, Text), edge(P, member_of, G),
                                \+ person_busy(P, D, S, E).
template(member_busy_at/4, "{2} of the {1} group is busy {3} with {4}").
about(member_busy_at/4, group).
fact_args(member_busy_at/4, 2, 4).
member_busy_at(G, P, Text, Ev) :- focus(G), kind(G, group), slot(D, S, E, Text), edge(P, member_of, G),
                                  person_busy_with(P, D, S, E, Ev).

% What a person attends today, tomorrow, or on a day asked about.
template(attends_today/2, "{1} attends {2} today").
about(attends_today/2, person).
attends_today(P, Ev) :- focus(P), kind(P, person), today(D), takes_part(P, Ev), attr(Ev, date, D).
template(attends_tomorrow/2, "{1} attends {2} tomorrow").
about(attends_tomorrow/2, person).
attends_tomorrow(P, Ev) :- focus(P), kind(P, person), tomorrow(D), takes_part(P, Ev), attr(Ev, date, D).
template(attends_on/3, "{1} attends {3} on {2}").
about(attends_on/3, person).
fact_args(attends_on/3, 1, 3).
attends_on(P, Text, Ev) :- focus(P), kind(P, person), asked_day(D, Text), takes_part(P, Ev), attr(Ev, date, D).

% Time and place of an event referred to.
template(event_time/4, "{1} takes place on {2} from {3} to {4}").
about(event_time/4, event).
fact_args(event_time/4, 1, 2).
event_time(Ev, Day, From, To) :- focus(Ev), kind(Ev, event), event_on(Ev, D, S, E),
                                 day_text(D, Day), clock(S, From), clock(E, To).
template(event_place/2, "{1} is held in {2}").
about(event_place/2, event).
event_place(Ev, R) :- focus(Ev), kind(Ev, event), edge(Ev, location, R).
