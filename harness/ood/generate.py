"""Generate the out-of-domain benchmark: one world per domain and split, its KG file, its dialogues.

    python -m harness.ood.generate --domain films --split dev --out dev.json
    python -m harness.ood.generate --write-kgs DIR     # every KG file, for a look
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import zlib
from datetime import datetime

from harness.ood import books, companies, films, football, geography
from harness.ood.domain import Domain
from harness.ood.formats import Encoding, render
from harness.ood.questions import KIND_WEIGHTS, Writer
from harness.ood.world import NAME_NOISE, World

DOMAINS: dict[str, Domain] = {d.name: d for d in (football.DOMAIN, films.DOMAIN, books.DOMAIN,
                                                   companies.DOMAIN, geography.DOMAIN)}
# Fixed splits: (seed offset, dialogues per domain). Each split is its own world.
SPLITS = {"train": (1_000, 160), "dev": (2_000, 50), "test": (3_000, 50)}
NOW = datetime(2026, 6, 1, 10, 0).isoformat()


def check(domain: str, split: str) -> tuple[Domain, int, int]:
    from kgstore.errors import BadInput

    if domain not in DOMAINS:
        raise BadInput(f"out-of-domain benchmark: domain must be one of {', '.join(DOMAINS)}, not {domain!r}")
    if split not in SPLITS:
        raise BadInput(f"out-of-domain benchmark: split must be one of {', '.join(SPLITS)}, not {split!r}")
    offset, count = SPLITS[split]
    return DOMAINS[domain], offset + zlib.crc32(domain.encode()) % 997, count


def file_name(domain: str, split: str) -> str:
    """The KG file's name; CSV IRIs are minted from its stem, so gold depends on it."""
    return f"{domain}-{split}{DOMAINS[domain].ext}"


def make_world(domain: str, split: str, seed: int | None = None) -> tuple[World, Encoding]:
    d, default_seed, _ = check(domain, split)
    world = World(domain, split)
    d.build(world, random.Random(default_seed if seed is None else seed))
    return world, Encoding(d, world, file_name(domain, split).rsplit(".", 1)[0])


def generate(domain: str, split: str, seed: int | None = None,
             count: int | None = None) -> tuple[str, dict[str, dict]]:
    """(KG file text, dialogues) of one domain and split; `seed` and `count` override the
    split's (tests use them to show determinism)."""
    d, default_seed, default_count = check(domain, split)
    seed = default_seed if seed is None else seed
    world, enc = make_world(domain, split, seed)
    writer = Writer(d, world, enc, random.Random(seed * 31 + 7))
    kinds, weights = zip(*KIND_WEIGHTS.items(), strict=False)
    noise = sorted(enc.predicate(r) for r in NAME_NOISE)
    dialogues: dict[str, dict] = {}
    for n in range(default_count if count is None else count):
        kind = writer.rng.choices(kinds, weights)[0]
        turns = writer.dialogue(kind)
        log = [{"turn": i, **t} for i, t in enumerate(turns, start=1)]
        dialogues[f"{domain}-{split}-{n + 1:03d}"] = {
            "domain": domain, "kind": kind, "now": NOW, "kg_format": d.fmt, "noise_predicates": noise,
            "task": f"{kind} question(s) about the {domain} KG", "log": log}
    return render(enc), dialogues


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.ood.generate", description=__doc__.split("\n")[0])
    parser.add_argument("--domain", choices=sorted(DOMAINS))
    parser.add_argument("--split", choices=sorted(SPLITS), default="dev")
    parser.add_argument("--out", metavar="FILE", help="dialogues as JSON (default: stdout)")
    parser.add_argument("--write-kgs", metavar="DIR", help="write every domain's and split's KG file to DIR")
    args = parser.parse_args(argv)
    if args.write_kgs:
        from pathlib import Path

        out = Path(args.write_kgs)
        out.mkdir(parents=True, exist_ok=True)
        for domain in DOMAINS:
            for split in SPLITS:
                (out / file_name(domain, split)).write_text(generate(domain, split, count=0)[0], encoding="utf-8")
        print(f"{out}: {len(DOMAINS) * len(SPLITS)} KG files")
        return 0
    if not args.domain:
        parser.error("--domain is required without --write-kgs")
    _, dialogues = generate(args.domain, args.split)
    text = json.dumps(dialogues, ensure_ascii=False, indent=1) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
