"""A remote background as the pipeline sees it: an endpoint that stops answering mid-session
makes the turn go on with the dialogue and derived graphs only, and says so.

Every stage reads the background (linking, reasoning, candidates, labels); catching the outage
here once keeps them free of per-call error handling.
"""

from __future__ import annotations

from collections.abc import Iterable

from kgstore.errors import RemoteUnavailable
from kgstore.terms import Fact, Neighborhood
from kgstore.vocab import readable_name


class OutageTolerantBackground:
    """Answers as if the background knew nothing more while its endpoint is unavailable;
    `outage` holds the last failure of the current turn (cleared by `begin_turn`).
    `label_entries`, `find_labels` and `count` keep raising: their callers handle an outage
    themselves (a size that cannot be read is taken as a big KG, not as an empty one)."""

    def __init__(self, remote):
        self.remote = remote
        self.outage = ""

    def begin_turn(self) -> None:
        self.outage = ""

    def _read(self, method: str, empty, *args, **kwargs):
        try:
            return getattr(self.remote, method)(*args, **kwargs)
        except RemoteUnavailable as exc:
            self.outage = str(exc)
            return empty

    def label(self, iri: str) -> str:
        return self._read("label", readable_name(iri), iri)

    def labels(self, iris: Iterable[str]) -> dict[str, str]:
        iris = list(iris)
        return self._read("labels", {iri: readable_name(iri) for iri in iris}, iris)

    def types(self, iri: str) -> list[str]:
        return self._read("types", [], iri)

    def entities_of_type(self, type_iri: str, cap: int = 200) -> list[str]:
        return self._read("entities_of_type", [], type_iri, cap=cap)

    def facts_about(self, iri: str, cap: int = 200) -> list[Fact]:
        return self._read("facts_about", [], iri, cap=cap)

    def neighborhood(self, seeds: Iterable[str], hops: int = 1, cap: int = 2000) -> Neighborhood:
        seeds = list(seeds)
        return self._read("neighborhood", Neighborhood(seeds=seeds), seeds, hops=hops, cap=cap)

    def query(self, sparql: str):
        return self._read("query", [], sparql)

    def __getattr__(self, name: str):
        return getattr(self.remote, name)
