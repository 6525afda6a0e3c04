"""SVG snapshots of the main screen after one turn: fixed KG, fixed clock, fixed fake reply,
nothing on disk. Update them with `pytest tests/tui/test_tui_snapshots.py --snapshot-update` after
a deliberate change to the app or to what the stages produce, and look at the SVGs."""

from __future__ import annotations

import uuid

import pytest

from tests.support.fakes import ScriptedLLM

pytest.importorskip("pytest_textual_snapshot")

from tests.support.office import NOW, REPLY, office_turtle
from tui.app import KGChatApp  # noqa: E402
from tui.main import app_config  # noqa: E402


@pytest.fixture
def snapshot_app(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    # What varies run to run or machine to machine: the session id, the measured stage times,
    # the scorer's device.
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=0xC0FFEE))
    monkeypatch.setattr("tui.widgets.status.format_timings", lambda timings: f"{len(timings)} stages timed")
    monkeypatch.setattr("tui.widgets.status.format_scoring", lambda device, note: "scoring where it can")
    kg = tmp_path / "office.ttl"
    kg.write_text(office_turtle(), encoding="utf-8")
    # A generous reasoning budget, so a busy machine cannot change what gets linked.
    config = app_config(["--memory", "--kg", str(kg), "--scorer", "bm25", "--now", NOW, "--refine-steps", "0",
                         "--reason-timeout-ms", "60000"])
    return KGChatApp(config, resources={"llm": ScriptedLLM([REPLY])}, export_dir=tmp_path)


async def _one_turn(pilot, question: str = "What is the phone number of Mark Taylor?") -> None:
    app = pilot.app
    await app.workers.wait_for_complete()
    for _ in range(100):
        if app.session is not None and app.status.model != "model loading…":
            break
        await pilot.pause()
    app.prompt_input.cursor_blink = False
    app.prompt_input.load_text(question)
    await pilot.press("enter")
    await app.workers.wait_for_complete()
    await pilot.pause()
    app.prompt_input.load_text("")
    app.prompt_input.focus()
    await pilot.pause()
    # The first screen above the turn fills in from a worker: its height can land before or after
    # the reply's own scroll, so the chat is put at its end once everything has arrived.
    await app.workers.wait_for_complete()
    def layout():  # what a Markdown update in progress changes: its blocks, the chat's size and place
        return len(app.chat.query("*")), app.chat.virtual_size, app.chat.scroll_y

    settled = 0
    while settled < 5:  # the reply's Markdown and the first screen re-lay out over a few refreshes
        before = layout()
        app.chat.scroll_end(animate=False)
        await pilot.pause()
        # settled only at the chat's end: a scroll made before the last re-layout leaves it short
        at_end = app.chat.scroll_y >= app.chat.max_scroll_y
        settled = settled + 1 if layout() == before and at_end else 0


def test_main_screen_after_a_turn(snap_compare, snapshot_app):
    assert snap_compare(snapshot_app, terminal_size=(130, 40), run_before=_one_turn)


def test_main_screen_80x24(snap_compare, snapshot_app):
    assert snap_compare(snapshot_app, terminal_size=(80, 24), run_before=_one_turn)


def test_checks_tab_80x24(snap_compare, snapshot_app):
    async def run_before(pilot) -> None:
        await _one_turn(pilot)
        await pilot.press("f5", "f5", "f5")  # Subgraph → Reasoning → Facts → Checks
        await pilot.pause()

    assert snap_compare(snapshot_app, terminal_size=(80, 24), run_before=run_before)


def test_composed_answer_over_a_wrong_reply(snap_compare, snapshot_app):
    """The README's screenshot (docs/img/app.svg is this SVG): a two-hop question, the model's
    reply contradicted, kgchat's own answer shown in its place."""
    snapshot_app._resources["llm"] = ScriptedLLM(["The meeting Mark Taylor organizes is held in Office 359."])

    async def run_before(pilot) -> None:
        await _one_turn(pilot, "Where is the meeting Mark Taylor organizes held?")

    assert snap_compare(snapshot_app, terminal_size=(130, 40), run_before=run_before)


def test_the_readme_screenshot_is_the_composed_answer_snapshot():
    """After `--snapshot-update`, copy that SVG to docs/img/app.svg: the README shows the app as it is."""
    from pathlib import Path

    here = Path(__file__).parent
    shot = here / "__snapshots__" / "test_tui_snapshots" / "test_composed_answer_over_a_wrong_reply.svg"
    assert (here.parent.parent / "docs" / "img" / "app.svg").read_bytes() == shot.read_bytes()
