"""Books: novels, writers, publishers. A Wikidata JSON entity dump: Wikidata P-ids as predicates,
made-up Q-ids for the items, statement ranks, and property entities for only some P-ids."""

from __future__ import annotations

import random

from harness.ood.domain import PERSON_ABSENT, PERSON_RELS, Domain, Rel, rels
from harness.ood.world import Lit, PersonPlan, World, combos, full_names, make_person, names_for

TITLE_PARTS = (("The", ""), ("Salt", "Amber", "Hidden", "Twelfth", "Patient", "Burning", "Lonely",
                             "Borrowed", "Iron", "Glass", "Unfinished"),
               ("Cartographer", "Daughters", "Letters", "Almanac", "Heirs", "Island", "Ledger",
                "Bargain", "Pilgrim", "Orchardist", "Cathedral"))
PUBLISHERS = ("Heron & Vale", "Blackthorn Press", "Marrow House", "Ostara Books", "Quillfeather",
              "Tern Editions")
CITIES = ("Edinburgh", "Dublin", "Barcelona", "Leipzig", "Bologna", "Uppsala", "Coimbra", "Krakow",
          "Ghent", "Bath", "Heidelberg", "Salamanca")
COUNTRIES = ("Scotland", "Ireland", "Spain", "Germany", "Italy", "Sweden", "Portugal", "Poland")
UNIVERSITIES = ("University of Edinburgh", "Trinity College Dublin", "University of Bologna",
                "Uppsala University", "University of Coimbra", "Heidelberg University")
GENRES = ("historical novel", "crime novel", "magical realism", "short story collection",
          "literary fiction", "travel writing")
WORK_LANGUAGES = ("English", "Spanish", "German", "Italian", "Swedish", "Portuguese", "Polish")
PLAN = PersonPlan(("novelist", "poet", "journalist", "translator", "literary critic", "editor"),
                  ("Hawthorn Medal", "Northern Book Prize", "Laurel Fiction Award", "Meridian Translation Prize"),
                  born_between=(1930, 1990))

VOCAB = {
    "author": ("P50", "author"), "publisher": ("P123", "publisher"), "pub_date": ("P577", "publication date"),
    "pages": ("P1104", "number of pages"), "genre": ("P136", "genre"),
    "language": ("P407", "language of work or name"), "hq": ("P159", "headquarters location"),
    "founded_by": ("P112", "founded by"), "inception": ("P571", "inception"),
    "citizenship": ("P27", "country of citizenship"), "educated": ("P69", "educated at"),
    "birth_place": ("P19", "place of birth"), "birth_date": ("P569", "date of birth"),
    "award": ("P166", "award received"), "occupation": ("P106", "occupation"),
    "given_name": ("P735", "given name"), "family_name": ("P734", "family name"),
    "sex": ("P21", "sex or gender"), "described_by": ("P1343", "described by source"),
    "languages": ("P1412", "languages spoken, written or signed"),
}
TYPES = {"book": ("", "literary work"), "person": ("", "human"), "publisher": ("", "publishing house"),
         "city": ("", "city"), "country": ("", "country")}

RELS = rels(
    Rel("author", ("Who is the author of {s}?", "Who wrote {s}?", "Who is {S} author?"),
        ("Whose pen produced {s}?", "Who penned {s}?"),
        inverse=("Which books did {o} write?", "What has {o} written?", "Which novels are by {o}?"),
        subject="book"),
    Rel("publisher", ("Who is the publisher of {s}?", "Which publisher published {s}?", "Who published {s}?"),
        ("Which house brought out {s}?", "Who put {s} on the shelves?"), subject="book"),
    Rel("pub_date", ("What is the publication date of {s}?", "When was {s} published?",
                     "In which year was {s} published?"),
        ("When did {s} first come out?", "When did {s} appear in bookshops?"), subject="book", max_answers=1),
    Rel("pages", ("How many pages does {s} have?", "What is the number of pages of {s}?", "What is {S} page count?"),
        ("How long is {s}?", "How thick is {s}?"), subject="book", max_answers=1),
    Rel("genre", ("What genre is {s}?", "What is the genre of {s}?", "Which genre does {s} belong to?"),
        ("What kind of book is {s}?", "What sort of story does {s} tell?"), subject="book"),
    Rel("language", ("What language is {s} written in?", "What is the language of {s}?",
                     "In which language was {s} written?"),
        ("In what tongue is {s}?", "Which tongue did the author use for {s}?"), subject="book", max_answers=1),
    Rel("hq", ("Where is the headquarters of {s}?", "What is the headquarters location of {s}?",
               "Where is {s} headquartered?"),
        ("Where is {s} based?", "From which city does {s} operate?"), subject="publisher", max_answers=1),
    Rel("founded_by", ("Who founded {s}?", "By whom was {s} founded?", "Who is the founder of {s}?"),
        ("Who started {s}?", "Who set up {s}?"), subject="publisher"),
    Rel("inception", ("What is the inception of {s}?", "In what year was {s} created?",
                      "When was the inception of {s}?"),
        ("How long has {s} been around?", "Since when has {s} existed?"), subject="publisher", max_answers=1),
    Rel("citizenship", ("What is {S} country of citizenship?", "Which country is {s} a citizen of?",
                        "What citizenship does {s} hold?"),
        ("What passport does {s} carry?", "Which nation does {s} belong to?")),
    Rel("educated", ("Where was {s} educated?", "Which university educated {s}?", "Where did {s} get educated?"),
        ("Where did {s} study?", "Which university did {s} attend?")),
    *PERSON_RELS,
)
ABSENT = {"person": PERSON_ABSENT + ("Who is {S} literary agent?",),
          "book": ("What is the ISBN of {s}?", "How many copies of {s} were sold?", "Who designed the cover of {s}?"),
          "publisher": ("How many books does {s} publish a year?", "Who owns {s} today?")}


def build(world: World, rng: random.Random) -> None:
    names = full_names(world.split)
    rng.shuffle(names)
    writers = []
    for _ in range(10):
        pid = make_person(world, rng, names, PLAN, list(CITIES), main_occupation="novelist")
        world.add(pid, "citizenship", world.entity("country", rng.choice(COUNTRIES)))
        if rng.random() < 0.7:
            world.add(pid, "educated", world.entity("university", rng.choice(UNIVERSITIES)))
        writers.append(pid)
    publishers = []
    for name in rng.sample(PUBLISHERS, 4):
        pub = world.entity("publisher", name)
        world.add(pub, "hq", world.entity("city", rng.choice(CITIES)))
        founder = make_person(world, rng, names, PLAN, list(CITIES), main_occupation="editor")
        world.add(pub, "founded_by", founder)
        world.add(pub, "inception", Lit(str(rng.randrange(1820, 1990)), "year"))
        publishers.append(pub)
    for title in rng.sample(names_for(world.split, combos(*TITLE_PARTS)), 16):
        book = world.entity("book", title)
        for author in rng.sample(writers, 1 if rng.random() < 0.85 else 2):
            world.add(book, "author", author)
        world.add(book, "publisher", rng.choice(publishers))
        world.add(book, "pub_date", Lit(str(rng.randrange(1955, 2025)), "year"))
        world.add(book, "pages", Lit(str(rng.randrange(120, 900)), "int"))
        world.add(book, "genre", world.entity("genre", rng.choice(GENRES)))
        world.add(book, "language", world.entity("language", rng.choice(WORK_LANGUAGES)))


DOMAIN = Domain("books", "wikidata", "", VOCAB, TYPES, RELS, build, ABSENT)
