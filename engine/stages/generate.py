"""Stage "generate": the reply, streamed token by token from the facts the turn retrieved."""

from __future__ import annotations

from engine.context import TurnContext, stage
from engine.events import ReplyDone, Token, TurnError
from engine.llm import LLMError, backend
from engine.llm.reply import build_prompt, complete
from engine.state import TurnState
from kgstore.errors import BadInput


@stage("generate", report=lambda s: {"response": s.response, "cut": s.cut, "error": s.error, "device": s.device,
                                         "note": s.reply_note})
def run(state: TurnState, ctx: TurnContext) -> None:
    if state.composed:  # the answer stage answered without the model
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
        reply = complete(llm, state.prompt, ctx, max_tokens=max_tokens, temperature=ctx.config.temperature,
                         on_token=on_token)
        state.response, state.cut = reply.text, reply.cut
        if reply.looped:
            state.reply_note = f"the model went on repeating “{reply.looped[:60]}”: its reply is cut after the first time"
    except LLMError as exc:
        state.response = "".join(parts).strip()
        state.cut = bool(state.response)
        state.error = str(exc)
        ctx.emit(TurnError("generate", state.error))
    if state.response:
        ctx.emit(ReplyDone(state.response, cut=state.cut, note=state.reply_note))
