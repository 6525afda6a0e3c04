% Entity linking and coreference: what each new mention of the user turn refers to.
%
% The reasoner (rules/reasoner.py) adds, per turn, these facts (constants are quoted atoms):
%   new(M)              M is a mention of the current turn
%   mention(M, T)       mention M occurs in turn T
%   string(M, S)        the words of mention M
%   mention_kind(M, K)  K in name | pronoun | definite | first_person
%   wants_kind(M, K)    a pronoun or definite noun phrase agrees with entities of kind K
%   pronoun_gender(M, G) the pronoun M says G (male | female); gender_of(E, G) the KG says so of E
%   before(M1, M)       M1 comes before M in the same turn
%   here(M1, M)         ... and English lets M take M1 up: M is a possessive, or in a later clause
%   ordinal(M, N)       the mention says "the N-th" ("the first one"; N = -1 for "the last")
%   listed(T, K, N, E)  E is the N-th entity of kind K that turn T referred to (-1: the last)
%   answered(T, E)      E is the one entity of its kind that turn T referred to and the turn
%                       before it did not: the answer a reply gave (of several, those the
%                       relation the question asked for reaches, else those the KG relates to
%                       what the question named)
%   topic(T, E)         E is what the user's question that turn T answered was about (the
%                       entity each of its mentions refers to best)
%   answer_kind(M, K)   the pronoun or noun phrase M may take up such an answer of kind K ("she" a
%                       person, "there" a place, "they" a group; "it" none: it keeps to the topic)
%   wants_class(M, C)   the noun phrase M names the KG class C ("that airline"); class_of(E, C) the
%                       KG says E is a C (or of a subclass of C)
%   a_class(E)          E is one of the KG's classes ("winemaker"): what things are, no one an
%                       anaphor takes up
%   has_asked(E)        E is the subject of a relation whose label says a word of the turn
%   respond_to(T, T1)   turn T answers turn T1 (the dialogue chain, newest first)
%   P::linked(M, E)     what an earlier mention referred to, with the probability stored then
%   candidate(M, E)     entity E has a name close to the words of the named mention M
%   name(E, N)          a label or alias of E
%   kind(E, K)          K in person | event | room | group | thing
%   speaker(E)          the user, once they said who they are
%   turn_day(T, D)      a day (ordinal number) named in turn T
%   attr(E, date, D)    an event's day (ordinal number); see commonsense.pl for the rest
% The query is refers_to(M, E) for every new mention M.
%
% The weights are the ones learned on GraphWOZ training data (DESIGN.md, reference figures),
% plus those this project adds (exact name, partial name, recency of pronouns, same-turn
% antecedent, day agreement);
% `kgchat learn` re-estimates all of them from gold links.

% Recency: T1 is N turns back from T along the respond_to chain (at most four).
back(T, T1, 1) :- respond_to(T, T1).
back(T, T2, 2) :- respond_to(T, T1), respond_to(T1, T2).
back(T, T3, 3) :- respond_to(T, T1), respond_to(T1, T2), respond_to(T2, T3).
back(T, T4, 4) :- respond_to(T, T1), respond_to(T1, T2), respond_to(T2, T3), respond_to(T3, T4).

% refers_to combines the kinds of evidence below (noisy-or): the name, recency, the topic, an
% older mention, and an antecedent in the same turn; each is its own predicate so no rule calls refers_to recursively.
refers_to(M, E) :- by_name(M, E).
refers_to(M, E) :- by_recency(M, E).
refers_to(M, E) :- by_topic(M, E).
refers_to(M, E) :- by_memory(M, E).
refers_to(M, E) :- by_context(M, E).
refers_to(M, E) :- by_answer(M, E).
refers_to(M, E) :- by_fit(M, E).
refers_to(M, E) :- by_gender(M, E).

% How a named mention's words compare with a candidate's name: Jaro-Winkler J, edit distance D,
% longest common substring L, shared words W, mention words missing from the name X
% (one builtin call per pair; every rule below reads it).
similar(M, E, J, D, L, W, X) :- new(M), mention_kind(M, name), candidate(M, E), string(M, S), name(E, N),
                                name_similarity(S, N, J, D, L, W, X).

