"""One out-of-domain world: entities, facts between them, and the people with their record noise.

A world is format-free: entities have ids, a type and a label; facts are (subject id, relation
key, object) where the object is an entity id or a `Lit`. Each domain's vocabulary and file
format turn it into IRIs and a file later (formats.py). Everything is drawn from one
`random.Random`, so a seed gives the same world everywhere.

Names of the entities a question is about (people and each domain's main things) are split
between train, dev and test by a stable hash, so no split asks about a name another split has.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, field
from datetime import date, timedelta

# Share of the name space per split: a name belongs to exactly one split.
SPLIT_OF_BUCKET = ("train", "train", "train", "dev", "test")

# Relations every person carries that no question is about (except explicit name questions):
# what a Wikidata-derived KG attaches to people. Retrieving them for other questions is noise.
NAME_NOISE = ("given_name", "family_name", "sex", "described_by", "languages")
PERSON_EXTRAS = ("occupation", "award")


@dataclass(frozen=True)
class Lit:
    """A literal object: `kind` is "int", "year", "date" or "text"."""

    value: str
    kind: str


@dataclass
class Entity:
    id: str
    type: str  # a domain type key: "club", "person", "given_name", ...
    label: str
    sex: str | None = None  # people only: "male" | "female"
    aliases: tuple[str, ...] = ()


@dataclass
class World:
    domain: str
    split: str
    entities: dict[str, Entity] = field(default_factory=dict)
    facts: list[tuple[str, str, str | Lit]] = field(default_factory=list)
    _by_label: dict[tuple[str, str], str] = field(default_factory=dict)

    def entity(self, type_: str, label: str, **extra) -> str:
        """The id of the entity of that type and label, made on first use (values such as a
        given name or a city are shared by everyone who has them)."""
        key = (type_, label)
        if key not in self._by_label:
            eid = f"{type_}_{sum(e.type == type_ for e in self.entities.values()) + 1}"
            self.entities[eid] = Entity(eid, type_, label, **extra)
            self._by_label[key] = eid
        return self._by_label[key]

    def add(self, s: str, rel: str, o: str | Lit) -> None:
        if (s, rel, o) not in self._fact_set:
            self._fact_set.add((s, rel, o))
            self.facts.append((s, rel, o))

    def __post_init__(self) -> None:
        self._fact_set: set = set()

    def objects(self, s: str, rel: str) -> list[str | Lit]:
        return [o for s2, r, o in self.facts if s2 == s and r == rel]

    def subjects(self, rel: str, o: str) -> list[str]:
        return [s for s, r, o2 in self.facts if r == rel and o2 == o]

    def of_type(self, type_: str) -> list[Entity]:
        return [e for e in self.entities.values() if e.type == type_]

    def label_of(self, obj: str | Lit) -> str:
        return obj.value if isinstance(obj, Lit) else self.entities[obj].label


def bucket_split(name: str) -> str:
    return SPLIT_OF_BUCKET[zlib.crc32(name.encode("utf-8")) % len(SPLIT_OF_BUCKET)]


def names_for(split: str, pool: list[str]) -> list[str]:
    """The names of `pool` that belong to `split`, in pool order."""
    return [n for n in pool if bucket_split(n) == split]


def combos(*parts: tuple[str, ...], sep: str = " ") -> list[str]:
    """Every combination of the parts, in a fixed order (pools for titles and club names)."""
    out = [""]
    for part in parts:
        out = [(a + sep + b).strip() if a else b for a in out for b in part]
    return out


# People: given names with the sex records carry, family names with the spellings real
# records have (diacritics, apostrophes, particles); none are the office generator's names.
GIVEN = {
    "Tobias": "male", "Ilse": "female", "Mateus": "male", "Greta": "female", "Anselm": "male",
    "Orla": "female", "Bruno": "male", "Kasia": "female", "Dmitri": "male", "Leonie": "female",
    "Felipe": "male", "Aoife": "female", "Rasmus": "male", "Mirela": "female", "Viktor": "male",
    "Nadia": "female", "Hugo": "male", "Elsa": "female", "Cormac": "male", "Petra": "female",
    "Joaquim": "male", "Linnea": "female", "Stellan": "male", "Yara": "female", "Emre": "male",
    "Annika": "female", "Florin": "male", "Halima": "female", "Ignacio": "male", "Saoirse": "female",
    "Teodor": "male", "Wanda": "female", "Benedikt": "male", "Carys": "female", "Desmond": "male",
    "Frida": "female", "Gustavo": "male", "Inès": "female", "Jarek": "male", "Katrin": "female",
    "Lorcan": "male", "Marisol": "female", "Nikolaj": "male", "Oona": "female", "Pádraig": "male",
    "Rosalind": "female", "Sven": "male", "Thandiwe": "female", "Umberto": "male", "Vesna": "female",
}
FAMILY = (
    "Albescu", "Brannigan", "Castellanos", "Dragović", "Eklund", "Ferreira", "Gallagher", "Hollis",
    "Ilić", "Jovanović", "Kerrigan", "Lindahl", "Marchetti", "Nørgaard", "Okonkwo", "Pereira",
    "Quinlan", "Rautio", "Sandoval", "Thorsen", "Uhlig", "Valdés", "Whitlock", "Zielinski",
    "Abernethy", "Bergström", "Carvalho", "Delacroix", "Esposito", "Fairbairn", "Grünwald",
    "Halvorsen", "Iglesias", "Kavanagh", "Lombardi", "Mendoza", "Nakashima", "Oyelaran",
    "Pasternak", "Rinaldi", "Sørensen", "Tavares", "Vuković", "Wexler", "de la Vega", "van Houten",
    "O'Callaghan", "McAllister", "Achterberg", "Benedetti",
)
LANGUAGES = ("English", "Spanish", "Portuguese", "German", "French", "Italian", "Polish", "Swedish",
             "Danish", "Croatian", "Serbian", "Irish", "Finnish", "Turkish", "Japanese", "Yoruba",
             "Romanian", "Dutch")
SOURCES = ("Wikipedia", "Encyclopaedia Britannica", "Brockhaus Enzyklopädie",
           "Dictionary of National Biography", "Store norske leksikon", "Gran Enciclopèdia Catalana")
SEX_LABEL = {"male": "male", "female": "female"}


def full_names(split: str) -> list[str]:
    return names_for(split, [f"{g} {f}" for g in GIVEN for f in FAMILY])


@dataclass
class PersonPlan:
    """What one domain gives its people: occupations to draw from, awards, birth places."""

    occupations: tuple[str, ...]
    awards: tuple[str, ...]
    birthplace_type: str = "city"
    born_between: tuple[int, int] = (1950, 2000)


def make_person(world: World, rng: random.Random, names: list[str], plan: PersonPlan, places: list[str],
                *, main_occupation: str) -> str:
    """A person with the facts a Wikidata-derived record has: given and family name items, sex
    or gender, described-by sources, languages, occupations (the main one first), awards,
    place and date of birth. `names` is consumed (unique full names per world)."""
    name = names.pop()
    given, family = name.split(" ", 1)
    sex = GIVEN[given]
    pid = world.entity("person", name, sex=sex)
    world.add(pid, "given_name", world.entity("given_name", given))
    world.add(pid, "family_name", world.entity("family_name", family))
    world.add(pid, "sex", world.entity("sex", SEX_LABEL[sex]))
    for source in rng.sample(SOURCES, rng.randrange(1, 3)):
        world.add(pid, "described_by", world.entity("source", source))
    for language in rng.sample(LANGUAGES, rng.randrange(1, 4)):
        world.add(pid, "languages", world.entity("language", language))
    others = [o for o in plan.occupations if o != main_occupation]
    for occupation in [main_occupation] + rng.sample(others, rng.randrange(0, min(3, len(others) + 1))):
        world.add(pid, "occupation", world.entity("occupation", occupation))
    for award in rng.sample(plan.awards, rng.choice((0, 0, 1, 1, 2))):
        world.add(pid, "award", world.entity("award", award))
    world.add(pid, "birth_place", world.entity(plan.birthplace_type, rng.choice(places)))
    lo, hi = plan.born_between
    born = date(lo, 1, 1) + timedelta(days=rng.randrange((hi - lo) * 365))
    world.add(pid, "birth_date", Lit(born.isoformat(), "date"))
    return pid


# Made-up names for questions about things the KG does not hold.
ABSENT_PEOPLE = ("Quentin Marlowe-Hartigan", "Svetlana Brückner", "Ambrose Lethbridge", "Xiomara Quill")
