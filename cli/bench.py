"""`kgchat bench ...`: benchmarks that print figures (and --json), one module per benchmark."""

from cli.families import family_main

BENCHMARKS = {
    "load": ("harness.bench.load", "bulk-load 1,000,000 generated N-Triples into an on-disk store, beside rdflib parsing them"),
    "retrieve": ("harness.bench.retrieve", "retrieval latency per turn: office KG and a 1M-triple Wikidata-style KG"),
    "reason": ("harness.bench.reason", "reasoning time per turn, focused grounding beside naive whole-KG grounding"),
    "generate": ("harness.bench.generate", "time-to-first-token and tokens/s through the engine beside bare llama-cpp"),
    "check": ("harness.bench.check", "time to check a 5-claim reply with the structured verifier"),
    "compute": ("harness.bench.compute", "an operation (oldest, most recent, a filter, a count) over a class of the "
                "1M-triple Wikidata-style KG"),
    "scale": ("harness.bench.scale", "retrieval latency and memory at 10^4..10^6(7) triples, embedded and server"),
    "metaqa": ("harness.bench.metaqa", "the MetaQA KB loaded whole, the first answer after it, and a turn's p50 with "
               "--answer facts (--kb FILE --questions-dir DIR)"),
}

main = family_main("bench", BENCHMARKS)
