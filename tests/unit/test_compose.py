"""kgchat's own answers (engine/stages/answer/), the merge of restated facts, the
first screen's overview, and `kgchat ask --answer`, on a small fixed office KG."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.config import Config, ConfigError, load_config
from engine.nlp.sentences import merge_restatements
from engine.session import Session
from engine.stages.answer.compose import compose_text, select, text_key
from engine.stages.answer.missing import asked_about, not_found_text
from engine.state import Candidate, Evidence
from kgstore.terms import Fact
from tests.support.fakes import ScriptedLLM
from tests.support.office import NOW, office_turtle

WRONG_PHONE = "Mark Taylor's phone number is +47 999 99 999."


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    path = tmp_path_factory.mktemp("kg") / "office.ttl"
    path.write_text(office_turtle(), encoding="utf-8")
    return path


def session(kg, replies, **options) -> Session:
    config = Config(kg=[str(kg)], memory=True, demo="none", scorer="bm25", now=NOW, reason_timeout_ms=60_000,
                    **options)
    return Session.open(config, llm=ScriptedLLM(replies))


def learned_session(path, turtle: str, replies: list[str]) -> Session:
    """A session over a small KG written for the test, with the shipped relevance model."""
    path.write_text(turtle, encoding="utf-8")
    config = Config(kg=[str(path)], memory=True, demo="none", scorer="learned", now=NOW, reason_timeout_ms=60_000,
                    refine_steps=0)
    return Session.open(config, llm=ScriptedLLM(replies))


def fact(s, p, o, text, score=0.5, s_label="", o_label="", p_label="", derived=False) -> Candidate:
    return Candidate(fact=Fact(s, p, o), text=text, score=score, s_label=s_label, o_label=o_label, p_label=p_label,
                     derived=derived)


def test_facts_of_one_entity_share_it_in_one_sentence():
    facts = [fact("e", "loc", "r", "Design Review will be held in Room Beta", s_label="Design Review"),
             fact("e", "start", "14", "Design Review starts at 14:00", s_label="Design Review"),
             fact("e", "org", "m", "Design Review is organized by Mark Taylor", s_label="Design Review"),
             fact("m", "phone", "1", "Mark Taylor's phone number is 1", s_label="Mark Taylor")]
    assert compose_text(facts) == ("Design Review will be held in Room Beta, starts at 14:00 and is organized by "
                                   "Mark Taylor. Mark Taylor's phone number is 1.")


def test_a_sentence_about_two_entities_is_not_merged_with_those_of_one():
    # Merged, "organizes Coffee Chat" read as said of the room too, and the check contradicted it.
    facts = [fact("p", "shared", "h", "Peter Fischer and Meeting Room Beta are both connected to Hiring Committee",
                  s_label="Peter Fischer", o_label="Hiring Committee", derived=True),
             fact("p", "org", "c", "Peter Fischer organizes Coffee Chat", s_label="Peter Fischer")]
    assert compose_text(facts) == ("Peter Fischer and Meeting Room Beta are both connected to Hiring Committee. "
                                   "Peter Fischer organizes Coffee Chat.")


def test_a_reply_that_leaves_out_the_one_sure_answer_is_replaced():
    from engine.stages.answer.judge import replacement_reason
    from engine.state import Check

    founder = fact("q", "founded_by", "ines", "Quillfeather was founded by Inès Abernethy", score=0.996)
    year = fact("q", "inception", "1922", "Quillfeather was founded on 1922", score=0.106)

    def said(f):
        return [Check(claim=f.text, verdict="supported", evidence=Evidence(s=f.fact.s, p=f.fact.p, o=f.fact.o,
                                                                           text=f.text, source="kg"))]

    assert "leaves out" in replacement_reason(said(year), year.text, "", [founder, year])
    assert replacement_reason(said(founder), founder.text, "", [founder, year]) == ""
    year.score = 0.6  # two facts about as sure: either may be what was asked
    assert replacement_reason(said(year), year.text, "", [founder, year]) == ""


def test_a_fallback_verbalization_is_said_by_the_realizer():
    facts = [fact("r", "flows", "l", "Ystrad Burn — flows into — Lake Ardvane", s_label="Ystrad Burn",
                  p_label="flows into", o_label="Lake Ardvane"),
             fact("r", "len", "56", "Ystrad Burn — length km — 56", s_label="Ystrad Burn", p_label="length km",
                  o_label="56")]
    # the unit after the number; the subject said once, then "its"
    assert compose_text(facts) == "Ystrad Burn flows into Lake Ardvane. Its length is 56 km."
    # a person said again: the possessive the caller reads from the KG
    facts = [fact("w", "cit", "g", "Kai Wenn — citizen of — Gerland", s_label="Kai Wenn", p_label="citizen of",
                  o_label="Gerland"),
             fact("w", "occ", "p", "Kai Wenn — occupation — politician", s_label="Kai Wenn", p_label="occupation",
                  o_label="politician")]
    assert compose_text(facts, lambda iri: "his") == "Kai Wenn is citizen of Gerland. His occupation is politician."
    # A KG whose labels start in lower case ("tarte Tatin"): its sentences start with a capital.
    facts = [fact("t", "ing", "b", "Tarte Tatin — has ingredient — butter", s_label="tarte Tatin",
                  p_label="has ingredient", o_label="butter"),
             fact("t", "ing", "a", "Tarte Tatin — has ingredient — apple", s_label="tarte Tatin",
                  p_label="has ingredient", o_label="apple")]
    assert compose_text(facts) == "Tarte Tatin has the ingredients butter and apple."


def test_a_list_shared_by_several_subjects_is_said_from_its_object():
    facts = [fact(s, "pf", "a", f"{name} — plays for — Arsenal", s_label=name, p_label="plays for", o_label="Arsenal")
             for s, name in (("s", "Bukayo Saka"), ("w", "William Saliba"))]
    facts += [fact("a", "hc", "m", "Arsenal — head coach — Mikel Arteta", s_label="Arsenal", p_label="head coach",
                   o_label="Mikel Arteta"),
              fact("a", "in", "l", "Arsenal — located in — London", s_label="Arsenal", p_label="located in",
                   o_label="London")]
    assert compose_text(facts) == ("Bukayo Saka and William Saliba play for Arsenal. Arsenal is located in London. "
                                   "Its head coach is Mikel Arteta.")


def test_a_list_ends_its_sentence_and_what_follows_opens_with_its():
    # "... bulgur and onion and its cuisine is ..." was read as "onion is Turkish cuisine"
    facts = [fact("p", "ing", o, f"Bulgur Pilaf — has ingredient — {o}", s_label="Bulgur Pilaf",
                  p_label="has ingredient", o_label=o) for o in ("bulgur", "onion")]
    facts += [fact("p", "by", "a", "Bulgur Pilaf — created by — Ayla Demir", s_label="Bulgur Pilaf",
                   p_label="created by", o_label="Ayla Demir"),
              fact("p", "cu", "t", "Bulgur Pilaf — cuisine — Turkish cuisine", s_label="Bulgur Pilaf",
                   p_label="cuisine", o_label="Turkish cuisine")]
    assert compose_text(facts) == ("Bulgur Pilaf is created by Ayla Demir and has the ingredients bulgur and onion. "
                                   "Its cuisine is Turkish cuisine.")


def test_select_lists_every_value_of_the_best_relation_and_stops_when_it_was_asked():
    other = fact("f", "genre", "g", "Solaris is a drama", s_label="Solaris")
    cast = [Candidate(fact=Fact("f", "cast", a), text=f"{a} is a cast member of Solaris", s_label="Solaris",
                      o_label=a, p_label="cast member") for a in ("Ann", "Bob", "Cy")]
    assert select(cast + [other], {"cast", "membe"}) == cast
    assert select(cast + [other], set()) == cast + [other]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["Ada attends Review", "ada attends review.", "Review starts at 9",
                                 "Bo's phone number is 2", "X — p — Y"]), min_size=1, max_size=6))
def test_composing_says_each_fact_once_and_is_deterministic(texts):
    facts = [fact(f"s{i}", "p", "o", t, s_label=t.split()[0].rstrip("'s")) for i, t in enumerate(texts)]
    unique = list({text_key(c.text): c for c in facts}.values())
    once = compose_text(unique)
    assert once == compose_text(unique)
    assert once.endswith(".") and ".." not in once


@settings(max_examples=80, deadline=None)
@given(st.text(min_size=0, max_size=60))
def test_what_was_asked_about_is_part_of_the_question(text):
    what = asked_about(text)
    assert what == "" or what in text
    assert not_found_text(what, []).startswith("I found nothing")


def test_a_derived_fact_that_restates_an_edge_is_merged_into_it():
    edge = fact("ev", "attendee", "ada", "Ada attends Review")
    inverse = fact("ada", "urn:d:attends", "ev", "Ada attends Review.", derived=True)
    group = fact("ada", "member_of", "eng", "Ada is a member of the Engineering group")
    belongs = fact("ada", "urn:d:person_group", "eng", "Ada belongs to the Engineering group", derived=True)
    today = fact("ada", "urn:d:attends_today", "ev", "Ada attends Review today", derived=True)
    kept = merge_restatements([inverse, edge, group, belongs, today], binary={belongs.fact.key})
    assert kept == [edge, group, today]
    assert [d["text"] for d in edge.also_derived] == ["Ada attends Review."]
    assert [d["text"] for d in group.also_derived] == ["Ada belongs to the Engineering group"]


def test_nothing_found_does_not_ask_the_model(kg):
    s = session(kg, ["The Internet Engineering Task Force is a global community."])
    state = s.user_turn("Who organizes the bandwidth meeting and where is it?")
    assert state.answer_source == "not_found" and state.response == ""
    assert s.ctx.resources["llm"].calls == []
    assert "bandwidth meeting" in state.shown_reply
    assert s.history[-1] == ("system", state.shown_reply)


def test_auto_keeps_a_reply_that_states_the_fact_and_replaces_a_contradicted_one(kg):
    right = session(kg, ["Mark Taylor's phone number is +47 400 82 254."], refine_steps=0)
    state = right.user_turn("What is the phone number of Mark Taylor?")
    assert state.answer_source == "llm" and state.composed is None
    wrong = session(kg, [WRONG_PHONE], refine_steps=0)
    state = wrong.user_turn("What is the phone number of Mark Taylor?")
    assert state.answer_source == "facts"
    assert state.shown_reply == "Mark Taylor's phone number is +47 400 82 254."
    assert state.response == WRONG_PHONE  # the model's reply is kept beside it
    assert all(c.verdict == "supported" for c in state.composed.checks)


def test_a_reply_the_kg_backs_in_no_claim_or_that_repeats_itself_is_not_shown(kg):
    right = "Mark Taylor's phone number is +47 400 82 254."
    looping = "\n".join(f"{i}. {right}" for i in range(1, 5))
    state = session(kg, [looping], refine_steps=0).user_turn("What is the phone number of Mark Taylor?")
    assert state.answer_source == "facts" and "more than once" in state.composed.reason
    unbacked = "Mark Taylor can be reached through the front desk."
    state = session(kg, [unbacked], refine_steps=0).user_turn("What is the phone number of Mark Taylor?")
    assert state.answer_source != "llm" and state.shown_reply != unbacked
    assert session(kg, ["Hi there!"]).user_turn("Thanks!").answer_source == "llm"  # small talk is no claim


@pytest.mark.parametrize(("reply", "degenerate"), [
    ("1. A is B.\n2. A is B.\n3. A is B.", True),
    ("- X holds 10 seats.\n- x holds 10 seats", True),
    ("X is in Oslo; X is in Oslo.", True),
    ("X is in Oslo. Y is in Oslo.", False),
    ("Yes. Yes.", False),  # a word said twice is no loop of facts
])
def test_a_repeated_part_is_found_whatever_its_numbering_and_case(reply, degenerate):
    from engine.stages.answer.judge import repeated

    assert repeated(reply) == degenerate


def test_answer_llm_and_facts(kg):
    s = session(kg, [WRONG_PHONE], refine_steps=0, answer="llm")
    assert s.user_turn("What is the phone number of Mark Taylor?").shown_reply == WRONG_PHONE
    s = session(kg, ["Hi there!"], answer="facts")
    state = s.user_turn("What is the phone number of Mark Taylor?")
    assert state.answer_source == "facts" and s.ctx.resources["llm"].calls == []
    assert s.user_turn("Thanks!").answer_source == "llm"  # small talk still goes to the model


def test_the_answer_option_is_checked(tmp_path):
    bad = tmp_path / "c.toml"
    bad.write_text('answer = "maybe"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="answer"):
        load_config(path=bad)


def test_overview_of_the_office_kg(kg):
    from engine.overview import overview

    ov = overview(session(kg, ["-"]).ctx)
    assert dict(ov.types) == {"Person": 2, "Group": 1, "Room": 2, "Event": 1}
    assert 3 <= len(ov.examples) <= 4 and len(set(ov.examples)) == len(ov.examples)
    assert all(q.endswith("?") for q in ov.examples)
    kinds = {"Design Review" in q for q in ov.examples}
    assert kinds == {True, False}  # an event's question and a person's


def test_ask_json_says_whose_answer_it_is(kg, capsys, monkeypatch):
    from cli import ask as cli_ask

    monkeypatch.setattr("engine.llm.make_backend", lambda config: ScriptedLLM([WRONG_PHONE]))
    monkeypatch.setattr("engine.llm.check_model", lambda config: None)
    code = cli_ask.main(["--kg", str(kg), "--memory", "--demo", "none", "--scorer", "bm25", "--now", NOW,
                         "--refine-steps", "0", "--json", "What is the phone number of Mark Taylor?"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["answer_source"] == "facts"
    assert out["response"] == WRONG_PHONE and out["answer"] == "Mark Taylor's phone number is +47 400 82 254."
    assert out["composed"]["facts"] and out["composed"]["reason"]


UNIVERSITY = """@prefix ex: <http://example.org/uni/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix schema: <http://schema.org/> .
ex:yuki a schema:Person ; rdfs:label "Yuki Tanaka" ; ex:officeHours "Wednesday 14:00-15:30" ;
    ex:office "SH 2.07" ; ex:phone "+44 161 496 0312" ; ex:memberOf ex:linguistics .
