"""Tables with a header row (CSV, TSV, the sheets of an .xlsx workbook): one row per thing, one
column per property, the file a person keeps about their own things.

The key column names the rows: the one given with `--key`, else the first column named `name`,
`label`, `title` or `id` (one whose values are all different first), else the first column. Every
other column is a relation named by its header, read as words ("place_of_birth" -> "place of
birth"); a unit at the end of the header ("height_cm", "length (km)") goes with the numbers of the
column ("height": "181 cm"), as the triple loader reads a number with its unit. A column named as
the triple loader's `instance of` rows are (`type`) gives the rows' class, one named as its alias
rows are (`nickname`) their other names. Without a type column, the file name (a sheet's name in a
workbook) gives the class when it is a plural noun: "players.csv" holds things of class Player.

Each cell is a value, several values in one cell split on `;` or `|`: numbers, dates, times and
the other literals the triple loader knows are typed literals, a column of yes/no or true/false
booleans; text is an entity when its column holds names: some value of it names a row of the
file, or occurs in more than one row (a team, a city), or every value is written as a name is
("Harbor Owls"). One entity per distinct text across the file, case aside, with the text as its
label. Other text is a plain literal. Empty cells are no facts.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time

from pyoxigraph import Literal, NamedNode, Quad

from kgstore.errors import LoadError
from kgstore.loaders import Parsed, load_error
from kgstore.loaders.csv_triples import ALIAS_RELATIONS, HEADER, TAIL_TYPES, TYPE_RELATIONS, is_relation, literal_for
from kgstore.terms import TableShape
from kgstore.vocab import ALIAS_PREDICATES, RDF_TYPE, RDFS_LABEL, XSD, kg_iri, split_words

# Headers that name the key column, in order of preference: a readable name before a code.
KEY_NAMES = ("name", "label", "title", "id")
MULTI = re.compile(r"\s*[;|]\s*")
BOOLEANS = {"true": "true", "false": "false", "yes": "true", "no": "false"}
# A value of more words than this is text, not the name of something; its cell is not split.
NAME_WORDS = 8
# Warnings kept per file (rows without a key, keys said twice); the rest are counted.
MAX_WARNINGS = 20
# Rows read to tell a table from a headerless triple file.
SNIFF_ROWS = 200


@dataclass
class Sheet:
    """One table as read: its header and its rows, each with the line (or sheet row) it was on."""

    header: list[str]
    rows: list[tuple[int, list[str]]]
    header_line: int = 1
    name: str | None = None  # the sheet's name in a workbook

    def error(self, path: str, reason: str, line: int | None = None) -> LoadError:
        if self.name is None:
            return load_error(path, reason, line)
        where = f"sheet {self.name}" + (f", row {line}" if line else "")
        return load_error(path, f"{where}: {reason}")


@dataclass
class Column:
    index: int
    header: str
    label: str  # the relation's label
    unit: str | None = None
    role: str = "value"  # value, type (the rows' class) or alias (another name of the row)


@dataclass
class Layout:
    sheet: Sheet
    key: int
    columns: list[Column] = field(default_factory=list)
    text_columns: set[int] = field(default_factory=set)  # columns of free text: cells not split, no entities


# --- telling a table from a triple file -----------------------------------------------------------

def delimiter_of(text: str, delimiter: str) -> str:
    """The delimiter of a table: the format's, or what csv.Sniffer finds in a first line without
    it (a spreadsheet's CSV export in many locales separates by ';')."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    if delimiter in first:
        return delimiter
    try:
        return csv.Sniffer().sniff(first, delimiters=";\t,").delimiter
    except csv.Error:
        return delimiter


def _first_rows(text: str, delimiter: str) -> list[list[str]]:
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    rows: list[list[str]] = []
    try:
        for row in reader:
            cells = [c.strip() for c in row]
            if any(cells) and not cells[0].startswith("#"):
                rows.append(cells)
                if len(rows) >= SNIFF_ROWS:
                    break
    except csv.Error:
        pass  # the parser that reads the file says where
    return rows


def is_table(text: str, delimiter: str, key: str | None = None) -> bool:
    """Is this delimited file a table with a header row rather than `head,relation,tail[,tail_type]`
    rows? The triple header says triples; `key` naming a column of the first row, or a first row
    of another width than a triple's, says table. A first row of 3 or 4 cells is a header when a
    triple row could not be one (a fourth cell that is no tail_type) or when it names its key
    column and none of its cells recurs below it in its column, as a relation of a triple file
    does and a column's name does not."""
    rows = _first_rows(text, delimiter_of(text, delimiter))
    if not rows:
        return False
    first = [c.casefold() for c in rows[0]]
    if tuple(first[:3]) == HEADER:
        return False
    if key is not None and key.casefold() in first:
        return True
    if len(first) not in (3, 4):
        return len(first) >= 2
    if len(first) == 4 and first[3] and first[3] not in TAIL_TYPES:
        return True
    if not any(c in KEY_NAMES for c in first) or len(set(first)) < len(first):
        return False
    return not any(i < len(row) and row[i].casefold() == c for row in rows[1:] for i, c in enumerate(first))


# --- reading -----------------------------------------------------------------------------------

def read_delimited(path: str, text: str, delimiter: str) -> Sheet:
    reader = csv.reader(io.StringIO(text), delimiter=delimiter_of(text, delimiter))
    header: list[str] | None = None
    header_line = 1
    rows: list[tuple[int, list[str]]] = []
    try:
        for row in reader:
            cells = [c.strip() for c in row]
            if not any(cells):
                continue
            if header is None:
                header, header_line = cells, reader.line_num
            else:
                rows.append((reader.line_num, cells))
    except csv.Error as exc:
        raise load_error(path, f"bad CSV: {exc}", reader.line_num) from None
    return Sheet(header or [], rows, header_line)


def cell_text(value: object) -> str:
    """A spreadsheet cell as the text a CSV export would hold: dates in ISO form, a whole
    number without its ".0", booleans as true/false."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time() else value.isoformat()
    if isinstance(value, (date, time)):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def read_workbook(path: str) -> list[Sheet]:
    """Every sheet of an .xlsx workbook that has a header row, as a table (formulas as their
    last computed values)."""
    import zipfile

    from openpyxl import load_workbook

    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        raise load_error(path, f"not an .xlsx workbook ({exc})") from None
    sheets = []
    try:
        for ws in book.worksheets:
            header: list[str] | None = None
            header_line = 1
            rows: list[tuple[int, list[str]]] = []
            for n, values in enumerate(ws.iter_rows(values_only=True), 1):
                cells = [cell_text(v) for v in values]
                if not any(cells):
                    continue
                if header is None:
                    header, header_line = cells, n
                else:
                    rows.append((n, cells))
            if header is not None:
                sheets.append(Sheet(header, rows, header_line, ws.title))
    finally:
        book.close()
    return sheets


# --- layout ------------------------------------------------------------------------------------

def _is_unit(word: str) -> bool:
    """A unit the triple loader reads after a number ("1 cm", "1 km/h"), so "181" under
    "height_cm" reads as "181 cm"."""
    value = literal_for(f"1 {word}")
    return value is not None and value.datatype.value == XSD + "string"


def relation_label(header: str) -> tuple[str, str | None]:
    """The relation a header names and the unit its numbers are in: "height_cm" -> ("height",
    "cm"), "Length (km)" -> ("length", "km"), "Date of Birth" -> ("date of birth", None)."""
    unit = None
    bracket = re.fullmatch(r"(.+?)\s*[(\[]\s*([^)\]]+?)\s*[)\]]", header)
    if bracket and _is_unit(bracket.group(2)):
        header, unit = bracket.group(1), bracket.group(2)
    words = (split_words(header) if " " not in header else header).split()
    if unit is None and len(words) >= 2 and _is_unit(words[-1]):
        unit = words.pop()
        if len(words) >= 2 and words[-1].casefold() == "in":
            words.pop()
    # Title Case headers ("Date of Birth") name relations, which read in lower case; acronyms stay.
    words = [w.lower() if w[:1].isupper() and w[1:].islower() else w for w in words]
    return " ".join(words), unit


def _key_column(sheet: Sheet, key: str | None) -> int | None:
    names = [h.casefold() for h in sheet.header]
    if key is not None:
        return names.index(key.casefold()) if key.casefold() in names else None
    for wanted in KEY_NAMES:
        found = [i for i, h in enumerate(names) if h == wanted]
        distinct = [i for i in found if _distinct(sheet, i)]
        if found:
            return (distinct or found)[0]
    return 0


def _distinct(sheet: Sheet, i: int) -> bool:
    values = [cells[i] for _, cells in sheet.rows if i < len(cells) and cells[i]]
    return len(set(values)) == len(values)


def layout(path: str, sheet: Sheet, key: int) -> Layout:
    """The sheet's columns; a header naming two columns alike, a column of values without a name
    and a row wider than the header are errors."""
    width = len(sheet.header)
    seen: dict[str, int] = {}
    out = Layout(sheet, key)
    for i, header in enumerate(sheet.header):
        if not header:
            continue
        if header.casefold() in seen:
            raise sheet.error(path, f"columns {seen[header.casefold()] + 1} and {i + 1} are both named '{header}'",
                              sheet.header_line)
        seen[header.casefold()] = i
        if i == key:
            continue
        label, unit = relation_label(header)
        role = "type" if is_relation(header, TYPE_RELATIONS) else "alias" if is_relation(header, ALIAS_RELATIONS) else "value"
        out.columns.append(Column(i, header, label, unit, role))
    for line, cells in sheet.rows:
        if len(cells) > width and any(cells[width:]):
            raise sheet.error(path, f"{len(cells)} cells, the header has {width} columns", line)
        for i in range(min(len(cells), width)):
            if cells[i] and not sheet.header[i]:
                raise sheet.error(path, f"a value in column {i + 1}, which has no name in the header", line)
    for column in out.columns:
        if any(len(c[column.index].split()) > NAME_WORDS for _, c in sheet.rows if column.index < len(c)):
            out.text_columns.add(column.index)
    return out


def row_class(stem: str) -> str | None:
    """The class a file or sheet name gives its rows: its last word made singular when it is a
    plural noun ("players" -> "Player", "hiking_trails" -> "Hiking Trail"); None otherwise
    ("data", "Sheet1", "staff")."""
    words = [w for w in split_words(stem).split() if w.isalpha()]
    if not words:
        return None
    last, lower = words[-1], words[-1].lower()
    if lower.endswith("ies") and len(lower) > 4:
        singular = last[:-3] + "y"
    elif lower.endswith(("ches", "shes", "sses", "xes", "zes")):
        singular = last[:-2]
    elif lower.endswith("s") and not lower.endswith(("ss", "us", "is")) and len(lower) > 3:
        singular = last[:-1]
    else:
        return None
    return " ".join(w[:1].upper() + w[1:] for w in [*words[:-1], singular])


# --- values ------------------------------------------------------------------------------------

def _title_like(text: str) -> bool:
    """Written as a name is: its first word and every longer word capitalized ("Harbor Owls",
    "Isle of Skye"), not as a phrase ("needs new boots")."""
    words = re.findall(r"[^\W\d_]+", text)
    return bool(words) and words[0][:1].isupper() and all(w[:1].isupper() for w in words if len(w) > 3)


def _parts(cell: str, split: bool) -> list[str]:
    if not cell:
        return []
    return [p for p in MULTI.split(cell) if p] if split else [cell]


def parse_sheets(path: str, sheets: list[Sheet], graph: str, name: str, key: str | None,
                 file_class: str | None) -> Parsed:
    """The quads of the tables of one file (a workbook's sheets link to each other's rows)."""
    g = NamedNode(graph)
    label = NamedNode(RDFS_LABEL)
    quads: list[Quad] = []
    warnings: list[str] = []
    entities: dict[str, NamedNode] = {}
    relations: dict[str, NamedNode] = {}
    typed: dict[str, Literal | None] = {}

    def entity(text: str) -> NamedNode:
        node = entities.get(text.casefold())
        if node is None:
            node = entities[text.casefold()] = NamedNode(kg_iri(name, "entity", text))
            quads.append(Quad(node, label, Literal(text), g))
        return node

    def relation(text: str) -> NamedNode:
        node = relations.get(text)
        if node is None:
            node = relations[text] = NamedNode(kg_iri(name, "relation", text))
            quads.append(Quad(node, label, Literal(text), g))
        return node

    def literal(text: str) -> Literal | None:
        if text not in typed:
            typed[text] = literal_for(text)
        return typed[text]

    if key is not None and not any(key.casefold() in (h.casefold() for h in s.header) for s in sheets):
        columns = ", ".join(dict.fromkeys(h for s in sheets for h in s.header if h))
        raise LoadError(f"{path}: --key {key}: no column of that name (columns: {columns})")
    layouts = []
    for sheet in sheets:
        k = _key_column(sheet, key)
        if k is None:
            warnings.append(f"{path}: sheet {sheet.name}: no column '{key}', the sheet is skipped")
            continue
        layouts.append(layout(path, sheet, k))
    shapes: list[TableShape] = []
    if not any(lay.sheet.rows for lay in layouts):
        raise LoadError(f"{path}: a header row and no rows: no table to read")

    # What every text names: the rows of the file (by their key), and the texts found in more
    # than one row, across every column and sheet.
    row_keys = {c[lay.key].casefold() for lay in layouts for _, c in lay.sheet.rows if lay.key < len(c) and c[lay.key]}
    rows_with: Counter[str] = Counter()
    for lay in layouts:
        for _, cells in lay.sheet.rows:
            rows_with.update({p.casefold() for col in lay.columns if col.index < len(cells)
                              for p in _parts(cells[col.index], col.index not in lay.text_columns)
                              if literal(p) is None})

    def column_values(lay: Layout, col: Column) -> list[str]:
        split = col.index not in lay.text_columns
        return [p for _, c in lay.sheet.rows if col.index < len(c) for p in _parts(c[col.index], split)]

    for lay in layouts:
        sheet = lay.sheet
        key_header = sheet.header[lay.key]
        modes: dict[int, str] = {}  # column -> boolean, link (every value names a row), entity or text
        for col in lay.columns:
            values = column_values(lay, col)
            folded = [v.casefold() for v in values]
            texts = [v for v in values if literal(v) is None]
            if values and all(v in BOOLEANS for v in folded):
                modes[col.index] = "boolean"
            elif values and all(v in row_keys for v in folded):
                modes[col.index] = "link"
            elif texts and col.index not in lay.text_columns and (
                    any(t.casefold() in row_keys or rows_with[t.casefold()] > 1 for t in texts)
                    or all(_title_like(t) for t in texts)):
                modes[col.index] = "entity"
            else:
                modes[col.index] = "text"
        own_class = row_class(sheet.name) if sheet.name else None
        if own_class is None and len(layouts) == 1:
            own_class = file_class
        has_type = any(col.role == "type" for col in lay.columns)
        linked: set[NamedNode] = set()
        first_line: dict[str, int] = {}
        rows = 0
        for line, cells in sheet.rows:
            keytext = cells[lay.key] if lay.key < len(cells) else ""
            if not keytext:
                warnings.append(f"{path}: {'line' if sheet.name is None else f'sheet {sheet.name}, row'} {line}: "
                                f"no {key_header} (the key column), the row is skipped")
                continue
            rows += 1
            if keytext.casefold() in first_line:
                warnings.append(f"{path}: {'line' if sheet.name is None else f'sheet {sheet.name}, row'} {line}: "
                                f"{key_header} '{keytext}' again (first on {'line' if sheet.name is None else 'row'} {first_line[keytext.casefold()]}): "
                                "one entity holds the facts of both rows")
            else:
                first_line[keytext.casefold()] = line
            subject = entity(keytext)
            typed_here = False
            for col in lay.columns:
                if col.index >= len(cells):
                    continue
                for part in _parts(cells[col.index], col.index not in lay.text_columns):
                    if col.role == "alias":
                        quads.append(Quad(subject, NamedNode(ALIAS_PREDICATES[0]), Literal(part), g))
                        continue
                    if col.role == "type" and literal(part) is None:
                        quads.append(Quad(subject, NamedNode(RDF_TYPE), entity(part), g))
                        typed_here = True
                        continue
                    obj = _value(part, col, modes[col.index], literal, entity)
                    if isinstance(obj, NamedNode):
                        linked.add(obj)
                    quads.append(Quad(subject, relation(col.label), obj, g))
            if own_class and not (has_type and typed_here):
                quads.append(Quad(subject, NamedNode(RDF_TYPE), entity(own_class), g))
        shapes.append(TableShape(rows=rows, relations=len(lay.columns), key=key_header, linked=len(linked),
                                 sheet=sheet.name if len(sheets) > 1 else None, row_class=own_class))
    if len(warnings) > MAX_WARNINGS:
        warnings[MAX_WARNINGS:] = [f"{path}: {len(warnings) - MAX_WARNINGS} more warnings like these"]
    return Parsed(quads=quads, warnings=warnings, tables=shapes)


def _value(part: str, col: Column, mode: str, literal: Callable[[str], Literal | None],
           entity: Callable[[str], NamedNode]) -> Literal | NamedNode:
    if mode == "boolean":
        return Literal(BOOLEANS[part.casefold()], datatype=NamedNode(XSD + "boolean"))
    if mode == "link":
        return entity(part)
    value = literal(part)
    if value is not None:
        if col.unit and value.datatype.value in (XSD + "integer", XSD + "decimal"):
            return Literal(f"{part} {col.unit}")
        return value
    return entity(part) if mode == "entity" else Literal(part)


# --- entry points --------------------------------------------------------------------------------

def parse_delimited(path: str, text: str, graph: str, name: str, delimiter: str, key: str | None) -> Parsed:
    return parse_sheets(path, [read_delimited(path, text, delimiter)], graph, name, key, row_class(name))


def parse_workbook(path: str, graph: str, name: str, key: str | None) -> Parsed:
    sheets = read_workbook(path)
    if not sheets:
        raise LoadError(f"{path}: every sheet is empty: no table to read")
    return parse_sheets(path, sheets, graph, name, key, row_class(name))
