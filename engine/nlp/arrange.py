"""What a turn says about a meeting being arranged: that one starts ("can you set up a meeting
with Joyce"), its name ("call it status update", or the whole reply to "what would you like your
meeting to be called?"), that people are invited, and which words point at it ("it", "the
meeting"). Text only; the meeting itself lives in the dialogue graph (engine/meeting.py).
"""

from __future__ import annotations

import re

from engine.state import Mention

_EVENT_NOUN = r"(?:meeting|event|appointment|session|seminar|workshop|call|get-together)"
# "set up a meeting", "arrange another meeting", "book a new seminar", "set the meeting up"
START = re.compile(
    r"\b(?:set(?:\s+(?:me|us))?\s+up|schedule|arrange|organi[sz]e|book|create|plan|make|add|put|hold|"
    r"(?:like|want|need|love) to (?:have|get))\b[^.?!]{0,40}?"
    r"\b(?P<det>a|an|another|one more|a new|a second)\s+(?:(?:short|quick|new|second)\s+)?"
    r"(?P<noun>" + _EVENT_NOUN + r")\b(?!\s+rooms?\b)"
    r"|\bset\s+(?P<det2>the|a|that)\s+(?P<noun2>" + _EVENT_NOUN + r")\s+up\b",
    re.I)
# "I'd like a meeting with someone from Procurement", "we need a workshop": wanting one is asking for it.
WANTS = re.compile(r"\b(?:like|want|need)\s+(?P<det>a|an|another|a new)\s+(?P<noun>" + _EVENT_NOUN + r")\b(?!\s+rooms?\b)",
                   re.I)
# A room booked for the user is the room of a meeting ("can you book a meeting room for me at 2").
BOOKS_ROOM = re.compile(r"\b(?:book|reserve)\b[^.?!]{0,20}?\b(?:a|an)\s+(?:(?:meeting|conference)\s+)?rooms?\b", re.I)
ANOTHER = re.compile(r"\b(?:another|new|second|one more|other)\s+" + _EVENT_NOUN + r"\b", re.I)
# Words that give the meeting its name.
_NAMED = (r"(?:(?:let'?s|just|please|you can|could you|can you|i'?d like to|we'll)\s+)*"
          r"(?:call(?:ed)?|name|title)\s+(?P<obj>it|the meeting|the event|this meeting|that meeting|our meeting|"
          r"my meeting|her|him|them)\s+(?:as\s+)?"
          r"|\b(?:it|the meeting|the event|its name|the name)\s+(?:should|will|can|could|would|is going to|is|'s)?\s*"
          r"(?:be\s+)?(?:called|named|titled)\s+")
NAMING = re.compile(r"\b(?:" + _NAMED + r")(?P<name>[^.?!]+)", re.I)
NOT_A_NAME = frozenset({"anything", "nothing", "whatever", "something", "it"})
_LEADING = re.compile(r"^(?:(?:just|simply|a|an|the|only|something like)\s+)+", re.I)
# The system asks what the meeting should be called.
ASKS_NAME = re.compile(r"\b(?:(?:to )?be called|like to call|want to call|call (?:it|the meeting|the event|your meeting)|"
                       r"name (?:of|for) (?:your|the) (?:meeting|event)|what (?:should|shall|do) (?:i|we) "
                       r"(?:call|name)|(?:meeting|event) called(?=\s*\?))\b", re.I)
_ANSWER_FILLER = re.compile(r"^(?:(?:yes|yeah|ok|okay|sure|um|uh|hmm|so|well|please|it's|it is|"
                            r"it should be|call it|let's call it|i'd like|i would like)\b[,.]?\s*)+", re.I)
INVITE = re.compile(r"\b(?:invit\w*|add(?:ed)?|include|bring|with|send (?:an )?invitation)\b", re.I)
# The system confirms what it did or will do for the meeting.
CONFIRMS = re.compile(r"\b(?:i'?ll|i will|i'?ve|i have|i can|booked|scheduled|added|invited|created|set up|"
                      r"to confirm|is now on|sent)\b", re.I)
# The user's own meeting, as the system speaks of it ("I can schedule your meeting at 10").
YOURS = re.compile(r"\byour\s+(?:new\s+)?" + _EVENT_NOUN + r"\b", re.I)
YOUR_MEETING = re.compile(r"\b(?:your|the|this|that)\s+(?:new\s+)?" + _EVENT_NOUN + r"\b", re.I)
QUOTED = re.compile(r"[\"“]([^\"”]{2,80})[\"”]")
# "it" is the meeting in a turn that does something to it or says when or where it is.
IT_ACTIONS = re.compile(r"\b(?:call|name|set|book|schedule|move|put|have|hold|make|change|cancel|add|invite|"
                        r"start|end|keep|place|reserve)\b[^.?!]{0,20}\bit\b|\bit\s+(?:be|should|will|can|could|"
                        r"would|is going to|starts?|ends?)\b", re.I)
