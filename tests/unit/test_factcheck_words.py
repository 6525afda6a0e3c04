"""Claims whose words carry the value in other shapes than a name: a value the KG holds as a
capitalized word ("speaks Basque"), a nationality adjective for a country ("a Spanish dessert"),
a class after an article ("is a dessert"), and a verb that says a value's relation while the
two things it joins are joined by another one ("The Quiet Orbit recorded Glass Tides in 2019"),
a relation's own word that is also the name of a thing ("the kitchen manager", where
"manager" is an occupation), and a thing or a word that the KG only ever holds as one relation's
value ("a main course", "a professor") given to something that holds another.
One small KG of a kitchen and a record shelf, with its own predicate names."""

from __future__ import annotations

import pytest

from tests.support.kb import checks_of, from_turtle, verdict

SHELF = """
@prefix s: <http://shelf.example/> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
s:speaks rdfs:label "speaks" .
s:originCountry rdfs:label "origin country" .
s:performer rdfs:label "performer" .
s:dateRecorded rdfs:label "date recorded" .
s:Dessert rdfs:label "dessert" .
s:Album rdfs:label "album" .
s:title rdfs:label "title" .
s:courseType rdfs:label "course type" .
s:birthPlace rdfs:label "birth place" .
s:ines rdfs:label "Ines Arrieta" ; s:speaks "Basque", "Spanish" ; s:title "Professor" ; s:birthPlace s:portugal .
s:joel rdfs:label "Joel Varga" ; s:speaks "Hungarian" ; s:title "Lecturer" ; s:birthPlace s:hungary .
s:portugal rdfs:label "Portugal" .
s:hungary rdfs:label "Hungary" .
s:servedWith rdfs:label "served with" .
s:gazpacho rdfs:label "Gazpacho" ; s:courseType s:starter ; s:servedWith s:bread, s:olives .
s:bread rdfs:label "bread" .
s:olives rdfs:label "olives" .
s:paella rdfs:label "Paella" ; s:courseType s:mainCourse .
s:starter rdfs:label "starter" .
s:mainCourse rdfs:label "main course" .
s:flan a s:Dessert ; rdfs:label "Crema Royale" ; s:originCountry s:spain .
s:crepe a s:Dessert ; rdfs:label "Crepe Suzette" ; s:originCountry s:france .
s:spain rdfs:label "Spain" .
s:france rdfs:label "France" .
s:tides a s:Album ; rdfs:label "Glass Tides" ; s:performer s:orbit ; s:dateRecorded "2019-05-02"^^xsd:date .
s:orbit rdfs:label "The Quiet Orbit" .
s:lanterns rdfs:label "Paper Moths" .
s:kitchenPorter rdfs:label "kitchen porter" .
s:kitchenManager rdfs:label "kitchen manager" .
s:occupation rdfs:label "occupation" .
s:bistro rdfs:label "Bistro Lumen" ; s:kitchenPorter s:mara ; s:kitchenManager s:ode .
s:mara rdfs:label "Mara Quist" ; s:occupation s:porter .
s:ode rdfs:label "Ode Lanz" ; s:occupation s:manager .
s:porter rdfs:label "porter" .
s:manager rdfs:label "manager" .
"""


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    return from_turtle(tmp_path_factory.mktemp("shelf"), SHELF)


def test_a_capitalized_value_the_kg_holds_as_words_is_said_not_invented(kg):
    assert verdict(kg, "Joel Varga speaks Hungarian.") == "supported"
    assert verdict(kg, "Ines Arrieta speaks Basque.") == "supported"
    assert verdict(kg, "Joel Varga speaks Finnish.") == "nei"  # a name the KG does not know


def test_only_holds_of_values_held_as_words_too(kg):
    assert verdict(kg, "Joel Varga speaks only Hungarian.") == "supported"
    assert verdict(kg, "Ines Arrieta speaks only Basque.") == "contradicted"  # and Spanish


