"""The route stage in a live session: the relation paths a question asks for, retrieval that
follows them (the chain from the named entity to the answer is in the subgraph), the paths in
`retrieve --json` and in the text output, and the knowledge pane's lines."""

from __future__ import annotations

import json

from engine.config import Config
from engine.session import Session
from engine.turn_json import path_json, retrieval_json

FB = "http://example.org/fb/"
FOOTBALL = f"""@prefix ex: <{FB}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:ann rdfs:label "Ann Berg" ; a ex:Player ; ex:playsFor ex:rovers ; ex:birthPlace ex:oslo ;
    ex:birthDate "1990-04-02"^^xsd:date .
ex:rovers rdfs:label "Harbour Rovers" ; a ex:Club ; ex:headCoach ex:carl ; ex:homeGround ex:quay ;
    ex:founded "1901"^^xsd:gYear ; ex:league ex:north .
ex:carl rdfs:label "Carl Dunn" ; a ex:Coach ; ex:birthPlace ex:bergen .
ex:ole rdfs:label "Ole Lund" ; a ex:Player ; ex:playsFor ex:rovers .
ex:eva rdfs:label "Eva Holm" ; a ex:Player ; ex:playsFor ex:rovers .
ex:oslo rdfs:label "Oslo" . ex:bergen rdfs:label "Bergen" . ex:quay rdfs:label "Quay Park" .
ex:north rdfs:label "North League" .
ex:Player rdfs:label "player" . ex:Club rdfs:label "football club" . ex:Coach rdfs:label "coach" .
ex:playsFor rdfs:label "plays for" . ex:headCoach rdfs:label "head coach" . ex:homeGround rdfs:label "home ground" .
ex:birthPlace rdfs:label "place of birth" . ex:birthDate rdfs:label "date of birth" . ex:founded rdfs:label "founded" .
ex:league rdfs:label "league" .
"""


def session(tmp_path, text=FOOTBALL, name="kg.ttl") -> Session:
    kg = tmp_path / name
    kg.write_text(text, encoding="utf-8")
    return Session.open(Config(kg=[str(kg)], memory=True, demo="none", now="2026-03-02T09:00:00"))


def labels(path) -> list[str]:
    return [s.label for s in path.steps]


def test_a_two_hop_question_routes_through_the_middle_entity_and_retrieval_keeps_the_chain(tmp_path):
    s = session(tmp_path)
    state = s.user_turn("Who is the head coach of the club Ann Berg plays for?", answer=False)
    assert state.paths and labels(state.paths[0]) == ["plays for", "head coach"]
    assert state.paths[0].values == ["Carl Dunn"]
    keys = {c.fact.key for c in state.retrieved}
    assert (FB + "ann", FB + "playsFor", FB + "rovers") in keys and (FB + "rovers", FB + "headCoach", FB + "carl") in keys
    assert "route" in state.timings_ms


def test_an_inverse_list_is_gathered_whole_and_retrieved(tmp_path):
    s = session(tmp_path)
    state = s.user_turn("Which players play for Harbour Rovers?", answer=False)
    path = state.paths[0]
    assert labels(path) == ["plays for"] and not path.steps[0].forward
    assert path.asks_all and path.total == 3 and sorted(path.values) == ["Ann Berg", "Eva Holm", "Ole Lund"]
    said = " ".join(c.text for c in state.retrieved)
    assert all(name in said for name in ("Ann Berg", "Eva Holm", "Ole Lund"))


def test_a_question_about_what_the_entity_lacks_routes_nowhere(tmp_path):
    s = session(tmp_path)
    assert s.user_turn("What is the ticket price of Harbour Rovers?", answer=False).paths == []
    assert s.user_turn("Hello!", answer=False).paths == []


