"""Questions that compute (engine/compute): the operator read from a question's structure, values
compared as what they are, and each operator run over the values a path reaches, on small KGs
of a football league, a workshop and a choir."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.compute.operators import detect, names_said
from engine.compute.run import ask, count, keep, measured, rank
from engine.compute.values import compare, read
from engine.state import Mention


def test_the_operator_is_read_from_the_question_s_structure():
    assert detect("How many clubs play in Leeds?").name == "count"
    older = detect("Which club is older, Arsenal or Tottenham Hotspur?")
    assert older.name == "compare" and older.alternatives == ("Arsenal", "Tottenham Hotspur") and older.time_back
    assert detect("Does the Bolt or the Gear weigh more?").alternatives == ("the Bolt", "the Gear")
    assert detect("Which tool is the heaviest?").name == "argmax"
    assert detect("Which choir has the fewest singers?").name == "argmin"
    assert detect("Which club was founded earliest?").time_back is True
    slow = detect("Which repairs take longer than 2 hours?")
    assert slow.name == "filter" and slow.bound == "2 hours" and not slow.below
    before = detect("Which clubs were founded before 1890?")
    assert before.name == "filter" and before.bound == "1890" and before.below
    assert detect("Was Ada born in Leeds?").name == "yesno"
    asked = detect("Is the Bolt heavier than the Gear?")
    assert asked.name == "compare" and asked.yes_no and asked.alternatives == ("the Bolt", "the Gear")
    assert detect("Does Ada have more repairs than Tom?").noun == "repairs"
    assert detect("Is the Bolt heavier than 2 kg?").name == "filter"  # a number after "than" is a bound
    assert detect("Where was the coach of the club that signed Ada born?").name == "value"


def test_a_word_of_a_name_grades_nothing():
    """"Harbourfest" ends as a superlative does; said as the festival's name, it asks for a value."""
    said = [Mention(text="harbour fest twenty nineteen", start=14, end=42, kind="name", label="Harbourfest 2019")]
    assert detect("who headlined Harbourfest 2019", names_said(said)).name == "value"
    assert detect("Which festival had the biggest crowd, Harbourfest 2019?", names_said(said)).name == "argmax"
    assert detect("Who headlined Harbourfest 2020?").name == "value"  # a name, linked or not


def test_dates_compare_as_dates_a_year_against_a_full_date_by_year():
    assert compare(read("1882"), read("1886-03-01")) == -1
    assert compare(read("1886-01-01"), read("1886-12-31")) == -1
    assert compare(read("1886"), read("1886-12-31")) == 0  # the same year: no order to tell
    assert compare(read("2001-05-03T10:00:00Z"), read("2001-05-02")) == 1


def test_numbers_compare_in_their_units_and_text_never_as_a_number():
    assert compare(read("1.5 hours"), read("45 minutes")) == 1
    assert compare(read("90", "repairTimeMinutes"), read("2 hours")) == -1  # the unit the relation names
    assert compare(read("2 km"), read("1999 m")) == 1
    assert compare(read("2 km"), read("3 kg")) is None  # other measures
    assert compare(read("Leeds"), read("12")) is None
    assert read("Route 66").kind == "text"


@given(st.integers(min_value=-10**6, max_value=10**6), st.integers(min_value=-10**6, max_value=10**6))
def test_plain_numbers_compare_as_numbers(a, b):
    assert compare(read(str(a)), read(str(b))) == (a > b) - (a < b)


def test_compare_names_the_winner_with_both_values():
    op = detect("Which club is older, Arsenal or Tottenham Hotspur?")
    result = rank(op, {"Arsenal": ["1886"], "Tottenham Hotspur": ["1882-09-05"]})
    assert result.winners == ("Tottenham Hotspur",)
    assert [e for e, _ in result.ranked] == ["Tottenham Hotspur", "Arsenal"]


