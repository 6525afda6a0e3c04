"""One value per claim: a clause that packs several values becomes one claim per value.

Real models write "X is planned for Tuesday at 3 pm in Room B", "X runs from 10 to 11",
"X (Room A, 2 pm)", "Sure Mei, X is ...". Judged whole, such a clause shows only its first wrong
value; split here, each value is judged (and shown in the Checks pane) on its own, with the
clause's subject and verb carried over. Works on masked text: entity names are single
placeholder words ("Xqaq"), so a name's own "in" or "and" is never a boundary.
"""

from __future__ import annotations

import re

PLACEHOLDER = re.compile(r"^Xq[a-z]+q$")
# Prepositions that open a value of their own ("on Monday", "at 3 pm", "in Room B", "to 11").
PREPOSITIONS = frozenset("on at in from to until till with by for during through since near".split())
_VALUE_WORDS = re.compile(
    r"^(?:\d[\w:.,/\-]*|(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tomorrow|tonight|yesterday|noon|midday|"
    r"midnight|jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|"
    r"nov(?:ember)?|dec(?:ember)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|half|quarter)$",
    re.IGNORECASE)
_TOKEN = re.compile(r"[^\s,;()]+|[,;()]")
# "Sure Mei,", "Hi Ravi!", "Alright, Mei —": a name addressed, never the subject of a claim.
OPENERS = (r"(?:sure(?:\s+thing)?|ok(?:ay)?|well|yes|yeah|no|alright|all right|right|hi|hello|hey|thanks|thank you|"
           r"of course|certainly|absolutely|great|good news|good question|great question|so|got it|happy to help|"
           r"no problem|sorry|you bet|glad you asked|done|all set|there you go|here you go)")
VOCATIVE = re.compile(rf"^(?:{OPENERS}[\s,!.:;\-—–]*)+(?P<name>(?-i:(?:Xq[a-z]+q|[A-Z][\w'’\-]+)(?:\s+[A-Z][\w'’\-]+)?))\s*[,!.:;—–]+\s*",
                      re.IGNORECASE)
OPENER_ONLY = re.compile(rf"^(?:{OPENERS}\s*[,!.:;—–-]+\s*)+", re.IGNORECASE)
BARE_VOCATIVE = re.compile(r"^(?P<name>Xq[a-z]+q|[A-Z][\w'’\-]+)\s*,\s+(?=(?:the|it|its|this|that|there|your|yes|no|"
                           r"Xq[a-z]+q)\b)")
FRONTED_VALUE = re.compile(r"^(?P<pp>(?:on|at|in|from|during|by)\s[^,]+?),\s+(?=\S)", re.IGNORECASE)
AVAILABILITY = re.compile(r"\b(?:free|busy|available|unavailable|occupied|booked up|fully booked)\b", re.IGNORECASE)
MARKER = re.compile(r"^(?:so|well|now|okay|ok|alright|anyway|basically|yes|yeah)\s+(?=(?:the|it|its|this|that|there|"
                    r"your|Xq[a-z]+q)\b)", re.IGNORECASE)


def strip_vocative(s: str, first_verb) -> str:
    """The clause without a leading address to the user: "Sure Mei, the X is ..." / "Done, Lars:
    X is booked" → "the X is ...". A bare leading name is an address only when a full clause
    follows with its verb before any comma ("Mei, the X starts at 8"; not "Fatima, the organizer,
    runs it")."""
    m = VOCATIVE.match(s)
    if m and first_verb(s[m.end():]) is not None and not _is_verb_at(s, m.start("name"), first_verb):
        return MARKER.sub("", s[m.end():])
    bare = OPENER_ONLY.match(s)
    if bare and first_verb(s[bare.end():]) is not None:
        s = s[bare.end():]
    m = BARE_VOCATIVE.match(s)
    rest = s[m.end():] if m else ""
    verb = first_verb(rest) if m else None
    if m and verb is not None and "," not in rest[:verb] and verb > 0:
        s = rest
    return MARKER.sub("", s)


def _is_verb_at(s: str, pos: int, first_verb) -> bool:
    return first_verb(s[pos:]) == 0


def _valueish(tok: str) -> bool:
    return bool(PLACEHOLDER.match(tok) or _VALUE_WORDS.match(tok) or tok[:1].isupper() or "@" in tok
                or re.search(r"\d", tok))


