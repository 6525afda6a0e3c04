"""Relation paths (engine/stages/route/paths.py): enumeration from the named entity over one and two edges in
both directions, scoring of the labels against the question with its names masked, lists,
compound questions, ties, bounds and the notes that say what was cut, on small KGs of several
formats. The label scorer is injected: words shared, plus a few synonyms a sentence encoder
would give, so that these tests do not depend on a model."""

from __future__ import annotations

import numpy as np
import pytest

from engine.nlp.sentences import verbalize
from engine.relations import RelationMatcher
from engine.stages.route import clauses, paths, sides
from engine.stages.route.clauses import parts_of, spans_of, stems
from engine.stages.route.paths import Question, enumerate_paths, search
from engine.state import Candidate
from kgstore import KGStore

SYNONYMS = {"manager": "coach", "singer": "vocalist", "records": "album", "born": "birth", "cost": "price",
            "come": "origin", "comes": "origin", "job": "occupation"}


def lexical(labels, spans) -> np.ndarray:
    """The share of each label's content words said in each span."""
    out = np.zeros((len(labels), len(spans)), dtype=np.float32)
    for i, label in enumerate(labels):
        own = stems(label)
        for j, span in enumerate(spans):
            out[i, j] = len(own & stems(span)) / len(own) if own else 0.0
    return out


def matcher(labels, spans):
    """Words shared, with a synonym counting as its word."""
    said = [" ".join(SYNONYMS.get(w, w) for w in s.casefold().split()) for s in spans]
    return lexical(labels, said)


def kg(tmp_path, name: str, text: str) -> KGStore:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    store = KGStore()
    store.load(str(path))
    return store


def around(store, seeds, hops=2) -> list[Candidate]:
    nb = store.neighborhood(seeds, hops=hops, cap=2000)
    cands = [Candidate(fact=f, hop=nb.hop[f.key]) for f in nb.facts]
    verbalize(cands, store)
    return cands


def ask(store, start: str, text: str, earlier: str = "", hops=2, **kw):
    label = store.label(start)
    from engine.nlp.answer_type import asks_list

    q = Question(text, [label], earlier=earlier, asks_list=asks_list(text))
    return search(around(store, [start], hops), {start: label}, q, kw.pop("m", matcher), **kw)


def steps(path) -> list[tuple[str, bool]]:
    return [(s.label, s.forward) for s in path.steps]


FB = "http://example.org/fb/"
FOOTBALL = f"""@prefix ex: <{FB}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:ann rdfs:label "Ann Berg" ; ex:playsFor ex:rovers ; ex:birthPlace ex:oslo ; ex:birthDate "1990-04-02"^^xsd:date ;
    ex:givenName "Ann" .
ex:rovers rdfs:label "Harbour Rovers" ; ex:headCoach ex:carl ; ex:homeGround ex:quay ; ex:founded "1901" .
ex:carl rdfs:label "Carl Dunn" ; ex:birthPlace ex:bergen .
ex:ole rdfs:label "Ole Lund" ; ex:playsFor ex:rovers .
ex:oslo rdfs:label "Oslo" . ex:bergen rdfs:label "Bergen" . ex:quay rdfs:label "Quay Park" .
ex:playsFor rdfs:label "plays for" . ex:headCoach rdfs:label "head coach" . ex:homeGround rdfs:label "home ground" .
ex:birthPlace rdfs:label "place of birth" . ex:birthDate rdfs:label "date of birth" . ex:founded rdfs:label "founded" .
ex:givenName rdfs:label "given name" .
"""


def test_paths_of_one_and_two_edges_both_ways_never_through_a_literal_nor_back_to_the_start(tmp_path):
    store = kg(tmp_path, "kg.ttl", FOOTBALL)
    graph = paths.build_graph(around(store, [FB + "ann"]), paths.usable_for("anything"))
    found, cut = enumerate_paths(graph, FB + "ann")
    sigs = {tuple(f.labels): f for f in found}
    assert not cut
    assert ("plays for",) in sigs and ("plays for", "head coach") in sigs
    assert ("plays for", "plays for") in sigs  # a team-mate: Ann -> Rovers <- Ole
    mate = sigs[("plays for", "plays for")]
    assert mate.signature[1][1] is False and [paths.end_of(c, FB + "ann") for c in mate.chains] == [FB + "ole"]
    assert not any(len(f.labels) == 2 and f.labels[0] in ("date of birth", "founded") for f in found
                   if f.signature[0][0] == FB + "birthDate")  # a date leads nowhere
    assert all(paths.end_of(c, FB + "ann") != FB + "ann" for f in found for c in f.chains)
    assert ("given name",) not in sigs  # a name record, and the question does not ask for a name


