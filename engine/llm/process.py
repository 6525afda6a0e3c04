"""A chat model in a process of its own (`engine.llm.worker`), behind the backend interface.

kgchat's process holds numpy, pyoxigraph, onnxruntime and torch, each with native libraries
of its own; a GPU build of llama.cpp brings its own OpenMP, C++ runtime and cuBLAS, and two
copies of one of those in one process can crash the model load. The worker imports nothing
but the backend, so the model loads there as it would alone. It is started here, stopped when
this object goes (or kgchat exits), and ends by itself when kgchat's end of its pipe closes,
however kgchat ended.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from engine.llm.base import CANCEL_POLL_S, LLMError
from kgstore.errors import BadInput

ROOT = Path(__file__).resolve().parents[2]  # where the `engine` package (and the worker) is found
LAST_WORDS = 20  # lines of the worker's stderr kept to say why it ended
COUNT_CACHE = 4096  # token counts kept: a prompt counts the same headers and facts turn after turn
_DIED = object()


class _Link:
    """The pipes to one worker and the requests waiting on them. The reader threads hold this,
    not the backend, so that dropping the backend stops the worker."""

    def __init__(self, proc: subprocess.Popen, label: str):
        self.proc = proc
        self.label = label  # names the model in the one line that says the worker died
        self.lock = threading.Lock()
        self.pending: dict[int, queue.Queue] = {}
        self.next_id = 0
        self.started: queue.Queue = queue.Queue()
        self.stderr: collections.deque[str] = collections.deque(maxlen=LAST_WORDS)
        self.death: str | None = None
        self.ended = threading.Event()  # set once `death` says how the worker ended
        self._stderr_done = threading.Event()
        threading.Thread(target=self._read_stderr, name="llm-worker-stderr", daemon=True).start()
        threading.Thread(target=self._read, name="llm-worker", daemon=True).start()

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", errors="replace").strip()
            if line:
                self.stderr.append(line)
        self._stderr_done.set()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            message = json.loads(line)
            if "id" not in message:
                self.started.put(message)
                continue
            with self.lock:
                waiting = self.pending.get(message["id"])
            if waiting is not None:
                waiting.put(message)
        rc = self.proc.wait()
        self._stderr_done.wait(timeout=5)  # its last words, once the pipe drains
        with self.lock:
            self.death = self._how_it_ended(rc)
            waiting_all = list(self.pending.values())
        self.ended.set()
        self.started.put(_DIED)
        for waiting in waiting_all:
            waiting.put(_DIED)

    def _how_it_ended(self, rc: int) -> str:
        if rc < 0:
            try:
                how = f"was killed by {signal.Signals(-rc).name}"
            except ValueError:
                how = f"was killed by signal {-rc}"
        else:
            how = f"exited with status {rc}"
        last = next((line for line in reversed(self.stderr) if not line.startswith("Traceback")), "")
        said = f" (its last words: {last[:200]})" if last else ""
        return f"{self.label}: the model's process {how}{said}"

    def request(self, message: dict[str, Any]) -> tuple[int, queue.Queue]:
        """Send a request; its answers arrive on the returned queue (`_DIED` if the worker ends)."""
        answers: queue.Queue = queue.Queue()
        with self.lock:
            self.next_id += 1
            rid = self.next_id
            if self.death is not None:
                answers.put(_DIED)
                return rid, answers
            self.pending[rid] = answers
        if not self.send({**message, "id": rid}):
            answers.put(_DIED)  # the reader thread says so too, once it has the exit status
        return rid, answers

    def send(self, message: dict[str, Any]) -> bool:
        """False when the worker's end is gone."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message).encode("ascii") + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):  # ValueError: written after close()
            return False
        return True

    def forget(self, rid: int) -> None:
        with self.lock:
            self.pending.pop(rid, None)

    def died(self) -> LLMError:
        """The error for a worker that is gone (once the reader has its exit status)."""
        self.ended.wait()
        return LLMError(str(self.death))

    def close(self) -> None:
        """End the worker: closing its input ends it; one that does not within 5 s is killed."""
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def worker_env() -> dict[str, str]:
    """kgchat's environment with its own sources first on the worker's import path."""
    path = os.environ.get("PYTHONPATH", "")
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), path) if p)}


