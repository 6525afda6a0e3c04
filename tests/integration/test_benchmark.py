"""The generated office benchmark: determinism, sizes, and gold that matches its own world."""

from __future__ import annotations

import json
from datetime import date, time

import pytest

from harness.office import load_split
from harness.office.generate import DEMO_ID, SPLITS, generate_demo, generate_split
from kgstore import vocab
from kgstore.vocab import office_entity, office_predicate


@pytest.fixture(scope="module")
def dev():
    return load_split("dev")


def world_triples(dialogue_id: str, data: dict) -> set[tuple[str, str, str]]:
    """The triples a GraphWOZ importer makes from `data`, written out independently of the
    generator so a gold edge that is not a fact of the world is caught."""
    P = office_predicate
    ids = {p["name"]: p["id"] for p in data["people"]}
    person = lambda name: office_entity(dialogue_id, "person", ids[name])  # noqa: E731
    out = set()
    for p in data["people"]:
        s = office_entity(dialogue_id, "person", p["id"])
        out |= {(s, P("email"), p["email"]), (s, P("phone"), p["phone"]),
                (s, P("member_of"), office_entity(dialogue_id, "group", p["group"])),
                (s, P("office"), office_entity(dialogue_id, "room", p["office"]))}
    for e in data["events"]:
        s = office_entity(dialogue_id, "event", e["id"])
        out |= {(s, P("date"), e["date"]), (s, P("start_time"), e["start_time"] + ":00"),
                (s, P("end_time"), e["end_time"] + ":00"),
                (s, P("location"), office_entity(dialogue_id, "room", e["location"])),
                (s, P("organizer"), person(e["organizer"])),
                (s, P("group"), office_entity(dialogue_id, "group", e["group"]))}
        out |= {(s, P("attendee"), person(a)) for a in e["attendees"]}
    return out


def test_same_seeds_same_benchmark(dev):
    assert generate_split("dev") == dev
    assert load_split("dev") == dev


def test_load_split_hands_out_copies(dev):
    first = next(iter(dev))
    dev[first]["log"].clear()
    assert load_split("dev")[first]["log"]


def test_split_sizes_and_world_ranges():
    for name, (_, worlds) in SPLITS.items():
        split = load_split(name)
        assert len(split) == worlds * 5
        for d in split.values():
            assert 25 <= len(d["data"]["people"]) <= 35
            assert 55 <= len(d["data"]["events"]) <= 65
            assert 3 <= len(d["log"]) <= 6


def test_world_is_a_plausible_office(dev):
    d = next(iter(dev.values()))
    people, events = d["data"]["people"], d["data"]["events"]
    names = [p["name"] for p in people]
    assert len(set(names)) == len(names)
    firsts = [n.split()[0] for n in names]
    assert len(set(firsts)) < len(firsts)  # some share a first name
    assert len({p["id"] for p in people}) == len(people)
    by_name = {p["name"]: p for p in people}
    for e in events:
        day = date.fromisoformat(e["date"])
        assert date(2026, 3, 2) <= day <= date(2026, 3, 6)
        start, end = time.fromisoformat(e["start_time"]), time.fromisoformat(e["end_time"])
        assert time(8) <= start < end <= time(17)
        assert e["organizer"] in e["attendees"]
        assert all(e["id"] in by_name[a]["calendar"] for a in e["attendees"])
        assert e["location"].startswith(("Meeting Room ", "Office "))
    names_of_events = [e["name"] for e in events]
    assert len(set(names_of_events)) < len(names_of_events)  # recurring meetings
    for a in events:  # no room is double-booked
        for b in events:
            if a is not b and a["location"] == b["location"] and a["date"] == b["date"]:
                assert a["end_time"] <= b["start_time"] or b["end_time"] <= a["start_time"]


def test_names_include_punctuation_and_accents():
    names = {p["name"] for d in load_split("train").values() for p in d["data"]["people"]}
    assert any("'" in n for n in names)
    assert any("-" in n for n in names)
    assert any(not n.isascii() for n in names)