def test_two_hops_win_when_both_relations_are_asked_one_hop_when_one_is(tmp_path):
    store = kg(tmp_path, "kg.ttl", FOOTBALL)
    two = ask(store, FB + "ann", "Who is the manager of the team Ann Berg plays for?")
    assert steps(two.paths[0]) == [("plays for", True), ("head coach", True)]
    assert two.paths[0].values == ["Carl Dunn"] and two.paths[0].total == 1
    assert [[f.o for f in chain] for chain in two.paths[0].chains] == [[FB + "rovers", FB + "carl"]]
    that = ask(store, FB + "ann", "Who is the manager of the team that Ann Berg plays for?")
    assert steps(that.paths[0]) == [("plays for", True), ("head coach", True)] and that.paths[0].values == ["Carl Dunn"]
    one = ask(store, FB + "ann", "Which team does Ann Berg play for?")
    assert steps(one.paths[0]) == [("plays for", True)] and one.paths[0].values == ["Harbour Rovers"]
    coach = ask(store, FB + "carl", "Where was Carl Dunn born?")
    assert steps(coach.paths[0]) == [("place of birth", True)] and coach.paths[0].values == ["Bergen"]


FAVOURITE = ('ex:ann ex:favouriteGame ex:chess . ex:chess rdfs:label "Chess" .\n'
             'ex:favouriteGame rdfs:label "favourite game" .\n')


def one_word_reads_as(share: float):
    """A sentence encoder's reading: one word of a label said reads as `share` of the whole."""
    def match(labels, spans):
        out = lexical(labels, spans)
        return np.where((out > 0) & (out < 1), share, out)
    return match


def test_a_second_step_needs_words_the_first_relation_does_not_say(tmp_path):
    club = FOOTBALL + FAVOURITE + ('ex:night rdfs:label "Game Night 4" ; ex:gamePlayed ex:chess ; ex:host ex:ann .\n'
                                   'ex:gamePlayed rdfs:label "game played" .\n')
    store = kg(tmp_path, "kg.ttl", club)
    out = ask(store, FB + "ann", "What is Ann Berg's favourite game?", m=one_word_reads_as(0.9))
    assert [steps(p) for p in out.paths] == [[("favourite game", True)]] and out.paths[0].values == ["Chess"]


def test_a_relation_said_twice_is_a_chain_of_it_twice(tmp_path):
    club = FOOTBALL + ('ex:ann ex:mentor ex:ole . ex:ole ex:mentor ex:carl .\n'
                       'ex:mentor rdfs:label "mentor" .\n')
    store = kg(tmp_path, "kg.ttl", club)
    out = ask(store, FB + "ann", "Who mentors the mentor of Ann Berg?")
    assert steps(out.paths[0]) == [("mentor", True), ("mentor", True)] and out.paths[0].values == ["Carl Dunn"]


def test_a_chain_cannot_split_the_words_of_a_relation_named_in_full(tmp_path):
    club = FOOTBALL + ('ex:ann ex:favouriteGame ex:chess . ex:chess rdfs:label "Chess" . ex:go rdfs:label "Go" .\n'
                       'ex:night rdfs:label "Game Night 4" ; ex:gamePlayed ex:go ; ex:winner ex:ann .\n'
                       'ex:favouriteGame rdfs:label "favourite game" . ex:gamePlayed rdfs:label "game played" .\n'
                       'ex:winner rdfs:label "winner" .\n')
    store = kg(tmp_path, "kg.ttl", club)

    def encoder_like(labels, spans):
        """A sentence encoder that reads "winner" much like "favourite" and one word of a label
        as the whole label."""
        out = matcher(labels, spans)
        out = np.where((out > 0) & (out < 1), 1.0, out)
        for i, label in enumerate(labels):
            for j, span in enumerate(spans):
                if label == "winner" and span == "favourite":
                    out[i, j] = 0.75
        return out

    out = ask(store, FB + "ann", "What is Ann Berg's favourite game?", m=encoder_like)
    assert [steps(p) for p in out.paths] == [[("favourite game", True)]] and out.paths[0].values == ["Chess"]
    # A relation named in full still starts a chain that asks for more words.
    out = ask(store, FB + "rovers", "Where was the head coach of Harbour Rovers born?", m=encoder_like)
    assert steps(out.paths[0]) == [("head coach", True), ("place of birth", True)] and out.paths[0].values == ["Bergen"]


@pytest.mark.parametrize("question, asked", [
    ("Which game nights were hosted by xentity?", {"game", "night"}),
    ("Which stadium hosts xentity?", {"stadi"}),
    ("What instrument does xentity play?", {"instr"}),
    ("Who hosted xentity?", set()),
])
def test_the_noun_a_which_question_asks_for(question, asked):
    assert clauses.asked_words(question) == asked


