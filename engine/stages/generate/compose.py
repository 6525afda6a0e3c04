"""kgchat's own answers, for when the model's cannot be trusted: one composed from the best
retrieved facts, and "nothing found" with the closest names the KG has.

A 135M model often ignores the knowledge it is given. These answers say only what the graph
says, in the sentences the verbalize stage already wrote, so a user never has to tell an
invented answer from a fact. Deterministic: the same facts give the same words.

`answer_without_model` runs before the model (nothing found; `--answer facts`), `decide` after
the checks and refinement (`--answer auto`: replace a contradicted or unsupported reply).
"""

from __future__ import annotations

import dataclasses

from engine.events import ReplyDone
from engine.stage import TurnContext
from engine.stages.score.answer_type import asked_records, is_name_noise, recorded
from engine.stages.verbalize import relation_and_value
from engine.state import Candidate, Check, TurnState
from kgstore.vocab import split_words

MORE_FACTS = 2  # facts after the best one and its siblings
MAX_SIBLINGS = 6  # values of the best fact's relation listed together (a film's cast)
MATCHES = 3  # close names offered when nothing was found
FUZZY_CUTOFF = 70  # rapidfuzz ratio (0-100) of a whole label to the name asked about
KNOWLEDGE_PLANS = ("background", "both")  # plans that look things up (not small talk, not the dialogue)
# Under this calibrated relevance no fact about a focused question answers it. Chosen on the
# generated benchmarks' train/dev splits (shipped model): the best fact of 80 % of the dev
# questions about a relation the KG lacks scores under 0.2, that of 1.8 % of the single-relation ones.
MISSING_P = 0.2
CLOSEST_FACTS = 2  # what the KG does have, offered with "not found"
# A fact this sure, with every fact of another relation under half of it, is the answer: a reply
# that states only the others ("founded on 1922" for "Who started it?") has not answered.
DOMINANT_P, DOMINANT_RATIO = 0.5, 0.5


def text_key(text: str) -> str:
    """Two verbalizations that differ only in case, spacing or a final full stop say the same."""
    return " ".join(text.casefold().rstrip(" .").split())


# --- which facts ---------------------------------------------------------------------------

# Irregular forms the 5-letter cut cannot bring together ("where was X born" / "place of birth").
IRREGULAR = {"born": "birth", "died": "death", "dead": "death"}
# Words of name records and bookkeeping relations, whatever a KG calls them ("given name",
# "familyName", "speaksLanguage", "described_by"): a fact of theirs is rarely what was asked.


def _words(text: str) -> set[str]:
    """Content words of a text, cut to 5 letters so that "organizes" meets "organizer"."""
    from engine.nlp.mentions import STOPWORDS, tokenize

    return {IRREGULAR.get(t.norm, t.norm)[:5] for t in tokenize(text) if t.norm not in STOPWORDS and len(t.norm) >= 3}


def _stems(words: set[str]) -> set[str]:
    """The words without a final "s", so that the label "plays instrument" is named by "play"."""
    return {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words}


def is_noise(p_label: str) -> bool:
    """A name record or bookkeeping relation (given name, described by source ...): said last."""
    return is_name_noise(split_words(p_label))


def _asked_as_record(c: Candidate, records: set[str]) -> bool:
    """Is the fact a record of a kind the question asks for in other words (answer_type.asked_records)?"""
    return recorded(split_words(c.p_label)) in records


def _relation_words(c: Candidate) -> set[str]:
    """The words a fact's sentence says about the relation (its entities' names left out)."""
    text = c.text
    for label in (c.s_label, c.o_label):
        if label:
            text = text.replace(label, " ")
    return _words(text) | _words(c.p_label)


def asked_words(state: TurnState) -> set[str]:
    """What the question says about the relation it asks: its content words, less the names of
    what it mentions ("Who organizes the Staff Meeting?" -> organizes)."""
    names: set[str] = set()
    for m in state.mentions:
        names |= _words(m.text) | (_words(m.label) if m.label else set())
    return _words(state.rewritten or state.text) - names


