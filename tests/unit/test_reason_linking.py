"""Entity linking and coreference through the rules, the time budget, rule-file errors and
hostile names (tests/reasoning_calendar.py is the world)."""

from __future__ import annotations

import threading

import pytest

from engine.config import Config
from engine.setup import build_context
from kgstore import vocab
from kgstore.errors import BadInput
from kgstore.terms import Fact
from rules.reasoner import Atom, Program, RuleSet, Var
from rules.similarity import decode, encode
from tests.support.reasoning_calendar import derived, iri, open_session, turn

LISA, OMAR, MARIA, SEAN = (iri("person", k) for k in ("lisa", "omar", "maria", "sean"))
SYNC, BUDGET = iri("event", "sync"), iri("event", "budget")
ALPHA = iri("room", "Meeting Room Alpha")


def mention(state, text):
    return next(m for m in state.mentions if m.text == text)


@pytest.fixture()
def session():
    return open_session(reason_timeout_ms=20000)


def test_exact_misheard_and_partial_names_link(session):
    state = turn(session, "Is Omar Haddad in today?")
    m = mention(state, "Omar Haddad")
    assert m.entity == OMAR and m.p > 0.9
    assert mention(turn(session, "and omar hadad tomorrow"), "omar hadad").entity == OMAR
    assert mention(turn(session, "What about Sean OBrien?"), "Sean OBrien").entity == SEAN
    assert mention(turn(session, "Where is Alpha?"), "Alpha").entity == ALPHA


def test_refers_to_is_stored_with_its_probability(session):
    state = turn(session, "Where is Lisa Wilson?")
    m = mention(state, "Lisa Wilson")
    p = session.ctx.store.probability(Fact(m.iri, vocab.KGC_REFERS_TO, LISA), vocab.dialogue_graph(session.session_id))
    assert p == pytest.approx(m.p, abs=1e-4)


def test_pronoun_takes_up_the_last_agreeing_entity(session):
    turn(session, "Where is Maria Lopez right now?")
    session.system_turn("Maria Lopez is in the Budget Review in Meeting Room Beta.")
    state = turn(session, "When does she finish?")
    she = mention(state, "she")
    assert she.entity == MARIA and she.p >= 0.5
    # "it" agrees with the event (or room), never with the person.
    it = mention(turn(session, "How long does it last?"), "it")
    assert it.entity in (BUDGET, iri("room", "Meeting Room Beta"))


def test_a_person_pronoun_never_links_to_a_room(session):
    turn(session, "Is Meeting Room Alpha booked?")
    state = turn(session, "Is she there?")
    she = mention(state, "she")
    assert she.entity is None or she.entity != ALPHA


def test_pronoun_in_the_same_turn(session):
    state = turn(session, "Is Omar Haddad at his desk?")
    assert mention(state, "his").entity == OMAR


def test_first_person_is_the_speaker_once_introduced(session):
    state = turn(session, "Hi, my name is Maria Lopez. What do I have on Friday?")
    assert state.speaker_entity == MARIA
    assert mention(state, "I").entity == MARIA
    assert derived(state, "attends_on") == [(MARIA, "Friday 6 March", iri("event", "lab"))]
    later = turn(session, "And my meetings today?")
    assert mention(later, "my").entity == MARIA  # the speaker is kept in the dialogue graph


def test_recency_prefers_the_event_just_mentioned():
    extra = [Fact(iri("event", "sync2"), vocab.RDF_TYPE, vocab.OFFICE_CLASSES["event"]),
             Fact(iri("event", "sync2"), vocab.RDFS_LABEL, "Weekly Sync", o_literal=True),
             Fact(iri("event", "sync2"), vocab.office_predicate("date"), "2026-03-06", o_literal=True,
                  datatype=vocab.XSD + "date")]
    s = open_session(extra, reason_timeout_ms=20000)
    state = turn(s, "Is the Weekly Sync on Friday?")
    assert mention(state, "Weekly Sync").entity == iri("event", "sync2")  # the day decides
    s.system_turn("Yes, the Weekly Sync on Friday is at noon.")
    assert mention(turn(s, "Who organizes the Weekly Sync?"), "Weekly Sync").entity == iri("event", "sync2")


