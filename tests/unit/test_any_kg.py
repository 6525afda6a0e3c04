"""A KG exported from any tool reads as its author meant: schema.org under http or https, the
alias predicates tools write, people (and groups, events) of any class, types from CSV/TSV rows,
names linked only by a whole label, and composed facts that read as words."""

from __future__ import annotations

import json

import pytest

from engine.config import Config
from engine.nlp.mentions import LabelIndex, detect, detect_names
from engine.session import Session
from kgstore import KGStore
from kgstore.terms import LabelEntry
from tests.support.reasoning_calendar import turn

NOW = "2026-03-04T10:30:00"


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def session_on(path: str) -> Session:
    return Session.open(Config(memory=True, demo="none", kg=[path], now=NOW, scorer="bm25", reason_timeout_ms=60_000))


def linked(state, text: str) -> str | None:
    return next((m.entity for m in state.mentions if m.text == text), None)


# --- schema.org under both namespaces; alias predicates -----------------------------------

def heron_jsonld(namespace: str) -> str:
    return json.dumps({"@context": {"@vocab": namespace}, "@graph": [
        {"@id": "http://ex.org/heron", "@type": "Person", "name": "Heron Vale", "alternateName": "Heron",
         "birthDate": "1970-02-01", "worksFor": {"@id": "http://ex.org/acme"}},
        {"@id": "http://ex.org/acme", "@type": "Organization", "name": "Acme Kites"},
        {"@id": "http://ex.org/kite", "@type": "Product", "name": "Storm Kite", "manufacturer": {"@id": "http://ex.org/acme"}},
    ]})


@pytest.mark.parametrize("namespace", ["https://schema.org/", "http://schema.org/"])
def test_schema_org_names_types_and_alternate_names_under_either_namespace(tmp_path, namespace):
    store = KGStore()
    store.load(write(tmp_path, "kites.jsonld", heron_jsonld(namespace)))
    assert store.label("http://ex.org/heron") == "Heron Vale"
    entries = {(e.text, e.alias) for e in store.label_entries() if e.iri == "http://ex.org/heron"}
    assert entries == {("Heron Vale", False), ("Heron", True)}
    session = session_on(write(tmp_path, "kites2.jsonld", heron_jsonld(namespace)))
    state = turn(session, "When was Heron born?")
    assert linked(state, "Heron") == "http://ex.org/heron"
    assert linked(turn(session, "Who does she work for?"), "she") == "http://ex.org/heron"


@pytest.mark.parametrize("predicate", [
    "http://www.w3.org/2004/02/skos/core#hiddenLabel", "https://schema.org/alternateName",
    "http://xmlns.com/foaf/0.1/nick", "http://dbpedia.org/ontology/alias"])
def test_common_alias_predicates_are_aliases(tmp_path, predicate):
    path = write(tmp_path, "a.nt", f'<http://ex.org/k> <http://www.w3.org/2000/01/rdf-schema#label> "Kestrel Lane" .\n'
                                   f'<http://ex.org/k> <{predicate}> "The Kestrels" .\n')
    store = KGStore()
    store.load(path)
    assert LabelEntry("The Kestrels", "http://ex.org/k", True) in store.label_entries()
    assert store.facts_about("http://ex.org/k") == []  # a name, not a fact to retrieve


@pytest.mark.parametrize("context", ['"https://schema.org"', '"http://schema.org/"',
                                     '["https://schema.org/", {"ex": "http://ex.org/"}]'])
def test_a_json_ld_file_whose_context_is_schema_org_by_its_url_loads(tmp_path, context):
    path = write(tmp_path, "p.jsonld", f'{{"@context": {context}, "@graph": [{{"@id": "http://ex.org/heron", '
                                       '"@type": "Person", "name": "Heron Vale"}]}')
    store = KGStore()
    store.load(path)
    assert store.label("http://ex.org/heron") == "Heron Vale"
    assert store.types("http://ex.org/heron") == ["http://schema.org/Person"]


def test_an_rdfxml_file_in_https_schema_org_names_its_entities(tmp_path):
    path = write(tmp_path, "k.rdf", """<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:s="https://schema.org/">
  <s:Person rdf:about="http://ex.org/ines"><s:name>Inès Abernethy</s:name><s:alternateName>Ines</s:alternateName></s:Person>
</rdf:RDF>""")
    store = KGStore()
    store.load(path)
    assert store.label("http://ex.org/ines") == "Inès Abernethy"
    assert {e.text for e in store.label_entries()} == {"Inès Abernethy", "Ines"}


# --- people, groups and events of any class -------------------------------------------------

PILOTS_TTL = """@prefix ex: <http://ex.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:amelia a ex:Pilot ; rdfs:label "Amelia Hart" ; ex:birthDate "1897-07-24" ; ex:familyName "Hart" ;
    ex:flew ex:electra .
ex:bessie a ex:Pilot ; rdfs:label "Bessie Cole" ; ex:flew ex:jenny .
ex:electra a ex:Aircraft ; rdfs:label "Lockheed Electra" ; ex:firstFlight "1934-02-23" .
ex:jenny a ex:Aircraft ; rdfs:label "Curtiss Jenny" .
ex:harbour a ex:Airfield ; rdfs:label "Harbour Field" .
"""


