"""Evaluation on the published GraphWOZ files: gold entity links and answer recall.

Each dialogue is replayed as `kgchat retrieve` would (its `data` as the only background, user
turns through retrieval, the wizard's replies recorded as said), from the manual transcriptions
or from the recognizer's best hypotheses (`transcript="asr"`, the other hypotheses alongside).

Linking scores the gold `entities` of each user turn ("Mark Morris : @speaker, Philosophy group
: Philosophy"; from `asr_entities` when replaying ASR, whose mentions are the words the
recognizer heard): a gold pair is right when a mention detected on the same words refers to the
entity with that label, or for `@speaker` to the session's speaker. A gold mention whose words
are not in the replayed text counts as missed.

Answer recall: the KG values (people, groups, rooms and events by name; phones, e-mails, times)
that the wizard's reply states, and the share of them present in the facts retrieved for the
user turn the reply answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

from engine.state import TurnState

_SPACE = re.compile(r"\s+")


def norm(text: str) -> str:
    return _SPACE.sub(" ", re.sub(r"[^\w@+.:' -]", " ", text.lower())).strip()


def gold_pairs(annotation) -> list[tuple[str, str]]:
    """"words : label, words : label" -> [(words, label)]; items without a label are skipped."""
    if not isinstance(annotation, str):
        return []
    pairs = []
    for item in annotation.split(","):
        words, sep, label = item.partition(" : ")
        if sep and words.strip() and label.strip():
            pairs.append((words.strip(), label.strip()))
    return pairs


def kg_values(data: dict) -> dict[str, str]:
    """The values a reply may state, normalized -> kind: names of people, groups, rooms and
    events, phones, e-mails and HH:MM times."""
    values: dict[str, str] = {}
    for person in data.get("people") or []:
        if isinstance(person, dict):
            values[norm(str(person.get("name", "")))] = "name"
            for key in ("phone", "email"):
                if person.get(key):
                    values[norm(str(person[key]))] = key
    for key in ("groups", "rooms"):
        for name in (data.get(key) or {}):
            values[norm(str(name.get("name") if isinstance(name, dict) else name))] = key[:-1]
    for event in data.get("events") or []:
        if isinstance(event, dict):
            values[norm(str(event.get("name", "")))] = "event"
            for key in ("start_time", "end_time"):
                if event.get(key):
                    values[str(event[key])[:5]] = "time"
    values.pop("", None)
    return values


def stated(reply: str, values: dict[str, str]) -> list[str]:
    """The values a reply states (whole words; a name inside a longer one counts once)."""
    text = f" {norm(reply)} "
    found = [v for v in values if re.search(rf"(?<![\w+@.]){re.escape(v)}(?![\w@])", text)]
    return [v for v in found if not any(v != w and v in w for w in found)]


@dataclass
class TurnResult:
    dialogue_id: str
    turn: int
    text: str
    links: list[dict] = field(default_factory=list)  # {mention, gold, got, ok}
    answers: list[dict] = field(default_factory=list)  # {value, kind, found}
    note: str = ""  # why reasoning gave nothing (the budget ran out), as the turn reported it


def _start_time(dialogue: dict) -> str | None:
    log = dialogue.get("log") or []
    stamp = log[0].get("start_timestamp") if log and isinstance(log[0], dict) else None
    if isinstance(stamp, int | float):
        return datetime.fromtimestamp(stamp, timezone.utc).replace(tzinfo=None, microsecond=0).isoformat()
    return dialogue.get("now")


def _link_result(ctx, state: TurnState, words: str, label: str) -> dict:
    lower = state.text.lower()
    at = lower.find(words.lower())
    mentions = [m for m in state.mentions if m.kind != "time" and m.entity]
    if at >= 0:
        found = [m for m in mentions if m.start < at + len(words) and at < m.end]
    else:  # "these members" heard as "this members": the same head word
        head = words.lower().split()[-1]
        found = [m for m in mentions if head in m.text.lower().split()]
    got = found[0].entity if found else None
    if label == "@speaker":
        ok = got is not None and got == state.speaker_entity
    else:
        ok = got is not None and norm(ctx.store.label(got)) == norm(label)
    return {"mention": words, "gold": label, "got": ctx.store.label(got) if got else None, "ok": ok}


def replay(path: str, dialogue_ids: list[str] | None = None, transcript: str = "manual",
           **options) -> list[TurnResult]:
    """Replay the dialogues of a published GraphWOZ file and score every user turn."""
    from engine.config import Config
    from engine.session import Session
    from kgstore.loaders.graphwoz_json import read_dialogue, read_graphwoz

    doc, _ = read_graphwoz(path)
    results = []
    for did in dialogue_ids or list(doc):
        dialogue = doc[did]
        values = kg_values(dialogue.get("data") or {})
        config = Config(kg=[path], dialogue_id=did, memory=True, demo="none", now=_start_time(dialogue),
                        transcript=transcript, **options)
        session = Session.open(config)
        turns = read_dialogue(path, did, transcript)
        last: TurnResult | None = None
        retrieved = ""
        for turn in turns:
            if turn["speaker"] == "system":
                session.system_turn(turn["text"])
                if last is not None:
                    last.answers = [{"value": v, "kind": values[v], "found": v in retrieved}
                                    for v in stated(turn["text"], values)]
                continue
            state = session.user_turn(turn["text"], answer=False, alternatives=turn.get("alternatives"))
            gold = turn.get("asr_entities" if transcript == "asr" else "entities")
            last = TurnResult(did, state.turn, state.text,
                              [_link_result(session.ctx, state, w, lab) for w, lab in gold_pairs(gold)],
                              note=state.reasoning_note)
            retrieved = " ".join(norm(" ".join(str(x) for x in (c.text, c.s_label, c.o_label, c.fact.o)))
                                 for c in state.retrieved)
            retrieved = f" {retrieved} "
            results.append(last)
    return results


def summary(results: list[TurnResult]) -> dict:
    links = [x for r in results for x in r.links]
    answers = [x for r in results for x in r.answers]
    return {
        "dialogues": len({r.dialogue_id for r in results}),
        "user_turns": len(results),
        "turns_with_reasoning_note": sum(bool(r.note) for r in results),
        "linking": {"gold": len(links), "correct": sum(x["ok"] for x in links),
                    "accuracy": round(sum(x["ok"] for x in links) / len(links), 4) if links else None},
        "answer_recall": {"values": len(answers), "found": sum(x["found"] for x in answers),
                          "recall": round(sum(x["found"] for x in answers) / len(answers), 4) if answers else None},
        "errors": [{"dialogue": r.dialogue_id, "turn": r.turn, "text": r.text, **x}
                   for r in results for x in r.links if not x["ok"]],
        "missed_answers": [{"dialogue": r.dialogue_id, "turn": r.turn, "text": r.text, **x}
                           for r in results for x in r.answers if not x["found"]],
    }


def main(argv: list[str], command: str, metric: str) -> int:
    """`kgchat eval linking|retrieval --graphwoz FILE`: `metric` is "links" or "answers"."""
    import argparse
    import json
    import sys

    from engine.config import Config
    from kgstore.errors import BadInput
    from kgstore.loaders.graphwoz_json import TRANSCRIPTS, read_graphwoz

    parser = argparse.ArgumentParser(prog=f"kgchat {command}", description=__doc__.splitlines()[0])
    parser.add_argument("--graphwoz", required=True, metavar="FILE", help="a published GraphWOZ file")
    parser.add_argument("--dialogue-id", action="append", metavar="ID", help="only these dialogues (repeatable)")
    parser.add_argument("--transcript", choices=TRANSCRIPTS, default="manual",
                        help="replay the manual transcriptions or the recognizer's best hypotheses")
    parser.add_argument("--retriever", choices=("pcst", "topk"), default=Config.retriever)
    parser.add_argument("--scorer", choices=("learned", "bm25", "sbert"), default=Config.scorer)
    parser.add_argument("--k", type=int, default=Config.k)
    # A quality figure, not a speed one: a budget a loaded machine rarely hits (the count of
    # turns that hit it is printed).
    parser.add_argument("--reason-timeout-ms", type=int, default=2000)
    parser.add_argument("--errors", type=int, default=0, metavar="N", help="print the first N misses")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    doc, _ = read_graphwoz(args.graphwoz)
    for did in args.dialogue_id or []:
        if did not in doc:
            raise BadInput(f"{args.graphwoz}: dialogue id '{did}' is not in the file")
    result = summary(replay(args.graphwoz, args.dialogue_id, args.transcript, retriever=args.retriever,
                            scorer=args.scorer, k=args.k, reason_timeout_ms=args.reason_timeout_ms))
    settings = {"file": args.graphwoz, "transcript": args.transcript, "retriever": args.retriever,
                "scorer": args.scorer, "k": args.k, "reason_timeout_ms": args.reason_timeout_ms}
    key, misses = ("linking", "errors") if metric == "links" else ("answer_recall", "missed_answers")
    if args.json:
        print(json.dumps({key: result[key], "dialogues": result["dialogues"], "user_turns": result["user_turns"],
                          "turns_with_reasoning_note": result["turns_with_reasoning_note"], "settings": settings,
                          misses: result[misses][:args.errors]}))
        return 0
    print(f"GraphWOZ {args.graphwoz}: {result['dialogues']} dialogues, {result['user_turns']} user turns, "
          f"{args.transcript} transcripts ({result['turns_with_reasoning_note']} turns hit the "
          f"{args.reason_timeout_ms} ms reasoning budget or failed)")
    if metric == "links":
        r = result["linking"]
        print(f"gold entity links: {r['correct']}/{r['gold']} right, accuracy "
              f"{'-' if r['accuracy'] is None else format(r['accuracy'], '.3f')}")
    else:
        r = result["answer_recall"]
        print(f"KG values in the wizard's replies: {r['found']}/{r['values']} in the retrieved facts, recall "
              f"{'-' if r['recall'] is None else format(r['recall'], '.3f')} ({args.retriever}, {args.scorer}, k={args.k})")
    for e in result[misses][:args.errors]:
        what = f"{e['mention']!r}: gold {e['gold']} got {e['got']}" if metric == "links" else f"{e['kind']} {e['value']!r}"
        print(f"  {e['dialogue']} t{e['turn']} {what}  | {e['text']}", file=sys.stderr)
    return 0
