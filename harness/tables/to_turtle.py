"""The hand-written tables as Turtle, written the way a person modelling the same data in RDF
would: one IRI per row and per thing a column refers to, each with its rdfs:label; the columns
that name things (listed below, per domain: the columns kgchat's table reading links, so that
both hold the same facts) as IRIs, the others as typed literals. Kept apart from kgchat's table
loader, so the two readings of the data can be compared.

    python -m harness.tables.to_turtle OUT_DIR    # OUT_DIR/<domain>/kg.ttl and questions.jsonl
"""

from __future__ import annotations

import csv
import re
import shutil
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
EX = "http://example.org/tables/"
# domain -> (the tables as (file, class or None), the columns that link to things)
DOMAINS: dict[str, tuple[list[tuple[str, str | None]], set[str]]] = {
    "hospital": ([("kg.csv", None)], {"ward", "supervisor", "role", "shift", "languages"}),
    "library": ([("kg.tsv", None)], {"author", "genre", "shelf", "lent_to", "nationality"}),
    "hiking": ([("sheets/Trails.csv", "Trail"), ("sheets/Huts.csv", "Hut")],
               {"region", "difficulty", "start_hut", "leader", "valley", "warden"}),
    "choirs": ([("kg.csv", None)], {"conductor", "hometown", "category", "venue", "day", "sister_choir", "languages"}),
}


def iri(text: str) -> str:
    return f"<{EX}{re.sub(r'[^A-Za-z0-9]+', '_', text).strip('_')}>"


def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def literal(text: str) -> str:
    if re.fullmatch(r"-?\d+", text):
        return f"{quoted(text)}^^<http://www.w3.org/2001/XMLSchema#integer>"
    if re.fullmatch(r"-?\d+\.\d+", text):
        return f"{quoted(text)}^^<http://www.w3.org/2001/XMLSchema#decimal>"
    if text in ("yes", "no"):
        return f"{quoted('true' if text == 'yes' else 'false')}^^<http://www.w3.org/2001/XMLSchema#boolean>"
    try:
        date.fromisoformat(text)
        return f"{quoted(text)}^^<http://www.w3.org/2001/XMLSchema#date>"
    except ValueError:
        return quoted(text)


def turtle(domain: str) -> str:
    tables, links = DOMAINS[domain]
    lines: list[str] = []
    labels: dict[str, str] = {}
    for name, cls in tables:
        path = HERE / domain / name
        with path.open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f, delimiter="\t" if name.endswith(".tsv") else ","))
        for row in rows:
            key = next(iter(row))  # the first column names the row, as kgchat's table reading takes it
            subject = row[key]
            labels[iri(subject)] = subject
            for column, cell in row.items():
                if column == key or not cell:
                    continue
                for value in (v.strip() for v in cell.split(";")):
                    if column == "type":
                        labels[iri(value)] = value
                        lines.append(f"{iri(subject)} a {iri(value)} .")
                    elif column in links:
                        labels[iri(value)] = value
                        lines.append(f"{iri(subject)} <{EX}{column}> {iri(value)} .")
                    else:
                        lines.append(f"{iri(subject)} <{EX}{column}> {literal(value)} .")
            if cls:
                labels[iri(cls)] = cls
                lines.append(f"{iri(subject)} a {iri(cls)} .")
    lines += [f"{node} <http://www.w3.org/2000/01/rdf-schema#label> {quoted(text)} ." for node, text in labels.items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    out = Path(argv[0])
    for domain in DOMAINS:
        (out / domain).mkdir(parents=True, exist_ok=True)
        (out / domain / "kg.ttl").write_text(turtle(domain), encoding="utf-8")
        for questions in (HERE / domain).glob("questions*.jsonl"):
            shutil.copy(questions, out / domain / questions.name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
