"""Options of every command: one-line errors, values in range, any order, and the one error
boundary that turns every failure into one line and exit 2."""

from __future__ import annotations

import errno

import pytest

import cli
from cli import guarded
from cli import main as kgchat
from engine.config import Config, ConfigError, load_config
from engine.llm.base import LLMError
from kgstore import demo_path
from kgstore.errors import BadInput, RemoteUnavailable

WIKI = demo_path("wikidata")


def one_line_error(capsys, argv: list[str]) -> str:
    assert kgchat(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "usage:" not in captured.err and "Traceback" not in captured.err
    return captured.err


@pytest.mark.parametrize("argv,says", [
    (["ask", "--retriever", "foo", "q"], "invalid choice: 'foo'"),
    (["ask"], "required: question"),
    (["check", "--kg", WIKI], "required: --response"),
    (["retrieve", "--dialogue"], "expected one argument"),
    (["sparql", "--store"], "expected one argument"),
    (["load", "--store", "x"], "required: FILE"),
    (["stats", "--store", "x", "--bogus"], "unrecognized arguments: --bogus"),
    (["eval", "retrieval", "--split", "nope"], "invalid choice"),
    (["eval", "factcheck", "--errors", "-1"], "--errors: must be at least 0"),
    (["eval", "linking", "--limit", "0"], "--limit: must be at least 1"),
    (["eval", "answers", "--benchmarks", "handwritten"], "give the set's folder with --handwritten DIR"),
    (["bench", "check", "--repeats", "x"], "an integer expected"),
    (["bench", "reason", "--naive-timeout", "0"], "--naive-timeout: must be more than 0"),
    (["bench", "scale", "--sizes", "0"], "--sizes: must be at least 1"),
    (["learn", "--max-iter", "0"], "--max-iter: must be at least 1"),
    (["--retriever", "foo"], "invalid choice"),  # the app's own parser
    (["eval"], "which eval?"),
    (["bench", "nope"], "unknown bench 'nope'"),
    (["frobnicate"], "unknown command 'frobnicate'"),
])
def test_argparse_errors_are_one_line_for_every_command(capsys, argv, says):
    assert says in one_line_error(capsys, argv)


@pytest.mark.parametrize("flag,value,says", [
    ("--k", "0", "--k: must be at least 1"), ("--k", "-3", "--k: must be at least 1"),
    ("--n-ctx", "1", "--n-ctx: must be at least 512"), ("--hops", "9", "--hops: must be at least 0 and at most 3"),
    ("--candidate-cap", "0", "--candidate-cap"), ("--subgraph-cap", "-1", "--subgraph-cap"),
    ("--max-tokens", "0", "--max-tokens"), ("--max-claims", "0", "--max-claims"), ("--max-claims", "401", "at most 400"),
    ("--sparql-timeout", "0", "--sparql-timeout: must be more than 0"), ("--openai-timeout", "-5", "--openai-timeout"),
    ("--reason-timeout-ms", "0", "--reason-timeout-ms"), ("--link-threshold", "1.5", "--link-threshold"),
    ("--refine-threshold", "-0.1", "--refine-threshold"), ("--refine-steps", "-1", "--refine-steps"),
    ("--temperature", "nan", "must be a finite number"), ("--temperature", "inf", "must be a finite number"),
    ("--seed", "-1", "--seed"), ("--k", "2.5", "an integer expected"),
])
@pytest.mark.parametrize("command", ["ask", "check"])
def test_numbers_out_of_range_are_refused_naming_the_flag_and_the_range(capsys, command, flag, value, says):
    extra = ["q"] if command == "ask" else ["--response", "x"]
    assert says in one_line_error(capsys, [command, flag, value, *extra])


def test_the_config_file_is_held_to_the_same_ranges(tmp_path):
    toml = tmp_path / "config.toml"
    toml.write_text("k = 0\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"config.toml: option 'k' must be at least 1 and at most 1,000, not 0"):
        load_config(path=toml)
    toml.write_text("n_ctx = true\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="must be int"):
        load_config(path=toml)
    toml.write_text("link_threshold = 1\n", encoding="utf-8")
    assert load_config(path=toml).link_threshold == 1


def test_max_claims_ceiling_is_the_splitters_own():
    from dataclasses import fields

    from engine.factcheck.split import MAX_CLAIMS

    bounds = next(f for f in fields(Config) if f.name == "max_claims").metadata["bounds"]
    assert bounds["le"] == MAX_CLAIMS == Config().max_claims


def test_kg_takes_its_files_and_leaves_the_question(tmp_path):
    from cli.ask import parser

    other = tmp_path / "other.ttl"
    other.write_text("<http://a> <http://b> <http://c> .\n", encoding="utf-8")
    p = parser("ask")
    args = p.parse_args(["--kg", WIKI, "Who directed Inception?"])
    assert args.kg == [WIKI] and args.question == "Who directed Inception?"
    args = p.parse_args(["--kg", WIKI, str(other), "Who directed it?", "--json", "--rules", WIKI])
    assert args.kg == [WIKI, str(other)] and args.question == "Who directed it?" and args.json
    args = p.parse_args(["Who?", "--kg", WIKI, "--kg", str(other)])
    assert args.kg == [WIKI, str(other)] and args.question == "Who?"
    # the first value is always the option's, so a missing file reaches the loader's message
    args = p.parse_args(["--kg", str(tmp_path / "missing.ttl"), "Who?"])
    assert args.kg == [str(tmp_path / "missing.ttl")] and args.question == "Who?"
    args = p.parse_args(["--", "--kg"])
    assert args.question == "--kg"


@pytest.mark.parametrize("exc,says", [
    (OSError(errno.ENOSPC, "No space left on device", "/data/store"), "/data/store: [Errno 28] No space left"),
    (RemoteUnavailable("http://x/sparql did not answer in 2 s"), "remote endpoint: http://x/sparql"),
    (LLMError("the model server closed the connection"), "model: the model server closed"),
    (RuntimeError("Storage error: corrupted block"), "RuntimeError: Storage error"),
    (MemoryError(), "out of memory"),
    (BadInput("people.ttl: line 3: bad"), "people.ttl: line 3: bad"),
])
def test_failures_from_outside_are_one_line_and_exit_2(capsys, exc, says):
    def fail() -> int:
        raise exc

    assert guarded(fail) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and "internal error" not in err


def test_a_bug_is_one_line_that_says_so_and_debug_shows_the_traceback(capsys, monkeypatch):
    def bug() -> int:
        return {}["missing"]

    assert guarded(bug) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error: KeyError" in err and "KGCHAT_DEBUG=1" in err
    assert "test_options.py:" in err  # where it happened
    monkeypatch.setenv("KGCHAT_DEBUG", "1")
    assert guarded(bug) == 2
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and err.rstrip().splitlines()[-1].startswith("kgchat: error:")


def test_a_command_failing_inside_goes_through_the_boundary(capsys, monkeypatch, tmp_path):
    from kgstore import KGStore

    def broken(store):
        raise OSError(errno.EIO, "Input/output error")

    KGStore(tmp_path / "db")
    monkeypatch.setattr(KGStore, "graphs", broken)
    assert "system: [Errno 5] Input/output error" in one_line_error(capsys, ["stats", "--store", str(tmp_path / "db")])
    # a store path that is a file
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert "not a directory" in one_line_error(capsys, ["stats", "--store", str(tmp_path / "file")])


def test_ctrl_c_is_exit_130_with_one_line(capsys):
    def interrupted() -> int:
        raise KeyboardInterrupt

    assert cli.guarded(interrupted) == 130
    assert capsys.readouterr().err == "kgchat: interrupted\n"


def test_a_directory_given_to_load_is_named_as_such(capsys, tmp_path):
    (tmp_path / "kgdir").mkdir()
    assert "kgdir: is a directory, not a file" in one_line_error(
        capsys, ["load", str(tmp_path / "kgdir"), "--store", str(tmp_path / "db")])
