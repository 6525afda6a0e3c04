"""Companies: firms, their executives and founders, industries, head offices. N-Triples with bare
camelCase predicates under http://bizgraph.example/ont/ and no predicate labels (entities have
rdfs:labels)."""

from __future__ import annotations

import random

from harness.ood.domain import PERSON_ABSENT, PERSON_RELS, Domain, Rel, rels
from harness.ood.world import Lit, PersonPlan, World, combos, full_names, make_person, names_for

NAME_PARTS = (("Vantor", "Helix", "Norrland", "Aster", "Brightwater", "Corvid", "Tessel", "Kilnworth",
               "Oakridge", "Pellucid", "Sundial", "Granite"),
              ("Robotics", "Logistics", "Foods", "Energy", "Bank", "Textiles", "Pharma", "Shipping"))
INDUSTRIES = ("industrial automation", "freight transport", "food processing", "renewable energy",
              "retail banking", "clothing manufacturing", "pharmaceuticals", "maritime shipping")
CITIES = ("Rotterdam", "Gothenburg", "Hamburg", "Milan", "Lyon", "Bilbao", "Manchester", "Basel",
          "Aarhus", "Wrocław", "Porto", "Antwerp")
PLAN = PersonPlan(("business executive", "engineer", "economist", "entrepreneur", "accountant", "lawyer"),
                  ("Entrepreneur of the Year", "Order of Industry", "Innovation Medal"), born_between=(1945, 1990))

VOCAB = {
    "hq": ("headquarteredIn", "headquartered in"), "ceo": ("chiefExecutive", "chief executive"),
    "founded_in": ("foundedIn", "founded in"), "employees": ("employeeCount", "employee count"),
    "industry": ("industry", "industry"), "parent": ("parentCompany", "parent company"),
    "founder": ("founder", "founder"),
    "birth_place": ("birthPlace", "birth place"), "birth_date": ("birthDate", "birth date"),
    "award": ("receivedAward", "received award"), "occupation": ("hasOccupation", "has occupation"),
    "given_name": ("givenName", "given name"), "family_name": ("familyName", "family name"),
    "sex": ("gender", "gender"), "described_by": ("describedBy", "described by"),
    "languages": ("speaksLanguage", "speaks language"),
}
TYPES = {"company": ("Company", "company"), "person": ("Person", "person"), "city": ("City", "city")}

RELS = rels(
    Rel("hq", ("Where is {s} headquartered?", "Where are the headquarters of {s}?",
               "In which city is {s} headquartered?"),
        ("Where is {s} based?", "Which city is home to {s}?"), subject="company", max_answers=1),
    Rel("ceo", ("Who is the chief executive of {s}?", "Who is {S} chief executive?", "Who is the CEO of {s}?"),
        ("Who runs {s}?", "Who is in charge at {s}?", "Who is leading {s}?"),
        inverse=("Which company does {o} run?", "Which firm is {o} the chief executive of?"),
        subject="company", max_answers=1),
    Rel("founded_in", ("When was {s} founded?", "In which year was {s} founded?", "What year was {s} founded in?"),
        ("How long has {s} been around?", "Since when has {s} existed?"), subject="company", max_answers=1),
    Rel("employees", ("What is the employee count of {s}?", "How many employees does {s} have?",
                      "What is {S} number of employees?"),
        ("How many people work at {s}?", "How big is the staff of {s}?"), subject="company", max_answers=1),
    Rel("industry", ("What industry is {s} in?", "Which industry does {s} belong to?", "What is the industry of {s}?"),
        ("What does {s} do?", "What line of business is {s} in?"), subject="company"),
    Rel("parent", ("What is the parent company of {s}?", "Which company is the parent of {s}?",
                   "Which parent company does {s} belong to?"),
        ("Who owns {s}?", "Which group controls {s}?"), subject="company", max_answers=1),
    Rel("founder", ("Who is the founder of {s}?", "Who founded {s}?", "Who were the founders of {s}?"),
        ("Who started {s}?", "Who set up {s}?"),
        inverse=("Which companies did {o} found?", "What did {o} start?"), subject="company"),
    *PERSON_RELS,
)
ABSENT = {"person": PERSON_ABSENT + ("How many shares does {s} own?",),
          "company": ("What was {S} revenue last year?", "What is {S} stock ticker?",
                      "Who audits the accounts of {s}?")}


def build(world: World, rng: random.Random) -> None:
    names = full_names(world.split)
    rng.shuffle(names)
    firms = rng.sample(names_for(world.split, combos(*NAME_PARTS)), 10)
    ids = []
    for i, name in enumerate(firms):
        firm = world.entity("company", name)
        sector = NAME_PARTS[1].index(name.split(" ", 1)[1])
        world.add(firm, "industry", world.entity("industry", INDUSTRIES[sector]))
        world.add(firm, "hq", world.entity("city", rng.choice(CITIES)))
        world.add(firm, "founded_in", Lit(str(rng.randrange(1850, 2020)), "year"))
        world.add(firm, "employees", Lit(str(rng.randrange(12, 90_000)), "int"))
        world.add(firm, "ceo", make_person(world, rng, names, PLAN, list(CITIES), main_occupation="business executive"))
        for _ in range(rng.choice((1, 1, 2))):
            world.add(firm, "founder", make_person(world, rng, names, PLAN, list(CITIES),
                                                   main_occupation="entrepreneur"))
        if i >= 6:  # the last few are subsidiaries of the first ones
            world.add(firm, "parent", ids[rng.randrange(3)])
        ids.append(firm)


DOMAIN = Domain("companies", "nt-camel", "http://bizgraph.example/", VOCAB, TYPES, RELS, build, ABSENT)
