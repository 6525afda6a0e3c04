"""Every file format the store loads, and every kind of broken file it refuses (all or nothing)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pyoxigraph
import pytest

from cli import main as kgchat
from kgstore import KGStore
from kgstore.errors import LoadError
from kgstore.loaders import detect_format
from kgstore.loaders.graphwoz_json import read_dialogue, read_dialogue_file
from kgstore.vocab import RDFS_LABEL, WD, WDT, XSD, bg_graph, kg_iri, office_entity, office_predicate
from tests.support.child import child_env

DATA = Path(__file__).resolve().parents[1] / "data"
EX = "http://example.org/"


def _triples() -> list[pyoxigraph.Triple]:
    n = pyoxigraph.NamedNode
    return [pyoxigraph.Triple(n(EX + "a"), n(EX + "p"), n(EX + "b")),
            pyoxigraph.Triple(n(EX + "a"), n(RDFS_LABEL), pyoxigraph.Literal("Ä label", language="en")),
            pyoxigraph.Triple(n(EX + "b"), n(EX + "n"), pyoxigraph.Literal("7", datatype=n(XSD + "integer")))]


@pytest.mark.parametrize("ext,fmt", [("ttl", pyoxigraph.RdfFormat.TURTLE), ("nt", pyoxigraph.RdfFormat.N_TRIPLES),
                                     ("n3", pyoxigraph.RdfFormat.N3), ("rdf", pyoxigraph.RdfFormat.RDF_XML),
                                     ("jsonld", pyoxigraph.RdfFormat.JSON_LD)])
def test_triple_formats_load_into_the_files_background_graph(tmp_path, ext, fmt):
    path = tmp_path / f"kg.{ext}"
    path.write_bytes(pyoxigraph.serialize(_triples(), format=fmt))
    s = KGStore()
    report = s.load(path)
    assert report.graphs == {bg_graph("kg"): 3}
    assert s.label(EX + "a") == "Ä label"


@pytest.mark.parametrize("ext,fmt", [("nq", pyoxigraph.RdfFormat.N_QUADS), ("trig", pyoxigraph.RdfFormat.TRIG)])
@pytest.mark.parametrize("bulk", [False, True])
def test_datasets_keep_their_named_graphs_as_background_graphs(tmp_path, ext, fmt, bulk):
    n = pyoxigraph.NamedNode
    quads = [pyoxigraph.Quad(t.subject, t.predicate, t.object, n(EX + "people")) for t in _triples()]
    quads.append(pyoxigraph.Quad(n(EX + "x"), n(EX + "p"), n(EX + "y")))
    quads.append(pyoxigraph.Quad(n(EX + "y"), n(EX + "p"), n(EX + "z"), n(bg_graph("kept"))))
    path = tmp_path / f"ds.{ext}"
    path.write_bytes(pyoxigraph.serialize(quads, format=fmt))
    s = KGStore()
    if bulk:
        s.bulk_min_bytes = 1
    report = s.load(path)
    assert report.graphs == {bg_graph("ds.people"): 3, bg_graph("ds"): 1, bg_graph("kept"): 1}
    assert report.bulk == (bulk and ext == "nq")


def test_format_option_overrides_the_extension(tmp_path):
    path = tmp_path / "kg.txt"
    path.write_bytes(pyoxigraph.serialize(_triples(), format=pyoxigraph.RdfFormat.N_TRIPLES))
    assert KGStore().load(path, format="nt").added == 3
    with pytest.raises(LoadError, match="unknown format 'foo'"):
        detect_format(str(path), "foo")


def test_big_ntriples_go_through_the_bulk_loader_unless_the_graph_has_data(tmp_path):
    path = tmp_path / "kg.nt"
    path.write_bytes(pyoxigraph.serialize(_triples(), format=pyoxigraph.RdfFormat.N_TRIPLES))
    s = KGStore(tmp_path / "db")
    s.bulk_min_bytes = 1
    first = s.load(path)
    assert first.bulk and first.graphs == {bg_graph("kg"): 3}
    again = s.load(path)  # the graph exists: one transaction, nothing new
    assert not again.bulk and again.added == 0 and s.count() == 3


def test_csv_triples_mint_entities_and_detect_literals():
    s = KGStore()
    report = s.load(DATA / "store_sample.csv")
    g = bg_graph("store_sample")
    assert report.graphs[g] == s.count(g)
    lisa = kg_iri("store_sample", "entity", "Lisa Wilson")
    assert s.label(lisa) == "Lisa Wilson"
    assert s.label(kg_iri("store_sample", "relation", "member of")) == "member of"
    facts = {s.label(f.p): f for f in s.facts_about(lisa)}
    assert not facts["member of"].o_literal and s.label(facts["member of"].o) == "Engineering"
    assert facts["phone"].o_literal and facts["phone"].o == "+47 905 17 323" and facts["phone"].datatype is None
    assert facts["email"].o_literal and facts["email"].datatype is None
    assert facts["born"].datatype == XSD + "date"
    assert facts["height"].datatype == XSD + "decimal"
    status = {s.label(f.p): f for f in s.facts_about(kg_iri("store_sample", "entity", "Status Update"))}
    assert status["starts at"].o == "09:30:00" and status["starts at"].datatype == XSD + "time"
    assert status["homepage"].datatype == XSD + "anyURI"
    assert not status["held in"].o_literal
    assert status["room number"].o_literal and status["room number"].datatype is None  # tail_type literal
    code = next(f for f in s.facts_about(kg_iri("store_sample", "entity", "Engineering")) if s.label(f.p) == "code")
    assert not code.o_literal  # tail_type entity wins over "looks like a number"


@pytest.mark.parametrize("tail, literal", [
    ("1222 m", True), ("210 km/h", True), ("6 h 40 min", True), ("45 minutes", True), ("12%", True),
    ("7C", False), ("Class 73", False), ("3 m street", False), ("B12", False),
])
def test_a_tail_that_is_a_number_with_its_unit_is_a_literal(tail, literal):
    from kgstore.loaders.csv_triples import literal_for

    assert (literal_for(tail) is not None) is literal


def test_tsv_uses_tabs(tmp_path):
    path = tmp_path / "kg.tsv"
    path.write_text("Oslo\tcapital of\tNorway\nOslo\tpopulation\t709037\n")
    s = KGStore()
    s.load(path)
    oslo = kg_iri("kg", "entity", "Oslo")
    assert {(s.label(f.p), f.o_literal) for f in s.facts_about(oslo)} == {("capital of", False), ("population", True)}


@pytest.mark.parametrize("relation", ["also known as", "alias", "nickname", "alternativeName"])
def test_a_csv_row_that_gives_another_name_is_an_alias(tmp_path, relation):
    path = tmp_path / "kg.tsv"
    path.write_text(f"Ward 7B\t{relation}\tRowan Ward\nWard 7B\tfloor\t3\n")
    s = KGStore()
    s.load(path)
    ward = kg_iri("kg", "entity", "Ward 7B")
    assert [(e.text, e.iri, e.alias) for e in s.label_entries() if e.text == "Rowan Ward"] == [("Rowan Ward", ward, True)]
    assert [s.label(f.p) for f in s.facts_about(ward)] == ["floor"]  # no entity "Rowan Ward", no relation fact


def test_wikidata_dump_keeps_truthy_claims_labels_and_aliases():
    s = KGStore()
    report = s.load(DATA / "store_wikidata.json")
    assert report.format == "wikidata"
    inception = WD + "Q25188"
    assert s.label(inception) == "Inception"
    assert {e.text for e in s.label_entries() if e.iri == inception and e.alias} == {"Inception (film)"}
    facts = {(f.p, f.o) for f in s.facts_about(inception)}
    assert (WDT + "P57", WD + "Q25191") in facts
    assert (WDT + "P161", WD + "Q38111") in facts  # numeric-id only
    assert (WDT + "P161", WD + "Q1") not in facts  # deprecated rank
    dates = {o for p, o in facts if p == WDT + "P577"}
    assert dates == {"2010-07-16"}  # the preferred statement wins over the normal one
    assert (WDT + "P2047", "148") in facts and (WDT + "P1476", "Inception") in facts
    assert s.label(WDT + "P57") == "director (from file)"
    assert s.label(WDT + "P106") == "occupation"


def test_wikidata_lines_without_array_brackets(tmp_path):
    path = tmp_path / "dump.jsonl"
    path.write_text('{"id": "Q42", "type": "item", "labels": {"en": {"value": "Douglas Adams"}}, "claims": {}}\n')
    s = KGStore()
    s.load(path)
    assert s.label(WD + "Q42") == "Douglas Adams"


GRAPHWOZ = {
    "dlg-1": {"task": "find Lisa", "data": {
        "people": [{"name": "Lisa Wilson", "id": "p1", "email": "lisa@example.org", "phone": "+47 1", "group": "Engineering",
                    "office": "Office 12", "calendar": ["e1"], "hobby": "chess"},
                   {"name": "Omar Haddad", "id": "p2"}],
        "events": [{"id": "e1", "name": "status update", "date": "2026-03-02", "start_time": "9:00", "end_time": "10:30",
                    "location": "Meeting Room Beta", "organizer": "Omar Haddad", "attendees": ["Omar Haddad", "p1"],
                    "group": "Engineering"}],
        "parking": {"spots": 3}},
        "log": [{"turn": 1, "manual_transcription": "where is lisa", "alternative": [{"transcript": "where is lisa"}],
                 "agent_response": "Lisa sits in Office 12.", "gold": {"nodes": ["x"]}},
                {"turn": 2, "alternative": [{"transcript": "thanks", "confidence": 0.9}]}]},
    "dlg-2": {"task": "other", "data": {"people": [{"name": "Ada Berg", "calendar": "e9"}],
                                        "events": [{"name": "Lunch", "attendees": "Ada Berg"}]}, "log": []},
}


@pytest.fixture
def graphwoz(tmp_path) -> Path:
    path = tmp_path / "graphwoz.json"
    path.write_text(json.dumps(GRAPHWOZ, indent=1))
    return path


def test_graphwoz_data_becomes_an_office_kg_per_dialogue(graphwoz):
    s = KGStore()
    report = s.load(graphwoz, dialogue_id="dlg-1")
    assert list(report.graphs) == [bg_graph("dlg-1")]
    assert any("parking" in w for w in report.warnings) and any("hobby" in w for w in report.warnings)
    lisa, omar = office_entity("dlg-1", "person", "p1"), office_entity("dlg-1", "person", "p2")
    event = office_entity("dlg-1", "event", "e1")
    facts = {(f.p, f.o) for f in s.facts_about(event)}
    assert (office_predicate("organizer"), omar) in facts  # organizer given by name resolves to the person
    assert (office_predicate("attendee"), lisa) in facts and (office_predicate("attendee"), omar) in facts
    assert (office_predicate("start_time"), "09:00:00") in facts
    assert (office_predicate("date"), "2026-03-02") in facts
    assert (office_predicate("location"), office_entity("dlg-1", "room", "Meeting Room Beta")) in facts
    assert s.types(lisa) == ["urn:kgchat:office:Person"] and s.label(lisa) == "Lisa Wilson"
    assert (lisa, office_predicate("member_of"), office_entity("dlg-1", "group", "Engineering")) in {
        f.key for f in s.facts_about(lisa)}


def test_graphwoz_without_a_dialogue_id_loads_every_world_into_its_own_graph(graphwoz):
    s = KGStore()
    report = s.load(graphwoz)
    assert set(report.graphs) == {bg_graph("dlg-1"), bg_graph("dlg-2")}
    assert any("'attendees' that is not a list" in w for w in report.warnings)
    assert any("'calendar' that is not a list" in w for w in report.warnings)
    with pytest.raises(LoadError, match="dialogue id 'nope' is not in the file"):
        s.load(graphwoz, dialogue_id="nope")


def test_graphwoz_log_replays_as_a_dialogue(graphwoz):
    turns = read_dialogue(str(graphwoz), "dlg-1")
    assert [(t["speaker"], t["text"]) for t in turns] == [
        ("user", "where is lisa"), ("system", "Lisa sits in Office 12."), ("user", "thanks")]
    assert turns[0]["gold"] == {"nodes": ["x"]}


def test_plain_dialogue_files_json_list_and_json_lines(tmp_path):
    listed = tmp_path / "d.json"
    listed.write_text(json.dumps([{"speaker": "user", "text": "hi"}, {"speaker": "system", "text": "hello"}]))
    lines = tmp_path / "d.jsonl"
    lines.write_text('{"speaker": "user", "text": "hi"}\n\n{"speaker": "system", "text": "hello"}\n')
    assert read_dialogue_file(str(listed)) == read_dialogue_file(str(lines)) == [
        {"speaker": "user", "text": "hi"}, {"speaker": "system", "text": "hello"}]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"speaker": "user", "text": "hi"}\n{"speaker": "robot", "text": "x"}\n')
    with pytest.raises(LoadError, match=r"bad.jsonl: line 2: 'speaker' must be 'user' or 'system'"):
        read_dialogue_file(str(bad))
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"speaker": "user", "text": "hi"}\n{"speaker": \n')
    with pytest.raises(LoadError, match=r"broken.jsonl: line 2, column \d+: not JSON"):
        read_dialogue_file(str(broken))


# ---- broken files: exit 2, one line naming file/line/reason, the store unchanged -----------------

BROKEN = [
    ("store_bad_middle.ttl", None, r"store_bad_middle\.ttl: line 8, column 20: A dot is expected"),
    ("store_latin1.ttl", None, r"store_latin1\.ttl: line 2, column \d+: .*UTF-8"),
    ("store_latin1.csv", None, r"store_latin1\.csv: line 2, column 4: not UTF-8 text \(byte 0xe9\)"),
    ("store_empty.nt", None, r"store_empty\.nt: empty file"),
    ("store_two_columns.csv", None, r"store_two_columns\.csv: line 3: expected 3 or 4 columns .*found 2"),
    ("store_not_json.json", None, r"store_not_json\.json: line 3, column \d+: not JSON"),
    ("store_graphwoz_missing_data.json", "graphwoz", r"store_graphwoz_missing_data\.json: line 7: dialogue dlg-2: missing key 'data'"),
    ("store_missing_file.ttl", None, r"store_missing_file\.ttl: file does not exist"),
    ("store_unknown.xyz", None, r"store_unknown\.xyz: unknown file extension '\.xyz'"),
]


@pytest.mark.parametrize("name,fmt,message", BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_files_exit_2_with_one_line_and_leave_the_store_as_it_was(tmp_path, capsys, name, fmt, message):
    import re

    db = str(tmp_path / "db")
    assert kgchat(["load", str(DATA / "store_sample.csv"), "--store", db]) == 0
    before = KGStore(db)
    counts = (before.count(), before.graphs())
    del before
    capsys.readouterr()
    argv = ["load", str(DATA / name), "--store", db] + (["--format", fmt] if fmt else [])
    assert kgchat(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and re.search(message, err), err
    after = KGStore(db)
    assert (after.count(), after.graphs()) == counts


def test_broken_files_in_memory_and_via_the_bulk_loader_leave_nothing_behind(tmp_path):
    bad = tmp_path / "bad.nt"
    good_lines = "".join(f"<{EX}s{i}> <{EX}p> <{EX}o{i}> .\n" for i in range(1000))
    bad.write_text(good_lines + "<http://example.org/x> <http://example.org/p> oops .\n")
    for s in (KGStore(), KGStore(tmp_path / "db")):
        s.bulk_min_bytes = 1
        with pytest.raises(LoadError, match=r"bad\.nt: line 1001, column \d+"):
            s.load(bad)
        assert s.count() == 0 and s.graphs() == []
        s.bulk_min_bytes = 10**9
        with pytest.raises(LoadError, match=r"line 1001"):
            s.load(bad)
        assert s.count() == 0


def test_ntriples_parts_load_side_by_side_and_errors_keep_their_line(tmp_path):
    lines = [f"<{EX}s{i}> <{EX}p> <{EX}o{i % 7}> .\n" for i in range(4000)]
    good = tmp_path / "good.nt"
    good.write_text("".join(lines))
    s = KGStore(tmp_path / "db")
    s.bulk_min_bytes, s.bulk_workers = 1, 3
    inside, overlaps, seen = threading.Lock(), [], []
    knocked = threading.Event()

    def progress(done: int) -> None:  # never entered by two parts at once
        if not inside.acquire(blocking=False):
            overlaps.append(done)
            knocked.set()
            return
        if not seen:  # the first call lingers: a second part, were it let in, would knock now
            knocked.wait(0.5)
        seen.append(done)
        inside.release()

    report = s.load(good, progress=progress)
    assert report.bulk and report.added == 4000 and s.count() == 4000
    assert not overlaps and seen == sorted(seen) and seen[-1] == good.stat().st_size
    bad = tmp_path / "bad.nt"
    bad.write_text("".join(lines[:3000]) + "<urn:x> <urn:p> oops .\n" + "".join(lines[3000:]))
    with pytest.raises(LoadError, match=r"bad\.nt: line 3001, column \d+"):
        s.load(bad)
    assert s.count() == 4000 and len(s.graphs()) == 1


def test_blank_nodes_keep_their_identity_in_a_bulk_load(tmp_path):
    nt = tmp_path / "blank.nt"
    nt.write_text("".join(f'_:b{i % 10} <{EX}p> "{i}" .\n' for i in range(2000)))
    s = KGStore()
    s.bulk_min_bytes, s.bulk_workers = 1, 4
    s.load(nt)
    assert len(s.query("SELECT DISTINCT ?s WHERE { ?s ?p ?o }")) == 10


# Rust's available_parallelism() counts the CPUs of this set: with it preloaded, pyoxigraph in the
# child process believes it has 16 cores and takes its many-core paths, on any machine.
SIXTEEN_CORES = r"""
#define _GNU_SOURCE
#include <sched.h>
#include <string.h>
int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set) {
    memset(set, 0, size);
    for (int i = 0; i < 16; i++) CPU_SET_S(i, size, set);
    return 0;
}
"""

MANY_CORE_CHILD = """
import json, sys
import pyoxigraph
from kgstore import KGStore
from kgstore.errors import LoadError

