"""The embedded backend: any GGUF model through llama-cpp-python, on CUDA when the build has it."""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import threading
from collections.abc import Iterator
from typing import Any

from engine.llm.base import CANCEL_POLL_S, LLMError
from engine.llm.gguf import context_length, read_metadata
from kgstore.errors import BadInput


def gpu_offload_supported() -> bool:
    """Whether this llama-cpp-python build can offload layers to a GPU (a CUDA build)."""
    import llama_cpp

    return bool(llama_cpp.llama_supports_gpu_offload())


class LlamaBackend:
    """One GGUF model loaded in process. The chat template comes from the file's metadata
    (llama-cpp picks it when no chat_format is forced); the context is the model's own size,
    capped at `n_ctx`."""

    def __init__(self, path: str, *, n_ctx: int = 4096, n_gpu_layers: int = -1, seed: int = 0):
        meta = read_metadata(path)
        trained = context_length(meta)
        self.path = path
        self.name = str(meta.get("general.name") or path.rsplit("/", 1)[-1])
        self.seed = seed
        self._n_ctx = min(n_ctx, trained) if trained else n_ctx
        import llama_cpp

        gpu = gpu_offload_supported()
        threads = max(1, (os.cpu_count() or 2) // 2)
        self.device = "CUDA" if gpu and n_gpu_layers != 0 else "CPU"
        # why the model runs where it does, for the status bar and `kgchat prepare`
        self.device_note = ("llama.cpp built for the CPU" if not gpu else "--n-gpu-layers 0" if n_gpu_layers == 0
                            else f"--n-gpu-layers {n_gpu_layers}" if n_gpu_layers > 0 else "")
        try:
            self.llama = llama_cpp.Llama(
                model_path=path,
                n_ctx=self._n_ctx,
                n_gpu_layers=n_gpu_layers if gpu else 0,
                # llama-cpp-python evaluates prompts on every logical CPU by default; its OpenMP
                # barriers then wait on descheduled threads whenever the machine is busy (3.5x
                # slower prompts measured on 2 shared cores). One thread per physical core, as
                # llama.cpp's own CLI does, for prompts and tokens alike.
                n_threads=threads,
                n_threads_batch=threads,
                seed=seed,
                verbose=False,  # llama.cpp's load and timing logs would scribble over the terminal UI
            )
        except (ValueError, RuntimeError, OSError) as exc:
            raise BadInput(f"--model {path}: llama.cpp could not load it ({exc})") from None
        # llama.cpp reports an aborted decode (our cancel) as an error on stderr, which would
        # scribble over the terminal UI; real failures reach us as exceptions.
        logging.getLogger("llama-cpp-python").setLevel(logging.CRITICAL)
        self._lock = threading.Lock()  # one generation at a time on the shared context
        self._abort = _install_abort_flag(self.llama)
        self._cancel: threading.Event | None = None  # the running stream's
        self._guard_batches()

    def context_size(self) -> int:
        return self._n_ctx

    def count_tokens(self, text: str) -> int:
        return len(self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float,
               stop: list[str] | None = None, cancel: threading.Event | None = None) -> Iterator[str]:
        """Tokens as llama.cpp makes them, in the caller's thread: a handoff to another thread per
        token costs tokens/s on a busy machine. A watcher turns `cancel` into an abort of the
        running decode, so a cancel takes hold within a poll interval even mid-prompt."""
        with self._lock:
            if self._abort is not None:
                self._abort[0] = b"\0"
            if cancel is not None and cancel.is_set():
                return
            self._cancel = cancel
            done = threading.Event()
            if cancel is not None:
                threading.Thread(target=self._watch, args=(cancel, done), name="llm-cancel", daemon=True).start()
            try:
                # With stream=True the call gives an iterator of chunk dicts; llama-cpp-python types
                # its messages and both result shapes as unions that plain dicts do not meet.
                create: Any = self.llama.create_chat_completion
                chunks = create(messages=messages, stream=True, max_tokens=max_tokens,
                                temperature=temperature, stop=stop, seed=self.seed)
                for chunk in chunks:
                    if cancel is not None and cancel.is_set():
                        chunks.close()
                        return
                    text = chunk["choices"][0]["delta"].get("content")
                    if text:
                        yield text
            except ValueError as exc:  # e.g. the prompt does not fit the context
                raise LLMError(f"{self.name}: {exc}") from None
            except RuntimeError:
                if cancel is not None and cancel.is_set():  # llama_decode aborted on our request
                    return
                raise
            finally:
                self._cancel = None
                done.set()

    def _guard_batches(self) -> None:
        """Refuse the next batch once the running stream is cancelled. The abort flag works
        inside a batch only where the backend polls it (llama.cpp's CPU backend does); with the
        layers on a GPU a cancel still takes hold between the prompt's batches of n_batch tokens
        (llama-cpp-python evaluates a prompt as one decode per batch)."""
        ctx = getattr(self.llama, "_ctx", None)
        if ctx is None:
            return
        decode = ctx.decode

        def guarded(batch) -> None:
            cancel = self._cancel
            if cancel is not None and cancel.is_set():
                raise RuntimeError("llama_decode refused: the stream was cancelled")
            decode(batch)

        ctx.decode = guarded

    def _watch(self, cancel: threading.Event, done: threading.Event) -> None:
        while not done.is_set():
            if cancel.wait(CANCEL_POLL_S):
                if not done.is_set() and self._abort is not None:
                    self._abort[0] = b"x"
                return


def _install_abort_flag(llama) -> ctypes.Array | None:
    """A one-byte flag llama.cpp polls between graph nodes: writing a non-zero byte aborts the
    running llama_decode, so a cancel during a long prompt evaluation frees the model at once
    instead of after the whole batch.

    The callback must answer `bool f(void *data)` without the GIL (it runs for every node of
    every decode, and a Python callback there costs measurable tokens/s): libc's `strlen` on
    a one-byte buffer returns 0 while the flag is clear and 1 once it is set. None when the
    library lacks the entry point: a cancel then waits for the running decode to end.
    """
    import llama_cpp

    flag = ctypes.create_string_buffer(2)
    strlen = ctypes.CDLL(ctypes.util.find_library("c")).strlen
    callback = ctypes.cast(strlen, ctypes.c_void_p)
    setter = getattr(llama_cpp.llama_cpp._lib, "llama_set_abort_callback", None)
    if setter is None:
        return None
    setter.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    setter.restype = None
    setter(llama.ctx, callback, ctypes.cast(flag, ctypes.c_void_p))
    llama._kgchat_abort_refs = (flag, callback)  # llama.cpp keeps bare pointers: keep the objects alive
    return flag
