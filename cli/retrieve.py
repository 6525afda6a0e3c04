"""`kgchat retrieve`: replay a dialogue and print what each user turn retrieved.

System turns are recorded as given; nothing is generated. With `--json` the output is one
object in the shape of docs/design.md, "Headless interface" (the contract scripts rely on); notes about caps and
reasoning go to stderr so the object keeps exactly that shape.
"""

from __future__ import annotations

import sys

from engine.config import add_config_options, load_config
from engine.inert import json_text
from engine.options import ArgumentParser
from engine.turn_json import retrieval_json


def path_text(path: dict) -> str:
    """A relation path of `retrieve --json` as one line: "Kestrel Lane -> lead vocalist -> plays
    instrument: guitar" (<- for a relation followed backwards), its values counted."""
    steps = " ".join(f"{'->' if s['forward'] else '<-'} {s['label']}" for s in path["steps"])
    values = ", ".join(path["values"]) or "no value"
    count = f" ({path['total']} values)" if path["total"] > 1 else ""
    return f"{path['start_label']} {steps}: {values}{count}" + (f" [{path['cut']}]" if path["cut"] else "")


def read_turns(path: str, dialogue_id: str | None, transcript: str = "manual") -> list[dict]:
    """The turns to replay; a GraphWOZ log's unknown keys are reported on stderr and skipped."""
    from kgstore.loaders.graphwoz_json import read_dialogue, read_dialogue_file

    if not dialogue_id:
        return read_dialogue_file(path)
    warnings: list[str] = []
    turns = read_dialogue(path, dialogue_id, transcript, warnings)
    for line in warnings:
        print(f"kgchat: warning: {line}", file=sys.stderr)
    return turns


def main(argv: list[str], command: str = "retrieve") -> int:
    from engine.session import Session

    parser = ArgumentParser(prog=f"kgchat {command}", description=__doc__.split("\n")[0])
    parser.add_argument("--dialogue", required=True, metavar="FILE",
                        help="JSON list / JSON Lines of {speaker, text}, or a GraphWOZ file with --dialogue-id")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_config_options(parser)
    args = parser.parse_args(argv)
    config = load_config(args)
    turns = read_turns(args.dialogue, config.dialogue_id, config.transcript)
    from engine.stages.score.prepare import export_saying_so

    export_saying_so()
    session = Session.open(config)
    out = []
    for number, turn in enumerate(turns, start=1):
        if turn.get("speaker") == "system":
            if cut := session.system_turn(turn["text"]):
                print(f"kgchat: turn {number}: {cut}", file=sys.stderr)
            continue
        state = session.user_turn(turn["text"], answer=False, alternatives=turn.get("alternatives"))
        for note in (state.text_note, state.candidates_note, state.paths_note, state.retrieved_note,
                     state.reasoning_note, state.error):
            if note:
                print(f"kgchat: turn {state.turn}: {note}", file=sys.stderr)
        out.append(retrieval_json(state))
    if args.json:
        print(json_text({"turns": out}))
    else:
        if config.scorer in ("learned", "llm"):
            from engine.nlp.relevance import model_for

            print(f"relevance model: onnxruntime on {model_for(session.ctx).device}")
        for t in out:
            print(f"[{t['turn']}] {t['text']}")
            for m in t["mentions"]:
                print(f"    mention {m['text']!r} -> {m['label'] or m['entity'] or '?'} (p={m['p']})")
            for p in t["paths"]:
                print(f"    path {path_text(p)}")
            for r in t["retrieved"]:
                print(f"    {r['score']:.3f}  {r['text']}")
    return 0
