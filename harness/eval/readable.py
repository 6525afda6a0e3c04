"""What a reader of a shown reply stumbles on, and what kgchat's own checker says of its own
answer: per turn of `kgchat eval answers`, reported per set.

- composed claims not supported: a claim of kgchat's composed answer (its facts, said by the
  realizer) that `verify_reply` judges other than supported. Each is a realizer or checker bug:
  the text says only what the facts say.
- label colons: a "<relation label>: <value>" form, a database row rather than a sentence ("head
  coach: Mikel Arteta"); a colon inside a name ("Quillmarch: Ink and Ash") or a time (13:00) is
  none, as those are no relation's label.
- same openings: two sentences in a row that open with the same entity's label, where the
  second should have gone on from the first or said "its".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.nlp.realize import label_words
from engine.state import TurnState

OWN = ("facts", "not_found")  # kgchat's own answers; the model's reply is "llm"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_SHOWN = 60  # characters of a finding kept in a row


@dataclass
class Findings:
    """One shown reply's findings (each a short excerpt), empty when it reads as sentences."""

    composed_not_supported: list[str] = field(default_factory=list)
    label_colons: list[str] = field(default_factory=list)
    same_openings: list[str] = field(default_factory=list)

    def as_row(self) -> dict[str, list[str]]:
        return {"composed_not_supported": self.composed_not_supported, "label_colons": self.label_colons,
                "same_openings": self.same_openings}


def relation_labels(state: TurnState) -> set[str]:
    """The labels of the relations the turn met (its candidate facts and relation paths), as
    the KG spells them and as words."""
    labels = {c.p_label for c in state.candidates} | {s.label for p in state.paths for s in p.steps}
    return {x for label in labels if label for x in (label, label_words(label)) if re.search(r"[^\W\d_]", x)}


def entity_labels(state: TurnState) -> set[str]:
    """The labels of the things the turn met: its candidate facts' ends, its mentions, the
    starts of its relation paths."""
    labels = {c.s_label for c in state.candidates} | {c.o_label for c in state.candidates if not c.fact.o_literal}
    labels |= {m.label for m in state.mentions if m.entity and m.label} | {p.start_label for p in state.paths}
    return {x for x in labels if x}


def label_colons(reply: str, relations: set[str], entities: set[str]) -> list[str]:
    """Each "<relation label>: <value>" of the reply, outside the names it says."""
    masked = reply
    for name in sorted((e for e in entities if ":" in e), key=len, reverse=True):
        masked = re.sub(re.escape(name), lambda m: " " * len(m.group(0)), masked, flags=re.IGNORECASE)
    found: dict[int, str] = {}
    for label in sorted(relations, key=len, reverse=True):
        for m in re.finditer(rf"(?<!\w){re.escape(label)}\s*:[ \t]*(?=\S)", masked, re.IGNORECASE):
            found.setdefault(m.start(), reply[m.start():m.end() + _SHOWN // 2].strip())
    return [found[k] for k in sorted(found)]


def opening(sentence: str, entities: set[str]) -> str:
    """The entity label a sentence opens with (the longest that fits, case aside), or ""."""
    folded = sentence.casefold()
    fits = [e for e in entities if folded.startswith(e.casefold()) and not folded[len(e):len(e) + 1].isalnum()]
    return max(fits, key=len, default="")


def same_openings(reply: str, entities: set[str]) -> list[str]:
    """Each pair of sentences in a row that open with the same entity label."""
    opens = [opening(s, entities) for s in _SENTENCE_END.split(reply.strip()) if s]
    return [f"{a} … {a}" for a, b in zip(opens, opens[1:], strict=False) if a and a.casefold() == b.casefold()]


def findings(state: TurnState) -> Findings:
    """The shown reply's findings; the checker's verdicts on a composed answer's own claims."""
    reply = state.shown_reply or ""
    out = Findings()
    if state.answer_source == "facts" and state.composed is not None:
        out.composed_not_supported = [f"{c.claim[:_SHOWN]} ({c.verdict})" for c in state.composed.checks
                                      if c.verdict != "supported"]
    if reply:
        entities = entity_labels(state)
        out.label_colons = label_colons(reply, relation_labels(state), entities)
        out.same_openings = same_openings(reply, entities)
    return out


def totals(rows: list[dict]) -> dict:
    """Per set: composed claims not supported, and the shown replies with a label colon or two
    same openings, kgchat's own answers (`own`, the target 0) apart from the model's (`llm`)."""
    def replies(key: str, sources: tuple[str, ...]) -> int:
        return sum(bool(r.get(key)) for r in rows if r["answer_source"] in sources)

    return {
        "composed_claims_not_supported": sum(len(r.get("composed_not_supported") or ()) for r in rows),
        "label_colons_shown": {"own": replies("label_colons", OWN), "llm": replies("label_colons", ("llm",))},
        "same_openings_shown": {"own": replies("same_openings", OWN), "llm": replies("same_openings", ("llm",))},
    }
