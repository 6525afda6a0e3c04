"""The README's commands table, rendered from `cli.COMMANDS`, the list `kgchat --help` prints.

`python -m cli.readme [README.md]` rewrites the table between its two marker comments in place;
tests/integration/test_commands_table.py fails when the README's table and the list differ.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cli import APP_HELP, COMMANDS, guarded
from kgstore.errors import BadInput

BEGIN = "<!-- commands: generated from cli.COMMANDS by `python -m cli.readme`; edit the list, not this table -->"
END = "<!-- end of commands -->"
README = Path(__file__).resolve().parents[1] / "README.md"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def table() -> str:
    """The markdown table: the app first, then every command with its synopsis and what it does."""
    rows = [("[options]", APP_HELP)] + [(c.usage, c.help) for c in COMMANDS.values()]
    lines = ["| command | what it does |", "| --- | --- |"]
    lines += [f"| `{_cell(f'kgchat {usage}'.strip())}` | {_cell(help)} |" for usage, help in rows]
    return "\n".join(lines)


def _bounds(text: str) -> tuple[int, int]:
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise BadInput(f"the README has no commands table between the markers '{BEGIN}' and '{END}'")
    return start + len(BEGIN), end


def section(text: str) -> str:
    """The table between the markers, as the README holds it now."""
    start, end = _bounds(text)
    return text[start:end].strip("\n")


def regenerate(text: str) -> str:
    """`text` with the table between the markers replaced by `table()`."""
    start, end = _bounds(text)
    return f"{text[:start]}\n{table()}\n{text[end:]}"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else README

    def rewrite() -> int:
        path.write_text(regenerate(path.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"{path}: commands table regenerated from cli.COMMANDS")
        return 0

    return guarded(rewrite)


if __name__ == "__main__":
    sys.exit(main())
