"""Films: films, directors, actors, composers, studios. A CSV `head,relation,tail[,tail_type]`
with free-text relation names, as a user exports from a spreadsheet (types are rows too)."""

from __future__ import annotations

import random

from harness.ood.domain import PERSON_ABSENT, PERSON_RELS, Domain, Rel, rels
from harness.ood.world import Lit, PersonPlan, World, combos, full_names, make_person, names_for

TITLE_PARTS = (("The", "A", ""), ("Quiet", "Crimson", "Paper", "Winter", "Hollow", "Silver", "Last",
                                   "Distant", "Broken", "Velvet", "Northern", "Sleeping"),
               ("Orchard", "Lighthouse", "Frontier", "Carousel", "Harvest", "Archive", "Meridian",
                "Tide", "Garden", "Signal", "Voyage", "Ember"))
STUDIOS = ("Lanternfish Pictures", "Copperline Studios", "Saltire Films", "Bluewater Features",
           "Ninefold Productions", "Gannet Film Company")
CITIES = ("Lisbon", "Reykjavík", "Marseille", "Tbilisi", "Valletta", "Montreal", "Glasgow", "Trieste",
          "Ljubljana", "Cádiz", "Bruges", "Tallinn", "Palermo", "Antwerp")
GENRES = ("drama", "thriller", "comedy", "science fiction", "documentary", "musical", "western")
PLAN = PersonPlan(("actor", "film director", "screenwriter", "composer", "film producer", "voice actor"),
                  ("Golden Reel", "Critics' Circle Prize", "Silver Lantern", "Festival Jury Prize"),
                  born_between=(1940, 1998))

VOCAB = {
    "director": ("directed by", "directed by"), "cast": ("cast member", "cast member"),
    "release_year": ("release year", "release year"), "runtime": ("running time in minutes", "running time in minutes"),
    "studio": ("production company", "production company"), "location": ("filming location", "filming location"),
    "genre": ("genre", "genre"), "composer": ("music by", "music by"),
    "studio_city": ("headquarters", "headquarters"), "type": ("instance of", "instance of"),
    "birth_place": ("born in", "born in"), "birth_date": ("date of birth", "date of birth"),
    "award": ("award", "award"), "occupation": ("occupation", "occupation"),
    "given_name": ("given name", "given name"), "family_name": ("family name", "family name"),
    "sex": ("sex or gender", "sex or gender"), "described_by": ("described by source", "described by source"),
    "languages": ("languages spoken", "languages spoken"),
}
TYPES = {"film": ("film", "film"), "person": ("human", "human"), "studio": ("film studio", "film studio")}

RELS = rels(
    Rel("director", ("Who directed {s}?", "Who is the director of {s}?", "By whom was {s} directed?"),
        ("Who was behind the camera for {s}?", "Who made {s}?"),
        inverse=("Which films did {o} direct?", "What movies has {o} directed?"), subject="film"),
    Rel("cast", ("Who is in the cast of {s}?", "Which actors are cast members of {s}?", "Who stars in {s}?"),
        ("Who appears in {s}?", "Who acted in {s}?", "Which performers can I see on screen in {s}?"),
        inverse=("What movies does {o} star in?", "Which films was {o} a cast member of?",
                 "What has {o} acted in?"), subject="film"),
    Rel("release_year", ("What is the release year of {s}?", "When was {s} released?", "What year was {s} released?"),
        ("When did {s} come out?", "When did {s} hit cinemas?"), subject="film", max_answers=1),
    Rel("runtime", ("What is the running time of {s}?", "How many minutes does {s} run?",
                    "What is {S} running time in minutes?"),
        ("How long is {s}?", "How much of my evening will {s} take up?"), subject="film", max_answers=1),
    Rel("studio", ("What is the production company of {s}?", "Which company produced {s}?",
                   "Which production company is behind {s}?"),
        ("Which studio made {s}?", "Who financed {s}?"), subject="film"),
    Rel("location", ("What was the filming location of {s}?", "Where was {s} filmed?",
                     "In which city was {s} filmed?"),
        ("Where was {s} shot?", "Where did the crew of {s} work on set?"), subject="film"),
    Rel("genre", ("What genre is {s}?", "Which genre does {s} belong to?", "What is the genre of {s}?"),
        ("What kind of movie is {s}?", "Is {s} a comedy or something darker?"), subject="film"),
    Rel("composer", ("Who did the music for {s}?", "Who is {S} music by?", "Who wrote the music of {s}?"),
        ("Who wrote the score for {s}?", "Who composed the soundtrack of {s}?"), subject="film"),
    Rel("studio_city", ("Where are the headquarters of {s}?", "Where is {s} headquartered?",
                        "In which city is {s} headquartered?"),
        ("Where is {s} based?", "From which city does {s} operate?"), subject="studio"),
    *PERSON_RELS,
)
ABSENT = {"person": PERSON_ABSENT + ("Who is {S} spouse?",),
          "film": ("What was the budget of {s}?", "How much did {s} earn at the box office?",
                   "What rating does {s} have?"),
          "studio": ("Who owns {s}?", "How many employees does {s} have?")}


def build(world: World, rng: random.Random) -> None:
    names = full_names(world.split)
    rng.shuffle(names)
    titles = rng.sample(names_for(world.split, combos(*TITLE_PARTS)), 14)
    studios = [world.entity("studio", s) for s in rng.sample(STUDIOS, 4)]
    for s in studios:
        world.add(s, "type", world.entity("class", TYPES["studio"][1]))
        world.add(s, "studio_city", world.entity("city", rng.choice(CITIES)))
    people = {role: [make_person(world, rng, names, PLAN, list(CITIES), main_occupation=role) for _ in range(n)]
              for role, n in (("film director", 6), ("actor", 14), ("composer", 4))}
    for pid in [p for group in people.values() for p in group]:
        world.add(pid, "type", world.entity("class", TYPES["person"][1]))
    for title in titles:
        film = world.entity("film", title)
        world.add(film, "type", world.entity("class", TYPES["film"][1]))
        world.add(film, "director", rng.choice(people["film director"]))
        for actor in rng.sample(people["actor"], rng.randrange(2, 4)):
            world.add(film, "cast", actor)
        world.add(film, "release_year", Lit(str(rng.randrange(1962, 2025)), "year"))
        world.add(film, "runtime", Lit(str(rng.randrange(78, 181)), "int"))
        world.add(film, "studio", rng.choice(studios))
        world.add(film, "location", world.entity("city", rng.choice(CITIES)))
        world.add(film, "genre", world.entity("genre", rng.choice(GENRES)))
        world.add(film, "composer", rng.choice(people["composer"]))


DOMAIN = Domain("films", "csv", "", VOCAB, TYPES, RELS, build, ABSENT)
