"""The first screen of a knowledge graph: what was loaded and questions to start with.

The example questions come from the KG itself (engine.overview); a click, or Enter on one, puts
it into the prompt, where the user may edit it before sending."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static

from engine.inert import inert
from engine.overview import Overview


class ExamplePicked(Message):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class ExampleQuestion(Static, can_focus=True):
    BINDINGS = [Binding("enter", "pick", "Use this question", show=False)]

    def __init__(self, text: str, **kwargs) -> None:
        super().__init__(Text("▸ " + inert(text)), classes="example", **kwargs)
        self.question = text

    def action_pick(self) -> None:
        self.post_message(ExamplePicked(self.question))

    def on_click(self) -> None:
        self.action_pick()


def summary(ov: Overview) -> Text:
    if ov.remote:
        return Text.assemble(("Knowledge: ", "bold"), f"the SPARQL endpoint {ov.remote}.")
    if not ov.graphs:
        return Text.assemble(("Knowledge: ", "bold"), "none loaded yet — Ctrl+O loads a file.")
    graphs = ", ".join(ov.graphs[:4]) + (f" and {len(ov.graphs) - 4} more" if len(ov.graphs) > 4 else "")
    out = Text.assemble(("Knowledge: ", "bold"), graphs, ".")
    if ov.types:
        out.append("\nWhat it holds: ", style="bold")
        out.append(", ".join(f"{n:,} × {label}" for label, n in ov.types) + ".")
    return out


class Welcome(Vertical):
    """What the loaded KG is about; replaced whenever a KG is loaded."""

    def __init__(self, ov: Overview) -> None:
        super().__init__(classes="welcome")
        self.border_title = "what you can ask"
        self.overview = ov

    def compose(self):
        yield Static(summary(self.overview), classes="summary")
        if self.overview.examples:
            yield Static(Text("Try one (click it, or Tab to it and press Enter; it goes into the prompt):",
                              style="dim"))
            for q in self.overview.examples:
                yield ExampleQuestion(q)
        yield Static(Text("Answers come from the knowledge graph. When the model's own reply is contradicted "
                          "or unsupported by it, kgchat shows an answer composed from the graph's facts "
                          "instead (marked 📚); F3 shows the checks and the model's reply. F1 lists the keys.",
                          style="dim"))
