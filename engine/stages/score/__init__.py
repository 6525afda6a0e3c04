"""Score stage: features per verbalized candidate, then P(relevant) from the chosen scorer.

`learned` (default) runs the ONNX model; `bm25` and `sbert` are the plain baselines (BM25 of
the rewritten turn, MiniLM cosine to it); `llm` asks the chat model to rate the learned
model's top candidates in one prompt and blends its ratings with the learned score.
"""

from __future__ import annotations

import re

import numpy as np

from engine.context import TurnContext, stage
from engine.stages.score.features import FEATURES, compute_for
from engine.state import Candidate, TurnState

LLM_TOP_N = 12
LLM_WEIGHT = 0.5
_COS = FEATURES.index("cos_1")


def scores_for(scorer: str, X: np.ndarray, bm25_raw: np.ndarray, ctx: TurnContext | None = None) -> np.ndarray:
    """Scores of the rows of X under one scorer (the LLM blend is applied separately)."""
    if len(X) == 0:
        return np.zeros(0)
    if scorer == "bm25":
        return np.asarray(bm25_raw, dtype=np.float64)
    if scorer == "sbert":
        return X[:, _COS].astype(np.float64)
    from engine.nlp.relevance import model_for

    return model_for(ctx).predict(X).astype(np.float64)


_RATING = re.compile(r"^\s*\[?(\d+)\]?\s*[:.)\-=]\s*(?:score\s*[:=]?\s*)?([01](?:\.\d+)?|\.\d+)", re.I | re.M)


def parse_ratings(text: str, n: int) -> dict[int, float]:
    """Ratings `index: value` from a model reply, tolerant of brackets, words and junk lines;
    indices outside 1..n and values outside [0, 1] are ignored."""
    out: dict[int, float] = {}
    for m in _RATING.finditer(text):
        i, v = int(m.group(1)), float(m.group(2))
        if 1 <= i <= n and 0.0 <= v <= 1.0:
            out.setdefault(i - 1, v)
    return out


def llm_blend(state: TurnState, ctx: TurnContext, candidates: list[Candidate]) -> str:
    """Blend the chat model's 0..1 ratings of the top-N candidates into their scores; returns a
    note when the model gave nothing usable (the learned scores stand)."""
    from engine.llm import make_backend

    top = sorted(candidates, key=lambda c: -c.score)[:LLM_TOP_N]
    if not top:
        return ""
    dialogue = "\n".join(f"{who}: {text}" for who, text in state.history[-4:])
    listing = "\n".join(f"{i}. {c.text}" for i, c in enumerate(top, 1))
    messages = [
        {"role": "system", "content": "You rate how relevant facts are to a dialogue. Answer only with lines "
                                      "'number: score', score from 0.0 (irrelevant) to 1.0 (needed to answer)."},
        {"role": "user", "content": f"Dialogue:\n{dialogue}\nuser: {state.rewritten or state.text}\n\n"
                                    f"Facts:\n{listing}\n\nRatings:"},
    ]
    try:
        llm = ctx.resource("llm", lambda: make_backend(ctx.config))
        reply = "".join(llm.stream(messages, max_tokens=12 * len(top), temperature=0.0, cancel=ctx.cancel))
    except Exception as exc:  # the model is an optional helper here: its failure must not end the turn
        return f"LLM scorer unavailable ({type(exc).__name__}); learned scores used"
    ratings = parse_ratings(reply, len(top))
    if not ratings:
        return "LLM scorer gave no parsable ratings; learned scores used"
    for i, v in ratings.items():
        c = top[i]
        c.features["llm"] = v
        c.score = (1 - LLM_WEIGHT) * c.score + LLM_WEIGHT * v
    return ""


def _report(state: TurnState) -> list[tuple[str, float]]:
    return [(c.text, c.score) for c in sorted(state.candidates, key=lambda c: -c.score)[:10]]


@stage("score", report=_report)
def run(state: TurnState, ctx: TurnContext) -> None:
    if not state.candidates:
        return
    X, bm25_raw = compute_for(state, ctx)
    scorer = ctx.config.scorer
    scores = scores_for("learned" if scorer == "llm" else scorer, X, bm25_raw, ctx)
    for c, s in zip(state.candidates, scores, strict=False):
        c.score = round(float(s), 4)
    if scorer == "llm":
        note = llm_blend(state, ctx, state.candidates)
        if note:
            state.candidates_note = "; ".join(x for x in (state.candidates_note, note) if x)
