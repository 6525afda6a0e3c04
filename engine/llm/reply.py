"""A reply of the chat model for a turn: the answer prompt fitted to the model's context, and the
streaming of one reply (shared by the stages that ask the model: generate, refine, rewrite)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.context import TurnContext
from engine.llm.prompt import answer_messages, unechoed
from engine.state import Candidate, TurnState

PROMPT_RESERVE = 16  # tokens kept free besides the reply: the template's closing markers


def ranked_facts(facts: Sequence[Candidate]) -> list[str]:
    """Fact sentences best first, so trimming to the context drops the weakest; each once."""
    return list(dict.fromkeys(c.text for c in sorted(facts, key=lambda c: -c.score) if c.text))


def build_prompt(state: TurnState, llm, config, facts: Sequence[Candidate] | None = None,
                 correction: str = "") -> tuple[list[dict[str, str]], int]:
    """The messages for this turn's answer and the reply's token limit, fitted to the model."""
    size = llm.context_size()
    max_tokens = max(1, min(config.max_tokens, size // 2))
    messages = answer_messages(
        state.text, state.history, ranked_facts(state.retrieved if facts is None else facts),
        count_tokens=llm.count_tokens, budget=size - max_tokens - PROMPT_RESERVE,
        resolved=state.rewritten, correction=correction, small_talk=state.plan == "none")
    return messages, max_tokens


@dataclass(frozen=True)
class Streamed:
    text: str
    cut: bool  # the user cut it short
    looped: str = ""  # the words the model went on repeating, cut after their first time


# A loop: the same words at least three times in a row, over at least LOOP_WORDS words in all (so
# "very very" is no loop, nine of "ha" are); the repeated stretch is at most LOOP_PERIOD words.
LOOP_WORDS, LOOP_PERIOD = 9, 40
_WORD = re.compile(r"\S+")


def loop_at(text: str) -> tuple[int, str] | None:
    """Whether `text` ends going round the same words ("The Glass Harbour: The Glass Harbour: The
    Glass Harbour:"): (where the first repeat begins, the repeated words), else None."""
    base = max(0, len(text) - LOOP_PERIOD * 3 * 24)  # enough characters for the words looked at
    words = [(base + m.start(), m.group().casefold()) for m in _WORD.finditer(text, base)][-LOOP_PERIOD * 3:]
    said = [w for _, w in words]
    for period in range(1, LOOP_PERIOD + 1):
        span = period * max(3, -(-LOOP_WORDS // period))
        if span > len(said):
            continue
        if all(said[i] == said[i - period] for i in range(len(said) - span + period, len(said))):
            first = len(said) - span
            while first > 0 and said[first - 1] == said[first - 1 + period]:
                first -= 1
            begin = words[first][0]
            return words[first + period][0], text[begin:words[first + period][0]].strip()
    return None


# A list the reply opens at its very end and never gives ("Finse: 1222 m; 2 of them:"): a small
# model copies the form of the dialogue's earlier answers.
_DANGLING = re.compile(r"[;,]?\s*[^.;:!?\n]{0,40}:\s*$")


def _tidy(text: str) -> str:
    """The reply without the prompt copied at its head nor a list opened at its end for nothing."""
    text = unechoed(text).strip()
    cut = _DANGLING.search(text)
    return text[:cut.start()].rstrip() if cut and text[:cut.start()].strip() else text


def complete(llm, messages: list[dict[str, str]], ctx: TurnContext, *, max_tokens: int, temperature: float,
             on_token: Callable[[str], None] | None = None) -> Streamed:
    """Stream one reply. A reply that goes round in a loop is stopped and cut after the first
    time round (a small model may repeat a phrase until its token limit). Raises LLMError."""
    text = ""
    stream = llm.stream(messages, max_tokens=max_tokens, temperature=temperature, cancel=ctx.cancel)
    try:
        for token in stream:
            text += token
            if on_token is not None:
                on_token(token)
            loop = loop_at(text)
            if loop:
                return Streamed(_tidy(text[:loop[0]]), ctx.cancel.is_set(), loop[1])
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
    return Streamed(_tidy(text), ctx.cancel.is_set())
