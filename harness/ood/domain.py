"""What a domain is: its relations with their questions, its vocabulary in its own file format,
and a world builder.

Question templates hold `{s}` (the subject as said: a name or "he/she/it"), `{S}` (its
possessive: "Greta Lindahl's", "her", "its") and, for inverse questions, `{o}` (the object
named, the answer being the subjects). `plain` questions may use the relation's words;
`para` questions share no content word with the relation's label (tests check this).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from harness.ood.world import World


@dataclass(frozen=True)
class Rel:
    key: str
    plain: tuple[str, ...]
    para: tuple[str, ...] = ()
    inverse: tuple[str, ...] = ()
    subject: str = "person"  # the entity type the question is about
    max_answers: int = 4
    asks_name: bool = False


@dataclass(frozen=True)
class Domain:
    name: str
    fmt: str  # "turtle" | "csv" | "wikidata" | "nt-camel" | "nt-snake"
    base: str  # namespace of the file's own IRIs (unused by CSV and Wikidata)
    vocab: dict[str, tuple[str, str]]  # relation key -> (name in the file, natural label)
    types: dict[str, tuple[str, str]]  # entity type key -> (class name in the file, class label)
    rels: dict[str, Rel]  # the relations questions ask about
    build: Callable[[World, random.Random], None]
    # Questions about a relation the KG does not have, per subject type.
    absent: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def ext(self) -> str:
        return {"turtle": ".ttl", "csv": ".csv", "wikidata": ".jsonl"}.get(self.fmt, ".nt")

    def label(self, key: str) -> str:
        return self.vocab[key][1]


def rels(*items: Rel) -> dict[str, Rel]:
    return {r.key: r for r in items}


# People's relations, asked in every domain (each domain names them in its own vocabulary).
BIRTH_PLACE = Rel("birth_place",
                  ("What is the place of birth of {s}?", "Where was {s} born?", "In which city was {s} born?"),
                  ("Where does {s} come from originally?", "What is {S} hometown?"))
BIRTH_DATE = Rel("birth_date",
                 ("What is the date of birth of {s}?", "When was {s} born?", "What is {S} birthday?"),
                 ("How old is {s}?", "What year did {s} come into the world?"), max_answers=1)
AWARD = Rel("award",
            ("What awards has {s} received?", "Which prizes has {s} won?", "Did {s} win any awards?"),
            ("What honours has {s} collected?", "What recognition has {s} earned over the years?"))
OCCUPATION = Rel("occupation",
                 ("What is {S} occupation?", "What does {s} do for a living?", "What is {S} profession?"),
                 ("How does {s} earn money?", "What line of work is {s} in?"))
FAMILY_NAME = Rel("family_name", ("What is {S} family name?", "What is {S} surname?",
                                  "What is {S} last name?"), asks_name=True, max_answers=1)
PERSON_RELS = (BIRTH_PLACE, BIRTH_DATE, AWARD, OCCUPATION, FAMILY_NAME)
PERSON_ABSENT = ("What is {S} shoe size?", "Who is {S} agent?", "What is {S} yearly salary?",
                 "What is {S} blood type?")
