"""Python builtins the rule files call (name similarity), registered through `problog.extern`.

ProbLog executes this file when a program says `:- use_module('<path of this file>').` (the
reasoner puts that line first), and every `@problog_export` function becomes a predicate.
Arguments are the percent-encoded atoms of `rules.similarity.encode`.
"""

from problog.extern import problog_export

from rules.similarity import decode, measures


def _text(term) -> str:
    return decode(str(term))


@problog_export("+term", "+term", "-float", "-int", "-int", "-int", "-int")
def name_similarity(a, b):
    """All five measures at once (Jaro-Winkler, edit distance, common substring, shared words,
    missing words), so a rule body asks once per pair."""
    return list(measures(_text(a), _text(b)))


@problog_export("+term", "+term", "-float")
def jaro_winkler(a, b):
    """Jaro-Winkler similarity (0..1) of two names, case and accents ignored."""
    return measures(_text(a), _text(b))[0]


@problog_export("+term", "+term", "-int")
def levenshtein(a, b):
    """Edit distance of two names, case and accents ignored."""
    return measures(_text(a), _text(b))[1]


@problog_export("+term", "+term", "-int")
def common_substring(a, b):
    """Length of the longest common substring of two names."""
    return measures(_text(a), _text(b))[2]


@problog_export("+term", "+term", "-int")
def shared_words(a, b):
    """Words two names have in common."""
    return measures(_text(a), _text(b))[3]


@problog_export("+term", "+term", "-int")
def missing_words(a, b):
    """Words of the mention (first) that the name (second) lacks, allowing a typo or two per word."""
    return measures(_text(a), _text(b))[4]