def test_values_of_the_class_asked_for_win_over_a_relation_the_noun_only_modifies(tmp_path):
    club = FOOTBALL + FAVOURITE + ('ex:night a ex:GameNight ; rdfs:label "Night 4" ; ex:hostedBy ex:ann .\n'
                                   'ex:hostedBy rdfs:label "hosted by" .\n')
    store = kg(tmp_path, "kg.ttl", club)
    # an encoder whose similarity saturates: one shared word reads as the whole label
    out = ask(store, FB + "ann", "Which game nights were hosted by Ann Berg?", m=one_word_reads_as(1.0))
    assert [(steps(p), p.values) for p in out.paths] == [([("hosted by", False)], ["Night 4"])]


def test_the_asked_type_picks_between_relations_that_read_alike(tmp_path):
    store = kg(tmp_path, "kg.ttl", FOOTBALL)
    where = ask(store, FB + "ann", "Where was Ann Berg born?")
    assert steps(where.paths[0]) == [("place of birth", True)] and where.paths[0].values == ["Oslo"]
    when = ask(store, FB + "ann", "When was Ann Berg born?")
    assert steps(when.paths[0]) == [("date of birth", True)]



def test_a_path_whose_values_cannot_be_the_asked_type_is_no_answer(tmp_path):
    """Words alike are not enough: "When was Quay Park built?" reads like "built by", but a person
    is no date, and "How much does Ann cost?" is not answered by the club she plays for."""
    store = kg(tmp_path, "kg.ttl", FOOTBALL + f"""@prefix ex: <{FB}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:quay ex:builtBy ex:carl . ex:builtBy rdfs:label "built by" .
ex:ann ex:price ex:rovers . ex:price rdfs:label "price" .
""")
    assert ask(store, FB + "quay", "Who built Quay Park?").paths[0].values == ["Carl Dunn"]
    assert ask(store, FB + "quay", "When was Quay Park built?").paths == []
    assert ask(store, FB + "ann", "How much does Ann Berg cost?").paths == []
    # A date of birth for "when", whatever else reads like "born"; a year founded for "what year".
    assert steps(ask(store, FB + "ann", "What is Ann Berg's date of birth?").paths[0]) == [("date of birth", True)]
    assert ask(store, FB + "rovers", "In what year was Harbour Rovers founded?").paths[0].values == ["1901"]
    # A number of things is the things counted.
    players = ask(store, FB + "rovers", "How many players play for Harbour Rovers?").paths[0]
    assert steps(players) == [("plays for", False)] and players.total == 2

FILMS_CSV = """head,relation,tail,tail_type
Tide Film,director,Dara Quinlan,
Lantern Film,director,Dara Quinlan,
Salt Film,director,Dara Quinlan,
Salt Film,release year,2019,literal
Other Film,director,Noor Amin,
Dara Quinlan,born in,Dublin,
"""


def test_an_inverse_list_gathers_every_value_counted(tmp_path):
    store = kg(tmp_path, "kg.csv", FILMS_CSV)
    dara = next(e.iri for e in store.label_entries() if e.text == "Dara Quinlan")
    out = ask(store, dara, "Which films did Dara Quinlan direct?")
    path = out.paths[0]
    assert steps(path) == [("director", False)]
    assert path.asks_all and path.total == 3 and sorted(path.values) == ["Lantern Film", "Salt Film", "Tide Film"]
    assert "Other Film" not in path.values


def test_a_long_list_is_cut_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "VALUES_CAP", 2)
    store = kg(tmp_path, "kg.csv", FILMS_CSV)
    dara = next(e.iri for e in store.label_entries() if e.text == "Dara Quinlan")
    out = ask(store, dara, "Which films did Dara Quinlan direct?")
    path = out.paths[0]
    assert path.total == 3 and len(path.chains) == len(path.values) == 2
    assert path.cut == "3 values, the first 2 kept"
    assert "Dara Quinlan: director (of): 3 values, the first 2 kept" in out.notes


def test_a_compound_question_gives_one_path_per_asked_relation(tmp_path):
    store = kg(tmp_path, "kg.ttl", FOOTBALL)
    out = ask(store, FB + "ann", "When and where was Ann Berg born?")
    assert sorted(p.steps[0].label for p in out.paths) == ["date of birth", "place of birth"]
    both = ask(store, FB + "rovers", "What is the home ground and the head coach of Harbour Rovers?")
    assert {p.steps[0].label for p in both.paths} == {"home ground", "head coach"}
    assert len({p.part for p in both.paths}) == 2


