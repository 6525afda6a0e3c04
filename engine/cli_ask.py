"""`kgchat ask`: one user turn headless — retrieval, the streamed reply, its checks and refinement."""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from typing import Any

from engine.config import add_config_options, load_config
from engine.events import Event, ReplyDone, Token, TurnError
from engine.state import Candidate, Check, TurnState
from kgstore.errors import BadInput


def parser(command: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=f"kgchat {command}", description="Answer one question from the knowledge "
                                "graph: retrieval, reply, checks of its claims, and a refined reply when needed.")
    p.add_argument("question", help="the user's message")
    p.add_argument("--dialogue", metavar="FILE", help="earlier dialogue to replay first (JSON list or JSON Lines of "
                   "{speaker, text}, or a GraphWOZ file with --dialogue-id)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the streamed reply")
    add_config_options(p)
    return p


def candidate_json(c: Candidate) -> dict[str, Any]:
    return {"s": c.fact.s, "p": c.fact.p, "o": c.fact.o, "s_label": c.s_label, "p_label": c.p_label,
            "o_label": c.o_label, "text": c.text, "score": round(c.score, 4), "derived": c.derived}


def checks_json(checks: list[Check]) -> list[dict[str, Any]]:
    return [{"claim": c.claim, "verdict": c.verdict, "evidence": c.evidence, "reason": c.reason} for c in checks]


def turn_json(state: TurnState) -> dict[str, Any]:
    """DESIGN.md section 5: the retrieve turn, plus what answering added."""
    refined = None
    if state.refined:
        refined = dict(state.refined)
        refined["checks"] = checks_json(refined.get("checks") or [])
    return {
        "turn": state.turn, "speaker": state.speaker, "text": state.text, "rewritten": state.rewritten,
        "mentions": [{"text": m.text, "entity": m.entity, "label": m.label, "p": round(m.p, 4)} for m in state.mentions],
        "derived": [{"predicate": d.predicate, "args": d.args, "p": round(d.p, 4), "text": d.text} for d in state.derived],
        "retrieved": [candidate_json(c) for c in state.retrieved],
        "response": state.response, "cut": state.cut, "error": state.error,
        "checks": checks_json(state.checks), "fact_score": state.fact_score, "neip": state.neip,
        "refined": refined, "device": state.device,
        "timings_ms": {k: round(v, 1) for k, v in state.timings_ms.items()},
    }


def read_dialogue(path: str, dialogue_id: str | None) -> list[tuple[str, str]]:
    """(speaker, text) turns from a JSON list or JSON Lines of {speaker, text}, or from the log
    of one GraphWOZ dialogue (user: manual transcription, system: agent response)."""
    try:
        with open(path, encoding="utf-8") as f:
            raw = f.read()
    except OSError as exc:
        raise BadInput(f"--dialogue {path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        data = []
        for n, line in enumerate(raw.splitlines(), 1):
            if line.strip():
                try:
                    data.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise BadInput(f"--dialogue {path}:{n}: not JSON: {exc.msg}") from None
    if isinstance(data, dict):
        if not dialogue_id:
            raise BadInput(f"--dialogue {path}: a GraphWOZ file needs --dialogue-id")
        if dialogue_id not in data or not isinstance(data[dialogue_id], dict):
            raise BadInput(f"--dialogue {path}: no dialogue with id {dialogue_id!r}")
        turns = []
        for entry in data[dialogue_id].get("log") or []:
            user = entry.get("manual_transcription") or ""
            if user:
                turns.append(("user", str(user)))
            if entry.get("agent_response"):
                turns.append(("system", str(entry["agent_response"])))
        return turns
    if not isinstance(data, list):
        raise BadInput(f"--dialogue {path}: expected a JSON list of turns")
    turns = []
    for n, item in enumerate(data, 1):
        if (not isinstance(item, dict) or item.get("speaker") not in ("user", "system")
                or not isinstance(item.get("text"), str)):
            raise BadInput(f"--dialogue {path}: turn {n}: expected {{\"speaker\": \"user\"|\"system\", \"text\": ...}}")
        turns.append((item["speaker"], item["text"]))
    return turns


def main(argv: list[str], command: str = "ask") -> int:
    args = parser(command).parse_args(argv)
    config = load_config(args)
    if not args.question.strip():
        raise BadInput("question: empty message")
    from engine.llm import check_model, make_backend
    from engine.session import Session

    check_model(config)  # a bad model file fails here, before any knowledge is loaded
    turns = read_dialogue(args.dialogue, config.dialogue_id) if args.dialogue else []
    session = Session.open(config)
    llm = session.ctx.resource("llm", lambda: make_backend(config))
    for speaker, text in turns:
        if speaker == "system":
            session.system_turn(text)
        else:
            session.user_turn(text, answer=False)

    stream = not args.json
    first_token: list[float] = []
    start = time.perf_counter()

    def on_event(event: Event) -> None:
        if isinstance(event, Token):
            if not first_token:
                first_token.append((time.perf_counter() - start) * 1000.0)
            if stream:
                print(event.text, end="", flush=True)
        elif stream and isinstance(event, ReplyDone) and event.refined:
            print(f"\n[refined] {event.text}", end="", flush=True)
        elif isinstance(event, TurnError):
            print(f"kgchat: {event.stage}: {event.message}", file=sys.stderr)

    cancel = threading.Event()
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            result["state"] = session.user_turn(args.question, on_event=on_event, cancel=cancel)
        except BaseException as exc:  # re-raised in the main thread, where the CLI reports it
            result["error"] = exc

    worker = threading.Thread(target=work, name="ask-turn", daemon=True)
    worker.start()
    interrupted = False
    while worker.is_alive():
        try:
            worker.join(timeout=0.1)
        except KeyboardInterrupt:  # Ctrl-C: stop the reply, keep what came, mark it cut
            interrupted = True
            cancel.set()
    if "error" in result:
        raise result["error"]
    state: TurnState = result["state"]
    if args.json:
        out = turn_json(state)
        out["model"] = llm.name
        if first_token:
            out["timings_ms"]["first_token"] = round(first_token[0], 1)
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(" [cut]" if state.cut else "")
        if state.checks:
            score = "n/a" if state.fact_score is None else f"{state.fact_score:.2f}"
            neip = "n/a" if state.neip is None else f"{state.neip:.2f}"
            print(f"fact score {score}, NEIP {neip}, device {state.device}")
    return 130 if interrupted else 0
