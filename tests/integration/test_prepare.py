"""Getting the scorer ready ahead of the first question, and saying where it runs and why."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import onnxruntime
import pytest

from cli import main
from engine.nlp import encoder, onnx
from engine.nlp.onnx import onnx_session
from engine.nlp.relevance import MODEL_PATH
from tests.support.fakes import StubChatServer


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    """A user cache without the MiniLM export; "exporting" copies this install's (the real one
    takes 15 s) and counts the calls."""
    made = encoder.onnx_path()
    real_export = encoder.export_onnx
    calls: list[Path] = []

    def export(path: Path) -> None:
        calls.append(path)
        if made.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(made, path)
        else:
            real_export(path)

    monkeypatch.setenv("KGCHAT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(encoder, "export_onnx", export)
    return calls


def test_prepare_exports_once_and_names_each_models_device(empty_cache, capsys):
    assert main(["prepare", "--json"]) == 0
    out, err = capsys.readouterr()
    first = json.loads(out)
    assert "exporting MiniLM to ONNX" in err and len(empty_cache) == 1
    assert first["exported_s"] is not None and not first["export_error"] and Path(first["onnx"]).exists()
    for model in (first["encoder"], first["relevance"]):
        assert model["device"] in ("CPU", "CUDA")
        assert model["device"] == "CUDA" or model["note"]  # why not the GPU
    assert first["llm"]["device"] in ("CPU", "CUDA") and first["llm"]["process"] in ("same", "own")
    assert first["llm"]["note"].startswith("llama.cpp built ")
    assert main(["prepare"]) == 0
    out, err = capsys.readouterr()
    assert len(empty_cache) == 1 and "already in the cache" in out and "sentence encoder (MiniLM): " in out
    assert main(["prepare", "--llm-process", "own", "--n-gpu-layers", "0"]) == 0
    said = capsys.readouterr().out.splitlines()[-1]
    assert said.startswith("chat model: CPU, in a process of its own (llama.cpp built ") and "--llm-process own" in said


def test_ask_says_on_stderr_that_it_exports_and_keeps_its_json(empty_cache, capsys):
    with StubChatServer(reply="I do not know.") as server:
        code = main(["ask", "What is Mark Taylor's phone number?", "--openai-url", server.url, "--memory",
                     "--scorer", "bm25", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "kgchat: exporting MiniLM to ONNX" in err and "kgchat prepare" in err and len(empty_cache) == 1
    assert json.loads(out)["response"] == "I do not know."


def test_a_session_without_cuda_says_why(monkeypatch):
    monkeypatch.setattr(onnxruntime, "get_available_providers", lambda: ["CPUExecutionProvider"])
    assert onnx_session(MODEL_PATH, threads=1)[1:] == ("CPU", "onnxruntime without CUDA")
    # the CPU package beside (or instead of) onnxruntime-gpu: the one module is the last installed
    monkeypatch.setattr(onnx, "installed", lambda name: True)
    assert onnx_session(MODEL_PATH, threads=1)[2] == \
        "onnxruntime without CUDA: the CPU package onnxruntime was installed over onnxruntime-gpu"
    monkeypatch.setattr(onnx, "installed", lambda name: name == "onnxruntime")
    assert onnx_session(MODEL_PATH, threads=1)[2] == \
        "onnxruntime without CUDA: the CPU package onnxruntime is installed, not onnxruntime-gpu"
    monkeypatch.undo()
    monkeypatch.setattr(onnx, "gpu_present", lambda: False)
    if "CUDAExecutionProvider" in onnxruntime.get_available_providers():
        assert onnx_session(MODEL_PATH, threads=1)[1:] == ("CPU", "no NVIDIA GPU")


def test_a_gpu_onnxruntime_cannot_use_is_named_with_what_it_misses(monkeypatch):
    if "CUDAExecutionProvider" not in onnxruntime.get_available_providers():
        pytest.skip("this onnxruntime has no CUDA provider")
    monkeypatch.setattr(onnx, "gpu_present", lambda: True)  # as if a GPU were there
    _, device, note = onnx_session(MODEL_PATH, threads=1)
    assert device == "CUDA" or note.startswith("onnxruntime CUDA: "), note


def test_minilm_goes_to_torch_cuda_when_onnxruntime_cannot_use_the_gpu(monkeypatch):
    class Onnx:
        device, device_note = "CPU", "onnxruntime CUDA: libcublasLt.so.13 missing"

    class Torch:
        def __init__(self, device: str, note: str):
            self.device, self.device_note = device, note

    monkeypatch.setattr(encoder, "OnnxMiniLM", Onnx)
    monkeypatch.setattr(encoder, "TorchMiniLM", Torch)
    monkeypatch.setattr(onnx, "gpu_present", lambda: True)
    monkeypatch.setattr(encoder, "_torch_cuda", lambda: True)
    chosen = encoder.open_minilm()
    assert isinstance(chosen, Torch) and chosen.device == "cuda" and "libcublasLt.so.13 missing" in chosen.device_note
    monkeypatch.setattr(encoder, "_torch_cuda", lambda: False)
    assert isinstance(encoder.open_minilm(), Onnx)  # no torch CUDA either: onnxruntime on the CPU, with its note
    monkeypatch.setattr(onnx, "gpu_present", lambda: False)
    assert isinstance(encoder.open_minilm(), Onnx)
