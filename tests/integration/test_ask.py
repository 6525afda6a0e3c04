"""`kgchat ask` end to end on the demo office KG, with the model behind an OpenAI-style stub
server on loopback (the remote-model path) or the scripted fake for session-level faults."""

import json
import os
import signal
import subprocess
import sys

import pytest

from cli import main
from engine.config import Config
from engine.llm.llama import gpu_offload_supported
from engine.llm.openai import OpenAIBackend
from engine.session import Session
from tests.support.fakes import StubChatServer

QUESTION = "What is Jordan Haddad's phone number?"


def ask(capsys, *argv) -> tuple[int, dict | None, str]:
    code = main(["ask", *argv])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 and out.strip().startswith("{") else None), err


def test_ask_json_has_the_retrieve_turn_the_reply_checks_and_device(capsys):
    with StubChatServer(reply="I do not know his phone number.") as server:
        code, out, err = ask(capsys, QUESTION, "--openai-url", server.url, "--memory", "--scorer", "bm25", "--json")
    assert code == 0, err
    for key in ("turn", "text", "rewritten", "mentions", "derived", "retrieved", "timings_ms", "response",
                "checks", "fact_score", "neip", "refined", "device", "cut", "error"):
        assert key in out
    assert out["response"] == "I do not know his phone number."
    assert out["device"] == "remote" and out["model"] == "stub-model" and not out["cut"] and not out["error"]
    assert out["retrieved"] and all("text" in r and "score" in r for r in out["retrieved"])
    assert {"generate", "retrieve", "first_token"} <= set(out["timings_ms"])
    system_prompt = server.requests[0]["messages"][0]["content"]
    assert out["retrieved"][0]["text"] in system_prompt  # the model was given what was retrieved


def test_ask_replays_the_dialogue_before_the_question(capsys, tmp_path):
    dialogue = tmp_path / "d.json"
    dialogue.write_text(json.dumps([{"speaker": "user", "text": "Who is Jordan Haddad?"},
                                    {"speaker": "system", "text": "Jordan Haddad works here."}]))
    with StubChatServer(reply="Fine.") as server:
        code, out, err = ask(capsys, "What is his phone number?", "--dialogue", str(dialogue),
                             "--openai-url", server.url, "--memory", "--scorer", "bm25", "--json")
    assert code == 0, err
    assert out["turn"] == 3
    roles = [(m["role"], m["content"]) for m in server.requests[-1]["messages"][1:]]
    assert roles == [("user", "Who is Jordan Haddad?"), ("assistant", "Jordan Haddad works here."),
                     ("user", "What is his phone number?")]


def test_a_missing_model_file_is_one_line_and_exit_2(capsys, tmp_path):
    code, _, err = ask(capsys, QUESTION, "--model", str(tmp_path / "gone.gguf"), "--memory", "--scorer", "bm25", "--json")
    assert code == 2
    assert err.count("\n") == 1 and "gone.gguf: file does not exist" in err


def test_a_model_that_fails_is_one_line_and_exit_2(capsys):
    with StubChatServer(mode="unauthorized") as server:
        code, out, err = ask(capsys, QUESTION, "--openai-url", server.url, "--memory", "--scorer", "bm25")
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("kgchat: error: generate: ") and "401" in err


def test_a_server_that_is_down_ends_the_turn_with_an_error_and_the_session_goes_on(capsys):
    with StubChatServer(mode="error500", fail_first=4, reply="Back.") as server:
        llm = OpenAIBackend(server.url, "m", retries=3, backoff_s=0.001)
        session = Session.open(Config(memory=True, scorer="bm25", answer="llm"), llm=llm)
        dialogue_before = session.ctx.store.count()
        first = session.user_turn(QUESTION)
        assert "server unavailable after 4 attempts (HTTP 500)" in first.error
        assert first.response == "" and session.history == [("user", QUESTION)]
        assert session.ctx.store.count() > dialogue_before  # the user turn is in the dialogue graph
        second = session.user_turn("And his e-mail?")
        assert second.response == "Back." and not second.error
        assert session.history[-1] == ("system", "Back.")


def test_with_the_server_down_auto_answers_from_the_knowledge_graph():
    with StubChatServer(mode="error500", fail_first=4, reply="Back.") as server:
        llm = OpenAIBackend(server.url, "m", retries=3, backoff_s=0.001)
        session = Session.open(Config(memory=True, scorer="bm25"), llm=llm)
        state = session.user_turn(QUESTION)
        assert "server unavailable" in state.error and state.response == ""
        assert state.answer_source == "facts" and "the model gave no reply" in state.composed.reason
        assert "phone number is" in state.shown_reply
        assert session.history[-1] == ("system", state.shown_reply)


def test_ctrl_c_stops_the_reply_and_keeps_it_marked_cut():
    with StubChatServer(mode="hang_mid", reply="one two three") as server:
        env = dict(os.environ, HF_HUB_OFFLINE="1")
        proc = subprocess.Popen([sys.executable, "-m", "cli", "ask", QUESTION, "--openai-url", server.url,
                                 "--memory", "--scorer", "bm25"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
        assert proc.stdout.read(3) == b"one"  # the first token arrived; the server now holds the stream
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()
    assert out.decode().startswith(" [cut]")
    assert "three" not in out.decode()


@pytest.mark.slow
def test_ask_with_the_default_embedded_model(capsys):
    code, out, err = ask(capsys, QUESTION, "--memory", "--scorer", "bm25", "--max-tokens", "24", "--json")
    assert code == 0, err
    assert out["response"] and out["device"] == ("CUDA" if gpu_offload_supported() else "CPU") and not out["error"]
    assert "smollm2" in out["model"].lower()
    assert out["timings_ms"]["first_token"] >= out["timings_ms"]["retrieve"]


def test_ask_says_what_the_candidate_cap_and_the_reasoning_budget_cut(capsys):
    with StubChatServer(reply="Fine.") as server:
        code, _, err = ask(capsys, QUESTION, "--openai-url", server.url, "--memory", "--scorer", "bm25",
                           "--candidate-cap", "1", "--reason-timeout-ms", "1", "--json")
    assert code == 0, err
    notes = [line for line in err.splitlines() if line.startswith("kgchat: note: ")]
    assert any("capped at 1" in n for n in notes) and any("time budget of 1 ms" in n for n in notes), err


def test_long_turns_are_cut_and_the_output_says_so(capsys, tmp_path, monkeypatch):
    import engine.session

    monkeypatch.setattr(engine.session, "MAX_TURN_CHARS", 200)
    dialogue = tmp_path / "d.json"
    dialogue.write_text(json.dumps([{"speaker": "user", "text": "Who is Jordan Haddad? " * 50},
                                    {"speaker": "system", "text": "Jordan Haddad works here."}]))
    with StubChatServer(reply="Fine.") as server:
        code, out, err = ask(capsys, "What is his phone number? " * 50, "--dialogue", str(dialogue),
                             "--openai-url", server.url, "--memory", "--scorer", "bm25", "--json")
    assert code == 0, err
    assert "kgchat: note: turn 1: the turn was cut to its first 197 characters of 1,100; the rest was not read" in err
    assert "kgchat: note: the turn was cut to its first 199 characters of 1,300; the rest was not read" in err
    assert "turn 2" not in err and out["text"] == ("What is his phone number? " * 8)[:199]
    contents = [m["content"] for m in server.requests[-1]["messages"][1:]]
    assert max(map(len, contents)) <= 200
