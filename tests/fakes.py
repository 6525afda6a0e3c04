"""Test doubles. The scripted LLM is for tests only: users can never select it."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator


class ScriptedLLM:
    """Streams pre-written replies token by token, in order, cycling when they run out.

    `gate`, when given, is waited on before every token, so a test can hold the stream open
    (to press keys or cancel mid-reply) without sleeping.
    """

    name = "scripted"
    device = "CPU"

    def __init__(self, replies: list[str] | None = None, gate: threading.Event | None = None):
        self.replies = list(replies or ["I do not know."])
        self.calls: list[list[dict[str, str]]] = []
        self.gate = gate

    def stream(self, messages, *, max_tokens=256, temperature=0.0, stop=None, cancel=None) -> Iterator[str]:
        self.calls.append(list(messages))
        reply = self.replies[(len(self.calls) - 1) % len(self.replies)]
        for token in re.findall(r"\s*\S+", reply)[:max_tokens]:
            if self.gate is not None:
                self.gate.wait()
            if cancel is not None and cancel.is_set():
                return
            yield token

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def context_size(self) -> int:
        return 4096
