"""The claim splitter parses only the sentences that may join clauses: one with no comma, no
conjunction and no relative word is one clause whatever a parse says, and is split by its word
lists alone (the parse is most of what a check costs)."""

from __future__ import annotations

from engine.factcheck import clauses, split


def test_only_sentences_that_may_join_clauses_are_parsed(monkeypatch):
    asked: list[str] = []
    real = clauses.parse_all

    def recording(texts):
        asked.extend(texts)
        return real(texts)

    monkeypatch.setattr(clauses, "parse_all", recording)
    got = split.split_claims("Titanic was released in 1997. Kate Winslet was born in Reading and lives in London.")
    assert got[0] == "Titanic was released in 1997."
    assert asked == ["Kate Winslet was born in Reading and lives in London."]


def test_what_may_join_clauses():
    assert not split.joins("Xqaq was born in Xqbq.")
    assert split.joins("Xqaq was born in Xqbq, which is in Xqcq.")
    assert split.joins("Xqaq plays for Xqbq as a centre-back.")
    assert split.joins("Xqaq sings and Xqbq plays.")
    assert split.joins("Xqaq based in Xqbq also sponsors Xqcq.")  # a participle opens a clause
    assert not split.joins("Xqaq was directed by Xqbq.")
