"""The reasoning step: one small ProbLog program per turn, run against a deadline.

The rule files are parsed and prepared once (`RuleSet`); each turn extends that database with
only the facts the turn needs (`Program`: its mentions, their candidate entities, the focus
neighbourhood) as ProbLog terms, never as parsed text, grounds the queries, compiles them with
the SDD backend and reads the probabilities back. `run` gives up at the deadline: the caller gets
`ReasoningFailed` saying why, and the abandoned grounding stops itself at its next engine step
(`_Watch`), which is checked from inside ProbLog's own loop rather than thrown in from outside.
"""

from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import date
from datetime import time as dtime
from functools import lru_cache
from pathlib import Path
from typing import Any

from kgstore import vocab
from kgstore.errors import BadInput, LoadError
from kgstore.fileio import read_bounded
from kgstore.terms import Fact
from rules.allowlist import check_rule_file
from rules.similarity import decode, encode

RULES_DIR = Path(__file__).resolve().parent
BUILTIN_RULE_FILES = ("entity_linking.pl", "commonsense.pl", "generic.pl")
BUILTINS_MODULE = RULES_DIR / "builtins.py"


# What the reasoner tells the rules each turn (documented in entity_linking.pl/commonsense.pl).
INPUT_PREDICATES = (
    ("new", 1), ("mention", 2), ("string", 2), ("mention_kind", 2), ("wants_kind", 2), ("before", 2), ("here", 2), ("pronoun_gender", 2), ("gender_of", 2),
    ("ordinal", 2), ("listed", 4), ("answered", 2), ("topic", 2), ("answer_kind", 2), ("wants_class", 2), ("class_of", 2),
    ("a_class", 1), ("has_asked", 1),
    ("respond_to", 2), ("linked", 2), ("candidate", 2), ("name", 2), ("kind", 2), ("speaker", 1),
    ("turn_day", 2), ("edge", 3), ("attr", 3), ("requested", 1), ("today", 1), ("tomorrow", 1),
    ("day_text", 2), ("clock", 2), ("slot", 4), ("part", 4), ("asked_day", 2), ("record_rel", 1),
)


class RuleFileError(BadInput):
    """A rule file cannot be read or parsed."""


class ReasoningFailed(Exception):
    """The turn's program timed out (`timeout`) or raised; the message says which, for the user."""

    def __init__(self, message: str, timeout: bool = False):
        super().__init__(message)
        self.timeout = timeout


class _Abandon(BaseException):
    """Raised inside an abandoned grounding; BaseException so no `except Exception` eats it."""


class _Watch:
    """Whether the caller has given up on a grounding. The engine checks it itself, at each step
    of its loop: an asynchronous exception thrown into the thread instead can be swallowed (it
    may land in a gc callback), after which a runaway rule grows without bound."""

    def __init__(self) -> None:
        self.stopped = False

    def check(self) -> None:
        if self.stopped:
            raise _Abandon()


class _MemoryWatch(_Watch):
    """A watch that also stops the work once the process has grown by `cap` bytes since it
    began (rule start-up: a runaway clause fills memory long before any deadline)."""

    EVERY_S = 0.02  # between two looks at the process size

    def __init__(self, cap: int) -> None:
        super().__init__()
        self.cap, self.over = cap, False
        self._start, self._next = _rss(), time.monotonic()

    def check(self) -> None:
        super().check()
        if self._start is not None and time.monotonic() >= self._next:
            self._next = time.monotonic() + self.EVERY_S
            if (_rss() or 0) - self._start > self.cap:
                self.over = self.stopped = True
                raise _Abandon()


