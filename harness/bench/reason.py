"""`kgchat bench reason`: reasoning time per user turn, focused grounding beside naive grounding.

The dev dialogues of the generated office benchmark are replayed, each on its own world (an
office KG the size of the demo one: 25-35 people, 55-65 events). For every user turn the reason
stage runs as in the app (the turn's program: its mentions, their candidates, the two-hop focus
neighbourhood; the prepared rule database extended with it). Beside it, on the first turns, the
same turn runs the naive way: the whole office KG and every labelled entity as a candidate of
every named mention, written out as one ProbLog program and parsed, grounded and compiled from
scratch. Both give wall-clock and CPU milliseconds; the ratio is taken on the same turns.
"""

from __future__ import annotations

import json
import statistics
import time

from engine.config import option_type
from engine.options import ArgumentParser, nonnegative_int, positive_int, seconds
from harness.timing import percentile


def naive_turn(ctx, inp, timeout_s: float) -> tuple[float, float, int, str]:
    """(wall ms, cpu ms, facts, note): the turn as one text program over the whole KG."""
    from problog.formula import LogicFormula
    from problog.program import PrologString
    from problog.sdd_formula import SDD

    from engine.stages.reason import build_program, rules_of
    from rules.reasoner import ReasoningFailed, run_with_deadline

    rules = rules_of(ctx)
    wall, cpu = time.perf_counter(), time.process_time()
    prog = build_program(ctx, rules, inp, whole_kg=True)
    text = rules.header() + rules.text() + "\n" + prog.render()

    def work(engine):
        formula = engine.ground_all(engine.prepare(PrologString(text)), target=LogicFormula(keep_all=False))
        return SDD.create_from(formula).evaluate()

    note = ""
    try:
        run_with_deadline(work, timeout_s)
    except ReasoningFailed as exc:
        note = str(exc)
    return (time.perf_counter() - wall) * 1e3, (time.process_time() - cpu) * 1e3, len(prog), note


def run_bench(split: str, limit: int | None, naive_turns: int, naive_timeout_s: float, budget_ms: int):
    from engine.pipeline import run_stages
    from engine.session import Session
    from engine.stages import observe
    from engine.stages.reason import TurnInput, reason_state
    from harness.office import load_split
    from harness.office.replay import dialogue_configs

    dialogues = load_split(split)
    rows = []
    for _, dialogue_id, dialogue, config in dialogue_configs(dialogues, limit, reason_timeout_ms=budget_ms):
        session = Session.open(config)
        kg_facts = session.ctx.store.count()
        for entry in dialogue.get("log", []):
            text = entry.get("manual_transcription") or ""
            state = session.new_state(text)
            run_stages(state, session.ctx, (observe.run,))
            row = {"dialogue": dialogue_id, "turn": state.turn, "kg_quads": kg_facts}
            if len([r for r in rows if "naive_ms" in r]) < naive_turns:
                inp = TurnInput(state.session_id, state.turn, state.turn_iri, state.mentions, state.now,
                                state.speaker_entity, text=state.text)
                w, c, facts, note = naive_turn(session.ctx, inp, naive_timeout_s)
                row.update(naive_ms=round(w, 1), naive_cpu_ms=round(c, 1), naive_facts=facts, naive_note=note)
            stats: list = []
            wall, cpu = time.perf_counter(), time.process_time()
            reason_state(state, session.ctx, stats)
            row.update(focused_ms=round((time.perf_counter() - wall) * 1e3, 1),
                       focused_cpu_ms=round((time.process_time() - cpu) * 1e3, 1),
                       ground_cpu_ms=round(sum(st.load_ms + st.ground_ms for st in stats), 1),
                       compile_cpu_ms=round(sum(st.compile_ms for st in stats), 1),
                       program_facts=[st.facts for st in stats],
                       note=state.reasoning_note, derived=len(state.derived))
            rows.append(row)
            session.history.append(("user", text))
            if entry.get("agent_response"):
                session.system_turn(entry["agent_response"])
    return rows


