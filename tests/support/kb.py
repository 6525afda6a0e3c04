"""A knowledge base for tests: a store loaded from a file, or from Turtle text, with its name index."""

from __future__ import annotations

from engine.nlp.mentions import LabelIndex, build_index
from kgstore import KGStore


def loaded(path) -> tuple[KGStore, LabelIndex]:
    store = KGStore()
    store.load(str(path))
    return store, build_index(store)


def from_turtle(tmp_path, text: str) -> tuple[KGStore, LabelIndex]:
    path = tmp_path / "kg.ttl"
    path.write_text(text, encoding="utf-8")
    return loaded(path)


def verifier_of(kb: tuple[KGStore, LabelIndex], history=()):
    """The claim checker over a test knowledge base, after the dialogue `history`."""
    from engine.factcheck.verify import Verifier

    return Verifier(kb[0], kb[1], history=list(history))


def checks_of(kb: tuple[KGStore, LabelIndex], reply: str, history=()) -> list:
    """The checker's checks of a reply over a test knowledge base."""
    from engine.factcheck import check_reply

    return check_reply(reply, verifier_of(kb, history))


def verdict(kb: tuple[KGStore, LabelIndex], claim: str) -> str:
    """The verdict on a reply that is one claim (the test fails when it splits into more)."""
    checks = checks_of(kb, claim)
    assert len(checks) == 1, [c.claim for c in checks]
    return str(checks[0].verdict)