def facts_about_question(state: TurnState) -> list[Candidate]:
    """Facts between entities (not "X is a person") that touch what the turn links, each sentence
    once, best first: the records the question asks for in other words ("What does she do for a
    living?": her occupations); then those whose value is not of another type than the question
    asks for ("Who founded it?" is not answered by a year); among them, those whose relation the
    question names in so many words, then the retrieved ones, then the other candidates about the
    linked entities, each group by relevance. Name records and bookkeeping ("given name",
    "described by source") go last unless asked about. A turn that links nothing itself (a type
    request, a follow-up on the last turn's focus) takes the retrieved facts only."""
    from engine.stages.candidates import is_node_fact

    linked = set(state.linked_entities)
    asked = asked_words(state)
    retrieved = {id(c) for c in state.retrieved}
    named: dict[int, int] = {}
    out: dict[str, Candidate] = {}
    for c in sorted(state.retrieved, key=lambda c: -c.score) + sorted(state.candidates, key=lambda c: -c.score):
        if not c.text or is_node_fact(c.fact):
            continue
        if linked and c.fact.s not in linked and c.fact.o not in linked:
            continue
        if not linked and id(c) not in retrieved:
            continue
        named[id(c)] = len(asked & _relation_words(c))
        out.setdefault(text_key(c.text), c)

    records = asked_records(state.text)

    def rank(c: Candidate) -> tuple[bool, bool, bool, int, bool, float]:
        asked_as_record = _asked_as_record(c, records)
        noise = is_noise(c.p_label) and not named[id(c)] and not asked_as_record
        clash = c.features.get("atype_clash", 0.0) > 0
        return noise, not asked_as_record, clash, -named[id(c)], id(c) not in retrieved, -c.score

    return sorted(out.values(), key=rank)


def select(facts: list[Candidate], asked: set[str] = frozenset()) -> list[Candidate]:
    """The best fact and the other values of its relation (so a list answer is whole); then,
    unless the question names that relation (`asked`: its words, and so has its answer), the
    next best few."""
    if not facts:
        return []
    top = facts[0]
    siblings = [c for c in facts if c.fact.p == top.fact.p and (c.fact.s == top.fact.s or c.fact.o == top.fact.o)]
    chosen = siblings[:MAX_SIBLINGS]
    if asked & _relation_words(top):
        return chosen
    rest = [c for c in facts if c not in chosen]
    return chosen + rest[:MORE_FACTS]


def _parts(c: Candidate) -> tuple[str, str, str]:
    """(lead entity, joiner, rest) of a fact's sentence: "Ada Lind" + " " + "attends Design
    Review"; a fallback verbalization ("X — relation — Y") becomes "X" + ": " + "relation Y";
    a sentence that starts with no entity, or with two ("X and Y are both connected to Z": what
    follows is not said of X alone), is all rest."""
    text = c.text.strip().rstrip(".").strip()
    if " — " in text and c.s_label and text.casefold().startswith(c.s_label.casefold()):
        return text[:len(c.s_label)], ": ", relation_and_value(c.p_label, c.o_label, c.fact.o_literal)
    for label in (c.s_label, c.o_label):
        if label and text[:len(label) + 1].casefold() == label.casefold() + " ":
            rest = text[len(label) + 1:]
            if rest.split(" ", 1)[0].casefold() in ("and", "or", "&"):
                break
            return text[:len(label)], " ", rest
    return "", "", text


def compose_text(facts: list[Candidate]) -> str:
    """The facts as a few sentences: those that start with the same entity share it ("Design
    Review will be held in Room Beta, starts at 14:00 and is organized by Mark Taylor")."""
    items: list[tuple[str, str, list[str]]] = []  # (lead, joiner, rests)
    for c in facts:
        lead, joiner, rest = _parts(c)
        same = next((item for item in items if lead and item[0].casefold() == lead.casefold()
                     and item[1] == joiner), None)
        if same is not None:
            same[2].append(rest)
        else:
            items.append((lead, joiner, [rest]))
    sentences = []
    for lead, joiner, parts in items:
        sep = "; " if joiner == ": " else ", "
        body = parts[0] if len(parts) == 1 else sep.join(parts[:-1]) + (sep if joiner == ": " else " and ") + parts[-1]
        sentence = f"{lead}{joiner}{body}"
        sentences.append(sentence[:1].upper() + sentence[1:] + ".")
    return " ".join(sentences)


