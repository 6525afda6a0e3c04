import threading

import llama_cpp
import pytest

from engine.config import Config, LLMProcess
from engine.llm import LLMError, check_model, default_model_path, make_backend
from engine.llm.gguf import context_length, read_metadata
from engine.llm.llama import gpu_offload_supported
from engine.llm.openai import OpenAIBackend
from kgstore.errors import BadInput
from tests.support.fakes import StubChatServer
from tests.support.loopback import free_port

MESSAGES = [{"role": "user", "content": "Hi"}]


def collect(backend, **kw) -> str:
    return "".join(backend.stream(MESSAGES, max_tokens=16, temperature=0.0, **kw))


# --- GGUF files -------------------------------------------------------------------------------

def test_default_model_is_the_smollm2_gguf_and_its_header_reads():
    path = default_model_path()
    assert path.endswith(".gguf")
    meta = read_metadata(path)
    assert meta["general.architecture"] == "llama"
    assert context_length(meta) == 8192
    assert "{%" in meta["tokenizer.chat_template"]  # the template llama-cpp applies


def test_missing_foreign_and_truncated_files_are_one_line_bad_input(tmp_path):
    with pytest.raises(BadInput, match=r"^--model .*nope\.gguf: file does not exist$"):
        read_metadata(str(tmp_path / "nope.gguf"))
    text = tmp_path / "notes.gguf"
    text.write_text("hello, I am not a model\n")
    with pytest.raises(BadInput, match="not a GGUF model file"):
        read_metadata(str(text))
    cut = tmp_path / "cut.gguf"
    with open(default_model_path(), "rb") as f:
        cut.write_bytes(f.read(4096))
    with pytest.raises(BadInput, match="corrupt GGUF file"):
        read_metadata(str(cut))
    with pytest.raises(BadInput, match="corrupt GGUF"):
        check_model(Config(model=str(cut)))
    check_model(Config())  # the default model passes


