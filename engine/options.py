"""The one argument parser every `kgchat` command uses: errors as one line, numbers in range,
and file lists that stop where the files stop.

Plain argparse prints its whole usage block before an error and lets `--kg a.ttl "question"`
swallow the question as a second file; scripts and users need one line naming what was wrong.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import NoReturn

from kgstore.loaders import one_line


class ArgumentParser(argparse.ArgumentParser):
    """argparse with a one-line error (exit 2, as argparse) and file options that stop at the
    first word that is not an existing file, so options and positionals mix in any order."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.file_options: set[str] = set()

    def add_file_option(self, flag: str, **kwargs) -> argparse.Action:
        """A repeatable option taking one or more files: `--kg a.ttl b.ttl "question"` gives the
        question to the positional, as `b.ttl` exists and "question" does not."""
        self.file_options.add(flag)
        return self.add_argument(flag, action="extend", nargs="+", **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")

    def parse_known_args(self, args=None, namespace=None):
        args = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(self._split_files(args), namespace)

    def _split_files(self, args: list[str]) -> list[str]:
        """`--kg A B C` as `--kg=A --kg=B C` when C is not an existing file: an explicit value
        is exactly one argument, which argparse's greedy `nargs="+"` would not give us."""
        out: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            out.append(arg)
            i += 1
            if arg == "--":
                out.extend(args[i:])
                break
            if arg not in self.file_options:
                continue
            out.pop()
            first = True  # the first value is taken as given: a missing file is the loader's error
            while i < len(args) and not args[i].startswith("-") and (first or os.path.isfile(args[i])):
                out.append(f"{arg}={args[i]}")
                i += 1
                first = False
            if first:
                out.append(arg)  # no value: let argparse say "expected at least one argument"
        return out


def bounded(kind: type, *, ge: float | None = None, gt: float | None = None,
            le: float | None = None) -> Callable[[str], float | int]:
    """An argparse `type` for a number in a range (and finite): the message says the range."""

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{'an integer' if kind is int else 'a number'} expected, "
                                             f"not {text!r}") from None
        problem = out_of_range(value, ge=ge, gt=gt, le=le)
        if problem:
            raise argparse.ArgumentTypeError(f"{problem}, not {text}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


def out_of_range(value: float, *, ge: float | None = None, gt: float | None = None,
                 le: float | None = None) -> str | None:
    """What is wrong with `value` for these bounds ("must be at least 1"), or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return "must be a finite number"
    low = f"at least {_num(ge)}" if ge is not None else f"more than {_num(gt)}" if gt is not None else None
    high = None if le is None else f"at most {_num(le)}"
    if (ge is not None and value < ge) or (gt is not None and value <= gt) or (le is not None and value > le):
        return "must be " + " and ".join(part for part in (low, high) if part)
    return None


def _num(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


positive_int = bounded(int, ge=1)  # counts: dialogues, turns, repeats, limits
nonnegative_int = bounded(int, ge=0)  # counts where 0 means none, and seeds
seconds = bounded(float, gt=0, le=24 * 3600)
