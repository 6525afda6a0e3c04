"""Test doubles. The scripted LLM is for tests only: users can never select it."""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Iterator

from kgstore.errors import BadInput


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


# Backends for a model process of its own (engine.llm.process): the worker builds them by name,
# so each is a module-level class taking JSON arguments.

class HeldLLM(ScriptedLLM):
    """Streams one token saying how the previous stream ended; the first stream then holds until
    cancelled: a test on the other side of the pipe sees whether its cancel reached the model."""

    name = "held"

    def __init__(self) -> None:
        super().__init__()
        self.last = "none"

    def stream(self, messages, *, max_tokens=256, temperature=0.0, stop=None, cancel=None) -> Iterator[str]:
        yield f"after-{self.last}"
        if self.last != "none":
            self.last = "ended"
            return
        # A cancel that never arrives ends the hold after a minute, so a test fails instead of hanging.
        self.last = "cancelled" if cancel is not None and cancel.wait(60) else "not-cancelled"


class NoisyLLM(ScriptedLLM):
    """Writes to its stdout, as native code does, between the tokens it streams."""

    def stream(self, messages, **kwargs) -> Iterator[str]:
        os.write(1, b"native noise on fd 1\n")
        print("python noise on sys.stdout", flush=True)
        yield from super().stream(messages, **kwargs)


class CrashingLLM(ScriptedLLM):
    """Aborts its process, as a native library does on a bad free: while starting ("start") or
    after the first token of a reply ("stream")."""

    def __init__(self, at: str = "stream", replies: list[str] | None = None) -> None:
        super().__init__(replies)
        self.at = at
        if at == "start":
            self._abort()

    def _abort(self) -> None:
        print("free(): invalid pointer", file=sys.stderr, flush=True)
        os.abort()

    def stream(self, messages, **kwargs) -> Iterator[str]:
        for token in super().stream(messages, **kwargs):
            yield token
            self._abort()


class UnloadableLLM:
    """A model file the backend refuses, as LlamaBackend refuses one llama.cpp cannot load."""

    def __init__(self, path: str) -> None:
        raise BadInput(f"--model {path}: llama.cpp could not load it (tensor data is cut short)")


def model_name(backend, suffix: str) -> str:
    """A function for `engine.llm.beside`: it runs in the model's process when the model is there."""
    return f"{backend.name}{suffix} (process {os.getpid()})"


class StubChatServer:
    """An OpenAI-style chat server on 127.0.0.1 that misbehaves on purpose.

    mode: "ok" streams `reply` as server-sent events; "json" answers without streaming;
    "error500" fails the first `fail_first` requests with HTTP 500, then streams; "garbage"
    answers 200 text/plain; "bad_event" streams an event that is not JSON; "unauthorized"
    answers 401 with an OpenAI error body; "hang" holds the request until `release` is set;
    "hang_mid" streams the first token, then holds until `release`; after the first token,
    "ping" sends keep-alive comments, "endless_line" one line that never ends, and "flood" tokens,
    each until `release`.
    Use as a context manager; `url` is the base URL (with /v1), `requests` the bodies received.
    """

    def __init__(self, mode: str = "ok", reply: str = "Hello there.", fail_first: int = 0):
        import json
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.mode, self.reply, self.fail_first = mode, reply, fail_first
        self.requests: list[dict] = []
        self.release = threading.Event()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def _send(self, code: int, kind: str, body: bytes) -> None:
                self.send_response(code)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _event(self, data: str) -> None:
                self.wfile.write(f"data: {data}\n\n".encode())
                self.wfile.flush()

            def _misbehave(self, mode: str) -> None:
                unit = {"ping": b": ping\n\n", "endless_line": b"x" * 4096,
                        "flood": b'data: {"choices": [{"delta": {"content": " more"}}]}\n\n'}[mode]
                if mode == "endless_line":
                    self.wfile.write(b"data: ")
                while not stub.release.is_set():
                    self.wfile.write(unit)
                    self.wfile.flush()
                    stub.release.wait(0.01)

            def do_GET(self):
                self._send(200, "application/json", json.dumps({"data": [{"id": "stub-model"}]}).encode())

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                stub.requests.append(body)
                mode = stub.mode
                if mode == "error500" and len(stub.requests) <= stub.fail_first:
                    return self._send(500, "text/plain", b"internal error")
                if mode == "garbage":
                    return self._send(200, "text/plain", b"<html>this is not a model</html>")
                if mode == "unauthorized":
                    return self._send(401, "application/json", b'{"error": {"message": "invalid api key"}}')
                if mode == "json":
                    answer = {"choices": [{"message": {"role": "assistant", "content": stub.reply}}]}
                    return self._send(200, "application/json", json.dumps(answer).encode())
                if mode == "hang":
                    stub.release.wait()
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                if mode == "bad_event":
                    self._event("{not json")
                    return
                self._event(json.dumps({"choices": [{"delta": {"role": "assistant"}}]}))
                for i, token in enumerate(re.findall(r"\s*\S+", stub.reply)):
                    if mode == "hang_mid" and i == 1:
                        stub.release.wait()
                    self._event(json.dumps({"choices": [{"delta": {"content": token}}]}))
                    if i == 0 and mode in ("ping", "endless_line", "flood"):
                        self._misbehave(mode)
                        return
                self._event("[DONE]")

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):  # a client that hung up is expected here
                pass

        self._server = Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> StubChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.release.set()
        self._server.shutdown()
        self._server.server_close()
