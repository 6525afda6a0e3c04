"""`kgchat eval retrieval`: P/R/F1 of retrieved nodes+edges against the generated benchmark's gold.

Each dialogue of the split is replayed through a `Session` on its own world, exactly as it
would run live (harness/retrieval: the replay and the figures, shared with the model's
training). Every row of the table re-scores and re-retrieves the same candidates, so the rows
differ only in scorer and retriever.

Scores per turn: the retrieved set is the subgraph's nodes (IRIs, literal values) plus its
background edges (s, p, o); derived facts are not KG edges and count on neither side. P, R and
F1 are averaged over the user turns whose gold is not empty. Answer-fact recall (what the
prompt gets of the answer, derived facts included) and the name-noise share are defined in
harness/retrieval/answer_facts.py; `--domain` and `--lodo` (harness/eval/lodo.py) run the
out-of-domain benchmark of harness/ood, leaving each domain out of the model's training.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from engine.config import option_type
from engine.options import ArgumentParser, positive_int
from harness.retrieval import LITERATURE, ROWS, collect, evaluate


def table(split: str, results: dict[str, dict]) -> str:
    col = 0 if split == "dev" else 1
    first = next(iter(results.values()))
    lines = [f"Retrieval on the generated office benchmark, {split} split "
             f"({first['turns']} user turns with gold, {first['answer_turns']} with answer facts, "
             f"{first['single_turns']} single-relation)",
             f"{'row':<16} {'P':>6} {'R':>6} {'F1':>6} {'ans':>6} {'ans-1':>6}   GraphWOZ F1 (literature, {split})",
             "-" * 80]
    for name, r in results.items():
        lit = LITERATURE.get(name)
        ans = "".join(f" {x:>6.3f}" if x is not None else f" {'—':>6}"
                      for x in (r["answer_recall"], r["answer_recall_single"]))
        lines.append(f"{name:<16} {r['precision']:>6.3f} {r['recall']:>6.3f} {r['f1']:>6.3f}{ans}   "
                     + (f"{lit[col]:.3f}" if lit else "—"))
    lines.append("ans = answer-fact recall: share of question turns whose retrieved facts (edges and derived "
                 "facts, as the prompt gets them) state every answer fact; ans-1 = single-attribute questions")
    return "\n".join(lines)


def main(argv: list[str], command: str = "eval retrieval") -> int:
    from engine.config import Config
    from engine.nlp.relevance import RelevanceModel
    from harness.eval.graphwoz import graphwoz_options

    if any(a == "--graphwoz" or a.startswith("--graphwoz=") for a in argv):  # answer recall on a published file
        from harness.eval.graphwoz import main as graphwoz_main

        return graphwoz_main(argv, command, "answers")

    parser = ArgumentParser(prog=f"kgchat {command}", description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=("train", "dev", "test"), default="test")
    parser.add_argument("--limit", type=positive_int, metavar="N", help="only the first N dialogues")
    parser.add_argument("--k", type=option_type("k"), default=Config.k, help="top-k facts; PCST prizes for k edges")
    parser.add_argument("--subgraph-cap", type=option_type("subgraph_cap"), default=Config.subgraph_cap)
    parser.add_argument("--replay-cache", metavar="DIR", help="keep the replayed split here and reuse it")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--domain", default="office", metavar="NAME",
                        help="office (default), an out-of-domain benchmark domain (harness/ood: football, "
                             "films, books, companies, geography), or all: one table per domain")
    parser.add_argument("--lodo", action="store_true",
                        help="leave one domain out: each domain's learned rows use a relevance model trained "
                             "on the other domains only")
    parser.add_argument("--train-limit", type=int, default=40, metavar="N",
                        help="with --lodo: train on the first N dialogues of each other domain's train split")
    parser.add_argument("--office-limit", type=int, default=20, metavar="N",
                        help="with --lodo: the office train split's N (its dialogues have about 4 user turns, "
                             "the out-of-domain ones 1-2)")
    parser.add_argument("--dev-limit", type=int, default=15, metavar="N",
                        help="with --lodo: select on the first N dialogues of each other domain's dev split")
    graphwoz_options(parser, "KG values in the wizard's replies (answer recall, beside top-k k=10)")
    args = parser.parse_args(argv)
    if args.transcript:
        parser.error("--transcript: only with --graphwoz FILE")
    from harness.eval import lodo

    domains = lodo.all_domains() if args.domain == "all" else [args.domain]
    if any(d not in lodo.all_domains() for d in domains):
        parser.error(f"--domain must be all or one of {', '.join(lodo.all_domains())}, not {args.domain!r}")
    if args.domain != "office" or args.lodo:
        lodo.evaluate_domains(args, domains)
        return 0

    model = RelevanceModel()
    start = time.perf_counter()
    cache = Path(args.replay_cache) if args.replay_cache else None
    turns = collect(args.split, args.limit, {}, cache)
    replay_s = time.perf_counter() - start
    results = {name: evaluate(turns, retriever, scorer, k=args.k, cap=args.subgraph_cap, model=model)
               for name, retriever, scorer in ROWS}
    best_bm25 = max(results["Triples-BM25"]["f1"], results["PCST-BM25"]["f1"])
    margin = round(results["PCST-learned"]["f1"] - best_bm25, 4)
    settings = {"split": args.split, "dialogues": len({t.dialogue_id for t in turns}), "k": args.k,
                "node_prizes_k": 3, "subgraph_cap": args.subgraph_cap, "pcst_learned_prizes": model.prizes,
                "scorer_device": model.device, "replay_s": round(replay_s, 1)}
    if args.json:
        print(json.dumps({"rows": [{"row": n, **r, "literature_f1": dict(zip(("dev", "test"), LITERATURE[n], strict=False))
                                    if n in LITERATURE else None} for n, r in results.items()],
                          "pcst_learned_minus_best_bm25_f1": margin, "settings": settings}))
    else:
        print(table(args.split, results))
        print(f"\nPCST-learned F1 − best BM25 row F1 = {margin:+.3f} (target ≥ +0.10)")
        print(f"settings: {json.dumps(settings)}")
    return 0
