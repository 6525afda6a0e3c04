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
file, or a good share of its values occur in more than one row (a team, a city), or every value
is written as a name is ("Harbor Owls"). One entity per distinct text across the file, case aside, with the text as its
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

from pyoxigraph import Literal, NamedNode

from kgstore.errors import LoadError
from kgstore.gcpause import gc_paused
from kgstore.loaders import Parsed, load_error
from kgstore.loaders.csv_triples import ALIAS_RELATIONS, HEADER, TAIL_TYPES, TYPE_RELATIONS, is_relation, literal_for
from kgstore.terms import LabelEntry, TableShape
from kgstore.vocab import ALIAS_PREDICATES, RDF_TYPE, RDFS_LABEL, XSD, kg_iri_maker, split_words

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
    from openpyxl import load_workbook

    sheets = []
    try:
        book = load_workbook(path, read_only=True, data_only=True)
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
    except Exception as exc:  # noqa: BLE001 - a damaged zip or XML part fails in many ways inside openpyxl
        raise load_error(path, f"not a readable .xlsx workbook ({type(exc).__name__}: {exc})") from None
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
    unnamed = [i for i, header in enumerate(sheet.header) if not header]
    for line, cells in sheet.rows:
        if len(cells) > width and any(cells[width:]):
            raise sheet.error(path, f"{len(cells)} cells, the header has {width} columns", line)
        for i in unnamed:
            if i < len(cells) and cells[i]:
                raise sheet.error(path, f"a value in column {i + 1}, which has no name in the header", line)
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
    if not split or (";" not in cell and "|" not in cell):
        return [cell]
    return [p for p in MULTI.split(cell) if p]


# A column is read as names when at least this share of its values are found in more than one
# row of the file (a team, a city, a role said again and again); text said once per row, with a
# chance repeat here and there, is not.
REPEATED = 0.25


@dataclass
class _Rows:
    """A sheet's rows column by column: the line and key text of each row; per column its
    cells, the values of the cells that hold several (row -> values), and how often each value
    is said in it."""

    layout: Layout
    lines: list[int]
    keys: list[str]
    cells: list[tuple[str, ...]]
    multi: list[dict[int, list[str]]]
    counts: list[Counter[str]]


def _split(lay: Layout) -> _Rows:
    """The sheet's rows by column; a column holding a text of more than NAME_WORDS words is
    free text (lay.text_columns): its cells are not split."""
    rows = lay.sheet.rows
    width = len(lay.sheet.header)
    lines = [line for line, _ in rows]
    if not rows:
        return _Rows(lay, [], [], [() for _ in lay.columns], [{} for _ in lay.columns], [Counter() for _ in lay.columns])
    columns = list(zip(*(c if len(c) >= width else c + [""] * (width - len(c)) for _, c in rows), strict=False))
    cells, multis, counts = [], [], []
    for col in lay.columns:
        column = columns[col.index]
        # a text of more than NAME_WORDS words is longer than 2 * NAME_WORDS characters
        if any(len(v.split()) > NAME_WORDS for v in column if len(v) > 2 * NAME_WORDS):
            lay.text_columns.add(col.index)
        # most cells hold one value: only those with a separator are split (never free text)
        joined = "\n".join(column)
        multi = {} if col.index in lay.text_columns or ("|" not in joined and ";" not in joined) else \
            {r: _parts(v, True) for r, v in enumerate(column) if ";" in v or "|" in v}
        count = Counter(filter(None, column))
        for r, parts in multi.items():
            count[column[r]] -= 1
            count.update(parts)
        cells.append(column)
        multis.append(multi)
        counts.append(+count if multi else count)
    return _Rows(lay, lines, list(columns[lay.key]), cells, multis, counts)



class _Memo(dict[str, str]):
    """A value's text said once however often its cells repeat it (`make` runs on a first sight)."""

    def __init__(self, make: Callable[[str], str]):
        super().__init__()
        self.make = make

    def __missing__(self, key: str) -> str:
        value = self[key] = self.make(key)
        return value


