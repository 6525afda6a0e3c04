"""`kgchat bench ...`: benchmarks that print figures (and --json), one module per benchmark."""

from engine.subcommands import family_main

BENCHMARKS = {
    "load": ("kgstore.bench_load", "load 1,000,000 generated N-Triples into an on-disk store, beside rdflib"),
    "retrieve": ("engine.bench_retrieve", "retrieval latency per turn: office KG and a 1M-triple Wikidata-style KG"),
    "reason": ("rules.bench_reason", "reasoning time per turn, focused grounding beside naive whole-KG grounding"),
    "generate": ("engine.bench_generate", "time-to-first-token and tokens/s through the engine beside bare llama-cpp"),
    "check": ("engine.bench_check", "time to check a 5-claim reply with the structured verifier"),
    "scale": ("kgstore.bench_scale", "retrieval latency and memory at 10^4..10^6(7) triples, embedded and server"),
}

main = family_main("bench", BENCHMARKS)
