"""A reply of the chat model for a turn: the answer prompt fitted to the model's context, and the
streaming of one reply (shared by the stages that ask the model: generate, refine, rewrite)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.context import TurnContext
from engine.llm.prompt import answer_messages
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


def complete(llm, messages: list[dict[str, str]], ctx: TurnContext, *, max_tokens: int, temperature: float,
             on_token: Callable[[str], None] | None = None) -> tuple[str, bool]:
    """Stream one reply: (text, whether the user cut it short). Raises LLMError."""
    parts: list[str] = []
    for token in llm.stream(messages, max_tokens=max_tokens, temperature=temperature, cancel=ctx.cancel):
        parts.append(token)
        if on_token is not None:
            on_token(token)
    return "".join(parts).strip(), ctx.cancel.is_set()
