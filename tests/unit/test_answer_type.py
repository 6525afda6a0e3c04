"""The domain-free cues of the relevance features: answer types, name noise, masking, clauses."""

from datetime import datetime

import pytest

from engine.nlp.answer_type import (
    NUMBER,
    ORGANIZATION,
    PERSON,
    PLACE,
    RECORD,
    TIME,
    asked_types,
    asks_list,
    asks_record,
    is_name_noise,
    is_record,
    mask,
    question_parts,
    value_type,
)
from engine.state import Candidate
from kgstore.terms import Fact
from kgstore.vocab import XSD


@pytest.mark.parametrize("question, kinds", [
    ("Where was Tom Baker born?", {PLACE}),
    ("where do they play home games", {PLACE}),
    ("What is Saoirse Pasternak's hometown?", {PLACE}),
    ("what is her birthplace", {PLACE}),
    ("Which municipality is Finse in?", {PLACE}), ("Which German state is Munich in?", {PLACE}),
    ("Which lecture theatre hosts it?", {PLACE}),
    ("When does the Poster Session start?", {TIME}),
    ("In what year was it founded?", {TIME}),
    ("How many people fit in the stadium?", {NUMBER}),
    ("who is in charge of it", {PERSON, ORGANIZATION}),
    ("Who published Salt Pilgrim?", {PERSON, ORGANIZATION}),
    ("Which company produced it?", {ORGANIZATION}),
    ("Which player scored?", {PERSON}),
    ("Who organizes the Poster Session and where is it?", {PERSON, ORGANIZATION, PLACE}),
    ("Tell me about the club", set()),
])
def test_asked_types(question, kinds):
    assert asked_types(question) == kinds


def test_compound_questions_split_into_clauses():
    assert question_parts("Who organizes it and where is it?") == ["Who organizes it", "where is it?"]
    assert question_parts("Salt and pepper steak: who cooks it?") == ["Salt and pepper steak: who cooks it?"]
    # A second part led by a preposition ("and in which city ...") is a part of its own too.
    assert question_parts("How many seats does it have and in which city is it?") == [
        "How many seats does it have", "in which city is it?"]
    assert question_parts("Who lives in Rome and in Paris?") == ["Who lives in Rome and in Paris?"]


@pytest.mark.parametrize("label, key, noise", [
    ("given name", "", True), ("family name", "", True), ("sex or gender", "", True),
    ("described by source", "", True), ("languages spoken, written or signed", "", True),
    ("P735", "P735", True), ("place of birth", "", False), ("home ground", "", False),
    ("organizer", "", False), ("cast member", "", False),
])
def test_name_noise_relations(label, key, noise):
    assert is_name_noise(label, key) is noise


def _c(s, p_label, o, o_label="", literal=False, datatype=None):
    c = Candidate(fact=Fact(s, "urn:p:" + p_label.replace(" ", "_"), o, o_literal=literal, datatype=datatype))
    c.p_label, c.o_label = p_label, o_label or o
    return c


def test_value_types_of_literals_entities_and_people():
    people = {"urn:fatima"}
    classes = {"urn:ealing": "town", "urn:delta": "meeting room"}
    assert value_type(_c("urn:ev", "start time", "09:30:00", literal=True, datatype=XSD + "time"), False, people, classes) == TIME
    assert value_type(_c("urn:club", "founded", "1892", literal=True), False, people, classes) == TIME
    assert value_type(_c("urn:club", "capacity", "53394", literal=True), False, people, classes) == NUMBER
    assert value_type(_c("urn:ev", "organizer", "urn:fatima"), False, people, classes) == PERSON
    assert value_type(_c("urn:p", "place of birth", "urn:ealing"), False, people, classes) == PLACE
    assert value_type(_c("urn:ev", "location", "urn:delta"), False, people, classes) == PLACE
    assert value_type(_c("urn:x", "genre", "urn:jazz"), False, people, classes) == ""
    # The answer may be the subject: "who organizes it" asked of the event, fact seen from the person.
    assert value_type(_c("urn:fatima", "organizes", "urn:ev"), True, people, classes) == PERSON
    # A name or gender record answers no "where/when/who" question ("What is her hometown?" is
    # not her family name, "Who made it?" not "male"), even when its value is a place's name.
    classes["urn:sandoval"] = "town"
    assert value_type(_c("urn:p", "family name", "urn:sandoval"), False, people, classes) == RECORD
    assert value_type(_c("urn:p", "sex or gender", "urn:male"), False, people, classes) == RECORD
    assert value_type(_c("urn:p", "place of birth", "urn:sandoval"), False, people, classes) == PLACE
    # "Who published it?" is answered by a publishing house, "Who owns it?" by a company.
    classes["urn:tern"] = "publishing house"
    assert value_type(_c("urn:book", "publisher", "urn:tern"), False, people, classes) == ORGANIZATION