def test_a_clause_of_question_words_only_takes_the_one_relation_of_its_type(tmp_path):
    final = ('ex:final rdfs:label "Cup Final" ; ex:on "2024-05-01"^^xsd:date ; ex:hostedBy ex:rovers .\n'
             'ex:on rdfs:label "date" . ex:hostedBy rdfs:label "hosted by" .\n')
    store = kg(tmp_path, "kg.ttl", FOOTBALL + final)
    out = ask(store, FB + "final", "When was Cup Final and who hosted it?")
    assert sorted((p.steps[0].label, p.values[0]) for p in out.paths) == [("date", "Wednesday 1 May 2024 (2024-05-01)"),
                                                                          ("hosted by", "Harbour Rovers")]
    # Two relations with a date: the clause's words must choose, and "hosted" says neither.
    extra = 'ex:final ex:drawn "2024-01-10"^^xsd:date . ex:drawn rdfs:label "draw date" .\n'
    store = kg(tmp_path, "kg2.ttl", FOOTBALL + final + extra)
    out = ask(store, FB + "final", "When was Cup Final and who hosted it?")
    assert [p.steps[0].label for p in out.paths] == ["hosted by"]


def test_a_clause_of_a_preposition_and_the_asked_noun_takes_the_verb_before_it(tmp_path):
    band = ('ex:lane rdfs:label "Kestrel Lane" ; ex:formed "2014" ; ex:formedIn ex:glasgow ; ex:genre ex:folk .\n'
            'ex:glasgow rdfs:label "Glasgow" . ex:folk rdfs:label "folk" .\n'
            'ex:formed rdfs:label "founding year" . ex:formedIn rdfs:label "formed in" . ex:genre rdfs:label "genre" .\n')
    store = kg(tmp_path, "kg.ttl", FOOTBALL + band)
    out = ask(store, FB + "lane", "When was Kestrel Lane formed, and in which city?")
    assert ("formed in", "Glasgow") in [(p.steps[0].label, p.values[0]) for p in out.paths]
    # a clause with a verb of its own says its relation itself
    said = [s.text for s in parts_of("What is the population of it and in which country is it?")[1].spans]
    assert "country" in said and not any(s.endswith(" in") for s in said)


GEO = """@prefix ex: <http://example.org/geo/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:de rdfs:label "Germany" ; ex:continent ex:eu ; ex:borders ex:fr, ex:at .
ex:berlin rdfs:label "Berlin" ; ex:country ex:de ; a ex:City . ex:bonn rdfs:label "Bonn" ; ex:country ex:de ; a ex:City .
ex:eu rdfs:label "Europe" ; a ex:Continent . ex:fr rdfs:label "France" ; a ex:Country . ex:at rdfs:label "Austria" ; a ex:Country .
ex:City rdfs:label "city" . ex:Continent rdfs:label "continent" . ex:Country rdfs:label "country" .
ex:continent rdfs:label "continent" . ex:borders rdfs:label "shares border with" . ex:country rdfs:label "country" .
"""
GE = "http://example.org/geo/"


def test_a_label_that_says_more_of_the_question_wins_over_the_asked_noun(tmp_path):
    untyped = GEO.replace(" ; a ex:Country", "")  # nothing says the neighbours are countries
    out = ask(kg(tmp_path, "geo.ttl", untyped), GE + "de", "Which countries does Germany share a border with?")
    assert steps(out.paths[0]) == [("shares border with", True)]
    assert sorted(out.paths[0].values) == ["Austria", "France"]


def test_the_asked_noun_names_a_relation_in_words_not_in_meaning_alone(tmp_path):
    def near(labels, spans):  # what an encoder does: "countries" reads like "continent"
        out = matcher(labels, spans)
        for i, label in enumerate(labels):
            for j, span in enumerate(spans):
                if (label, span) in {("continent", "countries"), ("shares border with", "border")}:
                    out[i, j] = 1.0 if label == "continent" else 0.9
        return out

    out = ask(kg(tmp_path, "geo.ttl", GEO), GE + "de", "Which countries does Germany border?", m=near)
    # "continent" only means something near "countries", and its value is a continent, where
    # the KG has countries: the neighbours, which are countries, win
    assert steps(out.paths[0]) == [("shares border with", True)]


def test_the_one_relation_to_things_named_as_the_asked_noun_answers_whatever_its_words(tmp_path):
    csv = ("head,relation,tail\n"
           "Parsing,offered by,Department of Linguistics\nParsing,offered by,Department of Computing\n"
           "Parsing,taught in room,SH 1.01\nParsing,prerequisite,Syntax\n")
    store = kg(tmp_path, "kg.csv", csv)
    parsing = next(e.iri for e in store.label_entries() if e.text == "Parsing")
    out = ask(store, parsing, "Which departments run Parsing?")
    assert steps(out.paths[0]) == [("offered by", True)]
    assert sorted(out.paths[0].values) == ["Department of Computing", "Department of Linguistics"]
    assert ask(store, parsing, "Which lecturers run Parsing?").paths == []  # no thing is named so


