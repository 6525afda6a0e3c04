"""One onnxruntime session factory for the score stage's two models (MiniLM and the relevance net),
on the GPU when onnxruntime's CUDA provider loads, saying why not otherwise."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path


def gpu_present() -> bool:
    """An NVIDIA device node exists (CUDA-enabled onnxruntime builds list the provider anyway)."""
    import glob

    return bool(glob.glob("/dev/nvidia[0-9]*")) and os.environ.get("CUDA_VISIBLE_DEVICES", "0") not in ("", "-1")


def installed(distribution: str) -> bool:
    from importlib import metadata

    try:
        metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return False
    return True


def _without_cuda() -> str:
    """Why onnxruntime lists no CUDA provider: mostly its CPU package, installed instead of
    onnxruntime-gpu or over it (both write the one `onnxruntime` module, the last one wins)."""
    if not installed("onnxruntime"):
        return "onnxruntime without CUDA"
    if installed("onnxruntime-gpu"):
        return "onnxruntime without CUDA: the CPU package onnxruntime was installed over onnxruntime-gpu"
    return "onnxruntime without CUDA: the CPU package onnxruntime is installed, not onnxruntime-gpu"


def _cuda_provider_error() -> str:
    """Why onnxruntime's CUDA provider library does not load, in its loader's words (usually a
    CUDA or cuDNN library of the major version onnxruntime-gpu was built for, not found)."""
    import ctypes

    import onnxruntime as ort

    library = Path(ort.__file__).parent / "capi" / "libonnxruntime_providers_cuda.so"
    try:
        ctypes.CDLL(str(library))
    except OSError as exc:
        missing = re.search(r"(lib[\w+.-]+\.so[\w.]*): cannot open", str(exc))
        return f"{missing.group(1)} missing" if missing else str(exc).splitlines()[0]
    return "its CUDA provider did not start"


def _preload_cuda_libraries() -> None:
    """CUDA and cuDNN from pip's nvidia-* packages (they come with torch's CUDA build), which
    the dynamic loader does not search by itself; onnxruntime prints as it goes."""
    import onnxruntime as ort

    if hasattr(ort, "preload_dlls"):
        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(Exception):
            ort.preload_dlls()


def onnx_session(path: str | Path, threads: int):
    """An onnxruntime session on the CUDA provider when onnxruntime has it and a GPU answers,
    else on the CPU provider. Returns it with "CUDA" or "CPU", whichever actually runs, and
    why not CUDA ("" when it is): the status bar and `kgchat prepare` show it."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.log_severity_level = 3
    wanted = ["CPUExecutionProvider"]
    note = ""
    if "CUDAExecutionProvider" not in ort.get_available_providers():
        note = _without_cuda()
    elif not gpu_present():
        note = "no NVIDIA GPU"
    else:
        _preload_cuda_libraries()
        wanted.insert(0, "CUDAExecutionProvider")
        ort.set_default_logger_severity(3)  # a CUDA provider that fails to load is reported in the note
    try:
        session = ort.InferenceSession(str(path), options, providers=wanted)
    except Exception:  # CUDA listed but unusable (no driver or GPU): the CPU provider always works
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    active = session.get_providers()
    device = "CUDA" if active and active[0] == "CUDAExecutionProvider" else "CPU"
    if device == "CPU" and not note:
        note = f"onnxruntime CUDA: {_cuda_provider_error()}"
    return session, device, note
