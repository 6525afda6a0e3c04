"""KGStore: graphs, labels, neighbourhoods, probabilities, persistence, crash safety of loads."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pyoxigraph
import pytest

from kgstore import KGStore, demo_path
from kgstore.errors import BadInput
from kgstore.terms import Fact
from kgstore.vocab import (
    GRAPH_META,
    KGC_PENDING_LOAD,
    RDF_TYPE,
    RDFS_LABEL,
    SKOS,
    WD,
    WDT,
    bg_graph,
    derived_graph,
    dialogue_graph,
)
from tests.support.child import child_env

EX = "http://example.org/"

TTL = f"""\
@prefix ex: <{EX}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix schema: <http://schema.org/> .
@prefix wd: <{WD}> .
@prefix wdt: <{WDT}> .
ex:alice rdfs:label "Alice Smith"@en, "Alice Schmidt"@de ; skos:altLabel "Ali" ;
    ex:knows ex:bob ; ex:age 41 ; a ex:Person .
ex:bob skos:prefLabel "Bob" ; ex:knows ex:carol ; a ex:Person .
ex:carol schema:name "Carol" ; ex:worksAt ex:acme .
ex:acme ex:locatedIn ex:oslo .
ex:inception wdt:P57 ex:nolan ; wdt:P161 ex:dicaprio .
wd:P161 rdfs:label "cast member (from the file)"@en .
"""


@pytest.fixture
def store(tmp_path) -> KGStore:
    path = tmp_path / "people.ttl"
    path.write_text(TTL)
    s = KGStore()
    s.load(path)
    return s


def test_load_puts_a_file_in_its_own_background_graph(store):
    assert store.background_graphs() == [bg_graph("people")]
    assert store.graphs() == [(bg_graph("people"), store.count())]
    assert store.count() == store.count(bg_graph("people")) == 15


def test_labels_follow_the_label_predicates_then_wikidata_then_local_name(store):
    assert store.label(EX + "alice") == "Alice Smith"  # English before German
    assert store.label(EX + "bob") == "Bob"  # skos:prefLabel
    assert store.label(EX + "carol") == "Carol"  # schema:name
    assert store.label(EX + "worksAt") == "works at"  # the local name as words
    assert store.label(WDT + "P57") == "director"  # built-in table
    assert store.label(WDT + "P161") == "cast member (from the file)"  # the file wins
    assert store.labels([EX + "bob", EX + "oslo"]) == {EX + "bob": "Bob", EX + "oslo": "oslo"}


def test_label_entries_have_names_and_aliases_of_background_entities(store):
    entries = {(e.text, e.iri, e.alias) for e in store.label_entries()}
    assert ("Ali", EX + "alice", True) in entries
    assert ("Alice Smith", EX + "alice", False) in entries
    assert ("Carol", EX + "carol", False) in entries
    assert not any(e.text == "Alice Schmidt" for e in store.label_entries())  # English only


def test_label_entries_leave_out_the_labels_of_relations(tmp_path):
    # A CSV's or schema's relation with a label ("office hours") is asked for, not named: taken
    # for an entity, the mention detector would mask it out of the question that asks for it.
    path = tmp_path / "uni.ttl"
    path.write_text(f"""@prefix ex: <{EX}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:yuki rdfs:label "Yuki Tanaka" ; ex:officeHours "Wednesday 14:00-15:30" .
ex:officeHours rdfs:label "office hours" .
""")
    s = KGStore()
    s.load(path)
    assert [(e.text, e.iri) for e in s.label_entries()] == [("Yuki Tanaka", EX + "yuki")]
    assert s.label(EX + "officeHours") == "office hours"  # still the relation's name in sentences


def test_label_entries_leave_out_wikidata_property_entities_used_as_relations(tmp_path):
    # Wikidata JSON lines carry the property entity (wd:P123 "publisher") while the claims use
    # wdt:P123: "Who published X?" must not link "published" to the property as a name.
    path = tmp_path / "books.nt"
    path.write_text(f"""<{WD}Q1> <http://www.w3.org/2000/01/rdf-schema#label> "Salt Pilgrim" .