def said_only_by(label: str, says):
    """The test matcher, but `label` fits only the spans `says` accepts, as an encoder that knows
    a phrase the label shares no word with."""
    def scorer(labels, spans):
        out = matcher(labels, spans)
        for i, name in enumerate(labels):
            for j, span in enumerate(spans):
                if name == label:
                    out[i, j] = 1.0 if says(span) else 0.0
        return out

    return scorer


def test_a_verb_is_also_read_with_its_particle(tmp_path):
    phrasal = said_only_by("place of birth", lambda span: span == "come from")  # "come" alone says nothing
    out = ask(kg(tmp_path, "kg.ttl", FOOTBALL), FB + "rovers", "Where does the head coach of Harbour Rovers come from?",
              m=phrasal)
    assert steps(out.paths[0]) == [("head coach", True), ("place of birth", True)] and out.paths[0].values == ["Bergen"]


def test_a_clause_of_one_word_is_also_read_whole(tmp_path):
    idiom = said_only_by("head coach", lambda span: "in charge" in span)  # "charge" alone says nothing
    out = ask(kg(tmp_path, "kg.ttl", FOOTBALL), FB + "rovers", "Who is in charge of Harbour Rovers?", m=idiom)
    assert steps(out.paths[0]) == [("head coach", True)] and out.paths[0].values == ["Carl Dunn"]


def test_a_relation_ending_in_a_preposition_is_not_walked_against_the_verb_of_its_subject(tmp_path):
    store = kg(tmp_path, "kg.ttl", FOOTBALL)
    out = ask(store, FB + "rovers", "Where does Harbour Rovers play its home games?")
    assert ("plays for", False) not in [s for p in out.paths for s in steps(p)]
    assert steps(out.paths[0]) == [("home ground", True)]
    assert steps(ask(store, FB + "rovers", "Who plays for Harbour Rovers?").paths[0]) == [("plays for", False)]
    assert steps(ask(store, FB + "ann", "Who does Ann Berg play for?").paths[0]) == [("plays for", True)]


def test_nothing_that_reads_like_the_question_gives_no_path(tmp_path):
    store = kg(tmp_path, "kg.ttl", FOOTBALL)
    assert ask(store, FB + "ann", "What does Ann Berg cost?").paths == []
    assert ask(store, FB + "ann", "Tell me about the weather").paths == []
    assert search([], {}, Question("Who?", []), matcher).paths == []


def test_a_name_record_is_a_path_only_when_the_question_asks_for_the_name(tmp_path):
    store = kg(tmp_path, "kg.ttl", FOOTBALL)
    assert steps(ask(store, FB + "ann", "What is the given name of Ann Berg?").paths[0]) == [("given name", True)]


NO_LABELS = """<http://ex.org/k/PadThai> <http://ex.org/k/hasIngredient> <http://ex.org/k/RiceNoodles> .
<http://ex.org/k/PadThai> <http://ex.org/k/hasIngredient> <http://ex.org/k/Tamarind> .
<http://ex.org/k/PadThai> <http://ex.org/k/originCountry> <http://ex.org/k/Thailand> .
<http://ex.org/k/Thailand> <http://ex.org/k/capitalCity> <http://ex.org/k/Bangkok> .
"""


def test_a_kg_without_labels_reads_its_local_names(tmp_path):
    store = kg(tmp_path, "kg.nt", NO_LABELS)
    out = ask(store, "http://ex.org/k/PadThai", "What is the capital city of the country Pad Thai comes from?")
    assert steps(out.paths[0]) == [("origin country", True), ("capital city", True)]
    assert out.paths[0].values == ["Bangkok"] and out.paths[0].start_label == "Pad Thai"
    listed = ask(store, "http://ex.org/k/PadThai", "List all ingredients of Pad Thai")
    assert steps(listed.paths[0]) == [("has ingredient", True)] and listed.paths[0].asks_all
    assert sorted(listed.paths[0].values) == ["Rice Noodles", "Tamarind"]


BAND = """@prefix ex: <http://example.org/m/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:kl rdfs:label "Kestrel Lane" ; ex:member ex:fr, ex:im ; ex:formed "2011" .
ex:fr rdfs:label "Fraser Reid" . ex:im rdfs:label "Ida Moss" .
ex:member rdfs:label "member" . ex:formed rdfs:label "formed" .
"""


def test_a_follow_up_that_names_no_relation_takes_it_from_the_turn_before(tmp_path):
    store = kg(tmp_path, "kg.ttl", BAND)
    out = ask(store, "http://example.org/m/kl", "Who are they?", earlier="Kestrel Lane has two members.")
    assert steps(out.paths[0]) == [("member", True)]
    assert out.paths[0].asks_all and sorted(out.paths[0].values) == ["Fraser Reid", "Ida Moss"]


