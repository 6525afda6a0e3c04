"""`kgchat bench metaqa`: the whole MetaQA KB loaded into a store, the first answer after it, and a
question's turn without the model (`--answer facts`).

The KB and the question files are the ones `kgchat eval metaqa` reads (`--kb`, `--questions-dir`);
the load is timed from the TSV triples file to a store ready for questions, then what the app
prepares once a file is loaded (`Session.prepare`: the scorer, the parser, the name index) apart,
then the first answer and every later one; seconds and CPU seconds of each. Targets: load <= 10 s,
first answer <= 2 s, turn p50 <= 1 s.
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
    load, turns, cpu = rows[0], [r["seconds"] for r in rows[1:]], [r["cpu_seconds"] for r in rows[1:]]

    def timed(seconds: list[float]) -> dict:
        return {"first_answer": seconds[0] if seconds else None,
                "turn_p50": round(statistics.median(seconds), 3) if seconds else None}

    figures = {"load": load["load_seconds"], "prepare": load["prepare_seconds"], **timed(turns)}
    cpu_figures = {"load": load["load_cpu_seconds"], "prepare": load["prepare_cpu_seconds"], **timed(cpu)}
    return {"triples": load["triples"], "questions": len(turns), "seconds": figures, "cpu_seconds": cpu_figures,
            "within_target": {k: figures[k] is not None and figures[k] <= t for k, t in TARGETS_S.items()}}


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
    s, c = result["seconds"], result["cpu_seconds"]
    print(f"bench metaqa: {result['triples']} triples, {result['questions']} questions (--answer facts)")
    print(f"load {s['load']:.2f} s ({c['load']:.2f} CPU s; target <= 10), then what the app prepares "
          f"{s['prepare']:.2f} s ({c['prepare']:.2f} CPU s), first answer {s['first_answer']:.2f} s "
          f"({c['first_answer']:.2f} CPU s; target <= 2), turn p50 {s['turn_p50']:.2f} s "
          f"({c['turn_p50']:.2f} CPU s; target <= 1)")
    return 0
