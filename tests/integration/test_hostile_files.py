"""Rule, config and query files that never end: a pipe with no writer ends at the input
deadline, a device that never stops at the size cap, each with one line; a pipe with a writer
(process substitution) is read as a file. Loaders refuse what is not a regular file."""

from __future__ import annotations

import os
import threading

import pytest

from cli import main as cli
from kgstore import KGStore, fileio
from kgstore.errors import LoadError

EX = "http://example.org/"


@pytest.fixture
def small_limits(monkeypatch):
    monkeypatch.setattr(fileio, "INPUT_TIMEOUT_S", 0.2)
    monkeypatch.setattr(fileio, "INPUT_CAP", 65536)


@pytest.fixture
def db(tmp_path):
    (tmp_path / "kg.nt").write_text(f"<{EX}a> <{EX}p> <{EX}b> .\n")
    path = str(tmp_path / "db")
    assert cli(["load", str(tmp_path / "kg.nt"), "--store", path]) == 0
    return path


def _fifo(tmp_path, name="pipe"):
    path = tmp_path / name
    os.mkfifo(path)
    return str(path)


def _argv(kind: str, path: str, db: str) -> list[str]:
    return {"rules": ["overview", "--memory", "--rules", path],
            "config": ["overview", "--memory", "--config", path],
            "query": ["sparql", "@" + path, "--store", db]}[kind]


@pytest.mark.parametrize("kind", ["rules", "config", "query"])
def test_a_pipe_without_a_writer_ends_with_one_line(tmp_path, db, capsys, small_limits, kind):
    path = _fifo(tmp_path)
    assert cli(_argv(kind, path, db)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}: the " in err and "did not end within 0.2 s" in err


@pytest.mark.parametrize("kind", ["rules", "config", "query"])
def test_a_device_that_never_ends_stops_at_the_cap(tmp_path, db, capsys, small_limits, kind):
    assert cli(_argv(kind, "/dev/zero", db)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "/dev/zero: the " in err and "larger than 65,536 bytes" in err


def test_a_big_regular_file_stops_at_the_cap(tmp_path, db, capsys, small_limits):
    query = tmp_path / "q.rq"
    query.write_text("SELECT * WHERE { ?s ?p ?o }" + " " * 70_000)
    assert cli(["sparql", "@" + str(query), "--store", db]) == 2
    assert "larger than 65,536 bytes" in capsys.readouterr().err


def test_a_pipe_with_a_writer_is_read_whole(tmp_path, db, capsys, small_limits):
    path = _fifo(tmp_path)

    def write():
        with open(path, "w") as f:
            f.write("SELECT ?o WHERE { ?s ?p ?o }")

    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert cli(["sparql", "@" + path, "--store", db, "--json"]) == 0
    finally:
        writer.join()
    assert f'"o": "{EX}b"' in capsys.readouterr().out


def test_loading_a_pipe_or_a_device_says_it_is_not_a_file(tmp_path):
    for path in (_fifo(tmp_path, "kg.nt"), "/dev/zero"):
        with pytest.raises(LoadError, match="not a regular file"):
            KGStore().load(path, format="nt")