% Jaro-Winkler similarity above 0.9 (tolerates one slip in a long name).
0.608::by_name(M, E) :- similar(M, E, J, _, _, _, _), J > 0.9.
% Edit distance under 2: the name as written or with one ASR error.
0.723::by_name(M, E) :- similar(M, E, _, D, _, _, _), D < 2.
% Edit distance under 3: two errors.
0.304::by_name(M, E) :- similar(M, E, _, D, _, _, _), D < 3.
% A shared substring longer than three letters: weak evidence on its own.
0.002::by_name(M, E) :- similar(M, E, _, _, L, _, _), L > 3.
% The exact name (case and accents aside) beats a near miss of another entity.
0.9::by_name(M, E) :- similar(M, E, _, 0, _, _, _).
% Every word of the mention is a word of the name ("Omar" for "Omar Haddad", "Beta" for
% "Meeting Room Beta"), allowing a typo per word.
0.5::by_name(M, E) :- similar(M, E, _, _, _, W, 0), W > 0.
0.4::by_name(M, E) :- similar(M, E, _, _, _, _, 0).

% An event named on the day the turn talks about ("the Weekly Sync on Tuesday").
0.6::by_name(M, E) :- new(M), mention_kind(M, name), candidate(M, E), kind(E, event),
                     mention(M, T), turn_day(T, D), attr(E, date, D).

% Which entities a mention may take up from earlier turns: a candidate of a named mention,
% or an entity of the kind a pronoun or definite noun phrase agrees with.
linkable(M, E) :- mention_kind(M, name), candidate(M, E).
linkable(M, E) :- anaphor(M), wants_kind(M, K), kind(E, K), \+ other_gender(M, E), \+ other_class(M, E), \+ a_class(E).
% "that winery" takes up what the KG classes as a winery, whatever kind its relations make it.
linkable(M, E) :- mention_kind(M, definite), wants_class(M, C), class_of(E, C), \+ a_class(E).
% "she" is no one the KG knows as a man, "he" no one it knows as a woman.
other_gender(M, E) :- pronoun_gender(M, G), gender_of(E, G1), G \= G1.
% "that airline" is nothing the KG does not class as an airline.
other_class(M, E) :- wants_class(M, C), \+ class_of(E, C).
anaphor(M) :- mention_kind(M, pronoun).
anaphor(M) :- mention_kind(M, definite).

% What the previous (system) turn's mention referred to, then the turns before it: for a named
% mention (a second "Omar" is the Omar of a moment ago) with the GraphWOZ weights...
0.271::by_recency(M, E) :- recent(M, E, 1), mention_kind(M, name).
0.128::by_recency(M, E) :- recent(M, E, 2), mention_kind(M, name).
0.074::by_recency(M, E) :- recent(M, E, 3), mention_kind(M, name).
0.014::by_recency(M, E) :- recent(M, E, 4), mention_kind(M, name).
% ... and for a pronoun or definite noun phrase, whose only evidence this is, with weights of
% this project (an agreeing entity of the last turn is what "she" or "that meeting" means).
% None of them holds a pronoun that its own turn gave an agreeing name before it (by_context below).
0.8::by_recency(M, E) :- recent(M, E, 1), anaphor(M), \+ named_here(M).
0.5::by_recency(M, E) :- recent(M, E, 2), anaphor(M), \+ named_here(M).
0.3::by_recency(M, E) :- recent(M, E, 3), anaphor(M), \+ named_here(M).
0.1::by_recency(M, E) :- recent(M, E, 4), anaphor(M), \+ named_here(M).
recent(M, E, N) :- new(M), mention(M, T), back(T, T1, N), mention(M1, T1), linked(M1, E), linkable(M, E).

% A pronoun keeps to the entity the user's previous turn referred to by a pronoun or definite
% noun phrase (the topic of the exchange), even when the reply in between named others
% ("Who else is in his group?" - "Lars and Amara." - "What meetings does he have?").
0.85::by_topic(M, E) :- new(M), anaphor(M), \+ named_here(M), mention(M, T), back(T, T1, 2), mention(M1, T1),
                        anaphor(M1), linked(M1, E), linkable(M, E).

% The one entity of its kind the previous turn named ("You can contact Kathy Green." - "her"):
% as strong as the topic of the exchange, so an earlier link (right or wrong) does not capture
% every later pronoun; a reply naming several (a list) leaves the topic in charge.
% An aside of a reply that answered is not that one: "Its director is Amal Idris, who works from
% Surgery Suite B." names one room, but "it" after it is still the clinic asked about.
0.85::by_recency(M, E) :- new(M), anaphor(M), \+ named_here(M), mention(M, T), back(T, T1, 1), wants_kind(M, K),
                          listed(T1, K, 1, E), \+ listed(T1, K, 2, _), linkable(M, E), \+ aside(T1, E).