def summarize(rows: list[dict]) -> dict:
    focused = [r["focused_ms"] for r in rows]
    focused_cpu = [r["focused_cpu_ms"] for r in rows]
    paired = [r for r in rows if "naive_ms" in r]
    out = {"turns": len(rows), "focused_p50_ms": round(percentile(focused, 0.5), 1),
           "focused_p95_ms": round(percentile(focused, 0.95), 1),
           "focused_cpu_p50_ms": round(percentile(focused_cpu, 0.5), 1),
           "focused_cpu_p95_ms": round(percentile(focused_cpu, 0.95), 1),
           "problog_cpu_p50_ms": round(percentile([r["ground_cpu_ms"] + r["compile_cpu_ms"] for r in rows], 0.5), 1),
           "program_facts_p50": percentile([sum(r["program_facts"]) for r in rows], 0.5),
           "turns_over_budget_or_failed": sum(1 for r in rows if r["note"]),
           "paired_turns": len(paired)}
    if paired:
        out.update(naive_p50_ms=round(percentile([r["naive_ms"] for r in paired], 0.5), 1),
                   naive_cpu_p50_ms=round(percentile([r["naive_cpu_ms"] for r in paired], 0.5), 1),
                   focused_p50_ms_same_turns=round(percentile([r["focused_ms"] for r in paired], 0.5), 1),
                   naive_timeouts=sum(1 for r in paired if r["naive_note"]))
        ratios = [r["naive_ms"] / max(r["focused_ms"], 1e-3) for r in paired]
        out["speedup_median"] = round(statistics.median(ratios), 1)
        out["speedup_min"] = round(min(ratios), 1)
    return out


def main(argv: list[str], command: str = "bench reason") -> int:
    from kgstore.errors import BadInput

    parser = ArgumentParser(prog=f"kgchat {command}", description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="dev", choices=("train", "dev", "test"))
    parser.add_argument("--limit", type=positive_int, default=None, help="first N dialogues only")
    parser.add_argument("--naive-turns", type=nonnegative_int, default=20, help="turns also run naively (default 20)")
    parser.add_argument("--naive-timeout", type=seconds, default=120.0, help="seconds before a naive turn is cut")
    parser.add_argument("--reason-timeout-ms", type=option_type("reason_timeout_ms"), default=5000,
                        help="budget of the focused run (default 5000: measure, do not cut)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit <= 0:
        raise BadInput("--limit: must be a positive number of dialogues")
    rows = run_bench(args.split, args.limit, args.naive_turns, args.naive_timeout, args.reason_timeout_ms)
    summary = summarize(rows)
    settings = {"split": args.split, "limit": args.limit, "naive_turns": args.naive_turns,
                "reason_timeout_ms": args.reason_timeout_ms}
    if args.json:
        print(json.dumps({"summary": summary, "settings": settings, "rows": rows}))
        return 0
    print(f"reasoning per user turn, {args.split} dialogues, {summary['turns']} turns")
    print(f"  focused (as in the app):  p50 {summary['focused_p50_ms']} ms  p95 {summary['focused_p95_ms']} ms"
          f"   (CPU p50 {summary['focused_cpu_p50_ms']} ms, p95 {summary['focused_cpu_p95_ms']} ms)")
    if summary["paired_turns"]:
        print(f"  naive whole-KG program:   p50 {summary['naive_p50_ms']} ms (CPU {summary['naive_cpu_p50_ms']} ms)"
              f" on {summary['paired_turns']} turns; focused on the same turns p50 {summary['focused_p50_ms_same_turns']} ms")
        print(f"  speedup per turn: median {summary['speedup_median']}x, worst {summary['speedup_min']}x"
              f"{'; naive timeouts: ' + str(summary['naive_timeouts']) if summary['naive_timeouts'] else ''}")
    print(f"  of which ProbLog (load, ground, compile; CPU) p50 {summary['problog_cpu_p50_ms']} ms;"
          f" facts per turn (both programs) p50 {summary['program_facts_p50']:.0f}")
    print(f"  turns over the budget or failed: {summary['turns_over_budget_or_failed']}")
    return 0