def test_the_relation_the_asked_noun_names_wins_a_tie(tmp_path):
    store = kg(tmp_path, "kg.ttl", FOOTBALL + "ex:rovers ex:league ex:north . ex:north rdfs:label \"North League\" . "
                                             "ex:league rdfs:label \"league\" .\n")
    out = ask(store, FB + "rovers", "In which league does Harbour Rovers play?")
    assert [steps(p) for p in out.paths] == [[("league", True)]]


def test_paths_that_read_alike_are_both_kept_and_said(tmp_path):
    store = kg(tmp_path, "kg.ttl", """@prefix ex: <http://example.org/t/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:x rdfs:label "Xeno" ; ex:a ex:one ; ex:b ex:two .
ex:one rdfs:label "One" . ex:two rdfs:label "Two" .
ex:a rdfs:label "home city" . ex:b rdfs:label "city of home" .
""")
    out = ask(store, "http://example.org/t/x", "What is the home city of Xeno?")
    assert {p.steps[0].label for p in out.paths} == {"home city", "city of home"}
    assert any(n.startswith("paths that read alike") for n in out.notes)


def test_the_search_is_bounded_and_says_where(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "MAX_PATHS", 3)
    store = kg(tmp_path, "kg.ttl", FOOTBALL)
    out = ask(store, FB + "ann", "Which team does Ann Berg play for?")
    assert "path search from Ann Berg cut at 3 relation paths" in out.notes
    many = {f"urn:e{i}": f"E{i}" for i in range(paths.MAX_STARTS + 2)}
    cands = around(store, [FB + "ann"])
    res = search(cands, {FB + "ann": "Ann Berg", **many}, Question("Which team does Ann Berg play for?", ["Ann Berg"]),
                 matcher)
    assert f"paths searched from the first {paths.MAX_STARTS} of {paths.MAX_STARTS + 3} entities" in res.notes


class Remote:
    """A background that answers facts_about only, counting the calls (a remote endpoint's shape)."""

    def __init__(self, store):
        self.store, self.calls = store, []

    def facts_about(self, iri, cap=200):
        self.calls.append(iri)
        return self.store.facts_about(iri, cap)

    def labels(self, iris):
        return self.store.labels(iris)


def test_on_a_one_hop_neighbourhood_the_second_hop_is_fetched_bounded(tmp_path, monkeypatch):
    store = kg(tmp_path, "kg.ttl", FOOTBALL)
    remote = Remote(store)
    out = ask(store, FB + "ann", "Who is the manager of the team Ann Berg plays for?", hops=1,
              background=remote, one_hop=True)
    assert steps(out.paths[0]) == [("plays for", True), ("head coach", True)]
    assert FB + "rovers" in remote.calls and out.extra
    assert any(c.fact.o == FB + "carl" for c in out.extra)
    single = Remote(store)  # a question of one relation fetches nothing
    assert steps(ask(store, FB + "ann", "Which team does Ann Berg play for?", hops=1, background=single,
                     one_hop=True).paths[0]) == [("plays for", True)]
    assert single.calls == []
    monkeypatch.setattr(paths, "EXPAND_ENTITIES", 1)
    few = ask(store, FB + "ann", "Who is the manager of the team Ann Berg plays for?", hops=1,
              background=Remote(store), one_hop=True)
    assert any(n.startswith("second hops read for 1 of") for n in few.notes)
    monkeypatch.setattr(paths, "TIME_BUDGET_S", -1.0)
    late = ask(store, FB + "ann", "Who is the manager of the team Ann Berg plays for?", hops=1,
               background=Remote(store), one_hop=True)
    assert any(n.startswith("path search stopped after") for n in late.notes)


def test_a_remote_that_fails_leaves_the_one_hop_paths(tmp_path):
    from kgstore.errors import RemoteUnavailable

    class Down(Remote):
        def facts_about(self, iri, cap=200):
            raise RemoteUnavailable("http://kg.example/sparql did not answer in 5 s")

    store = kg(tmp_path, "kg.ttl", FOOTBALL)
    out = ask(store, FB + "ann", "Who is the manager of the team Ann Berg plays for?", hops=1, background=Down(store),
              one_hop=True)
    assert all(len(p.steps) == 1 for p in out.paths) and out.extra == []
    assert any(n.startswith("path search without second hops") and "did not answer" in n for n in out.notes)


