"""A KG literal written with its unit ("3.6 m", as a table with a "mirror diameter (m)" column
loads it) is a number in that unit to the checker: a claim of the same length in any unit is
supported, another length contradicted; "3.6 m" said in a claim is metres, not millions."""

from __future__ import annotations

import pytest

from engine.factcheck.values import extract, literal_kind, literal_unit
from tests.support.kb import checks_of, from_turtle

KG = """@prefix b: <http://bridges.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
b:span rdfs:label "main span" . b:opened rdfs:label "opened" .
b:kell rdfs:label "Kell Viaduct" ; b:span "42.5 m" ; b:opened 1911 .
"""


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    return from_turtle(tmp_path_factory.mktemp("bridges"), KG)


def test_a_literal_with_its_unit_is_a_number_in_that_unit():
    assert literal_kind("42.5 m", None) == ("number", 42.5) and literal_unit("181 cm").factor == 0.01
    assert literal_kind("Pier 4", None) is None and literal_unit("1911") is None
    metres = extract("The main span is 3.6 m.")
    assert [v.value for v in metres] == [(3.6, 0.05)] and metres[0].unit.kind == "length"
    assert [v.value for v in extract("It cost 3.6m euros.")] == [(3600000.0, 50000.0)]


@pytest.mark.parametrize("said, verdict", [("42.5 m", "supported"), ("42.5 metres", "supported"),
                                           ("4250 cm", "supported"), ("51 m", "contradicted")])
def test_a_length_is_checked_against_a_literal_written_with_its_unit(kg, said, verdict):
    checks = checks_of(kg, f"Kell Viaduct's main span is {said}.")
    assert [c.verdict for c in checks] == [verdict]
