"""App benchmarks: first paint after launch, and keypress echo while a reply streams.

    python -m harness.bench.app [--json] [--runs N] [--keys N]

First paint: `kgchat --memory` (default demo KG, default model) is started on a pseudo-terminal;
the figure is the time from spawn until the prompt's placeholder has been written to the
terminal. Store, KG and model load after that, in workers; their ready times are printed too.

Keypress echo: the app (default model, demo KG) answers a question; while tokens stream, keys
are sent to the prompt one at a time and the time until the prompt holds each one is taken.
"""

from __future__ import annotations

import asyncio
import json
import os
import pty
import select
import statistics
import subprocess
import sys
import time
from pathlib import Path

from engine.options import ArgumentParser, nonnegative_int, positive_int

PAINTED = b"sk about the knowledge graph"  # the prompt placeholder (its first letter is drawn apart, under the cursor)
KG_READY = b"triples"
MODEL_READY = (b"CPU", b"CUDA", b"no model")


def first_paint(timeout: float = 60.0) -> dict[str, float]:
    """Seconds from spawn to first paint, KG ready and model ready, read off the terminal output."""
    exe = Path(sys.executable).with_name("kgchat")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "cli"]
    master, slave = pty.openpty()
    os.set_blocking(master, False)
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "36", "HF_HUB_OFFLINE": "1"}
    start = time.perf_counter()
    proc = subprocess.Popen([*cmd, "--memory"], stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    seen = b""
    marks: dict[str, float] = {}
    try:
        while time.perf_counter() - start < timeout and len(marks) < 3:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    seen += os.read(master, 1 << 16)
                except OSError:
                    break
            now = time.perf_counter() - start
            if "first_paint_s" not in marks and PAINTED in seen:
                marks["first_paint_s"] = now
            if "first_paint_s" in marks and "kg_ready_s" not in marks and KG_READY in seen:
                marks["kg_ready_s"] = now
            if "kg_ready_s" in marks and "model_ready_s" not in marks and any(m in seen for m in MODEL_READY):
                marks["model_ready_s"] = now
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
        os.close(master)
    return marks


async def keypress_echo(keys: int) -> dict[str, float]:
    from textual import events

    from tui.app import KGChatApp
    from tui.main import app_config
    from tui.widgets.chat import AssistantMessage

    config = app_config(["--memory", "--max-tokens", "256", "--refine-steps", "0"])
    app = KGChatApp(config)
    delays: list[float] = []
    async with app.run_test(size=(120, 36)) as pilot:
        await app.workers.wait_for_complete()
        for _ in range(1000):
            if app.session is not None and app.status.model != "model loading…":
                break
            await pilot.pause()
        await pilot.click("#prompt")
        app.prompt_input.load_text("Tell me everything about the Engineering group and its members.")
        await pilot.press("enter")
        assert app.busy, "the question was not sent"
        reply = None
        while app.busy and (reply is None or not reply.text):
            await asyncio.sleep(0.01)
            replies = list(app.query(AssistantMessage))
            reply = replies[-1] if replies else None
        streamed_from = len(reply.text) if reply is not None else 0
        t_stream = time.perf_counter()
        while app.busy and len(delays) < keys:
            before = app.prompt_input.text
            t0 = time.perf_counter()
            app.post_message(events.Key("x", "x"))  # as the terminal driver delivers a key
            while app.prompt_input.text == before:
                await asyncio.sleep(0.0005)
            delays.append(time.perf_counter() - t0)
            await asyncio.sleep(0.05)
        await app.workers.wait_for_complete()
        await pilot.pause()
        tokens = len((reply.text if reply else "")[streamed_from:].split())
        stream_s = time.perf_counter() - t_stream
        model = f"{app.status.model} · {app.status.device}"
    return {"keys": len(delays), "echo_median_ms": 1000 * statistics.median(delays) if delays else float("nan"),
            "echo_max_ms": 1000 * max(delays) if delays else float("nan"),
            "words_streamed_while_typing": tokens, "stream_s": stream_s, "model": model}


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(prog="python -m harness.bench.app", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=positive_int, default=3, help="launches for the first-paint figure")
    parser.add_argument("--keys", type=nonnegative_int, default=20, help="keypresses sent during the streamed reply")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    paints = [first_paint() for _ in range(args.runs)]
    echo = asyncio.run(keypress_echo(args.keys))
    result = {"cpus": os.cpu_count(), "first_paint": paints,
              "first_paint_median_s": statistics.median(p.get("first_paint_s", float("nan")) for p in paints),
              "keypress_echo": echo}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"CPUs: {result['cpus']}")
    for i, p in enumerate(paints, 1):
        print(f"launch {i}: first paint {p.get('first_paint_s', float('nan')):.2f} s, "
              f"KG ready {p.get('kg_ready_s', float('nan')):.2f} s, model ready {p.get('model_ready_s', float('nan')):.2f} s")
    print(f"first paint, median of {len(paints)}: {result['first_paint_median_s']:.2f} s (target <= 2 s)")
    print(f"keypress echo during a streamed reply ({echo['model']}, {echo['keys']} keys, "
          f"{echo['words_streamed_while_typing']} words streamed meanwhile): "
          f"median {echo['echo_median_ms']:.1f} ms, max {echo['echo_max_ms']:.1f} ms (target <= 100 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
