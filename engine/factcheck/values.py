"""Typed values in claims and in the KG, and their comparison.

A claim says "11.30 am", "half past eleven", "April 08", "8 April 2022", "+47 412 35 678",
"1.2 million"; the KG holds "11:30:00", "2022-04-08", "+4741235678", "1234567". Both sides are
parsed into the same kinds (date, time, phone, email, number, year) and compared by meaning,
with the precision the claim gives (a year, a month and day, a rounded number).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import cast

from engine.nlp.units import ROUGH, SCALE, UNITS, YEAR, Unit
from engine.relations import quantities
from kgstore.vocab import XSD

MONTHS = {m: i + 1 for i, m in enumerate(("january", "february", "march", "april", "may", "june", "july",
                                          "august", "september", "october", "november", "december"))}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9
WEEKDAYS = {d: i for i, d in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))}
NUMBER_WORDS = {w: i for i, w in enumerate(("zero one two three four five six seven eight nine ten eleven twelve "
                                            "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty").split())}
NUMBER_WORDS.update({"thirty": 30, "forty": 40, "fifty": 50, "a dozen": 12, "a hundred": 100})
HOUR_WORDS = {w: i for w, i in NUMBER_WORDS.items() if 1 <= i <= 12}
del NUMBER_WORDS["one"]  # "the first one", "one of them": rarely a count
Minutes = frozenset[int]  # the minutes after midnight a time may mean


@dataclass
class Value:
    """A typed value found in a claim. `value` is: date → (year|None, month|None, day|None,
    weekday|None); time → frozenset of minutes after midnight it may mean; phone → digits;
    email → lower-case address; number → (float, tolerance); year → int."""

    kind: str
    value: object
    start: int
    end: int
    text: str
    slot: str = ""  # time: "start" | "end" | "" (either), from the words before it
    unit: Unit | None = None  # number: the unit said after it ("45 minutes", "415 km²"), the number in it


# A value's type follows its kind (Value.value by Value.kind, a KG literal's by literal_kind),
# which one dataclass field cannot say; these read a value whose kind was checked as its type.
def number_of(v: Value) -> tuple[float, float]:
    """(number, tolerance) of a claim's number."""
    return cast("tuple[float, float]", v.value)


def date_of(value: object) -> tuple[int | None, ...]:
    """A date's (year, month, day, weekday); a claim's ambiguous d/m date adds its readings."""
    return cast("tuple[int | None, ...]", value)


def minutes_of(value: object) -> Minutes:
    return cast(Minutes, value)


def number_value(value: object) -> float:
    """A KG number literal's value."""
    return cast(float, value)


_MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_WEEKDAY_OR_SHORT = rf"{_WEEKDAY}|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?(?=,)"
_ORD = r"(\d{1,2})(?:st|nd|rd|th)?"
EMAIL = re.compile(r"\b[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+\b")
PHONE = re.compile(r"(?<![\w:.])\+?\(?\d[\d\s\-().]{5,}\d(?![\w:])")
DATE_PATTERNS = (
    (re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})(?:T[\d:.]+Z?)?\b"), "ymd"),
    (re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b"), "dmy_or_mdy"),
    (re.compile(rf"\b(?:({_WEEKDAY_OR_SHORT}),?\s+)?(?:the\s+)?{_ORD}(?:\s+of)?\s+({_MONTH})\.?(?:,?\s+(\d{{4}}))?\b", re.I), "dmy"),
    (re.compile(rf"\b(?:({_WEEKDAY_OR_SHORT}),?\s+)?({_MONTH})\.?\s+(?:the\s+)?{_ORD}\b(?:,?\s+(\d{{4}}))?", re.I), "mdy"),
    (re.compile(rf"\b({_MONTH})\.?\s+(\d{{4}})\b", re.I), "my"),
    (re.compile(rf"\b({_WEEKDAY})s?\b", re.I), "weekday"),
    (re.compile(r"\b(today|tomorrow|yesterday|tonight|this (?:morning|afternoon|evening))\b", re.I), "relative"),
)
TIME_PATTERNS = (
    re.compile(r"\b(\d{1,2})[:.h](\d{2})(?::(\d{2}))?(?:\s*(a\.?m\.?|p\.?m\.?)(?![a-z]))?(?![\d])", re.I),
    re.compile(r"\b(\d{1,2})\s*(a\.?m\.?|p\.?m\.?)(?![a-z])", re.I),
    re.compile(r"\b(\d{1,2})\s*o'?clock\b", re.I),
    re.compile(r"\b(noon|midday|midnight)\b", re.I),
    re.compile(r"\b(half past|quarter past|quarter to)\s+(\d{1,2}|" + "|".join(HOUR_WORDS) + r")\b", re.I),
    re.compile(r"\b(\d{1,2})h\b"),
)
# A bare hour after a time preposition: "at 10", "from 2 to 3", "until 4".
BARE_HOUR = re.compile(r"\b(at|from|until|till|to|by|before|after|around|between)\s+(\d{1,2})(?=\s+(?:and|to|until|on|in|tomorrow|today)\b|[\s,.!?;]*$|[,.!?;])", re.I)
NUMBER = re.compile(r"(?<![\w.+\-])(\d+(?:,\d{3})*(?:\.\d+)?)(?:\s*(thousand|million|billion|bn|k|m)\b)?(?![\w])", re.I)
WORD_NUMBER = re.compile(r"\b(" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")\b", re.I)
END_CUES = re.compile(r"\b(until|till|to|ends?|ending|ended|finish(?:es|ed)?|over|through|wraps? up|wrapping up|"
                      r"conclud(?:es|ed|ing)|closes?|done by|let out)\b", re.I)
START_CUES = re.compile(r"\b(from|starts?|starting|started|begins?|beginning|began|at|opens?)\b", re.I)


def _to_24h(h: int, m: int, ampm: str | None) -> frozenset[int]:
    if ampm:
        pm = ampm.lower().startswith("p")
        h = h % 12 + (12 if pm else 0)
        return frozenset({h * 60 + m})
    if h == 24:
        h = 0
    if 1 <= h <= 12:  # "at 2" in an office means 14:00; keep both readings
        return frozenset({h * 60 + m, ((h % 12) + 12) * 60 + m})
    return frozenset({h * 60 + m})


def _slot(text: str, start: int) -> str:
    if re.search(r"\d\s*(?:[-–—]|to)\s*$", text[max(0, start - 12):start]):
        return "end"  # the second time of "08:00 - 08:30"
    before = " ".join(re.findall(r"[\w']+", text[max(0, start - 30):start])[-3:])
    if END_CUES.search(before):
        # "from 10 to 11": the "to" is nearest; "ends at 11": an end cue anywhere before wins
        return "end"
    if START_CUES.search(before):
        return "start"
    return ""


def free(spans: list[tuple[int, int]], a: int, b: int) -> bool:
    return not any(s < b and a < e for s, e in spans)


