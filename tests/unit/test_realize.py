"""The realizer: facts of several naming styles said as sentences, with no "label: value" form."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.nlp import dependency
from engine.nlp.realize import (
    Said,
    chain_sentence,
    clause,
    counted,
    fact_sentence,
    filtered,
    is_noun,
    joined,
    not_found,
    paragraph,
)
from engine.stages.answer.judge import repeated, replacement_reason
from engine.state import Check, Evidence


@pytest.mark.parametrize(
    "said, text",
    [
        (Said("Arsenal", "headCoach", ("Mikel Arteta",)), "Arsenal's head coach is Mikel Arteta."),
        (Said("Arsenal", "head_coach", ("Mikel Arteta",)), "Arsenal's head coach is Mikel Arteta."),
        (
            Said("Arsenal", "plays for", ("Bukayo Saka", "William Saliba"), forward=False),
            "Bukayo Saka and William Saliba play for Arsenal.",
        ),
        (Said("Bukayo Saka", "playsFor", ("Arsenal",)), "Bukayo Saka plays for Arsenal."),
        (Said("Dune", "written_by", ("Frank Herbert",)), "Dune is written by Frank Herbert."),
        (Said("Ida Berg", "teaches", ("Optics",)), "Ida Berg teaches Optics."),
        (Said("Lentil soup", "cookingTimeMinutes", ("45",)), "Lentil soup's cooking time is 45 minutes."),
        (Said("Mikel Arteta", "head coach", ("Arsenal",), forward=False), "Mikel Arteta is the head coach of Arsenal."),
        (Said("Hammarby IF", "club_colours", ("green and white",)), "Hammarby IF's club colours are green and white."),
        (Said("The Salt Road", "numberOfPages", ("412",)), "The Salt Road's number of pages is 412."),
        (Said("Petrel 3", "crewMember", ("Ada", "Bo")), "Petrel 3's crew members are Ada and Bo."),
        (Said("Ada Lind", "hobby", ("chess", "rowing")), "Ada Lind's hobbies are chess and rowing."),
        (Said("Ada Lind", "languages_spoken", ("Thai", "French")), "Ada Lind's languages spoken are Thai and French."),
    ],
)
def test_one_fact_in_each_naming_style(said: Said, text: str) -> None:
    assert fact_sentence(said) == text


def test_noun_and_verb_labels_by_shape() -> None:
    assert is_noun("head coach") and is_noun("inception") and is_noun("placeOfBirth")
    assert not is_noun("plays for") and not is_noun("teaches") and not is_noun("written by")
    assert not is_noun("P54") and not is_noun("has ingredient")


@pytest.mark.skipif(dependency.parser() is None, reason="spaCy's English pipeline is not installed")
def test_a_verb_with_the_noun_it_acts_on_is_read_by_the_tagger() -> None:
    assert not is_noun("serves station") and not is_noun("operatesRoute")
    assert is_noun("sports team") and is_noun("record label") and is_noun("crew member")
    assert fact_sentence(Said("Kestrel Line", "serves station", ("Ashby", "Corran"))) == (
        "Kestrel Line serves the stations Ashby and Corran.")
    assert fact_sentence(Said("Kestrel Line", "operates route", ("R7",))) == "Kestrel Line operates the route R7."
    assert counted(2, "stations", Said("Kestrel Line", "serves station", ("Ashby", "Corran"))) == (
        "Kestrel Line serves 2 stations. It serves the stations Ashby and Corran.")


def test_a_participle_or_past_form_before_a_preposition_takes_is() -> None:
    assert fact_sentence(Said("Cityglide", "made in", ("the Netherlands",))) == "Cityglide is made in the Netherlands."
    assert fact_sentence(Said("Heat", "shot in", ("Springfield",))) == "Heat is shot in Springfield."
    assert fact_sentence(Said("Tern Club", "based in", ("Bodø",))) == "Tern Club is based in Bodø."


@pytest.mark.parametrize(
    "said, text",
    [
        # a birth, and an event its date places, said in the past
        (Said("Tobiah Crane", "born in", ("Leeds",)), "Tobiah Crane was born in Leeds."),
        (Said("Leeds", "born in", ("Ann Tell", "Bo Kray"), forward=False), "Ann Tell and Bo Kray were born in Leeds."),
        (Said("The Chalk Yard", "opened", ("2009",)), "The Chalk Yard was opened in 2009."),
        (Said("Iron Orchard", "set on", ("2025-05-20",)), "Iron Orchard was set on 2025-05-20."),
        (Said("Iron Orchard", "set by", ("Ilse Marwick",)), "Iron Orchard is set by Ilse Marwick."),
        # one of several of its kind; a value (no name) shared by several said from their side
        (Said("Joss Whitcombe", "cast member", ("The Gloaming Tide", "Dune Road"), forward=False),
         "Joss Whitcombe is a cast member of The Gloaming Tide and Dune Road."),
        (Said("carbon", "frame", ("Arrow 2", "Kite"), forward=False), "The frame of Arrow 2 and Kite is carbon."),
        # a noun label opening with a preposition; a unit in brackets after the number
        (Said("Slate Dragon", "at gym", ("Granite Loft",)), "Slate Dragon's gym is Granite Loft."),
        (Said("Hollow Tide", "runtime (minutes)", ("88",)), "Hollow Tide's runtime is 88 minutes."),
    ],
)
def test_tense_article_and_side_of_a_fact(said: Said, text: str) -> None:
    assert fact_sentence(said) == text


def test_a_count_of_a_noun_label_says_has_and_a_participle_filter_says_were() -> None:
    assert counted(4, "members", Said("Kestrel Lane", "members", ("A", "B", "C", "D"))).startswith(
        "Kestrel Lane has 4 members.")
    assert filtered(["Ostby Mill", "Varn Mill"], "founded", True, "1900", in_time=True) == (
        "Ostby Mill and Varn Mill were founded before 1900.")
    assert filtered([], "founded", True, "1900", in_time=True) == "None was founded before 1900."
    assert filtered(["Ostby Mill"], "playing time", True, "45 minutes") == "Ostby Mill has a playing time under 45 minutes."


def test_lists_are_joined_and_cut() -> None:
    assert joined(["A"]) == "A"
    assert joined(["A", "B"]) == "A and B"
    assert joined(["A", "B", "C"]) == "A, B and C"
    assert joined([str(i) for i in range(12)]) == "0, 1, 2, 3, 4, 5, 6, 7 and 4 more"
    assert joined(["A", "B"], total=5) == "A, B and 3 more"


def test_subject_not_repeated_in_a_row() -> None:
    text = paragraph(
        [
            Said("Tottenham Hotspur", "inception", ("1882",)),
            Said("Tottenham Hotspur", "head coach", ("Ange Postecoglou",)),
            Said("Tottenham Hotspur", "based in", ("London",)),
        ]
    )
    assert text == "Tottenham Hotspur's inception is 1882. Its head coach is Ange Postecoglou. It is based in London."


def test_chain_and_not_found() -> None:
    first = Said("Bukayo Saka", "plays for", ("Arsenal",))
    last = Said("Arsenal", "head coach", ("Mikel Arteta",))
    assert chain_sentence(first, last) == "Arsenal's head coach is Mikel Arteta; Bukayo Saka plays for Arsenal."
    assert not_found("Arsenal", "goalkeepingCoach", last) == (
        "The knowledge graph has no goalkeeping coach for Arsenal; Arsenal's head coach is Mikel Arteta."
    )


_word = st.text(alphabet=st.characters(whitelist_categories=("Ll", "Lu", "Nd")), min_size=1, max_size=10)
_label = st.lists(_word, min_size=1, max_size=4).map(lambda ws: "_".join(ws))
_value = st.lists(_word, min_size=1, max_size=3).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(
    subject=_value,
    label=_label,
    values=st.lists(_value, min_size=1, max_size=5, unique=True),
    forward=st.booleans(),
)
def test_any_label_any_value_one_sentence(subject: str, label: str, values: list[str], forward: bool) -> None:
    text = fact_sentence(Said(subject, label, tuple(values), forward=forward))
    assert text.endswith(".") and text.count(".") == 1 + sum(v.count(".") for v in values + [subject])
    assert ":" not in text
    for v in values:
        assert re.search(re.escape(v), text)


def _check(claim: str, verdict: str) -> Check:
    return Check(claim=claim, verdict=verdict, evidence=Evidence(s="ex:a", p="ex:p", o="ex:b", text=claim))


def test_a_model_reply_is_shown_only_when_the_kg_backs_it() -> None:
    backed = [_check("Arsenal's head coach is Mikel Arteta.", "supported")]
    assert replacement_reason(backed, "Arsenal's head coach is Mikel Arteta.", "", [], dialogue="q") == ""
    unbacked = [_check("The flight director of X was the flight director of Y.", "nei")]
    assert replacement_reason(unbacked, "The flight director of X was the flight director of Y.", "", [],
                              dialogue="q")
    looped = "1. Arsenal's head coach is Mikel Arteta.\n2. Arsenal's head coach is Mikel Arteta."
    assert repeated(looped) and replacement_reason(backed * 2, looped, "", [], dialogue="q")
    assert not repeated("Arsenal's head coach is Mikel Arteta. Its stadium is the Emirates.")


_styled_label = st.one_of(
    _label,  # snake_case
    st.lists(_word, min_size=1, max_size=3).map(lambda ws: ws[0].lower() + "".join(w.capitalize() for w in ws[1:])),
    st.integers(1, 9999).map(lambda n: f"P{n}"),  # a Wikidata id
    st.lists(_word, min_size=1, max_size=3).map(" ".join),
)


@settings(max_examples=150, deadline=None)
@given(
    relations=st.lists(st.tuples(_styled_label, st.lists(_value, min_size=1, max_size=4, unique=True)),
                       min_size=1, max_size=4, unique_by=lambda r: r[0]),
)
def test_composed_facts_of_any_label_name_the_subject_once_and_every_value(relations) -> None:
    from engine.stages.answer.compose import compose_text
    from engine.state import Candidate
    from kgstore.terms import Fact

    subject = "Qx Subject"
    facts = [Candidate(fact=Fact("ex:s", f"ex:p{i}", f"ex:o{i}_{j}"), s_label=subject, p_label=label, o_label=value,
                       text=f"{subject} — {label} — {value}")
             for i, (label, values) in enumerate(relations) for j, value in enumerate(values)]
    text = compose_text(facts)
    assert ":" not in text and " — " not in text
    assert text.count(subject) == 1
    for _, values in relations:
        for v in values:
            assert v in text
    sentences = [s for s in re.split(r"(?<=\.) ", text) if s]
    assert all(not s.startswith(subject) for s in sentences[1:])  # said once, then "Its"


def test_a_participle_after_is_stays_as_it_is_after_several_subjects():
    said = clause(Said("Ines Varga", "is written by", ("The Gloaming Tide", "Salt and Cinders"), forward=False))
    assert said == "The Gloaming Tide and Salt and Cinders are written by Ines Varga"
    assert clause(Said("The Band", "is member of", ("Ada", "Bo"), forward=False)) == "Ada and Bo are members of The Band"


@pytest.mark.skipif(dependency.parser() is None, reason="spaCy's English pipeline is not installed")
def test_a_participle_before_a_preposition_and_a_noun_is_a_verb_label() -> None:
    assert not is_noun("taught in room") and is_noun("head of department")
    assert fact_sentence(Said("Databases", "taught in room", ("TB 1.20",))) == "Databases is taught in room TB 1.20."
    assert counted(3, "courses", Said("TB 1.20", "taught in room", ("A", "B", "C"), forward=False)) == (
        "3 courses are taught in room TB 1.20. A, B and C are taught in room TB 1.20.")


def test_a_value_shared_by_several_is_said_from_their_side_in_a_count_too() -> None:
    assert counted(3, "games", Said("set collection", "mechanic", ("A", "B", "C"), forward=False)) == (
        "The mechanic of 3 games is set collection. The mechanic of A, B and C is set collection.")