def test_the_paths_are_in_the_json_of_a_turn(tmp_path):
    s = session(tmp_path)
    state = s.user_turn("Who is the head coach of the club Ann Berg plays for?", answer=False)
    doc = retrieval_json(state)
    assert doc["paths"][0] == path_json(state.paths[0])
    p = doc["paths"][0]
    assert [st["label"] for st in p["steps"]] == ["plays for", "head coach"] and p["steps"][0]["forward"] is True
    assert p["start"] == FB + "ann" and p["start_label"] == "Ann Berg" and p["values"] == ["Carl Dunn"]
    assert p["chains"] == [[{"s": FB + "ann", "p": FB + "playsFor", "o": FB + "rovers"},
                            {"s": FB + "rovers", "p": FB + "headCoach", "o": FB + "carl"}]]
    assert p["total"] == 1 and p["cut"] == "" and doc["paths_note"] == ""
    json.dumps(doc)


def test_retrieve_prints_the_paths(tmp_path, capsys):
    from cli.retrieve import main

    kg = tmp_path / "kg.ttl"
    kg.write_text(FOOTBALL, encoding="utf-8")
    dialogue = tmp_path / "d.json"
    dialogue.write_text(json.dumps([{"speaker": "user", "text": "Which players play for Harbour Rovers?"}]),
                        encoding="utf-8")
    assert main(["--kg", str(kg), "--dialogue", str(dialogue)], command="retrieve") == 0
    out = capsys.readouterr().out
    assert "path Harbour Rovers <- plays for: " in out and "(3 values)" in out


def test_the_pane_says_the_chain_and_the_cut(tmp_path):
    from engine.state import TurnState
    from tui.widgets.knowledge import path_lines

    s = session(tmp_path)
    state = s.user_turn("Who is the head coach of the club Ann Berg plays for?", answer=False)
    lines = [t.plain for t in path_lines(state, {FB + "rovers": "Harbour Rovers"})]
    assert lines == ["path Ann Berg → plays for Harbour Rovers → head coach: Carl Dunn"]
    state.paths_note = "path search from Ann Berg cut at 300 relation paths"
    assert path_lines(state, {})[-1].plain == "⚠ path search from Ann Berg cut at 300 relation paths"
    assert path_lines(TurnState(session_id="", turn=0, text="", now=None), {}) == []  # type: ignore[arg-type]


def test_relations_without_labels_route_by_their_readable_local_names(tmp_path):
    label = "<http://www.w3.org/2000/01/rdf-schema#label>"
    text = f"""<http://ex.org/k/PadThai> {label} "Pad Thai" .
<http://ex.org/k/PadThai> <http://ex.org/k/hasIngredient> <http://ex.org/k/RiceNoodles> .
<http://ex.org/k/PadThai> <http://ex.org/k/hasIngredient> <http://ex.org/k/Tamarind> .
<http://ex.org/k/PadThai> <http://ex.org/k/originCountry> <http://ex.org/k/Thailand> .
<http://ex.org/k/Thailand> <http://ex.org/k/capitalCity> <http://ex.org/k/Bangkok> .
"""
    s = session(tmp_path, text, "kg.nt")
    state = s.user_turn("What are the ingredients of Pad Thai?", answer=False)
    assert labels(state.paths[0]) == ["has ingredient"] and state.paths[0].asks_all
    assert sorted(state.paths[0].values) == ["Rice Noodles", "Tamarind"]
    two = s.user_turn("What is the capital city of the country Pad Thai comes from?", answer=False)
    assert labels(two.paths[0]) == ["origin country", "capital city"] and two.paths[0].values == ["Bangkok"]


def ttl(body: str) -> str:
    """A small KG of a test: the prefixes, then its triples."""
    return PREFIXES + body


PREFIXES = f"""@prefix ex: <{FB}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
"""


PEAKS = ttl("""ex:brell rdfs:label "Mount Brell" ; ex:elevationM 2870 ; ex:firstAscent 1911 ; ex:range ex:grey .
ex:tind rdfs:label "Tind Peak" ; ex:elevationM 1960 ; ex:prominenceM 410 ; ex:firstAscent 1890 .
ex:grey rdfs:label "Grey Mountains" .
ex:range rdfs:label "part of range" . ex:firstAscent rdfs:label "first ascent year" .
""")


