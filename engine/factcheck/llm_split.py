"""The LLM claim splitter (`--checker llm`): the model lists the reply's atomic facts, and only
claims made of the reply's own words are kept; anything the model dropped is split
deterministically, so a weak model can never lose or invent a claim."""

from __future__ import annotations

import re

from engine.factcheck.split import sentences, split_claims
from rules.similarity import norm

PROMPT = ("Split the assistant reply below into atomic facts: one short sentence per line, each stating a "
          "single fact, using only the reply's own words. Keep questions and greetings as they are. "
          "Do not add anything. Write only the list, one fact per line.")
# Words a rewrite may add: the glue of a split sentence ("X is ... . X has ...").
GLUE = frozenset("a an the is are was were has have had it its he she they his her their of and in on at to".split())
MIN_OVERLAP = 0.9  # share of a claim's words that must be the reply's own


def valid(claim: str, reply_words: set[str]) -> bool:
    words = norm(claim).split()
    if not words:
        return False
    own = sum(w in reply_words or w in GLUE for w in words)
    return own / len(words) >= MIN_OVERLAP and any(w in reply_words and w not in GLUE for w in words)


def parse(output: str) -> list[str]:
    out = []
    for line in output.splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d{1,3}[.)])\s*", "", line).strip()
        if line and not line.lower().startswith(("here are", "atomic facts", "facts:")):
            out.append(line)
    return out


def llm_split(reply: str, llm, *, protect=None, max_tokens: int = 256, cancel=None) -> list[str]:
    """Claims from the model, validated; sentences the model left out come from the
    deterministic splitter. Any failure of the model falls back to it entirely."""
    from engine.llm import LLMError

    fallback = split_claims(reply, protect=protect)
    if not reply.strip():
        return []
    messages = [{"role": "system", "content": PROMPT}, {"role": "user", "content": reply}]
    try:
        output = "".join(llm.stream(messages, max_tokens=max_tokens, temperature=0.0, cancel=cancel))
    except LLMError:
        return fallback
    reply_words = set(norm(reply).split())
    kept = [c for c in parse(output) if valid(c, reply_words)]
    if not kept:
        return fallback
    # Each of the model's claims belongs to the reply sentence it shares most words with; a
    # sentence whose words the model's claims do not all cover is split deterministically instead.
    units = sentences(reply)
    words = [set(norm(u).split()) - GLUE for u in units]
    mine: list[list[str]] = [[] for _ in units]
    for claim in kept:
        cw = set(norm(claim).split())
        best = max(range(len(units)), key=lambda i: len(cw & words[i]))
        mine[best].append(claim)
    claims: list[str] = []
    for unit, unit_words, got in zip(units, words, mine, strict=False):
        covered = set().union(*(set(norm(c).split()) for c in got)) if got else set()
        if got and unit_words <= covered:
            # A small model's "facts" may still join two; the deterministic splitter finishes the job.
            claims += [part for c in got for part in split_claims(c, protect=protect)]
        else:
            claims += split_claims(unit, protect=protect)
    return list(dict.fromkeys(claims))
