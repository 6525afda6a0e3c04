"""Hostile SPARQL: nesting deep enough to overflow the parser's stack is refused before parsing
(the process, and the app's console, go on); FROM names the default graph."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from engine.cli import main as cli
from kgstore import KGStore
from kgstore.errors import BadInput
from kgstore.query import MAX_DEPTH, BoundedQuery, shape

EX = "http://example.org/"


@pytest.fixture
def db(tmp_path):
    for name, n in (("one", 1), ("two", 2)):
        (tmp_path / f"{name}.nt").write_text("".join(f"<{EX}s{i}> <{EX}p> <{EX}o> .\n" for i in range(n)))
    path = str(tmp_path / "db")
    assert cli(["load", str(tmp_path / "one.nt"), str(tmp_path / "two.nt"), "--store", path]) == 0
    return path


@pytest.mark.parametrize("query", ["SELECT * WHERE { FILTER(" + "(" * 6000 + "1" + ")" * 6000 + ") }",
                                   "SELECT * WHERE " + "{" * 20000 + "}" * 20000])
def test_deep_nesting_is_one_line_and_exit_2(db, capsys, query):
    assert cli(["sparql", query, "--store", db]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"more than the {MAX_DEPTH} levels" in err


def test_the_console_query_refuses_it_before_parsing():
    with pytest.raises(BadInput, match="nested"):
        BoundedQuery(KGStore(), "ASK { " + "{" * (MAX_DEPTH + 1) + "}" * (MAX_DEPTH + 1) + " }")


def test_brackets_in_strings_iris_and_comments_do_not_count():
    text = 'SELECT * WHERE { ?s ?p "(((" . ?s ?p """{{\n{""" . ?s ?p <a#(((> } # ((((\n'
    assert shape(text) == (1, False)


def test_from_names_the_default_graph(db, capsys):
    count = "SELECT (COUNT(*) AS ?n) {from} WHERE {{ ?s ?p ?o }}"
    assert cli(["sparql", count.format(**{"from": ""}), "--store", db, "--json"]) == 0
    assert '"n": "3"' in capsys.readouterr().out
    assert cli(["sparql", count.format(**{"from": "FROM <urn:kgchat:graph:bg:two>"}), "--store", db, "--json"]) == 0
    assert '"n": "2"' in capsys.readouterr().out
    named = "SELECT (COUNT(*) AS ?n) FROM NAMED <urn:kgchat:graph:bg:one> WHERE { GRAPH ?g { ?s ?p ?o } }"
    assert cli(["sparql", named, "--store", db, "--json"]) == 0
    assert '"n": "1"' in capsys.readouterr().out


@given(st.integers(0, 300), st.sampled_from("({["))
def test_shape_counts_nesting(n, bracket):
    close = {"(": ")", "{": "}", "[": "]"}[bracket]
    assert shape("ASK " + bracket * n + close * n)[0] == n