def test_the_one_relation_that_holds_the_measure_asked_answers_it_whatever_its_words(tmp_path):
    kg = tmp_path / "peaks.ttl"
    kg.write_text(PEAKS, encoding="utf-8")
    s = Session.open(Config(kg=[str(kg)], memory=True, demo="none"))
    assert labels(s.user_turn("How tall is Mount Brell?", answer=False).paths[0]) == ["elevation M"]
    assert s.user_turn("How heavy is Mount Brell?", answer=False).paths == []  # it holds no mass
    # two lengths: the measure alone does not tell which is asked
    assert all(labels(p) != ["prominence M"] for p in s.user_turn("How tall is Tind Peak?", answer=False).paths)


def test_how_long_takes_the_one_relation_that_holds_a_duration_or_a_length(tmp_path):
    kg = tmp_path / "films.ttl"
    kg.write_text(ttl("""ex:tide rdfs:label "Hollow Tide" ; ex:runtime 88 ; ex:year 2019 ; ex:lang ex:fr .
ex:fr rdfs:label "French" . ex:runtime rdfs:label "runtime (minutes)" . ex:year rdfs:label "release year" .
ex:lang rdfs:label "original language" .
ex:pier rdfs:label "Kestrel Pier" ; ex:lengthM 240 ; ex:year 1902 .
"""), encoding="utf-8")
    s = Session.open(Config(kg=[str(kg)], memory=True, demo="none"))
    assert labels(s.user_turn("How long is Hollow Tide?", answer=False).paths[0]) == ["runtime (minutes)"]
    assert labels(s.user_turn("How long is Kestrel Pier?", answer=False).paths[0]) == ["length M"]


BANDS = ttl("""ex:velvet rdfs:label "Velvet Static" ; a ex:Band ; ex:formedIn ex:montreal .
ex:harbour rdfs:label "The Glass Harbour" ; a ex:Band ; ex:openedFor ex:velvet .
ex:montreal rdfs:label "Montreal" . ex:Band rdfs:label "rock band" .
ex:openedFor rdfs:label "opened for" . ex:formedIn rdfs:label "formed in" .
""")


def test_a_place_asked_for_by_its_noun_is_no_band_however_alike_the_words(tmp_path):
    s = session(tmp_path, BANDS)
    paths = s.user_turn("Which city did Velvet Static get started in?", answer=False).paths
    assert all(labels(p) != ["opened for"] for p in paths)  # "started" ~ "opened", but a band is no city
    assert labels(s.user_turn("Who did The Glass Harbour open for?", answer=False).paths[0]) == ["opened for"]
    # nor a date, however alike the words ("birthplace" ~ "birth date")
    places = ttl("""ex:ann rdfs:label "Ann Berg" ; ex:birthPlace ex:oslo ; ex:birthDate "1990-04-02"^^xsd:date .
ex:oslo rdfs:label "Oslo" ; a ex:City ; ex:containedIn ex:norway . ex:norway rdfs:label "Norway" ; a ex:Country .
ex:City rdfs:label "City" . ex:Country rdfs:label "Country" .
""")
    born = session(tmp_path, places, "places.ttl").user_turn("Which country is the birthplace of Ann Berg in?", answer=False)
    assert all(labels(p) != ["birth date"] for p in born.paths)


FIRMS = ttl("""ex:keel rdfs:label "Keelby Freight" ; ex:inception "1857"^^xsd:gYear ; ex:employees 3279 ; ex:ceo ex:ida .
ex:ida rdfs:label "Ida Strand" . ex:inception rdfs:label "inception" . ex:employees rdfs:label "employee count" .
ex:ceo rdfs:label "chief executive officer" .
""")


def test_how_long_a_thing_has_been_around_is_asked_of_the_date_it_began(tmp_path):
    s = session(tmp_path, FIRMS)
    for question in ("How long has Keelby Freight been around?", "How old is Keelby Freight?"):
        assert labels(s.user_turn(question, answer=False).paths[0]) == ["inception"], question
    # "who" asks for no date, however alike "founded" and a date of founding
    assert s.user_turn("Who founded Keelby Freight?", answer=False).paths == []


