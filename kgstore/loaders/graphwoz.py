"""GraphWOZ `data` -> office KG: people, events, rooms and groups as typed, labelled entities in
one background graph per dialogue (`bg_graph(dialogue_id)`), attributes as literals, links with
the office predicates of `kgstore.vocab`. Unknown keys are skipped with a warning.

Both shapes are read: the published files (rooms and groups as objects keyed by name, each with
an `id` and a `calendar` or `members`; people with an `index`; calendars of whole event objects)
and the generated ones (rooms and groups as lists of names, calendars of event ids)."""

from __future__ import annotations

import json
import re

from pyoxigraph import Literal, NamedNode, Quad

from kgstore.fileio import Parsed, load_error
from kgstore.loaders.csv_triples import literal_for
from kgstore.loaders.graphwoz_json import dialogue_line, read_graphwoz, require, select
from kgstore.vocab import OFFICE_CLASSES, RDF_TYPE, RDFS_LABEL, bg_graph, office_entity, office_predicate

# `index` is the person's position in the published file: read, and not needed for the graph.
PERSON_KEYS = {"name", "id", "index", "email", "phone", "group", "office", "calendar"}
ROOM_KEYS = {"name", "id", "calendar"}
GROUP_KEYS = {"name", "id", "members", "calendar"}
EVENT_KEYS = {"id", "name", "date", "start_time", "end_time", "location", "organizer", "attendees", "group"}
DATA_KEYS = {"people", "events", "rooms", "groups"}


def parse(path: str, dialogue_id: str | None) -> Parsed:
    doc, text = read_graphwoz(path)
    out = Parsed()
    for did, dialogue in select(doc, path, dialogue_id).items():
        data = require(dialogue, "data", path, text, did)
        if not isinstance(data, dict):
            raise load_error(path, f"dialogue {did}: 'data' must be an object", dialogue_line(text, did))
        World(did, data, path, text, out).build()
    return out