ex:linguistics rdfs:label "Department of Linguistics" .
ex:officeHours rdfs:label "office hours" .
"""


def test_a_relation_the_kg_lacks_is_not_found_with_what_it_has_instead(tmp_path):
    s = learned_session(tmp_path / "uni.ttl", UNIVERSITY, ["Yuki Tanaka's office hours are on Wednesday 14:00-15:30."])
    state = s.user_turn("What is Yuki Tanaka's blood type?")
    assert state.answer_source == "not_found" and s.ctx.resources["llm"].calls == []
    assert state.shown_reply.startswith("I found no fact on “blood type” about Yuki Tanaka")
    assert "The closest it has is this. Yuki Tanaka" in state.shown_reply
    # The relation it has is answered.
    state = s.user_turn("What are Yuki Tanaka's office hours?")
    assert state.answer_source != "not_found" and "Wednesday 14:00-15:30" in state.shown_reply
    # Asked of "her", the entity is a guess: no "no fact on" claim is made on it.
    state = s.user_turn("And what is her blood type?")
    assert state.answer_source != "not_found"


BAND = """
@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:plays rdfs:label "plays instrument" .
ex:eleanor rdfs:label "Eleanor Voss" ; ex:memberOf ex:harbour ; ex:birthPlace ex:leeds .
ex:tom rdfs:label "Tom Ashby" ; ex:memberOf ex:harbour ; ex:plays ex:guitar ; ex:died "2019-05-02"^^xsd:date .
ex:died rdfs:label "death date" .
ex:harbour rdfs:label "The Glass Harbour" . ex:leeds rdfs:label "Leeds" . ex:guitar rdfs:label "guitar" .
"""


def test_a_relation_the_kg_has_but_the_entity_lacks_is_not_found(tmp_path):
    s = learned_session(tmp_path / "band.ttl", BAND, ["Eleanor Voss plays the guitar."] * 5)
    state = s.user_turn("What instruments does Eleanor Voss play?")
    assert state.answer_source == "not_found"
    assert state.shown_reply.startswith("I found no fact on “plays instrument” about Eleanor Voss")
    assert "plays instrument" in state.composed.reason
    # "When" says the date of a relation: a death date Eleanor Voss lacks (the KG has Tom Ashby's).
    state = s.user_turn("When did Eleanor Voss die?")
    assert state.answer_source == "not_found" and "“death date”" in state.shown_reply
    assert s.user_turn("When did Tom Ashby die?").answer_source != "not_found"
    # Who has it is answered; and the entity that has it, named, keeps the question open.
    assert s.user_turn("What instruments does Tom Ashby play?").answer_source != "not_found"
    assert s.user_turn("Who plays the guitar in The Glass Harbour?").answer_source != "not_found"


LINE = """
@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:next rdfs:label "next station" . ex:master rdfs:label "station master" . ex:plays rdfs:label "plays for" .
ex:team rdfs:label "team" .
ex:aldgate rdfs:label "Aldgate" ; ex:next ex:bow ; ex:master ex:grace .
ex:bow rdfs:label "Bow Road" . ex:grace rdfs:label "Grace Okafor" ; ex:plays ex:rovers .
ex:rovers rdfs:label "Harbour Rovers" ; ex:team ex:first .  ex:first rdfs:label "First Eleven" .
"""


def test_a_relation_named_in_full_that_the_entity_lacks_is_not_answered_by_a_path_of_another(tmp_path):
    s = learned_session(tmp_path / "line.ttl", LINE, ["Aldgate."] * 3)
    state = s.user_turn("Who is the station master at Bow Road?")
    assert state.answer_source == "not_found"
    assert state.shown_reply.startswith("I found no fact on “station master” about Bow Road")
    assert s.user_turn("Who is the station master at Aldgate?").answer_source != "not_found"
    # "team" is a relation too, but the path of "plays for" says as much of the question.
    assert s.user_turn("Which team does Grace Okafor play for?").answer_source != "not_found"


COURSES = """
@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:semester rdfs:label "semester" . ex:exam rdfs:label "exam date" . ex:inception rdfs:label "inception" .
ex:founded rdfs:label "founding date" .
ex:db rdfs:label "Databases" ; ex:semester "Autumn" .
ex:ml rdfs:label "Machine Learning" ; ex:semester "Spring" ; ex:exam "2025-01-14"^^xsd:date .
ex:uni rdfs:label "Northbridge University" ; ex:inception "1851"^^xsd:gYear .
ex:club rdfs:label "Chess Club" ; ex:founded "1990"^^xsd:gYear .
"""


def test_when_over_a_path_that_gives_no_day_asks_the_date_relation_the_question_names(tmp_path):
    s = learned_session(tmp_path / "courses.ttl", COURSES, ["In autumn."] * 6)
    state = s.user_turn("When is the Databases exam?")
    assert state.answer_source == "not_found" and "“exam date”" in state.shown_reply
    assert "Autumn" in state.shown_reply  # what the KG does have
    assert "2025" in s.user_turn("When is the Machine Learning exam?").shown_reply
    # a path whose values say when answers, whatever other date relation the KG has
    assert "1851" in s.user_turn("When was Northbridge University founded?").shown_reply


def test_that_city_is_the_city_just_spoken_of(tmp_path):
    kg = """
