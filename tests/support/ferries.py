"""A small ferry-company KG (local predicates with labels, classes with labels, genders) for
the follow-up and name-linking tests.

  Tidewater Ferries  (ferry line)  run by Marit Solberg, founded 1987, home port Skalvik,
                                   operates MS Gullwing and MS Storm Petrel
  Northsound Freight (ferry line)  run by Bjorn Haugland, founded 2003
  MS Gullwing        (ship)        captain Aksel Vennesland, launched 2011, route code KL402
  MS Storm Petrel    (ship)        captain Bjorn Haugland, launched 2019, route code TR17
  Marit Solberg (female) has children Henrik (male) and Ingrid (female) Solberg.
"""

from __future__ import annotations

from engine.config import Config
from engine.session import Session
from engine.setup import build_context
from kgstore import vocab
from kgstore.terms import Fact

F = "http://example.org/ferry/"
PREDICATES = {"runs": "managing director", "bornOn": "date of birth", "gender": "gender", "homePort": "home port",
              "operates": "operates", "founded": "founded", "captain": "captain", "child": "child",
              "launched": "launched", "code": "route code"}
CLASSES = {"Person": "person", "FerryLine": "ferry line", "Port": "port", "Ship": "ship"}


def e(key: str) -> str:
    return F + key


def ferry_facts() -> list[Fact]:
    out = [Fact(F + k, vocab.RDFS_LABEL, label, o_literal=True) for k, label in {**PREDICATES, **CLASSES}.items()]

    def thing(key: str, cls: str, label: str, **rel) -> None:
        out.extend([Fact(e(key), vocab.RDF_TYPE, F + cls), Fact(e(key), vocab.RDFS_LABEL, label, o_literal=True)])
        for p, values in rel.items():
            for v in values if isinstance(values, tuple) else (values,):
                literal = not v.startswith("@")
                out.append(Fact(e(key), F + p, v if literal else e(v[1:]), o_literal=literal))

    thing("tidewater", "FerryLine", "Tidewater Ferries", runs="@marit", homePort="@skalvik", founded="1987",
          operates=("@gullwing", "@stormpetrel"))
    thing("northsound", "FerryLine", "Northsound Freight", runs="@bjorn", founded="2003")
    thing("marit", "Person", "Marit Solberg", gender="female", bornOn="1968-04-12", child=("@henrik", "@ingrid"))
    thing("bjorn", "Person", "Bjorn Haugland", gender="male", bornOn="1959-11-02")
    thing("henrik", "Person", "Henrik Solberg", gender="male", bornOn="1994-06-30")
    thing("ingrid", "Person", "Ingrid Solberg", gender="female", bornOn="1997-01-15")
    thing("aksel", "Person", "Aksel Vennesland", gender="male", bornOn="1975-08-21")
    thing("gullwing", "Ship", "MS Gullwing", captain="@aksel", launched="2011", code="KL402")
    thing("stormpetrel", "Ship", "MS Storm Petrel", captain="@bjorn", launched="2019", code="TR17")
    thing("skalvik", "Port", "Skalvik", founded="1342")
    return out


def ferry_session(**config) -> Session:
    cfg = Config(memory=True, demo="none", reason_timeout_ms=20000, **config)
    ctx = build_context(cfg)
    ctx.store.add(ferry_facts(), vocab.bg_graph("ferries"))
    return Session(ctx, "ferries")
