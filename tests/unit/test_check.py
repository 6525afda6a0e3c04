"""The check stage, the LLM splitter, `kgchat check`, `kgchat eval factcheck` and `bench check`."""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from engine.config import Config
from engine.context import TurnContext
from engine.events import ChecksDone
from engine.state import TurnState
from kgstore import KGStore, demo_path
from tests.support.fakes import ScriptedLLM

REPLY = "Titanic was directed by James Cameron and was released in 1997. Titanic stars Quentin Blackwood."


@pytest.fixture(scope="module")
def wikidata_store():
    store = KGStore()
    store.load(demo_path("wikidata"))
    return store


def context(store, **config):
    events = []
    ctx = TurnContext(config=Config(demo="none", **config), store=store, background=store, emit=events.append)
    return ctx, events


def state(reply: str) -> TurnState:
    return TurnState(session_id="t", turn=1, text="Tell me about Titanic.", now=datetime(2026, 3, 2, 9), response=reply)


def test_stage_fills_checks_and_scores_and_reports_them(wikidata_store):
    from engine.stages.check import run

    ctx, events = context(wikidata_store)
    s = state(REPLY)
    run(s, ctx)
    assert [c.verdict for c in s.checks] == ["supported", "supported", "nei"]
    assert (s.fact_score, s.neip) == (1.0, pytest.approx(1 / 3))
    assert "check" in s.timings_ms
    done = [e for e in events if isinstance(e, ChecksDone)]
    assert len(done) == 1 and done[0].checks == s.checks and done[0].fact_score == 1.0


def test_stage_leaves_failed_or_empty_replies_alone(wikidata_store):
    from engine.stages.check import run

    ctx, _ = context(wikidata_store)
    failed = state(REPLY)
    failed.error = "model crashed"
    run(failed, ctx)
    empty = state("")
    run(empty, ctx)
    assert failed.checks == [] and empty.checks == [] and empty.fact_score is None


def test_llm_splitter_keeps_only_claims_made_of_the_replys_words(wikidata_store):
    from engine.stages.check import run

    llm = ScriptedLLM(["1. Titanic was directed by James Cameron.\n2. Titanic was released in 1997.\n"
                       "3. Titanic won eleven Oscars.\n- Titanic stars Quentin Blackwood."])
    ctx, _ = context(wikidata_store, checker="llm")
    ctx.resources["llm"] = llm
    s = state(REPLY)
    run(s, ctx)
    assert len(llm.calls) == 1
    assert [c.claim for c in s.checks] == ["Titanic was directed by James Cameron.", "Titanic was released in 1997.",
                                           "Titanic stars Quentin Blackwood."]


def test_llm_splitter_falls_back_when_the_model_says_nothing_usable(wikidata_store):
    from engine.stages.check import run

    ctx, _ = context(wikidata_store, checker="llm")
    ctx.resources["llm"] = ScriptedLLM(["Sure! Here you go: bananas are yellow."])
    s = state(REPLY)
    run(s, ctx)
    assert [c.claim for c in s.checks] == ["Titanic was directed by James Cameron.", "Titanic was released in 1997.",
                                           "Titanic stars Quentin Blackwood."]


def test_llm_splitter_splits_what_the_model_left_out_or_joined():
    from engine.factcheck.llm_split import llm_split

    dropped = llm_split(REPLY, ScriptedLLM(["Titanic was directed by James Cameron."]))
    assert dropped == ["Titanic was directed by James Cameron.", "Titanic was released in 1997.",
                       "Titanic stars Quentin Blackwood."]
    joined = llm_split(REPLY, ScriptedLLM(["- Titanic was directed by James Cameron and released in 1997.\n"
                                           "- Titanic stars Quentin Blackwood."]))
    assert joined == ["Titanic was directed by James Cameron.", "Titanic was released in 1997.",
                      "Titanic stars Quentin Blackwood."]


