"""`kgchat eval retrieval`: P/R/F1 of retrieved nodes+edges against the generated benchmark's gold.

Each dialogue of the split is replayed through a `Session` on its own world, exactly as it
would run live (user turns through observe, reason, rewrite, plan, candidates, verbalize and
score; system turns recorded as given). The candidates and features of every user turn are
kept, and every row of the table re-scores and re-retrieves those same candidates, so the rows
differ only in scorer and retriever.

Scores per turn: the retrieved set is the subgraph's nodes (IRIs, literal values) plus its
background edges (s, p, o); derived facts are not KG edges and count on neither side. P, R and
F1 are averaged over the user turns whose gold is not empty. Answer-fact recall (what the
prompt gets of the answer, derived facts included) and the name-noise share are defined in
engine/harness/eval/answer_facts.py; `--domain` and `--lodo` (engine/harness/eval/lodo.py) run the
out-of-domain benchmark of engine/harness/ood, leaving each domain out of the model's training.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.stages.candidates import is_node_fact
from engine.options import ArgumentParser, positive_int
from engine.state import Candidate, Mention, TurnState
from engine.config import option_type

# The literature's GraphWOZ figures (F1, dev/test), for comparison only.
LITERATURE = {"Triples-BM25": (0.347, 0.398), "PCST-BM25": (0.372, 0.425),
              "Triples-SBERT": (0.316, 0.316), "PCST-SBERT": (0.325, 0.310)}
ROWS = (("Triples-BM25", "topk", "bm25"), ("Triples-SBERT", "topk", "sbert"),
        ("PCST-BM25", "pcst", "bm25"), ("PCST-SBERT", "pcst", "sbert"),
        ("Triples-learned", "topk", "learned"), ("PCST-learned", "pcst", "learned"))


@dataclass
class ReplayedTurn:
    dialogue_id: str
    turn: int
    state: TurnState
    gold: dict
    X: np.ndarray  # features, FEATURES order, one row per candidate


def replay(dialogues: dict[str, dict], resources: dict | None = None, limit: int | None = None,
           progress: Callable[[str], None] | None = None, links: str = "live") -> Iterator[ReplayedTurn]:
    """Replay every dialogue of a GraphWOZ-format dict through a Session on its own world and
    yield each user turn with its candidates, features and gold. `resources` (encoder, ...) are
    shared between the sessions so caches carry over.

    `links="gold"` skips observe/reason/rewrite and gives each turn the benchmark's annotated
    mentions instead (an oracle-linking ablation that isolates retrieval)."""
    from engine.harness.benchmark.replay import dialogue_configs
    from engine.stages.score.features import FEATURES
    from engine.pipeline import run_stages
    from engine.stages import candidates, plan, score, verbalize
    from engine.session import Session

    resources = dict(resources or {})
    # The scorer here only has to compute features: BM25 needs no model file.
    # Reasoning gets a generous budget so that a busy machine does not change which
    # mentions get linked (on an idle one it stays well inside the default 500 ms).
    replay = dialogue_configs(dialogues, limit, scorer="bm25", retriever="topk", reason_timeout_ms=10_000)
    for _, dialogue_id, dialogue, config in replay:
        session = Session.open(config, **resources)
        if "encoder" not in resources:
            from engine.stages.score.encoder import encoder_for

            resources["encoder"] = encoder_for(session.ctx)
        for entry in dialogue.get("log", []):
            text = entry.get("manual_transcription") or ""
            gold = entry.get("gold") or {}
            if links == "gold":
                state = session.new_state(text)
                state.rewritten = text
                state.mentions = [Mention(g["mention"], g["start"], g["end"], g["kind"], entity=g["entity"],
                                          p=1.0) for g in gold.get("links", []) if g.get("entity")]
                run_stages(state, session.ctx, (plan.run, candidates.run, verbalize.run, score.run))
                session.history.append(("user", text))
            else:
                state = session.user_turn(text, answer=False)
            X = np.array([[c.features.get(f, 0.0) for f in FEATURES] for c in state.candidates],
                         dtype=np.float32).reshape(len(state.candidates), len(FEATURES))
            yield ReplayedTurn(dialogue_id, int(entry.get("turn", 0)), state, gold, X)
            if entry.get("agent_response"):
                if links == "gold":
                    session.history.append(("system", entry["agent_response"]))
                else:
                    session.system_turn(entry["agent_response"])
        if progress:
            progress(dialogue_id)


def collect(split: str, limit: int | None, resources: dict, cache: Path | None, domain: str = "office") -> list:
    """The replayed turns of a split of the office benchmark or of an out-of-domain one
    (engine/harness/ood), each marked with its `domain`; with `cache`, kept in (and reused
    from) a pickle there. The feature matrix is rebuilt from each candidate's feature dict, so
    a cache survives the removal of a feature (not the addition of one: then delete it)."""
    import pickle

    from engine.stages.score.features import FEATURES

    name = f"replay-{split}" if domain == "office" else f"replay-{domain}-{split}"
    path = cache / f"{name}-{limit or 'all'}.pkl" if cache else None
    if path is not None and path.exists():
        turns = pickle.loads(path.read_bytes())
        for t in turns:
            t.X = np.array([[c.features.get(f, 0.0) for f in FEATURES] for c in t.state.candidates],
                           dtype=np.float32).reshape(len(t.state.candidates), len(FEATURES))
            t.domain = domain
        return turns
    if domain == "office":
        from engine.harness.benchmark import load_split

        dialogues = load_split(split)
    else:
        from engine.harness import ood

        dialogues = ood.load_split(domain, split)
    start = time.perf_counter()
    turns = list(replay(dialogues, resources=resources, limit=limit))
    for t in turns:
        t.domain = domain
    print(f"{domain} {split}: {len(turns)} user turns, {sum(len(t.state.candidates) for t in turns)} candidates "
          f"replayed in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(turns, protocol=pickle.HIGHEST_PROTOCOL))
    return turns


def gold_sets(gold: dict) -> tuple[set[str], set[tuple[str, str, str]]]:
    return set(gold.get("nodes", [])), {tuple(e) for e in gold.get("edges", [])}


def labels(candidates: list[Candidate], gold: dict) -> np.ndarray:
    """Gold relevance per candidate: an edge in the gold edges, a node fact of a gold node, a
    derived fact all of whose entities are gold nodes."""
    nodes, edges = gold_sets(gold)
    y = np.zeros(len(candidates), dtype=np.float32)
    for i, c in enumerate(candidates):
        f = c.fact
        if is_node_fact(f):
            y[i] = f.s in nodes
        elif c.derived:
            ends = [f.s] + ([] if f.o_literal else [f.o])
            y[i] = bool(nodes) and all(e in nodes for e in ends)
        else:
            y[i] = f.key in edges
    return y


def retrieved_set(sel) -> set:
    out: set = set(sel.nodes)
    for c in sel.facts:
        if not is_node_fact(c.fact) and not c.derived:
            out.add(c.fact.key)
    return out


def prf(retrieved: set, gold: set) -> tuple[float, float, float]:
    hit = len(retrieved & gold)
    p = hit / len(retrieved) if retrieved else 0.0
    r = hit / len(gold) if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def evaluate(turns: list[ReplayedTurn], retriever: str, scorer: str, *, k: int, cap: int,
             model=None, prizes: dict | None = None, noise_predicates: set[str] | None = None) -> dict:
    """Mean P/R/F1 over the turns with non-empty gold for one scorer and retriever, and what
    the prompt gets of the answer (engine/harness/eval/answer_facts.py)."""
    from engine.stages.score.features import FEATURES
    from engine.harness.eval.answer_facts import AnswerTally
    from engine.stages.retrieve import select

    bm25_col = FEATURES.index("bm25_rewrite")
    totals = np.zeros(3)
    counted = 0
    tally = AnswerTally(noise_predicates)
    for t in turns:
        g_nodes, g_edges = gold_sets(t.gold)
        gold = g_nodes | g_edges
        if not t.state.candidates:
            tally.add([], t.gold)
            counted += bool(gold)
            continue
        if scorer == "learned":
            scores = model.predict(t.X)
        elif scorer == "bm25":
            scores = t.X[:, bm25_col]
        else:
            scores = t.X[:, FEATURES.index("cos_1")]
        for c, s in zip(t.state.candidates, scores):
            c.score = float(s)
        pz = (prizes or model.prizes) if (scorer == "learned" and retriever == "pcst") else None
        sel = select(t.state.candidates, retriever, k, cap, pz)
        tally.add(sel.facts, t.gold)
        if gold:
            counted += 1
            totals += prf(retrieved_set(sel), gold)
    mean = totals / max(counted, 1)
    return {"precision": round(float(mean[0]), 4), "recall": round(float(mean[1]), 4),
            "f1": round(float(mean[2]), 4), "turns": counted, **tally.result()}


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
    from engine.stages.score.relevance import RelevanceModel

    if any(a == "--graphwoz" or a.startswith("--graphwoz=") for a in argv):  # answer recall on a published file
        from engine.harness.eval.graphwoz import main as graphwoz_main

        return graphwoz_main(argv, command, "answers")

    parser = ArgumentParser(prog=f"kgchat {command}", description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=("train", "dev", "test"), default="test")
    parser.add_argument("--limit", type=positive_int, metavar="N", help="only the first N dialogues")
    parser.add_argument("--k", type=option_type("k"), default=Config.k, help="top-k facts; PCST prizes for k edges")
    parser.add_argument("--subgraph-cap", type=option_type("subgraph_cap"), default=Config.subgraph_cap)
    parser.add_argument("--replay-cache", metavar="DIR", help="keep the replayed split here and reuse it")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--domain", default="office", metavar="NAME",
                        help="office (default), an out-of-domain benchmark domain (engine/harness/ood: football, "
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
    args = parser.parse_args(argv)
    from engine.harness.eval import lodo

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
        print(json.dumps({"rows": [{"row": n, **r, "literature_f1": dict(zip(("dev", "test"), LITERATURE[n]))
                                    if n in LITERATURE else None} for n, r in results.items()],
                          "pcst_learned_minus_best_bm25_f1": margin, "settings": settings}))
    else:
        print(table(args.split, results))
        print(f"\nPCST-learned F1 − best BM25 row F1 = {margin:+.3f} (target ≥ +0.10)")
        print(f"settings: {json.dumps(settings)}")
    return 0