def extract(text: str, now: datetime | None = None, taken: list[tuple[int, int]] | None = None) -> list[Value]:
    """Every typed value of `text`, outside the `taken` spans (entity names), left to right.
    Longer, more specific readings win: an e-mail before a phone, a date before a number."""
    spans = list(taken or [])
    out: list[Value] = []

    def add(kind: str, value: object, m_start: int, m_end: int, slot: str = "") -> None:
        spans.append((m_start, m_end))
        out.append(Value(kind, value, m_start, m_end, text[m_start:m_end], slot))

    for m in EMAIL.finditer(text):
        if free(spans, m.start(), m.end()):
            add("email", m.group(0).lower(), m.start(), m.end())
    for rx, form in DATE_PATTERNS:
        for m in rx.finditer(text):
            if not free(spans, m.start(), m.end()):
                continue
            parsed = _parse_date(m, form, now)
            if parsed is not None:
                add("date", parsed, m.start(), m.end())
    for rx in TIME_PATTERNS:
        for m in rx.finditer(text):
            if not free(spans, m.start(), m.end()):
                continue
            minutes = _parse_time(m)
            if minutes:
                add("time", minutes, m.start(), m.end(), _slot(text, m.start()))
    for m in PHONE.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        if len(digits) >= 7 and free(spans, m.start(), m.end()):
            add("phone", digits, m.start(), m.end())
    for m in BARE_HOUR.finditer(text):
        h = int(m.group(2))
        if 0 <= h <= 24 and free(spans, m.start(2), m.end(2)):
            add("time", _to_24h(h, 0, None), m.start(2), m.end(2), _slot(text, m.start(2)))
    for m in YEAR.finditer(text):
        if free(spans, m.start(), m.end()) and re.search(r"(?:\b(?:in|since|of|from|until|year|by|around|circa)|[:(])\s*$",
                                                        text[max(0, m.start() - 8):m.start()], re.I):
            add("year", int(m.group(1)), m.start(), m.end())
    for m in NUMBER.finditer(text):
        if free(spans, m.start(), m.end()):
            raw = m.group(1).replace(",", "")
            scale = SCALE.get((m.group(2) or "").lower(), 1.0)
            num = float(raw) * scale
            decimals = len(raw.split(".")[1]) if "." in raw else 0
            tolerance = 0.5 * 10 ** (-decimals) * scale if scale > 1 or decimals else 0.0
            if ROUGH.search(text[max(0, m.start() - 20):m.start()]) and not decimals and scale == 1:
                # "about 410,000", "about 415": a hedged number holds of any value that rounds to
                # it at its last non-zero digit
                zeros = len(raw) - len(raw.rstrip("0"))
                tolerance = 0.5 * 10 ** zeros
            add("number", (num, tolerance), m.start(), m.end())
    for q in quantities(text):
        # "45 minutes", "about an hour", "415 km²": the number keeps the unit it was said in
        said = next((v for v in out if v.kind == "number" and q.start <= v.start < q.end), None)
        unit = UNITS[q.unit]
        if said is not None:
            said.unit = unit
            if said.end == q.end and SCALE.get(q.unit.lower()):
                # "3.6 m" read as a length is 3.6 metres, not 3.6 million: the letter is its unit
                num, tolerance = number_of(said)
                scale = SCALE[q.unit.lower()]
                said.value = (num / scale, tolerance / scale)
        elif free(spans, q.start, q.end):
            num = q.value / unit.factor  # a number in words: "an hour", "two days"
            add("number", (num, 0.5 * 10 ** (len(str(int(num))) - len(str(int(num)).rstrip("0"))) if num >= 1
                           else 0.5 * num), q.start, q.end)
            out[-1].unit = unit
    for m in WORD_NUMBER.finditer(text):
        if free(spans, m.start(), m.end()):
            add("number", (float(NUMBER_WORDS[m.group(1).lower()]), 0.0), m.start(), m.end())
    out.sort(key=lambda v: v.start)
    return out


def in_unit(v: Value, unit: Unit | None) -> Value:
    """A number said with a unit as a number of `unit` ("about an hour" in minutes: 60 ± 30);
    as said when either unit is unknown or they measure different things."""
    if v.kind != "number" or v.unit is None or unit is None or v.unit.kind != unit.kind:
        return v
    num, tol = number_of(v)
    k = v.unit.factor / unit.factor
    return Value(v.kind, (num * k, tol * k), v.start, v.end, v.text, v.slot, unit)


def _month(name: str) -> int:
    name = name.lower().rstrip(".")
    return MONTHS[name] if name in MONTHS else MONTHS[name[:3]]


