"""Local names of custom KGs read as words (kgstore.vocab.split_words / readable_name)."""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgstore.vocab import readable_name, split_words


@pytest.mark.parametrize("name, words", [
    ("homeGround", "home ground"),
    ("place_of_birth", "place of birth"),
    ("cookingTimeMinutes", "cooking time minutes"),
    ("place-of-birth", "place of birth"),
    ("P2046", "P2046"),
    ("Q42", "Q42"),
    ("PadThai", "Pad Thai"),
    ("HTMLParser", "HTML Parser"),
    ("birthYear", "birth year"),
    ("servedWith", "served with"),
    ("capacity", "capacity"),
    ("home%20ground", "home ground"),
])
def test_split_words(name, words):
    assert split_words(name) == words


def test_readable_name_takes_the_last_segment():
    assert readable_name("http://example.org/football/homeGround") == "home ground"
    assert readable_name("http://example.org/kitchen#inventedBy") == "invented by"
    assert readable_name("http://www.wikidata.org/prop/direct/P2046") == "P2046"
    assert readable_name("urn:kgchat:kg:x:relation:place_of_birth") == "place of birth"


def test_unlabelled_predicates_verbalize_as_words(tmp_path):
    from engine.nlp.sentences import verbalize
    from engine.state import Candidate
    from kgstore.store import KGStore
    from kgstore.terms import Fact

    store = KGStore(None)
    c = Candidate(fact=Fact("http://example.org/f/club", "http://example.org/f/homeGround", "http://example.org/f/park"))
    verbalize([c], store)
    assert c.p_label == "home ground"
    assert c.text == "Club — home ground — park"


_IDENT = st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,8}(?:[_A-Z][a-z0-9]{1,6}){0,4}", fullmatch=True)
# Generation speed depends on the machine's load, which must not fail a test.
_RELAXED = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)


@_RELAXED
@given(_IDENT)
def test_splitting_keeps_every_letter_in_order(name):
    out = split_words(name)
    assert re.sub(r"[\s_]", "", out).casefold() == name.replace("_", "").casefold()
    assert "  " not in out and out == out.strip()


@_RELAXED
@given(_IDENT)
def test_splitting_is_idempotent(name):
    once = split_words(name)
    assert split_words(once) == once


@_RELAXED
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12))
def test_a_plain_lowercase_word_is_left_alone(word):
    assert split_words(word) == word
