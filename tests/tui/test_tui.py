"""The Textual app driven by Pilot: a scripted model, a small fixed KG, nothing on disk."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from pathlib import Path

import pytest

from engine.llm.process import ProcessBackend
from tests.support.fakes import ScriptedLLM

pytest.importorskip("textual")

from textual.widgets import DataTable, Input  # noqa: E402

from tests.support.app import ask, make_app, plain, ready, remember_encoder, settle  # noqa: E402
from tests.support.office import NOW, REPLY  # noqa: E402
from tui.app import KGChatApp  # noqa: E402
from tui.main import app_config  # noqa: E402
from tui.widgets.chat import AssistantMessage, Notice, UserMessage  # noqa: E402


async def test_send_message_streams_the_whole_reply(kg_file, shared):
    long_reply = REPLY + " " + " ".join(f"word{i}" for i in range(300))
    llm = ScriptedLLM([long_reply])
    app = make_app(kg_file, shared, llm, "--max-tokens", "1000")
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(app, pilot)
        assert app.status.model == "scripted" and app.status.device == "CPU"
        reply = await ask(app, pilot, "What is the phone number of Mark Taylor?")
        remember_encoder(app, shared)
        assert reply.streamed == long_reply  # every token arrived, in order, through the stream
        assert reply.text == long_reply
        assert app.turns[0].user == "What is the phone number of Mark Taylor?"
        assert app.turns[0].reply == long_reply
        assert app.turns[0].state is not None and app.turns[0].state.response == long_reply
        assert app.prompt_input.text == ""
        assert not app.busy
        assert app.status.timings, "per-stage timings of the turn are shown"
        assert len(llm.calls) == 1


async def test_enter_sends_ctrl_j_inserts_newline(kg_file, shared):
    app = make_app(kg_file, shared)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        await pilot.click("#prompt")
        await pilot.press("h", "i", "ctrl+j", "y", "o")
        assert app.prompt_input.text == "hi\nyo"
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert [t.user for t in app.turns] == ["hi\nyo"]
        assert len(app.query(UserMessage)) == 1


class CountingGate:
    """Lets tokens through one by one as the test releases them (ScriptedLLM calls wait())."""

    def __init__(self) -> None:
        self._sem = threading.Semaphore(0)
        self._cond = threading.Condition()
        self.entered = 0

    def wait(self) -> None:
        with self._cond:
            self.entered += 1
            self._cond.notify_all()
        self._sem.acquire()

    def release(self, n: int) -> None:
        for _ in range(n):
            self._sem.release()

    def wait_entered(self, n: int, timeout: float = 30) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self.entered >= n, timeout)


async def test_escape_cancels_and_keeps_the_partial_reply(kg_file, shared):
    gate = CountingGate()
    app = make_app(kg_file, shared, ScriptedLLM([REPLY], gate=gate))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        await pilot.click("#prompt")
        app.prompt_input.load_text("What is the phone number of Mark Taylor?")
        await pilot.press("enter")
        gate.release(3)
        # The 4th token is waiting at the gate: three have been emitted.
        assert await asyncio.to_thread(gate.wait_entered, 4)
        assert app.busy
        await pilot.press("escape")
        gate.release(1000)
        await app.workers.wait_for_complete()
        await pilot.pause()
        reply = list(app.query(AssistantMessage))[-1]
        first_three = "".join(REPLY.split(" ")[i] + " " for i in range(3)).strip()
        assert reply.text.strip() == first_three
        assert reply.has_class("cut")
        assert app.turns[0].cut and app.turns[0].reply.strip() == first_three
        assert not app.busy
        # The session goes on.
        reply = await ask(app, pilot, "And Ada Lindqvist?")
        assert not reply.has_class("cut")


class BrokenLLM(ScriptedLLM):
    def stream(self, messages, **kwargs):
        raise RuntimeError("backend exploded")
        yield  # pragma: no cover


async def test_engine_exception_is_a_notification_and_the_session_goes_on(kg_file, shared):
    # --answer llm: the second reply names no fact, and is to be shown as the model gave it
    app = make_app(kg_file, shared, BrokenLLM(), "--answer", "llm")
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        reply = await ask(app, pilot, "Who is Mark Taylor?")
        assert reply.has_class("failed")
        assert "backend exploded" in str(reply.footer.render())
        assert any("backend exploded" in n.message for n in app._notifications)
        assert app.turns[0].errors and not app.busy
        app.session.ctx.resources["llm"] = ScriptedLLM(["Fine again."])
        reply = await ask(app, pilot, "Who is Ada Lindqvist?")
        assert reply.text == "Fine again." and not reply.has_class("failed")


async def test_paste_of_100kb_is_accepted_and_read_up_to_the_turn_cap(kg_file, shared):
    from textual import events

    app = make_app(kg_file, shared)
    text = ("Mark Taylor works in Engineering. " * 3100)[:100_000]
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        await pilot.click("#prompt")
        app.post_message(events.Paste(text))  # as the terminal driver delivers it
        await pilot.pause()
        assert app.prompt_input.text == text
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.turns[0].user == text
        state = app.turns[0].state
        assert state is not None and text.startswith(state.text) and 3900 < len(state.text) <= 4000
        assert state.text_note.startswith("the turn was cut to its first")
        assert app.turns[0].reply == REPLY
        shown = str(app.query_one(UserMessage).render())
        assert "characters of 100,000; the rest was not read" in shown and len(shown) < 4200
        assert "⚠ " + state.text_note in plain(app.pane.query_one("#reasoning"))
        assert not app.busy


async def test_load_kg_good_then_broken_from_the_picker(kg_file, shared):
    good = kg_file.parent / "more.nt"
    good.write_text('<urn:x:a> <http://www.w3.org/2000/01/rdf-schema#label> "Extra Thing" .\n'
                    '<urn:x:a> <urn:x:likes> <urn:x:b> .\n', encoding="utf-8")
    broken = kg_file.parent / "broken.ttl"
    broken.write_text('<urn:x:c> <urn:x:p> "ok" .\n<urn:x:d> <urn:x:p> "unterminated .\n', encoding="utf-8")
    app = make_app(kg_file, shared)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(app, pilot)
        before = app.status.kg_size
        app.load_files([str(good)])
        await settle(app)
        await pilot.pause()
        assert app.status.kg_size == before + 2
        assert any(isinstance(n, Notice) and "more.nt" in str(n.render()) for n in app.query(Notice))

        store = app.session.ctx.store
        quads = store.count()
        await pilot.press("ctrl+o")
        picker = app.screen
        picker.query_one(Input).value = str(broken)
        picker.query_one(Input).focus()
        await pilot.press("enter")
        await settle(app)
        await pilot.pause()
        assert store.count() == quads  # nothing changed
        assert app.status.kg_size == before + 2
        errors = [n for n in app._notifications if n.severity == "error"]
        assert errors and "broken.ttl" in errors[-1].message


async def test_a_table_loaded_from_the_picker_says_how_it_was_read(kg_file, shared):
    table = kg_file.parent / "trails.csv"
    table.write_text("name,region,length_km\nFalcon Ridge,Tarn Valley,14.5\nLarch Loop,Tarn Valley,6.2\n",
                     encoding="utf-8")
    app = make_app(kg_file, shared)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(app, pilot)
        await pilot.press("ctrl+o")
        picker = app.screen
        picker.query_one(Input).value = str(table)
        picker.query_one(Input).focus()
        await pilot.press("enter")
        await settle(app)
        await pilot.pause()
        said = "table, 2 rows × 2 relations, key column name, 1 entity linked by value, rows typed Trail"
        assert any(said in str(n.render()) for n in app.query(Notice) if "trails.csv" in str(n.render()))
        assert any(said in n.message for n in app._notifications)


async def test_one_load_at_a_time_and_the_bar_goes_when_it_ends(kg_file, shared):
    more = kg_file.parent / "more.nt"
    more.write_text('<urn:x:a> <http://www.w3.org/2000/01/rdf-schema#label> "Extra Thing" .\n', encoding="utf-8")
    app = make_app(kg_file, shared)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(app, pilot)
        bar = app.query_one("#load-progress")
        app.load_files([str(more)])
        assert bar.has_class("visible")
        app.load_files([str(more)])  # while the first one runs
        await settle(app)
        await pilot.pause()
        warnings = [n.message for n in app._notifications if n.severity == "warning"]
        assert "Wait for the current load to finish." in warnings
        loaded = [n for n in app.query(Notice) if "loaded more.nt" in str(n.render())]
        assert len(loaded) == 1
        assert not bar.has_class("visible")
        app.load_files([str(more)])  # the next load is welcome again
        await settle(app)
        await pilot.pause()
        assert len([n for n in app.query(Notice) if "loaded more.nt" in str(n.render())]) == 2


async def test_switch_retriever_key_and_palette_command(kg_file, shared):
    app = make_app(kg_file, shared)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        assert app.session.config.retriever == "pcst"
        await pilot.press("ctrl+r")
        assert app.session.config.retriever == "topk" and "topk" in app.status.settings
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Retriever: pcst" in titles and "Scorer: bm25" in titles and "SPARQL console" in titles
        # Through the command palette, as a user would.
        await pilot.press("ctrl+p")
        await pilot.press(*"scorer: sbert")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.config.scorer == "sbert" and "sbert" in app.status.settings
        app.set_option("scorer", "bm25")
        await ask(app, pilot, "What is the phone number of Mark Taylor?")
        state = app.turns[-1].state
        assert state is not None and len(state.retrieved) <= app.session.config.k


async def test_sparql_console_shows_rows_and_errors(kg_file, shared):
    from textual.widgets import TextArea

    from tui.screens.sparql import SparqlScreen

    app = make_app(kg_file, shared)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, SparqlScreen)
        screen.query_one("#query", TextArea).load_text(
            'SELECT ?name WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?name } ORDER BY ?name')
        await pilot.press("ctrl+r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = screen.query_one("#results", DataTable)
        names = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        assert "Mark Taylor" in names and "Ada Lindqvist" in names
        screen.query_one("#query", TextArea).load_text("SELECT WHERE {")
        await pilot.press("ctrl+r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "✗" in str(screen.query_one("#sparql-status").render())
        await pilot.press("escape")
        assert not isinstance(app.screen, SparqlScreen)


async def test_export_markdown_and_json(kg_file, shared):
    app = make_app(kg_file, shared)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        await ask(app, pilot, "What is the phone number of Mark Taylor?")
        await pilot.press("ctrl+t")
        assert app.clipboard == REPLY
        await pilot.press("ctrl+s")
        out = kg_file.parent / "exports"
        md = (out / f"kgchat-{app.session.session_id}.md").read_text(encoding="utf-8")
        doc = json.loads((out / f"kgchat-{app.session.session_id}.json").read_text(encoding="utf-8"))
    assert "What is the phone number of Mark Taylor?" in md and "+47 400 82 254" in md
    turn = doc["turns"][0]
    assert turn["text"] == "What is the phone number of Mark Taylor?" and turn["response"] == REPLY
    assert {"mentions", "derived", "retrieved", "checks", "fact_score", "neip", "timings_ms"} <= set(turn)
    assert doc["settings"]["scorer"] == "bm25"


async def test_keys_are_remappable_from_the_config(kg_file, shared, isolated):
    from engine.config import ConfigError
    from tui.screens.sparql import SparqlScreen

    toml = isolated / "kgchat.toml"
    toml.write_text('[keys]\nsparql = "f9"\n', encoding="utf-8")
    app = make_app(kg_file, shared, None, "--config", str(toml))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        await pilot.press("f4")
        assert not isinstance(app.screen, SparqlScreen)
        await pilot.press("f9")
        assert isinstance(app.screen, SparqlScreen)
    toml.write_text('[keys]\nlaunch_rockets = "f9"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="launch_rockets"):
        app_config(["--memory", "--config", str(toml)])


async def test_help_lists_the_effective_keys(kg_file, shared):
    from tui.screens.help import HelpScreen

    app = make_app(kg_file, shared)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        keys = {b[2]: b[0] for b in app.screen.bindings}
        assert keys["load_kg"] and keys["sparql"] and "cancel" in keys
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_new_session_then_reopen_the_past_one(kg_file, shared):
    from textual.widgets import DataTable as Table

    from tui.screens.sessions import SessionsScreen

    app = make_app(kg_file, shared)
    async with app.run_test(size=(110, 32)) as pilot:
        await ready(app, pilot)
        await ask(app, pilot, "What is the phone number of Mark Taylor?")
        first = app.session.session_id
        await pilot.press("ctrl+n")
        assert app.session.session_id != first and not app.turns and not app.query(UserMessage)
        await ask(app, pilot, "Who is Ada Lindqvist?")
        await pilot.press("f2")
        assert isinstance(app.screen, SessionsScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = app.screen.query_one(Table)
        assert table.row_count == 2
        row = [str(table.get_row_at(i)[0]) for i in range(2)].index(first)
        table.move_cursor(row=row)
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.session.session_id == first
        assert [t.user for t in app.turns] == ["What is the phone number of Mark Taylor?"]
        assert app.session.history[0] == ("user", "What is the phone number of Mark Taylor?")
        assert [m.text for m in app.query(AssistantMessage)] == [REPLY]


def test_the_app_keeps_sessions_in_the_xdg_data_dir_unless_told_otherwise(isolated):
    assert app_config([]).store == str(isolated / "data" / "kgchat" / "store")
    assert app_config(["--store", str(isolated / "mine")]).store == str(isolated / "mine")
    assert app_config(["--memory"]).store is None


async def test_no_app_key_is_shadowed_by_the_focused_prompt(kg_file, shared):
    from tui.app import BINDINGS

    app = make_app(kg_file, shared)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        assert app.focused is app.prompt_input
        owners = {key: type(b.node).__name__ for key, b in app.active_bindings.items()}
        assert {b.key: owners.get(b.key) for b in BINDINGS} == {b.key: "KGChatApp" for b in BINDINGS}
        await pilot.press("f5")
        assert app.pane.active == "tab-reasoning"


async def test_knowledge_pane_sections_after_a_turn(kg_file, shared):
    from textual.widgets import Static, Tree

    app = make_app(kg_file, shared)
    async with app.run_test(size=(130, 40)) as pilot:
        await ready(app, pilot)
        await ask(app, pilot, "What is the phone number of Mark Taylor?")
        state = app.turns[0].state
        pane = app.pane
        # Reasoning: the mention and what it links to.
        reasoning = plain(pane.query_one("#reasoning", Static))
        assert any(m.entity for m in state.mentions) and "Mark Taylor" in reasoning
        # Facts: every candidate, sortable by a column.
        table = pane.query_one("#facts-table", DataTable)
        assert table.row_count == len(state.candidates) > 0
        pane.sort_facts("score", reverse=False)
        scores = [float(table.get_row_at(i)[1].plain) for i in range(table.row_count)]
        assert scores == sorted(scores)
        # Subgraph tree: picking an entity shows its other facts from the store.
        tree = pane.query_one("#subgraph-tree", Tree)
        entity = next(n for n in tree.root.children if n.data and n.data[1] == "Mark Taylor")
        tree.select_node(entity)
        await app.workers.wait_for_complete()
        await pilot.pause()
        facts = plain(pane.query_one("#node-facts", Static))
        assert "Other facts about Mark Taylor" in facts and "Office 359" in facts
        # Checks: a claim's evidence on selection.
        assert state.checks
        await pilot.press("f5", "f5", "f5")
        assert pane.active == "tab-checks"
        checks = pane.query_one("#checks-table", DataTable)
        assert checks.row_count == len(state.checks)
        checks.move_cursor(row=0)
        await pilot.pause()
        assert state.checks[0].verdict in plain(pane.query_one("#check-evidence", Static))


async def test_the_reasoning_pane_shows_the_meeting_being_arranged(kg_file, shared):
    from textual.widgets import Static

    app = make_app(kg_file, shared, ScriptedLLM(["Sure, I will set it up."]))
    async with app.run_test(size=(130, 40)) as pilot:
        await ready(app, pilot)
        await ask(app, pilot, "Can you set up a meeting with Ada Lindqvist tomorrow at 3 pm?")
        reasoning = plain(app.pane.query_one("#reasoning", Static))
        assert "Meeting being arranged" in reasoning and "Ada Lindqvist" in reasoning
        assert "2024-05-07" in reasoning and "15:00" in reasoning
        assert "not said yet" in reasoning  # no name, no room yet


async def test_a_store_held_elsewhere_falls_back_to_memory_and_says_so(kg_file, shared, isolated):
    from kgstore import KGStore

    held = KGStore(str(isolated / "held"))  # another kgchat holding the store
    app = make_app(kg_file, shared, None, "--store", str(isolated / "held"))
    app.config.memory = False
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        assert app.session.config.memory and app.status.kg_size == 23
        notes = [str(n.render()) for n in app.query(Notice)]
        assert any("kept in memory only" in n for n in notes)
        reply = await ask(app, pilot, "What is the phone number of Mark Taylor?")
        assert reply.text == REPLY
    del held


async def test_a_broken_kg_on_the_command_line_is_reported_and_the_app_opens(kg_file, shared):
    broken = kg_file.parent / "broken.ttl"
    broken.write_text('<urn:x:c> <urn:x:p> "unterminated .\n', encoding="utf-8")
    app = make_app(broken, shared, None, "--demo", "none")
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        assert app.status.kg_size == 0
        errors = [n.message for n in app._notifications]
        assert any("broken.ttl" in m and "without the --kg files" in m for m in errors)


async def test_choose_model_from_the_picker_loads_it_in_the_background(kg_file, shared):
    from engine.llm import default_model_path

    app = make_app(kg_file, shared)
    async with app.run_test(size=(110, 32)) as pilot:
        await ready(app, pilot)

        async def pick(path: str) -> None:
            app.action_choose_model()
            await pilot.pause()
            app.screen.query_one(Input).value = path
            app.screen.query_one(Input).focus()
            await pilot.press("enter")
            await app.workers.wait_for_complete()
            for _ in range(100):
                if app.status.model != "model loading…":
                    break
                await pilot.pause()

        await pick(str(kg_file))  # not a model: said so, and the app goes on
        assert app.status.model == "no model"
        assert any(n.severity == "error" and "office.ttl" in n.message for n in app._notifications)
        await pick(default_model_path())
        assert app.status.model not in ("no model", "scripted") and app.status.device in ("CPU", "CUDA")
        assert app.session.config.model == default_model_path()


async def test_sessions_survive_a_restart_on_the_default_store(kg_file, shared, isolated):
    import subprocess
    import sys

    from textual.widgets import DataTable as Table

    from engine.config import default_data_dir
    from tui.screens.sessions import SessionsScreen

    args = ["--kg", str(kg_file), "--scorer", "bm25", "--now", NOW, "--refine-steps", "0"]
    # An earlier run, in its own process (the store's lock goes with the process): one turn.
    earlier = f"""
