from datetime import datetime

from engine.config import Config
from engine.context import TurnContext
from engine.llm import LLMError
from engine.stages.rewrite.llm import rewrite
from engine.state import TurnState
from tests.support.fakes import ScriptedLLM


def state() -> TurnState:
    return TurnState(session_id="t", turn=3, text="What is her email?", now=datetime(2026, 11, 21, 10),
                     history=[("user", "Find Lisa Wilson."), ("system", "Lisa Wilson is in Biology.")])


def ctx(llm) -> TurnContext:
    return TurnContext(config=Config(rewrite="llm"), store=None, background=None, resources={"llm": llm})


def test_the_resolved_user_turn_is_taken_from_the_models_reasoned_output():
    llm = ScriptedLLM(["Reasoning: 'her' is Lisa Wilson, whom the system just named.\n"
                       "Resolved dialogue:\nUser: Find Lisa Wilson.\nSystem: Lisa Wilson is in Biology.\n"
                       "User: What is Lisa Wilson's email?"])
    assert rewrite(state(), ctx(llm)) == "What is Lisa Wilson's email?"
    sent = llm.calls[0]
    assert "Do not answer" in sent[0]["content"]
    assert sent[1]["content"].endswith("User: What is her email?")


def test_output_that_does_not_parse_gives_none_for_the_rule_fallback():
    assert rewrite(state(), ctx(ScriptedLLM(["Her email is lisa@example.org."]))) is None


class Down(ScriptedLLM):
    def stream(self, messages, **kw):
        raise LLMError("server down")
        yield


def test_an_unavailable_model_gives_none():
    assert rewrite(state(), ctx(Down())) is None


def test_a_cancelled_rewrite_gives_none():
    c = ctx(ScriptedLLM(["Resolved dialogue:\nUser: What is Lisa Wilson's email?"]))
    c.cancel.set()
    assert rewrite(state(), c) is None