def test_a_label_the_question_says_in_full_though_apart_is_not_split_over_a_chain(tmp_path):
    climb = ttl("""ex:velding rdfs:label "Mount Velding" ; ex:firstAscentBy ex:sven ; ex:firstAscentYear "1939"^^xsd:gYear .
ex:sven rdfs:label "Sven Oyelaran" ; ex:dateOfBirth "1858-02-20"^^xsd:date .
""")
    s = session(tmp_path, climb)
    paths = s.user_turn("What year was the first ascent of Mount Velding?", answer=False).paths
    assert [labels(p) for p in paths] == [["first ascent year"]]  # not the first climber's year of birth


def test_that_noun_of_a_later_clause_is_what_the_clause_before_led_to(tmp_path):
    s = session(tmp_path)
    paths = s.user_turn("Who is the head coach of Harbour Rovers, and where was that coach born?", answer=False).paths
    assert sorted(labels(p) for p in paths) == [["head coach"], ["head coach", "place of birth"]]
    assert [p.values for p in paths if len(p.steps) == 2] == [["Bergen"]]


def test_a_relation_of_another_measure_is_no_answer_to_the_measure_asked(tmp_path):
    dish = ttl("""ex:pad rdfs:label "Pad Thai" ; ex:servings 2 ; ex:cookingTimeMinutes 15 .
""")
    s = session(tmp_path, dish)
    assert s.user_turn("How much does Pad Thai cost at a restaurant?", answer=False).paths == []
    assert labels(s.user_turn("How many people does Pad Thai serve?", answer=False).paths[0]) == ["servings"]


def test_a_question_that_says_a_value_asks_of_its_relation_and_an_overview_borrows_nothing(tmp_path):
    books = ttl("""ex:copper rdfs:label "Copper Rain" ; ex:author ex:lena ; ex:genre "crime novel" ; ex:pages 404 .
ex:lena rdfs:label "Lena Okafor" . ex:author rdfs:label "author" . ex:genre rdfs:label "genre" .
ex:pages rdfs:label "number of pages" .
""")
    s = session(tmp_path, books)
    assert labels(s.user_turn("Is Copper Rain a crime novel?", answer=False).paths[0]) == ["genre"]
    # "Tell me about X" after a question asks for all there is, not that question's relation again
    s.user_turn("How many pages does Copper Rain have?", answer=False)
    assert s.user_turn("Tell me about Lena Okafor.", answer=False).paths == []
    assert s.user_turn("What do you know about Copper Rain?", answer=False).paths == []


ART = ttl("""ex:kite rdfs:label "Red Kite" ; ex:paintedBy ex:tobias ; ex:medium "oil on board" ; ex:heightCm 61 .
ex:quarry rdfs:label "Quarry Light" ; ex:paintedBy ex:tobias .
ex:tobias rdfs:label "Tobias Hale" . ex:paintedBy rdfs:label "painted by" . ex:medium rdfs:label "medium" .
""")


def test_what_a_person_painted_is_what_is_painted_by_them(tmp_path):
    s = session(tmp_path, ART)
    path = s.user_turn("What did Tobias Hale paint?", answer=False).paths[0]
    assert labels(path) == ["painted by"] and sorted(path.values) == ["Quarry Light", "Red Kite"]


def test_a_width_is_no_height_and_no_words_measure(tmp_path):
    s = session(tmp_path, ART)
    assert s.user_turn("How wide is Red Kite?", answer=False).paths == []
    assert labels(s.user_turn("How tall is Red Kite?", answer=False).paths[0]) == ["height cm"]


