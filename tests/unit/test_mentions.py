"""Mention detection: names (exact, misheard, partial), pronouns, noun phrases, first person,
type requests, and the speaker's introduction."""

from __future__ import annotations

import pytest

from engine.nlp.mentions import LabelIndex, detect, detect_names
from engine.nlp.speakers import speaker_name
from kgstore import vocab
from kgstore.terms import LabelEntry

ENTRIES = [LabelEntry("Omar Haddad", "p:omar"), LabelEntry("Omar Ahmed", "p:omar2"),
           LabelEntry("Lisa Wilson", "p:lisa"), LabelEntry("Seán O'Brien", "p:sean"),
           LabelEntry("Anne-Marie Dubois", "p:am"), LabelEntry("Zoë Chen", "p:zoe"),
           LabelEntry("Meeting Room Beta", "r:beta"), LabelEntry("Meeting Room Alpha", "r:alpha"),
           LabelEntry("Weekly Sync", "e:sync1"), LabelEntry("Weekly Sync", "e:sync2"),
           LabelEntry("Board Meeting", "e:board"), LabelEntry("Reading Group", "e:reading"),
           LabelEntry("Engineering", "g:eng"), LabelEntry("Lisa", "p:lisa", alias=True)]


@pytest.fixture(scope="module")
def index():
    return LabelIndex(ENTRIES)


def names(text, index):
    return [(m.text, m.candidates[0][0]) for m in detect_names(text, index)]


def test_exact_names_longest_first(index):
    assert names("Is Omar Haddad in Meeting Room Beta?", index) == [("Omar Haddad", "p:omar"),
                                                                   ("Meeting Room Beta", "r:beta")]


@pytest.mark.parametrize("heard, iri", [
    ("omar hadad", "p:omar"), ("Lisa Wilsen", "p:lisa"), ("Sean O Brien", "p:sean"), ("Sean OBrien", "p:sean"),
    ("anne marie dubois", "p:am"), ("Zoey Chen", "p:zoe"), ("zoe chen", "p:zoe")])
def test_asr_like_errors_still_match(index, heard, iri):
    found = detect_names(f"where is {heard} today", index)
    assert [m.candidates[0][0] for m in found] == [iri]


def test_letters_without_a_decomposition_are_spelled_out():
    # "ø" used to fold to a space: "Sørensen" became the words "s rensen", and the possessive
    # "'s" of any name in the question was heard as Sørensen.
    index = LabelIndex([LabelEntry("Sørensen", "p:family"), LabelEntry("Stellan O'Callaghan", "p:stellan"),
                        LabelEntry("Łukasz Strauß", "p:lukasz")])
    assert names("What is Stellan O'Callaghan's hometown?", index) == [("Stellan O'Callaghan", "p:stellan")]
    assert names("who is sorensen", index) == [("sorensen", "p:family")]
    assert names("where does lukasz strauss live", index) == [("lukasz strauss", "p:lukasz")]


def test_partial_names_need_distinctive_words(index):
    omar = detect_names("When is Omar free?", index)
    assert {c for c, _ in omar[0].candidates} == {"p:omar", "p:omar2"}  # both Omars stay candidates
    assert names("Book room Beta", index) == [("room Beta", "r:beta")]
    assert names("Is the meeting room free? Is there a group?", index) == []  # generic words name nothing


def test_a_partial_name_weighs_the_words_it_leaves_out_not_their_function_words():
    # "of" of "Department of Chemistry" goes unsaid too, but it says nothing of which one "Chemistry" is
    entries = [LabelEntry("Department of Chemistry", "d:chem"), LabelEntry("Applied Chemistry", "c:applied"),
               LabelEntry("Department of History", "d:hist"), LabelEntry("Department of Law", "d:law"),
               LabelEntry("Applied Ethics", "c:ethics")] + [LabelEntry(f"Room {n}", f"r:{n}") for n in range(30)]
    assert names("When was Chemistry founded as a department?", LabelIndex(entries)) == [("Chemistry", "d:chem")]


