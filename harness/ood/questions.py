"""Dialogues over one out-of-domain world, each user turn with the facts that answer it.

Kinds of dialogue (the `kind` of its last user turn): `single` (a plain question, or an inverse
one naming the object), `paraphrase` (no content word of the relation's label), `asr`
(lowercase, unpunctuated, the name misheard), `pronoun` (a second turn saying he/she/it about
the first turn's subject), `compound` (two relations of one subject in one turn), `absent`
(a relation or a person the KG does not have: no gold) and `name` (a family-name question, the
one kind where name records are the answer).

Gold per user turn, in the office benchmark's shape: `nodes` and `edges` (the answer facts and
their two ends), `links` (mention spans with their entity), plus `answer`: the facts as
(s, p, o), the answer strings, the kind and the relations asked.
"""

from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import dataclass, field

from harness.ood.domain import Domain, Rel
from harness.ood.formats import Encoding
from harness.ood.world import ABSENT_PEOPLE, Lit, World

KIND_WEIGHTS = {"single": 24, "paraphrase": 20, "asr": 14, "pronoun": 16, "compound": 12, "absent": 9, "name": 5}
NO_ANSWER = "The knowledge graph has nothing on that."
# Sound-alike respellings a recognizer produces for names it does not know.
SOUNDS = (("ph", "f"), ("th", "t"), ("ck", "k"), ("c", "k"), ("v", "f"), ("w", "v"), ("ou", "oo"),
          ("ie", "ee"), ("ae", "ay"), ("qu", "kw"), ("x", "ks"), ("sch", "sh"), ("ll", "l"), ("rr", "r"),
          ("nn", "n"), ("tt", "t"), ("ss", "s"), ("gh", "g"), ("j", "y"), ("z", "s"), ("ei", "ay"),
          ("y", "i"), ("ai", "ay"), ("ea", "ee"), ("k", "c"), ("o'", "o "), ("mc", "mac"))


# A pronoun right after one of these is the clause's subject ("where was she born"); elsewhere it
# is an object ("who coaches him", "the mayor of it").
AUXILIARY = re.compile(r"\b(is|was|are|were|does|did|do|has|have|can|would|should|will)\s*$", re.IGNORECASE)
OBJECT_FORM = {"he": "him", "she": "her", "they": "them"}


@dataclass
class Said:
    """One way of referring to an entity in a turn."""

    text: str
    kind: str  # "name" | "pronoun"
    entity: str  # IRI
    label: str


@dataclass
class Utterance:
    parts: list[tuple[str, Said | None]] = field(default_factory=list)

    def render(self, asr: bool = False) -> tuple[str, list[dict]]:
        text, links = "", []
        for chunk, said in self.parts:
            if asr:
                chunk = re.sub(r"[^\w\s]", "", chunk.lower())
            start = len(text)
            text += chunk
            if said is not None:
                links.append({"mention": chunk, "start": start, "end": len(text), "kind": said.kind,
                              "entity": said.entity, "label": said.label})
        return text, links


def fill(template: str, subject: Said | None, poss: str, obj: Said | None = None) -> Utterance:
    """The template with {s}/{S}/{o} replaced; a name in {S} is the mention, its "'s" is not."""
    u = Utterance()
    pos = 0
    for m in re.finditer(r"\{([sSo])\}", template):
        if m.start() > pos:
            u.parts.append((template[pos:m.start()], None))
        slot = m.group(1)
        said = obj if slot == "o" else subject
        text = said.text
        if m.start() == 0:
            text = text[:1].upper() + text[1:]
        if said.kind == "pronoun" and slot == "s" and not AUXILIARY.search(template[:m.start()]):
            text = OBJECT_FORM.get(text, text)  # "the date of birth of her", "who coaches him"
        if slot == "S" and said.kind == "pronoun":
            u.parts.append((poss, Said(poss, "pronoun", said.entity, said.label)))
        else:
            u.parts.append((text, Said(text, said.kind, said.entity, said.label)))
            if slot == "S":
                u.parts.append(("'s", None))
        pos = m.end()
    u.parts.append((template[pos:], None))
    return u


