"""The top-k retriever: the k best-scored facts, no graph structure."""

from __future__ import annotations

from engine.state import Candidate


def top_k(facts: list[Candidate], k: int) -> list[Candidate]:
    """The `k` facts of highest score, best first (ties keep candidate order)."""
    order = sorted(range(len(facts)), key=lambda i: (-facts[i].score, i))
    return [facts[i] for i in order[:max(0, k)]]
