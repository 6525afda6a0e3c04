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
