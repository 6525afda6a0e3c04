"""The chat model in a process of its own: the worker hosts the scripted fakes of tests.support,
so start, streaming, cancel, a crash and start-up errors are tested without a real model."""

import gc
import os
import threading

import pytest

from engine.config import Config, LLMProcess
from engine.llm import LLMError, beside, make_backend, placement
from engine.llm.process import ProcessBackend
from kgstore.errors import BadInput

MESSAGES = [{"role": "user", "content": "Hi"}]


def reply(backend, **kw) -> str:
    return "".join(backend.stream(MESSAGES, max_tokens=16, temperature=0.0, **kw))


@pytest.fixture
def scripted():
    backend = ProcessBackend("tests.support.fakes:ScriptedLLM", replies=["Omar Haddad is in Engineering."])
    yield backend
    backend.close()


def test_streams_counts_and_names_the_model_from_its_own_process(scripted):
    assert scripted.pid != os.getpid()
    assert (scripted.name, scripted.device, scripted.context_size()) == ("scripted", "CPU", 4096)
    assert scripted.device_note == "own process"
    tokens = list(scripted.stream(MESSAGES, max_tokens=16, temperature=0.0))
    assert tokens == ["Omar", " Haddad", " is", " in", " Engineering."]
    assert scripted.count_tokens("three words here") == 3
    assert reply(scripted, stop=["\n"]) == "Omar Haddad is in Engineering."  # the model is free again


def test_any_text_crosses_the_pipe_as_it_is():
    text = "Zoë ☕ half a pair \ud800 and\nnewline"  # a lone surrogate, as a cut UTF-8 sequence may decode
    backend = ProcessBackend("tests.support.fakes:ScriptedLLM", replies=[text])
    try:
        assert reply(backend) == text
        assert backend.count_tokens(text) == 8
    finally:
        backend.close()


def test_what_the_model_prints_does_not_reach_the_protocol():
    backend = ProcessBackend("tests.support.fakes:NoisyLLM", replies=["still clean"])
    try:
        assert reply(backend) == "still clean"
        assert reply(backend) == "still clean"
    finally:
        backend.close()


def test_a_cancel_reaches_the_model_and_frees_it_for_the_next_reply():
    backend = ProcessBackend("tests.support.fakes:HeldLLM")
    try:
        cancel = threading.Event()
        stream = backend.stream(MESSAGES, max_tokens=16, temperature=0.0, cancel=cancel)
        assert next(stream) == "after-none"
        cancel.set()  # as Esc does, while the model holds the reply open
        assert list(stream) == []
        # the worker ran the next reply, so the held one had ended, by the cancel
        assert next(backend.stream(MESSAGES, max_tokens=16, temperature=0.0, cancel=threading.Event())) == \
            "after-cancelled"
    finally:
        backend.close()


def test_a_reader_that_stops_early_frees_the_model_too():
    backend = ProcessBackend("tests.support.fakes:HeldLLM")
    try:
        stream = backend.stream(MESSAGES, max_tokens=16, temperature=0.0, cancel=threading.Event())
        assert next(stream) == "after-none"
        stream.close()
        assert next(backend.stream(MESSAGES, max_tokens=16, temperature=0.0)) == "after-cancelled"
    finally:
        backend.close()


def test_a_crash_mid_reply_is_one_line_and_every_later_call_says_it_too():
    backend = ProcessBackend("tests.support.fakes:CrashingLLM", replies=["first second third"])
    tokens: list[str] = []
    with pytest.raises(LLMError) as failed:
        for token in backend.stream(MESSAGES, max_tokens=16, temperature=0.0):
            tokens.append(token)
    message = str(failed.value)
    assert tokens == ["first"]
    assert message == "scripted: the model's process was killed by SIGABRT (its last words: free(): invalid pointer)"
    with pytest.raises(LLMError, match="^scripted: the model's process was killed by SIGABRT"):
        backend.count_tokens("a new text")
    with pytest.raises(LLMError, match="killed by SIGABRT"):
        reply(backend)


