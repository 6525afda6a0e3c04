"""Text from data made inert for a terminal: labels, values, endpoint results and model tokens
may carry escape sequences (set the window title, clear the screen) or bidi overrides (show
text in another order than it is), which no output of kgchat passes on raw."""

from __future__ import annotations

import json
import re
from typing import Any

# C0 controls but tab and newline, DEL, C1 controls (U+009B is a CSI on its own), and the bidi
# marks, embeddings, overrides and isolates.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def inert(text: str) -> str:
    """`text` with every such character written as a visible \\uXXXX escape."""
    return UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def json_text(value: Any, **options: Any) -> str:
    """JSON with non-ASCII text as it is but those characters as \\u escapes (json.dumps writes
    C0 controls so already; the others can only occur inside strings, where \\uXXXX is theirs)."""
    return inert(json.dumps(value, ensure_ascii=False, **options))


class InertStream:
    """A text stream that writes everything through `inert`: the headless commands' stdout and
    stderr, so no path from data to the terminal is left out."""

    def __init__(self, stream: Any):
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(inert(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
