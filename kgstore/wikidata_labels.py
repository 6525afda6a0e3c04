"""English labels of Wikidata properties, for files that use P-ids without labelling them: the
whole public list shipped as data (kgstore/data/wikidata_properties.tsv, whose header says where
it comes from), read once on import."""

from pathlib import Path

LABELS_FILE = Path(__file__).resolve().parent / "data" / "wikidata_properties.tsv"


def _read(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            pid, _, label = line.partition("\t")
            out[pid] = label
    return out


PROPERTY_LABELS: dict[str, str] = _read(LABELS_FILE)