DISTINCT = "SELECT DISTINCT ?s WHERE { GRAPH ?g { ?s ?p ?o } }"
blank_nt, blank_nq, bad = sys.argv[1:4]
raw = pyoxigraph.Store()
raw.bulk_load(path=blank_nt, format=pyoxigraph.RdfFormat.N_TRIPLES, to_graph=pyoxigraph.NamedNode("urn:g"))
out = {"bare pyoxigraph": len(list(raw.query(DISTINCT)))}
for workers, progress in ((1, None), (16, None), (16, lambda done: None)):
    run = f"{workers} workers" + (", progress" if progress else "")
    for path in (blank_nt, blank_nq):
        s = KGStore()
        s.bulk_min_bytes, s.bulk_workers = 1, workers
        s.load(path, progress=progress)
        out[f"{run}: {path[-2:]}"] = len(s.query(DISTINCT))
    try:
        s.load(bad, progress=progress)
    except LoadError as exc:
        out[f"{run}: error"] = str(exc)
print(json.dumps(out))
"""


def test_sixteen_cores_change_neither_blank_nodes_nor_error_lines(tmp_path):
    if not shutil.which("cc"):
        pytest.skip("no C compiler to build the 16-core affinity shim")
    shim = tmp_path / "sixteen.so"
    (tmp_path / "sixteen.c").write_text(SIXTEEN_CORES)
    subprocess.run(["cc", "-shared", "-fPIC", "-o", shim, tmp_path / "sixteen.c"], check=True)
    blank_nt, blank_nq = tmp_path / "blank.nt", tmp_path / "blank.nq"
    blank_nt.write_text("".join(f'_:b{i % 10} <{EX}p> "{i}" .\n' for i in range(2000)))
    blank_nq.write_text("".join(f'_:b{i % 10} <{EX}p> "{i}" <{EX}g{i % 3}> .\n' for i in range(2000)))
    lines = [f"<{EX}s{i}> <{EX}p> <{EX}o{i % 7}> .\n" for i in range(20_000)]  # 16 parts of 2+ chunks
    bad = tmp_path / "bad.nt"
    bad.write_text("".join(lines[:15_000]) + "<urn:x> <urn:p> oops .\n" + "".join(lines[15_000:]))
    run = subprocess.run([sys.executable, "-c", MANY_CORE_CHILD, str(blank_nt), str(blank_nq), str(bad)],
                         capture_output=True, text=True, env=child_env(LD_PRELOAD=str(shim)), timeout=300)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out.pop("bare pyoxigraph") > 10, "the shim did not make pyoxigraph split the file"
    for key, value in out.items():
        if key.endswith("error"):
            assert re.search(r"bad\.nt: line 15001, column \d+", value), (key, value)
        else:
            assert value == 10, key
    assert len(out) == 9


@pytest.mark.parametrize("bulk", [False, True])
def test_the_names_a_triple_csv_load_keeps_are_those_read_back(tmp_path, bulk):
    """A triples file hands the store the names it gives and the predicates it uses (as a table
    does): they equal what reading the store back gives, with an alias row, type rows (one with
    a number, which stays a fact of its relation) and a code-named relation read as words."""
    store = KGStore()
    if bulk:
        store.bulk_min_bytes = 0
    (tmp_path / "ferries.tsv").write_text(
        "Skarv\toperated_by\tFjordline Nord\nSkarv\tnickname\tThe Cormorant\nSkarv\ttype\tFerry\n"
        "Skarv\ttype\t7\nSkarv\tcarRoom\t120\nFjordline Nord\tbased in\tBodø\nSkarv\toperated_by\tFjordline Nord\n",
        encoding="utf-8")
    report = store.load(tmp_path / "ferries.tsv")
    kept = store.label_entries(), store.relations()
    assert kept == _names_read_back(store)
    skarv = kg_iri("ferries", "entity", "Skarv")
    assert ("The Cormorant", True) in {(e.text, e.alias) for e in kept[0] if e.iri == skarv}
    assert {store.label(p) for p in kept[1]} >= {"operated by", "car room", "type", "based in"}
    assert report.added == store.count(bg_graph("ferries"))


def _names_read_back(store: KGStore) -> tuple[list, list[str]]:
    store._changed()  # forget what the load kept: read every name and relation from the store
    return store.label_entries(), store.relations()