<{WD}Q1> <{WDT}P123> <{WD}Q2> .
<{WD}Q2> <http://www.w3.org/2000/01/rdf-schema#label> "Tern Editions" .
<{WD}P123> <http://www.w3.org/2000/01/rdf-schema#label> "publisher" .
<{WD}P9999> <http://www.w3.org/2000/01/rdf-schema#label> "unused property" .
""")
    s = KGStore()
    s.load(path)
    assert sorted(e.text for e in s.label_entries()) == ["Salt Pilgrim", "Tern Editions", "unused property"]


def test_types_and_entities_of_type(store):
    assert store.types(EX + "alice") == [EX + "Person"]
    assert sorted(store.entities_of_type(EX + "Person")) == [EX + "alice", EX + "bob"]
    assert len(store.entities_of_type(EX + "Person", cap=1)) == 1


def test_neighborhood_walks_both_directions_with_literals_and_hops(store):
    one = store.neighborhood([EX + "bob"], hops=1)
    keys = {f.key for f in one.facts}
    assert (EX + "alice", EX + "knows", EX + "bob") in keys  # incoming
    assert (EX + "bob", EX + "knows", EX + "carol") in keys  # outgoing
    assert not one.capped and set(one.hop.values()) == {1}
    two = store.neighborhood([EX + "bob"], hops=2)
    assert two.hop[(EX + "alice", EX + "age", "41")] == 2  # a literal object is a fact
    assert two.hop[(EX + "carol", EX + "worksAt", EX + "acme")] == 2
    assert (EX + "acme", EX + "locatedIn", EX + "oslo") not in two.hop
    age = next(f for f in two.facts if f.p == EX + "age")
    assert age.o_literal and age.datatype.endswith("#integer")
    # names are labels, not facts; a class is not walked through to its other instances
    assert not any(f.p in (RDFS_LABEL, SKOS + "prefLabel", SKOS + "altLabel") for f in two.facts)
    via_class = store.neighborhood([EX + "alice"], hops=2)
    assert (EX + "bob", RDF_TYPE, EX + "Person") in via_class.hop  # reached through ex:knows, not the class
    assert via_class.hop[(EX + "bob", RDF_TYPE, EX + "Person")] == 2


def test_neighborhood_reads_background_graphs_only(store):
    store.add([Fact(EX + "bob", EX + "mentionedIn", "urn:turn:1")], dialogue_graph("s1"))
    store.add_probabilistic(Fact(EX + "bob", EX + "friendOf", EX + "carol"), 0.9, derived_graph("s1"), "r")
    keys = {f.key for f in store.neighborhood([EX + "bob"], hops=1).facts}
    assert (EX + "bob", EX + "mentionedIn", "urn:turn:1") not in keys
    assert (EX + "bob", EX + "friendOf", EX + "carol") not in keys


def test_neighborhood_caps_a_hub_and_says_so_while_other_seeds_keep_their_share():
    s = KGStore()
    hub = EX + "hub"
    s.add([Fact(hub, EX + "links", f"{EX}n{i}") for i in range(50_000)], bg_graph("hub"))
    s.add([Fact(EX + "small", EX + "links", EX + "x"), Fact(EX + "x", EX + "links", EX + "y")], bg_graph("hub"))
    nb = s.neighborhood([hub, EX + "small"], hops=2, cap=100)
    assert len(nb.facts) == 100
    assert nb.capped and "100" in nb.cap_reason and "hub" in nb.cap_reason
    assert (EX + "small", EX + "links", EX + "x") in nb.hop


def test_probabilistic_fact_has_a_plain_quad_and_a_reifier(store):
    g = derived_graph("s1")
    fact = Fact(EX + "alice", EX + "friendOf", EX + "carol")
    store.add_probabilistic(fact, 0.72, g, "friends(X,Y) :- knows(X,Z), knows(Z,Y).")
    assert store.query(f"ASK {{ GRAPH <{g}> {{ <{EX}alice> <{EX}friendOf> <{EX}carol> }} }}") is True
    rows = store.query(f"""
        PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> PREFIX kgc: <urn:kgchat:vocab:>
        SELECT ?p ?rule WHERE {{ GRAPH <{g}> {{
          ?r rdf:reifies <<( <{EX}alice> <{EX}friendOf> <{EX}carol> )>> ; kgc:probability ?p ; kgc:rule ?rule }} }}""")
    assert len(rows) == 1 and float(rows[0]["p"]) == pytest.approx(0.72) and rows[0]["rule"].startswith("friends")
    store.add_probabilistic(fact, 0.8, g, "friends(X,Y) :- knows(X,Z), knows(Z,Y).")
    assert store.probability(fact, g) == pytest.approx(0.8)
    assert store.count(g) == 4  # quad + reifies + rule + one probability, not a second reifier
    store.add_probabilistic(Fact(EX + "alice", EX + "age", "41", o_literal=True,
                                 datatype="http://www.w3.org/2001/XMLSchema#integer"), 0.5, g, "other")
    assert store.count(g) == 8
    store.remove_graph(g)
    assert store.count(g) == 0 and store.probability(fact) is None


def test_query_returns_rows_or_a_boolean_and_bad_queries_are_bad_input(store):
    rows = store.query(f"SELECT ?who WHERE {{ ?who <{EX}knows> <{EX}carol> }}")
    assert rows == [{"who": EX + "bob"}]
    assert store.query(f"ASK {{ <{EX}bob> <{EX}knows> <{EX}alice> }}") is False
    with pytest.raises(BadInput, match="SPARQL query"):
        store.query("SELECT WHERE {")
    store.update(f"INSERT DATA {{ GRAPH <{bg_graph('people')}> {{ <{EX}bob> <{EX}knows> <{EX}alice> }} }}")
    assert store.query(f"ASK {{ <{EX}bob> <{EX}knows> <{EX}alice> }}") is True


def test_on_disk_store_survives_reopening(tmp_path):
    (tmp_path / "people.ttl").write_text(TTL)
    s = KGStore(tmp_path / "db")
    s.load(tmp_path / "people.ttl")
    s.add_probabilistic(Fact(EX + "a", EX + "p", EX + "b"), 0.5, derived_graph("x"))
    n = s.count()
    del s
    again = KGStore(tmp_path / "db")
    assert again.count() == n and again.label(EX + "alice") == "Alice Smith"


def test_demo_kgs_are_packaged_and_load():
    office, wiki = KGStore(), KGStore()
    office.load(demo_path("office"))
    wiki.load(demo_path("wikidata"))
    assert office.count() > 500 and wiki.count() >= 300
    assert wiki.label(WD + "Q25188") == "Inception"
    assert (WD + "Q25188", WDT + "P57", WD + "Q25191") in wiki.neighborhood([WD + "Q25188"]).hop
    with pytest.raises(BadInput, match="unknown demo"):
        demo_path("nope")


# ---- a load killed mid-way -------------------------------------------------------------------

CHILD = textwrap.dedent("""
    import sys
    from kgstore import KGStore
    store = KGStore(sys.argv[1])
    store.bulk_min_bytes = 1
    store.bulk_chunk = 5_000
    size = int(sys.argv[3])

    def progress(done):
        if done > size * 0.9:
            print("mid-load", flush=True)
            sys.stdin.read()  # hold the load open until the parent kills this process

    store.load(sys.argv[2], progress=progress)
    print("finished", flush=True)