@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:City rdfs:label "city" . ex:Person rdfs:label "person" . ex:born rdfs:label "place of birth" . ex:area rdfs:label "area" .
ex:kafka a ex:Person ; rdfs:label "Franz Kafka" ; ex:born ex:prague .
ex:prague a ex:City ; rdfs:label "Prague" ; ex:area "496.21" .
ex:vienna a ex:City ; rdfs:label "Vienna" ; ex:area "414.78" .
"""
    s = learned_session(tmp_path / "cities.ttl", kg, ["Franz Kafka was born in Prague.", "It is large."])
    s.user_turn("Which city was Franz Kafka born in?")
    state = s.user_turn("What's the area of that city?")
    assert [(m.text, m.entity) for m in state.mentions] == [("that city", "http://example.org/prague")]
    assert "496.21" in state.shown_reply and "414.78" not in state.shown_reply


def test_a_name_the_kg_lacks_is_not_found_even_beside_a_type_request(tmp_path):
    # "Which city": the cities of others would have been listed as the answer.
    path = tmp_path / "band.ttl"
    path.write_text(BAND + "ex:leeds a ex:city .\n", encoding="utf-8")  # an unlabelled class: a type request
    config = Config(kg=[str(path)], memory=True, demo="none", now=NOW, reason_timeout_ms=60_000, refine_steps=0)
    s = Session.open(config, llm=ScriptedLLM(["Leeds."] * 3))
    state = s.user_turn("In which city was Xiomara Quill born?")
    assert state.answer_source == "not_found" and "“Xiomara Quill”" in state.shown_reply
    assert s.user_turn("In which city was Eleanor Voss born?").answer_source != "not_found"
    assert s.user_turn("Hi, I'm Xiomara Quill. Which city is Eleanor Voss from?").answer_source != "not_found"


def test_a_reply_naming_what_the_kg_lacks_is_replaced_and_an_unsure_one_says_what_is_missing(tmp_path, monkeypatch):
    from engine.stages import answer
    from engine.stages.answer import missing

    path = tmp_path / "band.ttl"
    path.write_text(BAND, encoding="utf-8")
    config = Config(kg=[str(path)], memory=True, demo="none", scorer="learned", now=NOW, reason_timeout_ms=60_000,
                    refine_steps=0)
    invented = "The Glass Harbour is managed by Viktor Koprivin."
    s = Session.open(config, llm=ScriptedLLM([invented, "Eleanor Voss was born in Leeds, says Viktor Koprivin.",
                                              "Hello Viktor Koprivin. Eleanor Voss was born in Leeds."]))
    monkeypatch.setattr(missing, "MISSING_P", 0.0)  # the model is asked even about what no fact answers
    monkeypatch.setattr(missing, "RELATION_MIN", 0.0)  # ... nor any relation reads like
    monkeypatch.setattr(answer, "asked_relation", lambda *_: None)  # ... nor does the verb asked decide first
    state = s.user_turn("Who manages The Glass Harbour?")
    assert [c.evidence.unknown for c in state.checks] == [["Viktor Koprivin"]]
    # No fact about the band is sure enough to be the answer, nor does one say "manages": not found.
    assert state.answer_source == "not_found" and "Viktor" not in state.shown_reply
    assert state.shown_reply.startswith("I found no fact on “manages” about The Glass Harbour")
    assert "names Viktor Koprivin" in state.composed.reason
    # A sure fact is composed as the answer instead of the reply with an invented name.
    state = s.user_turn("Where was Eleanor Voss born?")
    assert state.answer_source == "facts" and state.shown_reply == "Eleanor Voss's birth place is Leeds."
    # A name the user said is no invention.
    state = s.user_turn("Hi, I'm Viktor Koprivin. Where was Eleanor Voss born?")
    assert state.answer_source == "llm"


def test_a_reply_stating_a_number_no_fact_of_the_turn_holds_is_replaced(tmp_path):
    from engine.stages.answer.judge import invented
    from engine.state import Check

    def nei(claim):
        return Check(claim, "nei")

    known = "Hamburg: area 755.22. Hamburg: population 1,945,532. Hamburg: P473 040."
    assert invented([nei("Its area code is 123456789")], "What is Hamburg's area code?", known) == ["123456789"]
    # numbers the facts hold, in another form, or that the user said, or of one digit, are no invention
    assert invented([nei("Its area code is 040"), nei("about 1945532 people"), nei("it covers 755 km²"),
                     nei("I counted 2 of them"), nei("since 1189")], "Was it founded in 1189?", known) == []
    s = learned_session(tmp_path / "band.ttl", BAND, ["Eleanor Voss was born in Leeds, and her phone number is 0113 4960."])
    state = s.user_turn("Where was Eleanor Voss born?")
    assert state.answer_source == "facts" and "0113" not in state.shown_reply and "4960" in state.composed.reason

PRESSES = """
@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:publisher rdfs:label "publisher" . ex:location rdfs:label "location" .
ex:ember rdfs:label "Ember Press" ; ex:location ex:girona . ex:tide rdfs:label "Tide Books" ; ex:location ex:leeds .
ex:salt rdfs:label "The Salt Orchard" ; ex:publisher ex:ember .
ex:harbour rdfs:label "Harbour Lights" ; ex:publisher ex:tide .
ex:girona rdfs:label "Girona" . ex:leeds rdfs:label "Leeds" .
"""


def test_which_noun_names_what_the_values_are_not_a_relation_the_entity_lacks(tmp_path):
    s = learned_session(tmp_path / "presses.ttl", PRESSES, ["Ember Press is based in Girona."])
    state = s.user_turn("Which publisher is based in Girona?")
    assert state.answer_source != "not_found" and "Ember Press" in state.shown_reply
    # the relation still says what Girona lacks when the values take no part in it
    state = s.user_turn("Who is the publisher of Girona?")
    assert state.answer_source == "not_found"

def test_a_name_the_kg_lacks_is_not_found_when_only_a_common_word_meets_a_label(tmp_path):
    path = tmp_path / "band.ttl"
    path.write_text(BAND + 'ex:prize rdfs:label "Meridian Songwriting Prize" . ex:tom ex:award ex:prize .\n',
                    encoding="utf-8")
    config = Config(kg=[str(path)], memory=True, demo="none", now=NOW, reason_timeout_ms=60_000, refine_steps=0)
    s = Session.open(config, llm=ScriptedLLM(["Tom Ashby won the Meridian Songwriting Prize."] * 3))
    state = s.user_turn("Which prizes has Xiomara Quill won?")
    assert any(m.text == "prizes" and m.entity for m in state.mentions)  # the common word meets the prize's label
    assert state.answer_source == "not_found" and "“Xiomara Quill”" in state.shown_reply
    assert s.user_turn("Which prizes has Tom Ashby won?").answer_source != "not_found"


@pytest.mark.parametrize("label, reads", [
    ("record label", True), ("e-mail address", True), ("course code", True), ("teaches", False),
    ("offered by", False), ("located in building", False), ("has ingredient", False), ("P47", False),
])
def test_an_example_question_is_made_only_of_a_relation_that_reads_as_a_noun(label, reads):
    from engine.overview import reads_as_noun

    assert reads_as_noun(label) is reads


def test_kgchat_overview_prints_what_the_first_screen_shows(tmp_path, capsys):
    from cli import main

    path = tmp_path / "uni.ttl"
    path.write_text(UNIVERSITY, encoding="utf-8")
    assert main(["overview", "--memory", "--demo", "none", "--kg", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["types"] == [{"type": "Person", "entities": 1}] and out["triples"] > 0
    assert len(out["examples"]) == 1 and "Yuki Tanaka" in out["examples"][0]  # one question per entity
    assert main(["overview", "--memory", "--demo", "none", "--kg", str(tmp_path / "missing.ttl")]) == 2
    assert "missing.ttl" in capsys.readouterr().err


SINGER = """
@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:occupation rdfs:label "occupation" . ex:birthPlace rdfs:label "place of birth" .
ex:givenName rdfs:label "given name" . ex:memberOf rdfs:label "member of" .
ex:eleanor rdfs:label "Eleanor Voss" ; ex:occupation ex:singer, ex:composer ; ex:birthPlace ex:leeds ;
    ex:givenName ex:eleanorName ; ex:memberOf ex:harbour .
