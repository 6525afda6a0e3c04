"""The Session API: turns go through the pipeline, and a session on disk resumes where it was."""

import gc

from engine.config import Config
from engine.session import Session
from tests.support.fakes import ScriptedLLM


def _config(tmp_path, **extra) -> Config:
    return Config(store=str(tmp_path / "store"), demo="office", now="2026-03-05T09:30:00",
                  scorer="bm25", refine_steps=0, **extra)


def test_reopened_session_continues_its_dialogue(tmp_path):
    session = Session.open(_config(tmp_path), llm=ScriptedLLM(["Hello there."]))
    first = session.user_turn("Hello")
    assert first.turn == 1 and first.response == "Hello there."
    session_id = session.session_id
    del session, first
    gc.collect()  # pyoxigraph releases the store directory when its Store is collected

    reopened = Session.open(_config(tmp_path), session_id=session_id, llm=ScriptedLLM(["Again."]))
    assert reopened.history == [("user", "Hello"), ("system", "Hello there.")]
    second = reopened.user_turn("Thanks")
    assert second.turn == 3
    assert reopened.history[-2:] == [("user", "Thanks"), ("system", "Again.")]


def test_retrieval_only_turn_generates_nothing(tmp_path):
    llm = ScriptedLLM(["unused"])
    session = Session.open(Config(memory=True, now="2026-03-05T09:30:00", scorer="bm25"), llm=llm)
    state = session.user_turn("Where is the Weekly Sync on Tuesday?", answer=False)
    assert state.response == "" and llm.calls == []
    assert {"observe", "reason", "retrieve"} <= set(state.timings_ms)
    assert session.history == [("user", "Where is the Weekly Sync on Tuesday?")]


def test_pasted_document_is_linked_within_a_mention_cap():
    from engine.stages.observe import MAX_MENTIONS

    session = Session.open(Config(memory=True, now="2026-03-05T09:30:00", scorer="bm25"))
    text = "Where is the Weekly Sync on Tuesday? Who organizes it? " * 2000  # about 110 KB
    state = session.user_turn(text, answer=False)
    assert len(state.mentions) == MAX_MENTIONS
    assert f"only the first {MAX_MENTIONS}" in state.reasoning_note
    assert state.retrieved, "the turn still retrieves from what it linked"


def test_a_long_turn_is_cut_before_it_is_read_and_says_so(monkeypatch):
    import engine.session

    monkeypatch.setattr(engine.session, "MAX_TURN_CHARS", 120)
    session = Session.open(Config(memory=True, now="2026-03-05T09:30:00", scorer="bm25"))
    text = "Where is the Weekly Sync on Tuesday? " + "Please. " * 20 + "Who is Jordan Haddad?"
    state = session.user_turn(text, answer=False)
    assert text.startswith(state.text) and 100 < len(state.text) <= 120 and not state.text.endswith(" ")
    assert state.text_note == f"the turn was cut to its first {len(state.text)} characters of {len(text)}; the rest was not read"
    linked = {m.label for m in state.mentions if m.entity}
    assert "Weekly Sync" in linked and "Jordan Haddad" not in linked
    assert session.history == [("user", state.text)]
    assert session.system_turn("Jordan Haddad " * 20).startswith("the turn was cut to its first 1")
    assert len(session.history[-1][1]) <= 120
    assert not session.user_turn("Who is Jordan Haddad?", answer=False).text_note
