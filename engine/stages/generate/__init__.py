"""Stage "generate": the reply, streamed token by token from the facts the turn retrieved."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.events import ReplyDone, Token, TurnError
from engine.llm import LLMError, backend
from engine.stages.generate.prompt import answer_messages
from engine.stage import TurnContext, stage
from engine.state import Candidate, TurnState
from kgstore.errors import BadInput

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


@stage("generate", report=lambda s: {"response": s.response, "cut": s.cut, "error": s.error, "device": s.device,
                                     "answer_source": s.answer_source})
def run(state: TurnState, ctx: TurnContext) -> None:
    from engine.stages.generate.compose import answer_without_model

    if answer_without_model(state, ctx):
        return
    try:
        llm = backend(ctx)
    except BadInput as exc:  # the model went missing mid-session: this turn fails, the session goes on
        state.error = str(exc)
        ctx.emit(TurnError("generate", state.error))
        return
    state.device = llm.device
    state.prompt, max_tokens = build_prompt(state, llm, ctx.config)
    parts: list[str] = []

    def on_token(token: str) -> None:
        parts.append(token)
        ctx.emit(Token(token))

    try:
        state.response, state.cut = complete(
            llm, state.prompt, ctx, max_tokens=max_tokens, temperature=ctx.config.temperature, on_token=on_token)
    except LLMError as exc:
        state.response = "".join(parts).strip()
        state.cut = bool(state.response)
        state.error = str(exc)
        ctx.emit(TurnError("generate", state.error))
    if state.response:
        ctx.emit(ReplyDone(state.response, cut=state.cut))
