"""Spoken forms: numbers and codes in words, names split or heard by sound, matched against a
KG's labels (a KG of island festivals and flights)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.nlp.mentions import LabelIndex, detect_names
from engine.nlp.spoken import UNITS, number_of, spelled, written_forms
from kgstore.terms import LabelEntry

ONES = {v: k for k, v in UNITS.items()}
TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()


def said(n: int) -> list[str]:
    """10-99 in words."""
    if n < 20:
        return [TEENS[n - 10]]
    return [TENS[n // 10 - 2]] + ([ONES[n % 10]] if n % 10 else [])


@given(st.integers(10, 99), st.integers(10, 99))
def test_a_year_said_as_two_pairs_is_its_digits(century, rest):
    assert number_of(said(century) + said(rest)) == f"{century}{rest}"


@given(st.lists(st.integers(0, 9), min_size=3, max_size=6))
def test_a_zero_said_as_the_letter_o_between_digits_is_a_zero(digits):
    """Said one by one with each inner zero as "o", the digits read as with "oh"; a code too."""
    said = [ONES[d] if d or i in (0, len(digits) - 1) else "o" for i, d in enumerate(digits)]
    with_oh = [ONES[d] if d or i in (0, len(digits) - 1) else "oh" for i, d in enumerate(digits)]
    assert number_of(said) == number_of(with_oh)
    assert spelled(["k", "l"] + said) == spelled(["k", "l"] + with_oh)


def test_an_o_that_ends_a_number_is_no_zero():
    assert number_of("four o".split()) is None  # "four o'clock"
    assert written_forms("meet at four o clock") == []
    assert spelled("k l four o two".split()) == "kl402"


@pytest.mark.parametrize("words, digits", [
    ("nineteen oh seven", "1907"), ("two thousand and eleven", "2011"), ("three one eight", "318"),
    ("six hundred forty", "640"), ("and", None), ("oh", None), ("seven hundred hundred", None)])
def test_numbers_in_words(words, digits):
    assert number_of(words.split()) == digits


def test_codes_spelled_out_and_numbers_in_a_question():
    assert spelled("cue ex three one eight".split()) == "qx318"
    assert spelled("three one eight".split()) is None  # no letter: a number, not a code
    text = "is flight cue ex three one eight on time for skerry fest twenty twenty one"
    assert [w for _, _, w in written_forms(text)] == ["QX318", "2021"]
    assert written_forms("why see the two of them") == []  # words that are letter names, no code


ENTRIES = [LabelEntry("Skerry Fest 2021", "f:skerry21"), LabelEntry("Skerry Fest 2019", "f:skerry19"),
           LabelEntry("Flight QX318", "fl:qx318"), LabelEntry("Tomas DeVries", "p:tomas"),
           LabelEntry("Oddhamn", "pl:oddhamn"), LabelEntry("Gullwing", "s:gull")]


@pytest.fixture(scope="module")
def index():
    return LabelIndex(ENTRIES)


@pytest.mark.parametrize("text, iri", [
    ("who plays at skerry fest twenty nineteen", "f:skerry19"),
    ("is flight cue ex three one eight late", "fl:qx318"),
    ("where is tomas de vries", "p:tomas"),
    ("what time does the ferry leave odd ham", "pl:oddhamn"),
    ("who captains the gull wing", "s:gull"),
])
def test_a_name_heard_in_spoken_form_links(index, text, iri):
    assert [m.candidates[0][0] for m in detect_names(text, index)] == [iri]


def test_a_spoken_form_that_fits_no_label_joins_nothing(index):
    # "new ham" sounds like no label word: the words stay as they are, and name nothing
    assert detect_names("is there a new ham sandwich", index) == []


@pytest.mark.parametrize("text, found", [
    ("where was ayrik petrenko born", [("ayrik petrenko", "p:eirik")]),     # a first name heard by ear
    ("where was ayrik pet renko born", [("ayrik pet renko", "p:eirik")]),   # ... and a surname split
    ("where was clara petrenko born", []),                                  # another first name: a name the KG lacks
    ("who invented seizure salad", [("seizure salad", "d:caesar")]),       # a common word heard for a name's
])
def test_a_misheard_first_name_before_a_surname_heard_whole(text, found):
    index = LabelIndex([LabelEntry("Eirik Petrenko", "p:eirik"), LabelEntry("Oksana Hnatiuk", "p:oksana"),
                        LabelEntry("Caesar salad", "d:caesar"), LabelEntry("Waldorf salad", "d:waldorf")])
    assert [(m.text, m.candidates[0][0]) for m in detect_names(text, index)] == found


@pytest.mark.parametrize("text, found", [
    ("when does the bus leave for new ham", [("new ham", "pl:nieuwham")]),  # heard by its English sounds
    ("when does the bus leave for newham", [("newham", "pl:nieuwham")]),
    ("When does the bus leave for Newham?", []),  # typed with a capital: as written, another town
])
def test_a_name_heard_by_its_sounds_links_only_when_heard(text, found):
    index = LabelIndex([LabelEntry("Nieuwham", "pl:nieuwham"), LabelEntry("Nieuwpoort Harbour", "pl:nieuwpoort")])
    assert [(m.text, m.candidates[0][0]) for m in detect_names(text, index)] == found


def test_first_sounds_tell_a_vowel_of_any_spelling_as_one():
    from rules.similarity import first_sounds, heard_as

    assert first_sounds("ayrik") == first_sounds("eirik") and heard_as("ayrik", {"eirik", "morrow"})
    assert not heard_as("clara", {"eirik"}) and first_sounds("ab") == ""


def test_as_written_spells_a_long_code_whole_and_writes_numbers_in_a_name():
    from engine.nlp.spoken import as_written

    assert as_written("g b r four four seven one") == "GBR4471"  # longer than one run of written_forms
    assert as_written("skerry cup twenty twenty two") == "skerry cup 2022"
    assert as_written("brise mont") == "brise mont"


@pytest.mark.parametrize("words, code", [
    ("bee kay twenty one", "bk21"), ("kay dee nineteen", "kd19"), ("b a two thousand and five", "ba2005"),
    ("a twenty one", None),  # one letter before a number said whole: "a twenty one year old"
])
def test_a_code_is_its_letters_then_a_number_said_whole(words, code):
    assert spelled(words.split()) == code


@given(st.integers(10, 99))
def test_letters_before_a_number_in_words_are_the_code_of_its_digits(n):
    assert spelled(["kay", "dee"] + said(n)) == f"kd{n}"


@pytest.mark.parametrize("text, found", [
    ("where was dmitri vanhoek born", [("dmitri vanhoek", "p:dmitri")]),  # two words of a name said as one
    ("who runs service bee kay twenty one", [("bee kay twenty one", "s:bk21")]),
    ("who plays football on saturday", []),  # a common word is no two name words joined
])
def test_a_name_said_joined_or_a_code_with_a_number_links(text, found):
    index = LabelIndex([LabelEntry("Dmitri Van Hoek", "p:dmitri"), LabelEntry("BK21", "s:bk21"),
                        LabelEntry("Foot Ball Rovers", "c:rovers")])
    assert [(m.text, m.candidates[0][0]) for m in detect_names(text, index)] == found


def test_a_common_word_beside_part_of_a_name_is_heard_as_itself():
    # "leave" is no "service" misheard, however close "ferry leave" is to "ferry service" in spelling
    index = LabelIndex([LabelEntry("Kirkhaven", "pl:kirkhaven"), LabelEntry("ferry service", "c:service")])
    assert [(m.text, m.candidates[0][0]) for m in detect_names("when does the kirkhaven ferry leave", index)] == [
        ("kirkhaven", "pl:kirkhaven")]
