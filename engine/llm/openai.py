"""Any OpenAI-compatible chat server (llama.cpp server, llama-cpp-python's server, vLLM) over HTTP."""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Iterator

import httpx

from engine.llm.base import LLMError, cancellable
from kgstore.errors import BadInput

# The longest event line read: one event is a token's JSON, a few hundred bytes.
MAX_EVENT_LINE = 2**20
# Characters per token of --max-tokens a reply may have at most: a server that sends paragraphs
# per event is held to the cap as well.
MAX_TOKEN_CHARS = 32


class _Retryable(Exception):
    """A failure worth another try: the server was not reachable or said 5xx."""


class OpenAIBackend:
    """Streams `/chat/completions` (server-sent events). Connection failures and 5xx answers
    are retried with exponential backoff before any token arrives; a server that sends no text
    for `timeout` seconds is given up (keep-alive comments are not text), and so is a reply
    still running after `deadline` seconds; the reply ends at `max_tokens` events whatever the
    server does, and an event line longer than MAX_EVENT_LINE is an error; anything that is
    not an OpenAI-style reply is an error."""

    device = "remote"

    def __init__(self, url: str, model: str | None = None, *, api_key: str | None = None, n_ctx: int = 4096,
                 timeout: float = 60.0, deadline: float = 600.0, connect_timeout: float = 5.0, retries: int = 3,
                 backoff_s: float = 0.5, seed: int = 0):
        if not url.startswith(("http://", "https://")):
            raise BadInput(f"--openai-url {url!r}: not an http:// or https:// URL")
        self.url = url.rstrip("/")
        self.model = model
        self.name = model or self.url
        self.seed = seed
        self.timeout = timeout
        self.deadline = deadline
        self.retries = retries
        self.backoff_s = backoff_s
        self._n_ctx = n_ctx
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(headers=headers, timeout=httpx.Timeout(timeout, connect=connect_timeout),
                                    limits=httpx.Limits(max_connections=4))

    def context_size(self) -> int:
        return self._n_ctx

    def count_tokens(self, text: str) -> int:
        # No tokenizer on this side: about 3 characters a token overestimates for English
        # text, so the prompt trimmed to this estimate still fits.
        return math.ceil(len(text) / 3)

    def close(self) -> None:
        self._client.close()

    def _model_name(self) -> str:
        """The model the server serves, when the user named none: the first of `/models`."""
        if self.model is None:
            try:
                resp = self._client.get(f"{self.url}/models")
                resp.raise_for_status()
                self.model = str(resp.json()["data"][0]["id"])
                self.name = self.model
            except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError) as exc:
                raise LLMError(f"{self.url}: no --openai-model given and /models did not name one ({exc})") from None
        return self.model

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float,
               stop: list[str] | None = None, cancel: threading.Event | None = None) -> Iterator[str]:
        def produce(stop_flag: threading.Event) -> Iterator[str]:
            body = {"model": self._model_name(), "messages": messages, "stream": True,
                    "max_tokens": max_tokens, "temperature": temperature, "seed": self.seed}
            if stop:
                body["stop"] = stop
            last = ""
            for attempt in range(self.retries + 1):
                if attempt:
                    if stop_flag.wait(self.backoff_s * 2 ** (attempt - 1)):
                        return
                try:
                    yield from self._request(body, stop_flag, max_tokens)
                    return
                except _Retryable as exc:
                    last = str(exc)
                except httpx.ConnectError as exc:
                    last = f"cannot connect: {exc}"
                except httpx.ConnectTimeout:
                    last = "connection timed out"
                except httpx.TimeoutException:
                    raise LLMError(f"{self.url}: the server sent nothing for {self.timeout:g} s") from None
                except httpx.HTTPError as exc:
                    raise LLMError(f"{self.url}: {type(exc).__name__}: {exc}") from None
            raise LLMError(f"{self.url}: server unavailable after {self.retries + 1} attempts ({last})")

        return cancellable(produce, cancel)

    def _request(self, body: dict, stop_flag: threading.Event, max_tokens: int) -> Iterator[str]:
        with self._client.stream("POST", f"{self.url}/chat/completions", json=body) as resp:
            if resp.status_code >= 500:
                raise _Retryable(f"HTTP {resp.status_code}")
            if resp.status_code >= 400:
                resp.read()
                raise LLMError(f"{self.url}: HTTP {resp.status_code}: {_error_message(resp.text)}")
            kind = resp.headers.get("content-type", "")
            if "text/event-stream" in kind:
                yield from self._events(resp, stop_flag, max_tokens)
            elif "json" in kind:  # a server that ignores "stream": the whole reply at once
                resp.read()
                try:
                    yield resp.json()["choices"][0]["message"]["content"] or ""
                except (ValueError, KeyError, IndexError, TypeError):
                    raise LLMError(f"{self.url}: not an OpenAI chat completion: {resp.text[:120]!r}") from None
            else:
                raise LLMError(f"{self.url}: not an OpenAI-compatible server (content-type {kind or 'none'!r})")

    def _lines(self, resp: httpx.Response) -> Iterator[str]:
        """The stream's lines, each at most MAX_EVENT_LINE bytes, read within the deadline."""
        deadline = time.monotonic() + self.deadline
        line = bytearray()
        for chunk in resp.iter_bytes():
            if time.monotonic() > deadline:
                raise LLMError(f"{self.url}: the reply was still running after {self.deadline:g} s (--openai-deadline)")
            start = 0
            while (end := chunk.find(b"\n", start)) >= 0:
                line += chunk[start:end]
                yield line.decode("utf-8", errors="replace").rstrip("\r")
                line.clear()
                start = end + 1
            line += chunk[start:]
            if len(line) > MAX_EVENT_LINE:
                raise LLMError(f"{self.url}: an event line longer than {MAX_EVENT_LINE // 2**20} MB")
        if line:
            yield line.decode("utf-8", errors="replace")

    def _events(self, resp: httpx.Response, stop_flag: threading.Event, max_tokens: int) -> Iterator[str]:
        last_text, tokens, chars = time.monotonic(), 0, max_tokens * MAX_TOKEN_CHARS
        for line in self._lines(resp):
            if stop_flag.is_set():
                return
            if not line or line.startswith(":") or line.startswith(("event:", "id:", "retry:")):
                if time.monotonic() - last_text > self.timeout:
                    raise LLMError(f"{self.url}: the server sent no text for {self.timeout:g} s")
                continue
            if not line.startswith("data:"):
                raise LLMError(f"{self.url}: malformed event stream: {line[:120]!r}")
            data = line[5:].strip()
            if data == "[DONE]":
                return
            try:
                event = json.loads(data)
                if "error" in event:
                    raise LLMError(f"{self.url}: the server reported: {_error_message(data)}")
                choice = event["choices"][0]
                text = (choice.get("delta") or {}).get("content")
            except (ValueError, KeyError, IndexError, TypeError, AttributeError, RecursionError):
                raise LLMError(f"{self.url}: malformed event in the stream: {data[:120]!r}") from None
            if text:
                last_text = time.monotonic()
                tokens += 1
                yield text[:chars]
                chars -= len(text)
                if tokens >= max_tokens or chars <= 0:  # the server's own cap did not hold: ours does
                    return
            elif time.monotonic() - last_text > self.timeout:
                raise LLMError(f"{self.url}: the server sent no text for {self.timeout:g} s")


def _error_message(body: str) -> str:
    try:
        err = json.loads(body).get("error")
        if isinstance(err, dict):
            return str(err.get("message") or err)
        if err:
            return str(err)
    except (ValueError, AttributeError):
        pass
    return body.strip().splitlines()[0][:200] if body.strip() else "(empty body)"
