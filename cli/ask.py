"""`kgchat ask`: one user turn headless — retrieval, the streamed reply, its checks and refinement."""

from __future__ import annotations

import signal
import sys
import threading
import time
from typing import Any

from engine.config import add_config_options, load_config
from engine.events import AnswerShown, Event, ReplyDone, Token, TurnError
from engine.inert import json_text
from engine.options import ArgumentParser
from engine.state import TurnState
from engine.turn_json import answer_json
from kgstore.errors import BadInput
from kgstore.loaders import one_line


def parser(command: str) -> ArgumentParser:
    p = ArgumentParser(prog=f"kgchat {command}", description="Answer one question from the knowledge "
                                "graph: retrieval, reply, checks of its claims, and a refined reply when needed.")
    p.add_argument("question", help="the user's message")
    p.add_argument("--dialogue", metavar="FILE", help="earlier dialogue to replay first (JSON list or JSON Lines of "
                   "{speaker, text}, or a GraphWOZ file with --dialogue-id)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the streamed reply")
    add_config_options(p)
    return p


def main(argv: list[str], command: str = "ask") -> int:
    args = parser(command).parse_args(argv)
    config = load_config(args)
    if not args.question.strip():
        raise BadInput("question: empty message")
    from engine.llm import check_model, make_backend
    from engine.session import Session

    check_model(config)  # a bad model file fails here, before any knowledge is loaded
    from engine.stages.score.prepare import export_saying_so

    export_saying_so()
    from cli.retrieve import read_turns

    turns = read_turns(args.dialogue, config.dialogue_id) if args.dialogue else []
    session = Session.open(config)
    llm = session.ctx.resource("llm", lambda: make_backend(config))
    for number, turn in enumerate(turns, start=1):
        if turn.get("speaker") == "system":
            cut = session.system_turn(turn["text"])
        else:
            cut = session.user_turn(turn["text"], answer=False).text_note
        if cut:
            print(f"kgchat: note: turn {number}: {cut}", file=sys.stderr)

    stream = not args.json
    first_token: list[float] = []
    start = time.perf_counter()

    def on_event(event: Event) -> None:
        if isinstance(event, Token):
            if not first_token:
                first_token.append((time.perf_counter() - start) * 1000.0)
            if stream:
                print(event.text, end="", flush=True)
        elif stream and isinstance(event, AnswerShown) and event.source in ("facts", "not_found"):
            tag = "\n[composed from the knowledge graph; the model's reply above is not the answer] " if first_token else ""
            print(f"{tag}{event.text}", end="", flush=True)
        elif stream and isinstance(event, ReplyDone) and event.refined:
            print(f"\n[refined] {event.text}", end="", flush=True)
        elif isinstance(event, TurnError):  # generate failing fails the command; a failed refinement does not
            level = "error" if event.stage == "generate" else "warning"
            print(f"kgchat: {level}: {event.stage}: {one_line(event.message)}", file=sys.stderr)

    cancel = threading.Event()
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            result["state"] = session.user_turn(args.question, on_event=on_event, cancel=cancel)
        except BaseException as exc:  # re-raised in the main thread, where the CLI reports it
            result["error"] = exc

    interrupted = threading.Event()

    def on_sigint(signum, frame) -> None:
        # Ctrl-C: stop the reply, keep what came, mark it cut; a second Ctrl-C aborts outright
        interrupted.set()
        cancel.set()
        signal.signal(signal.SIGINT, previous)

    # The turn runs in a worker: Python handles signals only in the main thread and only between
    # bytecodes, and the main thread must not sit inside a long llama_decode when Ctrl-C comes.
    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        worker = threading.Thread(target=work, name="ask-turn", daemon=True)
        worker.start()
        worker.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    if "error" in result:
        raise result["error"]
    state: TurnState = result["state"]
    from engine.checking import truncation_note

    # what a cap, the reasoning budget or the path search cut, as `retrieve` says it (stderr: the JSON keeps its shape)
    for note in (state.text_note, state.candidates_note, state.reasoning_note, truncation_note(state, config.max_claims),
                 state.paths_note, state.retrieved_note, state.reply_note):
        if note:
            print(f"kgchat: note: {note}", file=sys.stderr)
    if args.json:
        out = answer_json(state)
        out["model"] = llm.name
        if first_token:
            out["timings_ms"]["first_token"] = round(first_token[0], 1)
        print(json_text(out))
    else:
        print(" [cut]" if state.cut else "")
        if state.composed:
            print(f"answer: kgchat's own, from the knowledge graph ({state.composed.reason})")
        if state.checks:
            score = "n/a" if state.fact_score is None else f"{state.fact_score:.2f}"
            neip = "n/a" if state.neip is None else f"{state.neip:.2f}"
            print(f"fact score {score}, NEIP {neip}, device {state.device}")
    if interrupted.is_set():
        return 130
    return 2 if state.error else 0  # the model failed: its one line is on stderr already
