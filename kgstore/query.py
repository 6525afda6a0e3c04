"""Bounded SPARQL for people at a prompt (`kgchat sparql`, the app's console): a read-only query
whose rows stream as they come, cut by a row limit, a deadline or a cancel, each cut reported.

pyoxigraph evaluates lazily: each row costs one step of its iterator, so a cross product
yields rows at once instead of being built in memory. Its Python API has no timeout or cancel
(oxigraph issue #1926), and its result iterators must stay on the thread that made them. So
the query runs on a producer thread that hands rows over a small queue, and the consumer waits
in short slices: it sees the deadline, a cancel or Ctrl-C within one slice even while a step
that has to read everything first (ORDER BY, GROUP BY) is still running inside pyoxigraph.
Such a step cannot be stopped; the producer abandons it when it returns.
"""

from __future__ import annotations

import queue
import re
import threading
import time
import traceback
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field

from pyoxigraph import QueryBoolean, QuerySolutions

from kgstore.errors import BadInput
from kgstore.loaders import one_line
from kgstore.store import term_str

DEFAULT_LIMIT = 1000
DEFAULT_TIMEOUT_S = 30.0
POLL_S = 0.05  # longest wait before the consumer looks at the deadline and the cancel flag again
PRODUCER = "kgchat-sparql"

# The first keyword after the prologue (comments, PREFIX, BASE) tells an update from a query.
_PROLOGUE = re.compile(r"\A(?:\s+|#[^\n]*\n?|PREFIX\s+[^\s:]*:\s*<[^>]*>|BASE\s+<[^>]*>)*", re.IGNORECASE)
_SERVICE = re.compile(r"\bSERVICE\b", re.IGNORECASE)
_UPDATE = re.compile(r"(?:INSERT|DELETE|LOAD|CLEAR|CREATE|DROP|COPY|MOVE|ADD|WITH)\b", re.IGNORECASE)
# pyoxigraph's parser recurses per bracket: thousands of nested brackets overflow its stack and
# kill the process (the app with it), so deeper queries are refused before they are parsed.
MAX_DEPTH = 128
# What can hold a bracket that does not nest: strings, IRIs, comments; and the words, for FROM.
_LEXEME = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""' r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
                     r'|"(?:[^"\\\n]|\\.)*"' r"|'(?:[^'\\\n]|\\.)*'"
                     r'|<[^<>"{}|^`\\\x00-\x20]*>|#[^\n]*|[(){}\[\]]|[?$]?[\w:.-]+', re.S)


def busy() -> bool:
    """Whether a query step is still running inside pyoxigraph on some producer thread. A
    process must then end with os._exit: at interpreter shutdown such a thread, coming back
    from pyoxigraph, would be killed inside Rust code and abort the process."""
    return any(t.name == PRODUCER and t.is_alive() for t in threading.enumerate())


def is_update(text: str) -> bool:
    prologue = _PROLOGUE.match(text)
    assert prologue is not None  # the pattern matches the empty string too
    return bool(_UPDATE.match(text, prologue.end()))


def shape(text: str) -> tuple[int, bool]:
    """How deep the query's brackets nest, and whether it names its dataset (FROM)."""
    depth = deepest = 0
    dataset = False
    for m in _LEXEME.finditer(text):
        token = m.group()
        if token in "({[":
            depth += 1
            deepest = max(deepest, depth)
        elif token in ")}]":
            depth -= 1
        elif token.upper() == "FROM":
            dataset = True
    return deepest, dataset


@dataclass
class Head:
    """What the query returns: rows with these columns, or an ASK's answer."""
    columns: list[str] = field(default_factory=list)
    boolean: bool | None = None


@dataclass
class Outcome:
    rows: int = 0
    stopped: str | None = None  # None (complete), "limit", "timeout" or "cancelled"
    seconds: float = 0.0

    def note(self, limit: int, timeout: float) -> str | None:
        """The sentence saying how the result was cut, naming the flag that moves the bound."""
        if self.stopped == "limit":
            return f"stopped at the row limit: the first {limit} rows are shown, more exist (--limit to change)"
        if self.stopped == "timeout":
            return f"timed out after {timeout:g} s with {self.rows} rows shown (--timeout to change)"
        if self.stopped == "cancelled":
            return f"cancelled after {self.seconds:.1f} s with {self.rows} rows shown"
        return None


