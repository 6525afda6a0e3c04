"""Verbalization: templates per predicate, literal formats, fallback, same-named entities."""

from engine.nlp.sentences import literal_text, verbalize
from engine.state import Candidate
from kgstore import KGStore
from kgstore.terms import Fact
from kgstore.vocab import RDF_TYPE, WDT, XSD, office_predicate

TTL = """
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix o: <urn:kgchat:office:> .
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
<urn:e:omar> rdfs:label "Omar Haddad" ; a o:Person ; o:phone "+47 555 01 234" ; o:member_of <urn:e:eng> .
<urn:e:eng> rdfs:label "Engineering" .
o:Person rdfs:label "Person" .
<urn:e:ev1> rdfs:label "Status Update" ; o:location <urn:e:beta> ;
    o:date "2026-03-02"^^<http://www.w3.org/2001/XMLSchema#date> .
<urn:e:ev2> rdfs:label "Status Update" ; o:date "2026-03-04"^^<http://www.w3.org/2001/XMLSchema#date> .
<urn:e:beta> rdfs:label "Meeting Room Beta" .
wd:Q42 rdfs:label "Douglas Adams" ; wdt:P19 wd:Q350 ; <http://example.org/favouriteColour> "blue" .
wd:Q350 rdfs:label "Cambridge" .
wd:Q5 rdfs:label "human" .
<http://example.org/thing/no_label_here> <http://example.org/rel/knows> <http://example.org/thing/other_one> .
"""


def _store(tmp_path):
    path = tmp_path / "kg.ttl"
    path.write_text(TTL, encoding="utf-8")
    store = KGStore()
    store.load(str(path))
    return store


def _texts(store, facts):
    cands = [Candidate(fact=f) for f in facts]
    verbalize(cands, store)
    return [c.text for c in cands]


def test_office_templates_and_node_fact(tmp_path):
    store = _store(tmp_path)
    texts = _texts(store, [
        Fact("urn:e:omar", office_predicate("phone"), "+47 555 01 234", o_literal=True),
        Fact("urn:e:omar", office_predicate("member_of"), "urn:e:eng"),
        Fact("urn:e:omar", RDF_TYPE, "urn:kgchat:office:Person"),
        Fact("urn:e:ev1", office_predicate("location"), "urn:e:beta"),
    ])
    assert texts == ["Omar Haddad's phone number is +47 555 01 234",
                     "Omar Haddad is a member of the Engineering group",
                     "Omar Haddad is a person",
                     "Status Update will be held in Meeting Room Beta"]


def test_wikidata_template_and_readable_fallback(tmp_path):
    store = _store(tmp_path)
    texts = _texts(store, [
        Fact("http://www.wikidata.org/entity/Q42", WDT + "P19", "http://www.wikidata.org/entity/Q350"),
        Fact("http://www.wikidata.org/entity/Q42", "http://example.org/favouriteColour", "blue", o_literal=True),
    ])
    assert texts[0] == "Douglas Adams was born in Cambridge"
    node = _texts(store, [Fact("http://www.wikidata.org/entity/Q42", WDT + "P31", "http://www.wikidata.org/entity/Q5")])
    assert node == ["Douglas Adams is a human"]
    assert texts[1].startswith("Douglas Adams — ") and texts[1].endswith(" — blue")


def test_no_labels_fall_back_to_local_names(tmp_path):
    store = _store(tmp_path)
    texts = _texts(store, [Fact("http://example.org/thing/no_label_here", "http://example.org/rel/knows",
                                "http://example.org/thing/other_one")])
    assert texts == ["No label here — knows — other one"]


def test_same_named_entities_are_told_apart_by_date(tmp_path):
    store = _store(tmp_path)
    d = office_predicate("date")
    cands = [Candidate(fact=Fact("urn:e:ev1", d, "2026-03-02", o_literal=True, datatype=XSD + "date")),
             Candidate(fact=Fact("urn:e:ev2", d, "2026-03-04", o_literal=True, datatype=XSD + "date"))]
    verbalize(cands, store)
    assert cands[0].s_label == "Status Update (Monday 2 March 2026)"
    assert cands[1].s_label == "Status Update (Wednesday 4 March 2026)"
    assert cands[0].text == "Status Update (Monday 2 March 2026) takes place on Monday 2 March 2026"


def test_a_rules_sentence_names_a_same_named_entity_as_the_kg_facts_do(tmp_path):
    store = _store(tmp_path)
    d = office_predicate("date")
    derived = Candidate(fact=Fact("urn:e:omar", "urn:kgchat:derived:organizes", "urn:e:ev1"), derived=True,
                        text="Omar Haddad organizes Status Update")
    cands = [Candidate(fact=Fact("urn:e:ev1", d, "2026-03-02", o_literal=True, datatype=XSD + "date")),
             Candidate(fact=Fact("urn:e:ev2", d, "2026-03-04", o_literal=True, datatype=XSD + "date")), derived]
    verbalize(cands, store)
    assert derived.text == "Omar Haddad organizes Status Update (Monday 2 March 2026)"


def test_literal_formats():
    assert literal_text("09:30:00", XSD + "time") == "09:30"
    assert literal_text("2026-03-06", XSD + "date") == "Friday 6 March 2026"
    assert literal_text("not a date", XSD + "date") == "not a date"
    assert literal_text("+1952-00-00T00:00:00Z", None) == "1952"


def test_a_kgs_date_is_also_said_as_written_the_calendars_as_scheduled(tmp_path):
    store = _store(tmp_path)
    born = Candidate(fact=Fact("urn:e:ann", "http://example.org/birthDate", "1990-07-09", o_literal=True,
                               datatype=XSD + "date"))
    meeting = Candidate(fact=Fact("urn:e:ev1", office_predicate("date"), "2026-03-02", o_literal=True,
                                  datatype=XSD + "date"))
    verbalize([born, meeting], store)
    assert born.o_label == "Monday 9 July 1990 (1990-07-09)" and "1990-07-09" in born.text
    assert meeting.o_label == "Monday 2 March 2026"
