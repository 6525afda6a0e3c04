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
MIN_OVERLAP = 0.9


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
    claims = [c for c in parse(output) if valid(c, reply_words)]
    if not claims:
        return fallback
    covered = set().union(*(set(norm(c).split()) for c in claims))
    for sentence in sentences(reply):
        words = set(norm(sentence).split()) - GLUE
        if words and len(words & covered) < 0.5 * len(words):
            claims.extend(split_claims(sentence, protect=protect))
    return claims
