"""What `kgchat bench generate` runs beside the model, in whichever process holds it
(`engine.llm.beside`): nothing here imports more than the model's own process has."""

from __future__ import annotations

import time


def figures(stamps: list[float], start: float) -> dict:
    """First-token time (ms from `start`) and tokens/s after the first, from token arrival times."""
    if not stamps:
        return {"ttft_ms": None, "tokens_per_s": None, "tokens": 0}
    span = stamps[-1] - stamps[0]
    return {"ttft_ms": (stamps[0] - start) * 1000.0,
            "tokens_per_s": (len(stamps) - 1) / span if len(stamps) > 1 and span > 0 else None,
            "tokens": len(stamps)}


def reset(backend) -> None:
    """No prompt cache from the previous call: every call evaluates the whole prompt."""
    backend.llama.reset()


def bare_call(backend, messages: list[dict[str, str]], max_tokens: int, seed: int) -> dict:
    """The same prompt straight through llama-cpp-python, in the thread the backend decodes in."""
    reset(backend)
    start = time.perf_counter()
    chunks = backend.llama.create_chat_completion(messages=messages, stream=True, max_tokens=max_tokens,
                                                  temperature=0.0, seed=seed)
    stamps = [time.perf_counter() for c in chunks if c["choices"][0]["delta"].get("content")]
    return figures(stamps, start)


def wait_free(backend) -> None:
    """Returns once the model is free: the generating thread holds the lock until it has wound down."""
    with backend._lock:
        pass
