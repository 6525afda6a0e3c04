"""What kind of thing an entity is, in the rules' words: person, event, room, group or thing.

Pronouns and noun phrases agree with a kind ("she" a person, "they" a person or a group), so a
KG's own vocabulary must come out as these kinds whatever it calls its classes: known classes
(Wikidata's human, schema.org's and FOAF's Person, the office classes), a class named like one
("kitchen:Person", "schema:MusicGroup", a CSV row "instance of, human"), and otherwise what the
class's instances carry: things with a birth date and a family name are people, whether their
class is called Pilot or Author.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from kgstore import vocab

KINDS = ("person", "event", "room", "group", "thing")

_KIND_BY_CLASS = {iri: kind for kind, iri in vocab.OFFICE_CLASSES.items()}
_KIND_BY_CLASS.update({vocab.WD + "Q5": "person", vocab.SCHEMA + "Person": "person",
                       vocab.FOAF + "Person": "person", vocab.SCHEMA + "Event": "event",
                       vocab.SCHEMA + "Organization": "group", vocab.WD + "Q43229": "group",
                       vocab.SCHEMA + "Room": "room"})

# Words that name people by what they are or do: a class named so ("ex:ClubMember", "Nurse")
# holds people, and a value typed so is a "who".
PERSON_WORDS = frozenset("""person human people man woman player actor actress singer musician artist author
writer director coach chef cook politician scientist professor student teacher lecturer employee footballer
composer producer painter poet guitarist drummer vocalist manager mayor member nurse physician doctor surgeon
designer curator collector driver pilot engineer executive officer""".split())

# A class of the user's own vocabulary, by the last word of its name ("kitchen:Person",
# "schema:MusicGroup", "ClubMember"): so that "he" can take up a person of any KG, and "they" a band.
_KIND_BY_CLASS_WORD = {**dict.fromkeys(PERSON_WORDS, "person"), "event": "event",
                       "group": "group", "organization": "group", "organisation": "group", "band": "group",
                       "room": "room"}

# Relations that only one kind of thing has, by their words (a predicate's label, or its local
# name split into words): "birthDate", "date of birth" (P569), "given name" (P735) ...
_KIND_BY_RELATION = {
    **dict.fromkeys(("given name", "family name", "first name", "last name", "surname", "birth date",
                     "date of birth", "birthday", "birth place", "place of birth", "death date",
                     "date of death", "death place", "place of death", "sex or gender", "gender",
                     "spouse", "father", "mother"), "person"),
    **dict.fromkeys(("headquarters", "headquarters location", "founded by", "founder", "number of employees",
                     "parent organization", "subsidiary", "chief executive officer"), "group"),
    **dict.fromkeys(("start time", "end time", "start date", "end date", "organizer", "attendee",
                     "participant"), "event"),
}


def kind_of_types(types: Iterable[str], labels: dict[str, str] | None = None) -> str:
    """The kind the classes say (`labels`: the classes' labels, when known), else "thing"."""
    types = list(types)
    for t in types:
        kind = _KIND_BY_CLASS.get(vocab.canonical(t))
        if kind:
            return kind
    for t in types:
        for name in ((labels or {}).get(t), vocab.readable_name(t)):
            words = (name or "").casefold().split()
            if words and words[-1] in _KIND_BY_CLASS_WORD:
                return _KIND_BY_CLASS_WORD[words[-1]]
    return "thing"


def relation_kind(label: str) -> str:
    """The kind of thing that has this relation, by its words; "thing" when any may."""
    words = " ".join(vocab.split_words(label).casefold().replace("_", " ").split())
    return _KIND_BY_RELATION.get(words.removeprefix("has "), "thing")


def kind_of_relations(relations: Iterable[Iterable[str]]) -> str:
    """The kind most of these things are by their relations (one iterable of relation labels
    per thing); "thing" when none of them has a telling relation."""
    votes: Counter[str] = Counter()
    for labels in relations:
        kinds = {relation_kind(label) for label in labels} - {"thing"}
        if len(kinds) == 1:  # a thing with relations of two kinds tells nothing
            votes[kinds.pop()] += 1
    return votes.most_common(1)[0][0] if votes else "thing"
