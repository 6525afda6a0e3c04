"""Fuzzing, bounded to a few seconds: any command line ends in exit 0 or 2 with at most one line
on stderr, never a traceback; any bytes given to a loader load or are bad input, and a failed
load leaves the store as it was."""

from __future__ import annotations

import io
import json
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cli
from engine import options
from engine.config import Config
from kgstore import KGStore, demo_path
from kgstore.errors import BadInput
from kgstore.loaders import FORMATS

DATA = Path(__file__).resolve().parents[1] / "data"
FAST = settings(max_examples=150, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


class Reached(BadInput):
    """The command parsed and validated its options and was about to do its real work."""


COMMANDS = ["", "load", "sparql", "stats", "ask", "check", "retrieve", "eval retrieval", "eval factcheck",
            "eval linking", "eval", "bench load", "bench retrieve", "bench reason", "bench generate", "bench check",
            "bench scale", "bench", "learn"]
FLAGS = sorted({"--" + f.name.replace("_", "-") for f in fields(Config) if f.name != "keys"} | {
    "--json", "--store", "--limit", "--timeout", "--graph", "--response", "--dialogue", "--split", "--errors",
    "--repeats", "--triples", "--sizes", "--turns", "--rounds", "--max-iter", "--out", "--config", "--help-app",
    "--help", "--", "-", "--k=0", "--kg=", "--bogus"})
# argv never holds NUL (the OS cannot pass it); no "/" or "." so every path stays in the test's directory
WORDS = st.text(st.characters(blacklist_characters="\x00/.", blacklist_categories=("Cs",)), max_size=12)
NUMBERS = st.sampled_from(["0", "-1", "1", "3", "0.5", "1.5", "nan", "inf", "-inf", "1e309", "99999999999999999999",
                           "0x10", "", " ", "1_000"])


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """The real commands up to their work: stores are real (cheap); models, sessions, the app
    and the harnesses stop with Reached once their options are accepted."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "kgdir").mkdir()
    (tmp_path / "bad.ttl").write_text("<a> <b> .\n", encoding="utf-8")
    (tmp_path / "q.rq").write_text("SELECT * WHERE { ?s ?p ?o } LIMIT 2", encoding="utf-8")
    KGStore(tmp_path / "db").load(demo_path("wikidata"))

    def reached(*args, **kwargs):
        raise Reached("reached")

    real_parse = options.ArgumentParser.parse_known_args

    def parse_then_stop(self, args=None, namespace=None):
        result = real_parse(self, args, namespace)
        if self.prog.startswith(("kgchat eval", "kgchat bench", "kgchat learn")):
            raise Reached("reached")
        return result

    monkeypatch.setattr(options.ArgumentParser, "parse_known_args", parse_then_stop)
    monkeypatch.setattr("engine.session.Session.open", reached)
    monkeypatch.setattr("engine.llm.check_model", lambda config: None)
    monkeypatch.setattr("textual.app.App.run", reached)
    return tmp_path


def argument(sandbox: Path):
    paths = st.sampled_from([str(sandbox / "db"), "db", "kgdir", "missing.ttl", "bad.ttl", demo_path("wikidata"),
                             str(DATA / "store_sample.csv"), "@q.rq", "@missing.rq",
                             "SELECT * WHERE { ?s ?p ?o } LIMIT 3", "ASK { ?s ?p ?o }", "INSERT DATA { <a> <b> <c> }",
                             "SELECT * WHERE {", "CONSTRUCT WHERE { ?s ?p ?o } LIMIT 2"])
    return st.one_of(st.sampled_from(FLAGS), NUMBERS, paths, WORDS)


# A valid start for the commands that need one, so that most examples get past "required".
SKELETONS = {"load": ["bad.ttl", "--store", "db"], "sparql": ["--store", "db", "SELECT * WHERE { ?s ?p ?o }"],
             "stats": ["--store", "db"], "ask": ["Who directed Inception?"], "check": ["--response", "It is 1997."],
             "retrieve": ["--dialogue", "missing.json"]}


@FAST
@given(data=st.data())
def test_any_command_line_is_exit_0_or_2_with_one_line(sandbox, capsys, data):
    command = data.draw(st.sampled_from(COMMANDS))
    argv = list(SKELETONS.get(command, [])) if data.draw(st.booleans()) else []
    for arg in data.draw(st.lists(argument(sandbox), max_size=6)):
        argv.insert(data.draw(st.integers(0, len(argv))), arg)
    argv = command.split() + argv
    code = cli.main(argv)
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert code in (0, 2), (argv, code, err)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    assert all(line.startswith(("kgchat", "usage:")) for line in lines) or not lines, (argv, err)
    if code == 2:
        assert len(lines) == 1, (argv, err)


# ---- loaders ---------------------------------------------------------------------------------

def _workbook(rows: list[list]) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


SAMPLES: dict[str, str | bytes] = {
    "turtle": '@prefix ex: <http://e/> .\nex:a ex:knows ex:b ; ex:age 41 ; ex:name "A"@en .\n',
    "ntriples": '<http://e/a> <http://e/p> "x" .\n<http://e/a> <http://e/q> <http://e/b> .\n',
    "nquads": '<http://e/a> <http://e/p> "x" <http://e/g> .\n<http://e/a> <http://e/q> <http://e/b> .\n',
    "trig": '<http://e/g> { <http://e/a> <http://e/p> "x" . }\n<http://e/a> <http://e/q> 3 .\n',
    "n3": '@prefix ex: <http://e/> .\nex:a ex:p ex:b .\n',
    "rdfxml": ('<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
               'xmlns:ex="http://e/"><rdf:Description rdf:about="http://e/a"><ex:p>x</ex:p></rdf:Description>'
               '</rdf:RDF>'),
    "jsonld": '{"@context": {"ex": "http://e/"}, "@id": "ex:a", "ex:p": "x"}',
    "csv": (DATA / "store_sample.csv").read_text(encoding="utf-8"),
    "tsv": "head\trelation\ttail\nOslo\tcapital of\tNorway\n",
    "xlsx": _workbook([["name", "team", "born"], ["Lena Vogt", "Harbor Owls", "1996-03-14"], ["Tove", "Harbor Owls", 181]]),
    "wikidata": '{"id": "Q42", "type": "item", "labels": {"en": {"value": "Douglas Adams"}}, '
                '"claims": {"P31": [{"mainsnak": {"snaktype": "value", "datavalue": {"type": "wikibase-entityid", '
                '"value": {"id": "Q5"}}}, "rank": "normal"}]}}\n',
    "graphwoz": json.dumps({"d1": {"task": "t", "data": {
        "people": [{"name": "Lisa Wilson", "id": "p1", "group": "Engineering", "calendar": ["e1"]}],
        "events": [{"id": "e1", "name": "sync", "date": "2026-03-02", "attendees": ["p1"]}]},
        "log": [{"turn": 1, "alternative": [{"transcript": "hi"}], "agent_response": "Hello."}]}}),
}


def test_every_format_has_a_sample():
    assert set(SAMPLES) == set(FORMATS)


@st.composite
def mutated(draw, fmt: str) -> bytes:
    """A sample of the format with a few bytes replaced, inserted or cut, or random bytes."""
    if draw(st.integers(0, 4)) == 0:
        return draw(st.binary(max_size=200))
    sample = SAMPLES[fmt]
    data = bytearray(sample if isinstance(sample, bytes) else sample.encode("utf-8"))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        edit = draw(st.sampled_from(["replace", "insert", "cut"]))
        chunk = draw(st.binary(min_size=1, max_size=4) | st.sampled_from([b'"', b"<", b">", b"{", b"}", b",", b"\n",
                                                                           b"\t", b"\\", b"@", b"\xff", b"\x00"]))
        if edit == "insert":
            data[at:at] = chunk
        elif edit == "replace":
            data[at:at + len(chunk)] = chunk
        else:
            del data[at:at + draw(st.integers(1, 8))]
    return bytes(data)


def _dump(store: KGStore) -> bytes:
    return store.dump()


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_any_bytes_load_or_are_bad_input_and_a_failure_changes_nothing(tmp_path, fmt):
    store = KGStore()
    store.load(demo_path("wikidata"))
    ext = (FORMATS[fmt][0] or (".json",))[0]

    @settings(max_examples=25, deadline=None, database=None)
    @given(data=mutated(fmt), bulk=st.booleans())
    def load(data: bytes, bulk: bool) -> None:
        path = tmp_path / f"fuzz{ext}"
        path.write_bytes(data)
        store.bulk_min_bytes = 1 if bulk else 2**20
        before = _dump(store)
        try:
            store.load(path, format=fmt)
        except BadInput:
            assert _dump(store) == before
        finally:
            for g, _ in store.graphs():  # the next example starts from the demo KG alone
                if g.endswith(":fuzz") or ":fuzz." in g or g.startswith("urn:kgchat:graph:bg:d1"):
                    store.remove_graph(g)

    load()