class World:
    """One dialogue's `data` block turned into quads."""

    def __init__(self, did: str, data: dict, path: str, text: str, out: Parsed):
        self.did, self.data, self.path, self.text, self.out = did, data, path, text, out
        self.g = NamedNode(bg_graph(did))
        self.typed: set[str] = set()
        self.people_by_name: dict[str, str] = {}
        self.person_keys: set[str] = set()
        self.warned: set[str] = set()

    def warn(self, message: str) -> None:
        if message not in self.warned:
            self.warned.add(message)
            self.out.warnings.append(f"{self.path}: dialogue {self.did}: {message}")

    def add(self, s: str, p: str, o) -> None:
        self.out.quads.append(Quad(NamedNode(s), NamedNode(p), o if not isinstance(o, str) else NamedNode(o), self.g))

    def entity(self, kind: str, key: str, label: str | None = None) -> str:
        iri = office_entity(self.did, kind, key)
        if iri not in self.typed:
            self.typed.add(iri)
            self.add(iri, RDF_TYPE, OFFICE_CLASSES[kind])
            self.add(iri, RDFS_LABEL, Literal(label or key))
        return iri

    def items(self, key: str) -> list:
        value = self.data.get(key, [])
        if isinstance(value, dict):  # the published files key rooms and groups by name
            return [dict(v, name=v.get("name", name)) if isinstance(v, dict) else {"name": name}
                    for name, v in value.items()]
        if not isinstance(value, list):
            raise load_error(self.path, f"dialogue {self.did}: 'data.{key}' must be a list or an object keyed by name",
                             dialogue_line(self.text, self.did))
        return value

    def record(self, item, key: str, index: int, known: set[str]) -> dict:
        where = f"data.{key}[{index}]: "
        if not isinstance(item, dict):
            raise load_error(self.path, f"dialogue {self.did}: {where}must be an object", dialogue_line(self.text, self.did))
        for field in [f for f, v in item.items() if f != "name" and (v is None or (isinstance(v, float) and v != v))]:
            # NaN or null where a value belongs (the published files have a few): no such fact; a
            # record without a name of its own is no record, and the error below says so
            self.warn(f"{where}'{field}' is {'null' if item[field] is None else 'NaN'}: skipped")
            item = {f: v for f, v in item.items() if f != field}
        require(item, "name", self.path, self.text, self.did, where)
        name = self.name_text(item["name"], f"data.{key}[{index}].name")
        if name is None:
            raise load_error(self.path, f"dialogue {self.did}: {where}'name' must be text, not {_shown(item['name'])}",
                             dialogue_line(self.text, self.did))
        item = dict(item, name=name)
        for extra in sorted(set(item) - known):
            self.warn(f"unknown key '{extra}' in data.{key} skipped")
        return item

    def build(self) -> None:
        for extra in sorted(set(self.data) - DATA_KEYS):
            self.warn(f"unknown key 'data.{extra}' skipped")
        people = [self.record(p, "people", i, PERSON_KEYS) for i, p in enumerate(self.items("people"))]
        events = [self.record(e, "events", i, EVENT_KEYS) for i, e in enumerate(self.items("events"))]
        for person in people:
            key = str(person.get("id") or person["name"])
            self.person_keys.add(key)
            self.people_by_name.setdefault(str(person["name"]).lower(), key)
        rooms = [p for p in (self.place(r, "rooms", i, ROOM_KEYS) for i, r in enumerate(self.items("rooms"))) if p]
        groups = [p for p in (self.place(g, "groups", i, GROUP_KEYS) for i, g in enumerate(self.items("groups"))) if p]
        for room in rooms:
            self.entity("room", self.name_of(room))
        for group in groups:
            self.entity("group", self.name_of(group))
        self.events = {str(e.get("id") or e["name"]): e for e in events}
        for person in people:
            self.person(person)
        for group in groups:
            for member in self.listed(group, "members", "groups") if isinstance(group, dict) else []:
                ref = member.get("id") or member.get("name") if isinstance(member, dict) else member
                if ref := self.name_text(ref, "data.groups members"):
                    self.add(self.person_ref(ref), office_predicate("member_of"), self.entity("group", self.name_of(group)))
            self.calendar(group, "groups")
        for room in rooms:
            self.calendar(room, "rooms")
        for event in list(self.events.values()):
            self.event(event)

    def place(self, item, key: str, index: int, known: set[str]):
        """A room or group: a bare name, or an object (its name from the key it was filed under)."""
        if not isinstance(item, dict):
            return self.name_text(item, f"data.{key}[{index}]")
        return self.record(item, key, index, known)

    def calendar(self, owner, where: str) -> list[str]:
        """The event ids of a calendar; whole event objects not among `data.events` become events."""
        ids = []
        ref: str | None
        for entry in self.listed(owner, "calendar", where) if isinstance(owner, dict) else []:
            if isinstance(entry, dict) and entry.get("id") is not None:
                ref = str(entry["id"])
                if ref not in self.events and entry.get("name"):
                    for extra in sorted(set(entry) - EVENT_KEYS):
                        self.warn(f"unknown key '{extra}' in data.{where} calendar skipped")
                    self.events[ref] = entry
            else:
                ref = str(entry) if isinstance(entry, str | int) else None
            if ref is None or ref not in self.events:
                self.warn(f"calendar entries of data.{where} that are not events skipped")
                continue
            ids.append(ref)
        return ids

    def listed(self, record: dict, key: str, where: str) -> list:
        value = record.get(key) or []
        if not isinstance(value, list):
            self.warn(f"data.{where}: '{key}' that is not a list skipped")
            return []
        return value

    def name_text(self, value, where: str) -> str | None:
        """A name or reference as text: a string as it is; a number read as its digits, with a
        warning; anything else (null, a list, an object) skipped with a warning (None)."""
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            self.warn(f"{where}: the number {_shown(value)} where a name belongs read as text")
            return str(value)
        self.warn(f"{where}: {_shown(value)} where a name belongs skipped")
        return None

    def name_of(self, value) -> str:
        return str(value.get("name") if isinstance(value, dict) else value)

    def person_ref(self, value) -> str:
        """An organizer/attendee: a person id, else a person's name, else a new person."""
        value = str(value)
        key = value if value in self.person_keys else self.people_by_name.get(value.lower(), value)
        return self.entity("person", key)  # known people were added first, with their names

    def person(self, person: dict) -> None:
        key = str(person.get("id") or person["name"])
        iri = self.entity("person", key, str(person["name"]))
        for attr in ("email", "phone"):
            if person.get(attr):
                self.add(iri, office_predicate(attr), Literal(str(person[attr])))
        groups = person.get("group")
        for group in groups if isinstance(groups, list) else [groups] if groups else []:
            if group := self.name_text(group, "data.people group"):
                self.add(iri, office_predicate("member_of"), self.entity("group", group))
        if person.get("office") and (office := self.name_text(person["office"], "data.people office")):
            self.add(iri, office_predicate("office"), self.entity("room", office))
        for ref in self.calendar(person, "people"):
            self.add(office_entity(self.did, "event", ref), office_predicate("attendee"), iri)

    def event(self, event: dict) -> None:
        iri = self.entity("event", str(event.get("id") or event["name"]), str(event["name"]))
        date = str(event.get("date") or "")
        if date:
            self.add(iri, office_predicate("date"), literal_for(date, "date" if re.fullmatch(r"\d{4}-\d{2}-\d{2}", date) else ""))
        for attr in ("start_time", "end_time"):
            value = str(event.get(attr) or "")
            if value:
                self.add(iri, office_predicate(attr), literal_for(value, "time" if re.fullmatch(r"\d{1,2}:\d{2}(:\d{2})?", value) else ""))
        if event.get("location") and (room := self.name_text(event["location"], "data.events location")):
            self.add(iri, office_predicate("location"), self.entity("room", room))
        if event.get("organizer") and (organizer := self.name_text(event["organizer"], "data.events organizer")):
            self.add(iri, office_predicate("organizer"), self.person_ref(organizer))
        for attendee in self.listed(event, "attendees", "events"):
            if attendee := self.name_text(attendee, "data.events attendees"):
                self.add(iri, office_predicate("attendee"), self.person_ref(attendee))
        if event.get("group") and (group := self.name_text(event["group"], "data.events group")):
            self.add(iri, office_predicate("group"), self.entity("group", group))


def _shown(value) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:39] + "…"