def test_a_person_of_a_class_named_anything_is_taken_up_by_she(tmp_path):
    session = session_on(write(tmp_path, "pilots.ttl", PILOTS_TTL))
    turn(session, "What did Amelia Hart fly?")
    session.system_turn("Amelia Hart flew the Lockheed Electra.")
    # Bessie has no birth date herself: her class's other instances say what a Pilot is.
    assert linked(turn(session, "When was she born?"), "she") == "http://ex.org/amelia"
    turn(session, "What did Bessie Cole fly?")
    assert linked(turn(session, "What else did she fly?"), "she") == "http://ex.org/bessie"


@pytest.mark.parametrize("name, delimiter", [("crew.csv", ","), ("crew.tsv", "\t")])
def test_instance_of_rows_of_a_csv_or_tsv_file_are_types(tmp_path, name, delimiter):
    rows = [("head", "relation", "tail"), ("Nadia Orlova", "instance of", "human"),
            ("Nadia Orlova", "flew", "Vostok Trainer"), ("Vostok Trainer", "type", "aircraft"),
            ("Vostok Trainer", "built in", "1961")]
    path = write(tmp_path, name, "\n".join(delimiter.join(r) for r in rows) + "\n")
    store = KGStore()
    store.load(path)
    nadia = next(e.iri for e in store.label_entries() if e.text == "Nadia Orlova")
    assert [store.label(t) for t in store.types(nadia)] == ["human"]
    assert "instance of" not in {store.label(p) for p in store.relations()}
    session = session_on(path)
    turn(session, "What did Nadia Orlova fly?")
    session.system_turn("Nadia Orlova flew the Vostok Trainer.")
    assert linked(turn(session, "What else did she fly?"), "she") == nadia


def test_untyped_people_are_people_by_their_relations(tmp_path):
    rows = ["Greta Lind,given name,Greta", "Greta Lind,family name,Lind", "Greta Lind,teaches,Databases",
            "Databases,credits,10"]
    path = write(tmp_path, "uni.csv", "\n".join(rows) + "\n")
    session = session_on(path)
    turn(session, "What does Greta Lind teach?")
    session.system_turn("Greta Lind teaches Databases.")
    state = turn(session, "What is her family name?")
    assert store_label(session, linked(state, "her")) == "Greta Lind"


def store_label(session, iri):
    return session.ctx.store.label(iri) if iri else None


def test_kinds_by_relations():
    from rules.kinds import kind_of_relations, kind_of_types

    assert kind_of_types(["https://schema.org/Person"]) == "person"
    assert kind_of_types(["urn:x:C1"], {"urn:x:C1": "Human"}) == "person"
    # A class named for what its people are or do, by the last word of its name.
    assert kind_of_types(["http://example.org/ClubMember"]) == "person"
    assert kind_of_types(["urn:x:C2"], {"urn:x:C2": "nurse"}) == "person"
    assert kind_of_types(["http://example.org/MemberState"]) == "thing"
    assert kind_of_relations([["date of birth", "occupation"], ["name"]]) == "person"
    assert kind_of_relations([["birthDate"], ["headquarters location"], ["founded by"]]) == "group"
    assert kind_of_relations([["population", "area"]]) == "thing"


# --- whole-label linking --------------------------------------------------------------------

PEOPLE = [LabelEntry("Callum Reid", "p:callum"), LabelEntry("Fraser Reid", "p:fraser"),
          LabelEntry("Franz Kafka", "p:franz"), LabelEntry("The Glass Harbour", "b:glass"),
          LabelEntry("curator", "o:curator"), LabelEntry("Pride and Prejudice", "w:pride"),
          LabelEntry("Pride", "w:pride2"), LabelEntry("Star Wars: A New Hope", "f:sw"),
          LabelEntry("Star Wars", "f:sw0"), LabelEntry("Summer Exhibition", "e:summer"),
          LabelEntry("Henrik Lindqvist", "p:henrik"), LabelEntry("Kettleby", "s:kettleby"),
          LabelEntry("Ward 7B", "w:7b")]


@pytest.fixture(scope="module")
def people():
    return LabelIndex(PEOPLE)


def names(text, index):
    return [(m.text, m.candidates[0][0]) for m in detect_names(text, index)]


@pytest.mark.parametrize("text", ["When was Morag Reid born?", "When was Hermann Kafka born?",
                                  "What is the address of Blue Harbour?", "when was morag reid born",
                                  "What does Karin Lindqvist teach?", "When did Kettleby Junction open?",
                                  "How many beds does Ward 7C have?"])
def test_a_full_name_the_kg_lacks_links_to_no_one_sharing_a_word_of_it(people, text):
    assert names(text, people) == []