class BoundedQuery:
    """One query: `head()` first, then `rows()`; `outcome` says how it ended. `cancel()` may
    be called from any thread."""

    def __init__(self, store, text: str, *, limit: int = DEFAULT_LIMIT, timeout: float = DEFAULT_TIMEOUT_S):
        if is_update(text):
            raise BadInput("SPARQL update refused: the console and `kgchat sparql` only read "
                           "(SELECT, ASK, CONSTRUCT, DESCRIBE); use `kgchat load` to add data")
        depth, self._dataset = shape(text)
        if depth > MAX_DEPTH:
            raise BadInput(f"SPARQL query: brackets nested {depth} deep, more than the {MAX_DEPTH} levels read")
        self.limit, self.timeout = limit, timeout
        self.outcome = Outcome()
        self._cancel = threading.Event()
        self._queue: queue.Queue = queue.Queue(maxsize=256)  # a slow reader holds back the producer
        self._start = time.monotonic()
        self._producer = threading.Thread(target=self._produce, args=(store, text), name=PRODUCER, daemon=True)
        self._producer.start()
        self._head: Head | None = None

    @property
    def running(self) -> bool:
        """Whether pyoxigraph is still inside a step of this query (it cannot be interrupted);
        a producer that is only returning gets a moment to finish."""
        self._producer.join(timeout=0.2)
        return self._producer.is_alive()

    def cancel(self) -> None:
        self._cancel.set()

    # ---- producer thread ----------------------------------------------------------------

    def _put(self, item) -> bool:
        while not self._cancel.is_set():
            try:
                self._queue.put(item, timeout=POLL_S)
                return True
            except queue.Full:
                continue
        return False

    def _produce(self, store, text: str) -> None:
        result = rows = None
        try:
            # the union of all graphs is the default graph, unless the query names its own (FROM)
            result = store._store.query(text, use_default_graph_as_union=not self._dataset)
            if isinstance(result, QueryBoolean):
                self._put(Head(boolean=bool(result)))
                self._put(None)
                return
            if isinstance(result, QuerySolutions):
                names = [v.value for v in result.variables]
                if not self._put(Head(columns=names)):
                    return
                rows = ({n: term_str(row[n]) for n in names if row[n] is not None} for row in result)
            else:  # CONSTRUCT / DESCRIBE
                if not self._put(Head(columns=["s", "p", "o"])):
                    return
                rows = ({"s": term_str(t.subject), "p": t.predicate.value, "o": term_str(t.object)} for t in result)
            for n, row in enumerate(rows):
                # one row past the limit tells "cut" from "exactly the limit"
                if n > self.limit or not self._put(row):
                    return
            self._put(None)
        except BaseException as exc:  # handed to the consumer, which reports it as one line
            # pyoxigraph's results must be dropped on this thread: nothing handed over may keep
            # this frame (and so them) alive through a traceback.
            failure = query_error(exc, text)
            if failure is exc:  # not pyoxigraph's: a bug, whose traceback stays readable
                exc.add_note("in the query thread:\n" + "".join(traceback.format_tb(exc.__traceback__)).rstrip())
                failure = exc.with_traceback(None)
            failure.__context__ = failure.__cause__ = None
            result = rows = None  # noqa: F841 (dropped here, on their own thread)
            self._put(failure)

    # ---- consumer ----------------------------------------------------------------------

    def _next(self, idle: float | None = None):
        """The next item; IDLE when `idle` seconds passed without one. Raises _Stop when the
        deadline passed or the query was cancelled."""
        waited = 0.0
        while True:
            if self._cancel.is_set():
                self._stop("cancelled")
            remaining = self._start + self.timeout - time.monotonic()
            if remaining <= 0:
                self._stop("timeout")
            wait = min(POLL_S, remaining)
            try:
                item = self._queue.get(timeout=wait)
            except queue.Empty:
                waited += wait
                if idle is not None and waited >= idle:
                    return IDLE
                continue
            if isinstance(item, BaseException):
                self.cancel()
                try:
                    raise item
                finally:  # no cycle exception -> this frame -> exception: it would hold the store
                    item = None
            return item

    def _stop(self, reason: str) -> None:
        self.cancel()
        self.outcome.stopped = self.outcome.stopped or reason
        raise _Stop

    def head(self) -> Head | None:
        """The columns (or ASK's answer); None when the deadline or a cancel came first."""
        if self._head is None:
            try:
                self._head = self._next()
            except _Stop:
                self._finish()
                return None
        return self._head

    def rows(self, idle: float | None = None) -> Iterator[dict[str, str] | None]:
        """Rows as they come, each a dict variable -> IRI, "_:id" or a literal's lexical form.
        With `idle`, None comes whenever no row came for that long (a table can print then)."""
        head = self.head()
        if head is None or head.boolean is not None:
            self._finish()
            return
        try:
            while (row := self._next(idle)) is not None:
                if row is IDLE:
                    yield None
                    continue
                if self.outcome.rows >= self.limit:
                    self._stop("limit")
                self.outcome.rows += 1
                yield row
        except _Stop:
            pass
        except GeneratorExit:  # the reader stopped early (Ctrl-C, a closed pipe)
            self.outcome.stopped = self.outcome.stopped or "cancelled"
            self.cancel()
            raise
        finally:
            self._finish()

    def _finish(self) -> None:
        self.outcome.seconds = time.monotonic() - self._start
        self.cancel()


class _Stop(Exception):
    pass


IDLE = object()  # no row for a while


def query_error(exc: BaseException, text: str = "") -> BaseException:
    """pyoxigraph's failure as bad input with one line; anything else unchanged."""
    if isinstance(exc, SyntaxError):
        return BadInput(f"SPARQL query: {one_line(exc)}")
    if isinstance(exc, (OSError, ValueError, RuntimeError)):
        # pyoxigraph raises OSError for an endpoint it cannot reach, without naming it
        remote = " (a federated SERVICE endpoint)" if isinstance(exc, OSError) and _SERVICE.search(text) else ""
        return BadInput(f"SPARQL query failed{remote}: {one_line(exc) or type(exc).__name__}")
    return exc


# ---- text tables: columns by display width (CJK characters take two cells) ----------------

def display_width(text: str) -> int:
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def fit(text: str, width: int) -> str:
    """`text` on one line in exactly `width` cells: cut with "…" when longer, padded when shorter."""
    text = " ".join(text.split("\n"))
    if display_width(text) > width:
        out, used = [], 0
        for ch in text:
            w = display_width(ch)
            if used + w > width - 1:
                break
            out.append(ch)
            used += w
        text = "".join(out) + "…"
    return text + " " * (width - display_width(text))
