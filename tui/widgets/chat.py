"""The conversation: user and assistant messages, the streamed reply, and the prompt."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Markdown, Static, TextArea

from engine.inert import UNSAFE, inert
from engine.session import cut_turn


class UserMessage(Static):
    def __init__(self, text: str) -> None:
        shown, cut = cut_turn(text)  # the bubble shows what the engine reads of a long message
        if cut:
            shown += f"\n… ({cut})"
        super().__init__(Text(inert(shown)), classes="user")
        self.border_title = "you"


class AssistantMessage(Vertical):
    """A reply: its Markdown body fills in as tokens arrive; a footer line says how it ended
    (stage progress while running, then cut / checks / errors)."""

    def __init__(self) -> None:
        super().__init__(classes="assistant")
        self.border_title = "kgchat"
        self.text = ""
        self.streamed = ""  # what arrived token by token, before any final correction
        self.refined_text = ""
        self.body = Markdown("", classes="body")
        self.refined = Markdown("", classes="refined")
        self.footer = Static("", classes="footer")

    def compose(self):
        yield self.body
        yield self.refined
        yield self.footer

    async def append(self, chunk: str, refined: bool = False) -> None:
        if refined:
            if not self.refined_text:
                self.add_class("has-refined")
                await self.refined.update("**Refined reply:** ")
            self.refined_text += chunk
            await self.refined.append(inert(chunk))
        else:
            self.text += chunk
            self.streamed += chunk
            await self.body.append(inert(chunk))

    async def set_text(self, text: str, refined: bool = False) -> None:
        """Replace the body with the engine's final text (when it differs from the stream)."""
        if refined:
            self.refined_text = text
            self.add_class("has-refined")
            await self.refined.update("**Refined reply:** " + inert(text))
        else:
            self.text = text
            await self.body.update(inert(text))

    async def show_composed(self, text: str, source: str) -> None:
        """kgchat's own answer replaces the model's in the bubble (which stays in the Checks tab)."""
        self.add_class("composed")
        self.border_title = "kgchat · 📚 from the knowledge graph" if source == "facts" else "kgchat · nothing found"
        self.refined_text = ""
        await self.set_text(text)

    def set_footer(self, text: Text | str, classes: str = "") -> None:
        if isinstance(text, str) or UNSAFE.search(text.plain):  # a styled line of kgchat's own stays as styled
            text = inert(text if isinstance(text, str) else text.plain)
        self.footer.update(text)
        self.footer.set_classes(f"footer {classes}".strip())

    @property
    def final_text(self) -> str:
        return self.refined_text or self.text


class Notice(Static):
    """A line in the chat that is neither side speaking: errors, session changes."""

    def __init__(self, text: str, kind: str = "info") -> None:
        super().__init__(Text(inert(text)), classes=f"notice {kind}")


class ChatLog(VerticalScroll):
    """Scrolls to the newest message unless the user has scrolled up to read."""

    def follow(self) -> None:
        if self.max_scroll_y - self.scroll_y <= 3:
            self.scroll_end(animate=False, immediate=False)


class PromptInput(TextArea):
    """Enter sends; Ctrl+J or Shift+Enter inserts a newline; Up on the first line recalls the
    previous message."""

    class Submitted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, **kwargs) -> None:
        super().__init__(soft_wrap=True, show_line_numbers=False, tab_behavior="focus", **kwargs)
        self.sent: list[str] = []
        self._recall = 0

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            if self.text.strip():
                self.post_message(self.Submitted(self.text))
            return
        if event.key in ("ctrl+j", "shift+enter"):
            event.stop()
            event.prevent_default()
            self.insert("\n")
            return
        if event.key == "up" and self.cursor_location[0] == 0 and self.sent and (
                not self.text or self.text in self.sent):
            event.stop()
            event.prevent_default()
            self._recall = min(self._recall + 1, len(self.sent))
            self.load_text(self.sent[-self._recall])
            return
        await super()._on_key(event)

    def remember(self, text: str) -> None:
        self.sent.append(text)
        self._recall = 0
