"""Football: leagues, clubs, stadiums, coaches, players. Turtle with its own predicate IRIs
(camelCase under https://pitchside.example/ont/) that carry rdfs:labels."""

from __future__ import annotations

import random

from harness.ood.domain import PERSON_ABSENT, PERSON_RELS, Domain, Rel, rels
from harness.ood.world import Lit, PersonPlan, World, combos, full_names, make_person, names_for

TOWNS = ("Harrowgate", "Kelmscott", "Drumlea", "Port Ellery", "Aldwick", "Saltmarsh", "Brackenford",
         "Westerby", "Cairnmoor", "Ravensholt", "Tidewater", "Greywell", "Marlow Bay", "Fennick",
         "Ashcombe", "Lowther", "Dunmere", "Whitcliffe", "Stanbridge", "Orrin Falls")
CLUB_SUFFIX = ("Rovers", "Athletic", "Albion", "Wanderers", "United", "Town", "Rangers", "Harriers")
GROUND_WORDS = (("Kestrel", "Meadow", "Foundry", "Lantern", "Copperfield", "Elmstead", "Quarry",
                 "Beacon", "Saltworks", "Mill"), ("Park", "Lane", "Road", "Arena", "Ground"))
LEAGUES = ("Coastal Premier Division", "Northern Counties League", "Highland Championship",
           "Western Alliance League")
BIRTH_CITIES = ("Porto", "Lyon", "Cork", "Split", "Malmö", "Bergen", "Zagreb", "Kraków", "Seville",
                "Turin", "Leeds", "Aarhus", "Tampere", "Izmir", "Lagos", "Osaka", "Graz", "Utrecht")
COUNTRIES = ("Portugal", "France", "Ireland", "Croatia", "Sweden", "Norway", "Poland", "Spain",
             "Italy", "England", "Denmark", "Finland", "Turkey", "Nigeria", "Japan", "Austria")
POSITIONS = ("goalkeeper", "centre-back", "full-back", "defensive midfielder", "winger", "striker")
PLAN = PersonPlan(("association football player", "football manager", "sports commentator",
                   "physiotherapist", "businessperson"),
                  ("Golden Boot", "Player of the Season", "Young Player of the Year", "Manager of the Month"),
                  born_between=(1965, 2004))

VOCAB = {
    "stadium": ("stadium", "stadium"), "capacity": ("seatingCapacity", "seating capacity"),
    "stadium_city": ("locatedIn", "located in"), "coach": ("headCoach", "head coach"),
    "founded": ("foundingYear", "founding year"), "league": ("competesIn", "competes in"),
    "plays_for": ("playsFor", "plays for"), "position": ("playingPosition", "playing position"),
    "nationality": ("nationality", "nationality"),
    "birth_place": ("placeOfBirth", "place of birth"), "birth_date": ("dateOfBirth", "date of birth"),
    "award": ("awardReceived", "award received"), "occupation": ("occupation", "occupation"),
    "given_name": ("givenName", "given name"), "family_name": ("familyName", "family name"),
    "sex": ("sexOrGender", "sex or gender"), "described_by": ("describedBySource", "described by source"),
    "languages": ("languagesSpoken", "languages spoken"),
}
TYPES = {"club": ("FootballClub", "football club"), "stadium": ("Stadium", "stadium"),
         "league": ("League", "league"), "person": ("Person", "person"), "city": ("City", "city"),
         "country": ("Country", "country"), "position": ("Position", "playing position")}

RELS = rels(
    Rel("stadium", ("What is the stadium of {s}?", "Which stadium does {s} play in?",
                    "In what stadium is {s} based?"),
        ("Where does {s} play its home games?", "Which ground does {s} use?"), subject="club"),
    Rel("capacity", ("What is the seating capacity of {s}?", "What is {S} capacity?",
                     "How many seats does {s} have?"),
        ("How many people fit in {s}?", "How big a crowd can {s} hold?"), subject="stadium", max_answers=1),
    Rel("stadium_city", ("Where is {s} located?", "In which city is {s} located?", "Which city is {s} in?"),
        ("In which town would I find {s}?", "Where should I travel to watch a match at {s}?"),
        subject="stadium"),
    Rel("coach", ("Who is the head coach of {s}?", "Who coaches {s}?", "Who is {S} coach?"),
        ("Who is in charge of {s}?", "Who manages {s}?", "Who is running {s} these days?"),
        inverse=("Which club does {o} coach?", "Which team is {o} the head coach of?"), subject="club"),
    Rel("founded", ("What is the founding year of {s}?", "When was {s} founded?",
                    "In which year was {s} founded?"),
        ("Since when has {s} existed?", "How long ago was {s} established?"), subject="club", max_answers=1),
    Rel("league", ("Which league does {s} compete in?", "What league is {s} in?", "In which league does {s} play?"),
        ("Which division is {s} part of?", "At what level does {s} take the field?"), subject="club"),
    Rel("plays_for", ("Which club does {s} play for?", "Who does {s} play for?", "What team does {s} play for?"),
        ("Which team is {s} on?", "Where is {s} under contract?"), max_answers=1),
    Rel("position", ("What is {S} playing position?", "What position does {s} play?",
                     "Which position does {s} play in?"),
        ("What role does {s} have on the pitch?", "Where on the pitch does {s} line up?"), max_answers=1),
    Rel("nationality", ("What is {S} nationality?", "What nationality is {s}?", "Which nationality does {s} have?"),
        ("Which country does {s} represent?", "Where is {s} a citizen?"), max_answers=1),
    *PERSON_RELS,
)
ABSENT = {"person": PERSON_ABSENT + ("How many goals has {s} scored this season?",),
          "club": ("What is {S} annual budget?", "Who sponsors the shirts of {s}?", "What are {S} club colours?"),
          "stadium": ("When was {s} last renovated?", "What is the pitch size at {s}?")}


def build(world: World, rng: random.Random) -> None:
    names = full_names(world.split)
    rng.shuffle(names)
    towns = list(TOWNS)
    rng.shuffle(towns)
    clubs = names_for(world.split, [f"{t} {s}" for t in TOWNS for s in CLUB_SUFFIX])
    clubs = rng.sample(clubs, 8)
    grounds = rng.sample(combos(*GROUND_WORDS), 8)
    leagues = rng.sample(LEAGUES, 2)
    for i, club_name in enumerate(clubs):
        club = world.entity("club", club_name)
        ground = world.entity("stadium", grounds[i])
        world.add(club, "stadium", ground)
        world.add(ground, "capacity", Lit(str(rng.randrange(40, 650) * 100), "int"))
        world.add(ground, "stadium_city", world.entity("city", club_name.rsplit(" ", 1)[0]))
        world.add(club, "founded", Lit(str(rng.randrange(1872, 1975)), "year"))
        world.add(club, "league", world.entity("league", leagues[i % 2]))
        coach = make_person(world, rng, names, PLAN, list(BIRTH_CITIES), main_occupation="football manager")
        world.add(club, "coach", coach)
        for _ in range(5):
            player = make_person(world, rng, names, PLAN, list(BIRTH_CITIES),
                                 main_occupation="association football player")
            world.add(player, "plays_for", club)
            world.add(player, "position", world.entity("position", rng.choice(POSITIONS)))
            world.add(player, "nationality", world.entity("country", rng.choice(COUNTRIES)))


DOMAIN = Domain("football", "turtle", "https://pitchside.example/", VOCAB, TYPES, RELS, build, ABSENT)
