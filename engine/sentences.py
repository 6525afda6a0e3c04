"""A KG fact as a person would say it: per-relation sentence templates, literals in words, and
the key a template is looked up by. Read by the verbalize stage, the composer and the checker."""

from __future__ import annotations

import re
from datetime import date, time
from functools import cache

from kgstore.vocab import OFFICE, WD, WDT, XSD

# Templates keyed by predicate key: an office predicate's local name, or a Wikidata P-id.
# "{s}" and "{o}" are the subject's and object's labels.
TEMPLATES: dict[str, str] = {
    # office domain
    "member_of": "{s} is a member of the {o} group",
    "office": "{s}'s office is {o}",
    "location": "{s} will be held in {o}",
    "organizer": "{s} is organized by {o}",
    "attendee": "{o} attends {s}",
    "group": "{s} is an event of the {o} group",
    "email": "{s}'s e-mail address is {o}",
    "phone": "{s}'s phone number is {o}",
    "date": "{s} takes place on {o}",
    "start_time": "{s} starts at {o}",
    "end_time": "{s} ends at {o}",
    # common Wikidata properties
    "P31": "{s} is an instance of {o}",
    "P279": "{s} is a subclass of {o}",
    "P106": "{s} works as {o}",
    "P161": "{o} is a cast member of {s}",
    "P57": "{s} was directed by {o}",
    "P58": "{s} was written for the screen by {o}",
    "P86": "the music of {s} was composed by {o}",
    "P162": "{s} was produced by {o}",
    "P50": "{s} was written by {o}",
    "P19": "{s} was born in {o}",
    "P20": "{s} died in {o}",
    "P569": "{s} was born on {o}",
    "P570": "{s} died on {o}",
    "P27": "{s} is a citizen of {o}",
    "P17": "{s} is in the country {o}",
    "P131": "{s} is located in {o}",
    "P36": "the capital of {s} is {o}",
    "P641": "{s} plays the sport {o}",
    "P54": "{s} plays for {o}",
    "P413": "{s} plays as {o}",
    "P166": "{s} received the award {o}",
    "P1411": "{s} was nominated for {o}",
    "P1346": "{o} is the winner of {s}",
    "P735": "{s}'s given name is {o}",
    "P734": "{s}'s family name is {o}",
    "P1303": "{s} plays the {o}",
    "P136": "the genre of {s} is {o}",
    "P577": "{s} was published on {o}",
    "P1082": "{s} has a population of {o}",
    "P26": "{s} is married to {o}",
    "P22": "{s}'s father is {o}",
    "P25": "{s}'s mother is {o}",
    "P40": "{s}'s child is {o}",
    "P69": "{s} was educated at {o}",
    "P108": "{s} works for {o}",
    "P102": "{s} is a member of the political party {o}",
    "P39": "{s} held the position {o}",
    "P800": "{s} is known for the work {o}",
    "P495": "{s} comes from the country {o}",
    "P364": "the original language of {s} is {o}",
    "P1412": "{s} speaks {o}",
    "P21": "{s}'s gender is {o}",
    "P272": "{s} was made by the company {o}",
    "P750": "{s} was distributed by {o}",
    "P2047": "{s} lasts {o}",
    "P1343": "{s} is described by the source {o}",
    "P856": "the official website of {s} is {o}",
    "P18": "{s} has the image {o}",
    "P937": "{s} worked in {o}",
    "P463": "{s} is a member of {o}",
    "P527": "{s} has the part {o}",
    "P361": "{s} is part of {o}",
    "P150": "{s} contains the administrative area {o}",
    "P1376": "{s} is the capital of {o}",
    "P6": "the head of government of {s} is {o}",
    "P35": "the head of state of {s} is {o}",
    "P112": "{s} was founded by {o}",
    "P571": "{s} was founded on {o}",
    "P176": "{s} is made by {o}",
    "P710": "{o} took part in {s}",
    "P1344": "{s} took part in {o}",
    "P118": "{s} plays in the league {o}",
    "P286": "the coach of {s} is {o}",
    "P115": "the home venue of {s} is {o}",
}

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")


def predicate_key(p: str) -> str:
    """The template key of a predicate IRI: office local name, Wikidata P-id, else ''."""
    if p.startswith(OFFICE):
        return p[len(OFFICE):]
    for prefix in (WDT, WD):
        if p.startswith(prefix):
            return p[len(prefix):]
    m = re.search(r"/(P\d+)$", p)
    return m.group(1) if m else ""


def literal_text(value: str, datatype: str | None) -> str:
    """A literal as a person would say it: dates with their weekday, times as HH:MM."""
    try:
        if datatype == XSD + "date":
            d = date.fromisoformat(value[:10])
            return f"{WEEKDAYS[d.weekday()]} {d.day} {MONTHS[d.month - 1]} {d.year}"
        if datatype == XSD + "time":
            t = time.fromisoformat(value)
            return t.strftime("%H:%M")
        if datatype == XSD + "dateTime":
            d = date.fromisoformat(value[:10])
            rest = value[11:16]
            return f"{WEEKDAYS[d.weekday()]} {d.day} {MONTHS[d.month - 1]} {d.year} {rest}".strip()
    except ValueError:
        pass
    # Wikidata dumps write years as +1994-00-00T00:00:00Z; keep what is readable.
    m = re.fullmatch(r"[+]?(\d{4})-00-00(T.*)?", value)
    if m:
        return m.group(1)
    return value


def with_article(noun: str) -> str:
    noun = noun.strip()
    if not noun:
        return noun
    if noun[:1].isupper() and not noun.isupper() and " " not in noun:
        noun = noun.lower()
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def sentence(s: str, p_key: str, p_label: str, o: str) -> str:
    """One fact as a sentence: its template, or the readable fallback `s — relation — o`."""
    template = TEMPLATES.get(p_key)
    if template:
        text = template.format(s=s, o=o)
    else:
        text = f"{s} — {p_label} — {o}"
    return text[:1].upper() + text[1:]


@cache  # asked once per candidate fact of every turn, of a few dozen keys
def relation_phrase(p_key: str) -> str:
    """A template's words without its two ends ("was founded on" for P571, whose label is
    "inception"); '' for a predicate without a template."""
    template = TEMPLATES.get(p_key, "")
    return " ".join(re.sub(r"\{[so]\}('s)?", " ", template).split())
