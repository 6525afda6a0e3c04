"""The OpenAI-compatible backend against a real server on loopback: llama-cpp-python's own
server (extra `server`) serving the default SmolLM2 GGUF."""

import subprocess
import sys

import pytest

from engine.config import Config
from engine.llm import LLMError, default_model_path, make_backend
from tests.support.loopback import free_port

pytest.importorskip("uvicorn", reason="needs llama-cpp-python[server] (the `test` extra installs it)")


@pytest.fixture(scope="module")
def server():
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", default_model_path(),
                             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048", "--verbose", "false"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for line in proc.stderr:  # uvicorn says when it accepts connections
            if "Uvicorn running on" in line:
                break
        else:
            pytest.fail(f"llama_cpp.server exited with {proc.wait()}")
        yield f"http://127.0.0.1:{port}/v1", proc
    finally:
        proc.terminate()
        proc.wait(timeout=30)


MESSAGES = [{"role": "system", "content": "Answer in one short sentence."},
            {"role": "user", "content": "What is the capital of France?"}]


def test_streams_a_reply_from_llama_cpp_server(server):
    url, _ = server
    llm = make_backend(Config(openai_url=url))  # no --openai-model: the server's /models names it
    tokens = list(llm.stream(MESSAGES, max_tokens=12, temperature=0.0))
    assert len(tokens) > 1  # streamed, not one block
    assert "".join(tokens).strip()
    assert llm.model.endswith(".gguf") and llm.device == "remote"


def test_kgchat_ask_answers_through_the_server(server, capsys):
    import json

    from cli import main

    url, _ = server
    code = main(["ask", "Who is in the Engineering group?", "--openai-url", url, "--memory", "--scorer", "bm25",
                 "--max-tokens", "24", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    reply = json.loads(out)
    assert reply["response"] and reply["device"] == "remote" and not reply["error"]
    assert reply["model"].endswith(".gguf")


async def test_the_app_answers_through_the_server(server, tmp_path):
    """The remote model end to end from the TUI (runs before the test that stops the server)."""
    from tests.support.app import ask, ready
    from tui.app import KGChatApp
    from tui.main import app_config

    url, _ = server
    config = app_config(["--memory", "--openai-url", url, "--scorer", "bm25", "--refine-steps", "0",
                         "--max-tokens", "24", "--now", "2026-03-05T09:30:00"])
    app = KGChatApp(config, export_dir=tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(app, pilot)
        assert app.status.device == "remote" and url in app.status.model
        reply = await ask(app, pilot, "Who is in the Engineering group?")
        state = app.turns[-1].state
        # the server's reply came back; the bubble shows it, or (--answer auto) the KG's answer in its place
        assert state.response.strip() and reply.text.strip() == state.shown_reply.strip()
        assert not app.turns[-1].state.error


def test_the_server_going_down_is_a_clear_error(server):
    url, proc = server
    llm = make_backend(Config(openai_url=url, openai_model="smollm2"))
    assert "".join(llm.stream(MESSAGES, max_tokens=4, temperature=0.0))
    proc.terminate()
    proc.wait(timeout=30)
    llm.backoff_s = 0.001
    with pytest.raises(LLMError, match=r"server unavailable after 4 attempts \(cannot connect"):
        list(llm.stream(MESSAGES, max_tokens=4, temperature=0.0))
