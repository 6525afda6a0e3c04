"""Spoken forms of written ones, as a recognizer transcribes them: numbers in words ("twenty
nineteen" for 2019), codes spelled out letter by letter ("kay ell four oh two" for KL402, "oh"
for zero) and names split into words ("de marco" for DeMarco). English number and letter names
only; which written form a run of words stands for is for the caller to decide (a word of the
KG's labels, a number the question asks about)."""

from __future__ import annotations

import re

UNITS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine".split())}
TEENS = {w: 10 + i for i, w in enumerate("ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen "
                                         "nineteen".split())}
TENS = {w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2)}
SCALES = {"hundred": 100, "thousand": 1000}
NUMBER_WORDS = frozenset(UNITS) | frozenset(TEENS) | frozenset(TENS) | frozenset(SCALES) | {"oh", "and"}
# How the letters are said when spelled out (each also stands for itself).
LETTER_NAMES = {
    "ay": "a", "bee": "b", "see": "c", "cee": "c", "dee": "d", "ee": "e", "ef": "f", "eff": "f", "gee": "g",
    "aitch": "h", "eye": "i", "jay": "j", "kay": "k", "el": "l", "ell": "l", "em": "m", "en": "n", "pee": "p",
    "cue": "q", "queue": "q", "ar": "r", "es": "s", "ess": "s", "tee": "t", "vee": "v", "ex": "x", "why": "y",
    "zed": "z", "zee": "z",
}
MAX_RUN = 6  # words one spoken form may take


def _two_digits(words: list[str]) -> int | None:
    """0-99 said as one or two words: "seven", "nineteen", "twenty", "forty two"."""
    if len(words) == 1:
        w = words[0]
        return UNITS.get(w, TEENS.get(w, TENS.get(w)))
    if len(words) == 2 and words[0] in TENS and words[1] in UNITS and words[1] != "zero":
        return TENS[words[0]] + UNITS[words[1]]
    return None


def _cardinal(words: list[str]) -> int | None:
    """A number said the long way: "two thousand and five", "three hundred twelve"."""
    total, current, seen = 0, 0, False
    for w in words:
        if w == "and" and seen:
            continue
        if w in SCALES:
            # "nineteen hundred", "two thousand": a scale multiplies what came before it, once
            if not 0 < current < SCALES[w] or (SCALES[w] == 1000 and total):
                return None
            current *= SCALES[w]
            if SCALES[w] == 1000:
                total, current = total + current, 0
        elif (v := _two_digits([w])) is not None:
            if current % 100 >= 20 and v < 10 and current % 10 == 0:
                current += v  # "twenty two"
            elif current % 100:
                return None
            else:
                current += v
        else:
            return None
        seen = True
    return total + current if seen else None


def number_of(words: list[str]) -> str | None:
    """The digits a run of number words says: a year or pair of two-digit groups ("twenty
    nineteen", "nineteen oh five"), a number said the long way ("two thousand and five"), or
    digits one by one ("four oh two", "four o two": an "o" between number words is a zero);
    None when the words are no one number."""
    words = [("oh" if w == "o" and 0 < i < len(words) - 1 else w) for i, w in enumerate(words)]
    if not words or any(w not in NUMBER_WORDS for w in words):
        return None
    if len(words) > 1 and all(w in UNITS or w == "oh" for w in words):
        return "".join("0" if w == "oh" else str(UNITS[w]) for w in words)
    for cut in range(1, len(words)):
        head, tail = _two_digits(words[:cut]), words[cut:]
        if head is None or head < 10:
            continue
        if tail[0] == "oh" and len(tail) == 2 and tail[1] in UNITS:
            return f"{head}0{UNITS[tail[1]]}"
        if (rest := _two_digits(tail)) is not None and rest >= 10:
            return f"{head}{rest:02d}"
    value = _cardinal(words)
    return None if value is None or (len(words) == 1 and words[0] in ("oh", "and")) else str(value)


def _letter(w: str) -> str | None:
    return LETTER_NAMES.get(w, w) if w in LETTER_NAMES or (len(w) == 1 and w.isalpha()) else None


def spelled(words: list[str]) -> str | None:
    """A code spelled out letter by letter and digit by digit ("kay ell four oh two" and "k l
    four o two" are kl402), or its letters then a number said whole ("bee kay twenty one": bk21);
    None unless every word is a letter or a digit said alone (or ends such a number) and at least
    two are letters said by name or alone (one, before digits said one by one)."""
    lead = next((k for k, w in enumerate(words) if _letter(w) is None), len(words))
    rest = words[lead:]
    if lead >= 2 and any(w not in UNITS and w not in ("oh", "o") for w in rest) and (number := number_of(rest)):
        return "".join(str(_letter(w)) for w in words[:lead]) + number  # the letters, then a number said whole
    out: list[str] = []
    letters = 0
    for w in words:
        if w == "o" and out and out[-1].isdigit():
            out.append("0")  # "four o two": a zero said as the letter, among digits
        elif (letter := _letter(w)) is not None:
            out.append(letter)
            letters += 1
        elif w in UNITS or w == "oh":
            out.append("0" if w == "oh" else str(UNITS[w]))
        elif w.isdigit():
            out.append(w)
        else:
            return None
    return "".join(out) if len(words) > 1 and letters else None


def lettered(words: list[str]) -> str | None:
    """A code said as one letter and then a number said whole ("ex twenty one": x21, "bee
    twelve": b12); None otherwise. One letter before a number is as often a word of the sentence
    ("see twenty"), so only a code a KG has is to be read so (engine/nlp/heard.py)."""
    letter = _letter(words[0]) if len(words) > 1 else None
    number = number_of(words[1:]) if letter else None
    return f"{letter}{number}" if number else None


_WORDS = re.compile(r"[A-Za-z]+")


def written_forms(text: str) -> list[tuple[int, int, str]]:
    """(start, end, written) of every run of two or more words in `text` that says one number
    ("launched in twenty nineteen": 2019) or spells a code with letters and digits ("flight kay
    ell four oh two": KL402): what a question asks about, written as a KG writes it."""
    words = [(m.start(), m.end(), m.group(0).lower()) for m in _WORDS.finditer(text)]
    out: list[tuple[int, int, str]] = []
    i = 0
    while i < len(words):
        for j in range(min(len(words), i + MAX_RUN), i + 1, -1):
            run = words[i:j]
            if any(text[a[1]:b[0]].strip() for a, b in zip(run, run[1:], strict=False)) or run[-1][2] == "and":
                continue  # only words with nothing but spaces between them
            said = [w for _, _, w in run]
            code = spelled(said)
            written = number_of(said) or (code.upper() if code and any(ch.isdigit() for ch in code) else None)
            if written is not None:
                out.append((run[0][0], run[-1][1], written))
                i = j
                break
        else:
            i += 1
    return out


def as_written(text: str) -> str:
    """The text with what it says in words written as a KG writes it: a code spelled out whole,
    however long ("g b r four four seven one": GBR4471), else each number or code of
    `written_forms`."""
    code = spelled(text.casefold().split())
    if code and any(ch.isdigit() for ch in code):
        return code.upper()
    out = text
    for a, b, written in sorted(written_forms(text), key=lambda x: -x[0]):
        out = out[:a] + written + out[b:]
    return out
