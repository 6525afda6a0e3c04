"""Clauses of a sentence from its dependency parse: each predicate is a claim with its own subject.

A reply's sentence packs several statements into one: "Cairn, a Mars mission run by the Solvik
Space Agency, lasted 678 days" says that Cairn lasted 678 days, that it is a Mars mission and that
it is run by the Agency. The parse finds every predicate (the root, coordinated verbs, relative
clauses, participle modifiers, adverbial clauses, appositions, a phrase set off by commas after
the subject) and gives each its own words and a subject: its own, the one it shares with the verb
it is coordinated with, or the noun phrase it modifies ("who", "which", "whose" resolved to it).
Nothing is added but that subject and, where a clause has no finite verb, a copula ("is", or
"was" when the sentence speaks in the past), so a claim stays made of the reply's words.

The parser is spaCy's small English pipeline (engine/nlp/dependency.py), loaded once per process
on first use. Without it `parse` returns None and the caller falls back to the word-list splitter
(said once in the log).
"""

from __future__ import annotations

import re
from typing import Any

from engine.nlp.dependency import parser

_VERB_TAGS = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "MD"})
_SUBJECTS = frozenset({"nsubj", "nsubjpass", "expl", "csubj", "csubjpass"})
_RELATIVIZERS = frozenset({"WDT", "WP", "WP$"})
# Subordinators whose clause is not asserted ("if it rains", "although it was planned"): a closed
# class of English grammar, not of any domain; such a clause stays inside its sentence.
_ARGUMENTS = frozenset({"nsubj", "nsubjpass", "dobj", "attr", "dative", "oprd"})
_SINGULAR = {"are": "is", "were": "was", "have": "has"}  # agreement with one item of a list of subjects
_NOT_ASSERTED = frozenset({"if", "unless", "whether", "though", "although", "lest", "until", "before"})


def parse(text: str) -> Any | None:
    """The parse of `text`, or None without a parser. The caller has put a placeholder word
    ("Xqaq") for each name, which the tagger reads as one proper noun: a name's own "and",
    comma or verb-like word ("Starling Post", "Kettle & Crane") is no part of the grammar."""
    nlp = parser()
    return None if nlp is None else nlp(text)


def parse_all(texts: list[str]) -> dict[str, Any]:
    """The parses of `texts`, by text, made in one batch ({} without a parser)."""
    nlp = parser()
    if nlp is None:
        return {}
    unique = list(dict.fromkeys(t for t in texts if t and not t.endswith("?")))
    return dict(zip(unique, nlp.pipe(unique), strict=True))


def has_verb(doc: Any) -> bool:
    """Whether the sentence states something with a verb; "X: founding year 1944" (a label, a
    colon, then values) is a list of values, not a clause."""
    colon = next((t.i for t in doc if t.text == ":"), None)
    if colon is not None and not any(_verbal(t) for t in doc[:colon]):
        return False
    return any(_verbal(t) for t in doc)


def sound(doc: Any) -> bool:
    """Whether the parse looks right: no unlabelled attachment, and every finite verb that heads
    a clause has a subject (or shares one, coordinated). A parse that fails this ("Her e-mail is
    x@y.org and her phone number is ...", read as one noun list) is not split by."""
    if any(t.dep_ == "ROOT" and t.tag_ in ("NN", "NNS") and t.text.islower()
           and any(c.dep_ == "compound" and c.tag_ == "NNP" for c in t.children) for t in doc):
        return False  # "Xqaq sings in Xqbq, which is ...": the main verb read as a noun after a name
    for t in doc:
        if t.dep_ == "dep" or t.dep_ == "ccomp" and t.head.pos_ == "AUX" and not any(c.dep_ == "mark" for c in t.children):
            return False  # "is" then a clause with no "that": two clauses read as one
        if t.dep_ == "npadvmod" and t.i + 1 < len(doc) and doc[t.i + 1].dep_ in _SUBJECTS:
            return False  # "Xqaq I is ...": a name's last word read as the subject
        if (t.tag_ in ("VBZ", "VBP", "VBD") and t.dep_ not in ("conj", "aux", "auxpass")
                and not any(c.dep_ in _SUBJECTS for c in t.children)):
            return False
    return True


