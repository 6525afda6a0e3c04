"""The one API the TUI and the CLI use to talk to the engine."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from datetime import datetime

from engine import dialogue
from engine.background import OutageTolerantBackground
from engine.config import Config, parse_now
from engine.context import Cancelled, TurnContext
from engine.events import EventSink, ignore
from engine.pipeline import RETRIEVAL_STAGES, STAGES, run_stages
from engine.state import Focus, TurnState
from kgstore.gcpause import gc_paused

# Characters of one turn that anything reads (mention detection, linking, the rewrite, the
# prompt, the dialogue graph): a turn is cut to them first, as the work on a turn grows with its
# words (a 4 MB turn took 2.2 GB) and no question needs more. The app shows as many of a message.
MAX_TURN_CHARS = 4_000


def cut_turn(text: str) -> tuple[str, str]:
    """`text` cut to MAX_TURN_CHARS (at a space when one is near the cut, so that no name is
    split), and the note that says so ("" when nothing was cut)."""
    if len(text) <= MAX_TURN_CHARS:
        return text, ""
    cut = text[:MAX_TURN_CHARS]
    space = cut.rfind(" ", MAX_TURN_CHARS - 100)
    cut = cut[:space] if space > 0 else cut
    return cut, f"the turn was cut to its first {len(cut):,} characters of {len(text):,}; the rest was not read"


class Session:
    """One conversation over one store. `user_turn` blocks: call it from a thread worker."""

    def __init__(self, ctx: TurnContext, session_id: str | None = None):
        self.ctx = ctx
        self.session_id = session_id or uuid.uuid4().hex[:12]
        # A known session id resumes that conversation: its turns live in the store's dialogue graph.
        self.history: list[tuple[str, str]] = dialogue.history(ctx.store, session_id) if session_id else []
        self.focus = Focus()  # what each user turn linked: follow-ups ("and her e-mail?") lean on it
        self._fixed_now = parse_now(ctx.config.now)
        self._lock = threading.Lock()
        # The turn in progress, for observers: an event sink may read it between stages (the
        # stages run in the caller's thread, so it is not being written while the sink runs).
        self.current: TurnState | None = None

    @classmethod
    def open(cls, config: Config, session_id: str | None = None, **resources) -> Session:
        """Open the store and background named by `config`; `resources` pre-seeds shared
        objects (e.g. `llm=` a backend) instead of building them from the config."""
        from engine.setup import build_context

        ctx = build_context(config)
        ctx.resources.update(resources)
        return cls(ctx, session_id)

    @property
    def config(self) -> Config:
        return self.ctx.config

    def now(self) -> datetime:
        return self._fixed_now or datetime.now().replace(microsecond=0)

    def new_state(self, text: str, alternatives: list[str] | None = None) -> TurnState:
        """The TurnState of the next user turn, for callers that run stages one by one
        (evaluations, benchmarks); they append the turn to `history` themselves. `alternatives`
        are the recognizer's other hypotheses of a spoken turn. A long turn is cut (`text_note`
        says so): `state.text` is what the turn is taken to say."""
        text, note = cut_turn(text)
        return TurnState(session_id=self.session_id, turn=len(self.history) + 1, text=text, now=self.now(),
                         history=list(self.history), focus=self.focus,
                         alternatives=[cut_turn(a)[0] for a in alternatives or []], text_note=note)

    def user_turn(self, text: str, *, on_event: EventSink = ignore, cancel: threading.Event | None = None,
                  answer: bool = True, alternatives: list[str] | None = None) -> TurnState:
        """Run one user turn through the pipeline (all stages, or retrieval only when
        `answer` is false). Faults a stage expects (a model server down, the reasoning budget,
        an endpoint gone) are recorded in the state and the turn goes on; a cancel keeps the
        partial reply marked as cut; anything else propagates, and the dialogue so far is kept.
        `alternatives`: the recognizer's other hypotheses when `text` is a spoken turn's best."""
        with self._lock, gc_paused():  # a turn's objects go by reference counting; the collector runs between turns
            state = self.current = self.new_state(text, alternatives)
            self.ctx.emit = on_event
            self.ctx.cancel = cancel or threading.Event()
            background = self.ctx.background
            if isinstance(background, OutageTolerantBackground):
                background.begin_turn()
            try:
                run_stages(state, self.ctx, STAGES if answer else RETRIEVAL_STAGES)
            except Cancelled:
                state.cut = True
                if answer:  # what a cut turn shows is still the answer stage's call (its partial reply)
                    from engine.stages.answer import run as settle

                    settle(state, self.ctx)
            finally:
                self.ctx.emit = ignore
            if isinstance(background, OutageTolerantBackground) and background.outage:
                note = f"background knowledge unavailable, this turn used the dialogue only ({background.outage})"
                state.candidates_note = "; ".join(n for n in (state.candidates_note, note) if n)
            self.history.append(("user", state.text))
            reply = state.shown_reply
            if answer and reply:
                self._record_system_turn(reply)
            return state

    def load(self, path: str, format: str | None = None, progress=None, key: str | None = None):
        """Load a KG file into the background (all or nothing: BadInput leaves the store as it
        was) and forget what was measured on the old background. `key`: the key column of a
        table file."""
        from kgstore.gcpause import unsettle

        with self._lock:
            unsettle()  # the old background's objects may be garbage after this load
            report = self.ctx.store.load(path, format=format, progress=progress, key=key)
            for measured in ("background_size", "entity_kinds", "class_kinds"):
                self.ctx.resources.pop(measured, None)
            return report

    def prepare(self, say: Callable[[str], None] = lambda text: None) -> tuple[str, str]:
        """Pay up front what a first turn would: the MiniLM export when this install has none yet
        (`say` hears of it first), the scorer's models, the embeddings of a small KG's facts
        (engine.prefetch: at most 1,500 triples), the English parser the checker splits replies
        with, the name index of the background (a second for 10^5 labels); then what was built is
        left out of the garbage collector's full passes (kgstore.gcpause.settle). Blocking
        (seconds); call it from a worker after start-up and after a load. Returns the scorer's
        device and why not CUDA (engine.stages.score.prepare.scoring_device)."""
        from engine.nlp.dependency import parser
        from engine.nlp.mentions import label_index
        from engine.prefetch import prefetch
        from engine.stages.score.prepare import ready
        from kgstore.gcpause import settle

        with self._lock:
            scoring = ready(self.ctx, say)
            prefetch(self.ctx)
            parser()
            label_index(self.ctx)
            settle()  # what was built here lives as long as the background: no full pass walks it again
            return scoring

    def system_turn(self, text: str) -> str:
        """Record a system turn as given (replaying a dialogue): nothing is generated. Returns
        the note saying the turn was cut, or ""."""
        text, note = cut_turn(text)
        with self._lock:
            self._record_system_turn(text)
        return note

    def _record_system_turn(self, text: str) -> None:
        """Write a system turn to the dialogue graph, link the names it says, and let it fill in
        the meeting the user is arranging (a confirmation names it, its time, room, invitees)."""
        from engine import meeting
        from engine.nlp.kinds import entity_kind
        from engine.stages.observe import record_system_turn, session_speaker
        from engine.stages.reason import link_system_turn

        said = record_system_turn(self.ctx, self.session_id, len(self.history) + 1, text)
        link_system_turn(self.ctx, said)
        meeting.system_turn(self.ctx, self.session_id, said.turn, text, said.names + said.times,
                            lambda iri: entity_kind(self.ctx, iri), session_speaker(self.ctx, self.session_id))
        self.history.append(("system", text))