aside(T, E) :- answered(T, _), \+ answered(T, E), \+ topic(T, E).

% What the question the previous reply answered was about, whether the question named it or
% pointed at it, when the reply did not name it again ("Who runs Harbourside Veterinary Clinic?" -
% "Its director is Amal Idris, who works from Surgery Suite B." - "When was it founded?"), nor
% brought in one other thing of the pronoun's kind that is no aside ("What is her phone number?" -
% "You could also contact Lena Ostrova." - "What is her e-mail address?": Lena's).
0.85::by_topic(M, E) :- new(M), anaphor(M), \+ named_here(M), mention(M, T), back(T, T1, 1), topic(T1, E),
                        \+ listed(T1, _, _, E), linkable(M, E), \+ brought_in(T1, M).
brought_in(T, M) :- wants_kind(M, K), listed(T, K, 1, E), \+ listed(T, K, 2, _), linkable(M, E), \+ aside(T, E).

% The answer of the previous turn: what the reply brought in that the question had not named
% ("Who runs the clinic?" - "The director is Dr Amal Idris." - "When was she born?"; "What's the
% capital of Poland?" - "Warsaw." - "How many people live there?"; "Which airline flies it?" -
% "Bluebird Airlines." - "When was that airline founded?"), of a kind the pronoun takes answers
% of: "it" keeps to the topic ("Where is the review?" - "In Room Beta." - "When does it start?"),
% "they" over a person.
0.6::by_answer(M, E) :- new(M), \+ named_here(M), mention(M, T), back(T, T1, 1), answered(T1, E),
                        linkable(M, E), kind(E, K), answer_kind(M, K).
0.6::by_answer(M, E) :- new(M), \+ named_here(M), mention(M, T), back(T, T1, 1), answered(T1, E),
                        linkable(M, E), wants_class(M, C), class_of(E, C).

% Of the agreeing entities of the previous turn, one that has the relation the turn names is
% likelier the one meant ("Who won the Skerry Cup?" - "Sea Thrush won it." - "Who skippers it?":
% the yacht has a skipper, the race none; "When was that company founded?": the operator was,
% the route it runs was not).
0.7::by_fit(M, E) :- new(M), anaphor(M), \+ named_here(M), mention(M, T), back(T, T1, 1), mention(M1, T1),
                     linked(M1, E), linkable(M, E), has_asked(E).
0.7::by_fit(M, E) :- new(M), anaphor(M), \+ named_here(M), mention(M, T), back(T, T1, 1), topic(T1, E),
                     linkable(M, E), has_asked(E).

% Of the people the previous turn named, one the KG gives the pronoun's gender is likelier than
% one whose gender it does not say ("Bram Oyelaran and Zora Quill kept it." - "When was she
% born?": Zora, whom the KG calls a woman; of Bram it says nothing).
0.5::by_gender(M, E) :- new(M), pronoun_gender(M, G), \+ named_here(M), mention(M, T), back(T, T1, 1), mention(M1, T1),
                        linked(M1, E), gender_of(E, G), linkable(M, E).

% "The first one", "the second meeting", "the last room": the N-th entity of an agreeing kind
% the previous turn listed (N = -1 for the last).
0.9::by_recency(M, E) :- new(M), ordinal(M, N), mention(M, T), back(T, T1, 1), wants_kind(M, K), listed(T1, K, N, E).

% A definite noun phrase ("that group") may point further back than four turns: any entity of
% its kind the dialogue referred to in the last ten, more weakly.
0.3::by_memory(M, E) :- new(M), mention_kind(M, definite), \+ named_here(M), mention(M, T), mention(M1, T1), T1 \= T,
                        linked(M1, E), linkable(M, E).

% A pronoun takes up an entity named earlier in the same turn, weakly where it may as well mean
% someone else ("Can Lisa meet him?")...
0.35::by_context(M, E) :- new(M), anaphor(M), before(M1, M), by_name(M1, E), linkable(M, E).
% ... and as the nearest antecedent where English lets it take the name up: a possessive ("Is Lisa
% in her office?") or a later clause ("When was Velvet Static formed, and which label are they
% signed to?"). The earlier turns' entities then lose their hold on it (named_here above).
0.85::by_context(M, E) :- new(M), anaphor(M), here(M1, M), by_name(M1, E), linkable(M, E).
named_here(M) :- here(M1, M), mention_kind(M1, name), candidate(M1, E), linkable(M, E).

% First person ("I", "my", "me") is the speaker, once known.
refers_to(M, E) :- new(M), mention_kind(M, first_person), speaker(E).
