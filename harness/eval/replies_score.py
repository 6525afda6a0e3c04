"""Scoring the check stage on the out-of-generator replies (harness.eval.replies).

Each reply goes through the `check` stage over its own KG. Every value the reply says is
judged by the claim that holds it: per gold class, the share of values whose claim got the
gold verdict; the value-level recall of contradictions, the share of wrong values reported as
contradicted on a claim of their own (a claim holding no other value of the reply); and
whether any claim's subject is a vocative, greeting or discourse marker.
"""

from __future__ import annotations

import json
import random
import re
import tempfile
from datetime import datetime
from pathlib import Path

from engine.factcheck import VERDICTS
from harness.eval.replies import (
    KG_DIR,
    Reply,
    bands_replies,
    campus_replies,
    office_replies,
    wikidata_replies,
)

SEEDS = {"dev": 7, "test": 8}
WORLDS = 3  # benchmark worlds besides the demo office
MARKER_WORDS = frozenset("sure alright okay ok well so hi hello hey yes yeah absolutely certainly of course "
                         "great perfect thanks happy good".split())


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[*_`]", "", text).lower().split())


def build(split: str = "dev") -> list[tuple[Reply, object]]:
    """(reply, loaded store) pairs; one store per KG."""
    from harness.office import load_split
    from kgstore import KGStore, demo_path

    rng = random.Random(SEEDS[split])
    out: list[tuple[Reply, object]] = []

    def load(path: str):
        store = KGStore()
        store.load(path)
        return store

    office = demo_path("office")
    with open(office, encoding="utf-8") as fh:
        demo = next(iter(json.load(fh).values()))
    store = load(office)
    out += [(r, store) for r in office_replies(demo["data"], office, "2026-03-01T09:00", rng, 48)]
    worlds = load_split(split)
    with tempfile.TemporaryDirectory() as tmp:
        for did in sorted(worlds)[:WORLDS]:
            path = Path(tmp) / f"{did}.json"
            path.write_text(json.dumps({did: worlds[did]}, ensure_ascii=False), encoding="utf-8")
            store = load(str(path))
            out += [(r, store) for r in office_replies(worlds[did]["data"], f"world:{did}", worlds[did]["now"], rng, 18)]
    wikidata = demo_path("wikidata")
    store = load(wikidata)
    out += [(r, store) for r in wikidata_replies(store, wikidata, rng, 36)]
    for name, make, n in (("bands.ttl", bands_replies, 30), ("campus.ttl", campus_replies, 25)):
        path = str(KG_DIR / name)
        store = load(path)
        out += [(r, store) for r in make(store, path, rng, n)]
    return out


def own_claim(text: str, checks: list, others: list[str]):
    """The check whose claim holds this value, preferring one that holds no other value."""
    said = _norm(text)
    holding = [c for c in checks if said in _norm(c.claim)]
    if not holding:
        return None, False
    best = min(holding, key=lambda c: sum(_norm(o) in _predicate(c.claim) for o in others))
    alone = not any(_norm(o) in _predicate(best.claim) for o in others if _norm(o) != said and _norm(o) not in said)
    return best, alone


def _predicate(claim: str) -> str:
    """A claim after its verb: another value named as the subject ("Paris has 2 million
    inhabitants" after "the capital is Paris") is not a second value of the claim."""
    from engine.factcheck.split import first_verb

    verb = first_verb(claim)
    return _norm(claim[verb:] if verb else claim)


def addressed_subject(claim: str, addressed: list[str]) -> bool:
    """Is a vocative, greeting or discourse marker the claim's subject (before its verb)?"""
    from engine.factcheck.split import first_verb

    verb = first_verb(claim)
    if verb is None or verb == 0:
        return False
    subject = claim[:verb].lower()
    words = re.findall(r"[a-z']+", subject)
    if words and words[0] in MARKER_WORDS:
        return True
    return any(re.search(rf"\b{re.escape(a.lower())}\b", subject) for a in addressed if a and a.lower() not in
               ("the", "it"))


def run(split: str = "dev") -> dict:
    from engine.config import Config
    from engine.context import TurnContext
    from engine.stages.check import run as check
    from engine.state import TurnState

    rows, vocative_subjects = [], []
    contexts: dict[int, TurnContext] = {}
    n_claims = 0
    for reply, store in build(split):
        ctx = contexts.get(id(store))
        if ctx is None:
            ctx = contexts[id(store)] = TurnContext(config=Config(demo="none"), store=store, background=store)
        state = TurnState(session_id="eval-replies", turn=1, text="", now=datetime.fromisoformat(reply.now),
                          response=reply.text)
        check(state, ctx)
        n_claims += len(state.checks)
        texts = [g.text for g in reply.gold]
        for g in reply.gold:
            c, alone = own_claim(g.text, state.checks, texts)
            rows.append({"domain": reply.domain, "kind": g.kind, "relation": g.relation, "value": g.text,
                         "expected": g.verdict, "got": c.verdict if c is not None else "lost", "alone": alone,
                         "claim": c.claim if c is not None else None, "reason": c.reason if c is not None else "",
                         "reply": reply.text})
        for c in state.checks:
            if addressed_subject(c.claim, reply.addressed):
                vocative_subjects.append({"claim": c.claim, "reply": reply.text})
    return summarize(rows, vocative_subjects, split, n_claims)


def summarize(rows: list[dict], vocative_subjects: list[dict], split: str, n_claims: int) -> dict:
    per_class = {}
    for e in VERDICTS:
        mine = [r for r in rows if r["expected"] == e]
        right = sum(r["got"] == e for r in mine)
        per_class[e] = {"n": len(mine), "correct": right, "accuracy": round(right / len(mine), 4) if mine else None}
    wrong = [r for r in rows if r["expected"] == "contradicted"]
    caught = sum(r["got"] == "contradicted" and r["alone"] for r in wrong)
    per_kind: dict[str, dict] = {}
    for r in rows:
        k = per_kind.setdefault(f"{r['domain']}:{r['kind']}:{r['expected']}", {"n": 0, "correct": 0})
        k["n"] += 1
        k["correct"] += r["got"] == r["expected"]
    for k in per_kind.values():
        k["accuracy"] = round(k["correct"] / k["n"], 4)
    return {"split": split, "values": len(rows), "claims": n_claims, "replies": len({r["reply"] for r in rows}),
            "per_class": per_class,
            "contradiction_recall": round(caught / len(wrong), 4) if wrong else None,
            "vocative_subjects": len(vocative_subjects), "vocative_examples": vocative_subjects[:5],
            "per_kind": dict(sorted(per_kind.items())),
            "errors": [r for r in rows if r["got"] != r["expected"] or (r["expected"] == "contradicted"
                                                                         and not r["alone"])]}


def print_report(res: dict, show_errors: int) -> None:
    print(f"\nout-of-generator replies (harness.eval.replies, {res['split']}): {res['values']} values in "
          f"{res['replies']} replies, {res['claims']} atomic claims (office, wikidata, custom-predicate KGs)\n")
    print(f"{'class':<14}{'n':>6}{'correct':>9}{'accuracy':>10}")
    for e, row in res["per_class"].items():
        acc = f"{row['accuracy']:.3f}" if row["accuracy"] is not None else "-"
        print(f"{e:<14}{row['n']:>6}{row['correct']:>9}{acc:>10}")
    print(f"\nvalue-level recall of contradictions (wrong value contradicted on its own claim): "
          f"{res['contradiction_recall']}")
    print(f"claims whose subject is a vocative, greeting or marker: {res['vocative_subjects']} (should be 0)")
    print("\nper domain, kind and gold verdict")
    for k, row in res["per_kind"].items():
        print(f"  {k:<44}{row['n']:>5}{row['accuracy']:>8.3f}")
    for r in res["errors"][:show_errors]:
        print(f"\n  [{r['expected']} -> {r['got']}{'' if r['alone'] else ', not alone'}] {r['value']} ({r['relation']})"
              f"\n    claim: {r['claim']}\n    reason: {r['reason']}\n    reply: {r['reply']}")
