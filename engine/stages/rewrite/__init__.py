"""Rewrite stage: the user turn with its references resolved, kept beside the original.

Rule-based by default: every pronoun, definite noun phrase and first-person word ("me", "my";
"I" stays, "Lisa Wilson am" is no help) whose best `refers_to` is at least
`config.link_threshold` is replaced by the entity's label (possessives get "'s"), and numbers
and codes said in words by their digits ("twenty nineteen": 2019). With
`--rewrite llm` the model's chain-of-thought rewrite (engine/stages/rewrite/llm.py) is tried first; when
it gives nothing or fails, the rule-based rewrite is used.
"""

from __future__ import annotations

import re

from engine.context import Cancelled, TurnContext, stage
from engine.nlp.spoken import as_written, written_forms
from engine.state import Mention, TurnState
from kgstore import vocab
from kgstore.terms import Fact

POSSESSIVES = frozenset({"his", "their", "its", "my", "hers", "theirs", "mine"})
# After "her", these words mean it is the object ("tell her about"), not a possessive.
NOT_A_NOUN = frozenset("""to for at in on about and or with if when is was will would can could
should about from by of as than that this then so but because please""".split())
_NEXT_WORD = re.compile(r"\s*([A-Za-z][\w'-]*)")


def _replacement(m: Mention, text: str) -> str | None:
    word = m.text.lower()
    if m.kind == "first_person" and word == "i":
        return None
    label = m.label or ""
    if word in POSSESSIVES:
        return label + "'s"
    if word == "her":
        nxt = _NEXT_WORD.match(text, m.end)
        if nxt and nxt.group(1).lower() not in NOT_A_NOUN:
            return label + "'s"
    return label


def _said_as(m: Mention) -> bool:
    """Does the mention say its label once its numbers and codes in words are written out?"""
    written = as_written(m.text)
    return written != m.text and _letters(written) == _letters(m.label or "")


def _letters(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def rule_rewrite(state: TurnState, threshold: float) -> str:
    """The turn with confident references replaced by labels, and numbers and codes said in
    words written as a KG writes them ("launched in twenty nineteen": 2019); the text itself
    when there is nothing to replace."""
    edits: list[tuple[int, int, str]] = []
    for m in state.mentions:
        if m.kind not in ("pronoun", "definite", "first_person") or not m.entity or m.p < threshold:
            continue
        new = _replacement(m, state.text)
        if new:
            edits.append((m.start, m.end, new))
    forms = written_forms(state.text)
    # a name said as it sounds, its code or number in words ("g b r four four seven one"), is
    # written as the label it heard ("GBR 4471"): a value the KG holds, as the KG writes it
    edits += [(m.start, m.end, m.label) for m in state.mentions
              if m.kind == "name" and m.label and _said_as(m)]
    named = [(m.start, m.end) for m in state.mentions if m.kind in ("name", "time")]
    edits += [(a, b, w) for a, b, w in forms
              if not any(a < e and s < b for s, e in named + [(x, y) for x, y, _ in edits])]
    out = state.text
    for a, b, new in sorted(edits, key=lambda x: -x[0]):
        out = out[:a] + new + out[b:]
    return out


def _llm_rewrite(state: TurnState, ctx: TurnContext) -> str | None:
    try:
        from engine.stages.rewrite.llm import rewrite

        return rewrite(state, ctx)
    except Cancelled:
        raise
    except Exception:  # any failure of the optional LLM path falls back to the rules
        return None


@stage("rewrite", report=lambda s: s.rewritten)
def run(state: TurnState, ctx: TurnContext) -> None:
    text = _llm_rewrite(state, ctx) if ctx.config.rewrite == "llm" else None
    state.rewritten = text or rule_rewrite(state, ctx.config.link_threshold)
    if state.turn_iri and state.rewritten != state.text:
        ctx.store.add([Fact(state.turn_iri, vocab.KGC_REWRITTEN, state.rewritten, o_literal=True)],
                      vocab.dialogue_graph(state.session_id))