class ProcessBackend:
    """The backend built by `factory` (`module:name`, called with `args` and `kwargs`), run in a
    worker process. Start-up errors come back as the same one line (BadInput stays BadInput);
    a worker that dies, at start or later, is one LLMError line naming how it ended."""

    process = "own"

    def __init__(self, factory: str, *args: Any, label: str = "model", **kwargs: Any):
        # -P: the current directory stays off the worker's import path, whatever it holds
        proc = subprocess.Popen([sys.executable, "-P", "-m", "engine.llm.worker"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=worker_env())
        self._link = link = _Link(proc, label)
        self._stop = weakref.finalize(self, link.close)
        try:
            link.send({"factory": factory, "args": list(args), "kwargs": kwargs})
            answer = link.started.get()
        except BaseException:  # Ctrl-C while the model loads: the worker goes with us
            self._stop()
            raise
        if answer is _DIED:
            raise link.died()
        if "failed" in answer:
            self._stop()
            failure = answer["failed"]
            raise (BadInput if failure["kind"] == "BadInput" else LLMError)(failure["error"])
        ready = answer["ready"]
        self.name: str = ready["name"]
        self.device: str = ready["device"]
        self.device_note = "own process" + (f"; {ready['device_note']}" if ready["device_note"] else "")
        self.path: str | None = ready["path"]
        self._n_ctx: int = ready["n_ctx"]
        link.label = self.name
        self._counts: dict[str, int] = {}

    @property
    def pid(self) -> int:
        return self._link.proc.pid

    def context_size(self) -> int:
        return self._n_ctx

    def count_tokens(self, text: str) -> int:
        known = self._counts.get(text)
        if known is None:
            known = self._counts[text] = int(self._ask({"op": "count", "text": text}))
            if len(self._counts) > COUNT_CACHE:
                self._counts.pop(next(iter(self._counts)))
        return known

    def call(self, function: Callable[..., Any], **kwargs: Any) -> Any:
        """`function(backend, **kwargs)` run beside the model in the worker (a module-level
        function; arguments and result as JSON): what measures the bare model uses it."""
        return self._ask({"op": "call", "function": f"{function.__module__}:{function.__qualname__}", "kwargs": kwargs})

    def _ask(self, message: dict[str, Any]) -> Any:
        rid, answers = self._link.request(message)
        try:
            return self._answer(answers.get())
        finally:
            self._link.forget(rid)

    def _answer(self, message: Any) -> Any:
        if message is _DIED:
            raise self._link.died()
        if "error" in message:
            raise (BadInput if message["kind"] == "BadInput" else LLMError)(message["error"])
        return message["done"]

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float,
               stop: list[str] | None = None, cancel: threading.Event | None = None) -> Iterator[str]:
        """Tokens as the worker sends them. A cancel is passed on to the worker, which aborts its
        decode as it would in kgchat's process; the stream returns here within a poll interval."""
        if cancel is not None and cancel.is_set():
            return
        rid, answers = self._link.request({"op": "stream", "messages": messages, "max_tokens": max_tokens,
                                           "temperature": temperature, "stop": stop})
        finished = False
        try:
            while True:
                if cancel is not None and cancel.is_set():
                    return
                try:
                    message = answers.get(timeout=CANCEL_POLL_S)
                except queue.Empty:
                    continue
                if message is not _DIED and "token" in message:
                    yield message["token"]
                    continue
                finished = True
                self._answer(message)
                return
        finally:
            self._link.forget(rid)
            if not finished:  # cancelled, or the caller stopped reading: free the model for the next call
                self._link.send({"op": "cancel", "id": rid})

    def close(self) -> None:
        self._stop()
