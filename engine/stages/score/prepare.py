"""Getting the scorer ready before the first question (`kgchat prepare`, run by `make install`).

MiniLM is exported to ONNX once per install into the user cache, in-process with torch (some
15 to 20 s on a 2-core machine as on a 16-core one): a first question that found no export
waited that long in `score`. `make install` runs `kgchat prepare`; the app does it at start in
its opening worker with a line in the status bar; `kgchat ask` says on stderr when it must.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

EXPORTING = "exporting MiniLM to ONNX, once per install (about 15 s)…"


def export_pending() -> bool:
    """Whether the encoder's ONNX file is still to be made."""
    from engine.nlp.encoder import onnx_path

    try:
        return not onnx_path().exists()
    except RuntimeError:  # no encoder package: nothing to export; the encoder says so when used
        return False


def export(say: Callable[[str], None]) -> tuple[float | None, str]:
    """Make the ONNX file when it is missing, saying so first. Returns the seconds it took
    (None: nothing to do) and why it could not be made ("" when it was; the encoder then
    runs MiniLM in torch)."""
    from engine.nlp.encoder import export_onnx, onnx_path

    if not export_pending():
        return None, ""
    say(EXPORTING)
    start = time.perf_counter()
    try:
        export_onnx(onnx_path())
    except Exception as exc:  # noqa: BLE001 - the torch route still works; say why this one did not
        return time.perf_counter() - start, f"no ONNX export ({type(exc).__name__}: {exc}); MiniLM runs in torch"
    return time.perf_counter() - start, ""


def export_saying_so() -> None:
    """For the headless commands: a pending export made before the turn, said on stderr (stdout
    may carry JSON), so that the turn's own timings do not include it."""
    seconds, failed = export(lambda text: print(f"kgchat: {text}", file=sys.stderr))
    if seconds is not None:
        print(f"kgchat: {failed or f'MiniLM exported in {seconds:.1f} s'} (`kgchat prepare` does this ahead)",
              file=sys.stderr)


def scoring_device(encoder_model, relevance=None) -> tuple[str, str]:
    """The scorer's device for the status bar ("CUDA", "CPU", or each model's when they
    differ) and why not CUDA, or how ("" when both run on CUDA through onnxruntime)."""
    models = [("MiniLM", encoder_model)] + ([("relevance", relevance)] if relevance is not None else [])
    devices = {m.device for _, m in models}
    device = devices.pop() if len(devices) == 1 else ", ".join(f"{name} {m.device}" for name, m in models)
    notes = dict.fromkeys(m.device_note for _, m in models if m.device_note)
    return device, "; ".join(notes)


def ready(ctx, say: Callable[[str], None]) -> tuple[str, str]:
    """Export when needed, then open the session's encoder and, for the scorers that use it,
    the relevance model, as its first turn would. Returns `scoring_device`'s pair."""
    from engine.nlp.encoder import encoder_for
    from engine.nlp.relevance import model_for

    _, failed = export(say)
    relevance = model_for(ctx) if ctx.config.scorer in ("learned", "llm") else None
    device, note = scoring_device(encoder_for(ctx).model, relevance)
    return device, "; ".join(x for x in (failed, note) if x)
