"""Which earlier words a pronoun may take up within its own turn, and the gender a personal
pronoun says."""

from __future__ import annotations

import re

from engine.state import Mention

POSSESSIVES = frozenset(("his", "its", "their", "theirs", "hers"))
# Words after "her" that say it is an object ("Can you call her tomorrow?"), not a possessive.
NOT_OWNED = frozenset("""a an the of in on at by for to from with into about and or but so if when that this
these those it its is are was were be been do does did can could will would should may might must not no yes
too also very just only now then there here what who which how why tomorrow today tonight later again back up
out know""".split())
CLAUSE_BREAK = re.compile(r"[,;:.!?]|\b(?:and|but|then|so|because|while|or|if|when)\b", re.IGNORECASE)
_GENDERS = {"he": "male", "him": "male", "his": "male", "himself": "male",
            "she": "female", "her": "female", "hers": "female", "herself": "female"}


def takes_up_here(text: str, earlier: Mention, m: Mention) -> bool:
    """Whether English lets the pronoun or noun phrase `m` take up `earlier`, said before it in the
    same turn: as a possessive ("Is Lisa in her office?") or from a later clause ("When was Velvet
    Static formed, and which label are they signed to?"), not as an object in the name's own
    clause ("Can Lisa meet him?")."""
    if not text or m.kind not in ("pronoun", "definite") or earlier.end > m.start:
        return False
    word = m.text.casefold()
    after = re.match(r"\s+([A-Za-z]+)", text[m.end:])
    if word in POSSESSIVES or (word == "her" and after and after.group(1).casefold() not in NOT_OWNED):
        return True
    return bool(CLAUSE_BREAK.search(text[earlier.end:m.start]))


def pronoun_gender(word: str) -> str:
    """"male" for he/him/his, "female" for she/her/hers, "" for any other."""
    return _GENDERS.get(word.casefold(), "")