import sys
sys.path[:0] = {[str(Path(__file__).resolve().parents[2])]!r}
from tests.support.fakes import ScriptedLLM
from engine.session import Session
from tui.main import app_config
session = Session.open(app_config({args!r}), llm=ScriptedLLM([{REPLY!r}]))
session.user_turn("What is the phone number of Mark Taylor?")
print(session.session_id)
"""
    default_data_dir().mkdir(parents=True)
    run = subprocess.run([sys.executable, "-c", earlier], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert run.returncode == 0, run.stderr
    first = run.stdout.split()[-1]

    config = app_config(args)
    app = KGChatApp(config, resources={"llm": ScriptedLLM([REPLY]), **shared}, export_dir=isolated)
    async with app.run_test(size=(110, 32)) as pilot:
        await ready(app, pilot)
        assert app.session.config.store == str(default_data_dir() / "store") and not app.session.config.memory
        await pilot.press("f2")
        assert isinstance(app.screen, SessionsScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = app.screen.query_one(Table)
        assert [str(table.get_row_at(i)[0]) for i in range(table.row_count)] == [first]
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.session.session_id == first
        assert [t.user for t in app.turns] == ["What is the phone number of Mark Taylor?"]
        assert [m.text for m in app.query(AssistantMessage)] == [REPLY]


async def test_brackets_in_an_error_are_shown_as_text(kg_file, shared):
    bad = kg_file.parent / "[draft] broken.ttl"
    bad.write_text("<urn:x:a> <urn:x:p> [ .\n", encoding="utf-8")
    app = make_app(kg_file, shared)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        app.load_files([str(bad)])
        await settle(app)
        await pilot.pause()
        errors = [n for n in app._notifications if n.severity == "error"]
        assert errors and "[draft] broken.ttl" in errors[-1].message and not errors[-1].markup


def test_missing_model_is_one_error_before_the_app_starts(tmp_path, capsys):
    from cli import main

    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"not a gguf file at all")
    assert main(["--memory", "--model", str(tmp_path / "missing.gguf")]) == 2
    assert main(["--memory", "--model", str(broken)]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 2 and all(line.startswith("kgchat: error:") for line in errors)
    assert "missing.gguf" in errors[0] and "broken.gguf" in errors[1]


async def test_checks_pane_says_when_the_reply_had_more_claims_than_were_checked(kg_file, shared):
    app = make_app(kg_file, shared, None, "--max-claims", "1")
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(app, pilot)
        await ask(app, pilot, "What is the phone number of Mark Taylor?")
        state = app.turns[-1].state
        assert state.checks_truncated and len(state.checks) == 1
        assert "only the first 1 claims were checked" in plain(app.query_one("#checks-summary"))


async def test_sparql_console_is_bounded_and_stopped_by_escape(kg_file, shared):
    import pyoxigraph
    from textual.widgets import TextArea

    from kgstore import query
    from kgstore.vocab import bg_graph
    from tui.screens.sparql import SparqlScreen

    app = make_app(kg_file, shared)
    async with app.run_test(size=(120, 30)) as pilot:
        await ready(app, pilot)
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, SparqlScreen)
        status = screen.query_one("#sparql-status")
        screen.query_one("#query", TextArea).load_text("SELECT * WHERE { ?a ?b ?c . ?d ?e ?f }")
        screen.query_one("#limit", Input).value = "5"
        await pilot.press("ctrl+r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.outcome.stopped == "limit" and screen.query_one("#results", DataTable).row_count == 5
        assert "row limit" in plain(status)
        screen.query_one("#limit", Input).value = "0"
        await pilot.press("ctrl+r")
        assert "row limit must be at least 1" in plain(status)

        g = pyoxigraph.NamedNode(bg_graph("bulk"))
        app.session.ctx.store._store.extend(  # 1200^2 rows to sort (600^2 finished before Escape on a fast machine)
            pyoxigraph.Quad(pyoxigraph.NamedNode(f"http://example.org/e{i}"), pyoxigraph.NamedNode("http://example.org/p"),
                            pyoxigraph.Literal(f"value {i}"), g) for i in range(1200))
        screen.query_one("#query", TextArea).load_text("SELECT * WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?c ?f")
        screen.query_one("#limit", Input).value = "1000"
        screen.query_one("#timeout", Input).value = "0.2"
        await pilot.press("ctrl+r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.outcome.stopped == "timeout" and screen.query_one("#results", DataTable).row_count == 0
        text = plain(status)
        # the app answered at its timeout although pyoxigraph was still sorting (how long the sort
        # goes on after that depends on the machine, so it is not asserted)
        assert "timed out after 0.2 s" in text and "finishes that in the background" in text

        screen.query_one("#timeout", Input).value = "600"
        await pilot.press("ctrl+r")
        await pilot.press("escape")
        assert isinstance(app.screen, SparqlScreen)  # the first Escape stops the query...
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.outcome.stopped == "cancelled" and "cancelled" in plain(status)
        await pilot.press("escape")  # ...the next leaves the console
        assert not isinstance(app.screen, SparqlScreen)
        while query.busy():  # leave no sorting thread behind this test
            await pilot.pause(0.1)


async def test_the_status_bar_says_while_minilm_is_exported_then_where_scoring_runs(kg_file, monkeypatch):
    import shutil

    from engine.nlp import encoder

    made = encoder.onnx_path()  # this install's export, copied in place of a real one (15 s)
    real_export = encoder.export_onnx
    monkeypatch.setenv("KGCHAT_CACHE_DIR", str(kg_file.parent / "cache"))
    called, release = threading.Event(), threading.Event()

    def export(path: Path) -> None:
        called.set()
        release.wait(60)
        if made.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(made, path)
        else:
            real_export(path)

    monkeypatch.setattr(encoder, "export_onnx", export)
    app = make_app(kg_file, {})  # an encoder of its own, opened at start
    async with app.run_test(size=(160, 30)) as pilot:
        assert await asyncio.to_thread(called.wait, 60), "the opening worker never started the export"
        await pilot.pause()
        assert app.status.activity.startswith("exporting MiniLM to ONNX"), app.status.activity
        release.set()
        await ready(app, pilot)
        for _ in range(50):
            if app.status.scoring_device:
                break
            await pilot.pause()
        assert app.status.activity == ""
        assert app.status.scoring_device in ("CPU", "CUDA")
        assert app.status.scoring_device == "CUDA" or app.status.scoring_note  # why not the GPU
        assert f"scoring {app.status.scoring_device}" in app.status.render().plain
        assert encoder.onnx_path().exists() and app.session.ctx.resources["encoder"]._model is not None


async def test_a_reply_that_goes_round_in_a_loop_is_cut_and_the_chat_says_so(kg_file, shared):
    looping = REPLY + " Mark Taylor: " + "Mark Taylor: " * 40
    app = make_app(kg_file, shared, ScriptedLLM([looping]), "--answer", "llm")
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(app, pilot)
        reply = await ask(app, pilot, "What is the phone number of Mark Taylor?")
        await settle(app)
        assert reply.text.strip() == REPLY  # cut after the first time round, its opened list left out
        notices = [plain(n) for n in app.query(Notice)]
        assert any("went on repeating “Mark Taylor:”" in n for n in notices)


class WatchedProcessBackend(ProcessBackend):
    """A model in its own process, with an event set once the app has taken its first token."""

    def __init__(self, factory: str):
        super().__init__(factory)
        self.first = threading.Event()

    def stream(self, *args, **kwargs):
        for token in super().stream(*args, **kwargs):
            yield token
            self.first.set()


async def test_a_model_in_its_own_process_streams_shows_where_and_stops_on_escape(kg_file, shared):
    llm = WatchedProcessBackend("tests.support.fakes:HeldLLM")
    app = make_app(kg_file, shared, llm, "--answer", "llm")  # the model's reply, as it came
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await ready(app, pilot)
            assert app.status.device == "CPU" and app.status.device_note == "own process"
            assert "held · CPU (own process)" in app.status.render().plain
            await pilot.click("#prompt")
            app.prompt_input.load_text("What is the phone number of Mark Taylor?")
            await pilot.press("enter")
            await asyncio.to_thread(llm.first.wait)  # the model holds the reply open
            assert app.busy
            await pilot.press("escape")
            await app.workers.wait_for_complete()
            await pilot.pause()
            reply = list(app.query(AssistantMessage))[-1]
            assert reply.text.strip() == "after-none" and reply.has_class("cut")
            # the next reply comes from the same process, which saw the cancel
            assert (await ask(app, pilot, "And Ada Lindqvist?")).text.strip() == "after-cancelled"
    finally:
        llm.close()
