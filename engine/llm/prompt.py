"""Every word kgchat says to the model, in one place: the answer prompt (with trimming to the
context window), the correction used when refining a reply, and the coreference-rewrite
prompt with the parser of its answer."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

ANSWER_INSTRUCTION = (
    "You are a helpful assistant in a conversation. Answer the user's last message fluently and briefly. "
    "Use only the numbered knowledge below and what was said in the dialogue; never state anything that "
    "contradicts the knowledge. If the knowledge does not cover the question, say that you do not know "
    "instead of guessing."
)
KNOWLEDGE_HEADER = "Knowledge:"
NO_KNOWLEDGE = "Knowledge: none was found for this message."
SMALL_TALK = "Knowledge: none is needed for this message (a greeting, thanks or small talk): reply politely and briefly."
RESOLVED_HINT = "The user's last message, with its references resolved: {text}"
CORRECTION = (
    "Your previous answer was: \"{reply}\"\n"
    "These claims of it disagree with the knowledge: {claims}. "
    "Answer again, keeping strictly to the knowledge."
)
CORRECTION_LOW_SUPPORT = (
    "Your previous answer was: \"{reply}\"\n"
    "Most of it is not supported by the knowledge. Answer again, keeping strictly to the knowledge."
)

REWRITE_INSTRUCTION = (
    "You resolve references in a dialogue. Do not answer any message.\n"
    "Rewrite the dialogue so that every turn can be understood on its own: replace each pronoun or vague "
    "reference (he, she, it, they, him, her, them, there, that meeting, the group, ...) with the name of what "
    "it refers to. Change nothing else.\n"
    "First write 'Reasoning:' and one short line per reference saying what it refers to and why. "
    "Then write 'Resolved dialogue:' followed by the dialogue, one line per turn, each starting with "
    "'User:' or 'System:'."
)
REWRITE_TURNS = 4  # the recent turns shown to the rewriter, the user's new message included

# What a message costs beyond its text in a chat template (role markers, separators).
MESSAGE_OVERHEAD = 8
ROLES = {"user": "user", "system": "assistant"}


# The prompt's own scaffolding, which a small model may copy to the head of its reply ("The
# user's last message, with references resolved: 2003").
_ECHO = re.compile(r"^\s*(?:(?:the )?user'?s (?:last )?message,? with (?:its )?references resolved|knowledge|answer)\s*:\s*",
                   re.I)


def unechoed(reply: str) -> str:
    """The reply without the prompt's scaffolding copied at its head."""
    while (m := _ECHO.match(reply)) and m.end() < len(reply):
        reply = reply[m.end():]
    return reply


def knowledge_block(facts: Sequence[str], small_talk: bool = False) -> str:
    if not facts:
        return SMALL_TALK if small_talk else NO_KNOWLEDGE
    return KNOWLEDGE_HEADER + "\n" + "\n".join(f"{i}. {fact}" for i, fact in enumerate(facts, 1))


def system_message(facts: Sequence[str], resolved: str = "", correction: str = "", small_talk: bool = False) -> str:
    parts = [ANSWER_INSTRUCTION, knowledge_block(facts, small_talk)]
    if resolved:
        parts.append(RESOLVED_HINT.format(text=resolved))
    if correction:
        parts.append(correction)
    return "\n\n".join(parts)


def correction_note(reply: str, contradicted: Sequence[str]) -> str:
    if contradicted:
        return CORRECTION.format(reply=reply, claims="; ".join(f'"{c}"' for c in contradicted))
    return CORRECTION_LOW_SUPPORT.format(reply=reply)


def answer_messages(text: str, history: Sequence[tuple[str, str]], facts: Sequence[str], *,
                    count_tokens: Callable[[str], int], budget: int, resolved: str = "",
                    correction: str = "", small_talk: bool = False) -> list[dict[str, str]]:
    """The chat messages for one answer, trimmed to `budget` prompt tokens.

    `facts` come best first; `small_talk` when the planner decided no knowledge is needed. What does not fit goes in this order: the oldest dialogue
    turns, then the weakest facts, and only then the start of the user's own message.
    """
    if resolved.strip().lower() == text.strip().lower():
        resolved = ""
    turns = [{"role": ROLES.get(speaker, "user"), "content": said} for speaker, said in history if said]
    kept = list(facts)

    def cost(content: str) -> int:
        return count_tokens(content) + MESSAGE_OVERHEAD

    turn_costs = [cost(t["content"]) for t in turns]
    empty = knowledge_block([], small_talk)
    fixed = cost(system_message([], resolved, correction, small_talk)) - count_tokens(empty)
    fact_costs = [count_tokens(f"{i}. {f}") + 1 for i, f in enumerate(kept, 1)]
    header = count_tokens(KNOWLEDGE_HEADER) if kept else count_tokens(empty)
    user = cost(text)

    def total() -> int:
        return fixed + header + sum(fact_costs) + sum(turn_costs) + user

    while turn_costs and total() > budget:
        turns.pop(0)
        turn_costs.pop(0)
    while kept and total() > budget:
        kept.pop()
        fact_costs.pop()
        if not kept:
            header = count_tokens(empty)
    while text and total() > budget:
        text = text[max(1, len(text) // 4):]  # the question is usually at the end: keep that
        user = cost(text)
    return ([{"role": "system", "content": system_message(kept, resolved, correction, small_talk)}] + turns
            + [{"role": "user", "content": text}])


def rewrite_messages(text: str, history: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
    recent = list(history)[-(REWRITE_TURNS - 1):] + [("user", text)]
    dialogue = "\n".join(f"{'System' if speaker == 'system' else 'User'}: {said}" for speaker, said in recent)
    return [{"role": "system", "content": REWRITE_INSTRUCTION},
            {"role": "user", "content": f"Dialogue:\n{dialogue}"}]


_MARKER = re.compile(r"resolved\s+dialogue\s*:?", re.IGNORECASE)
_TURN = re.compile(r"^(user|system)\s*:\s*(.*)$", re.IGNORECASE)
_DECORATION = re.compile(r"^[\s>*_#\-•\d.)]*")


def parse_rewrite(output: str, original: str) -> str | None:
    """The user's last message as the rewriter resolved it, or None when the output does not
    have the asked-for shape (no 'Resolved dialogue:' part, no user turn in it, or a line far
    longer than the message, which means the model answered or rambled instead)."""
    markers = list(_MARKER.finditer(output))
    if not markers:
        return None
    last_user = None
    for line in output[markers[-1].end():].splitlines():
        line = _DECORATION.sub("", line).replace("**", "").strip()
        match = _TURN.match(line)
        if match and match.group(1).lower() == "user":
            last_user = match.group(2).strip().strip('"“”\'').strip()
    if not last_user or len(last_user) > 3 * len(original) + 60:
        return None
    return last_user
