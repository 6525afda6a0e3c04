"""A session whose background is a SPARQL endpoint keeps going when the endpoint goes away."""

from __future__ import annotations

from engine.config import Config
from engine.session import Session
from kgstore import KGStore, demo_path
from tests.support.fakes import ScriptedLLM
from tests.support.loopback import OxigraphServer


def test_endpoint_stopped_mid_session_leaves_the_turn_on_the_dialogue_graph():
    local = KGStore()
    local.load(demo_path("wikidata"))
    server = OxigraphServer()
    try:
        server.put(local.dump())
        # the model's own reply is what this test follows (the composer has its tests in test_compose.py)
        config = Config(memory=True, sparql=server.query_url, sparql_timeout=2.0, scorer="bm25", refine_steps=0,
                        answer="llm")
        session = Session.open(config, llm=ScriptedLLM(["Christopher Nolan directed it.", "I cannot look that up now."]))
        first = session.user_turn("Who directed Inception?")
        assert first.retrieved and not first.error
        server.stop()
        second = session.user_turn("Where was Leonardo DiCaprio born?")
        assert second.response == "I cannot look that up now."
        assert "unavailable" in second.candidates_note
        assert session.history[-1] == ("system", "I cannot look that up now.")
    finally:
        server.stop()