def _verbal(t: Any) -> bool:
    return t.tag_ in _VERB_TAGS


def _nominal(t: Any) -> bool:
    return t.tag_.startswith("NN") or t.tag_ in ("PRP", "CD")


def _split_kind(t: Any) -> str | None:
    """How token `t` heads a clause of its own, or None when it stays in its head's clause."""
    dep, head = t.dep_, t.head
    if dep == "ROOT":
        return "root"
    if dep == "conj" and _verbal(t) and (_verbal(head) or any(c.dep_ in _SUBJECTS for c in t.children)):
        return "conj"
    if dep == "relcl" and _verbal(t) and _relativizer(t) is not None and _said_of(t):
        return "relcl"
    if dep == "acl" and t.tag_ in ("VBN", "VBG") and not any(c.dep_ == "aux" for c in t.children) and _said_of(t):
        return "acl"
    if dep == "advcl" and _verbal(t) and (t.tag_ in ("VBG", "VBN") or any(c.dep_ in ("mark", *_SUBJECTS) for c in t.children)) and not any(c.dep_ == "mark" and c.lower_ in _NOT_ASSERTED for c in t.children):
        return "advcl"
    if dep == "pcomp" and t.tag_ == "VBG" and head.dep_ == "prep" and head.lower_ not in _NOT_ASSERTED:
        return "pcomp"
    if dep == "appos" and _nominal(head) and _set_off(t) and (
            t.tag_ in ("NN", "NNS") or any(c.dep_ in ("det", "poss") for c in t.children)):
        return "appos"
    if dep == "prep" and _inserted(t):
        return "pp"
    return None


def _said_of(t: Any) -> bool:
    """Whether modifier `t` says something of a thing named otherwise: set off by a comma, on a
    name, or on what the subject is said to be. "The man who composed X was born in Y" stays
    whole: the clause tells which man, and the checker reads such a description through the KG."""
    head = t.head
    name = head.tag_ in ("NNP", "NNPS") and not any(c.dep_ == "det" for c in head.children)  # not "the exhibition"
    return (t.doc[min(x.i for x in t.subtree) - 1].text == "," or name
            or head.dep_ in ("attr", "appos") or head.dep_ == "ROOT" and not _verbal(head))


def _set_off(t: Any) -> bool:
    """Whether the phrase of `t` stands between commas (or a comma and the sentence's end), as
    an apposition does."""
    doc, first, last = t.doc, min(x.i for x in t.subtree), max(x.i for x in t.subtree)
    return first > 0 and doc[first - 1].text == "," and (last + 1 == len(doc) or doc[last + 1].text in (",", ".", "!", ";"))


def _inserted(p: Any) -> bool:
    """A phrase set off by a comma right after the subject: "Pennock Quay, in the town of Pennock,
    is managed by ..." says where Pennock Quay is."""
    doc = p.doc
    if p.i == 0 or doc[p.i - 1].text != ",":
        return False
    before = doc[p.i - 2] if p.i >= 2 else None
    if before is None:
        return False
    subj = p.head if p.head.dep_ in _SUBJECTS else next((c for c in p.head.children if c.dep_ in _SUBJECTS), None)
    if subj is None or not _verbal(subj.head):
        return False
    return subj.i < p.i < subj.head.i and before.i in {x.i for x in subj.subtree} - {x.i for x in p.subtree}


def _relativizer(t: Any) -> Any | None:
    """The relative word of relative clause `t` ("who", "which", "whose", "that"), when the
    clause can be said of its antecedent."""
    for c in t.subtree:
        if c.tag_ in _RELATIVIZERS and c.dep_ in ("nsubj", "nsubjpass", "dobj", "pobj", "poss"):
            return c
    return None


def _has_subject(t: Any) -> bool:
    return any(c.dep_ in _SUBJECTS for c in t.children)


