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

from engine.inert import InertStream
from engine.llm.base import LLMError
from kgstore.errors import BadInput, RemoteUnavailable
from kgstore.loaders import one_line

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "load": ("engine.cli.load", "load KG files into an on-disk store; prints triples added per file and graph"),
    "sparql": ("engine.cli.sparql", "run a SPARQL query against a store (table, or --json)"),
    "stats": ("engine.cli.stats", "named graphs and their sizes in a store"),
    "retrieve": ("engine.cli.retrieve", "replay a dialogue and print what each user turn retrieved (--json)"),
    "ask": ("engine.cli.ask", "answer one question headless: retrieval, reply, checks (--json)"),
    "overview": ("engine.cli.overview", "what the app's first screen shows of a KG: graphs, types, example questions"),
    "check": ("engine.cli.check", "check a given response against the KG (--json)"),
    "eval": ("engine.cli.eval", "evaluation harness: eval retrieval|factcheck|linking"),
    "bench": ("engine.cli.bench", "benchmarks: bench load|retrieve|reason|generate|check|scale"),
    "prepare": ("engine.cli.prepare", "export MiniLM to ONNX ahead of the first question; show the scorer's device"),
    "learn": ("engine.harness.learn", "re-estimate the entity-linking rule weights from gold links (problog lfi)"),
}

USAGE = """usage: kgchat [options]            start the app (kgchat --help-app for its options)
       kgchat COMMAND [options]    run a headless command (kgchat COMMAND --help)

commands:
{commands}
"""


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("-h", "--help"):
        width = max(len(n) for n in COMMANDS)
        print(USAGE.format(commands="\n".join(f"  {n:<{width}}  {h}" for n, (_, h) in COMMANDS.items())))
        return 0
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
        module = import_module(COMMANDS[name][0])
        return int(module.main(argv, command=name) or 0)
    if argv and not argv[0].startswith("-"):
        raise BadInput(f"unknown command '{argv[0]}' (choose from {', '.join(COMMANDS)}; kgchat --help)")
    if argv and argv[0] == "--help-app":
        argv[0] = "--help"
    return int(import_module("tui.main").main(argv) or 0)


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
