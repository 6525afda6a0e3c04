import threading
from datetime import datetime

import pytest

from engine.config import Config
from engine.context import TurnContext
from engine.events import ReplyDone, StageFinished, Token, TurnError
from engine.llm import LLMError
from engine.llm.base import cancellable
from engine.stages.generate import run as generate
from engine.state import Candidate, TurnState
from kgstore.terms import Fact
from tests.support.fakes import ScriptedLLM


def fact(text: str, score: float) -> Candidate:
    return Candidate(fact=Fact("urn:s", "urn:p", text, o_literal=True), text=text, score=score)


def turn(text="What is Omar's phone number?", **kw) -> TurnState:
    state = TurnState(session_id="t", turn=3, text=text, now=datetime(2026, 11, 21, 10, 0),
                      history=[("user", "Who is Omar?"), ("system", "Omar Haddad is an engineer.")], **kw)
    state.retrieved = [fact("Omar Haddad is a member of the Engineering group", 0.4),
                       fact("Omar Haddad's phone number is +47 555 0101", 0.9)]
    return state


def context(llm, **config) -> tuple[TurnContext, list]:
    events: list = []
    ctx = TurnContext(config=Config(**config), store=None, background=None, resources={"llm": llm})
    ctx.emit = events.append
    return ctx, events


def test_streams_tokens_as_events_and_fills_the_state():
    llm = ScriptedLLM(["His phone number is +47 555 0101."])
    ctx, events = context(llm)
    state = turn()
    generate(state, ctx)
    tokens = [e.text for e in events if isinstance(e, Token)]
    assert "".join(tokens).strip() == "His phone number is +47 555 0101."
    assert state.response == "His phone number is +47 555 0101."
    assert not state.cut and not state.error
    assert state.device == "CPU"
    assert [e for e in events if isinstance(e, ReplyDone)] == [ReplyDone(state.response, cut=False)]
    assert isinstance(events[-1], StageFinished) and events[-1].data["response"] == state.response
    assert "generate" in state.timings_ms
    # the prompt the model saw: best fact first, the dialogue, the user turn last
    system = llm.calls[0][0]["content"]
    assert system.index("1. Omar Haddad's phone number") < system.index("2. Omar Haddad is a member")
    assert llm.calls[0][-1] == {"role": "user", "content": "What is Omar's phone number?"}
    assert state.prompt == llm.calls[0]


def test_cancel_keeps_the_partial_reply_marked_cut():
    gate = threading.Event()
    gate.set()
    llm = ScriptedLLM(["one two three four five six"], gate=gate)
    ctx, events = context(llm)
    seen = []

    def emit(event):
        events.append(event)
        if isinstance(event, Token):
            seen.append(event.text)
            if len(seen) == 2:
                ctx.cancel.set()

    ctx.emit = emit
    state = turn()
    generate(state, ctx)
    assert state.cut
    assert state.response == "one two"
    assert ReplyDone("one two", cut=True) in events


def test_cancel_returns_while_the_model_is_blocked_between_tokens():
    cancel = threading.Event()
    stuck = threading.Event()
    finished = threading.Event()

    def produce(stop):
        yield "first"
        stuck.wait()  # a model busy evaluating a long prompt, or a silent server
        finished.set()
        yield "never seen"

    tokens = cancellable(produce, cancel)
    assert next(tokens) == "first"
    cancel.set()
    assert list(tokens) == []  # returns without waiting for the producer
    stuck.set()
    assert finished.wait(5)


def test_producer_errors_reach_the_consumer():
    def produce(stop):
        yield "a"
        raise LLMError("server went away")

    tokens = cancellable(produce, None)
    assert next(tokens) == "a"
    try:
        next(tokens)
    except LLMError as exc:
        assert "went away" in str(exc)
    else:
        raise AssertionError("the error was swallowed")


class FailingLLM(ScriptedLLM):
    def stream(self, messages, **kw):
        yield "Partial"
        raise LLMError("http://127.0.0.1:9/v1: server unavailable after 4 attempts")


def test_backend_failure_records_the_error_and_the_turn_goes_on():
    ctx, events = context(FailingLLM())
    state = turn()
    generate(state, ctx)  # no exception
    assert "server unavailable" in state.error
    assert state.response == "Partial" and state.cut
    assert TurnError("generate", state.error) in events