def test_a_nationality_adjective_says_a_country_relation_of_the_kg(kg):
    assert verdict(kg, "Crema Royale is a Spanish dessert.") == "supported"
    assert verdict(kg, "Crepe Suzette is a Spanish dessert.") == "contradicted"  # from France


def test_a_class_after_an_article_is_the_thing_s_type(kg):
    assert verdict(kg, "Crepe Suzette is a dessert.") == "supported"
    # the class beside another relation the claim states is no wrong value of that relation
    assert [str(c.verdict) for c in checks_of(kg, "Glass Tides is an album performed by The Quiet Orbit.")] == [
        "supported", "supported"]
    assert verdict(kg, "Glass Tides is a dessert.") == "nei"  # an album: no fact makes it one


def test_a_verb_that_says_the_value_s_relation_leaves_the_link_to_the_kg(kg):
    assert verdict(kg, "The Quiet Orbit recorded Glass Tides in 2019.") == "supported"
    assert verdict(kg, "Paper Moths recorded Glass Tides in 2019.") == "nei"  # no fact joins them


def test_a_relation_s_word_that_names_a_thing_still_states_the_relation(kg):
    assert verdict(kg, "Ode Lanz is the kitchen manager of Bistro Lumen.") == "supported"
    assert verdict(kg, "Mara Quist is the kitchen manager of Bistro Lumen.") == "contradicted"  # the porter
    assert verdict(kg, "Mara Quist is the kitchen porter of Bistro Lumen.") == "supported"


def test_a_thing_only_ever_a_value_of_one_relation_contradicts_another_value_of_it(kg):
    assert verdict(kg, "Gazpacho is served as a main course.") == "contradicted"  # a starter
    assert verdict(kg, "Paella is served as a main course.") != "contradicted"
    # a nationality adjective is no place given as a value ("Portuguese" is a language here)
    assert verdict(kg, "Joel Varga spoke Portuguese as well.") == "nei"


def test_a_noun_the_kg_holds_as_words_of_a_one_valued_relation(kg):
    assert verdict(kg, "Joel Varga is a professor.") == "contradicted"  # a lecturer
    assert verdict(kg, "Ines Arrieta is a professor.") == "supported"
    assert verdict(kg, "Joel Varga is a lecturer.") == "supported"
    assert verdict(kg, "Joel Varga is a violinist.") == "nei"  # no title of anyone: nothing to tell


COURSES = """
@prefix c: <http://courses.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
c:term rdfs:label "term" .
c:address rdfs:label "address" .
c:headOf rdfs:label "head of" .
c:fluids rdfs:label "Fluid Dynamics" ; c:term "Spring" .
c:hall rdfs:label "Harbour Hall" ; c:address "4 Quay Lane, Portsmouth PO1 3AB" .
c:lena rdfs:label "Lena Ortiz" . c:omar rdfs:label "Omar Rask" ; c:headOf c:maths .
c:maths rdfs:label "Department of Mathematics" .
"""


@pytest.fixture(scope="module")
def courses(tmp_path_factory):
    return from_turtle(tmp_path_factory.mktemp("courses"), COURSES)


def test_a_value_said_as_the_kg_writes_it_is_no_unknown_name_and_a_part_of_it_no_other_value(courses):
    """kgchat's own composed sentences ("X: term Spring") check as supported; a value cut at its
    comma by the claim splitter is not contradicted by the whole of it."""
    assert verdict(courses, "Fluid Dynamics: term Spring.") == "supported"
    assert verdict(courses, "Fluid Dynamics runs in the Autumn term.") == "contradicted"
    checks = checks_of(courses, "Harbour Hall: address 4 Quay Lane, Portsmouth PO1 3AB.")
    assert checks and all(str(c.verdict) != "contradicted" for c in checks)


