"""Plurals: a plural word of a label ("politicians" for the occupation "politician"); and plural
reference: "them", "their", "these events" right after a turn that named several people
(events, rooms, books) mean all of those together; after a turn that named one group, or one
person, the linking rules decide as for any pronoun."""

from __future__ import annotations

from collections.abc import Callable

from engine.state import Mention

PRONOUNS = frozenset({"they", "them", "their", "theirs", "themselves"})
DETERMINERS = frozenset({"these", "those", "the", "all"})
ORDINALS = frozenset({"first", "second", "third", "fourth", "fifth", "last"})
P = 0.9


def plural_of(word: str, vocabulary) -> str:
    """The word of `vocabulary` that `word` is the plural of ("desserts", "cities", "boxes"), or ""."""
    if len(word) < 4 or not word.endswith("s") or word.endswith("ss"):
        return ""
    for singular in (word[:-3] + "y" if word.endswith("ies") else "", word[:-2] if word.endswith("es") else "",
                     word[:-1]):
        if singular and singular in vocabulary:
            return singular
    return ""


def link(mentions: list[Mention], links: dict[str, list[tuple[str, float]]],
         named: list[tuple[str, str]], of_class: Callable[[str, str], bool] = lambda e, c: True) -> None:
    """`named`: (kind, entity) of what the previous turn referred to, in order. Sets each plural
    mention's `together` and its links (all at the same probability). A plural noun of a KG
    class ("those clubs", "the two ferries": the mention's `label`) takes up those of that class
    (`of_class(entity, class)`), whatever their kind, and not the operator named beside them."""
    by_kind: dict[str, list[str]] = {}
    for kind, e in named:
        if e not in by_kind.setdefault(kind, []):
            by_kind[kind].append(e)
    for m in mentions:
        words = m.text.lower().split()
        if m.kind == "pronoun" and words[0] in PRONOUNS:
            # people first ("Omar and Lisa." - "When are they free?"), then the things a list named
            groups = [by_kind.get(k, []) for k in ("person", *(k for k in by_kind if k != "person"))]
        elif (m.kind == "definite" and words[-1].endswith("s") and words[0] in DETERMINERS
              and not ORDINALS.intersection(words)):
            cls = m.label
            groups = [list(dict.fromkeys(e for _, e in named if of_class(e, cls)))] if cls \
                else [by_kind.get(k, []) for k in m.value or ()]
        else:
            continue
        group = next((g for g in groups if len(g) >= 2), None)
        if group:
            m.together = list(group)
            links[m.node] = [(e, P) for e in group]