def parse_sheets(path: str, sheets: list[Sheet], graph: str, name: str, key: str | None,
                 file_class: str | None) -> Parsed:
    """The triples of the tables of one file (a workbook's sheets link to each other's rows), as
    N-Triples text for `graph`: pyoxigraph reads that text faster than Python builds its quads
    (a quad with a literal costs microseconds to make, and a table of 10^5 rows has 10^6 facts).
    Terms are written in N-Triples as pyoxigraph writes them (`str` of a term), once each, and a
    column's lines are written together; a minted IRI holds no character N-Triples escapes.
    The names it gives entities and the predicates it uses go with the text (`Parsed.names`,
    `Parsed.predicates`), so that the store need not read them back to index the names."""
    label, rdf_type, alias = (str(NamedNode(iri)) for iri in (RDFS_LABEL, RDF_TYPE, ALIAS_PREDICATES[0]))
    facts: list[str] = []
    names: list[str] = []  # the label lines
    entries: list[LabelEntry] = []
    used: set[str] = {label}  # predicates, N-Triples form
    warnings: list[str] = []
    entities: dict[str, str] = {}
    relations: dict[str, str] = {}
    typed: dict[str, Literal | None] = {}
    entity_iri, relation_iri = kg_iri_maker(name, "entity"), kg_iri_maker(name, "relation")

    def entity(text: str) -> str:
        folded = text.casefold()
        node = entities.get(folded)
        if node is None:
            iri = entity_iri(text)
            node = entities[folded] = f"<{iri}>"
            names.append(f"{node} {label} {Literal(text)} .\n")
            entries.append(LabelEntry(text, iri))
        return node

    def relation(text: str) -> str:
        node = relations.get(text)
        if node is None:
            node = relations[text] = f"<{relation_iri(text)}>"
            names.append(f"{node} {label} {Literal(text)} .\n")
        used.add(node)
        return node

    def literal(text: str) -> Literal | None:
        try:
            return typed[text]
        except KeyError:
            value = typed[text] = literal_for(text)
            return value

    if key is not None and not any(key.casefold() in (h.casefold() for h in s.header) for s in sheets):
        columns = ", ".join(dict.fromkeys(h for s in sheets for h in s.header if h))
        raise LoadError(f"{path}: --key {key}: no column of that name (columns: {columns})")
    tables: list[_Rows] = []
    for sheet in sheets:
        k = _key_column(sheet, key)
        if k is None:
            warnings.append(f"{path}: sheet {sheet.name}: no column '{key}', the sheet is skipped")
            continue
        tables.append(_split(layout(path, sheet, k)))
    if not any(t.keys for t in tables):
        raise LoadError(f"{path}: a header row and no rows: no table to read")

    # What every text names: the rows of the file (by their key), and how often it is said
    # across every column and sheet (a text said twice is, but for a chance, said in two rows).
    row_keys = {k.casefold() for t in tables for k in t.keys if k}
    said: Counter[str] = Counter()
    for t in tables:
        for count in t.counts:
            for value, n in count.items():
                said[value.casefold()] += n

    shapes: list[TableShape] = []
    for t in tables:
        lay, sheet = t.layout, t.layout.sheet
        key_header = sheet.header[lay.key]
        modes = [_mode(lay, col, t.counts[c], row_keys, said, literal) for c, col in enumerate(lay.columns)]
        own_class = row_class(sheet.name) if sheet.name else None
        if own_class is None and len(tables) == 1:
            own_class = file_class
        class_node = entity(own_class) if own_class else None
        where = "line" if sheet.name is None else f"sheet {sheet.name}, row"
        first_line: dict[str, int] = {}
        subjects: list[str | None] = []
        for line, keytext in zip(t.lines, t.keys, strict=True):
            if not keytext:
                warnings.append(f"{path}: {where} {line}: no {key_header} (the key column), the row is skipped")
                subjects.append(None)
                continue
            folded = keytext.casefold()
            if folded in first_line:
                warnings.append(f"{path}: {where} {line}: {key_header} '{keytext}' again (first on "
                                f"{where.rsplit(' ', 1)[-1]} {first_line[folded]}): one entity holds the facts of both rows")
            else:
                first_line[folded] = line
            subjects.append(entity(keytext))
        linked: set[str] = set()
        typed_rows: set[int] = set()
        for c, col in enumerate(lay.columns):
            column, multi = t.cells[c], t.multi[c]
            if col.role == "alias":
                used.add(alias)
                spoken = _Memo(lambda v: f"{alias} {Literal(v)}")
            else:
                spoken = _Memo(_saying(col, modes[c], literal, entity, relation, linked, rdf_type))
            if not multi and col.role == "value":  # most columns: one value a cell, one line each
                facts.extend([f"{s} {spoken[v]} .\n" for s, v in zip(subjects, column, strict=True) if v and s])
                continue
            # (row, subject, value) of every value said in the column, a cell of several values once each
            cells = [(r, s, v) for r, (s, cell) in enumerate(zip(subjects, column, strict=True)) if cell and s
                     for v in (multi[r] if r in multi else (cell,))]
            facts.extend([f"{s} {spoken[v]} .\n" for _, s, v in cells])
            if col.role == "alias":
                entries.extend(LabelEntry(v, s[1:-1], True) for _, s, v in cells)
            elif col.role == "type":
                # a type column's names are classes (rdf:type); a number in it is a value of its relation
                typed_rows.update(r for r, _, v in cells if spoken[v].startswith(rdf_type))
        if class_node is not None:
            facts.extend([f"{s} {rdf_type} {class_node} .\n" for r, s in enumerate(subjects)
                          if s is not None and r not in typed_rows])
        if class_node is not None or typed_rows:
            used.add(rdf_type)
        shapes.append(TableShape(rows=sum(s is not None for s in subjects), relations=len(lay.columns),
                                 key=key_header, linked=len(linked), sheet=sheet.name if len(sheets) > 1 else None,
                                 row_class=own_class))
    if len(warnings) > MAX_WARNINGS:
        warnings[MAX_WARNINGS:] = [f"{path}: {len(warnings) - MAX_WARNINGS} more warnings like these"]
    return Parsed(warnings=warnings, tables=shapes, ntriples="".join(names + facts).encode(), names=entries,
                  predicates=sorted(node[1:-1] for node in used))


