"""The Textual app under test: a tiny fixed office KG, a scripted model, and the Pilot steps that
wait for the app's workers instead of sleeping."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.support.fakes import ScriptedLLM
from tests.support.office import NOW, REPLY
from tui.app import KGChatApp
from tui.main import app_config
from tui.widgets.chat import AssistantMessage, PromptInput


def make_app(kg_file: Path, shared: dict, llm=None, *args: str) -> KGChatApp:
    config = app_config(["--memory", "--kg", str(kg_file), "--scorer", "bm25", "--now", NOW,
                         "--refine-steps", "0", *args])
    resources = {"llm": llm or ScriptedLLM([REPLY])}
    resources.update(shared)
    return KGChatApp(config, resources=resources, export_dir=kg_file.parent / "exports")


async def ready(app: KGChatApp, pilot) -> None:
    """Wait until the session is open and the model loaded (both happen after the first paint)."""
    await app.workers.wait_for_complete()
    for _ in range(100):  # the last messages of the opening worker may still be queued
        if app.session is not None and app.status.model != "model loading…":
            break
        await pilot.pause()
    assert app.session is not None, "the session did not open"


async def ask(app: KGChatApp, pilot, text: str) -> AssistantMessage:
    await pilot.click("#prompt")
    app.query_one(PromptInput).load_text(text)
    await pilot.press("enter")
    await app.workers.wait_for_complete()
    await pilot.pause()
    return list(app.query(AssistantMessage))[-1]


def plain(widget) -> str:
    """What a Static shows, as text (its content may be any Rich renderable)."""
    import io

    from rich.console import Console

    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(widget.content)
    return console.export_text()


def remember_encoder(app: KGChatApp, shared: dict) -> None:
    if app.session is not None and "encoder" in app.session.ctx.resources:
        shared.setdefault("encoder", app.session.ctx.resources["encoder"])


async def settle(app: KGChatApp) -> None:
    """Wait until no worker of the app runs. Unlike `wait_for_complete`, a worker that a newer one
    of its exclusive group cancelled (the first screen drawn again after a load) is no failure;
    any other failure of a worker still is."""
    from textual.worker import WorkerCancelled, WorkerState

    while running := [w for w in app.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]:
        done = await asyncio.gather(*(w.wait() for w in running), return_exceptions=True)
        failed = [e for e in done if isinstance(e, BaseException) and not isinstance(e, WorkerCancelled)]
        if failed:
            raise failed[0]