def _before_subject(t: Any) -> bool:
    subj = next((c for c in t.head.children if c.dep_ in _SUBJECTS), None)
    return subj is not None and max(x.i for x in t.subtree) < subj.i


class _Sentence:
    def __init__(self, doc: Any):
        self.doc = doc
        kinds = {t.i: k for t in doc if (k := _split_kind(t)) is not None}
        # A phrase before the subject with no subject of its own ("Based on the records kept,
        # X ...") frames the sentence; it and what it holds stay in the main clause.
        framing = {x.i for t in doc if t.dep_ in ("advcl", "prep") and not _has_subject(t) and t.head.dep_ == "ROOT"
                   and kinds.get(t.i) != "pp" and _before_subject(t) for x in t.subtree}
        self.kinds = {i: k for i, k in kinds.items() if i not in framing}
        past = next((t for t in doc if t.dep_ == "ROOT"), None)
        self.past = past is not None and (past.tag_ == "VBD" or any(
            c.dep_ in ("aux", "auxpass") and c.tag_ == "VBD" for c in past.children))

    def own(self, head: Any) -> list[Any]:
        """The tokens of the clause headed by `head`: its subtree without the clauses inside it
        and the words that only tied them in (their comma, "and", "after", "which")."""
        skip: set[int] = set()
        for t in head.subtree:
            if t.i != head.i and t.i in self.kinds:
                skip |= {x.i for x in t.subtree}
                if self.kinds[t.i] == "pcomp":
                    skip.add(t.head.i)
        out = [t for t in head.subtree if t.i not in skip]
        drop = {t.i for t in out if t.dep_ in ("cc", "mark", "preconj") and t.head.i in self.kinds
                and t.head.i != head.i and t.i not in {x.i for x in head.lefts if x.dep_ == "mark"}}
        drop |= {t.i for t in out if t.dep_ == "mark" and t.head.i == head.i}
        drop |= {t.i for t in out if t.dep_ == "cc" and any(
            c.dep_ == "conj" and c.i in self.kinds and c.i > t.i for c in t.head.children)}
        drop |= {t.i for t in out if t.dep_ == "prep" and not [c for c in t.children if c.i not in skip]
                 and any(c.i in skip for c in t.children)}
        # a comma that set off a clause taken out goes with it
        drop |= {t.i for t in out if t.dep_ == "punct" and (t.i - 1 in skip or t.i + 1 in skip)}
        return [t for t in out if t.i not in drop]

    def phrase(self, noun: Any) -> str:
        """The noun phrase of `noun` without the clauses that modify it."""
        return self.render([t for t in self.own(noun) if t.dep_ != "punct" or t.i != max(x.i for x in noun.subtree)])

    def referent(self, noun: Any) -> Any:
        """The entity a modifier of `noun` speaks of: the subject, when `noun` is what the
        subject is ("X is a watercolourist born in Bergen": X was born in Bergen)."""
        for _ in range(len(noun.doc)):
            if noun.dep_ == "appos":
                noun = noun.head
                continue
            # "is an album performed by": the album is X; "is Oskar Pike, Y's brother": Oskar Pike is
            common = noun.dep_ == "attr" and (noun.tag_ in ("NN", "NNS") or any(c.dep_ == "det" for c in noun.children))
            subj = next((c for c in noun.head.children if c.dep_ in _SUBJECTS), None) if common else None
            if subj is None or subj.tag_ in _RELATIVIZERS:
                break
            noun = subj
        return noun

    def subject(self, head: Any) -> tuple[str, list[Any]]:
        """(subject words to put before the clause, auxiliaries it borrows) for a clause with no
        subject of its own."""
        kind = self.kinds.get(head.i)
        if kind == "conj":
            first = head.head
            # "X takes an hour to play and uses Y": "uses" hangs on "play" (an infinitive, or a
            # clause on "an hour"), whose subject is X's: up the heads to the first with a subject
            while first.dep_ != "ROOT" and not any(c.dep_ in _SUBJECTS for c in first.children):
                first = first.head
            subj = next((c for c in first.children if c.dep_ in _SUBJECTS), None)
            aux = [c for c in first.children if c.dep_ in ("aux", "auxpass", "neg") and c.i < first.i]
            # "was planted by A and pruned by B": "pruned" is passive too (said by its "by" phrase)
            participle = head.tag_ in ("VBN", "VBG") or any(c.dep_ == "agent" for c in head.children)
            borrow = aux if participle and not any(c.dep_.startswith("aux") for c in head.children) else []
            if subj is None:
                return "", borrow
            if subj.tag_ in _RELATIVIZERS and first.dep_ == "relcl":
                return self.phrase(self.referent(first.head)), borrow
            return self.phrase(subj), borrow
        if kind in ("advcl", "pcomp"):
            main = head.head if kind == "advcl" else head.head.head
            subj = next((c for c in main.children if c.dep_ in _SUBJECTS), None)
            return (self.phrase(subj) if subj is not None else ""), []
        if kind == "acl":
            return self.phrase(self.referent(head.head)), []
        return "", []

    @staticmethod
    def predicate(head: Any) -> bool:
        """A participle set off after a verbless root with no "by" phrase is the sentence's own
        verb, mistagged ("X, a French actor, starred in Y")."""
        return (head.dep_ == "acl" and head.tag_ == "VBN" and head.head.dep_ == "ROOT" and not _verbal(head.head)
                and head.i > 0 and head.doc[head.i - 1].text == "," and not any(c.dep_ == "agent" for c in head.children))

    def copula(self, head: Any) -> str:
        if head.tag_ == "VBN" or head.tag_ == "VBG":
            return "was" if self.past else "is"
        return "is"

    def render(self, tokens: list[Any], replace: dict[int, str] | None = None) -> str:
        parts = []
        for k, t in enumerate(tokens):
            word = (replace or {}).get(t.i, t.text)
            gap = k + 1 < len(tokens) and tokens[k + 1].i != t.i + 1  # words taken out between them
            parts.append(word + (t.whitespace_ or (" " if gap else "")))
        text = "".join(parts)
        text = re.sub(r"\s+([,.;:!?])", r"\1", text)
        text = re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", text)
        return re.sub(r"\s+", " ", text).strip(" ,;:")

    def clause(self, head: Any) -> list[str]:
        """The claims of the clause headed by `head`, one per item of each list in it."""
        kind = self.kinds[head.i]
        if kind == "appos":
            return [f"{self.phrase(self.referent(head.head))} is {self.phrase(head)}"]
        if kind == "pp":
            subj = head.head if head.head.dep_ in _SUBJECTS else next(c for c in head.head.children if c.dep_ in _SUBJECTS)
            return [f"{self.phrase(subj)} is {self.phrase(head)}"]
        tokens = self.own(head)
        replace: dict[int, str] = {}
        tail = ""
        if kind == "relcl":
            rel = _relativizer(head)
            assert rel is not None  # a relcl is a split kind only with one
            ante = self.phrase(self.referent(head.head))
            if rel.dep_ == "poss":
                replace[rel.i] = ante + "'s"
            elif rel.dep_ in ("nsubj", "nsubjpass"):
                replace[rel.i] = ante
            elif rel.dep_ == "dobj":
                tokens = [t for t in tokens if t.i != rel.i]
                replace[head.i] = f"{head.text} {ante}"
            else:  # "after whom X is named": the phrase goes after the verb, as in a plain clause
                prep = rel.head
                tokens = [t for t in tokens if t.i not in (rel.i, prep.i)]
                tail = f"{prep.text} {ante}"
        lead = ""
        if kind != "root" and not any(c.dep_ in _SUBJECTS for c in head.children) and not tail:
            subject, borrow = self.subject(head)
            verb_word = self.render(borrow)
            if self.predicate(head):
                verb_word = ""
            elif kind in ("acl", "advcl", "pcomp") and head.tag_ in ("VBN", "VBG") and not any(
                    c.dep_.startswith("aux") for c in head.children):
                verb_word = self.copula(head)
            lead = " ".join(x for x in (subject, verb_word) if x)
        variants = [(v, r) for t, rep in self.roles(head, tokens, replace) for v, r in self.lists(t, rep)]
        return [" ".join(x for x in (lead, self.render(v, r), tail) if x) for v, r in variants]

    @staticmethod
    def roles(head: Any, tokens: list[Any], replace: dict[int, str]) -> list[tuple[list[Any], dict[int, str]]]:
        """"X plays for Y as a violinist": that X plays for Y, and that X plays as a violinist. An
        "as" phrase alone with its verb ("works only as a sculptor") is one claim."""
        role = next((c for c in head.children if c.dep_ == "prep" and c.lower_ == "as" and c.i > head.i), None)
        others = [c for c in head.children if c.dep_ in ("dobj", "prep", "agent", "attr", "dative")
                  and c.lower_ != "as" and c.i > head.i]
        if role is None or not others:
            return [(tokens, replace)]
        rid = {x.i for x in role.subtree}
        oid = {x.i for o in others for x in o.subtree}
        return [([t for t in tokens if t.i not in rid], replace), ([t for t in tokens if t.i not in oid], replace)]

    def lists(self, tokens: list[Any], replace: dict[int, str], depth: int = 0) -> list[tuple[list[Any], dict[int, str]]]:
        """The clause once per item of its first list of nouns (then of the next, in each)."""
        kept = {t.i for t in tokens}
        for n in tokens:
            members = self.members(n)
            if len(members) < 2 or not {x.i for m in members for x in m.subtree} <= kept or depth > 4:
                continue
            region = {x.i for m in members for x in m.subtree}
            out = []
            for m in members:
                inner = [o for o in members if o.head.i == m.i and o.i != m.i]
                mine = {x.i for x in m.subtree} - {x.i for o in inner for x in o.subtree}
                mine -= {x.i for x in m.children if x.dep_ in ("cc", "punct", "preconj")}
                variant = [t for t in tokens if t.i not in region or t.i in mine]
                agreed = dict(replace)
                if n.dep_ in _SUBJECTS:  # "A and B are members": each "is" one
                    for v in (n.head, *[c for c in n.head.children if c.dep_.startswith("aux")]):
                        if v.lower_ in _SINGULAR:
                            agreed[v.i] = _SINGULAR[v.lower_]
                out += self.lists(variant, agreed, depth + 1)
            return out
        return [(tokens, replace)]

    @staticmethod
    def members(n: Any) -> list[Any]:
        """The items of the list of nouns `n` begins ("A, B and C"): `n` and its conjuncts."""
        if n.dep_ not in _ARGUMENTS and not (n.dep_ == "pobj" and _verbal(n.head.head)) or not _nominal(n):
            return [n]  # "Study of a Kingfisher and Harbour" is one name, not two things studied
        out, todo = [n], [n]
        while todo:
            m = todo.pop()
            for c in m.children:
                if c.dep_ == "conj" and _nominal(c) or c.dep_ == "appos" and c.tag_ in ("NNP", "NNPS") and any(
                        x.dep_ == "conj" for x in m.children):
                    out.append(c)
                    todo.append(c)
        return sorted(out, key=lambda t: t.i)

    def clauses(self) -> list[str]:
        heads = sorted((self.doc[i] for i in self.kinds), key=lambda h: (self.kinds[h.i] != "root" and not self.predicate(h), h.i))
        out = []
        for h in heads:
            if self.kinds[h.i] == "root" and not _verbal(h) and len(heads) > 1 and not any(_verbal(t) for t in self.own(h)):
                continue  # "Cairn, a Mars mission run by ...": the name alone states nothing
            out += [text for text in self.clause(h) if re.search(r"\w", text)]
        return out


def _join(a: str, b: str) -> str:
    return f"{a} {b}" if a else b


def clause_texts(doc: Any) -> list[str]:
    """The clauses of a parsed sentence, in order, each a sentence of its own words with a subject."""
    return _Sentence(doc).clauses()
