"""Hostile and careless files for the loaders: a byte order mark in any format, JSON nested past
the parser's depth, numbers too long to read. Each loads, or fails with one line naming the file."""

from __future__ import annotations

import json

import pytest

from kgstore import KGStore
from kgstore.errors import LoadError
from kgstore.loaders.graphwoz_json import read_dialogue_file

BOM = b"\xef\xbb\xbf"
TRIPLE = b"<http://example.org/a> <http://example.org/p> <http://example.org/b> "
FILES = {
    "nt": TRIPLE + b".\n", "ttl": TRIPLE + b".\n", "n3": TRIPLE + b".\n", "nq": TRIPLE + b"<http://example.org/g> .\n",
    "trig": b"<http://example.org/g> { " + TRIPLE + b". }\n",
    "jsonld": b'{"@id": "http://example.org/a", "http://example.org/p": {"@id": "http://example.org/b"}}',
    "rdf": b'<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
           b'xmlns:ex="http://example.org/"><rdf:Description rdf:about="http://example.org/a"><ex:p '
           b'rdf:resource="http://example.org/b"/></rdf:Description></rdf:RDF>',
    "csv": b"a,p,b\n",
    "jsonl": b'{"type": "item", "id": "Q1", "labels": {"en": {"language": "en", "value": "a"}}, "claims": {}}\n',
}


@pytest.mark.parametrize("bulk", [False, True])
@pytest.mark.parametrize("ext", sorted(FILES))
def test_a_byte_order_mark_is_skipped_in_every_format(tmp_path, ext, bulk):
    plain, marked = tmp_path / f"plain.{ext}", tmp_path / f"marked.{ext}"
    plain.write_bytes(FILES[ext])
    marked.write_bytes(BOM + FILES[ext])
    expected, s = KGStore().load(plain).added, KGStore()
    if bulk:
        s.bulk_min_bytes = 1
    assert s.load(marked).added == expected > 0


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("name,text", [
    ("deep.jsonl", '{"type": "item", "id": "Q1", "claims": ' + DEEP + "}\n"),
    ("deep.json", '{"d1": {"log": ' + DEEP + ', "data": {}}}'),
])
def test_json_nested_past_the_parser_is_one_line_naming_the_file(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(LoadError, match=rf"{name}: (line 1: )?JSON nested too deeply to read"):
        KGStore().load(path, format="wikidata" if name.endswith("jsonl") else "graphwoz")


@pytest.mark.parametrize("text,reason", [(DEEP, "JSON nested too deeply"),
                                         ('{"speaker": "user", "text": "hi", "n": ' + "9" * 5000 + "}\n",
                                          "unreadable JSON value")])
def test_dialogue_files_say_what_is_wrong_with_their_json(tmp_path, text, reason):
    path = tmp_path / "d.jsonl"
    path.write_text(text)
    with pytest.raises(LoadError, match=f"d.jsonl: .*{reason}"):
        read_dialogue_file(str(path))



def _graphwoz(tmp_path, people, events):
    path = tmp_path / "woz.json"
    path.write_text(json.dumps({"d1": {"log": [], "data": {"people": people, "events": events}}}))
    return path


def test_graphwoz_numbers_where_names_belong_are_read_with_a_warning_and_nulls_skipped(tmp_path):
    path = _graphwoz(tmp_path, [{"id": "p1", "name": "Ann"}, {"id": "p2", "name": 42}],
                     [{"id": "e1", "name": "Standup", "attendees": [None, "Ann"], "location": None, "group": 7}])
    s = KGStore()
    report = s.load(path, format="graphwoz")
    labels = {row["l"] for row in s.query("SELECT ?l WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l }")}
    assert "None" not in labels and {"Ann", "42", "Standup", "7"} <= labels
    assert any("the number 42 where a name belongs read as text" in w for w in report.warnings)
    assert any("data.events attendees: null where a name belongs skipped" in w for w in report.warnings)


def test_a_graphwoz_name_that_is_null_is_one_line(tmp_path):
    path = _graphwoz(tmp_path, [{"id": "p1", "name": None}], [])
    with pytest.raises(LoadError, match=r"woz.json: line 1: dialogue d1: data.people\[0\]: 'name' must be text, not null"):
        KGStore().load(path, format="graphwoz")


HUGE = "y" * (16 * 2**20 + 1000)  # past the 16 MB that pyoxigraph's parsers hold of one term
A, P, Q = "<http://example.org/a>", "<http://example.org/p>", "<http://example.org/q>"
HUGE_TERM = {
    "nt": f'{A} {P} "small" .\n\n{A} {Q} "{HUGE}" .\n',
    "nq": f'{A} {P} "small" .\n\n{A} {Q} "{HUGE}" <http://example.org/g> .\n',
    "ttl": f'{A} {P} "small" .\n\n{A} {Q} """{HUGE}""" .\n',
    "n3": f'{A} {P} "small" .\n\n{A} {Q} "{HUGE}" .\n',
    "trig": f'{A} {P} "small" .\n\n{A} {Q} <http://example.org/{HUGE}> .\n',
    "jsonld": f'{{"@id": "http://example.org/a", "http://example.org/p": "small",\n\n"http://example.org/q": "{HUGE}"}}',
}


@pytest.mark.parametrize("ext", sorted(HUGE_TERM))
def test_a_term_past_the_parsers_buffer_is_one_line_and_nothing_is_loaded(tmp_path, ext):
    path = tmp_path / f"huge.{ext}"
    path.write_text(HUGE_TERM[ext])
    s = KGStore(tmp_path / "db")
    s.load(_small(tmp_path))
    with pytest.raises(LoadError, match=rf"huge\.{ext}: line 3: a literal or IRI longer than 16 MB, more than the .* "
                                        "parser reads: refused"):
        s.load(path)
    assert s.count() == 1 and s.graphs() == [("urn:kgchat:graph:bg:small", 1)]


def test_rdf_xml_reads_a_term_past_that_buffer_whole(tmp_path):
    path = tmp_path / "huge.rdf"
    path.write_text('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">'
                    f'<rdf:Description rdf:about="http://example.org/a"><ex:q>{HUGE}</ex:q></rdf:Description></rdf:RDF>')
    s = KGStore()
    assert s.load(path).added == 1
    assert s.query("SELECT (STRLEN(?o) AS ?n) WHERE { ?s ?p ?o }") == [{"n": str(len(HUGE))}]


def _small(tmp_path):
    path = tmp_path / "small.nt"
    path.write_text(f'{A} {P} "small" .\n')
    return path
