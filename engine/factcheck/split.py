"""Deterministic atomic-fact splitter: a reply becomes the single claims it makes.

Complete sentences are split at coordination ("X is in Room A and starts at 10" → two claims,
the subject carried over), at lists ("X attends A, B and C" → three claims sharing the frame)
and at non-restrictive relative clauses ("X, who works in Biology, organizes Y"). Questions,
greetings and fragments are kept whole; markdown markers are dropped; a fenced code block is
one fragment. Nothing is added that the reply did not say: a claim is made of the reply's own
words (a carried subject, a possessive "'s" for "whose", and singular agreement for a list of
subjects are the only changes).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.factcheck import clauses
from engine.factcheck.atoms import atomize, strip_vocative

Spans = list[tuple[int, int]]

_IRREGULAR = ("is are was were be been being am 's 're has have had having do does did done "
              "will would can could shall should may might must began begun ran led took taken "
              "held born died wrote written won went gone came sat met taught built grew sang sung "
              "spoke spoken bought brought chose chosen knew known left lost made paid said saw seen "
              "sent sold told thought became become gave given got flew flown fell fallen drove driven "
              "ate eaten found fought kept lay lain meant rose risen stood understood wore worn").split()
_LEMMAS = ("start begin end finish organize organise host run lead attend join work belong take hold "
           "locate die direct write play star win receive marry live meet teach study cost include "
           "contain go come sit chair book reserve schedule plan present manage supervise call serve "
           "produce compose release publish found create design speak sing act appear follow border "
           "flow measure weigh score coach represent nominate award graduate move visit open close "
           "last share use own occupy report belong cover span need want like love prefer recommend "
           "think believe know seem look sound offer help invite arrive leave happen occur begin "
           "stand fall remain become build grow know mean lie rise sell buy pay tell say see give "
           "get keep make bring send fly drive eat fight wrap kick front draw headline pull hail sign tour "
           "debut head shoot score").split()
_NOUNISH_BASE = {"book", "call", "plan", "present", "star", "score", "coach", "award", "act", "open", "close",
                 "last", "end", "start", "work", "play", "study", "design", "release", "cost", "meet", "run",
                 "found", "lead", "need", "use", "help", "offer", "host", "chair", "report", "cover", "span",
                 "stand", "fall", "look", "sound", "move", "visit", "love", "like", "share", "want", "rise",
                 "lie", "mean", "flow", "border", "measure", "weigh", "represent", "appear", "fly"}


def _inflections(lemma: str) -> set[str]:
    out = {lemma + ("es" if lemma.endswith(("s", "sh", "ch", "o", "x")) else "s")}
    stem = lemma[:-1] if lemma.endswith("e") else lemma
    if lemma.endswith("y") and lemma[-2:-1] not in "aeiou":
        out |= {lemma[:-1] + "ies", lemma[:-1] + "ied"}
        out.discard(lemma + "s")
    else:
        out.add(stem + "ed")
    out.add(stem + "ing")
    if lemma in ("run", "plan", "star", "sit", "begin", "win", "get", "put"):
        out.add(lemma + lemma[-1] + "ing")
        out.add(lemma + lemma[-1] + "ed")
    return out


VERBS: set[str] = set(_IRREGULAR)
for _lemma in _LEMMAS:
    VERBS |= _inflections(_lemma)
    if _lemma not in _NOUNISH_BASE:
        VERBS.add(_lemma)
VERBS -= {"meeting", "meetings", "building", "buildings", "offering", "painting", "reading", "writing",
          "opening", "closing", "ending", "booking", "bookings", "planning", "findings", "founding",
          "leads", "calls", "plans", "stars", "scores", "awards", "books", "costs", "ends", "starts",
          "works", "plays", "acts", "studies", "designs", "releases", "visits", "uses", "needs",
          "offers", "reports", "shares", "looks", "sounds", "moves", "falls", "flows", "borders", "measures"}
# Plural-looking forms that are verbs right after a subject ("X starts at 10", "Y ends at 11").
VERBS_AFTER_SUBJECT = {"starts", "ends", "works", "plays", "leads", "calls", "plans", "stars", "costs",
                       "studies", "designs", "visits", "uses", "needs", "offers", "reports", "shares",
                       "looks", "sounds", "moves", "falls", "flows", "borders", "measures", "acts"}

SUBJECT_PRONOUNS = {"i", "you", "he", "she", "it", "we", "they", "there", "this", "that", "these", "those"}
DISCOURSE = re.compile(r"^(?:(?:yes|yeah|no|sure|ok|okay|well|great|perfect|alright|all right|certainly|"
                       r"of course|done|right|so|also|actually|unfortunately|sorry)\s*[,:;!.—–-]+\s*)+(?=\S)",
                       re.IGNORECASE)
FRONTED = re.compile(r"^(?:at|on|in|from|by|for|during|after|before|until|since|today|tomorrow|tonight|this|next|"
                     r"right now|based on|according to|as for|with|without|because|if|when|while|although)\b",
                     re.IGNORECASE)
ABBREVIATIONS = {"mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "vs", "etc", "e.g", "i.e", "a.m", "p.m",
                 "no", "inc", "ltd", "co", "mt", "approx", "dept", "fig", "ca", "cf", "u.s", "u.k"}
GREETINGS = re.compile(r"^(hi|hello|hey|good (morning|afternoon|evening)|goodbye|bye|thanks|thank you|"
                       r"you're welcome|you are welcome|welcome|have a nice day|see you)\b", re.IGNORECASE)

_WORD = re.compile(r"[\w][\w'’\-.@+]*[\w]|[\w]")
_CODE_FENCE = re.compile(r"```.*?(?:```|$)|~~~.*?(?:~~~|$)", re.DOTALL)
_MD_LINE = re.compile(r"^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+•]\s+|\d{1,3}[.)]\s+)")
_EMPHASIS = re.compile(r"(\*\*|__)(.+?)\1|(?<![\w*])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![\w*])|`([^`\n]+)`")
# "A, B, C and 9 more": a list cut short names its items; the count of the rest is no claim
_REMAINDER = re.compile(r",\s*(?P<last>[^,]+?)\s+and\s+\d+\s+(?:more|others)\b(?P<end>[.!]?)$", re.IGNORECASE)
_PROTECTED = (
    re.compile(r"\bbetween\s+\S+(?:\s+(?:am|pm|a\.m\.|p\.m\.))?\s+and\s+\S+", re.IGNORECASE),
    re.compile(r"\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\b(?![:.]\d)"
               r"|\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,\s+[A-Z][a-z]+\s+\d{1,2}\b"),
    re.compile(r"\b[A-Z][a-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?,\s+\d{4}\b"),
    re.compile(r"\b(?:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)\.?,\s+[A-Z][a-z]{2,8}\.?\s+\d{1,2}\b"),
    re.compile(r"\d{1,3}(?:,\d{3})+"),
)
MAX_CLAIMS = 400  # a 20,000-character reply still checks in well under a second


def sentences(text: str) -> list[str]:
    """Sentences of plain text: boundaries at . ! ? (not after abbreviations, initials, inside
    numbers, times, e-mails) and at line breaks."""
    out: list[str] = []
    for line in re.split(r"\n+", text):
        line = line.strip()
        start = 0
        for m in re.finditer(r"[.!?]+[\"')\]]*(?=\s+[\"'(\[]?[A-Z0-9ÀÁÂÄÅÆÇÈÉÊËÌÍÎÏÑÒÓÔÖØÙÚÛÜÝŒŠŽ])", line):
            before = line[start:m.start()].split()
            last = before[-1].lower().rstrip(".") if before else ""
            if m.group(0).startswith(".") and (last in ABBREVIATIONS or (len(last) == 1 and last.isalpha())):
                continue
            out.append(line[start:m.end()].strip())
            start = m.end()
        rest = line[start:].strip()
        if rest:
            out.append(rest)
    return [s for s in out if s]


def _is_verb(tokens: list[str], i: int) -> bool:
    word = tokens[i].lower()
    if word in VERBS:
        return True
    prev = tokens[i - 1] if i else ""
    nxt = tokens[i + 1].lower() if i + 1 < len(tokens) else ""
    if prev.lower() in ("and", "but", "then") and _UNKNOWN_VERB.match(tokens[i]) and nxt in _PARTICLES:
        return True  # "... and wraps up at 9"
    if (_PLACEHOLDER.match(prev) or prev[:1].isupper() and prev.lower() not in SUBJECT_PRONOUNS
            or prev.lower() in ("he", "she", "it", "they")) and _UNKNOWN_VERB.match(tokens[i]) and word not in _NOT_VERBS:
        return True  # a name or a pronoun then "fronts", "bakes", "draws": a verb the lists do not know
    if (i == 0 and word.endswith("ed") and len(word) > 4 and nxt in _PARTICLES and word not in _NOT_VERBS
            and not FRONTED.match(f"{word} {nxt}")):
        return True  # "... and originated in France", ", formed in 2009,": a predicate the lists do not know
    if word in VERBS_AFTER_SUBJECT:
        if i == 0:  # a coordinated predicate ("... and ends at 11") or a relative clause body
            return True
        prev = tokens[i - 1]
        if i == 2 and tokens[0].lower() in ("the", "a", "an", "this", "that", "his", "her", "their", "its"):
            return True  # "The film stars ..."
        return prev[:1].isupper() or prev.lower() in SUBJECT_PRONOUNS or prev.lower() in ("also", "then", "now")
    return False


_PLACEHOLDER = re.compile(r"^Xq[a-z]+q$")
_UNKNOWN_VERB = re.compile(r"^[a-z]{3,}(?:[^su]s|ed)$")
_PARTICLES = frozenset("up off out down in at on by from to with for about around".split())
_NOT_VERBS = frozenset("its this thus has was yes plus bus gas less news always perhaps towards across".split())


def _tokens(text: str) -> list[re.Match]:
    return list(_WORD.finditer(text))


def first_verb(text: str) -> int | None:
    """Character offset of the first verb of `text`, or None (a fragment)."""
    matches = _tokens(text)
    words = [m.group(0) for m in matches]
    for i, m in enumerate(matches):
        if _is_verb(words, i):
            return m.start()
    return None


def _is_clause(part: str) -> bool:
    """An independent clause: a subject (pronoun, name, or noun phrase) then a verb."""
    matches = _tokens(part)
    if not matches:
        return False
    words = [m.group(0) for m in matches]
    first = words[0].lower()
    if _is_verb(words, 0):
        return False
    if first in SUBJECT_PRONOUNS or first in ("my", "your", "his", "her", "its", "our", "their", "the", "a", "an"):
        return any(_is_verb(words, i) for i in range(1, min(len(words), 7)))
    if words[0][:1].isupper():
        return any(_is_verb(words, i) for i in range(1, min(len(words), 7)))
    return False


def _separators(sentence: str) -> list[tuple[int, int, str]]:
    found = []
    # "two and a half hours" is one value
    for m in re.finditer(r"\s*;\s*|,?\s+(?:and|but)\s+(?!a half\b)(?:also\s+)?|,\s+|:\s+", sentence):
        kind = "and" if re.search(r"\b(and|but)\b", m.group(0)) else (m.group(0).strip()[:1] or ",")
        if kind == ":":
            after = re.search(r"\s*;\s*|,?\s+(?:and|but)\s+|,\s+|$", sentence[m.end():])
            assert after is not None  # the pattern's "$" always matches
            if not _is_clause(sentence[m.end():m.end() + after.start()]):
                continue  # "has 4 members: A, B" frames a list; the colon is not a boundary
        found.append((m.start(), m.end(), kind))
    # A comma separates only in a list ("A, B and C") or before an independent clause.
    out = []
    for i, (a, b, kind) in enumerate(found):
        if kind == ",":
            later_and = any(k == "and" for _, _, k in found[i + 1:])
            nxt = next((x for x in found[i + 1:]), None)
            part = sentence[b:nxt[0] if nxt else len(sentence)]
            words = [m.group(0) for m in _tokens(part)]
            opens = words and (_is_verb(words, 0) or words[0].lower() in ("a", "an", "the")  # predicate or apposition
                               or re.match(r"^(?:Xq[a-z]+q|[A-Z][\w\-]*)['’]s$", words[0]))  # "Warsaw, Poland's capital, is"
            if not later_and and not _is_clause(part) and not opens:
                continue
        out.append((a, b, kind))
    return out


def _agree(predicate: str) -> str:
    """Singular agreement for a predicate whose list subject was split ("are" → "is")."""
    return re.sub(r"^(\s*)(are|were|have)\b", lambda m: m.group(1) + {"are": "is", "were": "was", "have": "has"}[m.group(2)],
                  predicate)


def _item_start(part0: str) -> int | None:
    """Where the first list item begins in the clause that frames the list."""
    colon = part0.find(": ")
    if colon >= 0:
        return colon + 2
    verb = first_verb(part0)
    if verb is None:
        return None
    after = [m for m in _tokens(part0) if m.start() > verb]
    for m in after:
        if m.group(0)[:1].isupper() or m.group(0)[:1].isdigit():
            return m.start()
    # No name after the verb: the item starts after the verb and its function words.
    for m in after:
        if m.group(0).lower() not in ("also", "the", "a", "an", "by", "in", "at", "of", "to", "with", "for", "on", "as"):
            return m.start()
    return None


def _placeholder(i: int) -> str:
    letters = ""
    while True:
        letters = chr(97 + i % 26) + letters
        i //= 26
        if not i:
            return "Xq" + letters + "q"


def _mask(sentence: str, protected: Spans) -> tuple[str, dict[str, str]]:
    """Names and dates become single placeholder words, so "Fight Club" is not read as a verb
    and "Research and Development" is not cut at its "and"."""
    merged: Spans = []
    for a, b in sorted(protected):
        if merged and a < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    out, names, pos = [], {}, 0
    for i, (a, b) in enumerate(merged):
        key = _placeholder(i)
        names[key] = sentence[a:b]
        out += [sentence[pos:a], key]
        pos = b
    out.append(sentence[pos:])
    return "".join(out), names


LEADING_HEDGE = re.compile(r"^(?:i'?m not (?:completely |entirely |totally |quite |100% |a hundred percent )?sure,?\s*"
                           r"(?:but\s+)?(?:i think\s+)?|as far as i know,?\s*|if i'?m not mistaken,?\s*|"
                           r"if i remember (?:correctly|rightly),?\s*|i (?:think|believe|guess|reckon)\s+(?:that\s+)?|"
                           r"i'?m (?:fairly |pretty )?sure (?:that\s+)?)(?=\S)", re.IGNORECASE)
TRAILING_HEDGE = re.compile(r",\s*(i (?:think|believe|guess|reckon)|if i'?m not mistaken|as far as i know|i'?m told)"
                            r"\s*(?P<end>[.!]?)$", re.IGNORECASE)
_LOWER_FIRST = frozenset("the a an it its he his she her they their this that these those there".split())


def _hedged(s: str) -> tuple[str, str]:
    """(hedge, the rest): "As far as I know, X won ..." is a claim that X won, said with a hedge
    that each of its claims keeps ("I believe" said after the claim is put before it)."""
    lead = LEADING_HEDGE.match(s)
    if lead and lead.end() < len(s):
        return s[:lead.end()], s[lead.end():]
    trail = TRAILING_HEDGE.search(s)
    if trail and trail.start() > 0:
        return trail.group(1)[:1].upper() + trail.group(1)[1:] + " ", s[:trail.start()] + trail.group("end")
    return "", s


def _with_hedge(hedge: str, claim: str) -> str:
    if not hedge:
        return claim
    first = claim.split(" ", 1)[0]
    if first.lower() in _LOWER_FIRST:
        claim = claim[0].lower() + claim[1:]
    return hedge + claim


def _prepared(sentence: str, protected: Spans) -> tuple[str, dict[str, str], str]:
    """(the sentence masked, without address, discourse marker or hedge; the masked names; the hedge)."""
    masked, names = _mask(sentence, protected)
    s = _REMAINDER.sub(r" and \g<last>\g<end>", masked.strip())
    if not s.endswith("?"):
        s = strip_vocative(s, first_verb)
    s = DISCOURSE.sub("", s).strip() or s
    hedge, s = _hedged(s)
    return s, names, hedge


# Where a sentence may join clauses: a punctuation mark or a word that can open or link one. A
# sentence with none of them is one clause whatever its parse says, and is not parsed (the parse
# is most of the time a check takes).
_JOINS = re.compile(r"[,;:()\u2013\u2014]|\b(?:and|but|or|nor|who|whom|whose|which|that|where|when|while|whereas|as|"
                    r"because|since|after|before|if|unless|although|though|until|so|then)\b", re.IGNORECASE)


_AUXILIARY = frozenset("is are was were be been being has have had do does did will would can could may might must "
                       "shall should".split())
_ADVERBS = frozenset("also not only still currently now never already".split())  # inside a verb group


def joins(masked: str) -> bool:
    """May the masked sentence hold more than one clause: a word of `_JOINS`, a second verb
    group, or a verb with no auxiliary that may be a participle after a noun ("Xqaq based in
    Xqbq also sponsors ...", "a fern kept in ...": it opens a clause of its own)? "Xqaq was
    released in 1997" and "Xqaq stars Xqbq" are one clause each."""
    if _JOINS.search(masked):
        return True
    words = [w for w in re.findall(r"[A-Za-z']+", masked) if w.lower() not in _ADVERBS]
    verbs = [i > 0 and w.islower() and (_verb_word(w) or w.endswith(("ed", "en", "ing"))) for i, w in enumerate(words)]
    starts = [i for i, v in enumerate(verbs) if v and not verbs[i - 1] and words[i - 1] not in _AUXILIARY]
    # a verb group with no auxiliary that is no present tense may be a participle after a noun
    return len(starts) > 1 or any(not words[i].endswith("s") for i in starts)


def split_sentence(sentence: str, protected: Spans, parses: dict[str, object] | None = None) -> list[str]:
    """The atomic claims of one sentence (the sentence itself when it is a question, a greeting,
    a fragment or has nothing to split). `parses` holds parses made beforehand, by prepared text."""
    s, names, hedge = _prepared(sentence, protected)
    pieces = None if s.endswith("?") or GREETINGS.match(s) or not joins(s) else _parsed_clauses(s, (parses or {}).get(s))
    if s.endswith("?") or GREETINGS.match(s):
        claims = [s]
    elif pieces and len(pieces) > 1:
        claims = [c for piece in pieces for c in atomize(piece, first_verb, _verb_word)]
    elif first_verb(s) is None:
        claims = atomize(s, first_verb, _verb_word)
    else:  # one clause by the parse (or no parser): the word lists split values and lists
        claims = []
        # a sound parse has split any relative clause and "as" role it found ("the man who ...",
        # "works only as a sculptor" are one claim)
        for piece in [s] if pieces else _relative_clauses(s):
            claims.extend(c for atom in _atoms(piece) for c in ([atom] if pieces else _as_role(atom)))
    claims = [_with_hedge(hedge, c) for c in claims]
    if names:
        rx = re.compile("|".join(re.escape(k) for k in names))
        claims = [rx.sub(lambda m: names[m.group(0)], c) for c in claims]
    return [c[0].upper() + c[1:] if c[0].islower() else c for c in claims if c]


def _parsed_clauses(masked: str, doc: object | None = None) -> list[str] | None:
    """The clauses of a masked sentence by its dependency parse (`doc`, or parsed here); [] when
    the parse has no verb or looks wrong (the word lists then judge); None without a parser."""
    doc = doc if doc is not None else clauses.parse(masked)
    if doc is None:
        return None
    if not clauses.has_verb(doc) or not clauses.sound(doc):
        return []
    end = masked.rstrip()[-1:] if masked.rstrip().endswith((".", "!")) else ""
    return [_finish(c).rstrip(".!") + end for c in clauses.clause_texts(doc)]


_AS_ROLE = re.compile(r"^(?P<main>.+?\S)\s+as\s+(?P<role>(?:an?|the)\s+[^,;]+?)(?P<end>[.!]?)$")


def _as_role(claim: str) -> list[str]:
    """"X plays for Y as a centre-back": two claims, one that X plays for Y, one of the role."""
    m = _AS_ROLE.match(claim)
    if not m:
        return [claim]
    main = m.group("main")
    verb = first_verb(main)
    words = main.split()
    if verb is None or not main[verb:].split()[1:] or _verb_word(words[-1]) or words[-1].endswith("ed") or words[-1].lower() in (
            "such", "well", "known", "same", "much", "soon", "long", "far"):
        return [claim]  # "works as a chef", "is served as a main course", "such as a ...": one claim
    verb_word = main[verb:].split()[0]
    subject = main[:verb].strip()
    return [_finish(main + m.group("end")), _finish(f"{subject} {verb_word} as {m.group('role')}{m.group('end')}")]


def _verb_word(word: str) -> bool:
    return word.lower() in VERBS or word.lower() in VERBS_AFTER_SUBJECT


def _atoms(piece: str) -> list[str]:
    """Clauses first when the sentence joins clauses ("X fronts Y and was born in Z"), then one
    value per claim; otherwise one value per claim first, then the lists inside each value
    ("with A and B"), so a list never borrows a frame from an earlier value."""
    if _clause_coordinated(piece):
        return [a for part in _coordination(piece) for a in atomize(part, first_verb, _verb_word)]
    return [c for atom in atomize(piece, first_verb, _verb_word) for c in _coordination(atom)]


def _clause_coordinated(s: str) -> bool:
    seps = _separators(s)
    for i, (_, b, _) in enumerate(seps):
        part = s[b:seps[i + 1][0] if i + 1 < len(seps) else len(s)]
        words = [m.group(0) for m in _tokens(part)]
        if words and (_is_verb(words, 0) or (words[0].lower() in ("also", "then") and len(words) > 1
                                              and _is_verb(words, 1)) or _is_clause(part)):
            return True
    return False


def _relative_clauses(s: str) -> list[str]:
    copula = re.match(r"(?P<head>.+?\b(?:is|was|are|were)\s+(?:an?|the)\s+[^,;]+?)\s+(?:who|that|which)\s+"
                      r"(?P<body>[^,;]+?)(?P<end>[.!]?)$", s)
    if copula and first_verb(copula.group("head")) is not None and first_verb(copula.group("body")) == 0:
        # "X is a sprinter who won eight medals": the relative clause says something of X.
        subject = copula.group("head")[:first_verb(copula.group("head"))].strip()
        return [copula.group("head") + ".", f"{subject} {copula.group('body')}."]
    m = re.search(r"(?P<np>(?:[A-Z][\w'’\-]*\s+){0,4}[A-Z][\w'’\-]*|\b(?:the|this|that)\s+\w+),\s+"
                  r"(?P<rel>who|which|whose)\s+(?P<body>[^,]+?)(?P<end>,\s+|[.!]?$)", s)
    if not m or first_verb(m.group("body")) is None:
        return [s]
    np = m.group("np").strip()
    rest = s[:m.end("np")] + (" " + s[m.end():] if m.group("end").startswith(",") else s[m.end("body"):])
    rel_claim = (np + "'s " if m.group("rel") == "whose" else np + " ") + m.group("body").strip()
    main = re.sub(r"\s+", " ", rest).strip()
    if first_verb(main) is None:  # "..., which is ..." at the end of a clause with no verb of its own
        return [s]
    return [main, rel_claim.rstrip(".!") + "."]


def _coordination(s: str) -> list[str]:
    seps = _separators(s)
    if not seps:
        return [s]
    bounds = [0] + [b for _, b, _ in seps]
    ends = [a for a, _, _ in seps] + [len(s)]
    parts = [s[a:e].strip(" ,;") for a, e in zip(bounds, ends, strict=False)]
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return [s]
    head = parts[0]
    head_verb = first_verb(head)
    if head_verb is None and seps[0][2] == ":":
        return [s]  # "Lisa Wilson: the review starts at 10" — a label, not a subject
    if head_verb is None:
        return _subject_list(s, parts)
    subject = head[:head_verb].strip()
    start = _item_start(head)
    claims = [_finish(head)]
    items: list[str] = []  # noun phrases waiting to see whether a clause makes them its subjects
    for part in parts[1:]:
        words = [m.group(0) for m in _tokens(part)]
        if not words:
            continue
        if _is_verb(words, 0) or words[0].lower() in ("also", "then") and len(words) > 1 and _is_verb(words, 1):
            claims += _flush(items, head, start)
            claims.append(_finish(f"{subject} {part}" if subject else part))
        elif _is_clause(part):
            verb = first_verb(part)
            if items and verb is not None and not part[:verb].strip().lower() in SUBJECT_PRONOUNS:
                # "..., and A and B will attend": the waiting items share this clause's predicate.
                claims += [_finish(f"{item} {_agree(part[verb:])}") for item in items]
                items = []
            claims += _flush(items, head, start)
            claims.append(_finish(part))
        else:
            items.append(part)
    return claims + _flush(items, head, start)


def _flush(items: list[str], head: str, start: int | None) -> list[str]:
    """List items that belong to the head's frame: "X attends A, B and C"."""
    out = []
    for item in items:
        frame = head[:start] if start is not None else ""
        if re.match(r"(?:an?|the)\s", item, re.IGNORECASE):  # "is the organizer, the host": one article
            frame = re.sub(r"\b(?:an?|the)\s+$", "", frame, flags=re.IGNORECASE)
        out.append(_finish(frame + item))
    items.clear()
    return out


def _subject_list(s: str, parts: list[str]) -> list[str]:
    """A list of subjects: "A, B and C are attending X" — the predicate comes with the last item."""
    last = parts[-1]
    verb = first_verb(last)
    if len(parts) == 3 and verb == 0 and (re.match(r"(?:an?|the)\s|(?:Xq[a-z]+q|[A-Z][\w\-]*)['’]s\s", parts[1])
                                          or first_verb(parts[1]) == 0):
        # "X, an American actor born in ..., starred in Y", "X, Y's capital, is ...", "X, formed
        # in 2009, is ...": an apposition or a participle says something of X, not a second subject.
        return [_finish(f"{parts[0]} {last}"), _finish(f"{parts[0]}, {parts[1]}")]
    if verb is None or any(_is_clause(p) for p in parts[1:-1]):
        return [s]
    predicate = last[verb:]
    subjects = parts[:-1] + [last[:verb].strip()]
    frame = ""
    if FRONTED.match(subjects[0]):
        # "At 13:00 today, Room A and Room B are free": the fronted phrase frames every item.
        if len(subjects) <= 2:
            return [s]
        frame = subjects.pop(0) + ", "
    return [_finish(f"{frame}{subj} {_agree(predicate)}") for subj in subjects if subj]


def _finish(claim: str) -> str:
    claim = re.sub(r"\s+", " ", claim).strip(" ,;:")
    if claim and claim[0].islower():
        claim = claim[0].upper() + claim[1:]
    if claim and claim[-1] not in ".!?":
        claim += "."
    return claim


def _strip_markdown(line: str) -> str:
    line = _MD_LINE.sub("", line)
    line = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", line)  # [text](url)
    return _EMPHASIS.sub(lambda m: m.group(2) or m.group(3) or m.group(4) or "", line)


_LABEL_LINE = re.compile(r"^(?P<label>[A-Za-z][A-Za-z /&]{0,25}?)\s*:\s+(?P<value>\S.*)$")


def _topic_lines(raw: list[str], protect: Callable[[str], Spans] | None) -> list[str]:
    """Markdown stripped; a line that introduces a list ("Here are the details for X:",
    "**X**:") names the topic of the bullets under it, and each bullet ("- Date: Monday",
    "- in Room B") becomes a claim about that topic. The introducing line itself states nothing."""
    out: list[str] = []
    topic = None
    for line in raw:
        bullet = bool(re.match(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+", line))
        text = _strip_markdown(line).strip()
        if text.endswith(":") and not bullet:
            head = text[:-1].strip()
            spans = list(protect(head)) if protect else []
            named = head[spans[-1][0]:spans[-1][1]] if spans else None
            runs = re.findall(r"(?:[A-Z][\w'’\-]*)(?:\s+[A-Z][\w'’\-]*)*", head)
            topic = named or (runs[-1] if runs and (len(runs[-1].split()) > 1 or runs[-1] != head.split()[0]) else None)
            if topic is not None:
                continue
        elif topic and bullet:
            labelled = _LABEL_LINE.match(text)
            if labelled and len(labelled.group("label").split()) <= 3:
                text = f"{topic} {labelled.group('label').lower()}: {labelled.group('value')}"
            elif first_verb(text) is None:
                text = f"{topic}: {text}"
        elif text:
            topic = None
        out.append(text)
    return out


_LEAD_ITEMS = re.compile(r"^([^:;]{1,200}):\s+(.+;.+)$", re.DOTALL)


def _lead_items(sentence: str) -> list[str]:
    """ "Ashcombe Albion: founding year 1944; stadium Saltworks Arena." (the composer's way of
    saying several facts of one entity) is one sentence per item, each with its lead."""
    m = _LEAD_ITEMS.match(sentence)
    if not m:
        return [sentence]
    lead, items = m.group(1).strip(), [i.strip() for i in m.group(2).split(";") if i.strip()]
    end = "." if sentence.rstrip().endswith(".") else ""
    return [f"{lead}: {i.rstrip('.')}{end}" for i in items]


def split_claims(text: str, protect: Callable[[str], Spans] | None = None) -> list[str]:
    """The atomic claims of a reply, in order. `protect(sentence)` gives spans (entity names)
    that must not be split at their "and" or commas."""
    if not text or not text.strip():
        return []
    claims: list[str] = []
    pos = 0
    chunks: list[tuple[str, bool]] = []
    for m in _CODE_FENCE.finditer(text):
        chunks.append((text[pos:m.start()], False))
        chunks.append((m.group(0), True))
        pos = m.end()
    chunks.append((text[pos:], False))
    for chunk, is_code in chunks:
        if is_code:
            body = chunk.strip("`~ \n")
            if body.strip():
                claims.append(chunk.strip())
            continue
        lines = _topic_lines(chunk.split("\n"), protect)
        units = []
        for whole in sentences("\n".join(lines)):
            for sentence in _lead_items(whole):
                protected = list(protect(sentence)) if protect else []
                for rx in _PROTECTED:
                    protected += [(m.start(), m.end()) for m in rx.finditer(sentence)]
                units.append((sentence, protected))
        # the parser reads a batch of sentences faster than one at a time
        parses = clauses.parse_all([s for s in (_prepared(sentence, protected)[0] for sentence, protected in units[:MAX_CLAIMS])
                                    if joins(s)])
        for sentence, protected in units:
            claims.extend(split_sentence(sentence, protected, parses))
            if len(claims) >= MAX_CLAIMS:
                return claims[:MAX_CLAIMS]
    return claims