def test_a_common_word_is_heard_as_said_not_as_a_misheard_name():
    index = LabelIndex([LabelEntry("male", "q:male"), LabelEntry("Tessel Textiles", "c:tessel")])
    assert names("Who made A Last Signal?", index) == []
    assert names("who owns tesel textiles", index) == [("tesel textiles", "c:tessel")]  # not a word: misheard


def test_a_word_of_a_relation_label_names_no_entity_alone():
    entries = [LabelEntry("Gannet Film Company", "c:gannet"), LabelEntry("Meadow Ground", "s:meadow")]
    text = "What is the production company of Last Voyage, and which is their home ground?"
    # Common words said in lower case: no name whose label merely contains them, relations or not.
    assert [m.text for m in detect_names(text, LabelIndex(entries))] == []
    index = LabelIndex(entries, relations={"r:company": "production company", "r:ground": "home ground"})
    assert names(text, index) == []
    assert names("Who founded Gannet Film Company? Where is Meadow?", index) == [
        ("Gannet Film Company", "c:gannet"), ("Meadow", "s:meadow")]


def test_relation_words_come_from_the_labels_of_the_kgs_predicates(tmp_path):
    from tests.support.kb import from_turtle

    _, index = from_turtle(tmp_path, '@prefix ex: <http://example.org/> .\n'
                                     '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n'
                                     'ex:rovers ex:homeGround ex:meadow ; rdfs:label "Rovers" .\n'
                                     'ex:meadow rdfs:label "Meadow Ground" .\n')
    assert {"home", "ground"} <= index.relation_words
    assert names("What is the home ground of Rovers?", index) == [("Rovers", "http://example.org/rovers")]


def test_same_label_gives_every_entity_as_candidate(index):
    m = detect_names("When is the Weekly Sync?", index)[0]
    assert {c for c, _ in m.candidates} == {"e:sync1", "e:sync2"}


def test_name_after_a_generic_word(index):
    assert names("Today you have one meeting: Board Meeting at 8.", index) == [("Board Meeting", "e:board")]


def test_pronouns_noun_phrases_first_person_and_types(index):
    found = {(m.text, m.kind, m.value) for m in detect("Can I see her calendar and that meeting? Which rooms are free?", index)}
    assert ("I", "first_person", None) in found
    assert ("her", "pronoun", ("person",)) in found
    assert ("that meeting", "definite", ("event",)) in found
    assert ("rooms", "type", vocab.OFFICE_CLASSES["room"]) in found
    ordinal = [m for m in detect("Who else goes to the first one?", index) if m.kind == "definite"]
    assert [(m.text, m.value) for m in ordinal] == [("the first one", ("person", "event", "room", "group"))]
    assert not [m for m in detect("Is it possible to book?", index) if m.kind == "pronoun"]


@pytest.mark.parametrize("text, asked", [
    ("Can you give me a list of the meeting rooms available at that time?", "meeting rooms"),
    ("At 10 o'clock, in an available conference room.", "conference room"),
    ("Do you have a free room for us?", "room"),
    ("Is the room free?", None),  # the room spoken of
    ("Are those rooms available?", None),
    ("Are those two small rooms free?", None),
    ("I need to arrange a meeting.", None),
])
def test_asking_whether_things_are_free_asks_for_their_type(index, text, asked):
    types = [m.text for m in detect(text, index) if m.kind == "type"]
    assert types == ([asked] if asked else [])


def test_type_requests_use_class_labels_of_the_kg():
    idx = LabelIndex([LabelEntry("Inception", "wd:Q25188")], classes={"film": "wd:Q11424"})
    found = [(m.text, m.kind, m.value) for m in detect("Which film won?", idx)]
    assert ("film", "type", "wd:Q11424") in found