def test_a_file_llama_cpp_cannot_load_is_bad_input(tmp_path):
    # a sound header whose tensor data is cut off: only llama.cpp notices
    path = default_model_path()
    with open(path, "rb") as f:
        data = f.read()
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(data[: len(data) // 2])
    read_metadata(str(broken))
    with pytest.raises(BadInput, match=r"broken\.gguf: llama\.cpp could not load it"):
        make_backend(Config(model=str(broken)))


# --- OpenAI-compatible server -------------------------------------------------------------------

def test_make_backend_picks_the_server_when_a_url_is_given(monkeypatch):
    monkeypatch.setenv("KGCHAT_TEST_KEY", "sekrit")
    backend = make_backend(Config(openai_url="http://127.0.0.1:1/v1", openai_model="m", openai_key_env="KGCHAT_TEST_KEY"))
    assert isinstance(backend, OpenAIBackend) and backend.device == "remote" and backend.name == "m"
    assert backend._client.headers["Authorization"] == "Bearer sekrit"
    with pytest.raises(BadInput, match="--openai-url"):
        make_backend(Config(openai_url="127.0.0.1:8000"))


def test_streams_server_sent_events_and_names_the_model():
    with StubChatServer(reply="Omar Haddad is in Engineering.") as server:
        backend = OpenAIBackend(server.url)
        assert collect(backend, stop=["\n\n"]) == "Omar Haddad is in Engineering."
        body = server.requests[0]
        assert body["model"] == "stub-model" and body["stream"] is True
        assert body["messages"] == MESSAGES and body["max_tokens"] == 16 and body["stop"] == ["\n\n"]


def test_a_server_that_does_not_stream_still_answers():
    with StubChatServer(mode="json", reply="Fine.") as server:
        assert collect(OpenAIBackend(server.url, "m")) == "Fine."


def test_5xx_is_retried_with_backoff():
    with StubChatServer(mode="error500", fail_first=2, reply="Back again.") as server:
        backend = OpenAIBackend(server.url, "m", retries=3, backoff_s=0.001)
        assert collect(backend) == "Back again."
        assert len(server.requests) == 3


def test_a_server_that_keeps_failing_is_an_error_naming_it():
    with StubChatServer(mode="error500", fail_first=99) as server:
        backend = OpenAIBackend(server.url, "m", retries=2, backoff_s=0.001)
        with pytest.raises(LLMError, match=r"server unavailable after 3 attempts \(HTTP 500\)"):
            collect(backend)


def test_a_server_that_is_down_is_an_error_after_retries():
    url = f"http://127.0.0.1:{free_port()}/v1"
    backend = OpenAIBackend(url, "m", retries=1, backoff_s=0.001)
    with pytest.raises(LLMError, match=rf"{url}: server unavailable after 2 attempts \(cannot connect"):
        collect(backend)


@pytest.mark.parametrize("mode, message", [
    ("garbage", "not an OpenAI-compatible server"),
    ("bad_event", "malformed event in the stream"),
    ("unauthorized", "HTTP 401: invalid api key"),
])
def test_garbage_and_refusals_are_clear_errors(mode, message):
    with StubChatServer(mode=mode) as server:
        with pytest.raises(LLMError, match=message):
            collect(OpenAIBackend(server.url, "m", retries=0))


def test_a_silent_server_times_out():
    with StubChatServer(mode="hang") as server:
        backend = OpenAIBackend(server.url, "m", timeout=0.2, retries=0)
        with pytest.raises(LLMError, match="sent nothing for 0.2 s"):
            collect(backend)


def test_cancel_stops_a_stream_the_server_holds_open():
    cancel = threading.Event()
    with StubChatServer(mode="hang_mid", reply="one two three") as server:
        tokens = OpenAIBackend(server.url, "m").stream(MESSAGES, max_tokens=8, temperature=0, cancel=cancel)
        assert next(tokens) == "one"
        cancel.set()
        assert list(tokens) == []


# --- the embedded model ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def smollm():
    # kgchat's own process: these tests reach into llama.cpp there (tests/unit/test_llm_process.py
    # covers the model in a process of its own)
    return make_backend(Config(n_ctx=2048, llm_process=LLMProcess.SAME))


def test_the_default_model_streams_a_reply(smollm):
    assert smollm.device == ("CUDA" if gpu_offload_supported() else "CPU")
    assert smollm.context_size() == 2048  # the cap, under the model's own 8192
    assert smollm.count_tokens("Omar Haddad is an engineer.") > 3
    tokens = list(smollm.stream([{"role": "user", "content": "What is the capital of France?"}],
                                max_tokens=12, temperature=0.0))
    assert len(tokens) > 1 and "".join(tokens).strip()


def test_cancel_stops_the_embedded_model_and_it_serves_the_next_call(smollm):
    cancel = threading.Event()
    got = []
    for token in smollm.stream([{"role": "user", "content": "Count from one to one hundred."}], max_tokens=200,
                               temperature=0.0, cancel=cancel):
        got.append(token)
        if len(got) == 3:
            cancel.set()
    assert len(got) == 3
    assert list(smollm.stream([{"role": "user", "content": "Hi"}], max_tokens=4, temperature=0.0))


def test_cancel_during_prompt_evaluation_aborts_it_and_leaves_the_model_sound(smollm, monkeypatch):
    """The cancel comes while llama.cpp is about to evaluate the prompt's first batch, so the
    test holds however fast the prompt would be evaluated (a GPU does it in milliseconds)."""
    long = [{"role": "system", "content": "Facts: " + "Omar Haddad is a member of the Engineering group. " * 120},
            {"role": "user", "content": "Who is Omar?"}]
    short = [{"role": "user", "content": "Name a colour."}]
    reference = "".join(smollm.stream(short, max_tokens=8, temperature=0.0))
    cancel = threading.Event()
    c_decode = llama_cpp.llama_cpp.llama_decode
    returned = []

    def decode(ctx, batch):
        if not cancel.is_set() and batch.n_tokens > 1:  # the prompt's first batch of ~1,500 tokens
            cancel.set()
            for watcher in [t for t in threading.enumerate() if t.name == "llm-cancel"]:
                watcher.join(10)  # it raises the abort flag, then ends
        returned.append(c_decode(ctx, batch))
        return returned[-1]

    monkeypatch.setattr(llama_cpp.llama_cpp, "llama_decode", decode)
    assert list(smollm.stream(long, max_tokens=8, temperature=0.0, cancel=cancel)) == []
    # One batch reached llama.cpp: the CPU backend aborts it (2) at the flag; a GPU backend may
    # finish it (0), and the next batch is refused before it starts.
    assert len(returned) == 1 and returned[0] in (0, 2)
    assert returned[0] == 2 or gpu_offload_supported()
    monkeypatch.undo()
    assert smollm._lock.acquire(timeout=10)  # the aborted decode let go of the model
    smollm._lock.release()
    assert "".join(smollm.stream(short, max_tokens=8, temperature=0.0)) == reference


def test_keep_alive_comments_do_not_keep_a_reply_alive():
    with StubChatServer(mode="ping") as server:
        with pytest.raises(LLMError, match="sent no text for 0.3 s"):
            collect(OpenAIBackend(server.url, "m", timeout=0.3, retries=0))


def test_an_endless_event_line_is_an_error_not_a_buffer_without_end(monkeypatch):
    from engine.llm import openai

    monkeypatch.setattr(openai, "MAX_EVENT_LINE", 64 * 1024)
    with StubChatServer(mode="endless_line") as server:
        with pytest.raises(LLMError, match="an event line longer than"):
            collect(OpenAIBackend(server.url, "m", retries=0))


def test_max_tokens_holds_whatever_the_server_sends():
    with StubChatServer(mode="flood", reply="first second") as server:
        tokens = list(OpenAIBackend(server.url, "m", retries=0).stream(MESSAGES, max_tokens=5, temperature=0))
    assert tokens == ["first"] + [" more"] * 4


def test_a_reply_past_its_deadline_is_given_up():
    with StubChatServer(mode="ping") as server:
        with pytest.raises(LLMError, match="still running after 0.2 s"):
            collect(OpenAIBackend(server.url, "m", timeout=60, deadline=0.2, retries=0))
