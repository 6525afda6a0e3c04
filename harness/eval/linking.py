"""`kgchat eval linking`: precision@1 of `refers_to` against the generated benchmark's gold links.

With `--graphwoz FILE [--transcript asr]` it scores a published GraphWOZ file's gold `entities`
instead (harness/eval/graphwoz.py).

Every dialogue of the split is replayed through a `Session` on its own world (user turns
through observe and reason, system turns recorded as given, so their names are linked too).
For every gold link of a user turn, the detected mention whose span overlaps it is looked up:
precision@1 is the share of detected mentions whose best entity is the gold one; coverage is
the share of gold links detected and linked right (a missed mention counts against it).
"""

from __future__ import annotations

import json
import sys
import time

from engine.config import option_type
from engine.options import ArgumentParser, nonnegative_int, positive_int

KINDS = ("name", "pronoun", "definite", "first_person")
TARGETS = {"name": 0.95, "pronoun": 0.80}


def replay_links(dialogues: dict[str, dict], *, timeout_ms: int, rules: list[str] | None = None,
                 limit: int | None = None):
    """Yield (dialogue id, user turn state, gold links) for every user turn."""
    from engine.pipeline import run_stages
    from engine.session import Session
    from engine.stages import observe, reason
    from harness.office.replay import dialogue_configs

    replay = dialogue_configs(dialogues, limit, reason_timeout_ms=timeout_ms, rules=list(rules or []))
    for _, dialogue_id, dialogue, config in replay:
        session = Session.open(config)
        for entry in dialogue.get("log", []):
            text = entry.get("manual_transcription") or ""
            state = session.new_state(text)
            run_stages(state, session.ctx, (observe.run, reason.run))
            session.history.append(("user", text))
            yield dialogue_id, state, (entry.get("gold") or {}).get("links", [])
            if entry.get("agent_response"):
                session.system_turn(entry["agent_response"])


def score(turns) -> dict:
    counts = {k: {"gold": 0, "detected": 0, "correct": 0} for k in KINDS}
    errors: list[dict] = []
    notes = 0
    for dialogue_id, state, links in turns:
        notes += bool(state.reasoning_note)
        for g in links:
            kind = g.get("kind")
            if kind not in counts or not g.get("entity"):
                continue
            c = counts[kind]
            c["gold"] += 1
            found = [m for m in state.mentions if m.kind != "time" and m.start < g["end"] and g["start"] < m.end
                     and m.entity]
            if not found:
                errors.append({"dialogue": dialogue_id, "turn": state.turn, "text": state.text, "mention": g["mention"],
                               "kind": kind, "gold": g["entity"], "got": None})
                continue
            c["detected"] += 1
            if found[0].entity == g["entity"]:
                c["correct"] += 1
            else:
                errors.append({"dialogue": dialogue_id, "turn": state.turn, "text": state.text, "mention": g["mention"],
                               "kind": kind, "gold": g["entity"], "got": found[0].entity})
    rows = {}
    for kind, c in counts.items():
        rows[kind] = {**c, "precision_at_1": round(c["correct"] / c["detected"], 4) if c["detected"] else None,
                      "coverage": round(c["correct"] / c["gold"], 4) if c["gold"] else None,
                      "target": TARGETS.get(kind)}
    return {"rows": rows, "errors": errors, "turns_with_reasoning_note": notes}


def main(argv: list[str], command: str = "eval linking") -> int:
    from harness.eval.graphwoz import graphwoz_options
    from harness.office import load_split
    from kgstore.errors import BadInput

    if any(a == "--graphwoz" or a.startswith("--graphwoz=") for a in argv):  # a published file's gold entities
        from harness.eval.graphwoz import main as graphwoz_main

        return graphwoz_main(argv, command, "links")

    parser = ArgumentParser(prog=f"kgchat {command}", description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="dev", choices=("train", "dev", "test"))
    parser.add_argument("--limit", type=positive_int, default=None, help="first N dialogues only")
    parser.add_argument("--reason-timeout-ms", type=option_type("reason_timeout_ms"), default=500, help="reasoning budget per turn (default 500)")
    parser.add_argument("--rules", nargs="+", default=[], metavar="FILE.pl", help="extra or replacing rule files")
    parser.add_argument("--errors", type=nonnegative_int, default=0, metavar="N", help="print the first N wrong links")
    parser.add_argument("--json", action="store_true")
    graphwoz_options(parser, "gold entities (linking by kind of gold: KG entity, speaker, new event)")
    args = parser.parse_args(argv)
    if args.transcript:
        parser.error("--transcript: only with --graphwoz FILE")
    if args.limit is not None and args.limit <= 0:
        raise BadInput("--limit: must be a positive number of dialogues")
    start = time.perf_counter()
    dialogues = load_split(args.split)
    result = score(replay_links(dialogues, timeout_ms=args.reason_timeout_ms, rules=args.rules, limit=args.limit))
    result.update(split=args.split, dialogues=min(len(dialogues), args.limit or len(dialogues)),
                  reason_timeout_ms=args.reason_timeout_ms, rules=args.rules,
                  seconds=round(time.perf_counter() - start, 1))
    if args.json:
        out = dict(result)
        out["errors"] = out["errors"][:args.errors]
        print(json.dumps(out))
        return 0
    print(f"entity linking on the generated {args.split} split: {result['dialogues']} dialogues, "
          f"budget {args.reason_timeout_ms} ms/turn ({result['turns_with_reasoning_note']} turns with a reasoning note: "
          "the budget hit, a failure, or a cut)")
    print(f"{'kind':<13} {'gold':>5} {'detected':>8} {'correct':>7} {'P@1':>6} {'coverage':>8}  target P@1")
    for kind, r in result["rows"].items():
        p = "-" if r["precision_at_1"] is None else f"{r['precision_at_1']:.3f}"
        cov = "-" if r["coverage"] is None else f"{r['coverage']:.3f}"
        target = f">= {r['target']:.2f}" if r["target"] else ""
        print(f"{kind:<13} {r['gold']:>5} {r['detected']:>8} {r['correct']:>7} {p:>6} {cov:>8}  {target}")
    for e in result["errors"][:args.errors]:
        print(f"  {e['dialogue']} t{e['turn']} {e['kind']} {e['mention']!r}: gold {e['gold']} got {e['got']}  | {e['text']}",
              file=sys.stderr)
    return 0
