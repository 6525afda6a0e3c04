"""Time expressions of a turn, resolved against the session clock (`state.now`).

Recognized: now; today, tonight, tomorrow, yesterday, the day after tomorrow; weekdays
("on Tuesday" is that day of the current Monday-to-Sunday week, "next Tuesday" the one after);
dates ("March 5", "5 March", "5th of March", "2026-03-05", "the 5th"); clock times ("14:00",
"2:30 pm", "2 pm", "at 2", "10 o'clock", "half past ten", "quarter to three", "noon"); ranges
("from 2 to 3", "between 10 and 11", "10-11"); parts of the day (morning 8-11, afternoon 12-17,
evening 17-21). A bare hour from 1 to 7 is afternoon: offices do not meet at 2 am.
A clock time or part of the day takes the day named elsewhere in the turn, else today.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from engine.state import Mention

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december")
PARTS = {"morning": (8 * 60, 11 * 60), "afternoon": (12 * 60, 17 * 60), "evening": (17 * 60, 21 * 60)}
NUMBER_WORDS = {w: i for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven",
                                             "eight", "nine", "ten", "eleven", "twelve"))}
DEFAULT_SLOT_MIN = 60


@dataclass(frozen=True)
class TimeValue:
    """What a time expression means: a day, optionally a span of minutes on it."""

    day: date
    start: int | None = None  # minute of the day
    end: int | None = None
    part: str | None = None  # "now" | "morning" | "afternoon" | "evening" | None
    explicit_day: bool = False  # the day was said, not assumed

    def text(self, now: datetime) -> str:
        """Readable, relative to the session clock: "now (14:05)", "tomorrow at 14:00"."""
        if self.part == "now":
            return f"now ({hhmm(self.start or 0)})"
        day = day_phrase(self.day, now.date())
        if self.part in PARTS:
            return f"in the {self.part} {day}" if day in ("today", "tomorrow") else f"in the {self.part} of {day}"
        if self.start is None:
            return day
        span = f"at {hhmm(self.start)}" if self.end == self.start + DEFAULT_SLOT_MIN else \
            f"from {hhmm(self.start)} to {hhmm(self.end or self.start)}"
        return f"{day} {span}" if day in ("today", "tomorrow") else f"on {day} {span}"

    @classmethod
    def from_iso(cls, text: str) -> TimeValue | None:
        """Inverse of `iso` (the part of the day and "now" are not kept: a span on a day)."""
        m = re.fullmatch(r"(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?:/(\d{2}):(\d{2}))?)?", text)
        if not m:
            return None
        day = date.fromisoformat(m.group(1))
        if m.group(2) is None:
            return cls(day, explicit_day=True)
        start = int(m.group(2)) * 60 + int(m.group(3))
        end = int(m.group(4)) * 60 + int(m.group(5)) if m.group(4) else start + DEFAULT_SLOT_MIN
        return cls(day, start, end, None, True)

    def iso(self) -> str:
        if self.start is None:
            return self.day.isoformat()
        return f"{self.day.isoformat()}T{hhmm(self.start)}" + (f"/{hhmm(self.end)}" if self.end is not None else "")


THEN = re.compile(r"\b(?:then|at that time|at the same time)\b", re.I)


def hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def day_phrase(day: date, today: date | None) -> str:
    """"today", "tomorrow", else "Tuesday 3 March" (always the latter when `today` is None)."""
    if day == today:
        return "today"
    if today is not None and day == today + timedelta(days=1):
        return "tomorrow"
    return f"{WEEKDAYS[day.weekday()].capitalize()} {day.day} {MONTHS[day.month - 1].capitalize()}"


_NUM = r"(\d{1,2}|" + "|".join(NUMBER_WORDS) + r")"
_CLOCK = (r"(?:(?P<h>\d{1,2})(?::|\.)(?P<m>\d{2})\s*(?P<ap>a\.?m\.?|p\.?m\.?)?"
          r"|(?P<h2>\d{1,2})\s*(?P<ap2>a\.?m\.?|p\.?m\.?|o'?\s?clock)"
          r"|(?P<half>half past|quarter past|quarter to)\s+" + _NUM.replace("(", "(?P<hw>", 1) +
          r"|" + _NUM.replace("(", "(?P<hw2>", 1) + r"\s+o'?\s?clock"
          r"|(?P<noon>noon|midday)"
          r"|(?:at|by|until|till|after|before|around|from)\s+(?P<h3>\d{1,2})(?![\d:/])(?!\.\d)(?!\s*(?:st|nd|rd|th)\b))")
_PATTERNS = [
    ("iso", re.compile(r"\b(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})\b")),
    ("range", re.compile(r"\b(?:from|between)\s+(?P<a>\d{1,2}(?::\d{2})?)\s*(?P<apa>am|pm)?\s+(?:to|and|until|till)\s+"
                         r"(?P<b>\d{1,2}(?::\d{2})?)\s*(?P<apb>am|pm)?\b"
                         r"|\b(?P<a2>\d{1,2}(?::\d{2})?)\s*(?:-|–)\s*(?P<b2>\d{1,2}(?::\d{2})?)\s*(?P<apc>am|pm)?\b", re.I)),
    ("now", re.compile(r"\b(?:right now|now|at the moment|currently|at present)\b", re.I)),
    ("rel", re.compile(r"\b(?P<w>the day after tomorrow|today|tonight|tomorrow|yesterday)\b", re.I)),
    ("weekday", re.compile(r"\b(?:(?P<mod>next|this|last)\s+)?(?P<wd>" + "|".join(WEEKDAYS) + r")\b", re.I)),
    ("md", re.compile(r"\b(?P<mon>" + "|".join(MONTHS) + r")\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?\b", re.I)),
    ("dm", re.compile(r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>" + "|".join(MONTHS) + r")\b", re.I)),
    ("nth", re.compile(r"\bthe\s+(?P<d>\d{1,2})(?:st|nd|rd|th)\b", re.I)),
    ("part", re.compile(r"\b(?:this\s+|in the\s+)?(?P<part>morning|afternoon|evening)\b", re.I)),
    ("clock", re.compile(r"\b" + _CLOCK + r"\b", re.I)),
]


def _hour_of(word: str) -> int:
    return NUMBER_WORDS[word.lower()] if word.lower() in NUMBER_WORDS else int(word)


def _office_hour(h: int, ampm: str | None) -> int:
    ap = (ampm or "").lower().replace(".", "")
    if ap.startswith("pm") and h < 12:
        return h + 12
    if ap.startswith("am") and h == 12:
        return 0
    if not ap.startswith(("am", "pm")) and 1 <= h <= 7:
        return h + 12
    return h


def _minutes(text: str, ampm: str | None) -> int:
    h, _, m = text.partition(":")
    return _office_hour(int(h), ampm) * 60 + (int(m) if m else 0)


def _clock(m: re.Match) -> int | None:
    g = m.groupdict()
    if g.get("h") is not None:
        h, mi = int(g["h"]), int(g["m"])
        return _office_hour(h, g.get("ap")) * 60 + mi if h < 24 and mi < 60 else None
    if g.get("h2") is not None:
        h = int(g["h2"])
        return _office_hour(h, g["ap2"] if "m" in g["ap2"].lower() else None) * 60 if h <= 12 else None
    if g.get("half"):
        h = _office_hour(_hour_of(g["hw"]), None)
        return {"half past": h * 60 + 30, "quarter past": h * 60 + 15, "quarter to": h * 60 - 15}[g["half"].lower()]
    if g.get("hw2"):
        return _office_hour(_hour_of(g["hw2"]), None) * 60
    if g.get("noon"):
        return 12 * 60
    if g.get("h3") is not None:
        h = int(g["h3"])
        return _office_hour(h, None) * 60 if 1 <= h <= 12 or 13 <= h <= 20 else None
    return None


def _day(kind: str, m: re.Match, today: date) -> date | None:
    g = m.groupdict()
    try:
        if kind == "rel":
            w = g["w"].lower()
            return today + timedelta(days={"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1,
                                           "the day after tomorrow": 2}[w])
        if kind == "weekday":
            monday = today - timedelta(days=today.weekday())
            d = monday + timedelta(days=WEEKDAYS.index(g["wd"].lower()))
            mod = (g.get("mod") or "").lower()
            return d + timedelta(days=7) if mod == "next" else d - timedelta(days=7) if mod == "last" else d
        if kind == "iso":
            return date(int(g["y"]), int(g["mo"]), int(g["d"]))
        if kind in ("md", "dm"):
            return date(today.year, MONTHS.index(g["mon"].lower()) + 1, int(g["d"]))
        if kind == "nth":
            return today.replace(day=int(g["d"]))
    except ValueError:
        return None
    return None


def detect(text: str, now: datetime) -> list[Mention]:
    """Time mentions of `text` with their resolved TimeValue in `Mention.value`."""
    today = now.date()
    found: list[tuple[int, int, str, re.Match]] = []
    taken = [False] * len(text)
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            s, e = m.span()
            if kind == "clock" and m.group(0).split()[0].lower() in ("at", "by", "until", "till", "after", "before",
                                                                    "around", "from"):
                if m.groupdict().get("h3") is not None:
                    s = m.start("h3")  # the mention is the number, not the preposition
            if any(taken[s:e]):
                continue
            for k in range(s, e):
                taken[k] = True
            found.append((s, e, kind, m))
    found.sort()
    day: date | None = None
    for _, _, kind, m in found:
        d = _day(kind, m, today) if kind in ("rel", "weekday", "iso", "md", "dm", "nth") else None
        if d is not None:
            day = d
            break
    turn_day = day or today
    out: list[Mention] = []
    for s, e, kind, m in found:
        value: TimeValue | None = None
        if kind == "now":
            minute = now.hour * 60 + now.minute
            value = TimeValue(today, minute, minute + 1, "now", True)
        elif kind in ("rel", "weekday", "iso", "md", "dm", "nth"):
            d = _day(kind, m, today)
            if d is not None:
                value = TimeValue(d, explicit_day=True)
                if kind == "rel" and m.group(0).lower() == "tonight":
                    value = TimeValue(d, *PARTS["evening"], "evening", True)
        elif kind == "part":
            a, b = PARTS[m.group("part").lower()]
            value = TimeValue(turn_day, a, b, m.group("part").lower(), day is not None)
        elif kind == "clock":
            at = _clock(m)
            if at is not None and 0 <= at < 24 * 60:
                value = TimeValue(turn_day, at, at + DEFAULT_SLOT_MIN, None, day is not None)
        elif kind == "range":
            g = m.groupdict()
            first, last = (g["a"], g["b"]) if g.get("a") else (g["a2"], g["b2"])
            ap_b = g.get("apb") or g.get("apc")
            start, end = _minutes(first, g.get("apa") or ap_b), _minutes(last, ap_b)
            if end <= start and end + 12 * 60 < 24 * 60:
                end += 12 * 60
            if 0 <= start < end <= 24 * 60:
                value = TimeValue(turn_day, start, end, None, day is not None)
        if value is not None:
            out.append(Mention(text=text[s:e], start=s, end=e, kind="time", value=value))
    return out


