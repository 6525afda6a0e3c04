"""What a user's rule file may do: rules. ProbLog can also load Python modules
(`:- use_module('x.py')`), consult other files, read CSV and SQLite files into facts, print and
call goals built at run time; a rule file from someone else must not. Each clause is checked
before the file is used: every goal a body or a goal argument names is the file's own
predicate, a library predicate, or a builtin of the allow-list; directives may load only the
libraries below. `trusted` (the --trust-rules option) lifts all of it."""

from __future__ import annotations

from pathlib import Path

# ProbLog builtins a rule may call: unification, comparison, arithmetic, type tests, term and
# list inspection, bounded enumeration and aggregation over goals written in the file.
SAFE_BUILTINS = frozenset({
    "=/2", "\\=/2", "==/2", "\\==/2", "@</2", "@=</2", "@>/2", "@>=/2", "</2", "=</2", ">/2", ">=/2",
    "=:=/2", "=\\=/2", "is/2", "compare/3", "=../2", "arg/3", "functor/3", "atom/1", "atomic/1", "atom_number/2",
    "callable/1", "compound/1", "float/1", "integer/1", "number/1", "rational/1", "var/1", "nonvar/1", "ground/1",
    "is_list/1", "length/2", "between/3", "succ/2", "plus/3", "sort/2", "subsumes_term/2", "subsumes_chk/2",
    "true/0", "fail/0", "false/0", "findall/3", "all/3", "once/1", "call/1",
})
# Builtins whose argument (by position) is itself a goal: it must be written out and allowed.
GOAL_ARGUMENTS = {"findall/3": (1,), "all/3": (1,), "once/1": (0,), "call/1": (0,)}
# Control constructs the engine handles itself: every argument is a goal.
CONTROL = frozenset({",/2", ";/2", "->/2", "\\+/1", "not/1"})
# ProbLog libraries a directive may load: list and string predicates, no meta-calls, no I/O.
SAFE_LIBRARIES = frozenset({"lists", "string", "assoc"})


class RuleNotAllowed(Exception):
    """A clause does what only a trusted rule file may; the message names the builtin."""

    def __init__(self, message: str, offset: int | None):
        super().__init__(message)
        self.offset = offset


def _name(term) -> str:
    functor = str(term.functor)
    if len(functor) > 2 and functor[0] == functor[-1] == "'":
        functor = functor[1:-1]
    return f"{functor}/{term.arity}"


def _engine_builtins() -> frozenset[str]:
    from problog.engine import DefaultEngine

    return frozenset(DefaultEngine().get_builtins())


def check_clauses(text: str) -> None:
    """Raise RuleNotAllowed at the first clause that is not plain rules (see the module doc)."""
    from problog.logic import AnnotatedDisjunction, Clause, Term, Var
    from problog.program import PrologString

    builtins = _engine_builtins()

    def goal(g, offset) -> None:
        if isinstance(g, Var):
            raise RuleNotAllowed("a goal that is a variable (a call of a term built at run time)", offset)
        if not isinstance(g, Term):
            return
        name = _name(g)
        if name in CONTROL:
            for a in g.args:
                goal(a, offset)
            return
        if name in builtins:
            if name not in SAFE_BUILTINS:
                raise RuleNotAllowed(f"builtin {name}", offset)
            for i in GOAL_ARGUMENTS.get(name, ()):
                goal(g.args[i], offset)

    for clause in PrologString(text):
        offset = clause.location[1] if isinstance(getattr(clause, "location", None), tuple) else None
        if isinstance(clause, (Clause, AnnotatedDisjunction)):
            heads = clause.heads if isinstance(clause, AnnotatedDisjunction) else [clause.head]
            if any(isinstance(h, Term) and h.functor == "_directive" for h in heads):
                _directive(clause.body, offset)
            else:
                goal(clause.body, offset)


def _directive(body, offset) -> None:
    if _name(body) == "use_module/1":
        lib = body.args[0]
        if _name(lib) == "library/1" and str(lib.args[0]).strip("'") in SAFE_LIBRARIES:
            return
        raise RuleNotAllowed(f"directive use_module({lib}) (loads code; allowed: "
                             f"{', '.join(f'library({n})' for n in sorted(SAFE_LIBRARIES))})", offset)
    raise RuleNotAllowed(f"directive :- {_name(body)} (directives run code at start-up)", offset)


def line_of(text: str, offset: int | None) -> int | None:
    return None if offset is None else text.count("\n", 0, offset) + 1


def check_rule_file(path: Path, text: str) -> str | None:
    """Why `text` (the file at `path`) is not allowed, as one line naming file and line; None
    when it is."""
    try:
        check_clauses(text)
    except RuleNotAllowed as exc:
        line = line_of(text, exc.offset)
        where = f"{path}:{line}" if line else str(path)
        return (f"{where}: {exc} is not allowed in a rule file (--trust-rules allows rule files "
                "to run code and read files)")
    return None