def test_a_whole_label_beside_other_words_still_links(people):
    assert names("When did Kettleby open?", people) == [("Kettleby", "s:kettleby")]
    assert names("Kettleby opened when?", people) == [("Kettleby", "s:kettleby")]
    assert names("How many beds does Ward 7B have on Monday?", people) == [("Ward 7B", "w:7b")]
    assert names("Is Kettleby near Callum Reid's home?", people) == [("Kettleby", "s:kettleby"),
                                                                     ("Callum Reid", "p:callum")]
    # A transcript capitalises nothing: the words beside a whole name are no sign of a longer one.
    assert names("what is callum reids email address", people) == [("callum reids", "p:callum")]
    assert names("who teaches kettleby", people) == [("kettleby", "s:kettleby")]


def test_a_first_or_last_name_alone_still_links(people):
    assert names("When was Kafka born?", people) == [("Kafka", "p:franz")]
    assert names("When was Professor Kafka born?", people) == [("Kafka", "p:franz")]
    assert names("Is Kafka in on Monday?", people) == [("Kafka", "p:franz")]
    assert names("when was franz kafker born", people) == [("franz kafker", "p:franz")]
    # A typo of the typed first name is still the name; a transcript may mishear it further.
    assert names("What does Henrick Lindqvist teach?", people) == [("Henrick Lindqvist", "p:henrik")]
    assert names("what does karin lindqvist teach", people) == [("karin lindqvist", "p:henrik")]


def test_common_words_do_not_link_as_names(people):
    assert names("Who curated the exhibition?", people) == []  # no "curator", no "Summer Exhibition"
    assert names("Who is the curator?", people) == [("curator", "o:curator")]
    assert names("Is the Summer Exhibition open?", people) == [("Summer Exhibition", "e:summer")]


def test_labels_with_and_or_a_colon_match_whole(people):
    assert names("Who wrote Pride and Prejudice?", people) == [("Pride and Prejudice", "w:pride")]
    assert names("Who directed Star Wars: A New Hope?", people) == [("Star Wars: A New Hope", "f:sw")]


def test_an_and_inside_a_name_makes_no_second_question():
    from datetime import datetime

    from engine.focus import focused
    from engine.state import Mention, TurnState

    def state(text, name):
        start = text.index(name)
        return TurnState(session_id="s", turn=1, text=text, now=datetime(2026, 3, 4),
                         mentions=[Mention(name, start, start + len(name), "name", entity="w:x")])

    assert focused(state("Who wrote Pride and Prejudice?", "Pride and Prejudice"))
    assert not focused(state("Who wrote Emma and when?", "Emma"))


# --- noun phrases with numbers and adjectives ------------------------------------------------

@pytest.mark.parametrize("text, phrase", [("Can you give me those six members?", "those six members"),
                                          ("Are those two small rooms free?", "those two small rooms"),
                                          ("Is that big room free?", "that big room")])
def test_numbers_and_adjectives_between_determiner_and_noun(people, text, phrase):
    found = [m for m in detect(text, people) if m.kind == "definite"]
    assert [m.text for m in found] == [phrase]


def test_the_next_meeting_is_no_meeting_spoken_of(people):
    assert [m for m in detect("When is the next meeting?", people) if m.kind == "definite"] == []


# --- composed replies read as words -----------------------------------------------------------

FILMS_TTL = """@prefix ex: <http://ex.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:heat rdfs:label "Heat" ; ex:runningTimeMinutes "142"^^xsd:integer ; ex:shotIn ex:springfieldCity ;
    ex:premiereAt ex:springfieldStation ; ex:lengthInKm "3.5" .
ex:springfieldCity a ex:City ; rdfs:label "Springfield" .
ex:springfieldStation a ex:Station ; rdfs:label "Springfield" .
ex:City rdfs:label "City" .
"""


def test_a_unit_in_a_relation_name_follows_the_value_and_same_names_say_what_they_are(tmp_path):
    from engine.nlp.sentences import verbalize
    from engine.stages.answer.compose import compose_text
    from engine.state import Candidate
    from kgstore.terms import Fact

    store = KGStore()
    store.load(write(tmp_path, "films.ttl", FILMS_TTL))
    ex = "http://ex.org/"
    facts = [Fact(ex + "heat", ex + "runningTimeMinutes", "142", True, "http://www.w3.org/2001/XMLSchema#integer"),
             Fact(ex + "heat", ex + "lengthInKm", "3.5", True),
             Fact(ex + "heat", ex + "shotIn", ex + "springfieldCity"),
             Fact(ex + "heat", ex + "premiereAt", ex + "springfieldStation")]
    cands = [Candidate(fact=f) for f in facts]
    verbalize(cands, store)
    assert [c.text for c in cands] == ["Heat — running time — 142 minutes", "Heat — length — 3.5 km",
                                       "Heat — shot in — Springfield (city)",
                                       "Heat — premiere at — Springfield (station)"]
    assert compose_text(cands[:3]) == ("Heat is shot in Springfield (city). Its running time is 142 minutes. Its "
                                       "length is 3.5 km.")