def test_the_day_decides_among_many_events_of_one_name():
    # One "Methods Workshop" per day: the day named must decide even for the fourth candidate.
    extra = []
    for key, day in [("w2", "2026-03-03"), ("w3", "2026-03-04"), ("w4", "2026-03-05"), ("w5", "2026-03-06")]:
        e = iri("event", key)
        extra += [Fact(e, vocab.RDF_TYPE, vocab.OFFICE_CLASSES["event"]),
                  Fact(e, vocab.RDFS_LABEL, "Methods Workshop", o_literal=True),
                  Fact(e, vocab.office_predicate("date"), day, o_literal=True, datatype=vocab.XSD + "date")]
    s = open_session(extra, reason_timeout_ms=20000)
    state = turn(s, "Where is the Methods Workshop on Friday?")
    assert mention(state, "Methods Workshop").entity == iri("event", "w5")


def test_hostile_names_become_safe_constants():
    hostile = 'Zoë "Z" O\'Brien \\ Jr. %41 ünïcode'
    assert decode(encode(hostile)) == hostile
    assert "'" not in encode(hostile)[1:-1] and "\\" not in encode(hostile)
    person = iri("person", "hostile")
    extra = [Fact(person, vocab.RDF_TYPE, vocab.OFFICE_CLASSES["person"]),
             Fact(person, vocab.RDFS_LABEL, hostile, o_literal=True),
             Fact(person, vocab.office_predicate("member_of"), iri("group", "Biology")),
             Fact(iri("event", "lab"), vocab.office_predicate("attendee"), person)]
    s = open_session(extra, reason_timeout_ms=20000)
    state = turn(s, f"Which group is {hostile} in?")
    m = next(m for m in state.mentions if m.kind == "name" and m.entity == person)
    assert m.label == hostile and not state.reasoning_note
    d = next(d for d in state.derived if d.predicate == "person_group")
    assert d.text == f"{hostile} belongs to the Biology group"


def test_rendered_program_parses_with_hostile_text():
    from problog import get_evaluatable
    from problog.program import PrologString

    prog = Program()
    for text in ("it's", 'say "hi"', "back\\slash", "naïve ☃", "a.b", "50%"):
        prog.fact("name", Atom.of("e"), Atom.of(text))
    prog.query("name", Atom.of("e"), Var("N"))
    result = get_evaluatable("sdd").create_from(PrologString(prog.render())).evaluate()
    texts = sorted(decode(str(t.args[1])) for t in result)
    assert texts == sorted(["it's", 'say "hi"', "back\\slash", "naïve ☃", "a.b", "50%"])


def test_rule_file_with_syntax_error_stops_start_up(tmp_path):
    bad = tmp_path / "mine.pl"
    bad.write_text("% my rules\nok(a).\nbroken(X :- focus(X).\n", encoding="utf-8")
    with pytest.raises(BadInput) as err:
        build_context(Config(memory=True, demo="none", rules=[str(bad)]))
    assert f"{bad}:3" in str(err.value)
    missing = tmp_path / "nope.pl"
    with pytest.raises(BadInput, match="nope.pl"):
        build_context(Config(memory=True, demo="none", rules=[str(missing)]))


def test_user_rule_file_adds_a_derived_predicate_with_its_template(tmp_path):
    mine = tmp_path / "mine.pl"
    mine.write_text('template(colleague/2, "{1} works with {2}").\n'
                    "colleague(P, Q) :- focus(P), edge(P, member_of, G), edge(Q, member_of, G), P \\= Q.\n",
                    encoding="utf-8")
    s = open_session(reason_timeout_ms=20000, rules=[str(mine)])
    state = turn(s, "Who does Lisa Wilson work with?")
    d = next(d for d in state.derived if d.predicate == "colleague")
    assert d.args == [LISA, OMAR] and d.text == "Lisa Wilson works with Omar Haddad"


def test_a_rule_file_named_like_a_builtin_one_replaces_it(tmp_path):
    own = tmp_path / "commonsense.pl"
    own.write_text("focus(E) :- new(M), refers_to(M, E).\n", encoding="utf-8")
    rules = RuleSet.load([str(own)])
    assert [p.name for p in rules.files] == ["entity_linking.pl", "generic.pl", "commonsense.pl"]
    assert ("event_today", 2) not in rules.derived_predicates()


