"""The learned relevance model: `models/relevance.onnx` in onnxruntime.

The CUDA provider is used when onnxruntime has it and a GPU answers, the CPU provider
otherwise; `device` says which one actually runs and `device_note` why not CUDA. The model file carries, as metadata, the
feature names it expects (checked against `engine.stages.score.features.FEATURES`; the graph picks its own
inputs out of them), the PCST prize settings chosen with it on the dev splits, and what it was
trained on.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from engine.stages.score.onnx import onnx_session
from kgstore.errors import BadInput

MODEL_PATH = Path(__file__).resolve().parents[3] / "models" / "relevance.onnx"
DEFAULT_PRIZES = {"threshold": 0.5, "scale": 2.0, "ratio": 1.0, "top": 0}


class RelevanceModel:
    def __init__(self, path: str | Path = MODEL_PATH):
        from engine.stages.score.features import FEATURES

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