def test_superlatives_say_ties_and_the_members_without_the_value():
    op = detect("Which tool is the heaviest?")
    result = rank(op, {"Hammer": ["2 kg"], "Anvil": ["2000 g"], "File": ["300 g"], "Rag": []}, "mass")
    assert result.winners == ("Hammer", "Anvil")  # 2 kg and 2000 g: a tie
    assert result.missing == ("Rag",)
    assert [e for e, _ in result.ranked][2:] == ["File"]
    lightest = rank(detect("Which tool is the lightest?"), {"Hammer": ["2 kg"], "File": ["300 g"]}, "mass")
    assert lightest.winners == ("File",)
    newest = rank(detect("Which club is the newest?"), {"A": ["1950"], "B": ["1890-02-01"]})
    assert newest.winners == ("A",)


def test_a_count_is_never_cut_only_its_listing_is():
    result = count([f"Singer {n}" for n in range(25)] + ["Singer 3"], cap=5)
    assert result.count == 25 and result.cut == 20
    assert result.winners[:2] == ("Singer 0", "Singer 1") and len(result.winners) == 5


def test_filters_convert_units_and_name_what_has_no_value():
    op = detect("Which repairs take less than 2 hours?")
    result = keep(op, {"Brakes": ["90 minutes"], "Gearbox": ["5 hours"], "Tyres": ["1 hour"], "Paint": ["blue"],
                       "Lights": []}, "repair time")
    assert result.winners == ("Brakes", "Tyres")
    assert result.missing == ("Paint", "Lights")
    years = keep(detect("Which clubs were founded before 1890?"), {"A": ["1886-04-01"], "B": ["1902"]})
    assert years.winners == ("A",)


def test_yes_no_is_open_world_for_a_many_valued_relation():
    yes = ask("Ada Byrne", ["Ada Byrne", "Tom Lee"], many_valued=True)
    assert yes.answer is True
    unknown = ask("Ida Moss", ["Ada Byrne", "Tom Lee"], many_valued=True)
    assert unknown.answer is None
    assert unknown.found == ("Ada Byrne", "Tom Lee")
    no = ask("York", ["Leeds"], many_valued=False)
    assert no.answer is False and no.found == ("Leeds",)
    assert ask("York", [], many_valued=False).answer is None  # nothing known is no "No"


def test_each_path_carries_what_the_question_computes_over_its_values():
    from engine.compute.run import operate
    from engine.state import PathStep, RelationPath
    from engine.turn_json import path_json

    founded = PathStep("urn:founded", "founded")
    paths = [RelationPath("urn:a", "Arsenal", [founded], 1.0, values=["1886"]),
             RelationPath("urn:t", "Tottenham Hotspur", [founded], 0.9, values=["1882"])]
    operate("Which club is older, Arsenal or Tottenham Hotspur?", paths)
    assert path_json(paths[0])["operation"] == {"operator": "compare", "values": ["1886"],
                                                "result": "Tottenham Hotspur", "cut": 0}
    members = RelationPath("urn:c", "Harbour Choir", [PathStep("urn:member", "member")], 1.0,
                           values=["Ada", "Tom"], total=12)
    operate("How many members does the Harbour Choir have?", [members])
    assert members.operation is not None and members.operation.result == "12" and members.operation.cut == 10


def test_how_many_of_a_numeric_relation_the_noun_names_reads_its_value():
    # "How many seats does the venue of X have?": the venue's capacity, not a count of venues
    assert measured("seats", "seating capacity", ["2,000"])
    assert measured("parking", "parking spaces", ["40"])
    assert not measured("albums", "release year", ["1999"])  # the noun names no numeric relation
    assert not measured("seats", "seating plan", ["Stalls A"])  # a value that is no number
    assert not measured("", "seating capacity", ["2000"])
    assert measured("people", "maximum capacity", ["60,704"])  # a count, whatever the noun
    assert not measured("people", "height (metres)", ["12"])


@given(st.one_of(st.integers(-10**6, 10**6).map(str), st.decimals(-10**4, 10**4, places=2, allow_nan=False,
                                                                   allow_infinity=False).map(str),
                 st.sampled_from(["1950-05-01", "1950", "1950-05", "12 km", "abc", "1,200"])))
def test_keys_of_many_values_are_read_keys(text):
    from engine.compute.values import keys_of

    for label in ("length (metres)", "date of birth", "duration minutes"):
        assert keys_of([text], label) == [read(text, label).key]