@pytest.mark.parametrize("count", [
    "count(N) :- between(1, 100000000, N).\n",  # one builtin call: no engine step in between
    "count(N) :- step(0, N).\nstep(N, N).\nstep(N, M) :- N < 100000000, N1 is N + 1, step(N1, M).\n",
])
def test_too_slow_rule_ends_the_turn_within_budget_with_a_note(tmp_path, count):
    slow = tmp_path / "slow.pl"
    slow.write_text('template(slow/2, "{1} {2}").\n' + count +
                    "slow(X, N) :- focus(X), count(N), N < 0.\n", encoding="utf-8")
    s = open_session(reason_timeout_ms=300, rules=[str(slow)])
    state = turn(s, "Where is Lisa Wilson?")
    assert "time budget of 300 ms" in state.reasoning_note
    assert state.derived == []
    assert mention(state, "Lisa Wilson").entity == LISA  # the name match still links
    for t in threading.enumerate():  # the abandoned grounding stops
        if t.name == "kgchat-reason":
            t.join(10)
            assert not t.is_alive()


@pytest.mark.parametrize("rules_text, kind", [
    ('template(bad/2, "{1} {2}").\n0.5::bad(X, Y) :- focus(X).\n', "NonGroundProbabilisticClause"),
    ('template(p/1, "{1}").\np(X) :- focus(X), \\+ q(X).\nq(X) :- focus(X), \\+ p(X).\n', "NegativeCycle"),
])
def test_a_rule_that_raises_ends_the_turn_with_a_note(tmp_path, rules_text, kind):
    f = tmp_path / "bad.pl"
    f.write_text(rules_text, encoding="utf-8")
    s = open_session(reason_timeout_ms=20000, rules=[str(f)])
    state = turn(s, "Where is Lisa Wilson?")
    assert kind in state.reasoning_note and state.derived == []
    assert mention(state, "Lisa Wilson").entity == LISA


def test_the_nth_one_is_the_nth_item_the_previous_turn_listed(session):
    turn(session, "What is on today?")
    session.system_turn("Today there is the Weekly Sync in Meeting Room Alpha and the Budget Review in Meeting Room Beta.")
    assert mention(turn(session, "Who goes to the second one?"), "the second one").entity == BUDGET
    session.system_turn("Omar Haddad and Maria Lopez go to the Budget Review.")
    assert mention(turn(session, "What about the first one?"), "the first one").entity == OMAR


def test_a_class_of_the_users_own_vocabulary_gets_its_kind_from_its_name():
    from rules.kinds import kind_of_types

    assert kind_of_types(["http://example.org/kitchen/Person"]) == "person"  # "he" can take it up
    assert kind_of_types(["http://schema.org/MusicGroup"]) == "group"  # "they" can
    assert kind_of_types(["http://example.org/kitchen/Dish"]) == "thing"
    assert kind_of_types(["http://example.org/Personality"]) == "thing"


def test_a_name_heard_as_words_that_sound_like_it_links():
    # "Hubbard" for "Hobart": three letters off, too far to spell as a slip, the same sounds.
    person = iri("person", "mikaela")
    session = open_session([Fact(person, vocab.RDF_TYPE, vocab.OFFICE_CLASSES["person"]),
                            Fact(person, vocab.RDFS_LABEL, "Mikaela Hobart", o_literal=True)],
                           reason_timeout_ms=20000)
    state = turn(session, "Hi, I'm looking for Michaela Hubbard. Which room is she in?")
    assert mention(state, "Michaela Hubbard").entity == person
    assert mention(state, "she").entity == person


def test_that_is_the_one_takes_up_what_the_reply_named(session):
    session.system_turn("I see a meeting called Budget Review on the calendar, is that the one you mean?")
    state = turn(session, "Yes, that is the one I mean. Can you add me to it?")
    assert mention(state, "that").entity == BUDGET
    assert not [m for m in turn(session, "That sounds great.").mentions if m.kind == "pronoun"]


@pytest.mark.parametrize("named", ["Lisa Wilson", "Lisa Berg"])
def test_out_of_time_a_name_of_two_people_is_the_one_just_spoken_of(tmp_path, named):
    slow = tmp_path / "slow.pl"
    slow.write_text("count(N) :- between(1, 100000000, N).\n"
                    "refers_to(M, E) :- new(M), candidate(M, E), count(N), N < 0.\n", encoding="utf-8")
    berg = iri("person", "berg")
    s = open_session([Fact(berg, vocab.RDF_TYPE, vocab.OFFICE_CLASSES["person"]),
                      Fact(berg, vocab.RDFS_LABEL, "Lisa Berg", o_literal=True)],
                     reason_timeout_ms=300, rules=[str(slow)])
    s.system_turn(f"{named} is in Meeting Room Beta.")
    state = turn(s, "Can you invite Lisa?")
    assert "name matching only" in state.reasoning_note
    assert mention(state, "Lisa").entity == {"Lisa Wilson": LISA, "Lisa Berg": berg}[named]