def test_a_class_after_that_or_this_points_back_at_a_thing_of_it():
    idx = LabelIndex([LabelEntry("Prague", "wd:Q1085"), LabelEntry("city", "wd:Q515"), LabelEntry("singer", "ex:Singer")],
                     classes={"city": "wd:Q515", "singer": "ex:Singer"})
    found = [(m.text, m.kind, m.value) for m in detect("What's the area of that city?", idx)]
    assert found == [("that city", "definite", ("thing",))]
    assert [(m.text, m.kind) for m in detect("Where was this singer born?", idx)] == [("this singer", "definite")]
    assert [m.value for m in detect("Where was this singer born?", idx)] == [("person",)]
    # the class itself, named without a demonstrative, is still a name
    assert [(m.text, m.kind) for m in detect("Is Prague a city?", idx)] == [("Prague", "name"), ("city", "name")]


@pytest.mark.parametrize("text", ["My name is Lisa Wilson.", "Hi, I'm Lisa Wilson", "this is lisa wilson speaking"])
def test_speaker_introduction(index, text):
    m = speaker_name(text, detect(text, index))
    assert m is not None and m.candidates[0][0] == "p:lisa"


def test_no_speaker_without_an_introduction(index):
    text = "I want to meet Lisa Wilson"
    assert speaker_name(text, detect(text, index)) is None


def test_a_hundred_thousand_labels_still_match():
    entries = [LabelEntry(f"Person{n} Surname{n % 977}", f"p:{n}") for n in range(100_000)] + ENTRIES
    idx = LabelIndex(entries)
    assert names("is omar hadad in", idx) == [("omar hadad", "p:omar")]
    assert names("where is Person4242 Surname334", idx) == [("Person4242 Surname334", "p:4242")]


def test_a_remote_that_cannot_list_its_labels_is_searched_per_turn():
    from engine.config import Config
    from engine.context import TurnContext
    from engine.nlp.mentions import label_index, turn_index
    from kgstore.errors import RemoteUnavailable

    class Remote:
        def query(self, sparql):
            raise RemoteUnavailable("timed out")

        def label_entries(self):
            raise RemoteUnavailable("too many labels")

        def find_labels(self, text):
            return [LabelEntry("Omar Haddad", "p:omar")] if "Omar" in text else []

    ctx = TurnContext(config=Config(), store=None, background=Remote())
    assert label_index(ctx).per_turn
    text = "Is Omar Haddad in?"
    assert [m.candidates[0][0] for m in detect_names(text, turn_index(ctx, text))] == ["p:omar"]


def test_a_surname_heard_as_a_word_that_sounds_like_it():
    # Spelled three or four letters off, beyond the edit budget, but sounding the same.
    index = LabelIndex([LabelEntry("Mikaela Hobart", "p:mika"), LabelEntry("Tobias Rhodes", "p:tobias")])
    assert names("I need Michaela Hubbard's office", index) == [("Michaela Hubbard", "p:mika")]
    # A short word sounds like too many others to be taken for a name.
    assert names("Are the roads closed for Tobias", index) == [("Tobias", "p:tobias")]


def test_a_name_of_its_own_is_not_taken_for_a_misheard_part_of_another():
    index = LabelIndex([LabelEntry("Petra Lindgren", "p:pl"), LabelEntry("Petra Nowak", "p:pn"),
                        LabelEntry("Jonas Berg", "p:jb"), LabelEntry("Ines Falk", "p:if")])
    for text in ("Petra, Jonas and Ines, please.", "petra jonas and ines please"):
        found = detect_names(text, index)
        assert [m.text.lower() for m in found][:2] == ["petra", "jonas"], text
        assert {c for c, _ in found[0].candidates} == {"p:pl", "p:pn"}
    # A comma ends a name: "Petra, Lindberg" is not Petra Lindgren heard badly.
    assert [m.text for m in detect_names("Petra, Lindberg and Ines", index)][0] == "Petra"


@pytest.mark.parametrize("text, said", [("Yes, that is the one I mean.", "that"), ("yes that's the one", "that"),
                                        ("I'll take that one", "that one"), ("this one please", "this one")])
def test_a_demonstrative_standing_for_a_thing_is_a_pronoun(index, text, said):
    assert [(m.text, m.kind) for m in detect(text, index) if m.kind == "pronoun"] == [(said, "pronoun")]