# --- nothing found --------------------------------------------------------------------------

def asked_about(text: str) -> str:
    """The words of the question that name what was looked for: its capitalised run of words
    (past the first word), else its last run of words that are not function words."""
    return _named(text) or _named(text, capitalised=False)


def _named(text: str, capitalised: bool = True) -> str:
    """The longest capitalised run of words past the first word, or (`capitalised` False) the
    last run of words that are not function words."""
    from engine.nlp.mentions import STOPWORDS, TYPE_NOUNS, tokenize

    tokens = tokenize(text)
    runs: list[list] = []  # content words in a row ("bandwidth meeting": a type noun may close one)
    caps: list[list] = []  # capitalised words in a row, the sentence's first word left out
    in_run = in_caps = False
    for i, t in enumerate(tokens):
        content = t.norm not in STOPWORDS or (in_run and t.norm in TYPE_NOUNS)
        if content and in_run:
            runs[-1].append(t)
        elif content:
            runs.append([t])
        capital = i > 0 and t.text[:1].isupper() and t.norm not in STOPWORDS
        if capital and in_caps:
            caps[-1].append(t)
        elif capital:
            caps.append([t])
        in_run, in_caps = content, capital
    pick = (max(caps, key=len) if caps else []) if capitalised else (runs[-1] if runs else [])
    return text[pick[0].start:pick[-1].end] if pick else ""


def close_matches(text: str, index, limit: int = MATCHES) -> list[str]:
    """KG labels that share a word, or a word within a couple of typing errors, with the
    question's content words (the same fuzzy word index the mention detector uses)."""
    from rapidfuzz import fuzz, process

    from engine.nlp.mentions import STOPWORDS, tokenize
    from rules.similarity import norm

    words = [t.norm for t in tokenize(text) if t.norm not in STOPWORDS and len(t.norm) >= 3]
    score: dict[int, float] = {}
    for word in dict.fromkeys(words):
        for close, edits in index.close_words(word):
            for i in index.by_word.get(close, ())[:200]:
                score[i] = score.get(i, 0.0) + 1.0 / (1 + edits)
    phrase = " ".join(words)
    ranked = sorted(score, key=lambda i: (-score[i], -fuzz.ratio(phrase, index.labels[i].norm), index.labels[i].text))
    # Misspellings beyond the word index's edits ("Desing Reveiw"): the whole name, fuzzily.
    asked = norm(asked_about(text))
    if asked:
        found = process.extract(asked, [lab.norm for lab in index.labels], scorer=fuzz.ratio,
                                limit=limit, score_cutoff=FUZZY_CUTOFF)
        ranked += [i for _, _, i in found]
    out: dict[str, None] = {}
    for i in ranked:
        out.setdefault(index.labels[i].text, None)
        if len(out) >= limit:
            break
    return list(out)


def not_found_text(what: str, matches: list[str]) -> str:
    text = (f"I found nothing about “{what}” in the knowledge graph." if what
            else "I found nothing in the knowledge graph for this question.")
    if matches:
        names = matches[0] if len(matches) == 1 else ", ".join(matches[:-1]) + " or " + matches[-1]
        text += f" Did you mean {names}?"
    return text


def relation_missing(state: TurnState, ctx: TurnContext, facts: list[Candidate], below: float) -> bool:
    """A focused question (one question about an entity it names: a pronoun's entity is less
    sure) whose entity the KG has, but no fact of which the learned scorer gives even `below` of
    answering it, nor one whose relation it names in so many words, nor a record it asks for in
    other words ("In what tongue is it?": its language): "What is Berlin's average annual
    rainfall?"."""
    from engine.stages.retrieve import focused

    if ctx.config.scorer != "learned" or not facts or not focused(state, kinds=("name",)):
        return False
    asked, records = asked_words(state), asked_records(state.text)
    return all(c.score < below and not asked & _relation_words(c) and not _asked_as_record(c, records)
               for c in facts)