def _parse_date(m: re.Match, form: str, now: datetime | None):
    g = m.groups()
    try:
        if form == "ymd":
            return (int(g[0]), int(g[1]), int(g[2]), date(int(g[0]), int(g[1]), int(g[2])).weekday())
        if form == "dmy_or_mdy":
            a, b, y = int(g[0]), int(g[1]), int(g[2])
            if a > 12:
                return (y, b, a, date(y, b, a).weekday())
            if b > 12:
                return (y, a, b, date(y, a, b).weekday())
            return (y, None, None, None, frozenset({(a, b), (b, a)}))  # ambiguous d/m
        if form in ("dmy", "mdy"):
            said = (g[0] or "").lower().rstrip(".")
            wd = next((i for name, i in WEEKDAYS.items() if said and name.startswith(said)), None)
            day, month = (int(g[1]), _month(g[2])) if form == "dmy" else (int(g[2]), _month(g[1]))
            year = int(g[3]) if g[3] else None
            if not 1 <= day <= 31:
                return None
            return (year, month, day, wd)
        if form == "my":
            return (int(g[1]), _month(g[0]), None, None)
        if form == "weekday":
            return (None, None, None, WEEKDAYS[g[0].lower()])
        if form == "relative":
            if now is None:
                return None
            word = g[0].lower()
            d = now.date() + timedelta(days={"tomorrow": 1, "yesterday": -1}.get(word, 0))
            return (d.year, d.month, d.day, d.weekday())
    except (ValueError, KeyError):
        return None
    return None


def _parse_time(m: re.Match) -> frozenset[int] | None:
    g = m.groups()
    text = m.group(0).lower()
    try:
        if text in ("noon", "midday"):
            return frozenset({12 * 60})
        if text == "midnight":
            return frozenset({0})
        if text.startswith(("half past", "quarter")):
            h = int(g[1]) if g[1].isdigit() else HOUR_WORDS[g[1].lower()]
            if g[0].lower() == "half past":
                return _to_24h(h, 30, None)
            if g[0].lower() == "quarter past":
                return _to_24h(h, 15, None)
            return frozenset((x - 15) % 1440 for x in _to_24h(h, 0, None))
        if "o" in text and "clock" in text:
            return _to_24h(int(g[0]), 0, None)
        if len(g) == 4:  # hh:mm(:ss) am/pm
            h, mi = int(g[0]), int(g[1])
            if h > 24 or mi > 59 or ("." in text and not g[3] and not re.match(r"\d{1,2}\.\d{2}$", text)):
                return None
            if g[0].startswith("0") and not g[3]:  # "08:30" is a 24-hour clock
                return frozenset({h * 60 + mi})
            return _to_24h(h, mi, g[3])
        if len(g) == 2 and g[1] and g[1][0].lower() in "ap":  # 2 pm
            h = int(g[0])
            return _to_24h(h, 0, g[1]) if 1 <= h <= 12 else None
        if len(g) == 1 and text.endswith("h"):
            h = int(g[0])
            return frozenset({h * 60}) if h <= 24 else None
    except (ValueError, KeyError):
        return None
    return None


# -- KG literals ------------------------------------------------------------------------------

def literal_kind(lexical: str, datatype: str | None) -> tuple[str, object] | None:
    """The kind and parsed value of a KG literal, or None for plain text."""
    dt = (datatype or "").replace(XSD, "xsd:")
    v = lexical.strip()
    if dt in ("xsd:date", "xsd:dateTime") or re.fullmatch(r"[+-]?\d{4}-\d{2}-\d{2}(T.*)?", v):
        m = re.match(r"[+]?(\d{4})-(\d{2})-(\d{2})", v)
        if m:
            y, mo, d = (int(x) for x in m.groups())
            if mo == 0:
                return ("date", (y, None, None, None))
            if d == 0:
                return ("date", (y, mo, None, None))
            try:
                return ("date", (y, mo, d, date(y, mo, d).weekday()))
            except ValueError:
                return None
    if dt == "xsd:gYear" and re.fullmatch(r"-?\d{1,4}", v):
        return ("date", (int(v), None, None, None))
    if dt == "xsd:time" or re.fullmatch(r"\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?", v):
        m = re.match(r"(\d{1,2}):(\d{2})", v)
        if m:
            return ("time", frozenset({int(m.group(1)) * 60 + int(m.group(2))}))
    if EMAIL.fullmatch(v):
        return ("email", v.lower())
    if re.fullmatch(r"\+?[\d\s\-().]{7,}", v) and len(re.sub(r"\D", "", v)) >= 7 and (
            v.startswith("+") or " " in v or "-" in v or dt not in ("xsd:integer", "xsd:decimal", "xsd:double")):
        return ("phone", re.sub(r"\D", "", v))
    if re.fullmatch(r"[+-]?\d+(\.\d+)?([eE][+-]?\d+)?", v):
        return ("number", float(v))
    measure = _measure(v)
    if measure is not None:
        return ("number", measure[0])  # "3.6 m", "181 cm": in the unit written
    return None