def test_a_place_asked_for_by_its_noun_before_the_entity_is_a_step_beyond_the_verb(tmp_path):
    places = ttl("""ex:tobias rdfs:label "Tobias Hale" ; ex:bornIn ex:hull ; ex:diedIn ex:york .
ex:gallery rdfs:label "North Gallery" ; ex:locatedIn ex:york .
ex:hull rdfs:label "Hull" ; ex:country ex:uk . ex:york rdfs:label "York" ; ex:country ex:uk .
ex:uk rdfs:label "United Kingdom" . ex:bornIn rdfs:label "born in" . ex:diedIn rdfs:label "died in" .
ex:locatedIn rdfs:label "located in" . ex:country rdfs:label "country" .
""")
    s = session(tmp_path, places)
    born = s.user_turn("In which country was Tobias Hale born?", answer=False).paths[0]
    assert labels(born) == ["born in", "country"] and born.values == ["United Kingdom"]
    # the city he died in is York itself, not the country beyond it nor a gallery located in it
    died = s.user_turn("In which city did Tobias Hale die?", answer=False).paths[0]
    assert labels(died) == ["died in"] and died.values == ["York"]


def test_what_things_an_entity_has_are_those_its_one_relation_leads_to_that_are_such_things(tmp_path):
    gallery = ART + """ex:kite ex:heldAt ex:north . ex:quarry ex:heldAt ex:north .
ex:north rdfs:label "North Gallery" ; ex:director ex:anouk ; ex:locatedIn ex:york .
ex:anouk rdfs:label "Anouk Peeters" . ex:york rdfs:label "York" . ex:heldAt rdfs:label "held at" .
"""
    s = session(tmp_path, gallery)
    path = s.user_turn("What paintings does North Gallery have?", answer=False).paths[0]
    assert labels(path) == ["held at"] and sorted(path.values) == ["Quarry Light", "Red Kite"]


def test_a_noun_asked_in_other_words_than_its_class_is_that_class_not_a_label_it_modifies(tmp_path):
    films = ttl("""ex:ava rdfs:label "Ava Lind" ; ex:filmStudio ex:nordic ; ex:bornIn ex:umea .
ex:nordic rdfs:label "Nordic Frame" . ex:umea rdfs:label "Umea" .
ex:salt rdfs:label "Salt Roads" ; a ex:Movie ; ex:directedBy ex:ava .
ex:ice rdfs:label "Ice Choir" ; a ex:Movie ; ex:directedBy ex:ava .
ex:Movie rdfs:label "movie" . ex:filmStudio rdfs:label "film studio" . ex:directedBy rdfs:label "directed by" .
ex:bornIn rdfs:label "born in" .
""")
    s = session(tmp_path, films)
    path = s.user_turn("What films has Ava Lind made?", answer=False).paths[0]
    assert labels(path) == ["directed by"] and sorted(path.values) == ["Ice Choir", "Salt Roads"]
    # a relation the noun names is asked for, however alike the encoder reads the noun and a class
    firms = ttl("""ex:keel rdfs:label "Keelby Freight" ; a ex:Company ; ex:industry ex:shipping ; ex:parent ex:tessel .
ex:tessel rdfs:label "Tessel Robotics" ; a ex:Company . ex:shipping rdfs:label "maritime shipping" .
ex:Company rdfs:label "Company" . ex:industry rdfs:label "industry" . ex:parent rdfs:label "parent company" .
""")
    path = session(tmp_path, firms, "firms.ttl").user_turn("What industry is Keelby Freight in?", answer=False).paths[0]
    assert labels(path) == ["industry"] and path.values == ["maritime shipping"]


def test_the_answer_to_which_is_no_entity_the_question_names_unless_it_offers_a_choice(tmp_path):
    towns = ttl("""ex:turin rdfs:label "Turin" ; ex:country ex:italy ; ex:region ex:piedmont .
ex:italy rdfs:label "Italy" . ex:piedmont rdfs:label "Piedmont" . ex:italian rdfs:label "Italian" .
ex:country rdfs:label "country" . ex:region rdfs:label "located in the administrative territorial entity" .
""")
    s = session(tmp_path, towns)
    path = s.user_turn("Which Italian region does Turin belong to?", answer=False).paths[0]
    assert path.values == ["Piedmont"]  # not Italy, which "Italian" says
    chose = s.user_turn("Which country is Turin in, Italy or Piedmont?", answer=False).paths
    assert any(p.values == ["Italy"] for p in chose)


