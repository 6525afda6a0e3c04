"""The kind of an entity ("person", "event", "room", "group" or "thing"), which pronouns, noun
phrases and rules agree with: read from its classes, else from what the instances of its classes
carry, else from its own relations; cached per context."""

from __future__ import annotations

import re

from kgstore import vocab
from kgstore.errors import RemoteUnavailable
from kgstore.vocab import split_words
from rules.kinds import kind_of_relations, kind_of_types
from rules.similarity import norm

CLASS_SAMPLE = 25  # instances of a class whose relations tell what the class is


def entity_kind(ctx, iri: str) -> str:
    """"person", "event", "room", "group" ... or "thing": the kind the rules and the linker give an
    entity (read once per session): by its classes, their IRIs and names, else what their
    instances carry (a Pilot with a birth date is a person); an entity without classes, by its
    own relations; a meeting the user arranges is an event of the dialogue graph."""
    if vocab.is_meeting_node(iri):
        return "event"
    kinds = ctx.resource("entity_kinds", dict)
    if iri not in kinds:
        try:
            types = ctx.background.types(iri)
            names = ctx.background.labels(types)
            kind = kind_of_types(types, names)
            if kind == "thing":
                kind = next((k for k in (class_kind(ctx, t) for t in types) if k != "thing"), "thing")
            if kind == "thing" and any(_people(names.get(t) or vocab.readable_name(t)) for t in types):
                kind = "person"
            if kind == "thing" and not types:
                kind = kind_of_relations([relation_labels(ctx, iri)])
            kinds[iri] = kind
        except RemoteUnavailable:  # a remote background that fails: kind unknown, rules still run
            kinds[iri] = "thing"
    return kinds[iri]


def _people(class_name: str) -> bool:
    """Whether a class's name says people by its head noun's most frequent sense in WordNet (a
    playwright is a writer, a writer a person), when WordNet is on the machine."""
    from engine.lexicon import lexicon

    words = split_words(class_name).casefold().split()
    lex = lexicon()
    return bool(words) and lex is not None and "person" in lex.kinds(words[-1])


def class_kind(ctx, cls: str) -> str:
    """The kind most instances of a class are by their relations (cached per context)."""
    kinds = ctx.resource("class_kinds", dict)
    if cls not in kinds:
        members = ctx.background.entities_of_type(cls, cap=CLASS_SAMPLE)
        kinds[cls] = kind_of_relations(relation_labels(ctx, m) for m in members)
    return kinds[cls]


def relation_labels(ctx, iri: str) -> list[str]:
    """The labels of the relations the entity is the subject of (a store that reads them alone
    does: a turn on a large KG asks this of thousands of entities)."""
    read = getattr(ctx.background, "predicates_of", None)
    predicates = read(iri) if read is not None else \
        list(dict.fromkeys(f.p for f in ctx.background.facts_about(iri) if f.s == iri))
    return list(ctx.background.labels(predicates).values()) if predicates else []


_GENDER_RELATION = re.compile(r"\b(?:sex|gender)\b", re.IGNORECASE)
_GENDER_VALUE = (("female", re.compile(r"^(?:female|woman|f)$", re.IGNORECASE)),
                 ("male", re.compile(r"^(?:male|man|m)$", re.IGNORECASE)))


def entity_gender(ctx, iri: str) -> str:
    """"female" or "male" when the KG says so of the entity ("sex or gender: female", schema.org's
    "gender"), else "" (read once per session): "she" is no man the KG knows as one."""
    genders = ctx.resource("entity_genders", dict)
    if iri not in genders:
        genders[iri] = ""
        try:
            facts = [f for f in ctx.background.facts_about(iri) if f.s == iri]
        except RemoteUnavailable:
            return ""
        labels = ctx.background.labels(list({f.p for f in facts} | {f.o for f in facts if not f.o_literal}))
        for f in facts:
            if _GENDER_RELATION.search(split_words(labels.get(f.p) or vocab.local_name(f.p))):
                said = (f.o if f.o_literal else labels.get(f.o) or vocab.local_name(f.o)).strip()
                genders[iri] = next((g for g, rx in _GENDER_VALUE if rx.match(said)), "")
                break
    return genders[iri]