""")


def _write_big(path: Path, n: int, quads: bool) -> None:
    graph = " <http://example.org/g>" if quads else ""
    with open(path, "w") as f:
        for i in range(n):
            f.write(f'<{EX}e{i % 997}> <{EX}p{i % 13}> "value {i}"{graph} .\n')


@pytest.mark.parametrize("name,quads", [("big.nt", False), ("big.nq", True)])
def test_a_load_killed_midway_leaves_the_store_as_before(tmp_path, name, quads):
    (tmp_path / "people.ttl").write_text(TTL)
    db = tmp_path / "db"
    s = KGStore(db)
    s.load(tmp_path / "people.ttl")
    before = (s.count(), s.graphs())
    del s
    big = tmp_path / name
    _write_big(big, 60_000, quads)
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(db), str(big), str(big.stat().st_size)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=child_env())
    try:
        assert child.stdout.readline().strip() == "mid-load"
    finally:
        child.kill()
        child.wait()
    raw = pyoxigraph.Store(str(db))
    pending = list(raw.quads_for_pattern(None, pyoxigraph.NamedNode(KGC_PENDING_LOAD), None,
                                         pyoxigraph.NamedNode(GRAPH_META)))
    assert pending, "the killed load left its pending marker"
    if quads:  # chunks of 5,000 quads were committed before the kill: there is something to undo
        assert len(raw) > before[0] + 1
    del raw
    reopened = KGStore(db)
    assert (reopened.count(), reopened.graphs()) == before
    assert not list(db.glob("bulk-*.sst")), "the killed load's files were left behind"
    reopened.load(big)  # and the same file loads fine afterwards
    assert reopened.count() == before[0] + 60_000


def _disk_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def test_the_space_of_a_killed_bulk_load_comes_back_on_the_next_open(tmp_path):
    """What a kill leaves: pyoxigraph's `bulk-*.sst` files not yet handed to RocksDB, and data
    handed over under a pending-load marker. Both are gone after the next open."""
    db = tmp_path / "db"
    s = KGStore(db)
    s.load(demo_path("wikidata"))
    before = s.count()
    g = pyoxigraph.NamedNode(bg_graph("killed"))
    s._store.add(s.pending_marker(g, "big.nt"))
    s._store.bulk_extend(pyoxigraph.Quad(pyoxigraph.NamedNode(f"{EX}e{i % 1000}"), pyoxigraph.NamedNode(f"{EX}p"),
                                         pyoxigraph.Literal(i), g) for i in range(150_000))
    s._store.flush()
    del s  # the process dies here: the marker stays
    orphan = db / "bulk-1234567890.sst"
    orphan.write_bytes(os.urandom(4 * 2**20))
    killed = _disk_bytes(db)
    reopened = KGStore(db)
    assert reopened.count() == before and not orphan.exists()
    assert _disk_bytes(db) < killed / 3, "the dropped graph's space was not reclaimed"


def test_label_caches_follow_writes_that_can_change_names(store):
    assert store.label(EX + "oslo") == "oslo"
    store.add([Fact(EX + "oslo", RDFS_LABEL, "Oslo", o_literal=True)], dialogue_graph("s1"))
    assert store.label(EX + "oslo") == "Oslo"
    entries = len(store.label_entries())
    store.add([Fact(EX + "turn1", EX + "mentions", EX + "oslo")], dialogue_graph("s1"))
    assert len(store.label_entries()) == entries  # dialogue writes keep the cached entries
    store.add([Fact(EX + "bergen", RDFS_LABEL, "Bergen", o_literal=True)], bg_graph("people"))
    assert len(store.label_entries()) == entries + 1


def test_a_store_directory_in_use_is_bad_input_naming_it(tmp_path):
    first = KGStore(tmp_path / "db")
    with pytest.raises(BadInput, match=r"--store .*db: cannot open the store"):
        KGStore(tmp_path / "db")
    del first


def test_store_directory_and_its_parents_are_created(tmp_path):
    path = tmp_path / "a" / "b" / "store"
    store = KGStore(path)
    assert path.is_dir() and store.count() == 0


def test_a_wikidata_property_no_file_labels_reads_as_its_public_label():
    # product or material produced, crew member, number of masts: none labelled in the data
    from kgstore.store import resolve_label

    nothing = lambda iri: None  # noqa: E731
    for pid, label in (("P1056", "product or material produced"), ("P1029", "crew member"),
                       ("P1099", "number of masts")):
        assert resolve_label(f"http://www.wikidata.org/prop/direct/{pid}", nothing) == label
    assert resolve_label("http://www.wikidata.org/prop/direct/P99999999", nothing) == "P99999999"


def test_a_wikidata_property_newer_than_2018_reads_as_its_public_label():
    # significant place, country of registry, individual of taxon: created after the older list
    from kgstore.store import resolve_label

    nothing = lambda iri: None  # noqa: E731
    for pid, label in (("P7153", "significant place"), ("P8047", "country of registry"),
                       ("P10241", "individual of taxon")):
        assert resolve_label(f"http://www.wikidata.org/prop/direct/{pid}", nothing) == label


def test_predicates_of_reads_the_relations_an_entity_is_the_subject_of(tmp_path):
    """What an entity's own relations are: not its names, not the edges that
    point at it, not a fact of a graph outside the background."""
    (tmp_path / "reefs.ttl").write_text(f"""\
<{EX}reef> <http://www.w3.org/2000/01/rdf-schema#label> "Tern Reef" ;
    <{EX}depth> 12 ; <{EX}surveyedBy> <{EX}ana> ; <{EX}surveyedBy> <{EX}bo> .
<{EX}ana> <{EX}studies> <{EX}reef> .
""", encoding="utf-8")
    store = KGStore()
    store.load(tmp_path / "reefs.ttl")
    store.add([Fact(EX + "reef", EX + "visitedOn", "2024-05-01", o_literal=True)], "http://example.org/notes")
    assert store.predicates_of(EX + "reef") == [EX + "depth", EX + "surveyedBy"]
    assert store.predicates_of(EX + "ana") == [EX + "studies"]
    assert store.predicates_of("not an iri") == []