def test_a_possessive_before_a_noun_no_relation_names_speaks_of_another_thing(courses):
    history = [("user", "Tell me about the Department of Mathematics."),
               ("system", "The Department of Mathematics is headed by Omar Rask.")]

    def said(claim):
        checks = checks_of(courses, claim, history)
        return [str(c.verdict) for c in checks]

    assert said("Lena Ortiz runs its reading group.") == ["nei"]  # not the department itself


STAFF = """
@prefix t: <http://staff.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
t:office rdfs:label "office" . t:email rdfs:label "email" .
t:kenji rdfs:label "Kenji Chen" ; t:office t:o204 ; t:email "kenji.chen@staff.example" .
t:lina rdfs:label "Lina Moretti" ; t:office t:o249 ; t:email "lina.moretti@staff.example" .
t:o204 rdfs:label "Office 204" . t:o249 rdfs:label "Office 249" .
"""


def test_a_named_thing_that_holds_a_relations_word_is_still_a_value(tmp_path):
    """"Office 249" holds the word of the relation "office" but is a room, not the relation: given
    as someone's office where the KG has another, it is contradicted; and "their email" is the
    email relation's own word, not another thing of theirs."""
    staff = from_turtle(tmp_path, STAFF)
    assert verdict(staff, "Kenji Chen's office is Office 249.") == "contradicted"
    checks = checks_of(staff, "Kenji Chen's office is Office 204; their email address is lina.moretti@staff.example.")
    assert [str(c.verdict) for c in checks] == ["supported", "contradicted"]


TOWN = """
@prefix t: <http://town.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
t:area rdfs:label "area" . t:population rdfs:label "population" . t:phone rdfs:label "phone" .
t:warsaw rdfs:label "Warsaw" ; t:area "517.24" ; t:population "1861975" .
t:hall rdfs:label "Town Hall" ; t:phone "022 555 0100" .
"""


@pytest.mark.parametrize("reply", ["The telephone area code of Warsaw is 517.24.", "Warsaw's area code is 517.24.",
                                   "The population density of Warsaw is 1861975."])
def test_a_relation_word_said_as_the_first_word_of_a_compound_noun_does_not_state_it(tmp_path, reply):
    (check,) = checks_of(from_turtle(tmp_path, TOWN), reply)
    assert check.verdict != "supported"


@pytest.mark.parametrize("reply", ["The area of Warsaw is 517.24.", "Warsaw's area is 517.24 square kilometres.",
                                   "Warsaw has an area of 517.24.", "The phone number of Town Hall is 022 555 0100."])
def test_a_relation_word_as_the_head_or_before_a_noun_of_the_value_kind_states_it(tmp_path, reply):
    (check,) = checks_of(from_turtle(tmp_path, TOWN), reply)
    assert check.verdict == "supported"


def test_a_relation_word_as_the_unit_of_a_measure_before_a_noun_states_it(tmp_path):
    kg = TOWN + 't:ml rdfs:label "Machine Learning" ; t:credits "20" . t:credits rdfs:label "credits" .\n'
    (check,) = checks_of(from_turtle(tmp_path, kg), "Machine Learning is a 15-credit course.")
    assert check.verdict == "contradicted"


@pytest.mark.parametrize(("question", "qualifying"), [
    ("What is the telephone area code of Warsaw?", {"telephone", "area"}),
    ("What is Berlin's record label?", {"record"}),
    ("Who is the head coach of Harbour Rovers?", {"head"}),
    ("Does Harbour Rovers play home games at Y?", set()),  # a verb before its object opens no noun phrase
    ("Which river flows through Prague?", set()),  # the asked noun, then its verb
    ("What is the phone number of Ann?", set()),  # "number" is the head of any kind of number
    ("What is the area of Warsaw?", set()),
    ("When did Ada Quist's mentor retire?", set()),  # a question asked with "do" ends on its verb
])
def test_the_words_of_a_question_said_only_to_qualify_the_next(question, qualifying):
    from engine.factcheck.relations import qualifiers

    assert qualifiers(question) == qualifying
