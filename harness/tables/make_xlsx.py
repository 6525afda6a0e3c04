"""Write hiking/kg.xlsx from the hand-written sheets in hiking/sheets/*.csv, one sheet each, with
numbers and dates stored as a spreadsheet stores them (not as text).

    python -m harness.tables.make_xlsx
"""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent


def cell(text: str) -> object:
    for read in (int, float, date.fromisoformat):
        try:
            return read(text)
        except ValueError:
            pass
    return text or None


def main() -> None:
    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.active)
    for sheet in sorted((HERE / "hiking" / "sheets").glob("*.csv")):
        ws = book.create_sheet(sheet.stem)
        with sheet.open(encoding="utf-8", newline="") as f:
            for row in csv.reader(f):
                ws.append([cell(c) for c in row])
    book.save(HERE / "hiking" / "kg.xlsx")


if __name__ == "__main__":
    main()
