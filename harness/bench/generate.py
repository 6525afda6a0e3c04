"""`kgchat bench generate`: time to first token and tokens/s through the engine beside a bare
llama-cpp-python call on the same prompt, in the same run, and how fast a cancel takes hold."""

from __future__ import annotations

import json
import statistics
import threading
import time
from datetime import datetime

from engine.config import add_config_options, load_config
from engine.events import Token
from engine.llm import beside
from engine.options import ArgumentParser, positive_int
from engine.pipeline import RETRIEVAL_STAGES, stage_name
from harness.bench import bare
from kgstore.errors import BadInput

QUESTION = "Who is in the Engineering group, and what are their phone numbers?"


def parser(command: str) -> ArgumentParser:
    p = ArgumentParser(prog=f"kgchat {command}", description=__doc__)
    p.add_argument("--rounds", type=positive_int, default=8, help="measured rounds (an engine turn and a bare call on its prompt, "
                   "taking turns going first)")
    p.add_argument("--tokens", type=positive_int, default=64, help="tokens generated per call")
    p.add_argument("--question", default=QUESTION, help="the user turn asked every round")
    p.add_argument("--json", action="store_true", help="print one JSON object with every figure")
    add_config_options(p)
    return p


def engine_turn(session, backend, question: str) -> tuple[dict, object]:
    stamps: list[float] = []

    def on_event(event) -> None:
        if isinstance(event, Token):
            stamps.append(time.perf_counter())

    beside(backend, bare.reset)
    start = time.perf_counter()
    state = session.user_turn(question, on_event=on_event)
    if state.error:
        raise BadInput(f"bench generate: the engine turn failed: {state.error}")
    result = bare.figures(stamps, start)
    result["retrieval_ms"] = sum(state.timings_ms.get(stage_name(s), 0.0) for s in RETRIEVAL_STAGES)
    return result, state


