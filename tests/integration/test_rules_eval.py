"""`kgchat eval linking` and `kgchat bench reason` produce their figures (values are measured
by the commands themselves, not asserted here)."""

from __future__ import annotations

import json

import pytest

from cli import main as cli


def test_eval_linking_reports_precision_and_coverage_per_kind(capsys):
    assert cli(["eval", "linking", "--limit", "1", "--reason-timeout-ms", "20000", "--errors", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dialogues"] == 1 and out["split"] == "dev"
    rows = out["rows"]
    assert set(rows) == {"name", "pronoun", "definite", "first_person"}
    for r in rows.values():
        assert r["correct"] <= r["detected"] <= r["gold"]
        if r["detected"]:
            assert r["precision_at_1"] == pytest.approx(r["correct"] / r["detected"], abs=1e-4)
    assert sum(r["gold"] for r in rows.values()) > 0
    assert rows["name"]["target"] == 0.95 and rows["pronoun"]["target"] == 0.80


@pytest.mark.slow
def test_bench_reason_prints_focused_and_naive_figures(capsys):
    assert cli(["bench", "reason", "--limit", "1", "--naive-turns", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    summary = out["summary"]
    assert summary["turns"] == len(out["rows"]) > 0 and summary["paired_turns"] == 1
    assert summary["naive_p50_ms"] > 0 and summary["focused_p50_ms"] > 0 and summary["speedup_median"] > 0
