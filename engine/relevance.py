"""The learned relevance model: `models/relevance.onnx` in onnxruntime.

The CUDA provider is used when onnxruntime has it and a GPU answers, the CPU provider
otherwise; `device` says which one actually runs. The model file carries, as metadata, the
feature names it expects (checked against `engine.features.FEATURES`; the graph picks its own
inputs out of them), the PCST prize settings chosen with it on the dev splits, and what it was
trained on.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from kgstore.errors import BadInput

MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "relevance.onnx"
DEFAULT_PRIZES = {"threshold": 0.5, "scale": 2.0, "ratio": 1.0, "top": 0}


class RelevanceModel:
    def __init__(self, path: str | Path = MODEL_PATH):
        from engine.features import FEATURES

        path = Path(path)
        if not path.exists():
            raise BadInput(f"{path}: relevance model missing (rebuild: python -m models.train_relevance)")
        # A tiny model: more threads cost more than they save.
        self.session, self.device = onnx_session(path, threads=1)
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


def gpu_present() -> bool:
    """An NVIDIA device node exists (CUDA-enabled onnxruntime builds list the provider anyway)."""
    import glob

    return bool(glob.glob("/dev/nvidia[0-9]*")) and os.environ.get("CUDA_VISIBLE_DEVICES", "0") not in ("", "-1")


def onnx_session(path: str | Path, threads: int):
    """An onnxruntime session on the CUDA provider when onnxruntime has it and a GPU answers,
    else on the CPU provider; returns it with "CUDA" or "CPU", whichever actually runs."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.log_severity_level = 3
    wanted = ["CPUExecutionProvider"]
    if "CUDAExecutionProvider" in ort.get_available_providers() and gpu_present():
        wanted.insert(0, "CUDAExecutionProvider")
        ort.set_default_logger_severity(3)  # a CUDA provider that fails to load is reported by `device`
    try:
        session = ort.InferenceSession(str(path), options, providers=wanted)
    except Exception:  # CUDA listed but unusable (no driver or GPU): the CPU provider always works
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    active = session.get_providers()
    return session, ("CUDA" if active and active[0] == "CUDAExecutionProvider" else "CPU")


def model_for(ctx) -> RelevanceModel:
    return ctx.resource("scorer", RelevanceModel)