@pytest.mark.parametrize("question, words", [
    ("Who is the manager of the team Ann Berg plays for?", {"team", "plays"}),
    ("What instrument does the lead singer of Ann Berg play?", {"lead", "singer"}),
    ("Where was Ann Berg's coach born?", {"coach"}),
    ("Who manages the team that Ann Berg plays for?", {"team", "plays"}),
    ("Who coaches the club which Ann Berg joined?", {"club", "joined"}),
    ("Which team does Ann Berg play for?", set()),
    ("Where was Ann Berg born?", set()),
    ("What is its home ground?", {"home"}),
    ("What is the address of the ground that hosts the Ann Berg?", {"ground", "hosts"}),  # the name's own article
    ("What are the founding years of Ann Berg coached clubs?", {"coached", "clubs"}),  # the clubs Ann Berg coached
    ("Who is the coach of Ann Berg?", {"coach"}),
    ("Who coaches the player Ann Berg?", set()),  # the noun before the name says what it is
])
def test_the_words_that_describe_the_middle_entity(question, words):
    text = clauses.masked(question, ["Ann Berg"])
    raw, content = clauses._content(text)
    assert {raw[content[k]] for k in clauses.described(text)} == words


def test_the_asked_noun_and_a_record_asked_in_other_words_can_be_the_second_step(tmp_path):
    extra = ('ex:oslo ex:country ex:norway . ex:norway rdfs:label "Norway" . ex:country rdfs:label "country" .\n'
             'ex:carl ex:occupation "trainer" . ex:occupation rdfs:label "occupation" .\n')
    store = kg(tmp_path, "kg.ttl", FOOTBALL + extra)
    where = ask(store, FB + "ann", "In which country is the city where Ann Berg was born?")
    assert steps(where.paths[0]) == [("place of birth", True), ("country", True)] and where.paths[0].values == ["Norway"]
    job = ask(store, FB + "rovers", "What is the job of the coach of Harbour Rovers?")
    assert steps(job.paths[0]) == [("head coach", True), ("occupation", True)] and job.paths[0].values == ["trainer"]


def test_a_question_without_a_described_middle_entity_asks_one_step(tmp_path):
    store = kg(tmp_path, "kg.ttl", FOOTBALL)  # Carl Dunn, Harbour Rovers' coach, was born in Bergen
    out = ask(store, FB + "ann", "In which city was Ann Berg born?")
    assert steps(out.paths[0]) == [("place of birth", True)]


def test_clauses_and_spans_of_a_question():
    assert [p.text for p in parts_of("When and where was it born?")] == ["When", "where was it born?"]
    when, where = parts_of("When and where was it born?")
    assert when.types == {"time"} and [s.text for s in when.spans] == [s.text for s in where.spans]
    assert [p.text for p in parts_of("What is the population and the area of it?")] == [
        "What is the population", "the area of it?"]
    spans = spans_of("Which records did it make")
    assert [s.text for s in spans][:2] == ["records", "make"]


def test_the_shared_relation_matcher_scores_every_label_against_every_span():
    match = RelationMatcher(None).grid  # its words and paraphrases only: no encoder in this test
    m = match(["head coach", "date published"], ["coach", "came out"])
    assert m.shape == (2, 2)
    assert m[0, 0] == pytest.approx(0.5) and m[0, 1] == 0.0
    assert m[1, 1] == pytest.approx(1.0) and m[1, 0] == 0.0
    assert match([], ["a"]).shape == (0, 1) and match(["a"], []).shape == (1, 0)


DISHES = """head,relation,tail,tail_type
Plum Tart,course,pudding,
Fig Fool,course,pudding,
Leek Soup,course,starter,
Fig Fool,made by,Ada Lowe,
Ada Lowe,occupation,pastry cook,
"""


def test_a_follow_up_asking_only_for_names_takes_the_one_relation_that_reaches_what_was_spoken_of(tmp_path):
    """"Who are they?" after "Two dishes are puddings.": the pudding is reached by one relation
    only, and what it is reached from is the answer, counted; a thing reached by several relations
    is no guess."""
    store = kg(tmp_path, "kg.csv", DISHES)
    pudding = next(e.iri for e in store.label_entries() if e.text == "pudding")
    out = ask(store, pudding, "And their names?", earlier="Yes, two of the dishes are puddings.")
    assert steps(out.paths[0]) == [("course", False)] and sorted(out.paths[0].values) == ["Fig Fool", "Plum Tart"]
    assert out.paths[0].asks_all
    fool = next(e.iri for e in store.label_entries() if e.text == "Fig Fool")
    assert ask(store, pudding, "And their names?").paths == []  # nothing was spoken of
    assert ask(store, fool, "Who are they?", earlier="Two things are linked to it.").paths == []


