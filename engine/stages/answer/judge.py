"""Whether the model's reply may be shown (`--answer auto`): only when it says something the KG
backs (a claim supported, none contradicted, nothing said twice over); not when it names what the
KG lacks, or when it leaves out the fact that answers the question."""

from __future__ import annotations

import re

from engine.stages.answer.compose import select, text_key
from engine.state import Candidate, Check

# A fact this sure, with every fact of another relation under half of it, is the answer: a reply
# that states only the others ("founded on 1922" for "Who started it?") has not answered.
DOMINANT_P, DOMINANT_RATIO = 0.5, 0.5


def says_best_fact(check: Check, best: list[Candidate]) -> bool:
    """A supported claim that states one of the facts kgchat would answer with (the same
    triple, or the same sentence): a reply that only says "X is a human" or names X's given
    name does not answer "where was X born"."""
    ev = check.evidence
    if check.verdict != "supported" or ev.source == "dialogue":
        return False
    keys = {c.fact.key for c in best} | {text_key(c.text) for c in best}
    return any((e.s, e.p, e.o) in keys or text_key(e.text) in keys for e in [ev, *ev.more])


def dominant(facts: list[Candidate]) -> list[Candidate]:
    """The fact that stands far ahead of all others about the question (relevance at least
    DOMINANT_P, every fact of another relation under DOMINANT_RATIO of it), with the other
    values of its relation; [] when none does."""
    if not facts:
        return []
    top = max(facts, key=lambda c: c.score)
    values = [c for c in facts if c.fact.p == top.fact.p and (c.fact.s == top.fact.s or c.fact.o == top.fact.o)]
    taken = {id(c) for c in values}
    rest = max((c.score for c in facts if id(c) not in taken), default=0.0)
    return values if top.score >= DOMINANT_P and rest < DOMINANT_RATIO * top.score else []


def invented(checks: list[Check], dialogue: str, known: str = "") -> list[str]:
    """Names the reply's claims state that the knowledge graph has nothing of, and that the user
    did not say either ("The mayor of Vienna is Viktor Koprivin", over a KG without mayors), and
    numbers of two digits or more that no fact the turn looked at (`known`, their sentences) and
    nothing the user said holds ("Hamburg's telephone area code is 123456789")."""
    said = dialogue.casefold()
    names = (n for c in checks if c.verdict == "nei" for n in c.evidence.unknown)
    held = _numbers(known + " " + dialogue)
    numbers = (n for c in checks if c.verdict == "nei" for n in _numbers(c.claim) if len(n) > 1 and n not in held)
    return list(dict.fromkeys([*(n for n in names if n.casefold() not in said), *numbers]))


def _numbers(text: str) -> set[str]:
    """The digit runs of a text, a thousands separator joining its run ("10,115" is 10115)."""
    return set(re.findall(r"\d+", re.sub(r"(?<=\d),(?=\d{3})", "", text)))


def repeated(response: str) -> bool:
    """A degenerate reply: the same clause or list line, case, numbering and spacing aside, said
    more than once (a list that repeats one fact until the token limit)."""
    parts = [" ".join(re.sub(r"^\s*(\d+[.)]|[-*•])\s*", "", p).casefold().split()).strip(" .;,")
             for p in re.split(r"[\n.;]+", response)]
    parts = [p for p in parts if len(p.split()) > 1]
    return len(parts) != len(set(parts))


def replacement_reason(checks: list[Check], response: str, error: str, facts: list[Candidate],
                       asked: set[str] | frozenset[str] = frozenset(), dialogue: str | None = None,
                       known: str = "") -> str:
    """Why `--answer auto` does not show the model's reply, or "" to show it. `dialogue`: what
    the user said so far, for a turn that looks something up (names from there are not
    invented); None for small talk, where a name the KG lacks is no answer passed off. `known`:
    the sentences of the facts the turn looked at (a number from there is not invented)."""
    if any(c.verdict == "contradicted" for c in checks):
        return "a claim of the model's reply contradicts the knowledge graph"
    names = invented(checks, dialogue, known) if dialogue is not None else []
    if names:
        return f"the model's reply names {', '.join(names[:3])}, which the knowledge graph does not have"
    if response and repeated(response):
        return "the model's reply says the same thing more than once"
    if dialogue is not None and response and not any(c.verdict == "supported" for c in checks):
        return "no claim of the model's reply is backed by the knowledge graph"
    if not facts:
        return ""
    if not response:
        return "the model gave no reply" + (f" ({error})" if error else "")
    if not any(says_best_fact(c, select(facts, asked)) for c in checks):
        return "no claim of the model's reply states one of the knowledge graph's facts about the question"
    best = dominant(facts)
    if best and not any(says_best_fact(c, best) for c in checks):
        return f"the model's reply leaves out the fact that answers the question best ({best[0].text})"
    return ""


def contradicting_evidence(checks: list[Check]) -> list[str]:
    """The sentences the KG contradicted the reply's claims with, each once."""
    out: dict[str, None] = {}
    for c in checks:
        ev = c.evidence
        if c.verdict == "contradicted" and ev.source != "dialogue" and ev.text:
            out.setdefault(ev.text, None)
    return list(out)