def test_a_model_that_cannot_be_built_is_a_turn_error():
    ctx, events = context(None)
    ctx.resources.clear()
    ctx.config.model = "/nonexistent/model.gguf"
    state = turn()
    generate(state, ctx)
    assert "/nonexistent/model.gguf" in state.error and "does not exist" in state.error
    assert any(isinstance(e, TurnError) for e in events)
    assert "llm" not in ctx.resources  # the next turn tries again


class SmallContext(ScriptedLLM):
    def context_size(self) -> int:
        return 400


def test_prompt_is_trimmed_to_the_model_context():
    llm = SmallContext(["ok"])
    ctx, _ = context(llm, max_tokens=256)
    state = turn()
    state.history = [("user", "word " * 30), ("system", "word " * 30)] * 3
    generate(state, ctx)
    prompt_tokens = sum(llm.count_tokens(m["content"]) + 8 for m in llm.calls[0])
    assert prompt_tokens <= 400 - 200 - 16  # half of the context is the reply's, and a reserve
    assert len(llm.calls[0]) < 2 + len(state.history)  # old turns went
    assert "phone number is +47 555 0101" in llm.calls[0][0]["content"]
    assert llm.calls[0][-1]["content"] == state.text




def test_a_cancelled_turn_keeps_its_partial_reply_in_the_dialogue():
    from engine.config import Config as Cfg
    from engine.session import Session

    session = Session.open(Cfg(memory=True, scorer="bm25"), llm=ScriptedLLM(["one two three four five"]))
    cancel = threading.Event()
    seen = []

    def on_event(event):
        if isinstance(event, Token):
            seen.append(event.text)
            if len(seen) == 2:
                cancel.set()

    state = session.user_turn("Who is in the Engineering group?", on_event=on_event, cancel=cancel)
    assert state.cut and state.response == "one two"
    assert state.checks == [] and state.refined is None  # nothing after the cut ran
    assert session.history[-2:] == [("user", "Who is in the Engineering group?"), ("system", "one two")]
    nxt = session.user_turn("Thanks")  # the session goes on
    assert not nxt.cut and nxt.response == "one two three four five"


def test_a_reply_that_goes_round_in_a_loop_is_stopped_and_cut_after_the_first_time():
    llm = ScriptedLLM(["His phone number is +47 555 0101. Omar Haddad: " + "Omar Haddad: " * 60])
    ctx, events = context(llm)
    state = turn()
    generate(state, ctx)
    assert state.response == "His phone number is +47 555 0101."  # the first time round opened nothing it gave
    assert "repeating “Omar Haddad:”" in state.reply_note and not state.cut
    streamed = "".join(e.text for e in events if isinstance(e, Token))
    assert streamed.count("Omar Haddad:") < 10  # the model was stopped, not read to its token limit
    assert [e.note for e in events if isinstance(e, ReplyDone)] == [state.reply_note]


def test_the_prompt_copied_at_the_head_of_a_reply_and_a_list_opened_at_its_end_are_left_out():
    ctx, _ = context(ScriptedLLM(["The user's last message, with references resolved: It was founded in 2003."]))
    state = turn()
    generate(state, ctx)
    assert state.response == "It was founded in 2003."
    # nor a list opened at its end and never given, the form of earlier answers copied
    ctx, _ = context(ScriptedLLM(["Finse: 1222 m; 2 of them:"]))
    state = turn()
    generate(state, ctx)
    assert state.response == "Finse: 1222 m"
    # a reply that only says such words is kept as it is: there is nothing else to show
    ctx, _ = context(ScriptedLLM(["Knowledge:"]))
    state = turn()
    generate(state, ctx)
    assert state.response == "Knowledge:"


@pytest.mark.parametrize("reply", [
    "Omar Haddad, Lisa Wilson and Maria Lopez are in the Engineering group.",
    "It is very, very, very close to the station.",
    "Yes. Yes. Yes.",
    "Room 1: free. Room 2: free. Room 3: free. Room 4: free.",
])
def test_a_reply_that_repeats_a_word_or_a_pattern_is_no_loop(reply):
    ctx, _ = context(ScriptedLLM([reply]))
    state = turn()
    generate(state, ctx)
    assert state.response == reply and not state.reply_note
