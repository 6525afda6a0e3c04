"""Pilot tests of the answers a user can trust: nothing found said plainly, kgchat's composed
answer in place of a contradicted reply (the model's one key away), the first screen's example
questions, and each fact shown once."""

from __future__ import annotations

import pytest

from tests.support.fakes import ScriptedLLM

pytest.importorskip("textual")

from textual.widgets import DataTable, Markdown  # noqa: E402

from tests.support.app import ask, make_app, ready
from tui.widgets.chat import PromptInput  # noqa: E402
from tui.widgets.welcome import ExampleQuestion, Welcome  # noqa: E402

WRONG_PHONE = "Mark Taylor's phone number is +47 999 99 999."


async def test_nothing_found_is_said_plainly_without_the_model(kg_file, shared):
    llm = ScriptedLLM(["The Internet Engineering Task Force is a global community."])
    app = make_app(kg_file, shared, llm)
    async with app.run_test(size=(130, 40)) as pilot:
        await ready(app, pilot)
        reply = await ask(app, pilot, "Who organizes the bandwidth meeting and where is it?")
        assert llm.calls == []  # the model was not asked
        assert "composed" in reply.classes and "nothing found" in reply.border_title
        assert "I found nothing about “bandwidth meeting” in the knowledge graph" in reply.text
        assert "Internet" not in reply.text
        assert app.turns[-1].state.answer_source == "not_found"
        # Small talk still goes to the model.
        hello = await ask(app, pilot, "Hello!")
        assert len(llm.calls) == 1 and "composed" not in hello.classes


async def test_close_names_are_offered_when_nothing_matches(kg_file, shared):
    app = make_app(kg_file, shared, ScriptedLLM(["Unused."]))
    async with app.run_test(size=(130, 40)) as pilot:
        await ready(app, pilot)
        reply = await ask(app, pilot, "Where is the Desing Reveiw meeting, Zork?")
        state = app.turns[-1].state
        if state.linked_entities:  # the fuzzy linker took it: then this is not a nothing-found turn
            pytest.skip("the misspelt name was linked")
        assert "Did you mean Design Review" in reply.text


async def test_contradicted_reply_is_replaced_and_kept_in_checks(kg_file, shared):
    app = make_app(kg_file, shared, ScriptedLLM([WRONG_PHONE]))
    async with app.run_test(size=(130, 40)) as pilot:
        await ready(app, pilot)
        reply = await ask(app, pilot, "What is the phone number of Mark Taylor?")
        state = app.turns[-1].state
        assert any(c.verdict == "contradicted" for c in state.checks)
        assert state.answer_source == "facts"
        assert "composed" in reply.classes and "from the knowledge graph" in reply.border_title
        assert reply.text.startswith("Mark Taylor")
        assert "+47 400 82 254" in reply.text and "999" not in reply.text
        assert app.turns[-1].reply == reply.text  # what the export and the history keep
        footer = str(reply.footer.content)
        assert footer.startswith("From the knowledge graph (")
        assert f"The model's reply contradicts the knowledge graph; {app.key_of('checks')} shows it" in footer
        await pilot.press("f3")
        await pilot.pause()
        assert app.pane.active == "tab-checks"
        shown = app.pane.query_one("#refined", Markdown).source
        assert "The model's reply (not shown)" in shown and WRONG_PHONE in shown


async def test_answer_llm_keeps_the_model_reply(kg_file, shared):
    app = make_app(kg_file, shared, ScriptedLLM([WRONG_PHONE]), "--answer", "llm")
    async with app.run_test(size=(130, 40)) as pilot:
        await ready(app, pilot)
        reply = await ask(app, pilot, "What is the phone number of Mark Taylor?")
        assert "composed" not in reply.classes and WRONG_PHONE in reply.text
        assert app.turns[-1].state.answer_source == "llm"


async def test_example_questions_go_into_the_prompt(kg_file, shared):
    app = make_app(kg_file, shared)
    async with app.run_test(size=(130, 40)) as pilot:
        await ready(app, pilot)
        await app.workers.wait_for_complete()
        await pilot.pause()
        welcome = app.query_one(Welcome)
        assert "Person" in str(welcome.query("Static").first().content)
        examples = list(app.query(ExampleQuestion))
        assert 3 <= len(examples) <= 4
        assert any("Mark Taylor" in e.question or "Design Review" in e.question for e in examples)
        await pilot.click(ExampleQuestion)
        await pilot.pause()
        assert app.query_one(PromptInput).text == examples[0].question
        # The keyboard way: focus the second, Enter.
        examples[1].focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.query_one(PromptInput).text == examples[1].question
        assert app.query_one(PromptInput).has_focus


async def test_a_restated_fact_is_shown_once(kg_file, shared):
    llm = ScriptedLLM(["Ada Lindqvist attends Design Review."])
    # A generous reasoning budget: on a busy machine the rule that restates the edge must still run.
    app = make_app(kg_file, shared, llm, "--reason-timeout-ms", "60000")
    async with app.run_test(size=(130, 40)) as pilot:
        await ready(app, pilot)
        await ask(app, pilot, "What about Ada Lindqvist?")
        state = app.turns[-1].state
        attends = [c for c in state.candidates if c.text == "Ada Lindqvist attends Design Review"]
        assert len(attends) == 1 and not attends[0].derived
        assert any(d["text"] == "Ada Lindqvist attends Design Review" for d in attends[0].also_derived)
        texts = [c.text for c in state.retrieved]
        assert len(texts) == len(set(texts))
        knowledge = llm.calls[-1][0]["content"]
        lines = [line.split(". ", 1)[1] for line in knowledge.splitlines() if line[:1].isdigit()]
        assert lines and len(lines) == len(set(lines))
        table = app.pane.query_one("#facts-table", DataTable)
        facts = [str(table.get_cell(key, "fact")) for key in table.rows]
        assert len(facts) == len(set(facts))
        app.action_export(("md",))
        md = next((kg_file.parent / "exports").glob("*.md")).read_text(encoding="utf-8")
        rows = [line for line in md.splitlines() if line.startswith("| Ada Lindqvist attends Design Review |")]
        assert len(rows) == 1
