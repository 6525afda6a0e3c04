"""Units of measure and the number words around them: the one table that claims' numbers are
converted by ("45 minutes", "415 km²") and that relation names end with ("cookingTimeMinutes",
"length in km"), and the words that scale ("1.2 million") or hedge ("about 410,000") a number."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kgstore.vocab import split_words


@dataclass(frozen=True)
class Unit:
    kind: str  # a value kind
    factor: float  # how many of the kind's base unit one of it is (minutes, metres, m², kg, km/h, people)


UNITS: dict[str, Unit] = {}
for _names, _unit in (
    ("second,seconds,sec,secs,s", Unit("duration", 1 / 60)),
    ("minute,minutes,min,mins", Unit("duration", 1.0)),
    ("hour,hours,hr,hrs,h", Unit("duration", 60.0)),
    ("day,days", Unit("duration", 1440.0)),
    ("week,weeks", Unit("duration", 10080.0)),
    ("millimetre,millimetres,millimeter,millimeters,mm", Unit("length", 0.001)),
    ("centimetre,centimetres,centimeter,centimeters,cm", Unit("length", 0.01)),
    ("metre,metres,meter,meters,m", Unit("length", 1.0)),
    ("kilometre,kilometres,kilometer,kilometers,km", Unit("length", 1000.0)),
    ("mile,miles,mi", Unit("length", 1609.344)),
    ("km²,km2,sq km,square kilometres,square kilometers", Unit("area", 1e6)),
    ("m²,m2,square metres,square meters", Unit("area", 1.0)),
    ("hectare,hectares,ha", Unit("area", 1e4)),
    ("gram,grams,g", Unit("mass", 0.001)),
    ("kilogram,kilograms,kilo,kilos,kg", Unit("mass", 1.0)),
    ("tonne,tonnes,ton,tons,t", Unit("mass", 1000.0)),
    ("pound,pounds,lb,lbs", Unit("mass", 0.45359237)),
    ("euro,euros,eur,€,dollar,dollars,usd,$,£,gbp", Unit("money", 1.0)),
    ("km/h,kmh,kph,kilometres per hour,kilometers per hour", Unit("speed", 1.0)),
    ("mph,miles per hour", Unit("speed", 1.609344)),
    ("knot,knots", Unit("speed", 1.852)),
    ("m/s,metres per second,meters per second", Unit("speed", 3.6)),
):
    for _n in _names.split(","):
        UNITS[_n] = _unit
# Units a relation's name may end with that no number of a claim is converted by: the value is
# compared as said ("calories 410", "temperature celsius 21").
UNCONVERTED = frozenset("""months month years year feet ft inches litres liters litre liter ml kcal calories percent pct
celsius fahrenheit sqkm""".split())
# Short unit names that still name a unit at the end of a relation's name ("area km", not "rating g").
_SHORT = frozenset({"km", "kg", "cm", "mm", "km²", "m²", "ha", "ml", "ft"})

SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "k": 1e3, "m": 1e6, "bn": 1e9}
# Said right before a number, it makes the number a rounded one ("about 410,000", "~ 45").
ROUGH = re.compile(r"\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|some|close to|circa|ca\.?|"
                   r"just over|just under|over|under|more than|less than)\s*$|~\s*$", re.IGNORECASE)
# A year: four digits, not part of a longer number ("1,2345", "3.1415").
YEAR = re.compile(r"(?<![\d,.])\b(1[0-9]{3}|20[0-9]{2}|2100)\b(?!,\d)")


def label_unit(word: str) -> bool:
    """Is this last word of a relation's name a unit ("minutes", "km2", "kcal")?"""
    w = word.casefold().replace("km2", "km²")
    return w in UNCONVERTED or (w in UNITS and (len(w) > 2 or w in _SHORT))


def unit_of(label: str) -> Unit | None:
    """The unit a relation's label names ("cookingTimeMinutes", "area (km²)", "height in m"),
    when a claim's number in another unit can be converted to it."""
    words = re.findall(r"[a-z²0-9]+", split_words(label).lower().replace("km2", "km²"))
    for w in reversed(words):  # the unit comes last: "running time in minutes"
        if w in UNITS and label_unit(w):
            return UNITS[w]
    return None
