"""Hostile text in the data never reaches a terminal raw: escape sequences, C1 controls and bidi
overrides in labels and values come out of the CLI, its JSON and the exports as visible escapes."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from cli import main as cli
from engine.inert import UNSAFE, inert, json_text
from tui.export import ChatTurn, to_json, to_markdown

EX = "http://example.org/"
# set the window title, clear the screen, a C1 CSI that recolours, a right-to-left override
HOSTILE = "A\x1b]0;owned\x07\x1b[2J\x9b31mB\u202eC"


def _kg(tmp_path):
    path = tmp_path / "evil.nt"
    path.write_text(f'<{EX}a> <http://www.w3.org/2000/01/rdf-schema#label> {json.dumps(HOSTILE)} .\n'
                    f'<{EX}a> <{EX}knows> <{EX}b> .\n', encoding="utf-8")
    return path


def _raw(text: str) -> bool:
    return UNSAFE.search(text) is not None


def test_sparql_table_and_json_escape_controls_and_bidi(tmp_path, capsys):
    db = str(tmp_path / "db")
    assert cli(["load", str(_kg(tmp_path)), "--store", db]) == 0
    capsys.readouterr()
    query = "SELECT ?l WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l }"
    assert cli(["sparql", query, "--store", db]) == 0
    out = capsys.readouterr().out
    assert not _raw(out) and "\\u001b]0;owned\\u0007" in out and "\\u202e" in out
    assert cli(["sparql", query, "--store", db, "--json"]) == 0
    out = capsys.readouterr().out
    assert not _raw(out)
    assert json.loads(out)["rows"] == [{"l": HOSTILE}]  # the value itself is kept, only written escaped


def test_errors_naming_hostile_text_are_inert(tmp_path, capsys):
    assert cli(["stats", "--store", str(tmp_path / "x\x1b[2Jy")]) == 2
    err = capsys.readouterr().err
    assert not _raw(err) and "x\\u001b[2Jy" in err


def test_exports_show_controls_inert():
    turns = [ChatTurn(user="who is " + HOSTILE, reply=HOSTILE)]
    md = to_markdown("s1", turns, {})
    assert not _raw(md) and "\\u202e" in md
    doc = to_json("s1", turns, {})
    assert not _raw(doc) and json.loads(doc)["turns"][0]["response"] == HOSTILE


@given(st.text())
def test_json_text_is_json_of_the_same_value_without_raw_controls(text):
    out = json_text({"v": text})
    assert json.loads(out) == {"v": text} and not _raw(out)


@given(st.text())
def test_inert_leaves_nothing_a_terminal_acts_on_and_is_stable(text):
    once = inert(text)
    assert not _raw(once) and inert(once) == once


def test_the_app_shows_controls_inert():
    from tui.widgets.chat import Notice, UserMessage
    from tui.widgets.graph import short

    for widget in (UserMessage(HOSTILE), Notice(HOSTILE)):
        assert not _raw(str(widget.content)) and "\\u202e" in str(widget.content)
    assert not _raw(short(HOSTILE, 80))


def test_an_argument_that_is_not_utf8_is_named(capsys):
    assert cli(["check", "--response", "Omar \udcff", "--memory"]) == 2
    assert capsys.readouterr().err == "kgchat: error: --response: not valid UTF-8 text (byte 0xff at character 6)\n"
    assert cli(["ask", "who is \udce9?"]) == 2
    assert "argument 2: not valid UTF-8 text (byte 0xe9" in capsys.readouterr().err