def _rss() -> int | None:
    """The process's resident size in bytes (None where /proc does not tell)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


_STOP_CHECK_EVERY = 1 << 16


def _watched_between(low, high, value, **k):
    """between/3 that checks the watch while it enumerates: ProbLog's own builds the whole range
    in one Python loop (10^8 numbers: many GB) without a single engine step in between."""
    from problog.engine_builtin import check_mode
    from problog.logic import Constant

    mode = check_mode((low, high, value), ["iii", "iiv"], functor="between", **k)
    lo, hi = int(low), int(high)
    if mode == 0:
        return [(low, high, value)] if lo <= int(value) <= hi else []
    watch = k["engine"].watch
    results = []
    for n in range(lo, hi + 1):
        if not n % _STOP_CHECK_EVERY:
            watch.check()
        results.append((low, high, Constant(n)))
    return results


def _watched_engine(watch: _Watch):
    """A fresh engine per run (one that once ran into an error keeps a stale stack and fails
    every later grounding: "Stack not empty") that checks `watch` before each step."""
    from problog.engine import DefaultEngine
    from problog.engine_stack import SimpleBuiltIn

    class WatchedEngine(DefaultEngine):
        def init_message_stack(self):
            queue = super().init_message_stack()
            pop = queue.pop

            def watched_pop():
                watch.check()
                return pop()

            queue.pop = watched_pop
            return queue

    engine = WatchedEngine()
    engine.watch = watch
    # The rule bases were prepared by another engine; the builtin slots are the same in every
    # engine, so between/3 is replaced in its slot rather than added anew.
    slot = -engine.get_builtins()["between/3"] - 1
    engine._ClauseDBEngine__builtins[slot] = SimpleBuiltIn(_watched_between)
    return engine


# --- rule files -----------------------------------------------------------------------------

def rule_files(extra: list[str] | tuple[str, ...] = ()) -> list[Path]:
    """The built-in rule files then the user's; a user file named like a built-in one
    (e.g. a learned `entity_linking.pl`) replaces it."""
    extra_paths = [Path(p) for p in extra]
    replaced = {p.name for p in extra_paths}
    return [RULES_DIR / n for n in BUILTIN_RULE_FILES if n not in replaced] + extra_paths


def parse_rule_file(path: Path, allow_list: bool = False) -> str:
    """The text of a rule file, checked by ProbLog's parser and, with `allow_list` (a user's
    file not trusted with --trust-rules), by rules.allowlist; BadInput names file and line."""
    from problog.errors import ProbLogError
    from problog.program import PrologString

    try:
        text = read_bounded(str(path), "rule file").decode("utf-8")
    except LoadError as exc:
        raise RuleFileError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise RuleFileError(f"{path}: cannot read rule file: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    try:
        list(PrologString(text))
    except ProbLogError as exc:
        loc = exc.location if isinstance(exc.location, tuple) else (None, None, None)
        line, col = (loc[1], loc[2]) if len(loc) == 3 else (None, None)
        where = f"{path}:{line}:{col}" if line else f"{path}"
        raise RuleFileError(f"{where}: ProbLog syntax error: {exc.base_message}") from None
    if allow_list and (refused := check_rule_file(path, text)):
        raise RuleFileError(refused)
    return text


# Which built-in file a program needs: linking asks refers_to, deriving gets refers_to as facts
# and asks the derived predicates. A user's own file goes into both.
LINKING_ONLY = frozenset({"entity_linking.pl"})
DERIVING_ONLY = frozenset({"commonsense.pl", "generic.pl"})


@dataclass
class RuleSet:
    """Parsed rule files, their derived predicates and templates, and the prepared databases
    (one per phase: "link", "derive", and "all" for a single whole program)."""

    files: list[Path]
    texts: dict[Path, str]
    templates: dict[tuple[str, int], str] = field(default_factory=dict)
    fact_args: dict[tuple[str, int], tuple[int, int]] = field(default_factory=dict)
    about: dict[tuple[str, int], set[str]] = field(default_factory=dict)
    _bases: dict[str, Any] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    # Preparing the rules (their directives, the template/2 declarations) runs rule code too: it
    # stops at this deadline or this much growth of the process (the built-in rules take about a
    # second and a few MB on two cores).
    startup_timeout_s: float = 30.0
    startup_memory: int = 512 * 2**20

    @classmethod
    def load(cls, extra: list[str] | tuple[str, ...] = (), trusted: bool = False) -> RuleSet:
        """The built-in rule files and the user's `extra` ones, which run against the
        allow-list of rules.allowlist unless `trusted`."""
        files = rule_files(extra)
        users = {Path(p) for p in extra}
        return cls(files=files, texts={p: parse_rule_file(p, allow_list=p in users and not trusted) for p in files})

    def text(self, phase: str = "all") -> str:
        """The rule files a phase runs, one after the other."""
        skip = DERIVING_ONLY if phase == "link" else LINKING_ONLY if phase == "derive" else frozenset()
        return "\n".join(f"% ---- {p}\n{t}" for p, t in self.texts.items() if p.name not in skip)

    def header(self, phase: str = "all") -> str:
        """The builtins, and a failing clause per input predicate so a turn without such
        facts (no earlier turn, no speaker yet) fails there instead of raising UnknownClause."""
        lines = [f":- use_module('{BUILTINS_MODULE.as_posix()}')."]
        inputs = INPUT_PREDICATES + ((("refers_to", 2),) if phase == "derive" else ())
        for name, arity in inputs:
            args = ", ".join("_" for _ in range(arity))
            lines.append(f"{name}({args}) :- fail.")
        return "\n".join(lines) + "\n"

    def prepared(self, phase: str = "all"):
        """(engine, base ClauseDB) of a phase, built once; every turn extends the base."""
        with self._lock:
            if phase not in self._bases:
                from problog.program import PrologString

                def build(engine):
                    base = engine.prepare(PrologString(self.header(phase) + self.text(phase)))
                    if phase == "derive":
                        self._read_declarations(engine, base)
                    return engine, base

                # any failure, ProbLog's own bugs on odd clauses ('all'(_, g, _)) among them, is
                # the rule files'
                try:
                    engine, base = run_with_deadline(build, self.startup_timeout_s, _MemoryWatch(self.startup_memory))
                except ReasoningFailed as exc:
                    raise RuleFileError(f"rule files {', '.join(map(str, self.files))}: start-up {exc}") from None
                self._bases[phase] = (engine, base)
            return self._bases[phase]

    def _read_declarations(self, engine, base) -> None:
        from problog.logic import Term

        for sig, text in engine.query(base, Term("template", None, None)):
            self.templates[(decode(str(sig.args[0])), int(sig.args[1]))] = decode(str(text))
        for sig, s, o in engine.query(base, Term("fact_args", None, None, None)):
            self.fact_args[(decode(str(sig.args[0])), int(sig.args[1]))] = (int(s), int(o))
        for sig, kind in engine.query(base, Term("about", None, None)):
            self.about.setdefault((decode(str(sig.args[0])), int(sig.args[1])), set()).add(decode(str(kind)))

    def derived_predicates(self, kinds: set[str] | None = None) -> list[tuple[str, int]]:
        """Predicates with a template; with `kinds`, only those about one of these kinds."""
        self.prepared("derive")
        return [sig for sig in self.templates if kinds is None or sig not in self.about or self.about[sig] & kinds]


def validate_rule_files(extra: list[str] | tuple[str, ...] = (), trusted: bool = False) -> RuleSet:
    """Parse every rule file at start-up so a broken one stops the app before the first turn."""
    rules = RuleSet.load(extra, trusted)
    rules.prepared("link")
    rules.prepared("derive")
    return rules


# --- per-turn programs ----------------------------------------------------------------------

_PLAIN = re.compile(r"[a-z][a-z0-9_]*")

class Var:
    """A query variable."""

    def __init__(self, name: str = "_"):
        self.name = name


Arg = Any  # Atom | int | float | Var


@dataclass(frozen=True)
class Atom:
    """A ProbLog constant standing for an entity, a mention, a turn or a piece of text."""

    functor: str  # the encoded, quoted form

    @classmethod
    def of(cls, text: str) -> Atom:
        return cls(encode(text))

    @classmethod
    def plain(cls, name: str) -> Atom:
        """A lower-case word the rule files spell as is (person, name, ...); anything else is
        quoted like any text."""
        return cls(name) if _PLAIN.fullmatch(name) else cls.of(name)

    @property
    def text(self) -> str:
        return decode(self.functor)


@dataclass
class Program:
    """The facts and queries of one turn, added to the prepared rule database."""

    facts: list[tuple[str, tuple]] = field(default_factory=list)
    prob_facts: list[tuple[float, str, tuple]] = field(default_factory=list)
    queries: list[tuple[str, tuple]] = field(default_factory=list)
    _seen: set = field(default_factory=set)

    def fact(self, pred: str, *args: Arg) -> None:
        key = (pred, args)
        if key not in self._seen:
            self._seen.add(key)
            self.facts.append(key)

    def prob_fact(self, p: float, pred: str, *args: Arg) -> None:
        if p >= 1.0:
            self.fact(pred, *args)  # certain facts cost nothing in the circuit
        elif p > 0.0:
            self.prob_facts.append((p, pred, args))

    def query(self, pred: str, *args: Arg) -> None:
        self.queries.append((pred, args))

    def __len__(self) -> int:
        return len(self.facts) + len(self.prob_facts)

    def terms(self):
        """(facts, probabilistic facts, queries) as ProbLog terms."""
        from problog.logic import Constant, Term
        from problog.logic import Var as PVar

        def conv(a):
            if isinstance(a, Atom):
                return Term(a.functor)
            if isinstance(a, Var):
                return PVar(a.name)
            if isinstance(a, (int, float)):
                return Constant(a)
            raise TypeError(f"not a ProbLog argument: {a!r}")

        def term(pred, args, p=None):
            return Term(pred, *(conv(a) for a in args), p=None if p is None else Constant(p))

        return ([term(p, a) for p, a in self.facts],
                [term(pred, a, p) for p, pred, a in self.prob_facts],
                [Term("query", term(p, a)) for p, a in self.queries])

    def render(self) -> str:
        """The program as ProbLog text (for the naive benchmark and `kgchat learn`)."""
        def arg(a):
            if isinstance(a, Atom):
                return a.functor
            if isinstance(a, Var):
                return a.name if a.name != "_" else "_"
            return repr(a)

        def atom(pred, args):
            return f"{pred}({', '.join(arg(a) for a in args)})" if args else pred

        lines = [atom(p, a) + "." for p, a in self.facts]
        lines += [f"{p}::{atom(pred, a)}." for p, pred, a in self.prob_facts]
        lines += [f"query({atom(p, a)})." for p, a in self.queries]
        return "\n".join(lines) + "\n"


@dataclass
class Answer:
    """One query result: the predicate, its decoded arguments and the probability."""

    predicate: str
    args: tuple  # Atom | int | float
    p: float


@dataclass
class Stats:
    """Where one evaluation spent its time (thread CPU milliseconds) and how big it was."""

    facts: int = 0
    queries: int = 0
    load_ms: float = 0.0
    ground_ms: float = 0.0
    compile_ms: float = 0.0
    formula_nodes: int = 0


def evaluate(rules: RuleSet, program: Program, timeout_s: float, stats: Stats | None = None,
             phase: str = "all") -> list[Answer]:
    """Ground and evaluate `program` on top of the rules of `phase` within `timeout_s` seconds."""
    _, base = rules.prepared(phase)
    deadline = time.monotonic() + timeout_s
    stats = stats if stats is not None else Stats()

    def work(engine):
        from problog.formula import LogicFormula
        from problog.sdd_formula import SDD

        t0 = time.thread_time()
        db = base.extend()
        facts, prob_facts, queries = program.terms()
        for t in facts:
            db.add_fact(t)
        for t in prob_facts:
            db.add_fact(t)
        for t in queries:
            db.add_fact(t)
        t1 = time.thread_time()
        formula = engine.ground_all(db, target=LogicFormula(keep_all=False))
        t2 = time.thread_time()
        if time.monotonic() > deadline:
            raise _Abandon()
        result = SDD.create_from(formula).evaluate()
        t3 = time.thread_time()
        stats.facts, stats.queries, stats.formula_nodes = len(program), len(queries), len(formula)
        stats.load_ms, stats.ground_ms, stats.compile_ms = ((t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3)
        return result

    result = run_with_deadline(work, timeout_s)
    return [Answer(str(term.functor), tuple(_decode_arg(a) for a in term.args), float(p))
            for term, p in result.items()]


def _decode_arg(a):
    if isinstance(a, (int, float)):
        return a
    functor = getattr(a, "functor", None)
    if isinstance(functor, (int, float)) and not isinstance(functor, bool):
        return functor
    return Atom(str(a))


def run_with_deadline(fn, timeout_s: float, watch: _Watch | None = None):
    """fn(engine) in a worker thread, with a fresh ProbLog engine that stops itself once the
    deadline has passed (or `watch` says so); ReasoningFailed on timeout, on the memory cap of
    a _MemoryWatch, or on any error fn raises."""
    from problog.errors import ProbLogError

    box: dict[str, Any] = {}
    watch = watch or _Watch()

    def target():
        try:
            box["value"] = fn(_watched_engine(watch))
        except _Abandon:
            box["abandoned"] = True
        except BaseException as exc:  # reported to the caller, whatever it is
            box["error"] = exc

    worker = threading.Thread(target=target, name="kgchat-reason", daemon=True)
    worker.start()
    worker.join(timeout_s)
    if isinstance(watch, _MemoryWatch) and watch.over:
        raise ReasoningFailed(f"stopped at its memory cap of {watch.cap // 2**20} MB")
    if worker.is_alive() or box.get("abandoned"):
        watch.stopped = True
        raise ReasoningFailed(f"reasoning stopped at its time budget of {timeout_s * 1000:.0f} ms", timeout=True)
    if "error" in box:
        exc = box["error"]
        kind = type(exc).__name__
        msg = exc.message if isinstance(exc, ProbLogError) else str(exc)
        raise ReasoningFailed(f"reasoning failed ({kind}): {msg}".strip()[:300])
    return box["value"]


# --- background facts into rule vocabulary ----------------------------------------------------

_SHORT_PREDICATES = {vocab.RDF_TYPE: "type", vocab.RDFS + "subClassOf": "subclass_of"}


@lru_cache(maxsize=4096)
def predicate_atom(iri: str) -> Atom:
    """Rule-file name of a predicate: office local name, Wikidata id, or the encoded IRI."""
    if iri in _SHORT_PREDICATES:
        return Atom.plain(_SHORT_PREDICATES[iri])
    if iri.startswith(vocab.OFFICE) and re.fullmatch(r"[a-z][a-z0-9_]*", iri[len(vocab.OFFICE):]):
        return Atom.plain(iri[len(vocab.OFFICE):])
    if iri.startswith(vocab.WDT) and re.fullmatch(r"P\d+", iri[len(vocab.WDT):]):
        return Atom(f"'{iri[len(vocab.WDT):]}'")
    if iri.startswith(vocab.DERIVED) and re.fullmatch(r"[a-z][a-z0-9_]*", iri[len(vocab.DERIVED):]):
        return Atom.plain(iri[len(vocab.DERIVED):])
    return Atom.of(iri)


def predicate_iri(atom: Atom) -> str:
    """Inverse of `predicate_atom`; a name no KG uses becomes a derived predicate IRI."""
    text = atom.text
    for iri, short in _SHORT_PREDICATES.items():
        if text == short:
            return iri
    if re.fullmatch(r"P\d+", text):
        return vocab.WDT + text
    if text in vocab.OFFICE_ATTRIBUTES or text in vocab.OFFICE_RELATIONS:
        return vocab.office_predicate(text)
    if re.fullmatch(r"[a-z][a-z0-9_]*", text):
        return vocab.derived_predicate(text)
    return text


def literal_value(fact: Fact):
    """A literal as the rules see it: dates as day ordinals, times as minutes, numbers as numbers."""
    text = fact.o
    dt = (fact.datatype or "").removeprefix(vocab.XSD)
    try:
        if dt == "date" or (not dt and re.fullmatch(r"\d{4}-\d{2}-\d{2}", text)):
            return date.fromisoformat(text[:10]).toordinal()
        if dt == "time" or (not dt and re.fullmatch(r"\d{1,2}:\d{2}(:\d{2})?", text)):
            t = dtime.fromisoformat(text if len(text) > 4 and text[2] == ":" else "0" + text)
            return t.hour * 60 + t.minute
        if dt in ("integer", "int", "long", "nonNegativeInteger"):
            return int(text)
        if dt in ("decimal", "double", "float"):
            return float(text)
    except ValueError:
        pass
    return Atom.of(text)


def add_background(program: Program, facts, entity_atom) -> None:
    """Background facts as edge/3 (entity objects) and attr/3 (literals)."""
    for f in facts:
        p = predicate_atom(f.p)
        if f.o_literal:
            program.fact("attr", entity_atom(f.s), p, literal_value(f))
        else:
            program.fact("edge", entity_atom(f.s), p, entity_atom(f.o))