def test_mask_takes_names_out_longest_first_with_possessives():
    assert mask("Tom Baker's given name is Tom", ["Tom Baker", "Tom"]) == "it given name is it"
    assert mask("Where was tom baker born?", ["Tom Baker"]) == "Where was it born?"
    assert mask("Tomorrow Tom comes", ["Tom"]) == "Tomorrow it comes"


TTL = """
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix f: <http://example.org/football/> .
f:tom rdfs:label "Tom Baker" ; f:placeOfBirth f:ealing ; f:givenName f:tomName ; f:sexOrGender f:male ;
    f:describedBySource f:wiki ; f:playsFor f:club .
f:tomName rdfs:label "Tom" . f:male rdfs:label "male" . f:wiki rdfs:label "Wikipedia" .
f:ealing rdfs:label "Ealing" . f:club rdfs:label "Harbour United" .
"""


def test_masked_relation_similarity_prefers_the_asked_relation_over_name_noise(tmp_path):
    """With the player's name masked out of the question, "place of birth" is the relation that
    fits "Where was it born?"; the unmasked sentence "Tom Baker's given name is Tom" no longer
    wins by repeating the name."""
    from engine.config import Config
    from engine.context import TurnContext
    from engine.nlp.encoder import Encoder
    from engine.stages import candidates, verbalize
    from engine.stages.score.features import compute
    from engine.state import Mention, TurnState
    from kgstore import KGStore

    path = tmp_path / "kg.ttl"
    path.write_text(TTL, encoding="utf-8")
    store = KGStore()
    store.load(str(path))
    ctx = TurnContext(config=Config(scorer="bm25"), store=store, background=store)
    state = TurnState(session_id="s", turn=1, text="Where was Tom Baker born?", now=datetime(2026, 3, 2, 9))
    state.rewritten = state.text
    state.mentions = [Mention("Tom Baker", 10, 19, "name", entity="http://example.org/football/tom", p=1.0)]
    candidates.run(state, ctx)
    verbalize.run(state, ctx)
    compute(state, state.candidates, Encoder(), {})
    by_label = {c.p_label: c.features for c in state.candidates if c.p_label}
    birth, given = by_label["place of birth"], by_label["given name"]
    assert birth["mcos_pred_rank"] == 1.0 and birth["mcos_pred"] > given["mcos_pred"]
    assert birth["mcos_1"] > given["mcos_1"]
    assert birth["atype_match"] == 1.0 and given["atype_match"] == 0.0
    assert given["name_noise"] == 1.0 and by_label["sex or gender"]["name_noise"] == 1.0
    assert birth["name_noise"] == 0.0


def test_records_are_the_narrow_core_of_name_noise():
    # What retrieval lets in only on its own score: name, gender and source records; not an
    # occupation or a language, which questions do ask for.
    assert is_record("given name") and is_record("sex or gender") and is_record("described by source")
    assert is_record("", "P735") and is_record("familyName")
    assert not is_record("occupation") and not is_record("language of work or name")
    assert is_name_noise("occupation") and is_name_noise("languages spoken")