def test_a_phrasal_verb_is_read_on_its_subject_and_a_modified_place_noun_asks_a_place(tmp_path):
    bands = BANDS + """ex:kestrel rdfs:label "Kestrel Lane" ; a ex:Band ; ex:openedFor ex:harbour .
"""
    s = session(tmp_path, bands)
    paths = s.user_turn("Which act did The Glass Harbour warm up for on the tour?", answer=False).paths
    assert [p.values for p in paths] == [["Velvet Static"]]  # not Kestrel Lane, who warmed up for it
    course = ttl("""ex:algo rdfs:label "Algorithms" ; ex:lecturer ex:lee ; ex:room ex:b12 .
ex:lee rdfs:label "Dana Lee" ; a ex:Person . ex:b12 rdfs:label "B12" . ex:Person rdfs:label "person" .
ex:lecturer rdfs:label "lecturer" . ex:room rdfs:label "taught in room" .
""")
    hall = session(tmp_path, course, "course.ttl").user_turn("Which lecture hall hosts Algorithms?", answer=False)
    assert [labels(p) for p in hall.paths] == [["taught in room"]]


SPACE = ttl("""ex:vesper rdfs:label "Vesper Probe" ; ex:launchDate "2019-04-11"^^xsd:date ; ex:massKg 1820 ;
    ex:site ex:kourou ; ex:operator ex:esa .
ex:kite rdfs:label "Red Kite Lander" ; ex:site ex:tane ; ex:operator ex:jaxa .
ex:kourou rdfs:label "Guiana Space Centre" . ex:tane rdfs:label "Tanegashima Space Center" .
ex:esa rdfs:label "European Space Agency" . ex:jaxa rdfs:label "JAXA" .
ex:launchDate rdfs:label "launch date" . ex:massKg rdfs:label "launch mass kg" . ex:site rdfs:label "launched from" .
ex:operator rdfs:label "operated by" .
""")


def test_the_one_relation_holding_the_measure_asked_beats_a_date_that_shares_its_words(tmp_path):
    s = session(tmp_path, SPACE)
    path = s.user_turn("How heavy was Vesper Probe at launch?", answer=False).paths[0]
    assert labels(path) == ["launch mass kg"] and path.values == ["1820"]  # not its launch date, however 1820 reads


def test_the_noun_asked_for_is_its_head_in_either_spelling(tmp_path):
    s = session(tmp_path, SPACE)
    # "Japanese" qualifies the centre; the centre's name spells it "Center"
    path = s.user_turn("Which Japanese space centre did Red Kite Lander use?", answer=False).paths[0]
    assert labels(path) == ["launched from"] and path.values == ["Tanegashima Space Center"]
    ran = s.user_turn("Which missions does the European Space Agency run?", answer=False).paths[0]
    assert labels(ran) == ["operated by"] and ran.values == ["Vesper Probe"]


def test_an_overview_of_a_thing_is_never_a_relation_it_lacks(tmp_path):
    from tests.support.fakes import ScriptedLLM

    kg = tmp_path / "space.ttl"
    kg.write_text(SPACE + 'ex:jaxa ex:founded "2003"^^xsd:gYear ; ex:hq ex:tokyo . ex:tokyo rdfs:label "Tokyo" .\n'
                  'ex:founded rdfs:label "established" . ex:hq rdfs:label "headquarters" .\n', encoding="utf-8")
    s = Session.open(Config(kg=[str(kg)], memory=True, demo="none", refine_steps=0),
                     llm=ScriptedLLM(["I am not sure what you would like to know."]))
    state = s.user_turn("Tell me about JAXA.")
    assert state.answer_source != "not_found" and "2003" in state.shown_reply and "Tokyo" in state.shown_reply


