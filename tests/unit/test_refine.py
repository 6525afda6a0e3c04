import dataclasses
from datetime import datetime

import pytest

import engine.stages.refine as refine_mod
from engine.config import Config
from engine.context import TurnContext
from engine.events import ChecksDone, ReplyDone
from engine.stages.refine import evidence_weights, needs_refining, rework_evidence
from engine.state import Candidate, Check, Evidence, TurnState
from kgstore.terms import Fact
from tests.support.fakes import ScriptedLLM

PHONE = Candidate(Fact("urn:omar", "urn:phone", "+47 555 0101", o_literal=True),
                  text="Omar Haddad's phone number is +47 555 0101", score=0.9)
GROUP = Candidate(Fact("urn:omar", "urn:member_of", "urn:eng"), text="Omar Haddad is a member of Engineering",
                  score=0.6)
NOISE = Candidate(Fact("urn:lisa", "urn:phone", "+47 555 0199", o_literal=True),
                  text="Lisa Wilson's phone number is +47 555 0199", score=0.3)
BRIDGE = Candidate(Fact("urn:eng", "urn:label", "Engineering", o_literal=True), text="Engineering is a group",
                   score=0.0)
NEXT = Candidate(Fact("urn:omar", "urn:office", "urn:o12"), text="Omar Haddad's office is Office 12", score=0.5)
WORSE = Candidate(Fact("urn:omar", "urn:email", "o@x.org", o_literal=True), text="Omar Haddad's email is o@x.org",
                  score=0.2)


def spo(c: Candidate) -> Evidence:
    return Evidence(s=c.fact.s, p=c.fact.p, o=c.fact.o, text=c.text)


def test_needs_refining_on_a_contradiction_or_a_low_fact_score():
    ok = [Check("a", "supported")]
    assert not needs_refining(ok, 1.0, 0.5)
    assert needs_refining(ok + [Check("b", "contradicted")], 0.5, 0.5)
    assert needs_refining(ok, 0.4, 0.5)
    assert not needs_refining([Check("c", "nei")], None, 0.5)


def test_weights_are_relevance_times_consistency_and_contradicting_evidence_is_pinned():
    checks = [Check("Omar is in Engineering", "supported", spo(GROUP)),
              Check("Omar's phone is +47 555 0199", "contradicted", spo(PHONE))]
    weights, pinned = evidence_weights([PHONE, GROUP, NOISE, BRIDGE], checks)
    assert pinned == {0}
    assert weights[1] == pytest.approx(0.6)  # supports a claim
    assert weights[2] == pytest.approx(0.15)  # untouched: half its relevance
    assert weights[3] == pytest.approx(0.005)  # a bridge with no score of its own


def test_rework_drops_the_weakest_keeps_the_contradicting_fact_and_pulls_the_next_best():
    checks = [Check("Omar's phone is +47 555 0199", "contradicted", spo(PHONE))]
    facts, dropped, added = rework_evidence([PHONE, GROUP, NOISE], checks, [PHONE, GROUP, NOISE, WORSE, NEXT],
                                            used={PHONE.fact.key, GROUP.fact.key, NOISE.fact.key})
    assert dropped == [NOISE]
    assert added == [NEXT]
    assert facts == [PHONE, GROUP, NEXT]


def test_contradicting_evidence_from_outside_the_retrieved_set_is_pulled_in():
    outside = Evidence(s="urn:omar", p="urn:phone", o="+47 555 0101", text="Omar Haddad's phone is +47 555 0101")
    checks = [Check("Omar's phone is 123", "contradicted", outside)]
    facts, dropped, added = rework_evidence([GROUP, NOISE], checks, [], used=set())
    assert dropped == [NOISE]
    assert [c.text for c in added] == ["Omar Haddad's phone is +47 555 0101"]
    assert added[0].fact.key == ("urn:omar", "urn:phone", "+47 555 0101")


