"""Hostile input against the store: files that name kgchat's own graphs, directories that are not
stores, markers that kgchat did not write. Each case ends as one line of bad input, nothing lost."""

from __future__ import annotations

import json

import pyoxigraph
import pytest

from cli import main as cli
from kgstore import KGStore
from kgstore.errors import BadInput, LoadError
from kgstore.storedir import STORE_MARKER
from kgstore.vocab import GRAPH_META, KGC_PENDING_LOAD, bg_graph, derived_graph, dialogue_graph

EX = "http://example.org/"
N = pyoxigraph.NamedNode


def _people(path):
    path.write_text(f'<{EX}a> <{EX}knows> <{EX}b> .\n<{EX}b> <{EX}knows> <{EX}c> .\n')
    return path


def _dataset(path, graph: str) -> None:
    quads = [pyoxigraph.Quad(N(EX + "x"), N(EX + "p"), N(EX + "y")),
             pyoxigraph.Quad(N(bg_graph("people")), N(KGC_PENDING_LOAD), pyoxigraph.Literal("x"), N(graph))]
    fmt = pyoxigraph.RdfFormat.N_QUADS if path.suffix == ".nq" else pyoxigraph.RdfFormat.TRIG
    path.write_bytes(pyoxigraph.serialize(quads, format=fmt))


@pytest.mark.parametrize("ext", ["nq", "trig"])
@pytest.mark.parametrize("bulk", [False, True])
def test_a_file_writing_the_meta_graph_is_refused_and_cannot_drop_a_graph(tmp_path, ext, bulk):
    db = tmp_path / "db"
    s = KGStore(db)
    s.load(_people(tmp_path / "people.nt"))
    if bulk:
        s.bulk_min_bytes = 1
    evil = tmp_path / f"evil.{ext}"
    _dataset(evil, GRAPH_META)
    with pytest.raises(LoadError, match=r"evil\.\w+: writes into kgchat's own graph urn:kgchat:graph:meta: refused"):
        s.load(evil)
    del s
    assert KGStore(db).count(bg_graph("people")) == 2


def test_a_restored_dump_skips_the_meta_graph_and_keeps_its_dialogue(tmp_path):
    evil = tmp_path / "dump.nq"
    quads = [pyoxigraph.Quad(N(EX + "t1"), N(EX + "said"), pyoxigraph.Literal("hi"), N(dialogue_graph("s1"))),
             pyoxigraph.Quad(N(bg_graph("people")), N(KGC_PENDING_LOAD), pyoxigraph.Literal("x"), N(GRAPH_META))]
    evil.write_bytes(pyoxigraph.serialize(quads, format=pyoxigraph.RdfFormat.N_QUADS))
    s = KGStore(tmp_path / "db")
    s.load(_people(tmp_path / "people.nt"))
    report = s.load(evil, restore=True)
    assert report.graphs == {dialogue_graph("s1"): 1}
    assert s.count(GRAPH_META) == 0


@pytest.mark.parametrize("graph", [dialogue_graph("s1"), derived_graph("s1"), "urn:kgchat:graph:other"])
def test_dialogue_and_derived_graphs_come_only_from_an_explicit_restore(tmp_path, graph):
    path = tmp_path / "dump.nq"
    path.write_text(f"<{EX}x> <{EX}p> <{EX}y> <{graph}> .\n")
    s = KGStore()
    with pytest.raises(LoadError, match="dump.nq: writes into kgchat's own graph .* refused"):
        s.load(path)
    assert s.count() == 0
    if graph != "urn:kgchat:graph:other":
        assert s.load(path, restore=True).graphs == {graph: 1}


@pytest.mark.parametrize("graph", ["people", "urn:kgchat:graph:meta", dialogue_graph("s"), "urn:kgchat:graph:bg:",
                                   "http://example.org/a b"])
def test_graph_option_must_be_an_absolute_iri_outside_the_reserved_names(tmp_path, graph):
    with pytest.raises(BadInput, match="^--graph "):
        KGStore().load(_people(tmp_path / "p.nt"), graph=graph)


def test_graph_option_takes_iris_and_background_names(tmp_path):
    s = KGStore()
    assert s.load(_people(tmp_path / "p.nt"), graph=EX + "g").graphs == {EX + "g": 2}
    assert s.load(_people(tmp_path / "p.nt"), graph=bg_graph("mine")).graphs == {bg_graph("mine"): 2}


def test_recovery_ignores_a_pending_marker_kgchat_did_not_write(tmp_path):
    db = tmp_path / "db"
    s = KGStore(db)
    s.load(_people(tmp_path / "people.nt"))
    # as a store of an earlier release could have been given by a loaded file
    s._store.add(pyoxigraph.Quad(N(bg_graph("people")), N(KGC_PENDING_LOAD), pyoxigraph.Literal("x"), N(GRAPH_META)))
    del s
    reopened = KGStore(db)
    assert reopened.count(bg_graph("people")) == 2 and reopened.count(GRAPH_META) == 0


def test_recovery_drops_a_graph_under_its_own_marker(tmp_path):
    db = tmp_path / "db"
    s = KGStore(db)
    s.load(_people(tmp_path / "people.nt"))
    s._store.add(s.pending_marker(N(bg_graph("people")), "people.nt"))
    del s
    assert KGStore(db).count() == 0


def test_a_directory_of_other_files_is_not_a_store(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "LOG").write_text("mine")
    (data / "bulk-1.sst").write_text("mine too")
    with pytest.raises(BadInput, match=r"^--store .*data: not a kgchat store"):
        KGStore(data)
    assert sorted(p.name for p in data.iterdir()) == ["LOG", "bulk-1.sst"]


def test_read_only_commands_never_create_a_store(tmp_path, capsys):
    missing, empty = tmp_path / "missing", tmp_path / "empty"
    empty.mkdir()
    for where in (missing, empty):
        assert cli(["sparql", "SELECT * WHERE { ?s ?p ?o }", "--store", str(where)]) == 2
        assert f"--store {where}: no kgchat store there" in capsys.readouterr().err
        assert cli(["stats", "--store", str(where)]) == 2
    assert not missing.exists() and not any(empty.iterdir())


def test_a_new_store_is_marked_and_a_store_without_the_mark_still_opens(tmp_path):
    db = tmp_path / "db"
    s = KGStore(db)
    s.load(_people(tmp_path / "people.nt"))
    del s
    assert "key" in json.loads((db / STORE_MARKER).read_text())
    (db / STORE_MARKER).unlink()  # a store made before stores were marked
    again = KGStore(db, create=False)
    assert again.count() == 2 and (db / STORE_MARKER).is_file()