def lacking_relation(state: TurnState, ctx: TurnContext) -> str:
    """The label of a relation of the KG that a focused question names in so many words (every
    word of its label, a final "s" aside: "What instruments does Eleanor Voss play?" names "plays
    instrument") and that no entity the turn names has, either way: that entity lacks what the
    question asks. Empty when the question names no such relation, when one of the entities has
    it (the guitar in "Who plays the guitar in X?" has "plays instrument" edges), or when a
    retrieved fact has it (the answer may lie a step further: "Which stadium does <player> play
    at?")."""
    from engine.nlp.mentions import label_index
    from engine.stages.retrieve import focused

    if not focused(state, kinds=("name",)):
        return ""
    asked = _stems(asked_words(state))
    named = [(len(words), label, p) for p, label in label_index(ctx).relations.items()
             if (words := _stems(_words(label))) and words <= asked]
    entities = {m.entity for m in state.mentions if m.kind == "name" and m.entity}
    if not named or not entities or {p for *_, p in named} & {c.fact.p for c in state.retrieved}:
        return ""
    for *_, p in named:
        for e in entities:
            if ctx.background.query(f"ASK {{ {{ <{e}> <{p}> ?o }} UNION {{ ?s <{p}> <{e}> }} }}") is not False:
                return ""  # it has it (or the KG could not say)
    return max(named, key=lambda n: n[0])[1]


def missing_text(what: str, about: list[str], closest: str) -> str:
    subject = " and ".join(about)
    text = (f"I found no fact on “{what}” about {subject} in the knowledge graph." if what and subject
            else "I found no fact in the knowledge graph that answers this.")
    return text + (f" The closest it has: {closest}" if closest else "")


def unknown_name(state: TurnState) -> str:
    """A capitalised name in a turn that links no name said with a capital (a common word that
    meets a label, "prizes" for "Meridian Translation Prize", names no one): no mention covers
    it (not a day, a type or a pronoun), it does not introduce the speaker ("I'm Peter
    Fischer"), and no retrieved fact says it."""
    from engine.nlp.mentions import INTRODUCTION

    name = _named(state.text)
    if not name or any(m.kind == "name" and m.entity and m.text != m.text.lower() for m in state.mentions):
        return ""
    if any(name.casefold() in c.text.casefold() for c in state.retrieved):
        return ""
    start = state.text.find(name)
    end = start + len(name)
    if any(m.start < end and start < m.end for m in state.mentions):
        return ""
    if any(intro.end() == start for intro in INTRODUCTION.finditer(state.text)):
        return ""
    return name


def nothing_found(state: TurnState) -> bool:
    """A turn that looks something up and found no fact about it: it names nothing the KG has
    (or only things without facts, such as a relation's own name), and asks for no type of
    thing ("which rooms"), whose answer would be the entities themselves; or it names someone
    by a capitalised name the KG does not have and links no name at all ("In which city was
    Xiomara Quill born?": the cities of others are no answer)."""
    if state.plan not in KNOWLEDGE_PLANS:
        return False
    if unknown_name(state):
        return True
    if any(m.kind == "type" and m.value for m in state.mentions):
        return False
    return not facts_about_question(state)


# --- the decisions --------------------------------------------------------------------------

def _verify(state: TurnState, ctx: TurnContext, text: str) -> tuple[list[Check], float | None, float | None]:
    """The composed answer goes through the same checks as a model's reply."""
    from engine.stages.check import make_verifier
    from engine.stages.check.factcheck import check_reply, scores

    trial = dataclasses.replace(state, response=text)
    checks = check_reply(text, make_verifier(trial, ctx))
    return (checks, *scores(checks))


def _set(state: TurnState, ctx: TurnContext, source: str, text: str, **extra) -> None:
    state.answer_source = source
    state.composed = {"response": text, "source": source, "facts": [], "reason": "", "matches": [],
                      "checks": [], "fact_score": None, "neip": None, **extra}
    ctx.emit(ReplyDone(text, composed=source))


