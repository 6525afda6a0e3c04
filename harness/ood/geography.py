"""Geography: mountains, lakes, rivers, towns, regions, the climbers and mayors linked to them.
N-Triples with bare snake_case predicates under http://geo.example/ont/ and no predicate labels
(entities have rdfs:labels)."""

from __future__ import annotations

import random

from harness.ood.domain import PERSON_ABSENT, PERSON_RELS, Domain, Rel, rels
from harness.ood.world import Lit, PersonPlan, World, combos, full_names, make_person, names_for

ROOTS = ("Kerrow", "Ardvane", "Tollan", "Brenna", "Skarth", "Velding", "Orrock", "Caddon", "Feln",
         "Ystrad", "Mirren", "Hask", "Dunlow", "Carrick", "Sorvan", "Eldra", "Gavell", "Throm", "Lusk",
         "Morvah", "Peldar", "Rhoss", "Tarvin", "Ulric")
REGIONS = ("Upper Vardale", "Caddon Marches", "Eastern Fells", "Lowmoor", "Sorrow Coast", "High Tarns")
RANGES = ("Greymantle Range", "Shieling Hills", "Iron Crowns", "Fellgate Mountains")
TOWN_PARTS = (("Ash", "Kirk", "Pen", "Strath", "Bell", "Mur", "Quay", "Dun", "Holl", "Esk", "Tarn", "Glen"),
              ("by", "wick", "mouth", "ford", "hallow", "side"))
CITIES = ("Innsbruck", "Chamonix", "Bergen", "Zermatt", "Bolzano", "Annecy", "Tromsø", "Kendal")
PLAN = PersonPlan(("mountaineer", "surveyor", "politician", "geologist", "mountain guide", "teacher"),
                  ("Alpine Club Medal", "Royal Geographical Award", "Civic Merit Cross"), born_between=(1820, 1990))

VOCAB = {
    "elevation": ("elevation_m", "elevation m"), "range": ("part_of_range", "part of range"),
    "first_ascent": ("first_ascent_by", "first ascent by"), "ascent_year": ("first_ascent_year", "first ascent year"),
    "located_in": ("located_in", "located in"), "area": ("area_km2", "area km2"),
    "flows_into": ("flows_into", "flows into"), "length": ("length_km", "length km"),
    "population": ("population", "population"), "mayor": ("mayor", "mayor"), "named_after": ("named_after", "named after"),
    "birth_place": ("place_of_birth", "place of birth"), "birth_date": ("date_of_birth", "date of birth"),
    "award": ("award_received", "award received"), "occupation": ("occupation", "occupation"),
    "given_name": ("given_name", "given name"), "family_name": ("family_name", "family name"),
    "sex": ("sex_or_gender", "sex or gender"), "described_by": ("described_by_source", "described by source"),
    "languages": ("languages_spoken", "languages spoken"),
}
TYPES = {"mountain": ("mountain", "mountain"), "lake": ("lake", "lake"), "river": ("river", "river"),
         "town": ("town", "town"), "region": ("region", "region"), "person": ("human", "human")}

