"""The replayed turns of a benchmark and the figures computed on them: what `kgchat eval
retrieval`, its leave-one-domain-out mode and the relevance model's training all share.

Each dialogue is replayed through a `Session` on its own world, exactly as it would run live
(user turns through observe, reason, rewrite, plan, candidates, verbalize and score; system
turns recorded as given). The candidates and features of every user turn are kept, so every
scorer and retriever is compared on the same candidates.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.nlp.sentences import is_node_fact
from engine.state import Candidate, Mention, TurnState

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
    from engine.nlp.relevance import FEATURES
    from engine.pipeline import run_stages
    from engine.session import Session
    from engine.stages import candidates, plan, score, verbalize
    from harness.office.replay import dialogue_configs

    resources = dict(resources or {})
    # The scorer here only has to compute features: BM25 needs no model file.
    # Reasoning gets a generous budget so that a busy machine does not change which
    # mentions get linked (on an idle one it stays well inside the default 500 ms).
    replay = dialogue_configs(dialogues, limit, scorer="bm25", retriever="topk", reason_timeout_ms=10_000)
    for _, dialogue_id, dialogue, config in replay:
        session = Session.open(config, **resources)
        if "encoder" not in resources:
            from engine.nlp.encoder import encoder_for

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
    (harness/ood), each marked with its `domain`; with `cache`, kept in (and reused
    from) a pickle there. The feature matrix is rebuilt from each candidate's feature dict, so
    a cache survives the removal of a feature (not the addition of one: then delete it)."""
    import pickle

    from engine.nlp.relevance import FEATURES

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
        from harness.office import load_split

        dialogues = load_split(split)
    else:
        from harness import ood

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
    the prompt gets of the answer (harness/retrieval/answer_facts.py)."""
    from engine.nlp.relevance import FEATURES
    from engine.stages.retrieve import select
    from harness.retrieval.answer_facts import AnswerTally

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
        for c, s in zip(t.state.candidates, scores, strict=False):
            c.score = float(s)
        pz = (prizes or model.prizes) if (scorer == "learned" and retriever == "pcst") else None
        sel = select(t.state, retriever, k, cap, pz)
        tally.add(sel.facts, t.gold)
        if gold:
            counted += 1
            totals += prf(retrieved_set(sel), gold)
    mean = totals / max(counted, 1)
    return {"precision": round(float(mean[0]), 4), "recall": round(float(mean[1]), 4),
            "f1": round(float(mean[2]), 4), "turns": counted, **tally.result()}
