"""The hand-written tables (harness/tables) and the same data as Turtle, written apart from the
table loader (harness.tables.to_turtle), answer every question of the set alike: the answer
composed from the facts says the gold values for the one exactly when it does for the other."""

from __future__ import annotations

import json

import pytest

from engine.config import AnswerMode, Config
from engine.context import TurnContext
from engine.session import Session
from harness.bench.retrieve import shared_resources
from harness.eval.answers import said
from harness.tables.to_turtle import DOMAINS, HERE, turtle
from kgstore import KGStore
from tests.support.fakes import ScriptedLLM

KG_FILES = {"hospital": "kg.csv", "library": "kg.tsv", "hiking": "kg.xlsx", "choirs": "kg.csv"}


@pytest.fixture(scope="module")
def shared():
    """The encoder and the scorer, built once, and a model that is never the answer: every reply
    shown is composed from the facts."""
    return {**shared_resources(), "llm": ScriptedLLM(["I do not know."])}


def _replies(path, questions: list[dict], resources: dict) -> list[tuple[str, bool | None]]:
    store = KGStore()
    store.load(path)
    ctx = TurnContext(config=Config(memory=True, demo="none", answer=AnswerMode.FACTS), store=store,
                      background=store, resources=dict(resources))  # the name index is per store
    out = []
    for q in questions:
        state = Session(ctx).user_turn(q["dialogue"][-1]["text"])
        out.append((state.shown_reply, said(state.shown_reply, q["kind"], q["answer_contains"])))
    return out


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_a_table_and_the_same_data_as_turtle_answer_alike(tmp_path, shared, domain):
    questions = [json.loads(line) for line in (HERE / domain / "questions.jsonl").read_text(encoding="utf-8").splitlines()
                 if line.strip()]
    ttl = tmp_path / "kg.ttl"
    ttl.write_text(turtle(domain), encoding="utf-8")
    as_table = _replies(HERE / domain / KG_FILES[domain], questions, shared)
    as_turtle = _replies(ttl, questions, shared)
    differ = [(q["id"], a, b) for q, a, b in zip(questions, as_table, as_turtle, strict=True) if a[1] != b[1]]
    assert not differ
    assert sum(bool(right) for _, right in as_table) >= 0.8 * len(questions)  # the set is answered, not missed alike
