"""The out-of-domain retrieval benchmark: five domains the office generator knows nothing of.

    from harness import ood
    ood.domains()                     # ["football", "films", "books", "companies", "geography"]
    ood.kg_path("films", "test")      # the KG file (written to the cache dir on first use)
    ood.load_split("films", "test")   # {dialogue_id: dialogue}, office benchmark shape + "kg_file"

Each dialogue holds `kg_file` (its world's KG, one per domain and split), `now`, `domain`,
`kind`, `noise_predicates` (the IRIs of name-noise relations) and a `log` whose user turns carry
`gold` = {nodes, edges, links, answer: {facts, strings, kind, relations, asks_name}}.
Files go to $KGCHAT_OOD_DIR, else ~/.cache/kgchat/ood/; they are rewritten only when the
generator's output changes, so concurrent runs see whole files.
"""

from __future__ import annotations

import copy
import os
import tempfile
from pathlib import Path

_CACHE: dict[tuple[str, str], tuple[str, dict]] = {}


def domains() -> list[str]:
    from harness.ood.generate import DOMAINS

    return list(DOMAINS)


def splits() -> list[str]:
    from harness.ood.generate import SPLITS

    return list(SPLITS)


def cache_dir() -> Path:
    return Path(os.environ.get("KGCHAT_OOD_DIR") or Path.home() / ".cache" / "kgchat" / "ood")


def _generated(domain: str, split: str) -> tuple[str, dict]:
    if (domain, split) not in _CACHE:
        from harness.ood.generate import generate

        _CACHE[(domain, split)] = generate(domain, split)
    return _CACHE[(domain, split)]


def kg_path(domain: str, split: str) -> Path:
    from harness.ood.generate import file_name

    text = _generated(domain, split)[0]
    path = cache_dir() / file_name(domain, split)
    data = text.encode("utf-8")
    if not path.exists() or path.read_bytes() != data:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    return path


def load_split(domain: str, split: str) -> dict[str, dict]:
    """The dialogues of one domain and split (a fresh copy), each pointing at its KG file."""
    path = str(kg_path(domain, split))
    dialogues = copy.deepcopy(_generated(domain, split)[1])
    for d in dialogues.values():
        d["kg_file"] = path
    return dialogues


__all__ = ["cache_dir", "domains", "kg_path", "load_split", "splits"]
