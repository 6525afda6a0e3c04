"""Values compared as what they are: dates as dates (a year against a full date compares by year),
numbers with their units converted (the units of engine/nlp/units.py), text never as a number."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.nlp.units import unit_of
from engine.relations import quantity

# A date as stores write it: a year, a year and month, or a full date (an xsd:dateTime's time of
# day is dropped: no question here compares within a day).
_DATE = re.compile(r"^\s*(-?\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?\s*$")
_NUMBER = re.compile(r"^\s*[-+]?\d[\d,]*(?:\.\d+)?\s*$")


@dataclass(frozen=True)
class Value:
    kind: str  # "date", "number", "text"
    text: str  # as the KG has it
    key: tuple[float, ...]  # dates: (year, month, day) to its precision; numbers: (value in base unit,)
    measure: str = ""  # a number's kind of unit ("duration", "length"), "" when it has none


def read(text: str, label: str = "") -> Value:
    """A value of the KG, read as a date, a number (in its kind's base unit, the unit said in the
    value or named by the relation's label) or text. A bare four-digit number is a number here:
    compare() treats it as a year when the other side is a date."""
    m = _DATE.match(text)
    if m and (m.group(2) or "T" in text):
        return Value("date", text, tuple(float(g) for g in m.groups() if g))
    said = quantity(text)
    if said is not None:
        return Value("number", text, (said.value,), said.kind)
    if _NUMBER.match(text):
        n = float(text.replace(",", ""))
        unit = unit_of(label) if label else None
        return Value("number", text, (n * unit.factor if unit else n,), unit.kind if unit else "")
    return Value("text", text, ())


def _as_year(v: Value) -> Value | None:
    if v.kind == "date":
        return v
    if v.kind == "number" and not v.measure and float(v.key[0]).is_integer() and 0 < v.key[0] < 10_000:
        return Value("date", v.text, (v.key[0],))
    return None


def compare(a: Value, b: Value) -> int | None:
    """-1, 0 or 1 as a is before/less than, the same as, or after/more than b; None when they
    cannot be compared (text, or numbers of different measures). Dates compare to the coarser of
    their precisions: 1882 and 1882-05-01 are the same year, so 0."""
    if a.kind == "date" or b.kind == "date":
        da, db = _as_year(a), _as_year(b)
        if da is None or db is None:
            return None
        n = min(len(da.key), len(db.key))
        ka, kb = da.key[:n], db.key[:n]
    elif a.kind == b.kind == "number" and (a.measure == b.measure or not a.measure or not b.measure):
        ka, kb = a.key, b.key
    else:
        return None
    return (ka > kb) - (ka < kb)


def keys_of(texts: list[str], label: str = "") -> list[tuple[float, ...]]:
    """`read(t, label).key` of many values of one relation: plain numerals (the lexical forms of a
    store's typed numbers) are scaled by the label's unit without reading each one for a unit."""
    factor = read("1", label).key[0]
    return [(float(t.replace(",", "")) * factor,) if _NUMBER.match(t) else read(t, label).key for t in texts]