ex:singer rdfs:label "singer" . ex:composer rdfs:label "composer" . ex:leeds rdfs:label "Leeds" .
ex:eleanorName rdfs:label "Eleanor" . ex:harbour rdfs:label "The Glass Harbour" .
"""


@pytest.mark.parametrize("question", ["What does Eleanor Voss do for a living?", "What is Eleanor Voss's profession?"])
def test_a_record_asked_for_in_other_words_is_retrieved_and_said_first(tmp_path, question):
    # The relevance model scores an occupation as name noise unless the question says
    # "occupation"; "do for a living" asks for it all the same.
    path = tmp_path / "singer.ttl"
    path.write_text(SINGER, encoding="utf-8")
    config = Config(kg=[str(path)], memory=True, demo="none", scorer="learned", now=NOW, reason_timeout_ms=60_000,
                    refine_steps=0, answer="facts")
    state = Session.open(config, llm=ScriptedLLM(["-"])).user_turn(question)
    assert {"singer", "composer"} <= {c.o_label for c in state.retrieved}
    # The occupation record is the answer, said first and whole (both values)
    assert state.shown_reply.startswith(("Eleanor Voss's occupation", "Eleanor Voss: occupation"))
    assert "singer" in state.shown_reply and "composer" in state.shown_reply


def test_a_fact_of_another_type_than_asked_comes_after_one_of_that_type():
    # "Who founded it?": "founded in 1944" shares the question's word, yet a year answers no "who".
    from datetime import datetime

    from engine.stages.answer.compose import facts_about_question
    from engine.state import Mention, TurnState

    year = fact("c", "inception", "1944", "Corvid Textiles was founded in 1944", score=0.6, p_label="founded in")
    founder = fact("c", "founder", "s", "Corvid Textiles: founder Stellan Gallagher", score=0.3, p_label="founder")
    year.features, founder.features = {"atype_clash": 1.0}, {"atype_match": 1.0}
    state = TurnState("s", 1, "Who founded it?", datetime(2026, 1, 1))
    state.mentions = [Mention("it", 12, 14, "pronoun", entity="c")]
    state.candidates = state.retrieved = [year, founder]
    assert facts_about_question(state) == [founder, year]
    year.features = {}
    assert facts_about_question(state) == [year, founder]


def test_a_record_asked_for_in_other_words_is_no_missing_relation(tmp_path):
    # The language record scores as name noise; "tongue" asks for it all the same.
    path = tmp_path / "book.ttl"
    path.write_text("""