def test_a_pronoun_takes_up_the_answer_the_reply_brought_in(session):
    # "they" agrees with Omar and with his group alike; the group is what the reply answered
    turn(session, "Which group is Omar Haddad in?")
    session.system_turn("Omar Haddad is a member of Engineering.")
    assert mention(turn(session, "Who else is in it with them?"), "them").entity == iri("group", "Engineering")


def test_there_is_the_place_the_reply_answered_unless_it_says_something_exists(session):
    turn(session, "Where is the Weekly Sync?")
    session.system_turn("The Weekly Sync is in Meeting Room Alpha.")
    assert mention(turn(session, "Who else is meeting there today?"), "there").entity == ALPHA
    assert not [m for m in turn(session, "Is there a free room?").mentions if m.text == "there"]
    assert not [m for m in turn(session, "There are two, I think.").mentions if m.text == "There"]


def test_a_reply_that_tells_about_a_thing_gives_no_answer_to_take_up(session):
    turn(session, "Tell me about Omar Haddad.")
    session.system_turn("Omar Haddad is a member of Engineering.")
    # nothing was asked: "them" keeps to Omar, of whom the user spoke
    assert mention(turn(session, "Who else works with them?"), "them").entity == OMAR


def test_it_keeps_to_the_topic_over_the_place_the_reply_answered(session):
    turn(session, "Where is the Budget Review?")
    session.system_turn("The Budget Review is in Meeting Room Beta.")
    assert mention(turn(session, "When does it start?"), "it").entity == BUDGET


def test_a_pronoun_after_an_agreeing_name_of_its_own_turn_takes_that_name_not_the_topic(session):
    turn(session, "Where is the Budget Review?")
    session.system_turn("The Budget Review is in Meeting Room Beta.")
    state = turn(session, "When does the Weekly Sync start, and who goes to it?")
    it = mention(state, "it")
    assert it.entity == SYNC
    assert BUDGET not in [e for e, _ in it.candidates]  # the topic is no longer in the running


@pytest.mark.parametrize(("text", "name", "pronoun", "here"), [
    ("Is Lisa in her office?", "Lisa", "her", True),
    ("When was Velvet Static formed, and which label are they signed to?", "Velvet Static", "they", True),
    ("Does Omar know where his meeting is?", "Omar", "his", True),
    ("Can Lisa meet him?", "Lisa", "him", False),
    ("Can Lisa call her tomorrow?", "Lisa", "her", False),
    ("Does Maria know her?", "Maria", "her", False),
])
def test_a_name_of_the_turn_is_taken_up_by_a_possessive_or_from_a_later_clause(text, name, pronoun, here):
    from engine.stages.reason import takes_up_here
    from engine.state import Mention

    def at(words, kind):
        i = text.index(words)
        return Mention(words, i, i + len(words), kind)

    assert takes_up_here(text, at(name, "name"), at(pronoun, "pronoun")) is here


def test_they_after_a_reply_that_named_two_things_of_a_kind_means_both(session):
    session.system_turn("Today there is the Weekly Sync and then the Budget Review.")
    assert mention(turn(session, "When do they start?"), "they").together == [SYNC, BUDGET]
    # people go first: "they" after a reply naming two people and two events means the people
    session.system_turn("Omar Haddad and Maria Lopez go to the Weekly Sync and the Budget Review.")
    assert mention(turn(session, "Are they in today?"), "they").together == [OMAR, MARIA]


def test_she_is_no_one_the_kg_knows_as_a_man():
    owen, lena = iri("person", "owen"), iri("person", "lena")
    gender, spouse = "http://example.org/gender", "http://example.org/spouse"
    facts = [Fact(owen, vocab.RDF_TYPE, vocab.OFFICE_CLASSES["person"]), Fact(owen, vocab.RDFS_LABEL, "Owen Pritchard", o_literal=True),
             Fact(owen, gender, "male", o_literal=True), Fact(owen, spouse, lena),
             Fact(lena, vocab.RDF_TYPE, vocab.OFFICE_CLASSES["person"]), Fact(lena, vocab.RDFS_LABEL, "Lena Okafor", o_literal=True),
             Fact(lena, gender, "female", o_literal=True)]
    session = open_session(facts, reason_timeout_ms=20000)
    turn(session, "Who is Owen Pritchard married to?")
    session.system_turn("Owen Pritchard is married to Lena Okafor.")
    assert mention(turn(session, "Where was she born?"), "she").entity == lena
    assert mention(turn(session, "And where was he born?"), "he").entity == owen
