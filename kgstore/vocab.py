"""IRIs the project mints: graph names, the kgchat vocabulary, and office-domain entities.

Every module that needs an IRI builds it here, so the importer, the benchmark generator, the
rules and the evaluation agree on names without passing strings around.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import quote, unquote

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
XSD = "http://www.w3.org/2001/XMLSchema#"
SKOS = "http://www.w3.org/2004/02/skos/core#"
SCHEMA = "http://schema.org/"
# schema.org publishes its terms under https today and under http before: one vocabulary.
SCHEMA_HTTPS = "https://schema.org/"
FOAF = "http://xmlns.com/foaf/0.1/"
WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"


def schema_terms(*names: str) -> tuple[str, ...]:
    """The schema.org terms under both of their published namespaces."""
    return tuple(ns + n for n in names for ns in (SCHEMA, SCHEMA_HTTPS))


def canonical(iri: str) -> str:
    """An IRI with schema.org's https namespace written as http, for comparing terms."""
    return SCHEMA + iri[len(SCHEMA_HTTPS):] if iri.startswith(SCHEMA_HTTPS) else iri


RDF_TYPE = RDF + "type"
RDF_REIFIES = RDF + "reifies"
RDFS_LABEL = RDFS + "label"
# In order of preference: the first one an entity has is its label.
LABEL_PREDICATES = (RDFS_LABEL, SKOS + "prefLabel", *schema_terms("name"), FOAF + "name")
# Other names an entity goes by, as tools export them (SKOS, schema.org, FOAF, DBpedia). The
# first is the one the loaders write.
ALIAS_PREDICATES = (SKOS + "altLabel", SKOS + "hiddenLabel", *schema_terms("alternateName"), FOAF + "nick",
                    "http://dbpedia.org/ontology/alias")

# kgchat's own vocabulary: dialogue state, provenance of derived facts.
KGC = "urn:kgchat:vocab:"
KGC_PROBABILITY = KGC + "probability"
KGC_RULE = KGC + "rule"

# Office (GraphWOZ-like) domain vocabulary.
OFFICE = "urn:kgchat:office:"
OFFICE_CLASSES = {"person": OFFICE + "Person", "event": OFFICE + "Event",
                  "room": OFFICE + "Room", "group": OFFICE + "Group"}

GRAPH_BG = "urn:kgchat:graph:bg:"
GRAPH_DIALOGUE = "urn:kgchat:graph:dialogue:"
GRAPH_DERIVED = "urn:kgchat:graph:derived:"
# Bookkeeping of the store itself (loads in progress); never shown as a user graph.
GRAPH_META = "urn:kgchat:graph:meta"
KGC_PENDING_LOAD = KGC + "pendingLoad"
# Graph names under this prefix are kgchat's: a file may fill background graphs there, never
# the dialogue, derived or meta graphs (but a dump restored on purpose, see KGStore.load).
GRAPH_RESERVED = "urn:kgchat:graph:"
_ABSOLUTE_IRI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s<>\"{}|\\^`]+")


def user_graph_problem(iri: str) -> str | None:
    """Why `iri` cannot be a graph a user loads into (None: it can): it must be an absolute IRI,
    and under kgchat's own graph names only a background graph."""
    if not _ABSOLUTE_IRI.fullmatch(iri):
        return "not an absolute IRI (e.g. http://example.org/graph)"
    if iri.startswith(GRAPH_RESERVED) and not (iri.startswith(GRAPH_BG) and len(iri) > len(GRAPH_BG)):
        return f"kgchat's own graph names under {GRAPH_RESERVED} are reserved (but {GRAPH_BG}<name>)"
    return None


_UNQUOTED = re.compile(r"[A-Za-z0-9_.~-]*")
_SPACES = re.compile(r"\s+")


def _slug(text: str) -> str:
    text = _SPACES.sub("_", text.strip())
    # quote() leaves these characters as they are; a table of 10^5 rows mints as many IRIs
    return text if _UNQUOTED.fullmatch(text) else quote(text, safe="_-.~")


def bg_graph(name: str) -> str:
    """The named graph holding one loaded file (or one GraphWOZ dialogue's world)."""
    return GRAPH_BG + _slug(name)


def dialogue_graph(session: str) -> str:
    return GRAPH_DIALOGUE + _slug(session)


def derived_graph(session: str) -> str:
    return GRAPH_DERIVED + _slug(session)


def office_predicate(name: str) -> str:
    """An office attribute or relation, e.g. office_predicate("phone")."""
    return OFFICE + _slug(name)


def office_entity(world: str, kind: str, key: str) -> str:
    """The IRI of a person/event/room/group in one office world (one GraphWOZ `data` block).

    `key` is the person or event id, or the room/group name as written in the data.
    """
    return kg_iri(world, kind, key)


def kg_iri(world: str, kind: str, key: str) -> str:
    """A minted IRI for a term of one loaded file that has no IRIs of its own (CSV entities
    and relations, office entities)."""
    return f"urn:kgchat:kg:{_slug(world)}:{kind}:{_slug(key)}"


def kg_iri_maker(world: str, kind: str) -> Callable[[str], str]:
    """`kg_iri` of one world and kind, for a loader that mints one for each of many keys."""
    prefix = kg_iri(world, kind, "")
    return lambda key: prefix + _slug(key)


