"""Relations said in words no table foresaw, read through WordNet's lexical relations: the
reader on a WordNet-format database written here, and the relation matcher on the real one
(skipped where it is not installed: `make wordnet`)."""

from __future__ import annotations

import pytest

from engine import lexicon as lexicon_module
from engine.lexicon import FAR, NEAR, Lexicon, lexicon
from engine.relations import MATCH_MIN, Relation, RelationMatcher, other_modifier, said_share

# -- the reader, on a database of four synsets ------------------------------------------------

_NOUNS = [  # (words, pointers as (symbol, target's index in its file, its pos, source word, target word))
    (("sculptor", "carver"), [("+", 0, "v", 1, 1)]),
    (("shaper",), []),
    (("chisel",), []),
]
_VERBS = [
    (("sculpt", "carve"), [("@", 1, "v", 0, 0), ("+", 0, "n", 1, 1)]),
    (("shape", "form"), [("+", 1, "n", 1, 1)]),
]


def _write(root, name: str, synsets, other_offsets: list[int], pos: str) -> list[int]:
    """data.<name> with the synsets; returns their byte offsets (every field that holds an offset
    has a fixed width, so the lines' lengths do not depend on the offsets' values)."""
    header = "  1 a made-up database for tests\n"
    dummy = [0] * len(synsets)
    offsets, at = [], len(header)
    for words, pointers in synsets:
        offsets.append(at)
        at += len(_line(0, words, pointers, pos, dummy, [0] * len(other_offsets))) + 1
    lines = [_line(offsets[i], words, pointers, pos, offsets, other_offsets)
             for i, (words, pointers) in enumerate(synsets)]
    (root / f"data.{name}").write_text(header + "\n".join(lines) + "\n")
    return offsets


def _line(offset, words, pointers, pos, own, other) -> str:
    ptrs = " ".join(f"{symbol} {(own if tpos == pos else other)[i]:08d} {tpos} {source:02x}{target:02x}"
                    for symbol, i, tpos, source, target in pointers)
    said = " ".join(f"{w} 0" for w in words)
    return f"{offset:08d} 00 {pos} {len(words):02x} {said} {len(pointers):03d}{' ' + ptrs if ptrs else ''} | a gloss"


@pytest.fixture
def made_up(tmp_path):
    # each file's pointers hold the other's offsets: the first pass finds them, the second writes them
    nouns = _write(tmp_path, "noun", _NOUNS, [0, 0], "n")
    verbs = _write(tmp_path, "verb", _VERBS, nouns, "v")
    nouns = _write(tmp_path, "noun", _NOUNS, verbs, "n")
    verbs = _write(tmp_path, "verb", _VERBS, nouns, "v")
    for name, synsets, offsets, pos in (("noun", _NOUNS, nouns, "n"), ("verb", _VERBS, verbs, "v")):
        index = {}
        for (words, _), off in zip(synsets, offsets, strict=True):
            for w in words:
                index.setdefault(w, []).append(off)
        text = "  1 licence\n" + "".join(f"{w} {pos} {len(o)} 0 {len(o)} 0 {' '.join(f'{x:08d}' for x in o)}\n"
                                         for w, o in sorted(index.items()))
        (tmp_path / f"index.{name}").write_text(text)
    (tmp_path / "noun.exc").write_text("")
    (tmp_path / "verb.exc").write_text("carven carve\n")
    return tmp_path


def test_the_reader_finds_lemmas_synonyms_derived_and_more_general_words(made_up):
    lex = Lexicon(made_up)
    assert ("sculpt", "v") in lex.lemmas("sculpted")
    assert ("carve", "v") in lex.lemmas("carven")  # an exception list's form
    near = lex.near("sculpted")
    assert near["sculpt"] == 1.0 and near["carve"] == NEAR  # a synonym
    assert near["sculptor"] == NEAR  # a word derived from it
    assert near["shape"] == FAR and near["form"] == FAR  # a more general verb
    assert near["shaper"] == FAR  # a word derived from it
    assert "chisel" not in near