@pytest.mark.parametrize("text", ["that sounds great", "I think that is fine", "book that meeting"])
def test_a_demonstrative_of_a_clause_or_before_a_noun_is_no_pronoun(index, text):
    assert not [m for m in detect(text, index) if m.kind == "pronoun"]


def test_a_noun_of_a_name_that_follows_points_at_nothing():
    # "the members of X" says what is asked of X; "the members" alone points back at a group
    index = LabelIndex([LabelEntry("The Glass Harbour", "m:glass")])
    said = detect("Who are the members of The Glass Harbour?", index)
    assert [(m.text, m.kind) for m in said] == [("The Glass Harbour", "name")]
    assert [m.kind for m in detect("Who are the members?", index)] == ["definite"]


def test_a_common_word_names_no_title_it_is_part_of_or_a_capitalised_one():
    index = LabelIndex([LabelEntry("Baby Baby", "s:baby"), LabelEntry("Together", "f:together"),
                        LabelEntry("Ole Lund", "p:ole")])
    assert names("Which town is the baby from?", index) == []  # "Baby Baby" says its word twice
    assert names("who played together with Ole Lund", index) == [("Ole Lund", "p:ole")]
    assert names("who directed Together", index) == [("Together", "f:together")]


def test_a_common_word_before_a_noun_for_a_kind_of_thing_names_it_beside_a_capitalised_name():
    index = LabelIndex([LabelEntry("Philosophy", "g:phil"), LabelEntry("Oak", "r:oak"), LabelEntry("Ole Lund", "p:ole")])
    assert names("Please invite Ole Lund and the philosophy team", index) == [("Ole Lund", "p:ole"), ("philosophy", "g:phil")]
    assert names("Can Ole Lund meet in the oak room?", index) == [("Ole Lund", "p:ole"), ("oak", "r:oak")]
    assert names("Ole Lund studied philosophy at home", index) == [("Ole Lund", "p:ole")]


def test_a_lowercase_concept_that_a_relation_or_the_next_name_says_is_no_mention():
    entries = [LabelEntry("language", "t:language"), LabelEntry("band", "t:band"), LabelEntry("The Gamers", "f:gamers"),
               LabelEntry("Ole Lund", "p:ole"), LabelEntry("Harbour Lights", "b:hl")]
    index = LabelIndex(entries, relations={"r:lang": "in language", "r:genre": "has genre"})
    assert names("what languages does Ole Lund speak", index) == [("Ole Lund", "p:ole")]
    assert names("what genres does Ole Lund play", index) == [("Ole Lund", "p:ole")]  # no "The Gamers" misheard
    assert names("who founded the band Harbour Lights", index) == [("Harbour Lights", "b:hl")]
    assert names("which songs are about language", LabelIndex(entries)) == [("language", "t:language")]


def test_a_whole_name_beats_part_of_a_longer_one_that_only_adds_a_function_word():
    # "Harrowgate and who" hears part of "Harrowgate: Salt and Stone" by its "and"; the whole
    # name "Harrowgate" is the one said
    index = LabelIndex([LabelEntry("Harrowgate", "g:base"), LabelEntry("Harrowgate: Salt and Stone", "g:exp")])
    assert names("Who drew Harrowgate and who printed it?", index) == [("Harrowgate", "g:base")]
    assert names("Who drew Harrowgate: Salt and Stone?", index) == [("Harrowgate: Salt and Stone", "g:exp")]


def test_a_lowercase_concept_that_is_another_form_of_a_relation_word_is_no_mention():
    # a tag "painter" beside the relation "painted by": "its painter" asks for the relation
    entries = [LabelEntry("painter", "t:painter"), LabelEntry("printer", "t:printer"),
               LabelEntry("The Quiet Lighthouse", "w:ql")]
    index = LabelIndex(entries, relations={"r:by": "painted by", "r:in": "printed in"})
    assert names("who is the painter of The Quiet Lighthouse", index) == [("The Quiet Lighthouse", "w:ql")]
    assert names("which works are about the teacher or the printer", index) == [("printer", "t:printer")]
    assert names("which works are about the painter", LabelIndex(entries)) == [("painter", "t:painter")]
