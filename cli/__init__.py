"""`kgchat` command line: the app by default, headless subcommands for scripts.

Each subcommand lives in the module that owns its work and exposes `main(argv) -> int`;
this file only dispatches, so `kgchat --help` lists everything without importing heavy code.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from importlib import import_module
from typing import NamedTuple

from engine.inert import InertStream
from engine.llm.base import LLMError
from kgstore.errors import BadInput, RemoteUnavailable
from kgstore.loaders import one_line


class Command(NamedTuple):
    module: str  # its `main(argv, command) -> int`
    usage: str  # the synopsis after `kgchat`, as `kgchat --help` and the README's commands table show it
    help: str


# The one list of commands: dispatch, `kgchat --help` and the README's commands table (cli/readme.py) read it.
# The app is no command (`kgchat` without one starts it); APP_HELP is its row of that table.
APP_HELP = "the app (`kgchat --help-app` lists every option; each is also a key of the TOML config)"
COMMANDS: dict[str, Command] = {
    "load": Command("cli.load", "load FILE... --store DIR [--format FORMAT] [--dialogue-id ID] [--json]",
                    "load KG files into an on-disk store; prints triples added per file and per named graph"),
    "sparql": Command("cli.sparql", "sparql --store DIR QUERY [--limit N] [--timeout SECONDS] [--json]",
                      "query a store (read only; rows stream as they come), as a table or JSON"),
    "stats": Command("cli.stats", "stats --store DIR [--json]", "named graphs of a store and their sizes"),
    "retrieve": Command("cli.retrieve", "retrieve --kg FILE... --dialogue FILE [--dialogue-id ID] [--json]",
                        "replay a dialogue: mentions, derived facts and the retrieved subgraph per user turn"),
    "ask": Command("cli.ask", "ask --kg FILE... [--dialogue FILE [--dialogue-id ID]] \"question\" [--json]",
                   "answer one question headless: retrieval, reply, checks, refinement"),
    "check": Command("cli.check", "check --kg FILE... [--dialogue FILE [--dialogue-id ID]] --response TEXT [--json]",
                     "check a given reply against the KG, claim by claim"),
    "overview": Command("cli.overview", "overview --kg FILE... [--json]",
                        "what the app's first screen shows of a KG: graphs, entity types, example questions"),
    "eval": Command("cli.eval", "eval retrieval|factcheck|linking|answers|paths|metaqa [--split dev|test] [--json]",
                    "the evaluation harness on the generated benchmarks (eval linking|retrieval --graphwoz FILE: "
                    "a published GraphWOZ file; eval answers --benchmarks handwritten --handwritten DIR: a "
                    "hand-written set; eval metaqa --kb FILE --questions-dir DIR: MetaQA, zero-shot)"),
    "bench": Command("cli.bench", "bench load|retrieve|reason|generate|check|scale|metaqa|compute [--json]",
                     "benchmarks that print their figures"),
    "learn": Command("harness.learn", "learn [--split train|dev|test] [--limit N] [--out FILE.pl] [--json]",
                     "re-estimate the entity-linking rule weights from gold links (ProbLog LFI)"),
    "prepare": Command("cli.prepare", "prepare [--json]",
                       "export MiniLM to ONNX ahead of the first question; say where each model runs and why"),
}

USAGE = """usage: kgchat [options]            start the app (kgchat --help-app for its options)
       kgchat COMMAND [options]    run a headless command (kgchat COMMAND --help)

commands:
{commands}
"""


def help_text() -> str:
    return USAGE.format(commands="\n".join(f"  kgchat {c.usage}\n      {c.help}" for c in COMMANDS.values()))


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("-h", "--help"):
        return guarded(lambda: print(help_text()) or 0)  # `kgchat --help | head` is no error
    if not (argv and argv[0] in COMMANDS):
        return guarded(lambda: _run(argv))
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = InertStream(out), InertStream(err)
    try:
        return guarded(lambda: _run(argv))
    finally:
        sys.stdout, sys.stderr = out, err


def _run(argv: list[str]) -> int:
    _check_utf8(argv)
    if argv and argv[0] in COMMANDS:
        name = argv.pop(0)
        module = import_module(COMMANDS[name].module)
        return int(module.main(argv, command=name) or 0)
    if argv and not argv[0].startswith("-"):
        raise BadInput(f"unknown command '{argv[0]}' (choose from {', '.join(COMMANDS)}; kgchat --help)")
    if argv and argv[0] == "--help-app":
        argv[0] = "--help"
    from tui.main import main as app  # the app's imports (Textual) only when the app runs

    return int(app(argv) or 0)


def _check_utf8(argv: list[str]) -> None:
    """Arguments that are not UTF-8 (Python keeps their bytes as lone surrogates) would fail
    deep inside, far from the argument: name it here."""
    for i, arg in enumerate(argv):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as exc:
            name = argv[i - 1] if i and argv[i - 1].startswith("-") else f"argument {i + 1}"
            byte = ord(arg[exc.start]) - 0xDC00 if 0xDC80 <= ord(arg[exc.start]) <= 0xDCFF else None
            what = f" (byte 0x{byte:02x} at character {exc.start + 1})" if byte is not None else ""
            raise BadInput(f"{name}: not valid UTF-8 text{what}") from None


# Failures from outside kgchat's code (the OS, the store, a remote endpoint, the model) are the
# user's to act on: one line and exit 2. pyoxigraph reports its failures as OSError, ValueError
# and RuntimeError (a federated SERVICE that cannot be reached among them).
OUTSIDE = (OSError, MemoryError, RemoteUnavailable, LLMError, RuntimeError, ValueError)


def guarded(run: Callable[[], int]) -> int:
    """The one error boundary of every command: each failure ends as one line on stderr and
    exit 2, never a traceback. A bug (any other exception) says so on that line; KGCHAT_DEBUG=1
    prints its traceback as well."""
    try:
        return run()
    except SystemExit as exc:  # argparse: --help (0), or its one-line error (2) already printed
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        return _report(exc, str(exc.code))
    except KeyboardInterrupt:
        print("kgchat: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `kgchat sparql ... | head`: the reader left; nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except BadInput as exc:
        return _report(exc, str(exc))
    except OUTSIDE as exc:
        return _report(exc, f"{_kind(exc)}: {exc}" if str(exc) else _kind(exc))
    except Exception as exc:  # a bug: still one line, and where it happened
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return _report(exc, f"internal error: {_kind(exc)}: {exc} (at {os.path.basename(where.filename)}:"
                            f"{where.lineno}; KGCHAT_DEBUG=1 prints the traceback)")


def _report(exc: BaseException, message: str) -> int:
    if os.environ.get("KGCHAT_DEBUG", "") not in ("", "0"):
        traceback.print_exception(exc)
    print(f"kgchat: error: {one_line(message)}", file=sys.stderr)
    return 2


def _kind(exc: BaseException) -> str:
    """What failed, in words a user can act on."""
    if isinstance(exc, RemoteUnavailable):
        return "remote endpoint"
    if isinstance(exc, LLMError):
        return "model"
    if isinstance(exc, MemoryError):
        return "out of memory"
    if isinstance(exc, OSError):
        return "system" if exc.filename is None else f"{exc.filename}"
    return type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