def say_not_found(state: TurnState, ctx: TurnContext, why: str = "") -> None:
    """`why`: what came first (the model's reply not shown)."""
    from engine.nlp.mentions import label_index

    what = asked_about(state.text)
    linked = {m.label for m in state.mentions if m.entity and m.label}
    matches = [m for m in close_matches(state.text, label_index(ctx), MATCHES + len(linked)) if m not in linked]
    matches = matches[:MATCHES]
    reason = "the knowledge graph has no fact about what the question names"
    _set(state, ctx, "not_found", not_found_text(what, matches), matches=matches, asked=what,
         reason=f"{why}; {reason}" if why else reason)


def say_missing(state: TurnState, ctx: TurnContext, facts: list[Candidate], *, below: float, relation: str = "",
                why: str = "") -> None:
    """`relation`: the KG's relation the question names and its entity lacks; else the question's
    own words for what no fact scoring `below` or more answers. `why`: what came first (the
    model's reply not shown)."""
    from engine.nlp.mentions import tokenize

    touched = {c.fact.s for c in facts} | {c.fact.o for c in facts}
    names = {m.label or m.text for m in state.mentions if m.entity in touched and m.kind == "name"}
    if relation:
        what, reason = relation, f"the question asks for “{relation}”, which the knowledge graph has, but not for it"
    else:
        words = asked_words(state)
        what = " ".join(t.text for t in tokenize(state.text) if _words(t.text) & words)
        reason = f"no fact about the question scores {below} or more as its answer, nor names what it asks"
    reason = f"{why}; {reason}" if why else reason
    closest = facts[:CLOSEST_FACTS]
    _set(state, ctx, "not_found", missing_text(what, sorted(names), compose_text(closest)),
         facts=[c.text for c in closest], asked=what, reason=reason)


def say_facts(state: TurnState, ctx: TurnContext, facts: list[Candidate], reason: str) -> None:
    chosen = select(facts, asked_words(state))
    text = compose_text(chosen)
    checks, fact_score, neip = _verify(state, ctx, text)
    _set(state, ctx, "facts", text, facts=[c.text for c in chosen], reason=reason, checks=checks,
         fact_score=fact_score, neip=neip)


def answer_without_model(state: TurnState, ctx: TurnContext) -> bool:
    """Before the model: say plainly that nothing was found, or (`--answer facts`) compose the
    answer. True when the turn's reply is set and the model is not to be asked."""
    if ctx.config.answer != "llm" and nothing_found(state):
        say_not_found(state, ctx)
        return True
    if ctx.config.answer == "auto" and state.plan in KNOWLEDGE_PLANS:
        facts = facts_about_question(state)
        lacking = lacking_relation(state, ctx) if facts else ""
        if lacking or relation_missing(state, ctx, facts, MISSING_P):
            say_missing(state, ctx, facts, below=MISSING_P, relation=lacking)
            return True
    if ctx.config.answer == "facts" and state.plan in KNOWLEDGE_PLANS:
        facts = facts_about_question(state)
        if facts:
            say_facts(state, ctx, facts, "--answer facts: always composed from the knowledge graph")
        else:
            say_not_found(state, ctx)
        return True
    return False


def says_best_fact(check: Check, best: list[Candidate]) -> bool:
    """A supported claim that states one of the facts kgchat would answer with (the same
    triple, or the same sentence): a reply that only says "X is a human" or names X's given
    name does not answer "where was X born"."""
    ev = check.evidence if isinstance(check.evidence, dict) else {}
    if check.verdict != "supported" or ev.get("source") == "dialogue":
        return False
    keys = {c.fact.key for c in best} | {text_key(c.text) for c in best}
    found = [ev] + [m for m in ev.get("more") or [] if isinstance(m, dict)]
    return any((e.get("s"), e.get("p"), e.get("o")) in keys or text_key(str(e.get("text") or "")) in keys
               for e in found)