def possessive(ctx, iri: str) -> str:
    """The possessive a reply says of the entity after naming it: "its" of a thing; of a person
    "his" or "her" where the KG gives the gender, else "their"."""
    if entity_kind(ctx, iri) != "person":
        return "its"
    return {"male": "his", "female": "her"}.get(entity_gender(ctx, iri), "their")


SUBCLASS_PREDICATES = (vocab.RDFS + "subClassOf", vocab.WDT + "P279")
SUPERCLASS_STEPS = 3


def classes_of(ctx, iri: str) -> set[str]:
    """The KG's classes of an entity and their superclasses (a few steps up): what "that airline"
    asks the thing it points at to be."""
    out: set[str] = set()
    level = set(ctx.background.types(iri))
    for _ in range(SUPERCLASS_STEPS):
        out |= level
        level = {f.o for c in level for f in ctx.background.facts_about(c)
                 if f.s == c and f.p in SUBCLASS_PREDICATES and not f.o_literal} - out
        if not level:
            break
    return out


def class_phrase(text: str) -> str:
    """The class words of a definite noun phrase, normalized: "airline" of "that airline"."""
    return norm(text.split(maxsplit=1)[-1])


def class_words(ctx, iri: str) -> set[str]:
    """What the KG calls an entity, by its classes' labels (normalized) and each label's endings:
    "regional airline" and "airline" of a regional airline, so that "that airline" and "that
    regional airline" both take it up; and what WordNet calls such a thing (`label_nouns`: a
    beagle is a dog, a mare a horse)."""
    out: set[str] = set()
    for label in class_labels(ctx, iri):
        words = label.split()
        out |= {" ".join(words[k:]) for k in range(len(words))} | label_nouns(label)
    return out


def class_labels(ctx, iri: str) -> list[str]:
    """The labels (normalized) of the KG's classes of an entity and their superclasses."""
    classes = classes_of(ctx, iri)
    labels = ctx.background.labels(list(classes))
    return [norm(labels.get(c) or vocab.local_name(c)) for c in classes]


def _wordnet_noun(label: str) -> str | None:
    """The longest ending of a class label WordNet has as a noun: "holding_company" of "holding
    company", "beagle" of "beagle"; None without WordNet or when it has none of them."""
    from engine.lexicon import lexicon

    lex = lexicon()
    words = split_words(label).casefold().split()
    for k in range(len(words)):
        lemma = "_".join(words[k:])
        if lex is not None and any(pos == "n" for _, pos in lex.lemmas(lemma)):
            return lemma
    return None


def label_nouns(label: str) -> frozenset[str]:
    """What else English calls a thing of the class labelled so, by WordNet: the synonyms and the
    more general notions of the label's noun ("veterinary surgeon": vet, veterinarian, doctor,
    person; "mare": horse, animal), spaced as a turn says them."""
    from engine.lexicon import lexicon

    lex, noun = lexicon(), _wordnet_noun(label)
    if lex is None or noun is None:
        return frozenset()
    return frozenset(w.replace("_", " ") for w in lex.nouns(noun) | lex.kinds(noun))


AKIN_REACH = 2  # steps up from a noun a turn says to the notion it shares with a class's noun


def akin(said: str, label: str) -> bool:
    """Whether a noun a turn says and a class label name kinds of one notion a step or two above
    the noun, by WordNet: a corporation is a company of a sort (both are organizations), a route
    no company. Looser than `label_nouns`: for when nothing spoken of is called so exactly."""
    from engine.lexicon import lexicon

    lex, noun = lexicon(), _wordnet_noun(label)
    if lex is None or noun is None:
        return False
    near = {w.replace("_", " ") for w in lex.broader(said.replace(" ", "_"), AKIN_REACH)}
    return bool(near & (label_nouns(label) | {noun.replace("_", " ")}))
