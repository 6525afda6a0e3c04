"""`kgchat bench metaqa`: the whole MetaQA KB loaded into a store, the first answer after it, and a
question's turn without the model (`--answer facts`).

The KB and the question files are the ones `kgchat eval metaqa` reads (`--kb`, `--questions-dir`);
the load is timed from the TSV triples file to a store ready for questions, the first answer
includes what a session builds at its first turn (the label index). Targets: load <= 10 s, first
answer <= 2 s, turn p50 <= 1 s.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

from engine.options import ArgumentParser, positive_int

TARGETS_S = {"load": 10.0, "first_answer": 2.0, "turn_p50": 1.0}


def measure(kb: Path, questions: Path, hops: list[int], per_hop: int) -> dict:
    from engine.config import AnswerMode
    from harness.eval.metaqa import run

    rows = list(run(kb, questions, hops, "dev", per_hop, {"answer": AnswerMode.FACTS}))
    load, turns = rows[0], [r["seconds"] for r in rows[1:]]
    figures = {"load": load["load_seconds"], "first_answer": turns[0] if turns else None,
               "turn_p50": round(statistics.median(turns), 3) if turns else None}
    return {"triples": load["triples"], "questions": len(turns), "seconds": figures,
            "within_target": {k: v is not None and v <= TARGETS_S[k] for k, v in figures.items()}}


def main(argv: list[str], command: str = "bench metaqa") -> int:
    from harness.eval.metaqa import check_inputs
    from kgstore.errors import BadInput

    parser = ArgumentParser(prog=f"kgchat {command}", description=__doc__.split("\n")[0])
    parser.add_argument("--kb", required=True, type=Path, metavar="FILE", help="as `kgchat eval metaqa --kb`")
    parser.add_argument("--questions-dir", required=True, type=Path, metavar="DIR", help="as `kgchat eval metaqa`")
    parser.add_argument("--hops", nargs="+", type=int, choices=(1, 2, 3), default=[1, 2, 3])
    parser.add_argument("--questions", type=positive_int, default=10, metavar="N",
                        help="dev questions timed per hop (default 10)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    check_inputs(args.kb, args.questions_dir)
    try:
        result = {"benchmark": "metaqa", "targets_s": TARGETS_S, "answer": "facts",
                  **measure(args.kb, args.questions_dir, sorted(set(args.hops)), args.questions)}
    except ValueError as exc:  # a malformed line of a file read
        raise BadInput(str(exc)) from None
    if args.json:
        print(json.dumps(result))
        return 0
    s = result["seconds"]
    print(f"bench metaqa: {result['triples']} triples, {result['questions']} questions (--answer facts)")
    print(f"load {s['load']:.2f} s (target <= 10), first answer {s['first_answer']:.2f} s (target <= 2), "
          f"turn p50 {s['turn_p50']:.2f} s (target <= 1)")
    return 0
