"""`kgchat eval factcheck`: verdict accuracy on replies with planted claims of known truth.

Each planted reply goes through the `check` stage as it runs in a turn: over the dialogue's own
world (one store per generated dialogue, the dialogue so far as history, the turn's linked
mentions as the reasoning stage would give them) or over the Wikidata-style demo KG. Every
planted claim is matched to the atomic claims the splitter made of it (see `match_checks`); a
claim the splitter lost counts as wrong.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from engine.factcheck import VERDICTS, session_scores
from engine.options import ArgumentParser, nonnegative_int
from harness.eval.planted import Item, office_items, perturbed_items, wikidata_items
from rules.similarity import norm

SEEDS = {"dev": 101, "test": 202}


def _words(text: str) -> set[str]:
    return set(norm(text).split())


def match_checks(planted: list, checks: list) -> list:
    """For each planted claim, the verdict on the atomic claims the splitter made of it (or None
    when it left nothing that resembles it). Each check goes to the planted claim whose words
    hold most of its own words; a planted claim with several values is contradicted when any of
    its atoms is, supported when all are, NOT ENOUGH INFO otherwise."""
    from engine.state import Check

    owners: list[list] = [[] for _ in planted]
    for c in checks:
        got = _words(c.claim)
        best, score = None, 0.0
        for i, p in enumerate(planted):
            if p.marker:
                hit = p.marker in c.claim
                if hit and score < 2.0:
                    best, score = i, 2.0
                continue
            share = len(got & _words(p.claim)) / max(len(got), 1)
            if share > score or (share == score and best is not None and owners[best] and not owners[i]):
                best, score = i, share  # of two alike, the one that has no atom yet
        if best is not None and score >= 0.6:
            owners[best].append(c)
    out = []
    for _planted, mine in zip(planted, owners, strict=True):
        if not mine:
            out.append(None)
            continue
        verdicts = [c.verdict for c in mine]
        verdict = ("contradicted" if "contradicted" in verdicts else
                   "supported" if all(v == "supported" for v in verdicts) else "nei")
        first = next(c for c in mine if c.verdict == verdict) if verdict in verdicts else mine[0]
        out.append(Check(claim=" | ".join(c.claim for c in mine), verdict=verdict, evidence=first.evidence,
                         reason=first.reason))
    return out


def _context(store):
    from engine.config import Config
    from engine.context import TurnContext

    return TurnContext(config=Config(demo="none"), store=store, background=store)


def _office_state(d: dict, did: str, turn: int, reply: str):
    from engine.state import Mention, TurnState

    log = d["log"]
    history: list[tuple[str, str]] = []
    for entry in log[:turn - 1]:
        history += [("user", entry["manual_transcription"]), ("system", entry["agent_response"])]
    entry = log[turn - 1]
    mentions = [Mention(link["mention"], link["start"], link["end"], link["kind"], entity=link["entity"], p=1.0)
                for link in entry["gold"]["links"]]
    return TurnState(session_id=f"eval-{did}", turn=2 * turn - 1, text=entry["manual_transcription"],
                     now=datetime.fromisoformat(d["now"]), history=history, mentions=mentions, response=reply)


def run(split_name: str, domains: tuple[str, ...] = ("office", "wikidata")) -> dict:
    from engine.stages.check import run as check
    from engine.state import TurnState
    from harness.office import load_split
    from kgstore import KGStore, demo_path

    seed = SEEDS[split_name]
    rows: list[dict] = []
    ms: list[float] = []
    reference = {v: 0 for v in VERDICTS}
    reference_errors: list[dict] = []
    sessions: list[tuple[float | None, float | None]] = []  # (fact score, NEIP) per dialogue

    def record(item: Item, checks: list) -> None:
        for p, c in zip(item.planted, match_checks(item.planted, checks), strict=False):
            rows.append({"domain": item.domain, "kind": p.kind, "expected": p.verdict,
                         "got": c.verdict if c is not None else "lost", "claim": p.claim,
                         "checked": c.claim if c is not None else None, "reason": c.reason if c is not None else "",
                         "reply": item.reply})

    if "office" in domains:
        split = load_split(split_name)
        items = office_items(split, seed) + perturbed_items(split, seed)
        by_dialogue: dict[str, list[Item]] = {}
        for item in items:
            by_dialogue.setdefault(item.key, []).append(item)
        with tempfile.TemporaryDirectory() as tmp:
            for did, group in by_dialogue.items():
                path = Path(tmp) / f"{did}.json"
                path.write_text(json.dumps({did: split[did]}, ensure_ascii=False), encoding="utf-8")
                store = KGStore()
                store.load(str(path))
                ctx = _context(store)
                for item in group:
                    state = _office_state(split[did], did, item.turn, item.reply)
                    t0 = time.perf_counter()
                    check(state, ctx)
                    ms.append((time.perf_counter() - t0) * 1000)
                    record(item, state.checks)
                # The benchmark's own replies state only true facts: none may be contradicted.
                replies = []
                for turn, entry in enumerate(split[did]["log"], start=1):
                    state = _office_state(split[did], did, turn, entry["agent_response"])
                    check(state, ctx)
                    replies.append(state.checks)
                    for c in state.checks:
                        reference[c.verdict] += 1
                        if c.verdict == "contradicted":
                            reference_errors.append({"claim": c.claim, "reason": c.reason, "dialogue": did})
                sessions.append(session_scores(replies))
    if "wikidata" in domains:
        store = KGStore()
        store.load(demo_path("wikidata"))
        ctx = _context(store)
        for item in wikidata_items(store, seed):
            state = TurnState(session_id="eval-wikidata", turn=1, text="", now=datetime(2026, 3, 2, 10), response=item.reply)
            t0 = time.perf_counter()
            check(state, ctx)
            ms.append((time.perf_counter() - t0) * 1000)
            record(item, state.checks)
    res = summarize(rows, ms, split_name, domains)
    facts = [f for f, _ in sessions if f is not None]
    neips = [n for _, n in sessions if n is not None]
    res["reference_replies"] = dict(reference, claims=sum(reference.values()), contradicted_claims=reference_errors,
                                    dialogues=len(sessions),
                                    mean_session_fact_score=round(sum(facts) / len(facts), 4) if facts else None,
                                    mean_session_neip=round(sum(neips) / len(neips), 4) if neips else None)
    return res


def summarize(rows: list[dict], ms: list[float], split_name: str, domains) -> dict:
    labels = VERDICTS + ("lost",)
    confusion = {e: {g: 0 for g in labels} for e in VERDICTS}
    for r in rows:
        confusion[r["expected"]][r["got"]] += 1
    per_class = {}
    for e in VERDICTS:
        n = sum(confusion[e].values())
        per_class[e] = {"n": n, "correct": confusion[e][e], "accuracy": round(confusion[e][e] / n, 4) if n else None}
    per_kind: dict[str, dict] = {}
    for r in rows:
        k = per_kind.setdefault(f"{r['domain']}:{r['kind']}", {"expected": r["expected"], "n": 0, "correct": 0})
        k["n"] += 1
        k["correct"] += r["got"] == r["expected"]
    for k in per_kind.values():
        k["accuracy"] = round(k["correct"] / k["n"], 4)
    ms_sorted = sorted(ms)
    return {"split": split_name, "domains": list(domains), "claims": len(rows), "replies": len(ms),
            "per_class": per_class, "confusion": confusion, "per_kind": dict(sorted(per_kind.items())),
            "accuracy": round(sum(r["got"] == r["expected"] for r in rows) / max(len(rows), 1), 4),
            "ms_per_reply": {"mean": round(sum(ms) / max(len(ms), 1), 2),
                             "p95": round(ms_sorted[int(0.95 * (len(ms_sorted) - 1))], 2) if ms_sorted else None},
            "errors": [r for r in rows if r["got"] != r["expected"]]}


def print_report(res: dict, show_errors: int) -> None:
    print(f"eval factcheck --split {res['split']}: {res['claims']} planted claims in {res['replies']} replies "
          f"({', '.join(res['domains'])}); check stage {res['ms_per_reply']['mean']} ms/reply mean, "
          f"{res['ms_per_reply']['p95']} ms p95\n")
    print(f"{'class':<14}{'n':>6}{'correct':>9}{'accuracy':>10}")
    for e, row in res["per_class"].items():
        acc = f"{row['accuracy']:.3f}" if row["accuracy"] is not None else "-"
        print(f"{e:<14}{row['n']:>6}{row['correct']:>9}{acc:>10}")
    print(f"{'all':<14}{res['claims']:>6}{'':>9}{res['accuracy']:>10.3f}\n")
    print("confusion (rows: planted, columns: verdict)")
    cols = list(next(iter(res["confusion"].values())))
    print(f"{'':<14}" + "".join(f"{c:>14}" for c in cols))
    for e, row in res["confusion"].items():
        print(f"{e:<14}" + "".join(f"{row[c]:>14}" for c in cols))
    ref = res.get("reference_replies")
    if ref and ref["claims"]:
        print(f"\nthe benchmark's own (true) replies: {ref['claims']} claims: {ref['supported']} supported, "
              f"{ref['nei']} nei, {ref['contradicted']} contradicted (should be 0); per dialogue (session) "
              f"fact score {ref['mean_session_fact_score']}, NEIP {ref['mean_session_neip']} on average")
    print("\nper planted kind")
    for k, row in res["per_kind"].items():
        print(f"  {k:<34}{row['expected']:<14}{row['n']:>5}{row['accuracy']:>8.3f}")
    for r in res["errors"][:show_errors]:
        print(f"\n  [{r['expected']} -> {r['got']}] {r['claim']}\n    checked: {r['checked']}\n    reason: {r['reason']}"
              f"\n    reply: {r['reply']}")


def main(argv: list[str], command: str = "eval factcheck") -> int:
    parser = ArgumentParser(prog=f"kgchat {command}", description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=sorted(SEEDS), default="dev", help="which planted split (default dev)")
    parser.add_argument("--domain", choices=("both", "office", "wikidata"), default="both",
                        help="planted set: which domains")
    parser.add_argument("--set", choices=("both", "planted", "replies"), default="both", dest="which",
                        help="planted claims, the out-of-generator replies (harness/eval/replies.py), or both")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--errors", type=nonnegative_int, default=0, metavar="N", help="show the first N wrong verdicts")
    args = parser.parse_args(argv)
    from harness.eval import replies_score

    domains = ("office", "wikidata") if args.domain == "both" else (args.domain,)
    res = run(args.split, domains) if args.which != "replies" else {}
    ood = replies_score.run(args.split) if args.which != "planted" else None
    if args.json:
        if res:
            res = dict(res, errors=res["errors"][:args.errors])
        if ood is not None:
            res["out_of_generator"] = dict(ood, errors=ood["errors"][:args.errors])
        print(json.dumps(res, ensure_ascii=False))
        return 0
    if res:
        print_report(res, args.errors)
    if ood is not None:
        replies_score.print_report(ood, args.errors)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