@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:language rdfs:label "language of work or name" . ex:author rdfs:label "author" .
ex:ledger rdfs:label "The Unfinished Ledger" ; ex:language ex:english ; ex:author ex:felipe .
ex:english rdfs:label "English" . ex:felipe rdfs:label "Felipe Gallagher" .
""", encoding="utf-8")
    config = Config(kg=[str(path)], memory=True, demo="none", scorer="learned", now=NOW, reason_timeout_ms=60_000,
                    refine_steps=0)
    state = Session.open(config, llm=ScriptedLLM(["-"])).user_turn("in what tongue is the unfinished ledger")
    assert state.answer_source != "not_found" and "English" in state.shown_reply


def test_with_no_relation_path_a_fact_under_even_odds_is_no_answer():
    """Before the model: a question about one named entity that no relation path reads like, whose
    best fact is less likely than not its answer, is "not found"; a likelier fact is left to answer.
    A question that asks for a thing by its name needs a surer fact."""
    from datetime import datetime
    from types import SimpleNamespace

    from engine.stages.answer.missing import MISSING_P, NOUN_MISSING_P, relation_missing
    from engine.state import Mention, TurnState

    def asking(text: str) -> TurnState:
        start = text.index("Ann Berg")
        return TurnState(session_id="s", turn=1, text=text, now=datetime(2026, 3, 4),
                         mentions=[Mention("Ann Berg", start, start + 8, "name", entity="ex:ann")])

    ctx = SimpleNamespace(config=Config(scorer="learned"))
    unsure = fact("ex:ann", "ex:playsFor", "ex:rovers", "Ann Berg plays for Harbour Rovers", score=0.3,
                  s_label="Ann Berg", o_label="Harbour Rovers", p_label="plays for")
    likely = fact("ex:ann", "ex:height", "1.7", "Ann Berg: height 1.7", score=0.6, s_label="Ann Berg",
                  o_label="1.7", p_label="height")
    assert MISSING_P >= 0.5 > unsure.score and NOUN_MISSING_P > likely.score > MISSING_P
    tall = asking("How tall is Ann Berg?")  # asked with an adjective
    assert relation_missing(tall, ctx, [unsure], MISSING_P)
    assert not relation_missing(tall, ctx, [unsure, likely], MISSING_P)
    shoes = asking("What is Ann Berg's shoe size?")  # asked for by its name, which no relation has
    assert relation_missing(shoes, ctx, [unsure, likely], MISSING_P)
    sure = fact("ex:ann", "ex:size", "38", "Ann Berg: size 38", score=0.9, s_label="Ann Berg", o_label="38",
                p_label="measure")
    assert not relation_missing(shoes, ctx, [unsure, likely, sure], MISSING_P)


def test_a_fact_between_two_things_is_no_answer_to_when():
    """"When was it first made?" is not answered by who made it, however sure the scorer is."""
    from datetime import datetime
    from types import SimpleNamespace

    from engine.stages.answer.missing import MISSING_P, relation_missing
    from engine.state import Mention, TurnState

    def state(text):
        start = text.index("Melba Crisp")
        return TurnState(session_id="s", turn=1, text=text, now=datetime(2026, 3, 4),
                         mentions=[Mention("Melba Crisp", start, start + 11, "name", entity="ex:crisp")])

    ctx = SimpleNamespace(config=Config(scorer="learned"))
    maker = fact("ex:crisp", "ex:inventor", "ex:ada", "Melba Crisp: inventor Ada Lowe", score=0.9,
                 s_label="Melba Crisp", o_label="Ada Lowe", p_label="inventor")
    assert relation_missing(state("When was Melba Crisp first made?"), ctx, [maker], MISSING_P)
    assert not relation_missing(state("Who first made Melba Crisp?"), ctx, [maker], MISSING_P)
    year = Candidate(fact=Fact("ex:crisp", "ex:year", "1897", o_literal=True), text="Melba Crisp: year 1897",
                     score=0.9, s_label="Melba Crisp", o_label="1897", p_label="year")
    assert not relation_missing(state("When was Melba Crisp first made?"), ctx, [maker, year], MISSING_P)



def test_a_fact_of_another_measure_is_no_answer_to_the_measure_asked():
    """"How much does Pad Thai cost?" is not answered by its servings, however sure the scorer is;
    "how many people" is, and a price is an answer."""
    from datetime import datetime
    from types import SimpleNamespace

    from engine.stages.answer.missing import MISSING_P, relation_missing
    from engine.state import Mention, TurnState

    def state(text):
        start = text.index("Pad Thai")
        return TurnState(session_id="s", turn=1, text=text, now=datetime(2026, 3, 4),
                         mentions=[Mention("Pad Thai", start, start + 8, "name", entity="ex:pt")])

    def literal(p_label, value, score):
        return Candidate(fact=Fact("ex:pt", "ex:" + p_label, value, o_literal=True), text=f"Pad Thai: {p_label} {value}",
                         score=score, s_label="Pad Thai", o_label=value, p_label=p_label)

    ctx = SimpleNamespace(config=Config(scorer="learned"))
    servings, minutes = literal("servings", "2", 0.9), literal("cooking time", "15", 0.7)
    assert relation_missing(state("How much does Pad Thai cost at a restaurant?"), ctx, [servings, minutes], MISSING_P)
    assert not relation_missing(state("How many people does Pad Thai feed?"), ctx, [servings, minutes], MISSING_P)
    price = literal("price", "12", 0.6)
    assert not relation_missing(state("How much does Pad Thai cost at a restaurant?"), ctx, [servings, price], MISSING_P)
    # "how long" may ask for a time or a length: a length is not ruled out
    assert not relation_missing(state("How long is Pad Thai?"), ctx, [literal("length", "30", 0.7)], MISSING_P)

BANDS = """
@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:plays rdfs:label "plays instrument" . ex:member rdfs:label "member of" .
ex:drums rdfs:label "drums" . ex:north rdfs:label "North Quay" . ex:ember rdfs:label "Ember Road" .
ex:ivo rdfs:label "Ivo Marsh" ; ex:plays ex:drums ; ex:member ex:north .
ex:lena rdfs:label "Lena Park" ; ex:plays ex:guitar ; ex:member ex:ember .
ex:guitar rdfs:label "guitar" .
"""


def test_values_linked_to_no_other_entity_the_question_names_do_not_answer_it(tmp_path):
    s = learned_session(tmp_path / "bands.ttl", BANDS, ["Ivo Marsh plays drums in Ember Road."] * 4)
    state = s.user_turn("Who plays drums in Ember Road?")
    # the KG's one drummer plays in another band
    assert state.answer_source == "not_found" and "Ember Road" in state.shown_reply
    assert "Ivo Marsh" in s.user_turn("Who plays drums in North Quay?").shown_reply


CLUB = """
@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:coach rdfs:label "head coach" . ex:ground rdfs:label "home ground" .
ex:arsenal rdfs:label "Arsenal" ; ex:coach ex:arteta ; ex:ground ex:emirates .
ex:arteta rdfs:label "Mikel Arteta" . ex:emirates rdfs:label "Emirates Stadium" .
"""


def test_another_kind_of_the_relation_asked_is_not_found_with_the_one_the_kg_has(tmp_path):
    s = learned_session(tmp_path / "club.ttl", CLUB, ["Arsenal's goalkeeping coach is Mikel Arteta."] * 5)
    state = s.user_turn("Who is Arsenal's goalkeeping coach?")
    assert state.answer_source == "not_found"
    assert "head coach" in state.shown_reply and "Mikel Arteta" in state.shown_reply
    # The coach unqualified, or the one the KG has, is answered.
    for question in ("Who is Arsenal's head coach?", "Who coaches Arsenal?"):
        state = s.user_turn(question)
        assert state.answer_source != "not_found" and "Mikel Arteta" in state.shown_reply
