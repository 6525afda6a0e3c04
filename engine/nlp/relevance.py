"""The learned relevance model: `models/relevance.onnx` in onnxruntime.

The CUDA provider is used when onnxruntime has it and a GPU answers, the CPU provider
otherwise; `device` says which one actually runs and `device_note` why not CUDA. The model file carries, as metadata, the
feature names it expects (checked against FEATURES, which the score stage computes; the graph picks its own
inputs out of them), the PCST prize settings chosen with it on the dev splits, and what it was
trained on.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from engine.nlp.onnx import onnx_session
from kgstore.errors import BadInput

MODEL_PATH = Path(__file__).resolve().parents[2] / "models" / "relevance.onnx"
DEFAULT_PRIZES = {"threshold": 0.5, "scale": 2.0, "ratio": 1.0, "top": 0}

FEATURES = (
    "cos_1", "cos_2", "cos_3", "cos_mean",  # MiniLM cosine to the last 1, 2, 3 turns and their mean
    "bm25_turn", "bm25_rewrite",  # BM25 against the user turn and its rewrite, scaled to the turn's best
    # The same with the names of the entities the turn is about masked out of both sides: what is
    # left is the relation asked about and the value given, so a fact does not match a question by
    # repeating the name the question says ("X's given name is X").
    "mcos_1", "mcos_2", "mcos_3",  # masked fact to masked last 1 (best clause), 2, 3 turns
    "mcos_pred", "mcos_pred_gap", "mcos_pred_rank",  # relation label to the masked clauses; gap/rank in the turn
    "mbm25",  # BM25 of the masked fact against the masked turn, scaled to the turn's best
    "atype_match", "atype_clash", "asks_type",  # the value's type against what the question asks for
    "name_noise",  # the relation records a name, gender, source ... that the question does not ask about
    "salience_now", "salience_prev", "salience_both",  # refers_to p of the fact's entities, this/last turn
    "derived_p", "is_derived", "hop", "is_node", "type_match",
    "embedded",  # 1 when the fact was embedded this turn (the cosines are 0 otherwise)
)
# The learned model reads these; the unmasked similarities stay in FEATURES for the BM25 and SBERT
# baselines (and the Facts tab) but reward name overlap, which does not carry to other KGs.
MODEL_INPUTS = tuple(f for f in FEATURES if f not in ("cos_1", "cos_2", "cos_3", "cos_mean", "bm25_turn", "bm25_rewrite"))


class RelevanceModel:
    def __init__(self, path: str | Path = MODEL_PATH):
        path = Path(path)
        if not path.exists():
            raise BadInput(f"{path}: relevance model missing (rebuild: python -m harness.train_relevance)")
        # A tiny model: more threads cost more than they save.
        self.session, self.device, self.device_note = onnx_session(path, threads=1)
        meta = self.session.get_modelmeta().custom_metadata_map
        self.features = tuple(json.loads(meta.get("features", "[]")))
        if self.features != FEATURES:
            raise BadInput(f"{path}: trained on features {list(self.features)}, the engine computes "
                           f"{list(FEATURES)}; retrain with python -m harness.train_relevance")
        self.prizes = {**DEFAULT_PRIZES, **json.loads(meta.get("pcst_prizes", "{}"))}
        self.input_name = self.session.get_inputs()[0].name

    def predict(self, X: np.ndarray) -> np.ndarray:
        """P(relevant) per row."""
        if len(X) == 0:
            return np.zeros(0, dtype=np.float32)
        out = self.session.run(None, {self.input_name: np.asarray(X, dtype=np.float32)})[0]
        return np.asarray(out, dtype=np.float32).reshape(-1)


def model_for(ctx) -> RelevanceModel:
    return ctx.resource("scorer", RelevanceModel)