EVENT_DEFINITE = re.compile(r"\b(?:the|that|this|my|our|your|same)\s+(?:new\s+)?" + _EVENT_NOUN + r"\b", re.I)
PREVIOUS = re.compile(r"\b(?:the|that)\s+(?:previous|earlier|other|first)\s+(?:one|" + _EVENT_NOUN + r")\b", re.I)
YES_NO = frozenset({"yes", "no", "yeah", "yep", "nope", "ok", "okay", "sure", "correct", "right", "thanks",
                    "thank you", "perfect", "great", "fine"})


def starts(text: str) -> re.Match | None:
    """The words that start arranging a meeting, if the turn does."""
    return START.search(text) or WANTS.search(text)


def books_room(text: str) -> bool:
    """The turn asks to book a room for the user, which arranges a meeting in it."""
    return bool(BOOKS_ROOM.search(text))


def another(text: str) -> bool:
    """The turn asks for a further meeting ("another meeting"), not the one being arranged."""
    return bool(ANOTHER.search(text))


def named(text: str) -> tuple[int, int, str, tuple[int, int] | None] | None:
    """(start, end, name, span of the words naming the meeting: "it") of "call it X" / "it
    should be called X"; None when the turn names no meeting (or says "don't call it anything")."""
    m = NAMING.search(text)
    if m is None:
        return None
    raw = m.group("name")
    cut = _LEADING.match(raw)
    lead = cut.end() if cut else 0
    lead += len(raw[lead:]) - len(raw[lead:].lstrip(" ,;:'\"“”"))
    name = raw[lead:].rstrip(" ,;:'\"“”")
    if not name or name.split()[0].lower().strip(",;:.") in NOT_A_NAME:
        return None
    start = m.start("name") + lead
    obj = m.span("obj") if m.group("obj") else None
    return start, start + len(name), name, obj


def answered_name(text: str, asked: bool, mentions: list[Mention]) -> tuple[int, int, str] | None:
    """The whole reply as the meeting's name when the system just asked for it ("Action items
    discussion."): short, not a yes or no, not a time."""
    if not asked:
        return None
    cut = _ANSWER_FILLER.match(text)
    start = cut.end() if cut else 0
    rest = text[start:].strip()
    name = re.split(r"[.?!]", rest, maxsplit=1)[0].strip().strip(",;:'\"“”")
    if not name or len(name.split()) > 8 or name.lower() in YES_NO or name.lower().split()[0] in ("no", "not"):
        return None
    start = text.index(name, start)
    end = start + len(name)
    # a time is no name; a KG event's name may be (the new meeting may share it)
    if any(m.start < end and start < m.end for m in mentions if m.kind in ("time", "type")):
        return None
    return start, end, name


def asks_name(system_text: str) -> bool:
    """The system asks what the meeting should be called; one that says a name in quotes asks
    whether that name is right ("I'll call the meeting "networks workshop". Is that correct?")."""
    return bool(ASKS_NAME.search(system_text)) and "?" in system_text and quoted_name(system_text) is None


def quoted_name(system_text: str) -> str | None:
    """The name a system confirmation gives the meeting in quotes ("I'll call the meeting
    "networks workshop""), the last one said."""
    found = QUOTED.findall(system_text)
    return found[-1].strip() if found else None


def invites(text: str) -> bool:
    return bool(INVITE.search(text))


def confirms(system_text: str) -> bool:
    return bool(CONFIRMS.search(system_text))


def meeting_mentions(text: str, mentions: list[Mention]) -> list[Mention]:
    """Mentions of a user turn that may point at the meeting being arranged: "it" when the turn
    does something to it, and "the meeting" / "that meeting" / "my meeting"."""
    out = []
    for m in mentions:
        words = m.text.lower()
        if m.kind == "pronoun" and words in ("it", "its") and IT_ACTIONS.search(text):
            out.append(m)
        elif m.kind == "definite" and EVENT_DEFINITE.fullmatch(m.text) and "event" in (m.value or ()):
            out.append(m)
    return out


def start_mention(text: str, match: re.Match) -> Mention:
    """The words "a meeting" of a turn that starts arranging one."""
    det = "det" if match.group("det") else "det2"
    noun = "noun" if match.group("noun") else "noun2"
    return Mention(text=text[match.start(det):match.end(noun)], start=match.start(det), end=match.end(noun),
                   kind="definite", value=("event",))
