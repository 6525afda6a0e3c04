"""`kgchat eval retrieval --domain ...` beyond the office: per-domain tables, leave-one-domain-out.

Without `--lodo` the learned rows use the shipped model (models/relevance.onnx). With it, the
learned rows of each held-out domain use a relevance model trained (harness/train_relevance.py
`fit`) on the train splits of every OTHER domain, office included, and selected on their dev
splits: the figures of a domain come from a model that never saw it. Replays are limited per
domain (`--train-limit`, `--office-limit`, `--dev-limit`, `--limit`) so that the whole run fits a small machine;
the output says what was limited.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

OFFICE = "office"


def all_domains() -> list[str]:
    from harness import ood

    return [OFFICE, *ood.domains()]


def noise_predicates(domain: str, split: str) -> set[str]:
    if domain == OFFICE:
        return set()
    from harness import ood

    return {p for d in ood.load_split(domain, split).values() for p in d.get("noise_predicates", ())}


def rows(turns: list, model, *, k: int, cap: int, noise: set[str]) -> dict[str, dict]:
    from harness.retrieval import ROWS, evaluate

    return {name: evaluate(turns, retriever, scorer, k=k, cap=cap, model=model, noise_predicates=noise)
            for name, retriever, scorer in ROWS}


def margins(results: dict[str, dict]) -> dict[str, float]:
    f1 = {n: r["f1"] for n, r in results.items()}
    return {"pcst_learned_minus_best_bm25_f1": round(f1["PCST-learned"] - max(f1["Triples-BM25"], f1["PCST-BM25"]), 4),
            "pcst_learned_minus_best_triples_f1": round(
                f1["PCST-learned"] - max(f1["Triples-BM25"], f1["Triples-SBERT"]), 4)}


def fit_without(held_out: str, domains: list[str], args, turns_of, log) -> object:
    """A relevance model trained on every domain but `held_out`."""
    from harness.train_relevance import fit

    train, dev = [], []
    for d in domains:
        if d != held_out:
            train += turns_of(d, "train", args.office_limit if d == OFFICE else args.train_limit)
            dev += turns_of(d, "dev", args.dev_limit)
    start = time.perf_counter()
    model = fit(train, dev)
    log(f"held out {held_out}: fitted on {len(train)} train / {len(dev)} dev turns of "
        f"{', '.join(d for d in domains if d != held_out)} in {time.perf_counter() - start:.0f} s")
    return model


def run(args, domains: list[str], done=None) -> dict[str, dict]:
    """Per held-out (or evaluated) domain: the table rows and its settings; `done(domain, entry)`
    is called as each domain finishes (a long LODO run shows its tables as it goes)."""
    from engine.nlp.relevance import RelevanceModel
    from harness.retrieval import collect
    from harness.retrieval.calibration import reliability

    cache = Path(args.replay_cache) if args.replay_cache else None
    resources: dict = {}

    def log(msg: str) -> None:
        print(msg, file=sys.stderr)

    replayed: dict[tuple, list] = {}

    def turns_of(domain: str, split: str, limit: int | None) -> list:
        # Each split is replayed once per run, however many held-out domains train on it.
        if (domain, split, limit) not in replayed:
            replayed[(domain, split, limit)] = collect(split, limit, resources, cache, domain=domain)
        return replayed[(domain, split, limit)]

    shipped = None if args.lodo else RelevanceModel()
    out: dict[str, dict] = {}
    for domain in domains:
        start = time.perf_counter()
        turns = turns_of(domain, args.split, args.limit)
        model = fit_without(domain, all_domains(), args, turns_of, log) if args.lodo else shipped
        results = rows(turns, model, k=args.k, cap=args.subgraph_cap, noise=noise_predicates(domain, args.split))
        calibrated = reliability([t for t in turns if len(t.X)], model.predict).get(domain)
        out[domain] = {"rows": results, **margins(results), "reliability": calibrated, "settings": {
            "split": args.split, "dialogues": len({t.dialogue_id for t in turns}),
            "limit": args.limit, "scorer": "lodo" if args.lodo else "shipped",
            "pcst_learned_prizes": getattr(model, "prizes", None), "seconds": round(time.perf_counter() - start, 1)}}
        if done:
            done(domain, out[domain])
    return out


def table(domain: str, split: str, entry: dict) -> str:
    from harness.retrieval import LITERATURE

    results = entry["rows"]
    first = next(iter(results.values()))
    where = "the generated office benchmark" if domain == OFFICE else f"the out-of-domain '{domain}' benchmark"
    lines = [f"Retrieval on {where}, {split} split ({first['turns']} user turns with gold, "
             f"{first['answer_turns']} with answer facts, {first['single_turns']} single-relation)",
             f"{'row':<16} {'P':>6} {'R':>6} {'F1':>6} {'ans':>6} {'ans-1':>6} {'noise':>6}"
             + ("   GraphWOZ F1 (literature)" if domain == OFFICE else ""),
             "-" * (72 if domain == OFFICE else 52)]

    def fmt(x) -> str:
        return f"{x:>6.3f}" if x is not None else f"{'—':>6}"

    for name, r in results.items():
        line = (f"{name:<16} {r['precision']:>6.3f} {r['recall']:>6.3f} {r['f1']:>6.3f} {fmt(r['answer_recall'])} "
                f"{fmt(r['answer_recall_single'])} {fmt(r['name_noise_share'])}")
        if domain == OFFICE:
            lit = LITERATURE.get(name)
            line += f"   {lit[0 if split == 'dev' else 1]:.3f}" if lit else "   —"
        lines.append(line)
    kinds = results["PCST-learned"]["answer_recall_by_kind"]
    lines.append("PCST-learned ans by kind: " + ", ".join(
        f"{k} {v:.2f}" if v is not None else f"{k} —" for k, v in kinds.items()))
    lines.append(f"PCST-learned F1 − best Triples baseline F1 = {entry['pcst_learned_minus_best_triples_f1']:+.3f}"
                 f" (target ≥ +0.10); − best BM25 row = {entry['pcst_learned_minus_best_bm25_f1']:+.3f}")
    return "\n".join(lines)


LEGEND = ("ans = answer-fact recall (share of turns whose retrieved facts, edges and derived alike, state every "
          "answer fact); ans-1 = the same on single-relation questions; noise = share of retrieved facts that are "
          "name records (given/family name, sex or gender, described by source, languages) on turns not asking "
          "about names (— where the KG has none).")


def limits(args) -> list[str]:
    limited = [f"--limit {args.limit} dialogues per evaluated split"] if args.limit else []
    if args.lodo:
        limited.append(f"LODO training on the first {args.train_limit} train ({args.office_limit} office) and "
                       f"{args.dev_limit} dev dialogues of each other domain")
    return limited


def print_domain(args, domain: str, entry: dict) -> None:
    from harness.retrieval.calibration import table as reliability_table

    print(table(domain, args.split, entry))
    if entry["reliability"]:
        print("reliability of the learned scorer's probabilities on these turns:")
        print(reliability_table({domain: entry["reliability"]}))
    print(flush=True)


def evaluate_domains(args, domains: list[str]) -> None:
    """Run and print: tables one by one as text, or one JSON object at the end."""
    if args.json:
        out = run(args, domains)
        print(json.dumps({"domains": {d: {**e, "rows": [{"row": n, **r} for n, r in e["rows"].items()]}
                                      for d, e in out.items()},
                          "lodo": args.lodo, "limited": limits(args)}))
        return
    run(args, domains, done=lambda domain, entry: print_domain(args, domain, entry))
    print(LEGEND)
    scorer = ("learned rows: LODO, a model fitted without the held-out domain" if args.lodo
              else "learned rows: the shipped model (trained on the train splits of the office benchmark and "
                   "of the five domains: in-domain here; --lodo for held-out figures)")
    limited = limits(args)
    print(scorer + (f"; limited: {'; '.join(limited)}" if limited else "; nothing limited"))