def cancel_latency(backend, messages, after_s: float) -> dict:
    """Cancel a generation `after_s` seconds in (during prompt evaluation or during decoding):
    ms from the cancel to the stream returning, and to the model being free for the next call."""
    cancel = threading.Event()
    set_at: list[float] = []

    def fire() -> None:
        set_at.append(time.perf_counter())
        cancel.set()

    beside(backend, bare.reset)
    timer = threading.Timer(after_s, fire)
    timer.start()
    tokens = sum(1 for _ in backend.stream(messages, max_tokens=512, temperature=0.0, cancel=cancel))
    returned = time.perf_counter()
    timer.cancel()
    beside(backend, bare.wait_free)
    free = time.perf_counter()
    if not set_at:
        return {"after_s": after_s, "tokens": tokens, "returned_ms": None, "model_free_ms": None}
    return {"after_s": after_s, "tokens": tokens, "returned_ms": (returned - set_at[0]) * 1000.0,
            "model_free_ms": (free - set_at[0]) * 1000.0}


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def main(argv: list[str], command: str = "bench generate") -> int:
    args = parser(command).parse_args(argv)
    config = load_config(args)
    if config.openai_url:
        raise BadInput("bench generate: measures the embedded llama-cpp backend; drop --openai-url")
    if args.rounds < 1 or args.tokens < 2:
        raise BadInput("bench generate: --rounds must be ≥ 1 and --tokens ≥ 2")
    config.max_tokens = args.tokens
    config.temperature = 0.0
    config.refine_steps = 0
    # one fixed clock, so time-dependent facts ("available now") are the same every round
    config.now = config.now or datetime.now().replace(microsecond=0).isoformat()
    from engine.llm import make_backend
    from engine.session import Session

    backend = make_backend(config)
    warm = Session.open(config, llm=backend)
    _, state = engine_turn(warm, backend, args.question)  # loads the encoder, scorer, caches
    prompt = state.prompt
    engine: list[dict] = []
    bares: list[dict] = []
    for r in range(args.rounds):
        # every round is the first turn of a fresh session (sharing the loaded models), so the
        # prompt is the same each round and the two sides can take turns going first
        session = Session.open(config, **warm.ctx.resources)
        if r % 2:
            bares.append(beside(backend, bare.bare_call, messages=prompt, max_tokens=args.tokens, seed=config.seed))
        result, state = engine_turn(session, backend, args.question)
        engine.append(result)
        if state.prompt != prompt:
            raise BadInput("bench generate: the engine built a different prompt for the same first turn")
        if not r % 2:
            bares.append(beside(backend, bare.bare_call, messages=prompt, max_tokens=args.tokens, seed=config.seed))
    ttft_s = (median(b["ttft_ms"] for b in bares) or 0.0) / 1000.0
    # once while the prompt is evaluated, once while tokens stream
    cancels = [cancel_latency(backend, state.prompt, after) for after in (ttft_s / 2, ttft_s + 0.5)]

    figures = {
        "bare": {"ttft_ms": median(b["ttft_ms"] for b in bares),
                 "tokens_per_s": median(b["tokens_per_s"] for b in bares), "tokens": median(b["tokens"] for b in bares)},
        "engine": {"ttft_ms": median(e["ttft_ms"] for e in engine),
                   "tokens_per_s": median(e["tokens_per_s"] for e in engine),
                   "tokens": median(e["tokens"] for e in engine),
                   "retrieval_ms": median(e["retrieval_ms"] for e in engine)},
        "spread": {side: {"ttft_ms": [min(r["ttft_ms"] for r in rows), max(r["ttft_ms"] for r in rows)],
                          "tokens_per_s": [min(r["tokens_per_s"] for r in rows), max(r["tokens_per_s"] for r in rows)]}
                   for side, rows in (("bare", bares), ("engine", engine))},
        "cancel": {"returned_ms_max": max((c["returned_ms"] for c in cancels if c["returned_ms"] is not None),
                                          default=None),
                   "model_free_ms_max": max((c["model_free_ms"] for c in cancels if c["model_free_ms"] is not None),
                                            default=None)},
    }
    b, e = figures["bare"], figures["engine"]
    ratio = e["tokens_per_s"] / b["tokens_per_s"] if e["tokens_per_s"] and b["tokens_per_s"] else None
    # A GPU's bare TTFT is a few ms, of the order of what a turn adds around the model (the prompt's
    # token counts, a trip through the pipe to the model's own process): twice it, there.
    ttft_factor = 2.0 if backend.device == "CUDA" else 1.1
    ttft_limit = e["retrieval_ms"] + ttft_factor * b["ttft_ms"] if b["ttft_ms"] is not None else None
    targets = {
        "tokens_per_s_ratio": ratio, "tokens_per_s_ok": ratio is not None and ratio >= 0.95,
        "ttft_limit_ms": ttft_limit, "ttft_factor": ttft_factor,
        "ttft_ok": ttft_limit is not None and e["ttft_ms"] is not None and e["ttft_ms"] <= ttft_limit,
        "cancel_ok": figures["cancel"]["returned_ms_max"] is not None and figures["cancel"]["returned_ms_max"] <= 200,
    }
    settings = {"model": backend.path, "device": backend.device, "process": getattr(backend, "process", "same"),
                "device_note": getattr(backend, "device_note", ""), "n_ctx": backend.context_size(),
                "rounds": args.rounds, "tokens": args.tokens, "question": args.question,
                "prompt_tokens": sum(backend.count_tokens(m["content"]) for m in state.prompt),
                "facts": len(state.retrieved), "kg": config.kg or [config.demo]}
    if args.json:
        print(json.dumps({"figures": figures, "targets": targets, "settings": settings,
                          "rounds": {"engine": engine, "bare": bares}, "cancels": cancels}))
        return 0
    f = lambda v, spec=".1f": "n/a" if v is None else format(v, spec)  # noqa: E731
    print(f"model {settings['model']} on {settings['device']} ({settings['process']} process), prompt ≈{settings['prompt_tokens']} tokens "
          f"({settings['facts']} facts), {args.tokens} tokens per call, median of {args.rounds} rounds")
    print(f"{'':16}{'TTFT ms':>10}{'tokens/s':>10}")
    spread = figures["spread"]
    for label, side, row in (("bare llama-cpp", "bare", b), ("engine", "engine", e)):
        lo_t, hi_t = spread[side]["ttft_ms"]
        lo_r, hi_r = spread[side]["tokens_per_s"]
        extra = f"   (retrieval {f(e['retrieval_ms'])} ms of the TTFT)" if side == "engine" else ""
        print(f"{label:16}{f(row['ttft_ms']):>10}{f(row['tokens_per_s']):>10}   rounds: TTFT {f(lo_t, '.0f')}-"
              f"{f(hi_t, '.0f')} ms, {f(lo_r)}-{f(hi_r)} tokens/s{extra}")
    print(f"tokens/s engine/bare {f(ratio, '.3f')} (target ≥ 0.95: {'ok' if targets['tokens_per_s_ok'] else 'MISSED'})")
    print(f"engine TTFT {f(e['ttft_ms'])} ms ≤ retrieval + {ttft_factor} × bare TTFT = {f(ttft_limit)} ms: "
          f"{'ok' if targets['ttft_ok'] else 'MISSED'}")
    print(f"cancel (during prompt evaluation and during decoding): the reply stopped within "
          f"{f(figures['cancel']['returned_ms_max'])} ms (target ≤ 200: {'ok' if targets['cancel_ok'] else 'MISSED'}); "
          f"the model was free for the next call within {f(figures['cancel']['model_free_ms_max'])} ms")
    return 0