def dominant(facts: list[Candidate]) -> list[Candidate]:
    """The fact that stands far ahead of all others about the question (relevance at least
    DOMINANT_P, every fact of another relation under DOMINANT_RATIO of it), with the other
    values of its relation; [] when none does."""
    if not facts:
        return []
    top = max(facts, key=lambda c: c.score)
    values = [c for c in facts if c.fact.p == top.fact.p and (c.fact.s == top.fact.s or c.fact.o == top.fact.o)]
    taken = {id(c) for c in values}
    rest = max((c.score for c in facts if id(c) not in taken), default=0.0)
    return values if top.score >= DOMINANT_P and rest < DOMINANT_RATIO * top.score else []


def invented(checks: list[Check], dialogue: str) -> list[str]:
    """Names the reply's claims state that the knowledge graph has nothing of, and that the user
    did not say either ("The mayor of Vienna is Viktor Koprivin", over a KG without mayors)."""
    said = dialogue.casefold()
    names = (n for c in checks if c.verdict == "nei" and isinstance(c.evidence, dict)
             for n in c.evidence.get("unknown") or [])
    return list(dict.fromkeys(n for n in names if n.casefold() not in said))


def replacement_reason(checks: list[Check], response: str, error: str, facts: list[Candidate],
                       asked: set[str] = frozenset(), dialogue: str | None = None) -> str:
    """Why `--answer auto` does not show the model's reply, or "" to show it. `dialogue`: what
    the user said so far, for a turn that looks something up (names from there are not
    invented); None for small talk, where a name the KG lacks is no answer passed off."""
    if any(c.verdict == "contradicted" for c in checks):
        return "a claim of the model's reply contradicts the knowledge graph"
    names = invented(checks, dialogue) if dialogue is not None else []
    if names:
        return f"the model's reply names {', '.join(names[:3])}, which the knowledge graph does not have"
    if not facts:
        return ""
    if not response:
        return "the model gave no reply" + (f" ({error})" if error else "")
    if not any(says_best_fact(c, select(facts, asked)) for c in checks):
        return "no claim of the model's reply states one of the knowledge graph's facts about the question"
    best = dominant(facts)
    if best and not any(says_best_fact(c, best) for c in checks):
        return f"the model's reply leaves out the fact that answers the question best ({best[0].text})"
    return ""


def _contradicting_evidence(checks: list[Check]) -> list[str]:
    out: dict[str, None] = {}
    for c in checks:
        ev = c.evidence if isinstance(c.evidence, dict) else {}
        text = ev.get("text") if c.verdict == "contradicted" and ev.get("source") != "dialogue" else None
        if isinstance(text, str) and text:
            out.setdefault(text, None)
    return list(out)


def decide(state: TurnState, ctx: TurnContext) -> None:
    """After the checks and the refinement: keep the model's (last) reply, or replace it."""
    if state.composed:
        return
    reply = state.refined["response"] if state.refined else state.response
    state.answer_source = "llm" if reply else ""
    if ctx.config.answer != "auto" or state.cut:
        return
    checks = (state.refined.get("checks") or []) if state.refined else state.checks
    # Small talk and questions about the dialogue need no fact, but a contradiction is never shown.
    facts = facts_about_question(state) if state.plan in KNOWLEDGE_PLANS else []
    dialogue = (" ".join([t for who, t in state.history if who == "user"] + [state.text])
                if state.plan in KNOWLEDGE_PLANS else None)
    reason = replacement_reason(checks, reply, state.error, facts, asked_words(state), dialogue)
    if not reason:
        return
    # The model could not answer from the facts either: unless one of them is sure enough to be
    # the answer, or the question names its relation, say that the KG has no such fact, with the
    # closest ones, rather than present them as the answer.
    if relation_missing(state, ctx, facts, DOMINANT_P):
        say_missing(state, ctx, facts, below=DOMINANT_P, why=reason)
        return
    if facts:
        say_facts(state, ctx, facts, reason)
        return
    evidence = _contradicting_evidence(checks)
    if not evidence:  # invented, and nothing retrieved about the question
        say_not_found(state, ctx, why=reason)
        return
    # Contradicted, and nothing retrieved about the question: what the graph said instead is all we have.
    text = " ".join(e.rstrip(". ") + "." for e in evidence)
    _set(state, ctx, "facts", text, facts=evidence, reason=reason)
