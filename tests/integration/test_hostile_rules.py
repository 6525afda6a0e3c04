"""A user's rule file is rules: loading code, reading files, printing and calling goals built at
run time are refused with one line naming file, line and builtin, unless --trust-rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main as cli
from rules.allowlist import SAFE_BUILTINS
from rules.reasoner import RuleFileError, RuleSet, validate_rule_files

PLAIN = "likes(X, Y) :- edge(X, P, Y), P \\= knows.\n"


def _rules(tmp_path, text: str):
    path = tmp_path / "mine.pl"
    path.write_text(PLAIN + text, encoding="utf-8")
    return path


@pytest.mark.parametrize("text,what", [
    (":- use_module('{py}').\n", "directive use_module"),
    (":- use_module(library(db)).\n", "directive use_module(library(db))"),
    (":- consult('/etc/passwd').\n", "directive :- consult/1"),
    ("x :- consult('/etc/passwd').\n", "builtin consult/1"),
    ("x :- ['/etc/passwd'].\n", "builtin ./2"),
    ("x :- G = consult('/etc/passwd'), call(G).\n", "a goal that is a variable"),
    ("x :- G =.. [consult, f], G.\n", "a goal that is a variable"),
    ("x :- findall(Y, Y, L), length(L, 1).\n", "a goal that is a variable"),
    ("x :- call(consult, '/etc/passwd').\n", "builtin call/2"),
    ("x :- once(\\+ write(hello)).\n", "builtin write/1"),
    ("0.5::y :- subquery(x, P).\n", "builtin subquery/2"),
])
def test_code_and_file_reading_are_refused_naming_file_line_and_builtin(tmp_path, text, what):
    marker = tmp_path / "ran"
    py = tmp_path / "evil.py"
    py.write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    path = _rules(tmp_path, text.replace("{py}", str(py)))
    with pytest.raises(RuleFileError) as err:
        validate_rule_files([str(path)])
    assert str(err.value).startswith(f"{path}:2: {what}") and "--trust-rules" in str(err.value)
    assert not marker.exists()


def test_trust_rules_lets_a_file_load_code(tmp_path):
    marker = tmp_path / "ran"
    py = tmp_path / "mod.py"
    py.write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    path = _rules(tmp_path, f":- use_module('{py}').\n")
    validate_rule_files([str(path)], trusted=True)
    assert marker.exists()


def test_rules_with_libraries_and_allowed_builtins_load(tmp_path):
    path = _rules(tmp_path, ":- use_module(library(lists)).\n"
                            "n(X, N) :- findall(Y, edge(X, _, Y), L), length(L, N), N > 1, \\+ member(X, L).\n"
                            "0.3::m(X) :- once(edge(X, _, _)); attr(X, _, V), V >= 2.\n")
    assert validate_rule_files([str(path)]).files[-1] == path


def test_the_cli_says_one_line_and_exits_2(tmp_path, capsys):
    path = _rules(tmp_path, ":- use_module(library(db)).\n")
    assert cli(["overview", "--rules", str(path), "--memory"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{path}:2: directive use_module(library(db))" in err[0]


def test_the_built_in_rule_files_pass_the_allow_list():
    from rules.reasoner import BUILTIN_RULE_FILES, RULES_DIR

    RuleSet.load([str(RULES_DIR / n) for n in BUILTIN_RULE_FILES])


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(SAFE_BUILTINS)), st.sampled_from(["consult", "use_module", "write", "writenl",
                                                                  "debugprint"]))
def test_a_refused_builtin_hides_behind_no_allowed_one(allowed, refused):
    """Any allowed builtin with a refused goal inside it (where it takes a goal) is still refused."""
    import tempfile
    from pathlib import Path

    from rules.allowlist import GOAL_ARGUMENTS

    name, arity = allowed.rsplit("/", 1)
    args = ["_"] * int(arity)
    for i in GOAL_ARGUMENTS.get(allowed, ()):
        args[i] = f"{refused}(a)"
    body = f"'{name}'({', '.join(args)})" if args else f"'{name}'"
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "r.pl"
        path.write_text(f"x :- {body}.\n")
        if allowed in GOAL_ARGUMENTS:
            with pytest.raises(RuleFileError, match=f"builtin {refused}/1|not allowed"):
                validate_rule_files([str(path)])
        else:
            validate_rule_files([str(path)])


def test_start_up_stops_at_its_deadline_with_one_line(tmp_path):
    text = "template(s, T) :- grow(0, T).\ngrow(N, T) :- M is N + 1, grow(M, T).\n"
    rules = RuleSet.load([str(_rules(tmp_path, text))])
    rules.startup_timeout_s = 0.5
    with pytest.raises(RuleFileError, match="start-up reasoning stopped at its time budget of 500 ms"):
        rules.prepared("derive")


def test_start_up_stops_at_its_memory_cap(tmp_path):
    rules = RuleSet.load([str(_rules(tmp_path, "template(s, T) :- between(1, 1000000000, T), T < 0.\n"))])
    rules.startup_timeout_s = 600
    rules.startup_memory = 32 * 2**20
    with pytest.raises(RuleFileError, match="start-up stopped at its memory cap of 32 MB"):
        rules.prepared("derive")
