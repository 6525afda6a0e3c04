"""`kgchat eval paths`: does the route stage pick the relation each question asks for?

Replays the generated out-of-domain domains (harness.ood) and the office benchmark through a
Session each (every user turn up to retrieval, links found live) and judges the relation paths
of every user turn with gold: a question the KG answers is right when every gold answer fact lies
on a chosen path; a question about what the KG lacks (out of domain: kind absent) is right when
no path is chosen. Turns whose gold names no answer fact are not judged.

`--lodo` chooses the path scorer's settings (engine.stages.route.paths.Weights) leave-one-domain-out: for each
domain, the grid point that does best on the other domains, and its figure on the one left out.
The shipped settings are the ones every fold agrees on, or the most frequent choice.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import Counter
from pathlib import Path

GRID = {"floor": (0.35, 0.4, 0.45, 0.5, 0.55, 0.6), "hop_cost": (0.4, 0.45, 0.5, 0.55), "type_bonus": (0.0, 0.04, 0.08)}


def judged(turn) -> tuple[str, set] | None:
    """("absent", {}) or ("answerable", gold answer fact keys) of a replayed turn; None when not judged."""
    answer = (turn.gold or {}).get("answer") or {}
    if answer.get("kind") == "absent":
        return "absent", set()
    edges = {tuple(e) for e in (turn.gold or {}).get("edges", [])}
    return ("answerable", edges) if edges else None


def right(paths, kind: str, gold: set) -> bool:
    if kind == "absent":
        return not paths
    on = {f.key for p in paths for chain in p.chains for f in chain}
    return bool(gold) and gold <= on


def rerun(turns, matcher, w) -> list[bool]:
    """The judgement of each judged turn with the settings `w` (the turn's candidates as replayed)."""
    from engine.focus import linked_now
    from engine.nlp.answer_type import asks_list
    from engine.stages.route.paths import Question, search

    out = []
    for t in turns:
        kind, gold = t.judged
        s = t.state
        now = linked_now(s)
        labels = {c.fact.s: c.s_label for c in s.candidates}
        labels.update({c.fact.o: c.o_label for c in s.candidates if not c.fact.o_literal})
        starts = {i: labels.get(i) or i for i in sorted(now, key=lambda i: -now[i])}
        text = s.rewritten or s.text
        q = Question(text, list(starts.values()) + [m.text for m in s.mentions if m.entity in starts and m.kind == "name"],
                     earlier=s.history[-1][1] if s.history else "", asks_list=asks_list(text))
        found = search(s.candidates, starts, q, matcher, w=w) if starts else None
        out.append(right(found.paths if found else [], kind, gold))
    return out


def main(argv: list[str], command: str = "eval paths") -> int:
    parser = argparse.ArgumentParser(prog=f"kgchat {command}", description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=("train", "dev", "test"), default="dev")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N dialogues of each domain")
    parser.add_argument("--domains", nargs="+", metavar="DOMAIN", help="domains (default: every out-of-domain one and office)")
    parser.add_argument("--lodo", action="store_true", help="choose the settings leave-one-domain-out over GRID")
    parser.add_argument("--cache", metavar="DIR", help="keep the replayed turns there (pickles) and reuse them")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from engine.relations import RelationMatcher
    from engine.stages.route.paths import WEIGHTS, Weights
    from harness import ood
    from harness.retrieval import collect
    from kgstore.errors import BadInput

    known = ood.domains() + ["office"]
    domains = args.domains or known
    if unknown := sorted(set(domains) - set(known)):
        raise BadInput(f"--domains: unknown domain(s) {', '.join(unknown)} (known: {', '.join(known)})")
    if args.limit is not None and args.limit < 1:
        raise BadInput("--limit: must be at least 1")
    from engine.nlp.encoder import Encoder

    resources: dict = {"encoder": Encoder()}  # one for every domain's replay and the rescoring
    by_domain = {}
    for d in domains:
        turns = []
        for t in collect(args.split, args.limit, resources, Path(args.cache) if args.cache else None, domain=d):
            if (j := judged(t)) is not None:
                t.judged = j
                turns.append(t)
        by_domain[d] = turns
    matcher = RelationMatcher(resources["encoder"]).grid

    def score(d: str, w) -> tuple[int, int]:
        hits = rerun(by_domain[d], matcher, w)
        return sum(hits), len(hits)

    rows = {d: {"shipped": score(d, WEIGHTS)} for d in domains}
    out: dict = {"split": args.split, "weights": WEIGHTS.__dict__, "domains": rows}
    if args.lodo:
        points = [Weights(*v) for v in itertools.product(*GRID.values())]
        table = {(d, w): score(d, w) for d in domains for w in points}
        chosen = []
        for d in domains:
            def others(w, d=d):
                h = sum(table[(o, w)][0] for o in domains if o != d)
                n = sum(table[(o, w)][1] for o in domains if o != d)
                return h / max(n, 1)
            best = max(points, key=others)
            chosen.append(best)
            rows[d]["lodo"] = {"weights": best.__dict__, "held_out": table[(d, best)]}
        out["most_chosen"] = Counter(chosen).most_common(1)[0][0].__dict__
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(f"relation path right (split {args.split}): every gold answer fact on a chosen path; absent: no path")
    for d, r in rows.items():
        h, n = r["shipped"]
        line = f"  {d:<10} shipped {h}/{n} = {h / max(n, 1):.3f}"
        if "lodo" in r:
            lh, ln = r["lodo"]["held_out"]
            line += f"   left out: {lh}/{ln} = {lh / max(ln, 1):.3f} with {r['lodo']['weights']}"
        print(line)
    h = sum(r["shipped"][0] for r in rows.values())
    n = sum(r["shipped"][1] for r in rows.values())
    print(f"  all        shipped {h}/{n} = {h / max(n, 1):.3f}  settings {WEIGHTS.__dict__}")
    if args.lodo:
        print(f"  most chosen when left out: {out['most_chosen']}")
    print("targets: every domain as high as it goes; the settings chosen without a domain do as well on it", file=sys.stderr)
    return 0