def test_cli_check_json(capsys):
    from cli import main

    code = main(["check", "--kg", demo_path("wikidata"), "--response", REPLY, "--json", "--memory"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [c["verdict"] for c in out["checks"]] == ["supported", "supported", "nei"]
    assert set(out["checks"][0]) == {"claim", "verdict", "evidence", "reason"}
    assert out["checks"][0]["evidence"]["p"].endswith("P57") and out["fact_score"] == 1.0
    assert out["checks_truncated"] is False


def test_cli_check_bad_input_exits_2(capsys, tmp_path):
    from cli import main

    assert main(["check", "--kg", str(tmp_path / "missing.ttl"), "--response", "x"]) == 2
    assert "missing.ttl" in capsys.readouterr().err
    assert main(["check", "--kg", demo_path("wikidata")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--response" in err


def test_a_reply_with_more_claims_than_the_limit_says_so(wikidata_store, capsys):
    from cli import main
    from engine.factcheck.split import MAX_CLAIMS
    from engine.stages.check import run

    ctx, events = context(wikidata_store, max_claims=2)
    s = state(REPLY)
    run(s, ctx)
    assert len(s.checks) == 2 and s.checks_truncated
    ctx, events = context(wikidata_store, max_claims=3)
    s = state(REPLY)
    run(s, ctx)
    assert len(s.checks) == 3 and not s.checks_truncated
    ctx, events = context(wikidata_store)  # the splitter's own ceiling is a cut too
    s = state("Titanic was released in 1997. " * (MAX_CLAIMS + 50))
    run(s, ctx)
    assert len(s.checks) == MAX_CLAIMS and s.checks_truncated

    code = main(["check", "--kg", demo_path("wikidata"), "--response", REPLY, "--json", "--memory", "--max-claims", "1"])
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert code == 0 and out["checks_truncated"] is True and len(out["checks"]) == 1
    assert captured.err.count("\n") == 1 and "only the first 1 claims" in captured.err and "--max-claims" in captured.err
    assert main(["check", "--kg", demo_path("wikidata"), "--response", REPLY, "--memory", "--max-claims", "1"]) == 0
    assert "1 claims (more not checked)" in capsys.readouterr().out


@pytest.mark.slow
def test_cli_check_replays_the_dialogue_first(capsys, tmp_path):
    from cli import main

    dialogue = tmp_path / "d.json"
    dialogue.write_text(json.dumps([{"speaker": "user", "text": "Where is the Poster Session?"},
                                    {"speaker": "system", "text": "It is in Meeting Room Delta."},
                                    {"speaker": "user", "text": "When does it start?"}]), encoding="utf-8")
    code = main(["check", "--dialogue", str(dialogue), "--response", "It starts at 8 am and ends at 09:30.",
                 "--now", "2026-03-02T07:30", "--scorer", "bm25", "--memory", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and [c["verdict"] for c in out["checks"]] == ["supported", "contradicted"]


def test_eval_factcheck_reports_per_class_accuracy_and_confusion():
    from harness.eval.factcheck import run

    res = run("dev", ("wikidata",))
    assert res["reference_replies"]["claims"] == 0  # the office's own replies are only read for office
    assert res["claims"] == sum(sum(row.values()) for row in res["confusion"].values())
    for verdict, row in res["per_class"].items():
        assert row["n"] > 10 and row["accuracy"] >= 0.95, verdict
    kinds = {k.split(":")[1] for k in res["per_kind"]}
    assert {"wrong_year", "invented_person", "opinion", "true_director"} <= kinds


def test_bench_check_json(capsys):
    from harness.bench.check import main

    assert main(["--repeats", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["claims"] for r in out["rows"]] == [5, 5]
    assert all(r["median_ms"] > 0 for r in out["rows"])


@pytest.mark.slow
def test_llm_splitter_with_the_default_model():
    """SmolLM2 through llama-cpp: whatever it writes, the claims are the reply's own words."""
    from engine.factcheck.llm_split import llm_split, valid
    from engine.llm import make_backend
    from rules.similarity import norm

    llm = make_backend(Config())
    reply = "The Budget Review starts at 10:00 in Meeting Room Beta, and Lisa Wilson organizes it."
    claims = llm_split(reply, llm)
    assert claims and all(valid(c, set(norm(reply).split())) for c in claims)
    assert any("organizes" in c for c in claims) and any("10:00" in c for c in claims)


def test_a_turn_checks_its_reply_and_refines_a_contradicted_one():
    from engine.session import Session

    llm = ScriptedLLM(["The Poster Session is in Meeting Room Alpha and starts at 08:00.",
                       "The Poster Session is in Meeting Room Delta."])
    session = Session.open(Config(scorer="bm25", now="2026-03-02T07:30", memory=True, refine_steps=1), llm=llm)
    state = session.user_turn("Where is the Poster Session?")
    assert [c.verdict for c in state.checks] == ["contradicted", "supported"]
    assert state.checks[0].evidence.o_label == "Meeting Room Delta"
    assert state.refined and [c.verdict for c in state.refined.checks] == ["supported"]
