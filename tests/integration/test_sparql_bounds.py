"""`kgchat sparql` under hostile queries: rows stream under a limit and a timeout, Ctrl-C stops
it at once, updates and unreachable SERVICE endpoints are one line, wide labels align."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli import main as kgchat
from kgstore import KGStore
from kgstore.query import BoundedQuery, display_width, fit, is_update
from tests.support.loopback import free_port

ROOT = Path(__file__).resolve().parents[2]
EX = "http://example.org/"
CROSS = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f }"  # 204^2 rows, streamed by pyoxigraph row by row
SORTED_CROSS = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?c ?f"  # pyoxigraph sorts all first:
# on the store of 1,500 triples that is 2.25M rows, far more than a second's work on any machine


def _turtle(n: int) -> str:
    return "".join(f'<{EX}e{i}> <{EX}p{i % 7}> "value {i}" .\n' for i in range(n))


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    root = tmp_path_factory.mktemp("sparql")
    (root / "kg.ttl").write_text(_turtle(200), encoding="utf-8")
    (root / "wide.ttl").write_text(
        f'<{EX}tokyo> <{EX}name> "東京都" .\n<{EX}oslo> <{EX}name> "Oslo" .\n'
        f'<{EX}seoul> <{EX}name> "서울특별시" .\n<{EX}cafe> <{EX}name> "cafe\u0301" .\n', encoding="utf-8")
    path = str(root / "db")
    store = KGStore(path)
    store.load(root / "kg.ttl")
    store.load(root / "wide.ttl")
    del store
    return path


@pytest.fixture(scope="module")
def sort_db(tmp_path_factory) -> str:
    root = tmp_path_factory.mktemp("sparql-sort")
    (root / "kg.ttl").write_text(_turtle(1500), encoding="utf-8")
    path = str(root / "db")
    KGStore(path).load(root / "kg.ttl")
    return path


def _cli(*args: str, timeout: float = 120) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1")
    return subprocess.Popen([sys.executable, "-m", "cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)


def test_a_cross_product_streams_up_to_the_limit_and_says_it_was_cut(db, capsys):
    assert kgchat(["sparql", "--store", db, CROSS, "--limit", "5"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 2 + 5 + 1 and lines[-1] == "(5 rows, cut: limit)"
    assert captured.err.count("\n") == 1 and "first 5 rows" in captured.err and "--limit" in captured.err
    assert kgchat(["sparql", "--store", db, CROSS, "--limit", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["rows"]) == out["count"] == 3 and out["stopped"] == "limit"


def test_a_result_of_exactly_the_limit_is_not_called_cut(db, capsys):
    query = f"SELECT ?o WHERE {{ <{EX}e1> ?p ?o }}"
    assert kgchat(["sparql", "--store", db, query, "--limit", "1", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"rows": [{"o": "value 1"}], "count": 1, "stopped": None}
    assert captured.err == ""


def test_default_limit_bounds_a_query_without_flags(db):
    run = BoundedQuery(KGStore(None), "SELECT * WHERE { VALUES ?x { 1 2 3 } }")
    assert [r["x"] for r in run.rows()] == ["1", "2", "3"] and run.outcome.stopped is None
    big = BoundedQuery(_memory_copy(db), CROSS)
    assert sum(1 for _ in big.rows()) == big.limit == 1000 and big.outcome.stopped == "limit"


def _memory_copy(path: str) -> KGStore:
    on_disk = KGStore(path)
    store = KGStore(None)
    store._store.extend(on_disk._store.quads_for_pattern(None, None, None, None))
    return store


def test_timeout_cuts_a_query_that_sorts_everything_first(sort_db):
    child = _cli("sparql", "--store", sort_db, SORTED_CROSS, "--timeout", "0.5")
    out, err = child.communicate(timeout=120)
    assert child.returncode == 2
    assert err.count("\n") == 1 and "timed out after 0.5 s" in err and "--timeout" in err
    assert out.splitlines()[-1] == "(0 rows, cut: timeout)"


def test_ctrl_c_stops_a_streaming_query_at_once_and_closes_the_json(db):
    child = _cli("sparql", "--store", db, CROSS, "--limit", "100000000", "--json")
    assert child.stdout.readline().startswith('{"rows": [')
    assert child.stdout.readline().startswith("{")  # rows are coming
    child.send_signal(signal.SIGINT)
    rest, err = child.communicate(timeout=60)
    assert child.returncode == 130
    assert err.strip().startswith("kgchat: interrupted after") and "Traceback" not in err
    assert rest.rstrip().endswith('"stopped": "interrupted"}')


def _threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs /proc to see the child's threads")
def test_ctrl_c_stops_a_query_that_pyoxigraph_is_still_sorting(sort_db):
    child = _cli("sparql", "--store", sort_db, SORTED_CROSS, "--timeout", "600")
    # the store is open (RocksDB's threads) and the query's thread started: pyoxigraph is sorting
    while child.poll() is None and _threads(child.pid) < 3:
        time.sleep(0.05)
    assert child.poll() is None  # nothing comes while pyoxigraph sorts 2.25M rows
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130 and err.strip().startswith("kgchat: interrupted"), err


@pytest.mark.parametrize("update", [
    f"INSERT DATA {{ <{EX}a> <{EX}b> <{EX}c> }}",
    f"PREFIX ex: <{EX}>\n# comment\nDELETE WHERE {{ ?s ?p ?o }}",
    "  clear all",
    f"LOAD <{EX}data.ttl>",
])
def test_updates_are_refused_saying_so_and_change_nothing(db, capsys, update):
    before = KGStore(db).count()
    assert kgchat(["sparql", "--store", db, update]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "update refused" in err
    assert KGStore(db).count() == before


def test_queries_are_not_taken_for_updates():
    assert not is_update("PREFIX insert: <http://x/> SELECT * WHERE { ?s insert:p ?o }")
    assert not is_update("# DELETE this comment\nASK { ?s ?p ?o }")
    assert is_update("BASE <http://x/> PREFIX a: <http://y/> WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }")


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_an_unreachable_service_endpoint_is_one_line_and_exit_2(db, capsys, json_flag):
    query = f"SELECT * WHERE {{ SERVICE <http://127.0.0.1:{free_port()}/sparql> {{ ?s ?p ?o }} }}"
    assert kgchat(["sparql", "--store", db, query, *json_flag]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "SERVICE" in captured.err and "Traceback" not in captured.err
    if json_flag:
        assert json.loads(captured.out)["stopped"] == "error"


def test_wide_and_combining_characters_keep_the_columns_aligned(db, capsys):
    query = f"SELECT ?name ?s WHERE {{ ?s <{EX}name> ?name }} ORDER BY ?s"
    assert kgchat(["sparql", "--store", db, query]) == 0
    lines = capsys.readouterr().out.splitlines()[2:-1]
    assert len(lines) == 4
    starts = {display_width(line[:line.index("http")]) for line in lines}
    assert len(starts) == 1, lines  # the second column starts in the same terminal cell on every row
    assert display_width("東京都") == 6 and display_width("cafe\u0301") == 4
    assert display_width(fit("東京都庁舎", 5)) == 5 and fit("東京都庁舎", 5).endswith("…")


def test_a_table_whose_first_row_is_slow_still_takes_its_widths_from_rows(capsys):
    from cli.sparql import _print_table
    from kgstore.query import Head, Outcome

    class SlowStart:  # pauses before the first row, as a query that sorts first does
        outcome = Outcome(rows=2)

        def head(self):
            return Head(columns=["label"])

        def rows(self, idle=None):
            yield from [None, None, {"label": "a label of some length"}, None, {"label": "short"}]

    _print_table(SlowStart())
    lines = capsys.readouterr().out.splitlines()
    assert lines[2] == "a label of some length" and lines[3] == "short" and lines[-1] == "(2 rows)"