@pytest.mark.parametrize("name", sorted(SPLITS))
def test_gold_edges_and_links_are_facts_of_the_world(name):
    for dialogue_id, d in load_split(name).items():
        facts = world_triples(dialogue_id, d["data"])
        entities = {s for s, _, _ in facts} | {o for _, _, o in facts}
        for entry in d["log"]:
            gold = entry["gold"]
            edges = {tuple(e) for e in gold["edges"]}
            assert edges <= facts, dialogue_id
            assert {n for e in edges for n in (e[0], e[2])} <= set(gold["nodes"])
            assert set(gold["nodes"]) <= entities | {n for e in edges for n in e}
            text = entry["manual_transcription"]
            for link in gold["links"]:
                assert text[link["start"]:link["end"]] == link["mention"]
                assert link["entity"] in entities
                assert link["kind"] in ("name", "pronoun", "definite", "first_person")


def test_gold_follows_the_annotation_procedure(dev):
    # An attribute question names one edge; "tell me about X" takes all of X's edges.
    profile = next(d for d in dev.values() if d["template"] == "profile")
    did = next(k for k, v in dev.items() if v is profile)
    first = profile["log"][0]
    person_iri = first["gold"]["links"][0]["entity"]
    touching = {t for t in world_triples(did, profile["data"]) if person_iri in (t[0], t[2])}
    assert {tuple(e) for e in first["gold"]["edges"]} == touching
    group_q = next(d for d in dev.values() if d["template"] == "group_contact")
    phone_turn = group_q["log"][1]
    assert [e[1] for e in phone_turn["gold"]["edges"]] == [office_predicate("phone")]
    rooms = next(d for d in dev.values() if d["template"] == "free_room")["log"][0]["gold"]
    assert sum(n.endswith(tuple(f"Meeting_Room_{r}" for r in ("Alpha", "Omega"))) for n in rooms["nodes"]) == 2


def test_user_turns_carry_graphwoz_fields(dev):
    for d in dev.values():
        assert d["task"] and d["now"]
        for i, entry in enumerate(d["log"], start=1):
            assert entry["turn"] == i
            assert entry["alternative"][0]["transcript"] == entry["manual_transcription"]
            assert 1 <= len(entry["alternative"]) <= 3
            assert entry["agent_response"]
            for link in entry["gold"]["links"]:
                assert f"{link['mention']} : " in entry["entities"]


def test_asr_alternatives_misspell_names(dev):
    noisy = 0
    for d in dev.values():
        for entry in d["log"]:
            for link in entry["gold"]["links"]:
                if link["kind"] == "name":
                    noisy += any(link["mention"].lower() not in a["transcript"].lower()
                                 for a in entry["alternative"][1:])
    assert noisy > 50


def test_splits_are_disjoint():
    worlds = {}
    for name in SPLITS:
        split = load_split(name)
        worlds[name] = {json.dumps(sorted(p["name"] for p in d["data"]["people"])) for d in split.values()}
    assert not set(load_split("dev")) & set(load_split("test"))
    assert not worlds["train"] & worlds["dev"]
    assert not worlds["train"] & worlds["test"]
    assert not worlds["dev"] & worlds["test"]


def test_committed_demo_is_the_generated_one():
    from pathlib import Path

    path = Path(vocab.__file__).parent / "data" / "office.json"
    assert json.loads(path.read_text(encoding="utf-8")) == generate_demo()
    assert list(generate_demo()) == [DEMO_ID]


def test_gold_edges_are_facts_of_the_imported_store(dev, tmp_path):
    """The GraphWOZ importer, fed the generated file, holds every gold edge and gold node."""
    from kgstore import KGStore

    picked = {k: v for k, v in dev.items() if k.endswith("-1") or k.endswith("-3")}
    path = tmp_path / "dev.json"
    path.write_text(json.dumps(picked, ensure_ascii=False), encoding="utf-8")
    store = KGStore()
    store.load(str(path))
    triples = {(r["s"], r["p"], r["o"]) for r in store.query("SELECT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } }")}
    terms = {t for triple in triples for t in (triple[0], triple[2])}
    for d in picked.values():
        for entry in d["log"]:
            assert {tuple(e) for e in entry["gold"]["edges"]} <= triples
            assert set(entry["gold"]["nodes"]) <= terms
            assert {link["entity"] for link in entry["gold"]["links"]} <= terms
