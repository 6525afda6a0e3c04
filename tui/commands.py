"""The command palette's entries (Ctrl+P): every command of the app, the settings with each of
their choices, and what each one does. Textual lists them beside its own system commands."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from textual.app import SystemCommand

from engine.config import AnswerMode, Config, Retriever, Rewrite, Scorer

ANSWER_HELP = {AnswerMode.AUTO: "The model's reply, or one composed from the KG when the checks reject it",
               AnswerMode.LLM: "Always the model's reply",
               AnswerMode.FACTS: "Always an answer composed from the KG's facts"}
KNOWLEDGE_TABS = (("tab-subgraph", "Subgraph"), ("tab-reasoning", "Reasoning"), ("tab-facts", "Facts"),
                  ("tab-checks", "Checks"))


class Commands(Protocol):
    """What the palette runs: the settings and actions of the app."""

    config: Config
    export_dir: Path

    def set_option(self, name: str, value: Any) -> None: ...
    def action_load_kg(self) -> None: ...
    def action_sparql(self) -> None: ...
    def action_choose_model(self) -> None: ...
    def action_toggle_rewrite(self) -> None: ...
    def action_new_session(self) -> None: ...
    def action_sessions(self) -> None: ...
    def action_export(self, kinds: tuple[str, ...] = ...) -> None: ...
    def action_copy_reply(self) -> None: ...
    def action_toggle_pane(self) -> None: ...
    def action_show_tab(self, tab: str) -> None: ...
    def action_help(self) -> None: ...


def palette(app: Commands) -> Iterator[SystemCommand]:
    yield SystemCommand("Load KG file…", "Load an RDF/CSV/JSON knowledge graph file into the store", app.action_load_kg)
    yield SystemCommand("SPARQL console", "Query the store and read the rows in a table", app.action_sparql)
    for r in Retriever:
        yield SystemCommand(f"Retriever: {r}", f"Retrieve the subgraph with {r} from the next turn on",
                            lambda r=r: app.set_option("retriever", r))
    for s in Scorer:
        yield SystemCommand(f"Scorer: {s}", f"Score candidate facts with the {s} scorer",
                            lambda s=s: app.set_option("scorer", s))
    for k in (3, 5, 8, 10, 15):
        yield SystemCommand(f"k = {k}", f"Keep {k} facts (topk) / give prizes to {k} edges (PCST)",
                            lambda k=k: app.set_option("k", k))
    for a in AnswerMode:
        yield SystemCommand(f"Answer: {a}", ANSWER_HELP[a], lambda a=a: app.set_option("answer", a))
    yield SystemCommand("Choose model…", "Pick a GGUF model file; it loads in the background", app.action_choose_model)
    state = "off" if app.config.rewrite == Rewrite.LLM else "on"
    yield SystemCommand(f"LLM rewrite: turn {state}", "Resolve references with the model instead of the rules",
                        app.action_toggle_rewrite)
    yield SystemCommand("New session", "Start a fresh conversation on the same store", app.action_new_session)
    yield SystemCommand("Sessions…", "List past sessions and reopen one", app.action_sessions)
    yield SystemCommand("Export conversation (Markdown + JSON)", f"Write kgchat-<session>.md/.json to {app.export_dir}",
                        app.action_export)
    yield SystemCommand("Export conversation as Markdown", "Only the .md file", lambda: app.action_export(("md",)))
    yield SystemCommand("Export conversation as JSON", "Only the .json file", lambda: app.action_export(("json",)))
    yield SystemCommand("Copy last reply", "To the clipboard (OSC 52)", app.action_copy_reply)
    yield SystemCommand("Toggle knowledge pane", "Hide or show the right-hand pane", app.action_toggle_pane)
    for tab, title in KNOWLEDGE_TABS:
        yield SystemCommand(f"Show {title}", f"The {title} tab of the knowledge pane",
                            lambda tab=tab: app.action_show_tab(tab))
    yield SystemCommand("Help: keys", "Every key and its config name", app.action_help)