def state_with_bad_reply() -> TurnState:
    state = TurnState(session_id="t", turn=1, text="What is Omar's phone number?", now=datetime(2026, 11, 21, 10))
    state.retrieved = [PHONE, GROUP, NOISE]
    state.candidates = [PHONE, GROUP, NOISE, NEXT, WORSE]
    state.response = "Omar's phone number is +47 555 0199."
    state.checks = [Check("Omar's phone number is +47 555 0199", "contradicted", spo(PHONE))]
    state.fact_score, state.neip = 0.0, 0.0
    return state


def fake_recheck(state, ctx, reply, facts):
    verdict = "supported" if "0101" in reply else "contradicted"
    return dataclasses.replace(state, response=reply, retrieved=facts, fact_score=float(verdict == "supported"),
                               neip=0.0, checks=[Check(reply, verdict, spo(PHONE))])


def run_refine(llm, monkeypatch, **config):
    monkeypatch.setattr(refine_mod, "recheck", fake_recheck)
    events: list = []
    # --answer llm: these tests are about the refinement, not about composing from the KG after it
    ctx = TurnContext(config=Config(answer="llm", **config), store=None, background=None, resources={"llm": llm})
    ctx.emit = events.append
    state = state_with_bad_reply()
    refine_mod.run(state, ctx)
    return state, events


def test_refine_regenerates_once_with_the_reworked_evidence_and_keeps_both_replies(monkeypatch):
    llm = ScriptedLLM(["Omar's phone number is +47 555 0101."])
    state, events = run_refine(llm, monkeypatch)
    assert state.response == "Omar's phone number is +47 555 0199."  # the first reply stays
    refined = state.refined
    assert refined.response == "Omar's phone number is +47 555 0101."
    assert refined.fact_score == 1.0 and refined.steps == 1
    assert refined.dropped == [NOISE.text] and refined.added == [NEXT.text]
    prompt = llm.calls[0][0]["content"]
    assert NOISE.text not in prompt and NEXT.text in prompt and PHONE.text in prompt
    assert "+47 555 0199" in prompt  # told which claim was wrong
    assert ReplyDone(refined.response, refined=True) in events
    assert any(isinstance(e, ChecksDone) and e.refined for e in events)


def test_refine_steps_bound_the_regenerations(monkeypatch):
    llm = ScriptedLLM(["Still +47 555 0199.", "Again +47 555 0199.", "Once more +47 555 0199."])
    state, _ = run_refine(llm, monkeypatch, refine_steps=2)
    assert len(llm.calls) == 2 and state.refined.steps == 2
    assert state.refined.response == "Again +47 555 0199."


def test_nothing_happens_when_the_reply_is_fine_or_refining_is_off(monkeypatch):
    llm = ScriptedLLM(["x"])
    state, events = run_refine(llm, monkeypatch, refine_steps=0)
    assert state.refined is None and not llm.calls
    monkeypatch.setattr(refine_mod, "recheck", fake_recheck)
    ctx = TurnContext(config=Config(answer="llm"), store=None, background=None, resources={"llm": llm})
    good = state_with_bad_reply()
    good.checks = [Check("Omar's phone number is +47 555 0101", "supported", spo(PHONE))]
    good.fact_score = 1.0
    refine_mod.run(good, ctx)
    assert good.refined is None and not llm.calls
    missing = state_with_bad_reply()
    missing.checks = []  # the check stage produced nothing
    refine_mod.run(missing, ctx)
    assert missing.refined is None and not llm.calls


def test_what_someone_said_is_not_pulled_in_as_knowledge():
    said = Evidence(source="dialogue", turn=1, speaker="user", text="I am Omar Haddad")
    checks = [Check("You are Lisa", "contradicted", said)]
    facts, dropped, added = rework_evidence([GROUP, NOISE], checks, [WORSE], used=set())
    assert [c.text for c in added] == [WORSE.text]