def test_who_does_a_thing_to_an_entity_is_not_what_the_entity_does_it_to(tmp_path):
    rail = ttl("""ex:fjord rdfs:label "Fjordrail" ; ex:ceo ex:hilde . ex:hilde rdfs:label "Hilde Aasen" .
ex:north rdfs:label "Northline Express" ; ex:operatedBy ex:fjord ; ex:stock ex:c73 .
ex:coast rdfs:label "Coastal Runner" ; ex:operatedBy ex:fjord .
ex:c73 rdfs:label "Class 73" ; ex:topSpeed "210 km/h" .
ex:ceo rdfs:label "chief executive" . ex:operatedBy rdfs:label "operated by" . ex:stock rdfs:label "rolling stock" .
ex:topSpeed rdfs:label "top speed" .
""")
    s = session(tmp_path, rail)
    assert [labels(p) for p in s.user_turn("Who runs Fjordrail?", answer=False).paths] == [["chief executive"]]
    ran = s.user_turn("What trains does Fjordrail operate?", answer=False).paths[0]
    assert labels(ran) == ["operated by"] and sorted(ran.values) == ["Coastal Runner", "Northline Express"]
    fast = s.user_turn("How fast is Class 73?", answer=False).paths[0]
    assert labels(fast) == ["top speed"] and fast.values == ["210 km/h"]


def test_players_a_birthplace_asked_as_where_from_and_the_region_beyond_a_home_city(tmp_path):
    league = ttl("""ex:hawks rdfs:label "Harbour City Hawks" ; ex:athlete ex:kofi , ex:lena ; ex:coach ex:mara ;
    ex:location ex:portvale ; ex:memberOf ex:coastal .
ex:kofi rdfs:label "Kofi Mensah" ; ex:birthPlace ex:accra . ex:lena rdfs:label "Lena Okoro" .
ex:mara rdfs:label "Mara Lindqvist" . ex:accra rdfs:label "Accra" . ex:coastal rdfs:label "Coastal League" .
ex:portvale rdfs:label "Portvale" ; ex:containedInPlace ex:westmark . ex:westmark rdfs:label "Westmark" .
""")
    s = session(tmp_path, league)
    players = s.user_turn("Who plays for the Harbour City Hawks?", answer=False).paths
    assert [labels(p) for p in players] == [["athlete"]] and sorted(players[0].values) == ["Kofi Mensah", "Lena Okoro"]
    assert s.user_turn("Where is Kofi Mensah from?", answer=False).paths[0].values == ["Accra"]
    # she has no birthplace: her question is not read as the one before it
    assert all(labels(p) != ["athlete"] for p in s.user_turn("Where is Lena Okoro from?", answer=False).paths)
    region = s.user_turn("Which region is the home city of the Harbour City Hawks in?", answer=False).paths[0]
    assert labels(region) == ["location", "contained in place"] and region.values == ["Westmark"]


def test_things_of_a_type_asked_for_at_a_time_are_no_relation_list(tmp_path):
    meetings = ttl("""ex:sync rdfs:label "Weekly Sync" ; a ex:Meeting ; ex:organizer ex:ann ; ex:date "2026-03-02"^^xsd:date .
ex:plan rdfs:label "Sprint Planning" ; a ex:Meeting ; ex:organizer ex:ann ; ex:date "2026-03-05"^^xsd:date .
ex:ann rdfs:label "Ann Berg" . ex:Meeting rdfs:label "meeting" . ex:organizer rdfs:label "organizer" .
ex:date rdfs:label "date" .
""")
    s = session(tmp_path, meetings)  # the session's clock: Monday 2 March 2026
    state = s.user_turn("Which meetings does Ann Berg organize today?", answer=False)
    assert state.paths == [] and "asked for at a time" in state.paths_note  # not her meetings of every day
    every = s.user_turn("Which meetings does Ann Berg organize?", answer=False).paths[0]
    assert labels(every) == ["organizer"] and sorted(every.values) == ["Sprint Planning", "Weekly Sync"]


BOOKS = """head,relation,tail
Salt Roads,written_by,Mira Okafor
Salt Roads,written_by,Tomas Brandt
Harbour Lights,written_by,Tomas Brandt
Harbour Lights,illustrated_by,Ines Vale
Quiet Water,illustrated_by,Ines Vale
Quiet Water,written_by,Ada Roos
"""


