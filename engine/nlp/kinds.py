"""The kind of an entity ("person", "event", "room", "group" or "thing"), which pronouns, noun
phrases and rules agree with: read from its classes, else from what the instances of its classes
carry, else from its own relations; cached per context."""

from __future__ import annotations

from kgstore import vocab
from kgstore.errors import RemoteUnavailable
from rules.kinds import kind_of_relations, kind_of_types

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
            kind = kind_of_types(types, ctx.background.labels(types))
            if kind == "thing":
                kind = next((k for k in (class_kind(ctx, t) for t in types) if k != "thing"), "thing")
            if kind == "thing" and not types:
                kind = kind_of_relations([_relation_labels(ctx, iri)])
            kinds[iri] = kind
        except RemoteUnavailable:  # a remote background that fails: kind unknown, rules still run
            kinds[iri] = "thing"
    return kinds[iri]


def class_kind(ctx, cls: str) -> str:
    """The kind most instances of a class are by their relations (cached per context)."""
    kinds = ctx.resource("class_kinds", dict)
    if cls not in kinds:
        members = ctx.background.entities_of_type(cls, cap=CLASS_SAMPLE)
        kinds[cls] = kind_of_relations(_relation_labels(ctx, m) for m in members)
    return kinds[cls]


def _relation_labels(ctx, iri: str) -> list[str]:
    predicates = list(dict.fromkeys(f.p for f in ctx.background.facts_about(iri) if f.s == iri))
    return list(ctx.background.labels(predicates).values()) if predicates else []
