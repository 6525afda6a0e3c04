"""Plan stage: which knowledge this turn needs.

"none" for greetings, thanks, farewells and chit-chat that name nothing (retrieval is skipped),
but for a bare "yes" to a question of the system ("Shall I give you her phone number?"): it takes
up what the question offered, and its subject is the question's;
"dialogue" for questions about the conversation itself ("what did I ask?", "who am I?");
"background" when the turn names entities or types and points back at nothing; "both" otherwise
(pronouns, first person, follow-ups that lean on earlier turns).
"""

from __future__ import annotations

import re

from engine.context import TurnContext, stage
from engine.state import Plan, TurnState

_CHITCHAT = re.compile(
    r"^\W*(?:(?:hi|hello|hey|hiya|howdy|good\s+(?:morning|afternoon|evening|day)|greetings|yo|"
    r"thanks?(?:\s+you)?(?:\s+(?:so|very)\s+much)?|thank\s+you(?:\s+(?:so|very)\s+much)?|thx|cheers|"
    r"(?:good)?bye|see\s+you(?:\s+later)?|have\s+a\s+(?:nice|good|great)\s+day|"
    r"ok(?:ay)?|great|perfect|cool|nice|awesome|sure|alright|all\s+right|got\s+it|"
    r"how\s+are\s+you(?:\s+doing)?(?:\s+today)?|nice\s+to\s+meet\s+you|that'?s\s+(?:all|it|great|fine)|"
    r"no(?:\s+thanks?)?|yes(?:\s+please)?|that\s+will\s+be\s+all|you'?re\s+welcome)"
    r"(?:[\s,!.]+(?:there|robot|again|a\s+lot|then|so\s+much))*[\s,!.?]*)+$",
    re.IGNORECASE)
_ABOUT_DIALOGUE = re.compile(
    r"\b(?:what\s+did\s+(?:i|you|we)\s+(?:just\s+)?(?:say|ask|tell|mention)|who\s+am\s+i|what(?:'s|\s+is)\s+my\s+name|"
    r"do\s+you\s+remember|repeat\s+(?:that|it|what)|what\s+were\s+we\s+(?:talking|discussing))\b",
    re.IGNORECASE)


_ACCEPTS = re.compile(r"^\W*(?:yes|yeah|yep|sure|ok(?:ay)?|alright|all\s+right|please\s+do|go\s+ahead)\b",
                      re.IGNORECASE)


def choose_plan(text: str, mention_kinds: list[str], asked: str = "") -> Plan:
    """`asked`: the system turn the user answers."""
    named = any(k in ("name", "type") for k in mention_kinds)
    pointing = any(k in ("pronoun", "definite", "first_person") for k in mention_kinds)
    if not named and _CHITCHAT.match(text.strip() or "hi"):
        return Plan.BOTH if asked.rstrip().endswith("?") and _ACCEPTS.match(text) else Plan.NONE
    if _ABOUT_DIALOGUE.search(text):
        return Plan.DIALOGUE
    if named and not pointing:
        return Plan.BACKGROUND
    return Plan.BOTH


def _report(state: TurnState) -> str:
    return state.plan


@stage("plan", report=_report)
def run(state: TurnState, ctx: TurnContext) -> None:
    kinds = [m.kind for m in state.mentions if m.entity or m.value is not None]
    state.plan = choose_plan(state.text, kinds, state.previous_system)