def _saying(col: Column, mode: str, literal: Callable[[str], Literal | None], entity: Callable[[str], str],
            relation: Callable[[str], str], linked: set[str], rdf_type: str) -> Callable[[str], str]:
    """What a row says with one value of the column: predicate and object, N-Triples form."""

    def saying(part: str) -> str:
        if col.role == "type" and literal(part) is None:
            return f"{rdf_type} {entity(part)}"
        term, is_entity = _value(part, col, mode, literal, entity)
        if is_entity:
            linked.add(term)
        return f"{relation(col.label)} {term}"

    return saying


def _mode(lay: Layout, col: Column, counts: Counter[str], row_keys: set[str], said: Counter[str],
          literal: Callable[[str], Literal | None]) -> str:
    """How a column's values (each with how often the column says it) read: boolean, link (every
    value names a row, numbers too), entity (the column holds names) or text."""
    if not counts:
        return "text"
    folded = {v: v.casefold() for v in counts}
    if all(f in BOOLEANS for f in folded.values()):
        return "boolean"
    if all(f in row_keys for f in folded.values()):
        return "link"
    texts = {v: n for v, n in counts.items() if literal(v) is None}
    if not texts or col.index in lay.text_columns:
        return "text"
    repeated = sum(n for v, n in texts.items() if said[folded[v]] > 1)
    if (any(folded[v] in row_keys for v in texts) or repeated >= REPEATED * sum(texts.values())
            or all(_title_like(v) for v in texts)):
        return "entity"
    return "text"


def _value(part: str, col: Column, mode: str, literal: Callable[[str], Literal | None],
           entity: Callable[[str], str]) -> tuple[str, bool]:
    """The N-Triples term of one value of a column, and whether it is an entity."""
    if mode == "boolean":
        return str(Literal(BOOLEANS[part.casefold()], datatype=NamedNode(XSD + "boolean"))), False
    if mode == "link":
        return entity(part), True
    value = literal(part)
    if value is not None:
        if col.unit and value.datatype.value in (XSD + "integer", XSD + "decimal"):
            return str(Literal(f"{part} {col.unit}")), False
        return str(value), False
    return (entity(part), True) if mode == "entity" else (str(Literal(part)), False)


# --- entry points --------------------------------------------------------------------------------

# Both read with the garbage collector paused (kgstore.gcpause): a table's rows are lists and
# tuples by the 10^5, none of them in a cycle.

def parse_delimited(path: str, text: str, graph: str, name: str, delimiter: str, key: str | None) -> Parsed:
    with gc_paused():
        return parse_sheets(path, [read_delimited(path, text, delimiter)], graph, name, key, row_class(name))


def parse_workbook(path: str, graph: str, name: str, key: str | None) -> Parsed:
    with gc_paused():
        sheets = read_workbook(path)
        if not sheets:
            raise LoadError(f"{path}: every sheet is empty: no table to read")
        return parse_sheets(path, sheets, graph, name, key, row_class(name))
