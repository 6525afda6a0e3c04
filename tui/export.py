"""Export a conversation, with what each turn retrieved, derived and checked, to Markdown or
JSON. The JSON turn objects use the field names of `kgchat ask --json` (docs/design.md,
"Headless interface")."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from engine.inert import inert, json_text
from engine.state import TurnState
from engine.turn_json import answer_json


@dataclass
class ChatTurn:
    """One exchange as the app shows it: the user's text, the reply, and the engine's state."""

    user: str
    reply: str = ""
    cut: bool = False
    errors: list[str] = field(default_factory=list)
    state: TurnState | None = None


def turn_json(t: ChatTurn) -> dict[str, Any]:
    """The turn as `kgchat ask --json` prints it, with what the app saw (the reply as shown,
    errors) and what a reader of the export wants beside it (mention kinds, rules, bridges)."""
    s = t.state
    out: dict[str, Any] = {}
    if s is not None:
        out = answer_json(s)
        for row, m in zip(out["mentions"], s.mentions, strict=False):
            row["kind"] = m.kind
        for row, d in zip(out["derived"], s.derived, strict=False):
            row["rule"] = d.rule
        out["bridging_nodes"] = s.bridging_nodes
    out.update({"text": t.user, "response": t.reply, "cut": t.cut})
    if t.errors:
        out["errors"] = list(t.errors)
    return out


def to_json(session_id: str, turns: list[ChatTurn], settings: dict[str, Any]) -> str:
    doc = {"session": session_id, "exported": datetime.now().isoformat(timespec="seconds"),
           "settings": settings, "turns": [turn_json(t) for t in turns]}
    return json_text(doc, indent=2, default=str)


_MARK = {"supported": "✓", "contradicted": "✗", "nei": "?"}


def _score(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.2f}"


def to_markdown(session_id: str, turns: list[ChatTurn], settings: dict[str, Any]) -> str:
    lines = [f"# kgchat conversation {session_id}", "",
             "Settings: " + ", ".join(f"{k} = {v}" for k, v in settings.items()), ""]
    for i, t in enumerate(turns, 1):
        lines += [f"## Turn {i}", "", "**You:** " + t.user.replace("\n", "  \n"), ""]
        reply = t.reply or "_(no reply)_"
        source = t.state.answer_source if t.state is not None else ""
        who = {"facts": "kgchat (composed from the knowledge graph)", "not_found": "kgchat (nothing found)"}
        lines += [f"**{who.get(source, 'kgchat')}:** " + reply + (" _(cut)_" if t.cut else ""), ""]
        lines += [f"> error: {e}" for e in t.errors]
        s = t.state
        if s is None:
            continue
        if s.mentions:
            lines += ["### Mentions", ""]
            lines += [f"- “{m.text}” → {m.label or m.entity or 'unlinked'}"
                      + (f" (p = {m.p:.2f})" if m.entity else "") for m in s.mentions]
            lines.append("")
        if s.derived:
            lines += ["### Derived facts", ""]
            lines += [f"- {d.text or d.predicate + '(' + ', '.join(d.args) + ')'} (p = {d.p:.2f}"
                      + (f", rule {d.rule}" if d.rule else "") + ")"
                      + (" — restates a KG fact, listed once below" if d.restates else "") for d in s.derived]
            lines.append("")
        if s.retrieved:
            lines += ["### Retrieved facts", "", "| fact | score | derived |", "| --- | --- | --- |"]
            lines += [f"| {(c.text or ' '.join((c.s_label, c.p_label, c.o_label))).replace('|', '/')} "
                      f"| {c.score:.2f} | {'yes' if c.derived else ('also derived' if c.also_derived else '')} |"
                      for c in s.retrieved]
            lines.append("")
        if s.checks:
            lines += ["### Checks", "", f"Fact score {_score(s.fact_score)}, NEIP {_score(s.neip)}", ""]
            lines += [f"- {_MARK.get(c.verdict, c.verdict)} {c.claim}" for c in s.checks]
            lines.append("")
        if s.refined and s.refined.response:
            lines += ["### Refined reply", "", s.refined.response, ""]
        if s.composed and s.response:
            lines += ["### The model's reply (not shown: " + s.composed.reason + ")", "", s.response, ""]
    return inert("\n".join(lines).rstrip() + "\n")  # a viewer or `cat` acts on no control from the data


def write_export(directory: Path, session_id: str, turns: list[ChatTurn], settings: dict[str, Any],
                 kinds: tuple[str, ...] = ("md", "json")) -> list[Path]:
    """Write `kgchat-<session>.md` / `.json` into `directory`; returns the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    render = {"md": to_markdown, "json": to_json}
    paths = []
    for kind in kinds:
        path = directory / f"kgchat-{session_id}.{kind}"
        path.write_text(render[kind](session_id, turns, settings), encoding="utf-8")
        paths.append(path)
    return paths