@pytest.mark.parametrize("label,key,question,noise", [
    ("language of work or name", "P407", "In which language was  written?", False),
    ("language of work or name", "P407", "Who wrote ?", True),
    ("family name", "P734", "What is 's last name?", False),
    ("birth name", "", "What is 's place of birth?", True),  # a name, not a birth
    ("family name", "P734", "What is her hometown?", True),
    ("occupation", "", "What are 's occupations?", False),
    ("", "P1343", "Where was born?", True),
])
def test_a_record_the_question_names_is_not_noise(label, key, question, noise):
    assert is_name_noise(label, key, question) is noise
    assert asks_record("What is Nadia's family name?") and not asks_record("Where was Nadia born?")


@pytest.mark.parametrize("question, is_list", [
    ("What films has she been in?", True), ("Who else is going to the first one?", True),
    ("Which rooms are free?", True), ("What awards has she won?", True), ("What cities does it border?", True),
    ("Which companies did she found?", True), ("What is her hometown?", False), ("What does she do?", False),
    ("Which class is it?", False), ("What status has it?", False), ("Who directed Last Voyage?", False),
])
def test_a_list_question_asks_for_every_value(question, is_list):
    assert asks_list(question) is is_list


@pytest.mark.parametrize("question,records", [
    ("What does she do for a living?", {"occup"}),
    ("What line of work is Gustavo Tavares in?", {"occup"}),
    ("What is her profession?", {"occup"}),
    ("In what tongue is Lonely Almanac?", {"langu"}),
    ("Where does she work?", set()),
    ("What is her occupation?", set()),  # named in so many words: not noise to it in the first place
])
def test_a_record_asked_for_in_other_words(question, records):
    from engine.nlp.answer_type import asked_records, recorded

    assert asked_records(question) == records
    assert recorded("occupation") == "occup" and recorded("languages spoken") == "langu"
    assert recorded("place of birth") is None and recorded("", "P106") == ""


@pytest.mark.parametrize(("value", "when"), [
    ("1921", True), ("2004-05-01", True), ("14:00", True), ("Wednesday 14:00-15:30", True), ("Spring", True),
    ("Autumn semester", True), ("40 Brunswick Street, Northbridge M13 9QA", False), ("puff pastry", False),
])
def test_which_values_can_say_when(value, when):
    from engine.nlp.answer_type import says_when

    assert says_when(value) is when


def test_a_season_says_when_only_when_seasons_count():
    from engine.nlp.answer_type import says_when

    assert says_when("Autumn") and not says_when("Autumn", seasons=False) and says_when("May 2004", seasons=False)


@pytest.mark.parametrize(("question", "noun"), [
    ("What is Berlin's average annual rainfall?", True), ("How much fibre is in nachos?", True),
    ("Which river flows through Prague?", True), ("What is the telephone area code of Warsaw?", True),
    ("How old is Anselm?", False), ("Who founded Acme?", False), ("In what year was Acme created?", False),
    ("Where is Acme based?", False), ("How much does Pad Thai cost?", False), ("What is Acme known for?", False),
    ("What goes into Pad Thai?", False), ("What records has Acme made?", True),
])
def test_a_question_that_asks_for_a_thing_by_its_name(question, noun):
    from engine.nlp.answer_type import asks_for_a_noun

    names = ["Berlin", "nachos", "Prague", "Warsaw", "Anselm", "Acme", "Pad Thai"]
    assert asks_for_a_noun(question, names) is noun


def test_which_before_a_kind_of_thing_asks_for_a_thing_of_that_kind():
    from engine.nlp.answer_type import asks_for_a_noun

    assert not asks_for_a_noun("Which person is commemorated by Mount Velding?", ["Mount Velding"])
    assert not asks_for_a_noun("Which rivers flow through Prague?", ["Prague"], lambda: {"river"})
    assert asks_for_a_noun("Which rivers flow through Prague?", ["Prague"])
    assert not asks_for_a_noun("how much of my evening will the film take up", ["the film"])
