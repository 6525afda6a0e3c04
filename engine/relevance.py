"""The learned relevance model: `models/relevance.onnx` in onnxruntime.

The CUDA provider is used when onnxruntime has it and a GPU answers, the CPU provider
otherwise; `device` says which one actually runs. The model file carries, as metadata, the
feature names it expects (checked against `engine.features.FEATURES`) and the PCST prize
settings chosen with it on the dev split.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from kgstore.errors import BadInput

MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "relevance.onnx"
DEFAULT_PRIZES = {"threshold": 0.5, "scale": 2.0}


class RelevanceModel:
    def __init__(self, path: str | Path = MODEL_PATH):
        import onnxruntime as ort

        from engine.features import FEATURES

        path = Path(path)
        if not path.exists():
            raise BadInput(f"{path}: relevance model missing (rebuild: python -m models.train_relevance)")
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # tiny model: threads cost more than they save
        options.log_severity_level = 3
        wanted = ["CPUExecutionProvider"]
        if "CUDAExecutionProvider" in ort.get_available_providers():
            wanted.insert(0, "CUDAExecutionProvider")
        try:
            self.session = ort.InferenceSession(str(path), options, providers=wanted)
        except Exception:  # CUDA listed but unusable (no driver/GPU): the CPU provider always works
            self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        active = self.session.get_providers()
        self.device = "CUDA" if active and active[0] == "CUDAExecutionProvider" else "CPU"
        meta = self.session.get_modelmeta().custom_metadata_map
        self.features = tuple(json.loads(meta.get("features", "[]")))
        if self.features != FEATURES:
            raise BadInput(f"{path}: trained on features {list(self.features)}, the engine computes "
                           f"{list(FEATURES)}; retrain with python -m models.train_relevance")
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
