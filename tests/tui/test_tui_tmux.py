"""Smoke test in a real terminal: `kgchat` in tmux with the real default model (no fakes), a
question typed, the screen read back with `capture-pane`.

The app runs in another process, so the test polls the terminal until the expected text shows
(with a deadline) — the one place where waiting on the clock cannot be avoided."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.support.office import office_turtle

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (`make test` installs it where it can)")


def _kgchat() -> list[str]:
    exe = Path(sys.executable).with_name("kgchat")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "cli"]


class Terminal:
    def __init__(self, socket: str, width: int = 120, height: int = 36) -> None:
        self.socket, self.width, self.height = socket, width, height

    def tmux(self, *args: str) -> str:
        return subprocess.run([TMUX, "-L", self.socket, *args], check=True, capture_output=True, text=True).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "app")

    def wait_for(self, predicate, timeout: float, what: str) -> str:
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen()
            if predicate(text):
                return text
            if time.monotonic() > deadline:
                pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}; the screen:\n{text}")
            time.sleep(0.25)


@pytest.fixture
def terminal(tmp_path):
    term = Terminal(f"kgchat-test-{uuid.uuid4().hex[:8]}")
    yield term
    subprocess.run([TMUX, "-L", term.socket, "kill-server"], capture_output=True)


def test_kgchat_in_a_real_terminal(tmp_path, terminal):
    kg = tmp_path / "office.ttl"
    kg.write_text(office_turtle(), encoding="utf-8")
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "HF_HUB_OFFLINE": "1", "TERM": "xterm-256color"}
    command = ["env", *(f"{k}={v}" for k, v in env.items()), *_kgchat(), "--memory", "--kg", str(kg),
               "--scorer", "bm25", "--max-tokens", "24", "--refine-steps", "0", "--now", "2024-05-06T10:00:00"]
    terminal.tmux("new-session", "-d", "-s", "app", "-x", str(terminal.width), "-y", str(terminal.height),
                  "-c", os.getcwd(), " ".join(f"'{c}'" for c in command))
    terminal.tmux("resize-window", "-t", "app", "-x", str(terminal.width), "-y", str(terminal.height))
    terminal.wait_for(lambda s: "KG 23 triples" in s, 60, "the store to open")
    terminal.wait_for(lambda s: "model loading" not in s, 120, "the model to load")
    assert "no model" not in terminal.screen()
    terminal.tmux("send-keys", "-t", "app", "-l", "What is the phone number of Mark Taylor?")
    terminal.tmux("send-keys", "-t", "app", "Enter")
    # the turn's footer comes once its checks are done: the model's reply with its fact score, or
    # kgchat's own answer from the graph where the model's did not answer
    done = ("fact score", "no claims to check", "From the knowledge graph (")
    screen = terminal.wait_for(lambda s: any(d in s for d in done), 180, "the reply and its checks")
    flat = " ".join(screen.split())
    assert "What is the phone number of" in flat and "Mark Taylor?" in flat
    assert "+47 400 82 254" in screen  # the subgraph pane shows the retrieved phone number
    assert "CPU" in screen or "CUDA" in screen
    terminal.tmux("send-keys", "-t", "app", "C-q")
    terminal.wait_for(lambda s: "kgchat" not in s.splitlines()[0] if s.strip() else True, 30, "the app to quit")
