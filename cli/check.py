"""`kgchat check`: the claims of a given response, each verified against the KG (and the dialogue).

The dialogue, when given, is replayed first (user turns through retrieval, system turns as
given), so the response is checked as the reply to its last user turn: with that turn's
retrieved facts, linked mentions and the dialogue so far.
"""

from __future__ import annotations

import sys
import time

from engine.config import add_config_options, load_config
from engine.inert import json_text
from engine.options import ArgumentParser
from engine.turn_json import checks_json


def parser(command: str) -> ArgumentParser:
    p = ArgumentParser(prog=f"kgchat {command}", description=__doc__.split("\n")[0])
    p.add_argument("--response", required=True, metavar="TEXT", help="the reply to check ('-' reads it from stdin)")
    p.add_argument("--dialogue", metavar="FILE", help="earlier dialogue to replay first (JSON list or JSON Lines of "
                   "{speaker, text}, or a GraphWOZ file with --dialogue-id)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_config_options(p)
    return p


def main(argv: list[str], command: str = "check") -> int:
    args = parser(command).parse_args(argv)
    config = load_config(args)
    response = sys.stdin.read() if args.response == "-" else args.response
    from cli.retrieve import read_turns
    from engine.checking import truncation_note
    from engine.session import Session
    from engine.stages.check import run as check
    from engine.state import TurnState

    turns = read_turns(args.dialogue, config.dialogue_id) if args.dialogue else []
    session = Session.open(config)
    state = None
    for turn in turns:
        if turn.get("speaker") == "system":
            session.system_turn(turn["text"])
            state = None
        else:
            state = session.user_turn(turn["text"], answer=False)
    if state is None:  # no dialogue, or it ends with the system: the response stands on its own
        state = TurnState(session_id=session.session_id, turn=len(session.history) + 1, text="", now=session.now(),
                          history=list(session.history))
    else:  # the response answers the last user turn, which the session already holds as history
        state.history = list(session.history[:-1])
    state.response = response
    start = time.perf_counter()
    check(state, session.ctx)
    ms = (time.perf_counter() - start) * 1000.0
    note = truncation_note(state, config.max_claims)
    if note:
        print(f"kgchat: note: {note}", file=sys.stderr)
    if args.json:
        print(json_text({"checks": checks_json(state.checks), "checks_truncated": state.checks_truncated,
                          "fact_score": state.fact_score, "neip": state.neip,
                          "timings_ms": {"check": round(ms, 2)}}))
        return 0
    if not state.checks:
        print("no claims in the response")
        return 0
    width = max(len(c.verdict) for c in state.checks)
    for c in state.checks:
        print(f"{c.verdict:<{width}}  {c.claim}")
        if c.reason:
            print(f"{'':<{width}}  ({c.reason})")
        if c.incomplete is not None:
            i = c.incomplete
            print(f"{'':<{width}}  (incomplete: names {i.named} of the {i.total} values of {i.relation}; "
                  f"not named: {', '.join(i.missing[:5])})")
    score = "n/a" if state.fact_score is None else f"{state.fact_score:.2f}"
    neip = "n/a" if state.neip is None else f"{state.neip:.2f}"
    more = " (more not checked)" if state.checks_truncated else ""
    print(f"fact score {score}, NEIP {neip}, {len(state.checks)} claims{more}, {ms:.1f} ms")
    return 0

