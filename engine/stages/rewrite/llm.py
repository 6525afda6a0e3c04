"""`--rewrite llm`: the model resolves the references of the user's message by reasoning over the
recent dialogue first (chain of thought), then writing the dialogue out resolved."""

from __future__ import annotations

from engine.context import TurnContext
from engine.llm import LLMError, backend
from engine.llm.prompt import parse_rewrite, rewrite_messages
from engine.llm.reply import complete
from engine.state import TurnState
from kgstore.errors import BadInput

REWRITE_MAX_TOKENS = 320  # the reasoning plus a few resolved turns


def rewrite(state: TurnState, ctx: TurnContext) -> str | None:
    """The user's message with references resolved by the model, or None when the model is
    unavailable, the user cancelled, or its output does not parse: the caller then falls back
    to the rule-based rewrite."""
    try:
        llm = backend(ctx)
        streamed = complete(llm, rewrite_messages(state.text, state.history), ctx,
                            max_tokens=REWRITE_MAX_TOKENS, temperature=0.0)
    except (LLMError, BadInput):
        return None
    if streamed.cut or streamed.looped:
        return None
    return parse_rewrite(streamed.text, state.text)
