"""Readers and judging for MetaQA (Zhang et al. 2018) in its published file forms.

The KB comes either as `subject|relation|object` lines (kb.txt) or as tab-separated ID triples
with `entities.dict` / `relations.dict` (`id<TAB>name`); questions as
`question with [topic]<TAB>answer|answer`. A question is asked as a user would type it, so the
brackets that mark the topic are removed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

BRACKET = re.compile(r"\[([^\[\]]*)\]")


@dataclass(frozen=True)
class Question:
    text: str
    topic: str
    answers: tuple[str, ...]


def read_kb_lines(lines) -> list[tuple[str, str, str]]:
    """Triples of `subject|relation|object` lines; blank lines skipped, a malformed one raises."""
    out = []
    for n, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        parts = line.split("|")
        if len(parts) != 3 or not all(p.strip() for p in parts):
            raise ValueError(f"KB line {n} is not subject|relation|object: {line!r}")
        out.append((parts[0].strip(), parts[1].strip(), parts[2].strip()))
    return out


def read_dict(lines) -> dict[str, str]:
    """`id<TAB>name` lines as {id: name}."""
    out = {}
    for n, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        key, sep, name = line.partition("\t")
        if not sep:
            raise ValueError(f"dictionary line {n} has no tab: {line!r}")
        out[key.strip()] = name.strip()
    return out


def read_id_triples(lines, entities: dict[str, str], relations: dict[str, str]) -> list[tuple[str, str, str]]:
    """Tab-separated ID triples resolved through the two dictionaries."""
    out = []
    for n, line in enumerate(lines, 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 3:
            raise ValueError(f"triple line {n} has not three ids: {line!r}")
        s, r, o = parts
        try:
            out.append((entities[s], relations[r], entities[o]))
        except KeyError as e:
            raise ValueError(f"triple line {n} names an unknown id {e.args[0]}") from None
    return out


def plain(question: str) -> str:
    """The question as a user types it: topic brackets removed."""
    return BRACKET.sub(r"\1", question)


def read_questions(lines) -> list[Question]:
    out = []
    for n, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        text, sep, answers = line.partition("\t")
        found = BRACKET.search(text)
        if not sep or found is None:
            raise ValueError(f"question line {n} lacks a [topic] or a tab: {line!r}")
        golds = tuple(a for a in answers.split("|") if a)
        out.append(Question(plain(text), found.group(1), golds))
    return out


def read_file(path: Path, reader):
    with open(path, encoding="utf-8") as f:
        return reader(f)


def judge(named: list[str], gold: tuple[str, ...]) -> dict[str, bool]:
    """Hits@1: the first answer the reply names is gold; any-hit; all-answers named."""
    golds = {g.casefold() for g in gold}
    said = [n.casefold() for n in named]
    return {"hits1": bool(said) and said[0] in golds, "any": any(s in golds for s in said), "all": bool(golds) and golds <= set(said)}