def local_name(iri: str) -> str:
    """The IRI's last segment, underscores as spaces (an id: graph names, disambiguation)."""
    tail = re.split(r"[/#:]", iri.rstrip("/#:"))[-1]
    return tail.replace("_", " ") or iri


# A lower-case letter or digit followed by an upper-case one ("homeGround"), or an acronym's last
# capital followed by a capitalized word ("HTMLParser" -> "HTML Parser").
_CASE_BREAK = re.compile(r"(?<=[a-z\d])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
# Ids that read as one token: Wikidata P/Q-ids, "ISO8601", plain codes of one letter and digits.
_ID_LIKE = re.compile(r"[A-Z]{1,3}\d+")


def split_words(name: str) -> str:
    """A local name as words: "homeGround" -> "home ground", "place_of_birth" -> "place of birth",
    "cookingTimeMinutes" -> "cooking time minutes"; ids ("P2046", "Q42") and names that are
    already words stay as they are. The inner capitals of a camelCase name are lowered (it names
    a relation or attribute); a PascalCase name keeps its case ("PadThai" -> "Pad Thai")."""
    name = unquote(name)
    if _ID_LIKE.fullmatch(name):
        return name
    parts = [w for chunk in re.split(r"[_\-\s.]+", name) for w in _CASE_BREAK.split(chunk) if w]
    if not parts:
        return name
    if name[:1].islower():
        parts = [w.lower() if w[:1].isupper() and w[1:].islower() else w for w in parts]
    return " ".join(parts)


def readable_name(iri: str) -> str:
    """Readable fallback label for an IRI without one: its local name split into words."""
    tail = re.split(r"[/#:]", iri.rstrip("/#:"))[-1]
    return split_words(tail) if tail else iri

# The office schema: predicate local names used by the GraphWOZ importer, the benchmark
# generator's gold annotations, the verbalizer templates and the commonsense rules.
OFFICE_ATTRIBUTES = ("email", "phone", "date", "start_time", "end_time")  # literal-valued
OFFICE_RELATIONS = ("member_of", "office", "location", "organizer", "attendee", "group")  # entity-valued

# Dialogue state (written by engine/stages/observe.py and engine/stages/reason.py): one node per session,
# turn and mention; what a mention refers to is a probabilistic edge (add_probabilistic).
KGC_SESSION = KGC + "Session"
KGC_TURN = KGC + "Turn"
KGC_MENTION = KGC + "Mention"
KGC_IN_SESSION = KGC + "session"  # turn -> session
KGC_INDEX = KGC + "index"  # turn -> xsd:integer, 1-based
KGC_SPEAKER = KGC + "speaker"  # turn -> "user" | "system"
KGC_SPEAKER_ENTITY = KGC + "speakerEntity"  # session / turn -> the person the user said they are
KGC_TEXT = KGC + "text"  # turn or mention -> its words
KGC_REWRITTEN = KGC + "rewritten"  # user turn -> its text with references resolved
KGC_TIME = KGC + "time"  # turn -> xsd:dateTime on the session clock
KGC_RESPOND_TO = KGC + "respondTo"  # turn -> the turn it answers
KGC_HAS_MENTION = KGC + "mention"  # turn -> mention
KGC_KIND = KGC + "kind"  # mention -> "name" | "pronoun" | "definite" | "first_person" | "time" | "type"
KGC_START = KGC + "start"  # mention -> character offset in the turn text
KGC_END = KGC + "end"
KGC_VALUE = KGC + "value"  # time mention -> ISO value; type mention -> the class IRI
KGC_REFERS_TO = KGC + "refersTo"  # mention -> entity, reified with kgc:probability
KGC_ASKS_FOR = KGC + "asksFor"  # user turn -> an entity the relation path its question asks for reaches
KGC_ARRANGED_MEETING = KGC + "ArrangedMeeting"  # class of a meeting the user arranges (also an office Event)
KGC_ARRANGING = KGC + "arranging"  # session -> the meeting being arranged now
KGC_ARRANGED_IN = KGC + "arrangedIn"  # meeting -> the turn that started it

# Predicates of facts the rules derive: urn:kgchat:derived:<predicate name in the rule file>.
DERIVED = "urn:kgchat:derived:"


def derived_predicate(name: str) -> str:
    return DERIVED + _slug(name)


def session_node(session: str) -> str:
    return f"urn:kgchat:dialogue:{_slug(session)}"


def speaker_node(session: str, name: str) -> str:
    """A person the dialogue introduced that the KG does not know (the speaker who gave a name)."""
    return f"{session_node(session)}:person:{_slug(name)}"


def meeting_node(session: str, n: int) -> str:
    """The n-th meeting the user arranged in a session (an event of the dialogue graph)."""
    return f"{session_node(session)}:meeting:{n}"


def is_meeting_node(iri: str) -> bool:
    return iri.startswith("urn:kgchat:dialogue:") and ":meeting:" in iri


def turn_node(session: str, turn: int) -> str:
    return f"{session_node(session)}:turn:{turn}"


def mention_node(session: str, turn: int, index: int) -> str:
    return f"{turn_node(session, turn)}:mention:{index}"