def test_a_relation_shared_with_the_entity_is_walked_out_and_back(tmp_path):
    s = session(tmp_path, BOOKS, "books.csv")
    state = s.user_turn("Which books have the same illustrator as Harbour Lights?", answer=False)
    assert labels(state.paths[0]) == ["illustrated by", "illustrated by"]
    assert [st.forward for st in state.paths[0].steps] == [True, False] and state.paths[0].values == ["Quiet Water"]
    state = s.user_turn("Mira Okafor co-wrote books with whom?", answer=False)
    assert labels(state.paths[0]) == ["written by", "written by"] and state.paths[0].values == ["Tomas Brandt"]
    state = s.user_turn("Who wrote Harbour Lights?", answer=False)  # no word of sharing: the one relation
    assert labels(state.paths[0]) == ["written by"]


def test_a_word_of_sharing_that_is_the_relations_own_verb_asks_one_step(tmp_path):
    borders = """head,relation,tail
Norland,shares border with,Vesta
Norland,shares border with,Orvia
Vesta,shares border with,Kaldera
"""
    s = session(tmp_path, borders, "borders.csv")
    path = s.user_turn("Which countries does Norland share a border with?", answer=False).paths[0]
    assert labels(path) == ["shares border with"] and sorted(path.values) == ["Orvia", "Vesta"]


def test_where_or_when_alone_asks_the_second_relation_of_a_described_thing(tmp_path):
    choir = ttl("""ex:gala rdfs:label "Winter Gala" ; ex:conductedBy ex:rut ; ex:venue ex:hall ; ex:date "2026-12-12"^^xsd:date .
ex:rut rdfs:label "Rut Aalto" ; ex:memberOf ex:cantus . ex:hall rdfs:label "Kiln Hall" . ex:cantus rdfs:label "Cantus Nord" .
ex:conductedBy rdfs:label "conducted by" . ex:venue rdfs:label "venue" . ex:date rdfs:label "date" .
ex:memberOf rdfs:label "member of" .
""")
    s = session(tmp_path, choir)
    where = s.user_turn("Where is the concert Rut Aalto conducts held?", answer=False).paths
    assert [labels(p) for p in where] == [["conducted by", "venue"]] and where[0].values == ["Kiln Hall"]
    when = s.user_turn("When is the concert Rut Aalto conducts?", answer=False).paths
    assert [labels(p) for p in when] == [["conducted by", "date"]]
    # said by a noun of its own, the relation of the named person is what is asked
    assert [labels(p) for p in s.user_turn("Which choir is Rut Aalto a member of?", answer=False).paths] == [["member of"]]


def test_the_verb_an_auxiliary_waits_for_is_no_word_of_the_clause_that_describes(tmp_path):
    films = ttl("""ex:kite rdfs:label "Paper Kite" ; ex:directedBy ex:ana ; ex:releaseDate "2019-05-02"^^xsd:date ;
    ex:shotIn ex:tromso .
ex:ana rdfs:label "Ana Roos" ; ex:dateOfBirth "1980-01-09"^^xsd:date . ex:tromso rdfs:label "Tromsø" .
ex:directedBy rdfs:label "directed by" . ex:releaseDate rdfs:label "release date" . ex:shotIn rdfs:label "filmed in" .
ex:dateOfBirth rdfs:label "date of birth" .
""")
    s = session(tmp_path, films)
    paths = s.user_turn("Where was the film Ana Roos directed filmed?", answer=False).paths
    assert [labels(p) for p in paths] == [["directed by", "filmed in"]] and paths[0].values == ["Tromsø"]


def test_where_is_answered_by_the_first_relation_when_its_values_are_places(tmp_path):
    campus = ttl("""ex:Room rdfs:label "room" . ex:Building rdfs:label "building" .
ex:yuki rdfs:label "Yuki Tanaka" ; ex:office ex:sh207 . ex:sh207 a ex:Room ; rdfs:label "SH 2.07" ; ex:inBuilding ex:sau .
ex:sau a ex:Building ; rdfs:label "Saussure House" .
ex:office rdfs:label "office" . ex:inBuilding rdfs:label "located in building" .
""")
    paths = session(tmp_path, campus).user_turn("Where is Yuki Tanaka's office?", answer=False).paths
    assert [labels(p) for p in paths] == [["office"]]
