"""The README's commands table and `kgchat --help` come from one list, cli.COMMANDS."""

from __future__ import annotations

from pathlib import Path

import pytest

import cli
from cli import readme
from kgstore.errors import BadInput

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_table_is_the_one_rendered_from_the_command_list():
    assert readme.section(README.read_text(encoding="utf-8")) == readme.table(), (
        "README.md's commands table differs from cli.COMMANDS: run `python -m cli.readme` to regenerate it")


def test_the_table_has_the_app_and_every_command_with_its_synopsis():
    rows = readme.table().splitlines()[2:]
    assert rows[0].startswith("| `kgchat [options]` |")
    for row, command in zip(rows[1:], cli.COMMANDS.values(), strict=True):
        assert row.startswith(f"| `kgchat {command.usage.replace('|', chr(92) + '|')}` |")


def test_help_lists_every_synopsis(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in cli.COMMANDS.values():
        assert f"kgchat {command.usage}\n      {command.help}" in out
    assert "eval retrieval|factcheck|linking|answers" in out


def test_regenerate_replaces_a_stale_table_and_leaves_the_rest(tmp_path):
    text = f"# title\n\n{readme.BEGIN}\n| command | what it does |\n| `kgchat gone` | old |\n{readme.END}\n\nafter\n"
    new = readme.regenerate(text)
    assert readme.section(new) == readme.table()
    assert new.startswith(f"# title\n\n{readme.BEGIN}\n") and new.endswith(f"\n{readme.END}\n\nafter\n")
    assert readme.regenerate(new) == new
    path = tmp_path / "README.md"
    path.write_text(text, encoding="utf-8")
    assert readme.main([str(path)]) == 0
    assert path.read_text(encoding="utf-8") == new


def test_a_readme_without_the_markers_is_named(tmp_path, capsys):
    with pytest.raises(BadInput, match="no commands table"):
        readme.section("# no table here\n")
    path = tmp_path / "README.md"
    path.write_text("# no table here\n", encoding="utf-8")
    assert readme.main([str(path)]) == 2
    assert "no commands table" in capsys.readouterr().err