def test_a_plural_of_a_label_word_links_to_it():
    from engine.nlp.mentions import LabelIndex, detect_names
    from engine.nlp.plural import plural_of
    from kgstore.terms import LabelEntry

    index = LabelIndex([LabelEntry("pudding", "c:pudding"), LabelEntry("city", "c:city"), LabelEntry("box", "c:box")])
    assert [(m.text, m.candidates[0][0]) for m in detect_names("Are there any puddings?", index)] == [
        ("puddings", "c:pudding")]
    assert plural_of("cities", index.by_word) == "city" and plural_of("boxes", index.by_word) == "box"
    assert plural_of("glass", index.by_word) == "" and plural_of("puddingz", index.by_word) == ""


CITY = """@prefix ex: <http://example.org/c/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:warsaw rdfs:label "Warsaw" ; ex:area "517.24" ; ex:country ex:pl ; ex:address "1 Plac Zamkowy, 00-277" ;
  ex:founded "1300" .
ex:pl rdfs:label "Poland" .
ex:area rdfs:label "area" . ex:country rdfs:label "country" . ex:address rdfs:label "address" .
ex:founded rdfs:label "inception" .
"""
CI = "http://example.org/c/"


def test_a_word_said_only_to_qualify_the_next_names_no_relation(tmp_path):
    store = kg(tmp_path, "kg.ttl", CITY)
    assert ask(store, CI + "warsaw", "What is the telephone area code of Warsaw?").paths == []
    assert steps(ask(store, CI + "warsaw", "What is the area of Warsaw?").paths[0]) == [("area", True)]


def test_a_question_asking_when_is_not_answered_by_a_text_that_says_no_time(tmp_path):
    opened = said_only_by("address", lambda span: span == "open")  # an encoder near "open" / "address"
    store = kg(tmp_path, "kg.ttl", CITY.replace('  ex:founded "1300" .', "."))
    assert ask(store, CI + "warsaw", "In what year did Warsaw open?", m=opened).paths == []
    # a time said in the text answers it
    store = kg(tmp_path, "kg2.ttl", CITY.replace('"1 Plac Zamkowy, 00-277"', '"Mondays from 1999"'))
    assert steps(ask(store, CI + "warsaw", "In what year did Warsaw open?", m=opened).paths[0]) == [("address", True)]


KIN = "http://example.org/kin/"
KINSHIP = f"""@prefix ex: <{KIN}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:vera rdfs:label "Vera Holm" ; ex:child ex:nils ; ex:mentor ex:ruth .
ex:nils rdfs:label "Nils Holm" ; ex:mentor ex:vera .
ex:ruth rdfs:label "Ruth Aalto" .
ex:child rdfs:label "child" . ex:mentor rdfs:label "mentor" .
"""


@pytest.mark.parametrize("question, owned", [
    ("Who was xentity's mentor?", ("mentor",)), ("Who was the head coach of xentity?", ("head", "coach")),
    ("Where was xentity born?", ()), ("Who mentored xentity?", ()),
])
def test_the_noun_the_question_says_the_entity_has(question, owned):
    assert clauses.possessed(question) == owned


def test_a_relation_the_possessed_noun_names_is_not_read_backwards(tmp_path):
    store = kg(tmp_path, "kin.ttl", KINSHIP)
    # Nils's mentor is Vera: forwards
    assert [(p.values, steps(p)) for p in ask(store, f"{KIN}nils", "Who was Nils Holm's mentor?").paths] == \
        [(["Vera Holm"], [("mentor", True)])]
    # Ruth's mentor: the KG says only whom Ruth mentored; that is not it
    found = ask(store, f"{KIN}ruth", "Who was the mentor of Ruth Aalto?")
    assert not found.paths and found.turned == ["mentor"]
    assert "other way round" in found.notes[0]
    # whose child Nils is answers "Nils's mother": the noun is not the label's
    kin = lambda labels, spans: matcher(labels, [s.replace("mother", "child") for s in spans])  # noqa: E731
    assert [steps(p) for p in ask(store, f"{KIN}nils", "Who is Nils Holm's mother?", m=kin).paths] == [[("child", False)]]


def test_a_relation_named_by_the_opposite_of_the_possessed_noun_is_not_read_forwards(tmp_path, monkeypatch):
    class Opposites:
        def opposites(self, word):
            return {"father": frozenset({"child", "mother"})}.get(word, frozenset())

    store = kg(tmp_path, "kin.ttl", KINSHIP)
    kin = lambda labels, spans: matcher(labels, [s.replace("father", "child") for s in spans])  # noqa: E731
    monkeypatch.setattr(sides, "lexicon", lambda: None)  # without WordNet, nothing tells the two apart
    assert [steps(p) for p in ask(store, f"{KIN}vera", "Who was Vera Holm's father?", m=kin).paths] == [[("child", True)]]
    monkeypatch.setattr(sides, "lexicon", lambda: Opposites())
    found = ask(store, f"{KIN}vera", "Who was Vera Holm's father?", m=kin)
    assert not found.paths and found.turned == ["father"]
