"""The model's own process: `python -m engine.llm.worker`, started by `engine.llm.process`.

It builds one backend from a dotted factory name and serves it over JSON lines: requests on
stdin, answers on the stdout it had at start (fd 1 then points at stderr, so that whatever the
model's native code prints cannot corrupt the protocol). Only the backend's own module is
imported here, so a GPU build of llama.cpp is loaded into a process that holds nothing else
native (two copies of OpenMP, the C++ runtime or cuBLAS in one process crash the model load).

Requests: {"op": "stream" | "count" | "call" | "cancel", "id": N, ...}; answers carry the id:
{"token": text}, {"done": value} or {"error": text, "kind": name}. Streams and calls run one
after the other on a job thread; counts and cancels are answered at once. End of stdin ends
the process at once, a running decode included.
"""

from __future__ import annotations

import importlib
import json
import os
import queue
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any, BinaryIO


def resolve(dotted: str) -> Callable[..., Any]:
    """`package.module:name` (a class, or a function taking the backend first)."""
    module, _, name = dotted.partition(":")
    target: Any = importlib.import_module(module)
    for part in name.split("."):
        target = getattr(target, part)
    return target


def describe(exc: BaseException) -> dict[str, str]:
    """An exception as an answer: its message, and its class name so the other side can raise
    the same kind (bad input stays bad input)."""
    text = str(exc).strip() or type(exc).__name__
    return {"error": text, "kind": type(exc).__name__}


class Server:
    def __init__(self, backend: Any, out: BinaryIO):
        self.backend = backend
        self.out = out
        self.write_lock = threading.Lock()
        self.cancels: dict[int, threading.Event] = {}
        self.jobs: queue.Queue[dict[str, Any]] = queue.Queue()

    def send(self, message: dict[str, Any]) -> None:
        line = json.dumps(message).encode("ascii") + b"\n"
        with self.write_lock:
            self.out.write(line)
            self.out.flush()

    def run_jobs(self) -> None:
        while True:
            job = self.jobs.get()
            rid = job["id"]
            try:
                if job["op"] == "stream":
                    cancel = self.cancels[rid]
                    for token in self.backend.stream(job["messages"], max_tokens=job["max_tokens"],
                                                     temperature=job["temperature"], stop=job.get("stop"),
                                                     cancel=cancel):
                        if cancel.is_set():
                            break
                        self.send({"id": rid, "token": token})
                    self.send({"id": rid, "done": None})
                else:
                    value = resolve(job["function"])(self.backend, **job.get("kwargs", {}))
                    self.send({"id": rid, "done": value})
            except Exception as exc:  # noqa: BLE001 - every failure goes back to the caller as one answer
                self.send({"id": rid, **describe(exc)})
            finally:
                self.cancels.pop(rid, None)

    def serve(self, requests: BinaryIO) -> None:
        threading.Thread(target=self.run_jobs, name="llm-jobs", daemon=True).start()
        for line in requests:
            request = json.loads(line)
            rid, op = request["id"], request["op"]
            if op == "cancel":
                event = self.cancels.get(rid)
                if event is not None:
                    event.set()
            elif op == "count":
                try:
                    self.send({"id": rid, "done": self.backend.count_tokens(request["text"])})
                except Exception as exc:  # noqa: BLE001
                    self.send({"id": rid, **describe(exc)})
            else:
                if op == "stream":
                    self.cancels[rid] = threading.Event()
                self.jobs.put(request)


def main() -> None:
    # The parent decides when this process ends: Ctrl-C in its terminal reaches the whole process
    # group, and the parent turns it into a cancel.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    requests = sys.stdin.buffer
    start = json.loads(requests.readline() or b"null")
    if not isinstance(start, dict):
        os._exit(2)
    server = Server(None, out)
    try:
        backend = resolve(start["factory"])(*start.get("args", []), **start.get("kwargs", {}))
    except Exception as exc:  # noqa: BLE001 - a load failure is the parent's to report, in one line
        server.send({"failed": describe(exc)})
        os._exit(1)
    server.backend = backend
    server.send({"ready": {"name": str(getattr(backend, "name", "model")), "device": str(getattr(backend, "device", "")),
                           "device_note": str(getattr(backend, "device_note", "")),
                           "n_ctx": int(backend.context_size()), "path": getattr(backend, "path", None)}})
    server.serve(requests)
    # End of input: the parent closed us (or died). Leave without running the model's destructors,
    # which a half-finished decode could be inside.
    os._exit(0)


if __name__ == "__main__":
    main()
