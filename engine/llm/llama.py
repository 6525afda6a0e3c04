"""The embedded backend: any GGUF model through llama-cpp-python, on CUDA when the build has it."""

from __future__ import annotations

import threading
from collections.abc import Iterator

from engine.llm.base import LLMError, cancellable
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
        self.device = "CUDA" if gpu else "CPU"
        try:
            self.llama = llama_cpp.Llama(
                model_path=path,
                n_ctx=self._n_ctx,
                n_gpu_layers=n_gpu_layers if gpu else 0,
                seed=seed,
                verbose=False,  # llama.cpp's load and timing logs would scribble over the terminal UI
            )
        except (ValueError, RuntimeError, OSError) as exc:
            raise BadInput(f"--model {path}: llama.cpp could not load it ({exc})") from None
        self._lock = threading.Lock()  # one generation at a time on the shared context

    def context_size(self) -> int:
        return self._n_ctx

    def count_tokens(self, text: str) -> int:
        return len(self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float,
               stop: list[str] | None = None, cancel: threading.Event | None = None) -> Iterator[str]:
        def produce(stop_flag: threading.Event) -> Iterator[str]:
            with self._lock:
                try:
                    chunks = self.llama.create_chat_completion(
                        messages=messages, stream=True, max_tokens=max_tokens,
                        temperature=temperature, stop=stop, seed=self.seed)
                    for chunk in chunks:
                        if stop_flag.is_set():
                            chunks.close()
                            return
                        text = chunk["choices"][0]["delta"].get("content")
                        if text:
                            yield text
                except ValueError as exc:  # e.g. the prompt does not fit the context
                    raise LLMError(f"{self.name}: {exc}") from None

        return cancellable(produce, cancel)
