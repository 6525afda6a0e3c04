"""GraphWOZ JSON: one object keyed by dialogue id, each with `task`, `data` (the office world)
and `log` (the turns). Reading the file and replaying a dialogue live here; turning `data` into
quads is `kgstore.loaders.graphwoz`. Also the plain dialogue files `kgchat retrieve --dialogue`
takes (a JSON list or JSON Lines of {"speaker", "text"})."""

from __future__ import annotations

import json
import re

from kgstore.errors import LoadError
from kgstore.fileio import json_value, load_error, read_text

SPEAKERS = ("user", "system")


def read_graphwoz(path: str) -> tuple[dict, str]:
    """The parsed file and its text (for line numbers in later errors)."""
    text = read_text(path)
    doc = json_value(path, text)
    if not isinstance(doc, dict) or not all(isinstance(v, dict) for v in doc.values()):
        raise LoadError(f"{path}: line 1: not a GraphWOZ file (expected an object of dialogues keyed by id)")
    if not doc:
        raise LoadError(f"{path}: line 1: no dialogues in the file")
    return doc, text


def dialogue_line(text: str, dialogue_id: str) -> int | None:
    """The line where a dialogue's key appears, to point errors at it."""
    match = re.search(rf'"{re.escape(json.dumps(dialogue_id)[1:-1])}"\s*:', text)
    return text.count("\n", 0, match.start()) + 1 if match else None


def select(doc: dict, path: str, dialogue_id: str | None) -> dict[str, dict]:
    if dialogue_id is None:
        return doc
    if dialogue_id not in doc:
        some = ", ".join(list(doc)[:5]) + (", ..." if len(doc) > 5 else "")
        raise LoadError(f"{path}: dialogue id '{dialogue_id}' is not in the file ({len(doc)} dialogues: {some})")
    return {dialogue_id: doc[dialogue_id]}


def require(dialogue: dict, key: str, path: str, text: str, dialogue_id: str, where: str = ""):
    if key not in dialogue:
        raise load_error(path, f"dialogue {dialogue_id}: {where}missing key '{key}'", dialogue_line(text, dialogue_id))
    return dialogue[key]


# Keys of a dialogue and of a log entry, in the published files and the generated ones; others
# are skipped with a warning (a newer release may add some).
DIALOGUE_KEYS = {"speaker", "log", "task", "data", "success", "now", "template"}
LOG_KEYS = {"alternative", "start_timestamp", "end_timestamp", "turn", "wav_id", "manual_transcription",
            "entities", "intents", "asr_entities", "agent_entities", "entity_spans", "agent_actions",
            "agent_response", "gold"}
TRANSCRIPTS = ("manual", "asr")
# Fields of a log entry that hold text (the published files have NaN in a few).
TEXT_FIELDS = ("manual_transcription", "agent_response", "entities", "asr_entities")


def hypotheses(entry: dict) -> list[str]:
    """The recognizer's n-best list of a log entry, best first (empty when it has none)."""
    alternatives = entry.get("alternative")
    if not isinstance(alternatives, list):
        return []
    return [a["transcript"] for a in alternatives if isinstance(a, dict) and isinstance(a.get("transcript"), str)]


def text_field(entry: dict, key: str) -> tuple[str | None, str]:
    """A field that should hold text: (the text, "") when it does; (None, what it holds instead)
    when the published file has NaN, null or a non-string there ("" for an absent field). A
    number becomes its digits, a transcriber may have typed "45" as a number."""
    if key not in entry or isinstance(entry[key], str):
        return entry.get(key), ""
    value = entry[key]
    if value is None:
        return None, "null"
    if isinstance(value, float) and value != value:
        return None, "NaN"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return format(value, "g"), f"the number {value!r}"
    return None, f"a {type(value).__name__}"