def test_without_the_database_nothing_is_read(monkeypatch, tmp_path):
    monkeypatch.setenv(lexicon_module.ENV, "none")
    lexicon.cache_clear()
    try:
        assert lexicon() is None
    finally:
        lexicon.cache_clear()


def test_another_folder_may_hold_the_database(monkeypatch, made_up):
    monkeypatch.setenv(lexicon_module.ENV, str(made_up))
    lexicon.cache_clear()
    try:
        lex = lexicon()
        assert lex is not None and lex.root == made_up
    finally:
        lexicon.cache_clear()


# -- the matcher, on WordNet 3.0 --------------------------------------------------------------

needs_wordnet = pytest.mark.skipif(lexicon() is None, reason="WordNet 3.0 is not installed (make wordnet)")


@needs_wordnet
@pytest.mark.parametrize("label, phrase", [
    ("creator", "was painted by"),          # a way of creating
    ("restorer", "who restored it"),        # the word derived from the verb
    ("price", "how much does it cost"),     # a synonym
    ("spouse", "who is his wife"),          # a kind of spouse
])
def test_a_label_said_in_other_words(label, phrase):
    assert said_share(label, phrase) >= MATCH_MIN
    rivals = [Relation(label, "said"), Relation("home town", "other"), Relation("member of", "third")]
    match = RelationMatcher().best(phrase, rivals)
    assert match is not None and match.relation.key == "said"


@needs_wordnet
def test_a_word_with_a_modifier_says_no_other_word():
    assert said_share("manager", "who is the coach") >= MATCH_MIN
    assert said_share("manager", "who is the goalkeeping coach") == 0.0
    assert said_share("manager", "how much does the coach earn") >= MATCH_MIN  # "much" counts, it names no kind


@needs_wordnet
def test_a_modifier_before_a_word_for_the_label_s_head_names_another_relation():
    assert other_modifier("head coach", "who is the assistant manager")
    assert not other_modifier("head coach", "who is the manager")
    # the verb "play" is not the noun "players"; a span of the question may join words it parts
    assert not other_modifier("max players", "take play")


def test_a_quantity_before_the_head_names_no_other_kind():
    assert not other_modifier("playing time minutes", "How many minutes does xentity take to play?")
    assert other_modifier("playing time minutes", "How many rehearsal minutes does xentity take?")


def test_the_word_tables_do_not_grow():
    # Relations said in other words are WordNet's and the encoder's to read, not a table's: these
    # hold what neither reaches (see each table's comment); an entry WordNet comes to cover goes.
    from engine.factcheck.relations import CUES
    from engine.relations import _GLOSSES, _LABEL_KINDS
    from engine.stages.answer.missing import WHEN_WORDS
    from engine.words import IRREGULAR

    assert (len(_GLOSSES), len(IRREGULAR), len(_LABEL_KINDS), len(CUES), len(WHEN_WORDS)) == (58, 50, 8, 34, 2)


@pytest.mark.skipif(lexicon() is None, reason="WordNet is not installed")
def test_the_opposite_of_a_noun_or_of_what_it_is_a_kind_of():
    lex = lexicon()
    assert "child" in lex.opposites("father") and "child" in lex.opposites("parent")
    assert "parent" in lex.opposites("child")
    assert not lex.opposites("mentor") and not lex.opposites("paint")


@needs_wordnet
def test_the_kinds_of_a_noun_go_up_from_its_most_frequent_sense():
    lex = lexicon()
    assert "person" in lex.kinds("playwright") and "person" in lex.kinds("vintners")
    assert "person" not in lex.kinds("venue") and "person" not in lex.kinds("star")  # a star is first a celestial body


@needs_wordnet
def test_a_word_s_broad_classes_of_meaning():
    lex = lexicon()
    assert lex is not None
    assert lex.groups("flew", "v") == {"verb.motion"}
    assert "verb.possession" in lex.groups("sold", "v")
    assert lex.groups("treasurer", "n") == {"noun.person"}
    assert lex.groups("treasurer", "v") == frozenset()
