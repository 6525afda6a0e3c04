"""Dialogue FactScore: split a reply into atomic claims and verify each against the KG.

`check_reply` is the whole job (the `check` stage, `kgchat check` and the evaluation call it);
`scores` turns verdicts into the fact score and NEIP.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from engine.state import Check, Verdict

VERDICTS = tuple(v.value for v in Verdict)


def scores(checks: Sequence[Check]) -> tuple[float | None, float | None]:
    """(fact score, NEIP): supported / (supported + contradicted), and NEI / all claims;
    None where the denominator is zero."""
    sup = sum(c.verdict == Verdict.SUPPORTED for c in checks)
    con = sum(c.verdict == Verdict.CONTRADICTED for c in checks)
    nei = sum(c.verdict == Verdict.NEI for c in checks)
    fact = sup / (sup + con) if sup + con else None
    neip = nei / len(checks) if checks else None
    return fact, neip


def session_scores(replies: Iterable[Sequence[Check]]) -> tuple[float | None, float | None]:
    """Per-reply fact scores and NEIPs averaged over a session (replies without a value skipped)."""
    facts, neips = [], []
    for checks in replies:
        f, n = scores(checks)
        if f is not None:
            facts.append(f)
        if n is not None:
            neips.append(n)
    return (sum(facts) / len(facts) if facts else None, sum(neips) / len(neips) if neips else None)


def check_reply(reply: str, verifier, split: Callable[[str], list[str]] | None = None) -> list[Check]:
    """Split `reply` (deterministically unless `split` is given) and verify each claim in order."""
    from engine.factcheck.split import split_claims

    computed = getattr(verifier, "computed", None)
    if computed is not None:  # a computed claim ("X is older") may need its sentence's other names
        computed.reply = reply
    claims = split(reply) if split is not None else split_claims(reply, protect=verifier.protected_spans)
    return [verifier.check(claim) for claim in claims]
