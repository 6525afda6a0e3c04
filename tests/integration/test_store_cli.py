"""`kgchat load`, `kgchat sparql`, `kgchat stats` through the real dispatcher."""

from __future__ import annotations

import json
from pathlib import Path

from cli import main as kgchat
from kgstore import demo_path
from kgstore.vocab import WD, bg_graph

DATA = Path(__file__).resolve().parents[1] / "data"


def test_load_prints_triples_per_file_and_graph(tmp_path, capsys):
    db = str(tmp_path / "db")
    assert kgchat(["load", demo_path("wikidata"), str(DATA / "store_sample.csv"), "--store", db]) == 0
    out = capsys.readouterr().out
    assert "wikidata_demo.ttl: " in out and "triples added (Turtle" in out
    assert f"  {bg_graph('store_sample')}  +" in out
    assert kgchat(["load", str(DATA / "store_sample.csv"), "--store", db, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["files"][0]["added"] == 0 and report["files"][0]["format"] == "csv"
    assert report["quads"] > 1000


def test_sparql_table_json_and_bad_query(tmp_path, capsys):
    db = str(tmp_path / "db")
    kgchat(["load", demo_path("wikidata"), "--store", db])
    capsys.readouterr()
    query = f"SELECT ?label WHERE {{ <{WD}Q25188> <http://www.w3.org/2000/01/rdf-schema#label> ?label }}"
    assert kgchat(["sparql", "--store", db, query]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].strip() == "label" and out[2].strip() == "Inception" and out[-1] == "(1 rows)"
    assert kgchat(["sparql", "--store", db, query, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"rows": [{"label": "Inception"}], "count": 1, "stopped": None}
    assert kgchat(["sparql", "--store", db, f"ASK {{ <{WD}Q25188> ?p ?o }}", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"boolean": True}
    assert kgchat(["sparql", "--store", db, "SELECT ?x WHERE {"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kgchat: error: SPARQL query:") and err.count("\n") == 1


def test_stats_lists_graphs_and_total(tmp_path, capsys):
    db = str(tmp_path / "db")
    kgchat(["load", str(DATA / "store_sample.csv"), str(DATA / "store_wikidata.json"), "--store", db])
    capsys.readouterr()
    assert kgchat(["stats", "--store", db, "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    graphs = {g["graph"]: g["quads"] for g in stats["graphs"]}
    assert set(graphs) == {bg_graph("store_sample"), bg_graph("store_wikidata")}
    assert sum(graphs.values()) == stats["quads"]
    assert kgchat(["stats", "--store", db]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].split() == ["total", str(stats["quads"])]


def test_bench_load_reports_both_rates_for_a_small_file(capsys):
    assert kgchat(["bench", "load", "--triples", "2000", "--rdflib-triples", "500", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["loaded"] == 2000 and result["bulk"] and result["rdflib_triples_parsed"] == 500
    assert result["pyoxigraph_triples_per_s"] > 0 and result["rdflib_triples_per_s"] > 0


def test_bench_load_of_a_table_asks_two_questions_after_it(capsys):
    assert kgchat(["bench", "load", "--table", "2000", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["loaded"] > 2000 * 8 and result["memory"]["seconds"] > 0
    first, following = result["questions"]
    assert "Member 17's team is Team" in first["reply"] and "Member 1234's mentor is Member" in following["reply"]
    assert first["seconds"] > 0 and following["cpu_seconds"] > 0 and result["prepare"]["cpu_seconds"] > 0


def test_bench_scale_reports_embedded_and_server_latency_per_size(tmp_path, capsys):
    argv = ["bench", "scale", "--sizes", "2000", "4000", "--turns", "4", "--no-retrieval", "--json",
            "--plot", str(tmp_path / "scale.png")]
    assert kgchat(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert [r["triples_target"] for r in result["rows"]] == [2000, 4000]
    for row in result["rows"]:
        assert abs(row["triples"] - row["triples_target"]) < 50
        assert row["embedded_fetch"]["p50_ms"] > 0 and row["embedded_peak_rss_mb"] > 0
        assert row.get("server_fetch", {}).get("p50_ms", 1) > 0
    assert "fetch_p50_ratio_vs_smallest" in result["checks"]