RELS = rels(
    Rel("elevation", ("What is the elevation of {s}?", "What is {S} elevation in metres?",
                      "How many metres is the elevation of {s}?"),
        ("How high is {s}?", "How tall is {s}?"), subject="mountain", max_answers=1),
    Rel("range", ("Which range is {s} part of?", "What mountain range is {s} part of?", "Which range does {s} belong to?"),
        ("In which massif does {s} stand?", "Among which peaks is {s} found?"), subject="mountain", max_answers=1),
    Rel("first_ascent", ("Who made the first ascent of {s}?", "Who was first to ascend {s}?",
                         "Who is credited with the first ascent of {s}?"),
        ("Who reached the summit of {s} before anyone else?", "Who conquered {s} originally?"),
        inverse=("Which mountains did {o} make the first ascent of?", "Which peaks was {o} first to ascend?"),
        subject="mountain", max_answers=1),
    Rel("ascent_year", ("In which year was the first ascent of {s}?", "When was {s} first ascended?",
                        "What year was the first ascent of {s}?"),
        ("When was the top of {s} reached initially?", "How long ago did climbers conquer {s}?"),
        subject="mountain", max_answers=1),
    Rel("located_in", ("Where is {s} located?", "In which region is {s} located?", "Which region is {s} in?"),
        ("In which region would I find {s}?", "Which part of the country holds {s}?"), subject="town", max_answers=1),
    Rel("area", ("What is the area of {s}?", "What is {S} area in square kilometres?",
                 "How many square kilometres is the area of {s}?"),
        ("How big is {s}?", "How much surface does {s} cover?"), subject="lake", max_answers=1),
    Rel("flows_into", ("Which lake does {s} flow into?", "Where does {s} flow into?", "What does {s} flow into?"),
        ("Where does {s} end up?", "Which body of water does {s} empty into?"), subject="river", max_answers=1),
    Rel("length", ("What is the length of {s}?", "What is {S} length in kilometres?",
                   "How many kilometres is the length of {s}?"),
        ("How long is {s}?", "How far does {s} run from source to mouth?"), subject="river", max_answers=1),
    Rel("population", ("What is the population of {s}?", "What is {S} population?",
                       "How large is the population of {s}?"),
        ("How many people live in {s}?", "How many residents does {s} have?"), subject="town", max_answers=1),
    Rel("mayor", ("Who is the mayor of {s}?", "Who is {S} mayor?", "Who serves as mayor of {s}?"),
        ("Who leads the council of {s}?", "Who runs the town hall in {s}?"),
        inverse=("Which town is {o} the mayor of?", "Where does {o} serve as mayor?"), subject="town", max_answers=1),
    Rel("named_after", ("Who is {s} named after?", "After whom is {s} named?", "Who was {s} named after?"),
        ("Whose memory does {s} honour?", "Which person is commemorated by {s}?"), subject="mountain", max_answers=1),
    *PERSON_RELS,
)
ABSENT = {"person": PERSON_ABSENT + ("Which expeditions did {s} lead?",),
          "mountain": ("What is the average temperature on {s}?", "Is there a cable car up {s}?"),
          "town": ("What is the postcode of {s}?", "When is market day in {s}?"),
          "lake": ("How deep is {s}?", "Which fish live in {s}?")}


def pool(split: str, *patterns: str) -> list[str]:
    return names_for(split, [p.format(root) for root in ROOTS for p in patterns])


def build(world: World, rng: random.Random) -> None:
    names = full_names(world.split)
    rng.shuffle(names)
    regions = [world.entity("region", r) for r in rng.sample(REGIONS, 3)]
    ranges = [world.entity("range", r) for r in rng.sample(RANGES, 2)]
    climbers = [make_person(world, rng, names, PLAN, list(CITIES), main_occupation="mountaineer") for _ in range(5)]
    for i, name in enumerate(rng.sample(pool(world.split, "Mount {}", "{} Peak", "{} Horn"), 5)):
        mountain = world.entity("mountain", name)
        world.add(mountain, "elevation", Lit(str(rng.randrange(900, 4800)), "int"))
        world.add(mountain, "range", ranges[i % 2])
        world.add(mountain, "located_in", rng.choice(regions))
        world.add(mountain, "first_ascent", rng.choice(climbers))
        world.add(mountain, "ascent_year", Lit(str(rng.randrange(1786, 1960)), "year"))
        if rng.random() < 0.5:
            world.add(mountain, "named_after", make_person(world, rng, names, PLAN, list(CITIES),
                                                           main_occupation="surveyor"))
    lakes = []
    for name in rng.sample(pool(world.split, "Lake {}", "Loch {}", "{} Water"), 3):
        lake = world.entity("lake", name)
        world.add(lake, "area", Lit(str(rng.randrange(2, 480)), "int"))
        world.add(lake, "located_in", rng.choice(regions))
        lakes.append(lake)
    for name in rng.sample(pool(world.split, "River {}", "{} Burn"), 4):
        river = world.entity("river", name)
        world.add(river, "flows_into", rng.choice(lakes))
        world.add(river, "length", Lit(str(rng.randrange(14, 320)), "int"))
    for name in rng.sample(names_for(world.split, combos(*TOWN_PARTS, sep="")), 5):
        town = world.entity("town", name)
        world.add(town, "population", Lit(str(rng.randrange(800, 140_000)), "int"))
        world.add(town, "located_in", rng.choice(regions))
        world.add(town, "mayor", make_person(world, rng, names, PLAN, list(CITIES), main_occupation="politician"))


DOMAIN = Domain("geography", "nt-snake", "http://geo.example/", VOCAB, TYPES, RELS, build, ABSENT)
