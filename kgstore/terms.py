"""Plain value types the store hands out, so callers never depend on pyoxigraph's classes."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Fact:
    """One triple. `o` is an IRI, or a literal's lexical form when `o_literal` is true."""

    s: str
    p: str
    o: str
    o_literal: bool = False
    datatype: str | None = None
    lang: str | None = None
    graph: str | None = None

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.s, self.p, self.o)


@dataclass
class Neighborhood:
    """Facts within `hops` of the seed entities, with the hop at which each fact was reached."""

    seeds: list[str]
    facts: list[Fact] = field(default_factory=list)
    hop: dict[tuple[str, str, str], int] = field(default_factory=dict)
    capped: bool = False
    cap_reason: str = ""


@dataclass(frozen=True)
class LabelEntry:
    """A name an entity goes by: its label or an alias."""

    text: str
    iri: str
    alias: bool = False


@dataclass(frozen=True)
class TableShape:
    """What a file (or one sheet of a workbook) read as a table was: its rows, its relation
    columns, the column that names the rows, the entities its cells link to by value, and the
    class its rows were given (the file or sheet name, or none)."""

    rows: int
    relations: int
    key: str
    linked: int
    sheet: str | None = None
    row_class: str | None = None

    def describe(self) -> str:
        def n(count: int, one: str, many: str) -> str:
            return f"{count} {one if count == 1 else many}"

        text = (f"table, {n(self.rows, 'row', 'rows')} × {n(self.relations, 'relation', 'relations')}, "
                f"key column {self.key}, {n(self.linked, 'entity', 'entities')} linked by value")
        if self.row_class:
            text += f", rows typed {self.row_class}"
        return f"sheet {self.sheet}: {text}" if self.sheet else text


@dataclass
class LoadReport:
    """What one `KGStore.load` added: new quads per named graph, and warnings (skipped keys)."""

    path: str
    format: str
    graphs: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    bulk: bool = False
    tables: list[TableShape] = field(default_factory=list)  # what the file read as a table (a workbook: per sheet)

    @property
    def added(self) -> int:
        return sum(self.graphs.values())
