"""`kgchat bench check`: time to check a 5-claim reply with the structured verifier.

The check stage runs as in a turn (splitting, linking, KG reads, verdicts) on a warm context
(the label index is built once per loaded KG, as in a session), over the demo office KG and the
Wikidata-style demo KG. Target: at most 50 ms per reply.
"""

from __future__ import annotations

import json
import statistics
import time
from datetime import datetime

from engine.options import ArgumentParser, positive_int

TARGET_MS = 50.0


def office_reply(data: dict) -> str:
    """Five claims about the demo office: two true, two wrong, one opinion."""
    e, f = data["events"][0], data["events"][1]
    p = data["people"][0]
    return (f"{e['name']} starts at {e['start_time']} and is held in {e['location']}. "
            f"{f['name']} is organized by Quentin Blackwood, and I think it is a really useful meeting. "
            f"{p['name']}'s office is Office 999.")


WIKIDATA_REPLY = ("Titanic was directed by James Cameron and was released in 1997. Leonardo DiCaprio was born "
                  "in 1974. Titanic stars Quentin Blackwood. It is the best film of its decade.")


def measure(path: str, reply: str, repeats: int) -> dict:
    from engine.config import Config
    from engine.context import TurnContext
    from engine.stages.check import run as check
    from engine.state import TurnState
    from kgstore import KGStore

    store = KGStore()
    store.load(path)
    ctx = TurnContext(config=Config(demo="none"), store=store, background=store)

    def once() -> tuple[float, TurnState]:
        state = TurnState(session_id="bench", turn=1, text="", now=datetime(2026, 3, 2, 10), response=reply)
        start = time.perf_counter()
        check(state, ctx)
        return (time.perf_counter() - start) * 1000.0, state

    first_ms, state = once()  # builds the label index, as the first turn of a session does
    times = sorted(once()[0] for _ in range(repeats))
    return {"kg": path, "triples": store.count(), "claims": len(state.checks),
            "verdicts": [c.verdict for c in state.checks], "first_ms": round(first_ms, 2),
            "mean_ms": round(statistics.fmean(times), 2), "median_ms": round(statistics.median(times), 2),
            "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2), "repeats": repeats,
            "within_target": statistics.median(times) <= TARGET_MS}


def main(argv: list[str], command: str = "bench check") -> int:
    from kgstore import demo_path

    parser = ArgumentParser(prog=f"kgchat {command}", description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=positive_int, default=50, help="timed runs per KG (default 50)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    with open(demo_path("office"), encoding="utf-8") as fh:
        data = next(iter(json.load(fh).values()))["data"]
    rows = [dict(measure(demo_path("office"), office_reply(data), args.repeats), name="office demo"),
            dict(measure(demo_path("wikidata"), WIKIDATA_REPLY, args.repeats), name="wikidata demo")]
    result = {"benchmark": "check", "target_ms": TARGET_MS, "checker": "structured", "rows": rows}
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"bench check: structured verifier, one reply checked {args.repeats} times per KG (target <= {TARGET_MS:.0f} ms)")
    print(f"{'KG':<16}{'triples':>9}{'claims':>8}{'first':>9}{'median':>9}{'mean':>9}{'p95':>9}  verdicts")
    for r in rows:
        print(f"{r['name']:<16}{r['triples']:>9}{r['claims']:>8}{r['first_ms']:>9.1f}{r['median_ms']:>9.1f}"
              f"{r['mean_ms']:>9.1f}{r['p95_ms']:>9.1f}  {' '.join(r['verdicts'])}")
    return 0
