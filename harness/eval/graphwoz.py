"""Evaluation on the published GraphWOZ files: gold entity links and answer recall.

Each dialogue is replayed as `kgchat retrieve` would (its `data` as the only background, user
turns through retrieval, the wizard's replies recorded as said), from the manual transcriptions
or from the recognizer's best hypotheses (`transcript="asr"`, the other hypotheses alongside).

Linking scores the gold `entities` of each user turn ("Mark Morris : @speaker, Philosophy group
: Philosophy"; from `asr_entities` when replaying ASR, whose mentions are the words the
recognizer heard): a gold pair is right when a mention detected on the same words refers to the
entity with that label (or id), for `@speaker` to the session's speaker, for `@newevent` to a
meeting the user arranges in the dialogue graph. A gold mention whose words are not in the
replayed text counts as missed. Figures are given by kind of gold: KG entity, speaker, new event;
an annotation that names no entity (a type request in braces) is not scored and is counted.

Answer recall: the KG values (people, groups, rooms and events by name; phones, e-mails, times)
that the wizard's reply states, and the share of them present in the facts retrieved for the
user turn the reply answers; beside it, the same share for the top-k (k=10) facts of the same
scored candidates. Recall is also given per situation of the turn, read from the annotations of
what the user asked (`intents`) and the wizard did (`agent_actions`): options (what is free or
possible), confirmation of the meeting being arranged (the user agrees, the wizard creates, sets
or confirms), groups and contacts (a group's members, phones and e-mails), other; and the
number of facts retrieved per user turn (median, p90).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from engine.state import TurnState
from kgstore import vocab

_SPACE = re.compile(r"\s+")


def norm(text: str) -> str:
    return _SPACE.sub(" ", re.sub(r"[^\w@+.:' -]", " ", text.lower())).strip()


GOLD_KINDS = ("KG entity", "speaker", "new event")
TOPK_BESIDE = 10
# A comma inside braces (a type request's slots) does not end an item.
_ITEM = re.compile(r"(?:[^,{]|\{[^}]*\}?)+")


def gold_pairs(annotation) -> list[tuple[str, str]]:
    """"words : label, words : label" -> [(words, label)]; items without a label are skipped.
    Labels are read as the annotators wrote them ("@ speaker" is "@speaker")."""
    if not isinstance(annotation, str):
        return []
    pairs = []
    for item in _ITEM.findall(annotation):
        words, sep, label = item.partition(" : ")
        label = label.strip()
        if label.startswith("@"):
            label = "@" + label[1:].replace(" ", "").lower()
        if sep and words.strip() and label:
            pairs.append((words.strip(), label))
    return pairs


def gold_kind(label: str) -> str | None:
    """The kind of a gold label, None for an annotation that names no entity ("{type=...}")."""
    if label == "@speaker":
        return "speaker"
    if label == "@newevent":
        return "new event"
    if label.startswith(("@", "{")):
        return None
    return "KG entity"


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


SITUATIONS = ("meeting confirmation", "options", "groups and contacts", "other")
_ACT = re.compile(r"(\w+)\s*\(")
_AGREES = frozenset({"affirm", "confirm", "accept"})


def situation(intents: str, actions: str, arranging: bool, kinds: list[str]) -> str:
    """The situation of a user turn and the reply to it, from their annotated intents and actions
    ("request_availability", "InformAvailability", "SuggestSetLocation": options; "affirm",
    "CreateEvent", "AddAttendees", "SetTime" while a meeting is being arranged: its confirmation;
    "request_group_members", "SuggestContact", or a reply stating phones or e-mails: groups and
    contacts). `kinds` are the kinds of the values the reply states."""
    names = [a.lower() for a in _ACT.findall(f"{intents} {actions}")]
    if any("availab" in a or (a.startswith("suggest") and "contact" not in a) for a in names):
        return "options"
    if arranging and any(a in _AGREES or a.startswith(("create", "add", "set", "confirm", "requestconfirm"))
                         for a in names):
        return "meeting confirmation"
    if any(w in a for a in names for w in ("group", "contact", "member")) or {"phone", "email"} & set(kinds):
        return "groups and contacts"
    return "other"


@dataclass
class TurnResult:
    dialogue_id: str
    turn: int
    text: str
    links: list[dict] = field(default_factory=list)  # {mention, gold, got, ok}
    answers: list[dict] = field(default_factory=list)  # {value, kind, found}
    note: str = ""  # what reasoning left out (the budget ran out, a cut), as the turn reported it
    facts: int = 0  # facts retrieved
    situation: str = "other"


def _start_time(dialogue: dict) -> str | None:
    log = dialogue.get("log") or []
    stamp = log[0].get("start_timestamp") if log and isinstance(log[0], dict) else None
    if isinstance(stamp, int | float):
        return datetime.fromtimestamp(stamp, UTC).replace(tzinfo=None, microsecond=0).isoformat()
    return dialogue.get("now")


def _link_result(ctx, state: TurnState, words: str, label: str, dialogue_id: str) -> dict:
    lower = state.text.lower()
    at = lower.find(words.lower())
    mentions = [m for m in state.mentions if m.kind != "time" and m.entity]
    if at >= 0:
        found = [m for m in mentions if m.start < at + len(words) and at < m.end]
    else:  # "these members" heard as "this members": the same head word
        head = words.lower().split()[-1]
        found = [m for m in mentions if head in m.text.lower().split()]
    got = found[0].entity if found else None
    kind = gold_kind(label)
    if kind == "speaker":
        ok = got is not None and got == state.speaker_entity
    elif kind == "new event":
        ok = got is not None and vocab.is_meeting_node(got)
    else:  # a label, or the id of one of several events of the same name; "them": any of those meant
        ok = any(norm(ctx.store.label(e)) == norm(label) or e == vocab.office_entity(dialogue_id, "event", label)
                 for e in ([got] if got else []) + (found[0].together if found else []))
    return {"mention": words, "gold": label, "kind": kind, "got": ctx.store.label(got) if got else None, "ok": ok}


def _retrieved_text(facts) -> str:
    text = " ".join(norm(" ".join(str(x) for x in (c.text, c.s_label, c.o_label, c.fact.o))) for c in facts)
    return f" {text} "


def replay(path: str, dialogue_ids: list[str] | None = None, transcript: str = "manual",
           warnings: list[str] | None = None, **options) -> list[TurnResult]:
    """Replay the dialogues of a published GraphWOZ file and score every user turn; what the
    file holds where text belongs (NaN, null) goes into `warnings`."""
    from engine.config import Config
    from engine.session import Session
    from engine.stages.retrieve import select_topk
    from kgstore.loaders.graphwoz_json import read_dialogue, read_graphwoz

    doc, _ = read_graphwoz(path)
    results = []
    for did in dialogue_ids or list(doc):
        dialogue = doc[did]
        values = kg_values(dialogue.get("data") or {})
        config = Config(kg=[path], dialogue_id=did, memory=True, demo="none", now=_start_time(dialogue),
                        transcript=transcript, **options)
        session = Session.open(config)
        turns = read_dialogue(path, did, transcript, warnings)
        last: TurnResult | None = None
        retrieved = topk = ""
        asked: dict = {}
        arranging = False
        for turn in turns:
            if turn["speaker"] == "system":
                session.system_turn(turn["text"])
                if last is not None:
                    last.answers = [{"value": v, "kind": values[v], "found": v in retrieved, "topk": v in topk}
                                    for v in stated(turn["text"], values)]
                    last.situation = situation(asked.get("intents", ""), asked.get("agent_actions", ""), arranging,
                                               [a["kind"] for a in last.answers])
                continue
            state = session.user_turn(turn["text"], answer=False, alternatives=turn.get("alternatives"))
            gold = turn.get("asr_entities" if transcript == "asr" else "entities")
            last = TurnResult(did, state.turn, state.text,
                              [_link_result(session.ctx, state, w, lab, did) for w, lab in gold_pairs(gold)],
                              note=state.reasoning_note, facts=len(state.retrieved))
            asked, arranging = turn, state.meeting is not None
            retrieved = _retrieved_text(state.retrieved)
            topk = _retrieved_text(select_topk(state.candidates, TOPK_BESIDE).facts)
            results.append(last)
    return results


def _share(right: int, total: int) -> float | None:
    return round(right / total, 4) if total else None


def _quantile(values: list[int], q: float) -> float | None:
    """The value at quantile `q` (nearest rank), None for none."""
    if not values:
        return None
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))])


def _recall(answers: list[dict]) -> dict:
    found, topk = sum(x["found"] for x in answers), sum(x["topk"] for x in answers)
    return {"values": len(answers), "found": found, "recall": _share(found, len(answers)),
            f"topk_{TOPK_BESIDE}_found": topk, f"topk_{TOPK_BESIDE}_recall": _share(topk, len(answers))}


def summary(results: list[TurnResult]) -> dict:
    links = [x for r in results for x in r.links if x["kind"] is not None]
    answers = [x for r in results for x in r.answers]
    facts = [r.facts for r in results]
    by_kind = {}
    for kind in GOLD_KINDS:
        these = [x for x in links if x["kind"] == kind]
        by_kind[kind] = {"gold": len(these), "correct": sum(x["ok"] for x in these),
                         "accuracy": _share(sum(x["ok"] for x in these), len(these))}
    return {
        "dialogues": len({r.dialogue_id for r in results}),
        "user_turns": len(results),
        "turns_with_reasoning_note": sum(bool(r.note) for r in results),
        "linking": {"gold": len(links), "correct": sum(x["ok"] for x in links),
                    "accuracy": _share(sum(x["ok"] for x in links), len(links)), "by_kind": by_kind,
                    "not_scored": sum(x["kind"] is None for r in results for x in r.links)},
        "answer_recall": {**_recall(answers),
                          "by_situation": {s: _recall([x for r in results if r.situation == s for x in r.answers])
                                           for s in SITUATIONS}},
        "facts_per_turn": {"median": _quantile(facts, 0.5), "p90": _quantile(facts, 0.9)},
        "errors": [{"dialogue": r.dialogue_id, "turn": r.turn, "text": r.text, **x}
                   for r in results for x in r.links if not x["ok"] and x["kind"] is not None],
        "missed_answers": [{"dialogue": r.dialogue_id, "turn": r.turn, "text": r.text, "situation": r.situation, **x}
                           for r in results for x in r.answers if not x["found"]],
    }


def graphwoz_options(parser, what: str) -> None:
    """The options that switch an office evaluation to a published GraphWOZ file, for its --help
    (the file's own options are listed by `--graphwoz FILE --help`)."""
    from kgstore.loaders.graphwoz_json import TRANSCRIPTS

    parser.add_argument("--graphwoz", metavar="FILE",
                        help=f"score a published GraphWOZ file instead: its {what}; "
                             "--graphwoz FILE --help lists the options of that evaluation")
    parser.add_argument("--transcript", choices=TRANSCRIPTS + ("both",),
                        help="with --graphwoz: replay the manual transcriptions (default), the recognizer's "
                             "best hypotheses (asr), or both")


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
    parser.add_argument("--transcript", choices=TRANSCRIPTS + ("both",), default="manual",
                        help="replay the manual transcriptions, the recognizer's best hypotheses, or both "
                             "(one row each)")
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
    transcripts = TRANSCRIPTS if args.transcript == "both" else (args.transcript,)
    warnings: list[str] = []
    results = {t: summary(replay(args.graphwoz, args.dialogue_id, t, warnings, retriever=args.retriever,
                                 scorer=args.scorer, k=args.k, reason_timeout_ms=args.reason_timeout_ms))
               for t in transcripts}
    for line in dict.fromkeys(warnings):
        print(f"warning: {line}", file=sys.stderr)
    settings = {"file": args.graphwoz, "transcript": args.transcript, "retriever": args.retriever,
                "scorer": args.scorer, "k": args.k, "reason_timeout_ms": args.reason_timeout_ms}
    key, misses = ("linking", "errors") if metric == "links" else ("answer_recall", "missed_answers")
    other = "answer_recall" if metric == "links" else "linking"
    if args.json:
        # Both figures come from one replay: the other one goes along ("also").
        rows = {t: {key: r[key], "dialogues": r["dialogues"], "user_turns": r["user_turns"],
                    "turns_with_reasoning_note": r["turns_with_reasoning_note"], "facts_per_turn": r["facts_per_turn"],
                    misses: r[misses][:args.errors],
                    "also": {other: r[other]}}
                for t, r in results.items()}
        # One transcript keeps the flat shape scripts read; both nest one object per transcript.
        out = rows[transcripts[0]] if len(transcripts) == 1 else {"transcripts": rows}
        print(json.dumps({**out, "settings": settings, "warnings": list(dict.fromkeys(warnings))}))
        return 0
    first = next(iter(results.values()))
    print(f"GraphWOZ {args.graphwoz}: {first['dialogues']} dialogues, {first['user_turns']} user turns")
    for t, result in results.items():
        print(f"{t} transcripts ({result['turns_with_reasoning_note']} turns with a reasoning note: the "
              f"{args.reason_timeout_ms} ms budget hit, a failure, or a cut)")
        if metric == "links":
            r = result["linking"]
            print(f"  gold entity links: {r['correct']}/{r['gold']} right, accuracy {_fmt(r['accuracy'])}"
                  + (f" ({r['not_scored']} annotations that name no entity not scored)" if r["not_scored"] else ""))
            for kind, row in r["by_kind"].items():
                print(f"    {kind:<10} {row['correct']:>4}/{row['gold']:<4} {_fmt(row['accuracy'])}")
        r = result["answer_recall"]
        if metric != "links":
            print(f"  KG values in the wizard's replies: {r['found']}/{r['values']} in the retrieved facts, recall "
                  f"{_fmt(r['recall'])} ({args.retriever}, {args.scorer}, k={args.k}); top-k k={TOPK_BESIDE} of "
                  f"the same scores: {r[f'topk_{TOPK_BESIDE}_found']}/{r['values']}, "
                  f"{_fmt(r[f'topk_{TOPK_BESIDE}_recall'])}")
        print("  answer recall by situation:")
        for name, row in r["by_situation"].items():
            print(f"    {name:<20} {row['found']:>4}/{row['values']:<4} {_fmt(row['recall'])}")
        per_turn = result["facts_per_turn"]
        print(f"  facts retrieved per turn: median {_fmt(per_turn['median'])}, p90 {_fmt(per_turn['p90'])}")
        for e in result[misses][:args.errors]:
            what = (f"{e['mention']!r}: gold {e['gold']} got {e['got']}" if metric == "links"
                    else f"{e['kind']} {e['value']!r}")
            print(f"  {e['dialogue']} t{e['turn']} {what}  | {e['text']}", file=sys.stderr)
    return 0


def _fmt(x: float | None) -> str:
    return "-" if x is None else format(x, ".3f")
