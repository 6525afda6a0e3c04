"""`kgchat prepare`: the scorer ready before the first question (run by `make install`), and
where each model runs and why."""

from __future__ import annotations

import json
import sys

from engine.config import add_config_options, load_config
from engine.options import ArgumentParser


def main(argv: list[str], command: str = "prepare") -> int:
    p = ArgumentParser(prog=f"kgchat {command}", description="Export MiniLM to ONNX into the user cache "
                                "and open the scorer's models, so that the first question does not wait for it.")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_config_options(p)  # the chat model's options (--model, --llm-process, ...) say where it will run
    args = p.parse_args(argv)
    config = load_config(args)
    from engine.llm import placement
    from engine.nlp.encoder import onnx_path, open_minilm
    from engine.nlp.relevance import RelevanceModel
    from engine.stages.score.prepare import export

    say = (lambda text: print(text, file=sys.stderr)) if args.json else print
    seconds, failed = export(say)
    encoder, relevance = open_minilm(), RelevanceModel()
    out = {"onnx": str(onnx_path()), "exported_s": None if seconds is None else round(seconds, 1),
           "export_error": failed,
           "encoder": {"device": encoder.device, "runtime": type(encoder).__name__, "note": encoder.device_note},
           "relevance": {"device": relevance.device, "note": relevance.device_note},
           "llm": chat_model(config, placement(config))}
    if args.json:
        print(json.dumps(out))
        return 0
    if failed:
        print(failed)
    elif seconds is not None:
        print(f"exported MiniLM to {out['onnx']} in {seconds:.1f} s")
    else:
        print(f"MiniLM export already in the cache: {out['onnx']}")
    for name, model in (("sentence encoder (MiniLM)", encoder), ("relevance model", relevance)):
        print(f"{name}: {model.device}" + (f" ({model.device_note})" if model.device_note else ""))
    llm = out["llm"]
    where = {"own": ", in a process of its own", "same": ", in kgchat's process", "remote": ""}[llm["process"]]
    print(f"chat model: {llm['device']}{where} ({llm['note']})")
    return 0


def chat_model(config, place) -> dict:
    """Where the chat model will run, told without loading it (a GPU build's libraries stay out
    of this process)."""
    device = "remote" if place.process == "remote" else "CPU" if not place.gpu or config.n_gpu_layers == 0 else \
        place.gpu.upper()
    note = place.why + ("; --n-gpu-layers 0" if place.gpu and config.n_gpu_layers == 0 else "")
    return {"device": device, "process": place.process, "note": note}
