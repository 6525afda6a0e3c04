"""The `kgchat ...` examples of the README and of docs/*.md, run: the store commands and `check`
for real on small files, the others up to the point where they would load a model or start their
work. Every one must parse; an example the documentation shows and kgchat refuses is a bug in one
of them."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest

import cli
from engine import options
from kgstore import demo_path
from kgstore.errors import BadInput

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TEXT = "\n".join(path.read_text(encoding="utf-8") for path in DOCS)

# The documentation's placeholders, as values that exist in the test's directory.
PLACEHOLDERS = {"FILE...": "people.ttl", "FILE": "people.ttl", "DIR": "kg", "FORMAT": "turtle", "QUERY": "SELECT * WHERE { ?s ?p ?o } LIMIT 3",
                "TEXT": "Alice knows Bob.", "ID": "dlg-7", "N": "2", "MS": "500", "URL": "http://127.0.0.1:1/v1",
                "FILE.pl": "my/entity_linking.pl", "PATH.gguf": "model.gguf", "ISO8601": "2026-03-02T09:00",
                "SECONDS": "5",
                # the published GraphWOZ file the documentation names: the test's own file in that shape
                "graphwoz_test.json": "graphwoz.json", "DIALOGUE_31": "dlg-7"}
DIALOGUE = "graphwoz.json"


def examples() -> list[str]:
    """Command lines from the code blocks (continuations joined) and the commands table."""
    found: list[str] = []
    for block in re.findall(r"```[^\n]*\n(.*?)```", TEXT, re.S):
        for line in block.replace("\\\n", " ").split("\n"):
            line = re.sub(r"^\$ ", "", line.strip())
            if line.startswith("kgchat"):
                found.append(line)
    for row in re.findall(r"^\| `(kgchat[^`]*)` \|", TEXT, re.M):
        found.append(row.replace("\\|", "|"))
    return found


def argv_of(example: str) -> list[str]:
    """The example as argv: optional [parts] kept, first of a|b alternatives, placeholders filled."""
    text = example.replace("[options]", "").replace("~/kg", "kg")
    text = re.sub(r"(\S+?)(\|[^\s\]]+)+", lambda m: m.group(1), text)  # retrieval|factcheck -> retrieval
    text = text.replace("[", " ").replace("]", " ")
    argv = shlex.split(text, comments=True)[1:]
    # a FILE after --dialogue is a dialogue (GraphWOZ, so that --dialogue-id applies too)
    return [DIALOGUE if a == "FILE" and prev == "--dialogue" else PLACEHOLDERS.get(a, a)
            for prev, a in zip([""] + argv, argv, strict=False)]


class Reached(BadInput):
    """The command accepted its options and was about to load a model or start its real work."""


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "people.ttl").write_text(
        '@prefix ex: <http://example.org/> .\nex:alice <http://www.w3.org/2000/01/rdf-schema#label> "Alice" ;'
        ' ex:knows ex:bob .\n', encoding="utf-8")
    shutil.copy(demo_path("wikidata"), tmp_path / "my.ttl")
    (tmp_path / "dump.json").write_text(json.dumps(
        {"id": "Q42", "type": "item", "labels": {"en": {"value": "Douglas Adams"}}, "claims": {}}) + "\n",
        encoding="utf-8")
    (tmp_path / "graphwoz.json").write_text(json.dumps({"dlg-7": {"task": "t", "data": {
        "people": [{"name": "Lisa Wilson", "id": "p1", "group": "Engineering"}], "events": []},
        "log": [{"turn": 1, "alternative": [{"transcript": "where is lisa"}], "agent_response": "In Office 12."}]}}),
        encoding="utf-8")
    (tmp_path / "players.csv").write_text(  # the table the documentation loads
        "name,team,position,born,birthplace,height_cm\nLena Vogt,Harbor Owls,goalkeeper,1996-03-14,Kiel,181\n"
        "Tove Randers,Harbor Owls,defender,1999-07-02,Bergen,172\n", encoding="utf-8")
    turns = [{"speaker": "user", "text": "Who is Lisa?"}]
    (tmp_path / "talk.jsonl").write_text("\n".join(json.dumps(t) for t in turns) + "\n", encoding="utf-8")
    (tmp_path / "d.json").write_text(json.dumps(turns), encoding="utf-8")
    (tmp_path / "my").mkdir()
    shutil.copy(ROOT / "rules" / "entity_linking.pl", tmp_path / "my" / "entity_linking.pl")
    for link in ("kgstore", "rules"):  # examples name the repository's own files
        (tmp_path / link).symlink_to(ROOT / link)

    def reached(*args, **kwargs):
        raise Reached("reached")

    real_parse = options.ArgumentParser.parse_known_args

    def parse_then_stop(self, args=None, namespace=None):
        result = real_parse(self, args, namespace)
        if self.prog.startswith(("kgchat eval", "kgchat bench", "kgchat learn", "kgchat prepare")):
            raise Reached("reached")
        return result

    monkeypatch.setattr(options.ArgumentParser, "parse_known_args", parse_then_stop)
    monkeypatch.setattr("engine.llm.check_model", lambda config: None)
    monkeypatch.setattr("textual.app.App.run", reached)
    return tmp_path, reached


def test_the_readme_has_examples_of_every_command():
    commands = {(argv_of(e) or ["(app)"])[0] for e in examples()}
    assert set(cli.COMMANDS) <= commands | {"(app)"}


@pytest.mark.parametrize("example", examples())
def test_readme_example_runs(workdir, monkeypatch, capsys, example):
    tmp, reached = workdir
    argv = argv_of(example)
    real = argv and (argv[0] in ("load", "sparql", "stats", "overview") or (argv[0] == "check" and "--dialogue" not in argv))
    if not real:
        monkeypatch.setattr("engine.session.Session.open", reached)
    if argv and argv[0] in ("sparql", "stats"):
        assert cli.main(["load", "my.ttl", "--store", "kg"]) == 0
        capsys.readouterr()
    code = cli.main(argv)
    err = capsys.readouterr().err
    assert (code == 0 and "error" not in err) if real else "kgchat: error: reached" in err, (argv, code, err)
