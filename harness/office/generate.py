"""Generate the office benchmark: worlds and dialogues by seed, the fixed splits, the demo KG.

    python -m harness.office.generate --demo kgstore/data/office.json
    python -m harness.office.generate --split dev --out dev.json
"""

from __future__ import annotations

import json
import random
import sys

from engine.options import ArgumentParser
from harness.office.dialogues import TEMPLATES, write_dialogue
from harness.office.world import make_world

# Fixed splits: (first world seed, number of worlds); five dialogues per world.
SPLITS = {"train": (10_000, 40), "dev": (20_000, 10), "test": (30_000, 10)}
DIALOGUES_PER_WORLD = 5
DEMO_ID = "office-demo"
DEMO_SEED = 7
DEMO_TEMPLATES = ["my_day", "event_details", "group_contact"]


def generate_world_dialogues(seed: int, prefix: str, n: int = DIALOGUES_PER_WORLD) -> dict[str, dict]:
    """`n` dialogues over the world of `seed`, each a different task template where possible.
    Each dialogue carries its own copy of the world (as GraphWOZ does), so its IRIs are minted
    from its own dialogue id."""
    world = make_world(seed)
    rng = random.Random(seed * 7919 + 1)
    order = list(TEMPLATES)
    rng.shuffle(order)
    out: dict[str, dict] = {}
    attempt = 0
    while len(out) < n and attempt < 10 * n:
        template = order[attempt % len(order)]
        dialogue_id = f"{prefix}-{len(out) + 1}"
        dialogue = write_dialogue(world, dialogue_id, [template], random.Random(seed * 1000 + attempt))
        attempt += 1
        if dialogue is not None:
            out[dialogue_id] = dialogue
    return out


def generate_split(name: str) -> dict[str, dict]:
    if name not in SPLITS:
        from kgstore.errors import BadInput

        raise BadInput(f"benchmark split must be one of {', '.join(SPLITS)}, not {name!r}")
    first, count = SPLITS[name]
    out: dict[str, dict] = {}
    for i in range(count):
        out.update(generate_world_dialogues(first + i, f"{name}-{i + 1:02d}"))
    return out


def generate_demo() -> dict[str, dict]:
    """The demo office KG: one world, one dialogue id, a few tasks played in one conversation."""
    world = make_world(DEMO_SEED)
    for attempt in range(100):
        dialogue = write_dialogue(world, DEMO_ID, DEMO_TEMPLATES, random.Random(DEMO_SEED * 100 + attempt))
        if dialogue is not None:
            return {DEMO_ID: dialogue}
    raise RuntimeError("the demo world offers no case for the demo templates")


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(prog="python -m harness.office.generate", description=__doc__.split("\n")[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--demo", metavar="FILE", help="write the demo office KG (GraphWOZ JSON) to FILE")
    what.add_argument("--split", choices=sorted(SPLITS), help="write one benchmark split")
    parser.add_argument("--out", metavar="FILE", help="output file for --split (default: stdout)")
    args = parser.parse_args(argv)
    data = generate_demo() if args.demo else generate_split(args.split)
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    path = args.demo or args.out
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        print(f"{path}: {len(data)} dialogue(s), {sum(len(d['log']) for d in data.values())} user turns")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
