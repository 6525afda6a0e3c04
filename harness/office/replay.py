"""Each generated dialogue as the config of a fresh session that holds its own world.

Evaluations, benchmarks and weight learning replay dialogues the same way: the dialogue's
GraphWOZ `data` as the only background, in memory, on the dialogue's own clock.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path

from engine.config import Config


def dialogue_configs(dialogues: dict[str, dict], limit: int | None = None,
                     **options) -> Iterator[tuple[int, str, dict, Config]]:
    """Yield (index, dialogue id, dialogue, config) for the first `limit` dialogues; `options`
    are further Config fields. The world files live only while the iteration runs; a dialogue
    with a `kg_file` (the out-of-domain benchmark, harness/ood) uses that file instead."""
    with tempfile.TemporaryDirectory(prefix="kgchat-replay-") as tmp:
        for n, (dialogue_id, dialogue) in enumerate(dialogues.items()):
            if limit is not None and n >= limit:
                break
            if dialogue.get("kg_file"):
                yield n, dialogue_id, dialogue, Config(kg=[dialogue["kg_file"]], memory=True, demo="none",
                                                       now=dialogue.get("now"), **options)
                continue
            path = Path(tmp) / f"{n}.json"
            path.write_text(json.dumps({dialogue_id: dialogue}), encoding="utf-8")
            yield n, dialogue_id, dialogue, Config(kg=[str(path)], dialogue_id=dialogue_id, memory=True,
                                                   demo="none", now=dialogue.get("now"), **options)
