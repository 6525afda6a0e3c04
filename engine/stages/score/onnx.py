"""One onnxruntime session factory for the score stage's two models (MiniLM and the relevance net)."""

from __future__ import annotations

import os
from pathlib import Path


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
