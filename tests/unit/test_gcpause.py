"""What the app prepares once is left out of the collector's full passes, and a load gives it
back; a turn runs without the collector (its objects go by reference counting)."""

import gc

import pytest

from engine.config import Config
from engine.context import TurnContext
from engine.session import Session
from kgstore import KGStore


@pytest.fixture
def session(monkeypatch, tmp_path):
    # the heavy parts of the preparation are not what is tested here
    monkeypatch.setattr("engine.stages.score.prepare.ready", lambda ctx, say: ("cpu", ""))
    monkeypatch.setattr("engine.prefetch.prefetch", lambda ctx: 0)
    monkeypatch.setattr("engine.nlp.dependency.parser", lambda: None)
    monkeypatch.setattr("engine.nlp.mentions.label_index", lambda ctx: None)
    store = KGStore()
    yield Session(TurnContext(config=Config(memory=True, demo="none"), store=store, background=store))
    gc.unfreeze()


def test_prepare_settles_what_is_alive_and_a_load_unsettles_it(session, tmp_path):
    gc.unfreeze()
    assert session.prepare() == ("cpu", "")
    assert gc.get_freeze_count() > 0
    kg = tmp_path / "shop.csv"
    kg.write_text("part,bin,price_eur\nbrake pad,B4,12\nchain,C1,25\n", encoding="utf-8")
    session.load(str(kg))
    assert gc.get_freeze_count() == 0


def test_a_turn_runs_without_the_cyclic_collector_and_gives_it_back(session, monkeypatch):
    seen = []
    monkeypatch.setattr("engine.session.run_stages", lambda state, ctx, stages: seen.append(gc.isenabled()))
    assert gc.isenabled()
    session.user_turn("Which bin holds the brake pads?", answer=False)
    assert seen == [False] and gc.isenabled()