_MEASURE = re.compile(r"([+-]?\d[\d,]*(?:\.\d+)?)\s*([^\d\s].*)")


def _measure(lexical: str) -> tuple[float, Unit] | None:
    """A literal's number and the unit it is written in ("3.6 m"); None for a bare number or text."""
    found = _MEASURE.fullmatch(lexical.strip())
    if found is None:
        return None
    said = found.group(2).strip()
    unit = UNITS.get(said) or UNITS.get(said.lower())
    return (float(found.group(1).replace(",", "")), unit) if unit is not None else None


def literal_unit(lexical: str) -> Unit | None:
    """The unit a KG literal is written in ("3.6 m", "181 cm", "45 minutes"); None for a bare
    number or text."""
    measure = _measure(lexical)
    return measure[1] if measure is not None else None


def same_date(claim: tuple, kg: tuple) -> bool:
    """The claim's date agrees with the KG's, to the precision the claim gives."""
    cy, cm, cd, cw = claim[:4]
    ky, km, kd, kw = kg
    if len(claim) == 5:  # ambiguous 03/04/2026
        return cy == ky and (km, kd) in {(a, b) for a, b in claim[4]} | {(b, a) for a, b in claim[4]}
    if cy is not None and ky is not None and cy != ky:
        return False
    if cm is not None and km is not None and cm != km:
        return False
    if cd is not None and kd is not None and cd != kd:
        return False
    if cw is not None and kw is not None and cw != kw:
        return False
    return True


def _year_number(v: Value) -> bool:
    """A whole number that may be a year where no "in" says so ("year created 1943")."""
    if v.kind != "number":
        return False
    num, tolerance = number_of(v)
    return tolerance == 0 and num.is_integer() and 1000 <= num <= 2100


def matches(v: Value, kind: str, kg_value: object) -> bool:
    """Does claim value `v` say the same as KG value `kg_value` of `kind`?"""
    if v.kind == "year" and kind == "date":
        return date_of(kg_value)[0] == v.value
    if kind == "date" and _year_number(v):
        return date_of(kg_value)[0] == int(number_of(v)[0])
    if v.kind == "year" and kind == "number":
        return float(cast(int, v.value)) == kg_value
    if _bare_digits(v) and kind == "number":
        return float(v.text) == kg_value
    if v.kind != kind:
        return False
    if kind == "date":
        return same_date(date_of(v.value), date_of(kg_value))
    if kind == "time":
        return bool(minutes_of(v.value) & minutes_of(kg_value))
    if kind == "phone":
        a, b = cast(str, v.value), cast(str, kg_value)
        n = min(len(a), len(b), 8)
        return a == b or (n >= 7 and a[-n:] == b[-n:])
    if kind == "email":
        return v.value == kg_value
    if kind == "number":
        num, tol = number_of(v)
        kg_num = number_value(kg_value)
        return abs(num - kg_num) <= max(tol, 1e-9 * abs(kg_num))
    return False


def comparable(v: Value, kind: str) -> bool:
    """Could `v` be a value of this kind at all (a year for a date, not a phone for a time)?"""
    return (v.kind == kind or (v.kind == "year" and kind in ("date", "number")) or (kind == "date" and _year_number(v))
            or (kind == "number" and _bare_digits(v)))


def _bare_digits(v: Value) -> bool:
    """Seven digits or more with nothing between them ("3755251"): a phone number to the
    extractor, and as well a number (a population) where the claim's thing holds one."""
    return v.kind == "phone" and re.fullmatch(r"[1-9]\d{6,}", v.text) is not None
