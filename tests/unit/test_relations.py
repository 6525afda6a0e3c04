"""The relation matcher: label words, the encoder, answer types and units, on relations of small
made-up KGs (a band, a stadium, a recipe, a city)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.nlp.units import unit_of
from engine.relations import (
    MATCH_MIN,
    Relation,
    RelationMatcher,
    fits,
    other_modifier,
    phrase_words,
    quantity,
    relation_kind,
    stem,
    value_kind,
)

BAND = [Relation("date published", "p:date", "date"), Relation("recordLabel", "p:label", "entity"),
        Relation("numberOfTracks", "p:tracks", relation_kind("numberOfTracks", "11")),
        Relation("producer", "p:producer", "entity"), Relation("former member", "p:former", "entity"),
        Relation("member", "p:member", "entity")]
PERSON = [Relation("place of birth", "p:bp", "entity"), Relation("date of birth", "p:bd", "date"),
          Relation("date of death", "p:dd", "date")]


@pytest.mark.parametrize("forms", [("directed", "director", "directs"), ("published", "publication"),
                                   ("born", "birth"), ("founded", "founder"), ("created", "creator", "creates"),
                                   ("located", "location"), ("teaches", "teacher")])
def test_stem_joins_the_forms_of_a_word(forms):
    assert len({stem(w) for w in forms}) == 1


@pytest.mark.parametrize("text, kind", [
    ("was founded in 1237", "date"), ("came out on 3 May 2019", "date"), ("holds 60,000 people", "count"),
    ("has about 1,200 students", "count"), ("takes about an hour", "duration"), ("bakes for 45 minutes", "duration"),
    ("covers 415 km²", "area"), ("is 8.8 km long", "length"), ("weighs 3 t", "mass"), ("How long does it take?", "duration"),
    ("When did it open?", "date"), ("How many people live there?", "count"), ("is signed to Northwire", ""),
    ("is a 15-credit course", "number"), ("starts at 14:00", "time"), ("How fast can it go?", "speed"),
    ("tops out at 130 mph", "speed"),
])
def test_value_kind(text, kind):
    assert value_kind(text) == kind


@pytest.mark.parametrize("text, minutes_or_base, kind, rough", [
    ("about an hour", 60.0, "duration", True), ("90 seconds", 1.5, "duration", False),
    ("two days", 2880.0, "duration", True), ("roughly 3 km", 3000.0, "length", True),
    ("415 km²", 415e6, "area", False), ("2.5 tonnes", 2500.0, "mass", False), ("500 g", 0.5, "mass", False),
])
def test_quantity_in_base_units(text, minutes_or_base, kind, rough):
    q = quantity(text)
    assert q is not None and q.kind == kind and q.rough == rough
    assert q.value == pytest.approx(minutes_or_base)


def test_units_named_by_labels():
    assert unit_of("cookingTimeMinutes").kind == "duration" and unit_of("cookingTimeMinutes").factor == 1.0
    assert unit_of("height in metres").kind == "length"
    assert unit_of("area (km2)").factor == 1e6
    assert unit_of("monthly listeners") is None


@pytest.mark.parametrize("label, value, datatype, kind", [
    ("cookingTimeMinutes", "25", None, "duration"), ("maximum capacity", "60000", None, "count"),
    ("founded", "1237", None, "date"), ("inception", "1158-01-01", None, "date"),
    ("calories", "350", "http://www.w3.org/2001/XMLSchema#integer", "count"), ("spice level", "medium", None, "text"),
    ("has ingredient", None, None, "entity"), ("weight", "3.2", None, "mass"), ("rating", "4.5", None, "number"),
    ("top speed", "210 km/h", None, "speed"), ("elevation", "1222 m", None, "length"),
    ("journey time", "6 h 40 min", None, "duration"), ("address", "12 m street", None, "text"),
    ("distance", "about 5 km", None, "text"),
])
def test_relation_kind(label, value, datatype, kind):
    assert relation_kind(label, value, datatype) == kind


def test_a_year_fits_only_a_date_relation_and_a_unit_only_its_kind():
    assert fits("date", "date") is True
    assert fits("date", "count") is False and fits("date", "number") is False
    assert fits("count", "date") is False and fits("count", "number") is True
    assert fits("duration", "duration") is True and fits("duration", "count") is False
    assert fits("duration", "number") is False  # "about an hour" is not a bare number of anything
    assert fits("number", "duration") is True  # "takes 25" may be minutes
    assert fits("entity", "date") is False
    assert fits("", "date") is None and fits("date", "") is None


def test_british_and_american_spellings_meet():
    assert stem("centre") == stem("center") and stem("colours") == stem("color") and stem("metre") == stem("meter")
    assert stem("hour") != stem("hor") and stem("genre") == stem("genres")


def test_label_words_pick_the_relation():
    m = RelationMatcher()
    assert m.best("was produced by", BAND, kind="entity").relation.key == "p:producer"
    assert m.best("has 12 tracks", BAND).relation.key == "p:tracks"
    # a paraphrase of the relation no stemmer joins: "came out" is a publication
    assert m.best("came out in", BAND, value="2015").relation.key == "p:date"
    # who "runs" or "heads" an organisation is its head, whatever the KG calls the post
    firm = [Relation("chief executive", "p:ceo"), Relation("headquarters", "p:hq"), Relation("founded", "p:founded")]
    assert m.best("runs", firm, kind="entity").relation.key == "p:ceo"


def test_everyday_phrases_for_what_a_dish_holds_and_is_eaten_with():
    m = RelationMatcher()  # words only: no encoder
    dish = [Relation("has ingredient", "p:ing"), Relation("served with", "p:side"), Relation("calories", "p:kcal")]
    assert m.best("what goes into", dish, kind="entity").relation.key == "p:ing"
    assert m.best("what should I eat it with", dish, kind="entity").relation.key == "p:side"
    city = [Relation("local dialing code", "p:code"), Relation("postal code", "p:zip")]
    assert m.best("the prefix of a landline number", city).relation.key == "p:code"


def test_the_value_kind_decides_between_relations_the_words_both_name():
    m = RelationMatcher()
    assert m.best("was born in", PERSON, kind="entity").relation.key == "p:bp"
    assert m.best("was born in 1972", PERSON).relation.key == "p:bd"
    # a year said of a death is not the birth date
    assert m.best("died in 1924", PERSON).relation.key == "p:dd"
    # without a value, "born" says place and date alike: no one relation
    assert m.best("was born", PERSON) is None


def test_a_misfit_scores_zero_whatever_the_words():
    m = RelationMatcher()
    assert m.score("came out on Halcyon Tapes", Relation("date published", kind="date"), kind="entity") == 0.0
    assert m.score("has 12 tracks", Relation("numberOfTracks", kind="count")) > MATCH_MIN


def test_part_of_a_label_is_not_the_whole_relation():
    m = RelationMatcher()
    ranked = {x.relation.key: x for x in m.rank("is a member of", BAND, kind="entity")}
    assert ranked["p:member"].score > ranked["p:former"].score
    assert ranked["p:former"].words == 0.5


class TableEncoder:
    """An encoder with fixed vectors per text: a paraphrase near its relation, the rest apart."""

    def __init__(self, near: dict[str, str]):
        self.near = near
        self.calls = 0
        self._axes: dict[str, int] = {}

    def _axis(self, text: str) -> int:
        return self._axes.setdefault(self.near.get(text, text), len(self._axes))

    def encode(self, texts):
        self.calls += 1
        out = np.zeros((len(texts), 64), dtype=np.float32)
        for i, t in enumerate(texts):
            out[i, self._axis(t)] = 1.0
        return out


def test_the_encoder_finds_a_relation_said_in_other_words():
    rels = [Relation("directed by", "p:dir", "entity"), Relation("cast member", "p:cast", "entity")]
    said = phrase_words("was behind the camera for")
    enc = TableEncoder({said: "directed by"})
    m = RelationMatcher(enc)
    best = m.best("was behind the camera for", rels, kind="entity")
    assert best is not None and best.relation.key == "p:dir" and best.words == 0.0 and best.meaning == 1.0
    assert RelationMatcher().best("was behind the camera for", rels, kind="entity") is None


def test_an_encoder_factory_is_built_once_and_only_when_needed():
    built = []

    def factory():
        built.append(1)
        return TableEncoder({})

    m = RelationMatcher(factory)
    assert not built
    m.rank("was produced by", BAND)
    m.rank("was released by", BAND)
    assert built == [1]


class SpreadEncoder:
    """Unit vectors in four dimensions drawn from each text: cosines spread over the whole range
    the matcher maps, so that a grid and a ranking that differ anywhere are told apart."""

    def __init__(self):
        self.calls = 0

    def encode(self, texts):
        self.calls += 1
        out = []
        for t in texts:
            v = np.random.default_rng(sum(ord(c) * (i + 1) for i, c in enumerate(t))).normal(size=4)
            out.append(v / np.linalg.norm(v))
        return np.array(out, dtype=np.float32)


def test_the_grid_scores_every_label_for_every_phrase_as_rank_does():
    labels = ["date published", "recordLabel", "head coach", "place of birth", "former member", "capacity"]
    phrases = ["came out", "was born in", "coach", "holds 60,000 people", "is signed to", "the", ""]
    enc = SpreadEncoder()
    m = RelationMatcher(enc)
    grid = m.grid(labels, phrases)
    assert enc.calls == 1 and grid.shape == (len(labels), len(phrases))
    ranked = np.array([[m.score(p, Relation(label)) for p in phrases] for label in labels])
    assert grid == pytest.approx(ranked, abs=1e-6)
    words_only = RelationMatcher().grid(labels, phrases)
    assert (grid > words_only).any() and (words_only > 0).any()  # meanings and words both at work
    assert words_only == pytest.approx(np.array([[RelationMatcher().score(p, Relation(label)) for p in phrases]
                                                 for label in labels]))
    assert m.grid([], phrases).shape == (0, len(phrases)) and m.grid(labels, []).shape == (len(labels), 0)


@given(st.text(max_size=60), st.sampled_from(BAND + PERSON), st.sampled_from(["", "date", "count", "entity", None]))
def test_scores_stay_between_zero_and_one(phrase, relation, kind):
    s = RelationMatcher().score(phrase, relation, kind=kind)
    assert 0.0 <= s <= 1.0


def test_the_packaged_encoder_reads_a_paraphrase():
    from engine.nlp.encoder import Encoder

    rels = [Relation("directed by", "p:dir", "entity"), Relation("cast member", "p:cast", "entity"),
            Relation("filming location", "p:loc", "entity"), Relation("production company", "p:studio", "entity")]
    best = RelationMatcher(Encoder()).best("Which studio made it?", rels)
    assert best is not None and best.relation.key == "p:studio" and best.words == 0.0
    assert RelationMatcher().best("Which studio made it?", rels) is None  # no word of the label said


@pytest.mark.parametrize("phrase, other", [
    ("Who is Arsenal's goalkeeping coach?", True),
    ("Arsenal's goalkeeping coach is Mikel Arteta.", True),
    ("Who coaches Arsenal?", False),
    ("Who is Arsenal's coach?", False),
    ("Who is the head coach of Arsenal?", False),
    ("Who is the Arsenal coach?", False),
])
def test_a_modifier_the_label_lacks_names_another_relation(phrase, other):
    head_coach = Relation("head coach")
    matcher = RelationMatcher()
    assert other_modifier("head coach", phrase) is other
    assert (matcher.score(phrase, head_coach) == 0.0) == other
    assert bool(matcher.grid(["head coach"], [phrase])[0, 0] == 0.0) == other
    # A label of one noun is narrowed by no modifier.
    assert matcher.score(phrase, Relation("coach")) > 0