def atomize(claim: str, first_verb, is_verb_word) -> list[str]:
    """The claims of one clause, one value each (the clause itself when it has one value)."""
    body = claim.rstrip(" .!")
    end = claim[len(body):].strip()
    body, extra = _parentheses(body, first_verb)
    verb = first_verb(body)
    if verb is None:
        return [_finish(c, end) for c in _fragment(body)] + extra
    fronted = FRONTED_VALUE.match(body[:verb])
    if fronted and not AVAILABILITY.search(body) and any(_valueish(t) for t in fronted.group("pp").split()[1:]):
        # "On Monday, the seminar starts at 10": the fronted value is a claim of the clause too
        clause = body[fronted.end():]
        rest_verb = first_verb(clause)
        if rest_verb is not None:
            toks = [(m.start() + rest_verb, m.group(0)) for m in _TOKEN.finditer(clause[rest_verb:])]
            k = _verb_group(toks, is_verb_word)
            head = clause[:toks[k][0]].rstrip() if k < len(toks) else clause
            pp = fronted.group("pp")
            return (atomize(_finish(clause, end), first_verb, is_verb_word)
                    + [_finish(f"{head} {pp[0].lower()}{pp[1:]}", end)] + extra)
    toks = [(m.start() + verb, m.group(0)) for m in _TOKEN.finditer(body[verb:])]
    k = _verb_group(toks, is_verb_word)
    whole = _finish(body, end)
    if k >= len(toks):
        return [whole] + extra
    if AVAILABILITY.search(body) or any(t.islower() and t != "am" and is_verb_word(t) for _, t in toks[k:]):
        # "free at 2 pm on Thursday": one statement about one moment; "ends at 8:30, right before
        # Y starts": a clause inside, whose values are not this verb's
        return [whole] + extra
    head = body[:toks[k][0]].rstrip()
    rest = toks[k:]
    segments: list[list[tuple[int, str]]] = [[]]
    for i, (pos, tok) in enumerate(rest):
        low = tok.lower()
        # "..., Reading Group from 13:30 and Journal Club from 14:30": "and" opens the next object.
        new_object = low == "and" and _object_follows(rest, i + 1)
        if segments[-1] and (low in PREPOSITIONS or tok == "," or new_object):
            segments.append([])
        if tok != "," and not new_object:
            segments[-1].append((pos, tok))
    segments = [seg for seg in segments if seg]
    valued = [seg for seg in segments if any(_valueish(t) for _, t in seg)]
    if len(valued) < 2 or any(t.lower() in ("and", "but", "or", "who", "which", "that") and i + 1 < len(seg)
                              and is_verb_word(seg[i + 1][1]) for seg in segments for i, (_, t) in enumerate(seg)):
        return [whole] + extra
    # A segment with no value ("in the morning") stays with the value before it.
    merged: list[list[tuple[int, str]]] = []
    for seg in segments:
        if merged and not any(_valueish(t) for _, t in seg):
            merged[-1] = merged[-1] + seg
        else:
            merged.append(seg)
    # A segment without a preposition is the verb's object ("has Coffee Chat from 9 to 10"):
    # the values after it are its values, so each of their claims carries it.
    out: list[str] = []
    obj = ""
    for i, seg in enumerate(merged):
        while len(seg) > 1 and seg[-1][1].lower() in ("or", "and", "but"):
            seg = seg[:-1]
        text = body[seg[0][0]:seg[-1][0] + len(seg[-1][1])]
        if seg[0][1].lower() in PREPOSITIONS:
            out.append(_finish(f"{head} {obj} {text}", end))
            continue
        obj = text
        follows = i + 1 < len(merged) and merged[i + 1][0][1].lower() in PREPOSITIONS
        if not follows and any(_valueish(t) for _, t in seg):
            out.append(_finish(f"{head} {obj}", end))
    return out + extra


def _verb_group(toks: list[tuple[int, str]], is_verb_word) -> int:
    """Where the verb group ends: the verb and the verbs, particles and adverbs after it."""
    k = 1
    while k < len(toks) and (is_verb_word(toks[k][1]) or toks[k][1].lower() in ("not", "also", "currently", "usually",
                                                                                 "place", "being", "be", "been")):
        k += 1
    return k


def _object_follows(toks: list[tuple[int, str]], i: int) -> bool:
    """A name (capitalized words or a placeholder) then a preposition."""
    j = i
    while j < len(toks) and (PLACEHOLDER.match(toks[j][1]) or toks[j][1][:1].isupper()):
        j += 1
    return i < j < len(toks) and toks[j][1].lower() in PREPOSITIONS


def _parentheses(body: str, first_verb) -> tuple[str, list[str]]:
    """"the seminar (Room Alpha, 2 pm) starts ...": each value in brackets is a claim about the
    name just before them; the bracketed text leaves the main clause."""
    extra: list[str] = []
    while True:
        m = re.search(r"\s*\(([^()]*)\)", body)
        if not m:
            return body, extra
        before = body[:m.start()].split()
        owner = before[-1] if before and PLACEHOLDER.match(before[-1]) else None
        if owner is None:
            verb = first_verb(body[:m.start()])
            owner = body[:verb].strip() if verb else (body[:m.start()].strip() if len(before) <= 4 else None)
        if owner:
            for piece in re.split(r"\s*[,;]\s*|\s+and\s+", m.group(1)):
                if piece.strip() and any(_valueish(t) for t in piece.split()):
                    extra.append(_finish(f"{owner}: {piece.strip()}", "."))
        body = (body[:m.start()] + body[m.end():]).strip()


def _fragment(body: str) -> list[str]:
    """A verbless "X: Monday, 08:00, Room Delta" or "X — Monday at 8": one claim per value."""
    m = re.match(r"^(?P<head>[^:—–]+?)\s*(?::|\s[—–-])\s*(?P<rest>.+)$", body)
    if not m:
        return [body]
    pieces = [p for p in re.split(r"\s*[,;]\s*|\s+(?=(?:on|at|in|from|to|until|with)\s)", m.group("rest")) if p.strip()]
    if len(pieces) < 2:
        return [body]
    return [f"{m.group('head')}: {p.strip()}" for p in pieces]


def _finish(claim: str, end: str) -> str:
    claim = re.sub(r"\s+", " ", claim).strip(" ,;:")
    if claim and claim[0].islower():
        claim = claim[0].upper() + claim[1:]
    return claim + (end if claim and claim[-1] not in ".!?" else "")
