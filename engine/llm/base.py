"""The interface every chat model backend implements, and the streaming plumbing they share."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from typing import Protocol, runtime_checkable

# How often a waiting consumer looks at the cancel flag: well under the 200 ms a cancel may take.
CANCEL_POLL_S = 0.02


class LLMError(Exception):
    """The model could not answer this turn (server down, slow, garbage, load failure at run
    time). The turn records the message and goes on; the session is not affected."""


@runtime_checkable
class LLMBackend(Protocol):
    name: str
    device: str  # "CUDA" | "CPU" | "remote"

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float,
               stop: list[str] | None = None, cancel: threading.Event | None = None) -> Iterator[str]: ...

    def count_tokens(self, text: str) -> int: ...

    def context_size(self) -> int: ...


_DONE = object()


def cancellable(produce: Callable[[threading.Event], Iterator[str]],
                cancel: threading.Event | None) -> Iterator[str]:
    """Run a blocking token producer in a worker thread and yield its tokens here.

    A model can block for a long time between two tokens (prompt evaluation, a slow server),
    so the consumer waits with a short timeout and returns as soon as `cancel` is set; the
    producer gets its own stop flag and winds down at its next token. Errors raised by the
    producer are re-raised in the consumer.
    """
    out: queue.Queue = queue.Queue()
    stop = threading.Event()

    def work() -> None:
        try:
            for token in produce(stop):
                if stop.is_set():
                    break
                out.put(token)
        except BaseException as exc:  # handed to the consumer, which re-raises it
            out.put(exc)
        finally:
            out.put(_DONE)

    worker = threading.Thread(target=work, name="llm-stream", daemon=True)
    worker.start()
    try:
        while True:
            if cancel is not None and cancel.is_set():
                return
            try:
                item = out.get(timeout=CANCEL_POLL_S)
            except queue.Empty:
                continue
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