def test_a_crash_while_starting_is_one_line_naming_the_model():
    with pytest.raises(LLMError) as failed:
        ProcessBackend("tests.support.fakes:CrashingLLM", at="start", label="--model big.gguf")
    assert str(failed.value) == ("--model big.gguf: the model's process was killed by SIGABRT "
                                 "(its last words: free(): invalid pointer)")


def test_start_up_errors_come_back_as_the_same_one_line():
    with pytest.raises(BadInput, match=r"^--model cut\.gguf: llama\.cpp could not load it \(tensor data is cut short\)$"):
        ProcessBackend("tests.support.fakes:UnloadableLLM", "cut.gguf")
    with pytest.raises(LLMError, match="No module named 'tests.support.nothing'"):
        ProcessBackend("tests.support.nothing:Model")


def test_closing_or_dropping_the_backend_ends_its_process():
    backend = ProcessBackend("tests.support.fakes:ScriptedLLM")
    proc = backend._link.proc
    backend.close()
    assert proc.poll() == 0
    with pytest.raises(LLMError, match="^scripted: the model's process exited with status 0$"):
        reply(backend)
    dropped = ProcessBackend("tests.support.fakes:ScriptedLLM")
    proc = dropped._link.proc
    del dropped
    gc.collect()
    assert proc.wait(timeout=60) == 0


def test_beside_runs_a_function_where_the_model_is(scripted):
    from tests.support.fakes import ScriptedLLM, model_name

    assert beside(scripted, model_name, suffix="!") == f"scripted! (process {scripted.pid})"
    assert beside(ScriptedLLM(), model_name, suffix="?") == f"scripted? (process {os.getpid()})"


def test_the_model_runs_in_its_own_process_when_llama_cpp_has_a_gpu_backend(tmp_path, monkeypatch):
    monkeypatch.setenv("LLAMA_CPP_LIB_PATH", str(tmp_path))
    (tmp_path / "libllama.so").write_bytes(b"")
    (tmp_path / "libggml-cpu.so").write_bytes(b"")
    cpu = placement(Config())
    assert (cpu.process, cpu.gpu, cpu.why) == ("same", None, "llama.cpp built for the CPU")
    (tmp_path / "libggml-cuda.so").write_bytes(b"")
    gpu = placement(Config())
    assert (gpu.process, gpu.gpu, gpu.why) == ("own", "cuda", "llama.cpp built with CUDA")
    assert placement(Config(llm_process=LLMProcess.SAME)).process == "same"
    (tmp_path / "libggml-cuda.so").unlink()
    forced = placement(Config(llm_process=LLMProcess.OWN))
    assert (forced.process, forced.why) == ("own", "llama.cpp built for the CPU; --llm-process own")
    assert placement(Config(openai_url="http://127.0.0.1:1/v1")).process == "remote"


def test_make_backend_starts_the_model_process_when_asked(tmp_path):
    broken = tmp_path / "broken.gguf"
    from engine.llm import default_model_path

    with open(default_model_path(), "rb") as f:
        data = f.read()
    broken.write_bytes(data[: len(data) // 2])
    # llama.cpp refuses it in the worker; the line is the one kgchat's own process gives
    with pytest.raises(BadInput, match=r"broken\.gguf: llama\.cpp could not load it"):
        make_backend(Config(model=str(broken), llm_process=LLMProcess.OWN))


@pytest.mark.slow
def test_the_real_model_streams_and_cancels_from_its_own_process():
    backend = make_backend(Config(n_ctx=2048, llm_process=LLMProcess.OWN))
    try:
        assert isinstance(backend, ProcessBackend) and backend.path and backend.path.endswith(".gguf")
        assert backend.count_tokens("Hello there") > 0
        assert reply(backend).strip()
        cancel = threading.Event()
        stream = backend.stream(MESSAGES, max_tokens=256, temperature=0.0, cancel=cancel)
        next(stream)
        cancel.set()
        assert len(list(stream)) == 0
        assert reply(backend).strip()
    finally:
        backend.close()