def mishear(name: str, rng: random.Random) -> str:
    """The name as a recognizer might write it: lowercase, no accents, one sound respelt (or a
    letter lost), so it no longer matches the label exactly."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", name.lower()) if not unicodedata.combining(ch))
    plain = plain.replace("ø", "o").replace("ß", "ss")
    words = plain.split()
    order = list(range(len(words)))
    rng.shuffle(order)
    for i in order:
        swaps = [(a, b) for a, b in SOUNDS if a in words[i]]
        if swaps:
            a, b = rng.choice(swaps)
            words[i] = words[i].replace(a, b, 1)
            break
    else:
        i = max(range(len(words)), key=lambda j: len(words[j]))
        cut = rng.randrange(1, max(2, len(words[i]) - 1))
        words[i] = words[i][:cut] + words[i][cut + 1:]
    heard = " ".join(words)
    return heard if heard != name.lower() else heard + "h"


class Writer:
    def __init__(self, domain: Domain, world: World, enc: Encoding, rng: random.Random):
        self.domain, self.world, self.enc, self.rng = domain, world, enc, rng
        self.askable: list[tuple[Rel, str, str]] = []  # (relation, entity id, "fwd" | "inv")
        for rel in domain.rels.values():
            for e in world.of_type(rel.subject):
                if 1 <= len(world.objects(e.id, rel.key)) <= rel.max_answers:
                    self.askable.append((rel, e.id, "fwd"))
            if rel.inverse:
                # In the facts' order, not a set's: that would follow the process's hash seed.
                for o in dict.fromkeys(o for _, r, o in world.facts if r == rel.key and not isinstance(o, Lit)):
                    if 1 <= len(world.subjects(rel.key, o)) <= 4:
                        self.askable.append((rel, o, "inv"))

    # -- mentions ------------------------------------------------------------------------
    def name(self, eid: str) -> Said:
        e = self.world.entities[eid]
        return Said(e.label, "name", self.enc.entity(eid), e.label)

    def pronoun(self, eid: str) -> tuple[Said, str]:
        e = self.world.entities[eid]
        subj, poss = {"male": ("he", "his"), "female": ("she", "her")}.get(e.sex or "", ("it", "its"))
        return Said(subj, "pronoun", self.enc.entity(eid), e.label), poss

    # -- gold ----------------------------------------------------------------------------
    def answer(self, rel: Rel, eid: str, direction: str) -> tuple[list[tuple], list[str]]:
        if direction == "fwd":
            facts = [(eid, rel.key, o) for o in self.world.objects(eid, rel.key)]
            strings = [self.world.label_of(o) for _, _, o in facts]
        else:
            facts = [(s, rel.key, eid) for s in self.world.subjects(rel.key, eid)]
            strings = [self.world.label_of(s) for s, _, _ in facts]
        return facts, strings

    def gold(self, links: list[dict], facts: list[tuple], strings: list[str], kind: str,
             relations: list[str], asks_name: bool = False) -> dict:
        edges = [list(self.enc.edge(*f)) for f in facts]
        nodes: dict[str, None] = {}
        for s, _, o in edges:
            nodes.setdefault(s, None)
            nodes.setdefault(o, None)
        return {"nodes": list(nodes), "edges": edges,
                "links": [{k: link[k] for k in ("mention", "start", "end", "kind", "entity")} for link in links],
                "answer": {"facts": edges, "strings": strings, "kind": kind, "relations": relations,
                           "asks_name": asks_name}}

    def turn(self, u: Utterance, facts: list[tuple], strings: list[str], kind: str, relations: list[str],
             asr: bool = False, asks_name: bool = False) -> dict:
        text, links = u.render(asr)
        reply = ", ".join(strings) + "." if strings else NO_ANSWER
        return {"manual_transcription": text, "agent_response": reply,
                "gold": self.gold(links, facts, strings, kind, relations, asks_name)}

    # -- questions -----------------------------------------------------------------------
    def ask(self, rel: Rel, eid: str, direction: str, style: str, subject: Said | None = None,
            poss: str = "") -> Utterance:
        if direction == "inv":
            return fill(self.rng.choice(rel.inverse), None, "", self.name(eid))
        templates = rel.para if style == "para" and rel.para else rel.plain
        return fill(self.rng.choice(templates), subject or self.name(eid), poss)

    def pick(self, *, need_para: bool = False, name_rel: bool = False):
        """A question: the relation first (each equally likely, so people's many records do not
        crowd out the domain's own relations), then its subject and direction."""
        pool = [(r, e, d) for r, e, d in self.askable if r.asks_name == name_rel
                and (not need_para or (r.para and d == "fwd"))]
        key = self.rng.choice(sorted({r.key for r, _, _ in pool}))
        return self.rng.choice([x for x in pool if x[0].key == key])

    def dialogue(self, kind: str) -> list[dict]:
        rng = self.rng
        if kind in ("single", "name"):
            rel, eid, d = self.pick(name_rel=kind == "name")
            facts, strings = self.answer(rel, eid, d)
            return [self.turn(self.ask(rel, eid, d, "plain"), facts, strings, kind, [rel.key],
                              asks_name=rel.asks_name)]
        if kind in ("paraphrase", "asr"):
            rel, eid, d = self.pick(need_para=kind == "paraphrase")
            facts, strings = self.answer(rel, eid, d)
            style = "para" if kind == "paraphrase" or rng.random() < 0.4 else "plain"
            u = self.ask(rel, eid, d, style)
            if kind == "asr":
                u.parts = [(mishear(t, rng), s) if s is not None and s.kind == "name" else (t, s) for t, s in u.parts]
            return [self.turn(u, facts, strings, kind, [rel.key], asr=kind == "asr")]
        if kind in ("pronoun", "compound"):
            return self.two_relations(kind)
        return [self.absent()]

    def two_relations(self, kind: str) -> list[dict]:
        """Two relations of one subject: asked in two turns (the second with a pronoun) or in one."""
        rng = self.rng
        by_subject: dict[str, list[Rel]] = {}
        for rel, eid, d in self.askable:
            if d == "fwd" and not rel.asks_name:
                by_subject.setdefault(eid, []).append(rel)
        eligible = sorted(e for e, rs in by_subject.items() if len(rs) >= 2)
        type_ = rng.choice(sorted({self.world.entities[e].type for e in eligible}))
        eid = rng.choice([e for e in eligible if self.world.entities[e].type == type_])
        first, second = rng.sample(by_subject[eid], 2)
        f1, s1 = self.answer(first, eid, "fwd")
        f2, s2 = self.answer(second, eid, "fwd")
        said, poss = self.pronoun(eid)
        u2 = self.ask(second, eid, "fwd", rng.choice(("plain", "para")), said, poss)
        if kind == "pronoun":
            t1 = self.turn(self.ask(first, eid, "fwd", "plain"), f1, s1, "single", [first.key])
            return [t1, self.turn(u2, f2, s2, "pronoun", [second.key])]
        u = self.ask(first, eid, "fwd", "plain")
        head = u.parts[-1][0].rstrip("?")
        tail = u2.parts[0][0]
        u.parts[-1] = (head + " and ", None)
        u.parts += [(tail[:1].lower() + tail[1:], u2.parts[0][1])] + u2.parts[1:]
        return [self.turn(u, f1 + f2, s1 + s2, "compound", [first.key, second.key])]

    def absent(self) -> dict:
        """A relation the KG lacks about an entity it has, or a person it does not have."""
        rng = self.rng
        subjects = [t for t in self.domain.absent if self.world.of_type(t)]
        if rng.random() < 0.6:
            e = rng.choice(self.world.of_type(rng.choice(subjects)))
            u = fill(rng.choice(self.domain.absent[e.type]), self.name(e.id), "")
        else:
            person_rels = [r for r in self.domain.rels.values() if r.subject == "person" and not r.asks_name]
            rel = rng.choice(person_rels)
            ghost = rng.choice(ABSENT_PEOPLE)
            u = fill(rng.choice(rel.plain), Said(ghost, "name", "", ghost), "")
            u.parts = [(t, None if s is not None and not s.entity else s) for t, s in u.parts]
        return self.turn(u, [], [], "absent", [])
