"""Which side of a relation a question reads: a path whose value the question already says, a
relation read against its verb ("Where does X play?" is not who plays for X), or from the side
the question does not ask ("Who was X's father?" is not X's children)."""

from __future__ import annotations

import re

import numpy as np

from engine.lexicon import lexicon
from engine.stages.route.clauses import PREPOSITIONS, Part, object_verb, stems
from engine.stages.route.kinds import Found, ends_of


def says_a_value(f: Found, text: str) -> bool:
    """Does the question say one of the path's values (of three letters or more) as it is?"""
    forward, ends = ends_of(f)
    low = text.casefold()
    return any(len(v) > 2 and v in low and re.search(r"(?<!\w)" + re.escape(v) + r"(?!\w)", low)
               for c in ends if (v := (c.o_label if forward else c.s_label).casefold()))


def against_its_verb(f: Found, part: Part, sims: dict[str, np.ndarray]) -> bool:
    """A relation that ends in a preposition ("plays for"), walked backwards, read on the verb
    whose subject the entity is: "Where does X play?" asks where X plays, not who plays for X.
    One that ends in "by", read on the verb whose object it is: "Who runs X?" asks who runs X,
    not what is "operated by" X (what X runs: "What else did X paint?" is what is "painted by" X)."""
    if len(f.labels) != 1 or f.signature[0][1]:
        return False
    words = f.labels[0].casefold().split()
    if len(words) < 2 or words[-1] not in PREPOSITIONS:
        return False
    read = part.spans[int(np.argmax(sims[f.labels[0]]))].words
    if not read:
        return False
    return min(read) in (object_verb(part.text) if words[-1] == "by" else part.verb)  # or the verb with its particle


def other_side(f: Found, part: Part) -> bool:
    """A relation read from the side the question does not ask, when the question says the entity
    has the noun asked ("Who was X's mentor?", "the father of X": X -> ?): the relation that
    noun names walked backwards answers whose mentor X was; a relation named by the noun's
    opposite (WordNet's: "child" of "father", as a father is a parent) walked forwards answers
    who X's children are. A label ending in a preposition ("mentor of") reads the other way
    round and is left to `against_its_verb`."""
    if len(f.labels) != 1 or not part.owned:
        return False
    words = f.labels[0].casefold().split()
    if not words or words[-1] in PREPOSITIONS or words[-1] == "of":
        return False
    head, owned = words[-1], part.owned[-1]
    if not f.signature[0][1]:
        return bool(stems(head)) and stems(head) == stems(owned)
    lex = lexicon()
    return lex is not None and (head in lex.opposites(owned) or owned in lex.opposites(head))