def read_dialogue(path: str, dialogue_id: str, transcript: str = "manual",
                  warnings: list[str] | None = None) -> list[dict]:
    """The turns of one GraphWOZ dialogue in order: each log entry gives the user turn and then
    the system turn (`agent_response`) when there is one. The user turn is the
    `manual_transcription` (transcript "manual"; the best ASR hypothesis when it has none) or the
    recognizer's best hypothesis (transcript "asr"; the other hypotheses go with it as
    `alternatives`). Gold annotations (`gold`, `entities`, `asr_entities`, `intents`,
    `agent_actions`) are kept. Unknown keys
    are skipped with a line in `warnings`."""
    if transcript not in TRANSCRIPTS:
        raise LoadError(f"transcript must be one of {', '.join(TRANSCRIPTS)}, not {transcript!r}")
    doc, text = read_graphwoz(path)
    dialogue = select(doc, path, dialogue_id)[dialogue_id]
    log = require(dialogue, "log", path, text, dialogue_id)
    if not isinstance(log, list):
        raise load_error(path, f"dialogue {dialogue_id}: 'log' must be a list of turns", dialogue_line(text, dialogue_id))
    seen: set[str] = set()

    def warn(message: str) -> None:
        if warnings is not None and message not in seen:
            seen.add(message)
            warnings.append(f"{path}: dialogue {dialogue_id}: {message}")

    for extra in sorted(set(dialogue) - DIALOGUE_KEYS):
        warn(f"unknown key '{extra}' skipped")
    turns: list[dict] = []
    for i, entry in enumerate(log):
        if not isinstance(entry, dict):
            raise load_error(path, f"dialogue {dialogue_id}: log[{i}] must be an object", dialogue_line(text, dialogue_id))
        for extra in sorted(set(entry) - LOG_KEYS):
            warn(f"unknown key '{extra}' in log entries skipped")
        nbest = hypotheses(entry)
        number = entry.get("turn", i)
        fields = {}
        for key in TEXT_FIELDS:
            fields[key], problem = text_field(entry, key)
            if problem:
                warn(f"turn {number}: '{key}' is {problem}, not text: "
                     + ("read as text" if fields[key] is not None else "taken as empty, the turn goes on"))
        manual = fields["manual_transcription"]
        user = nbest[0] if transcript == "asr" and nbest else manual
        if transcript == "asr" and not nbest and manual is not None:
            warn("log entries without recognizer hypotheses ('alternative') replayed from 'manual_transcription'")
        if user is None and nbest:
            user = nbest[0]
        if user is None:
            raise load_error(path, f"dialogue {dialogue_id}: log[{i}]: missing key 'manual_transcription' "
                             "(and no 'alternative')", dialogue_line(text, dialogue_id))
        turn = {"speaker": "user", "text": user, "turn": number}
        if transcript == "asr" and len(nbest) > 1:
            turn["alternatives"] = nbest[1:]
        if "gold" in entry:
            turn["gold"] = entry["gold"]
        for key in ("entities", "asr_entities"):
            if fields[key] is not None:
                turn[key] = fields[key]
        for key in ("intents", "agent_actions"):  # what the user asked and the wizard did, as annotated
            if isinstance(entry.get(key), str):
                turn[key] = entry[key]
        turns.append(turn)
        if fields["agent_response"]:
            turns.append({"speaker": "system", "text": fields["agent_response"], "turn": number})
    return turns


def read_dialogue_file(path: str) -> list[dict]:
    """A plain dialogue: a JSON list, or JSON Lines, of {"speaker": "user"|"system", "text": ...}."""
    text = read_text(path)
    stripped = text.lstrip()
    if stripped.startswith("["):
        items = json_value(path, text)
        if not isinstance(items, list):
            raise LoadError(f"{path}: not a list of turns")
        # (line number, None for a JSON list; index; turn)
        numbered: list[tuple[int | None, int, object]] = [(None, i, item) for i, item in enumerate(items)]
    elif stripped.startswith("{") and _is_graphwoz(path, text):
        raise LoadError(f"{path}: this is a GraphWOZ file: choose a dialogue with --dialogue-id")
    else:
        numbered = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            numbered.append((number, len(numbered), json_value(path, line, number)))
    turns = []
    for line_number, index, item in numbered:
        where = f"line {line_number}" if line_number else f"item {index}"
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            raise LoadError(f"{path}: {where}: each turn must be an object with a 'text' string")
        if item.get("speaker") not in SPEAKERS:
            raise LoadError(f"{path}: {where}: 'speaker' must be 'user' or 'system', not {item.get('speaker')!r}")
        turns.append(dict(item))
    if not turns:
        raise LoadError(f"{path}: no turns in the file")
    return turns


def _is_graphwoz(path: str, text: str) -> bool:
    try:
        doc = json_value(path, text)
    except LoadError:
        return False
    return isinstance(doc, dict) and "speaker" not in doc
