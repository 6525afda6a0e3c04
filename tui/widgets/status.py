"""One line under the chat: model and device, the scorer's device, KG size, retrieval settings,
stage timings."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

REMOTE = -2  # kg_size of a SPARQL endpoint background: not counted


def format_timings(timings: dict[str, float]) -> str:
    return " ".join(f"{name} {ms:.0f}" for name, ms in timings.items()) + " ms" if timings else ""


def format_scoring(device: str, note: str) -> str:
    return f"scoring {device}" + (f" ({note})" if note else "")


class StatusBar(Static):
    model = reactive("model loading…")
    device = reactive("")
    device_note = reactive("")  # "own process" when the model runs in one
    scoring_device = reactive("")  # where MiniLM and the relevance model run
    scoring_note = reactive("")  # why not on the GPU
    kg_size = reactive(-1)
    settings = reactive("")
    activity = reactive("")
    timings: reactive[dict[str, float]] = reactive(dict, always_update=True)

    def render(self) -> Text:
        sep = ("  │  ", "dim")
        kg = {-1: "KG opening…", REMOTE: "KG remote (SPARQL)"}.get(self.kg_size, f"KG {self.kg_size:,} triples")
        parts: list = [("⬢ ", "bold"), self.model]
        if self.device:
            parts += [" · ", (self.device, "bold")]
            if self.device_note:
                parts += [(f" ({self.device_note})", "dim")]
        if self.scoring_device:
            parts += [sep, format_scoring(self.scoring_device, self.scoring_note)]
        parts += [sep, kg, sep, self.settings]
        if self.activity:
            parts += [sep, (self.activity, "italic")]
        elif self.timings:
            parts += [sep, (format_timings(self.timings), "dim")]
        return Text.assemble(*parts, no_wrap=True, overflow="ellipsis")
