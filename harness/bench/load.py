"""`kgchat bench load`: load a generated N-Triples file into an on-disk store (bulk loader)
and parse the same file with rdflib in the same run; prints triples/s for both. With `--table
ROWS`: load a generated CSV table of that many rows instead (kgstore.loaders.tables), prepare
what the app prepares after a load (the name index among it), then ask two questions of it.

rdflib parses the first `--rdflib-triples` lines of the file (default 200,000; 0 for all of
it), and its rate is taken from that part: rdflib's N-Triples parser runs at a steady rate per
line, so the rate over a large prefix is its rate over the whole file.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import tempfile
import time
from pathlib import Path

from engine.options import ArgumentParser, nonnegative_int, positive_int

TARGET_SECONDS = 10.0
TARGET_RATIO = 4.0


def generate(path: Path, n: int, seed: int = 0) -> None:
    """Wikidata-shaped N-Triples, all distinct: ten facts per entity (a label, two numbers,
    seven links to other entities chosen with a power-law bias), over 100 properties."""
    rng = random.Random(seed)
    entities = max(n // 10, 1)
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            s, kind = divmod(i, 10)
            p = (s * 7 + kind * 13) % 100  # distinct for the ten facts of one entity
            if kind == 0:
                f.write(f'<http://www.wikidata.org/entity/Q{s}> <http://www.w3.org/2000/01/rdf-schema#label> "entity number {s}"@en .\n')
            elif kind < 3:
                f.write(f'<http://www.wikidata.org/entity/Q{s}> <http://www.wikidata.org/prop/direct/P{p}> '
                        f'"{rng.randrange(10**6)}"^^<http://www.w3.org/2001/XMLSchema#integer> .\n')
            else:
                f.write(f'<http://www.wikidata.org/entity/Q{s}> <http://www.wikidata.org/prop/direct/P{p}> '
                        f'<http://www.wikidata.org/entity/Q{int(entities * rng.random() ** 3)}> .\n')


def generate_table(path: Path, rows: int, seed: int = 0) -> None:
    """A club's members as a person keeps them: one row each with a team and a city (texts that
    repeat, linked as entities), a mentor (another row), a date, a number with its unit, a
    boolean and a few words of notes."""
    rng = random.Random(seed)
    teams, cities = max(rows // 200, 2), max(rows // 500, 2)
    with open(path, "w", encoding="utf-8") as f:
        f.write("name,team,city,mentor,joined,height_cm,active,notes\n")
        for i in range(rows):
            mentor = f"Member {rng.randrange(i)}" if i else ""
            f.write(f"Member {i},Team {rng.randrange(teams)},City {rng.randrange(cities)},{mentor},"
                    f"{2000 + rng.randrange(25)}-{1 + rng.randrange(12):02d}-{1 + rng.randrange(28):02d},"
                    f"{150 + rng.randrange(50)},{rng.choice(('yes', 'no'))},note number {rng.randrange(10**6)}\n")


# Questions asked of the generated table once it is loaded and prepared for (the app's
# `Session.prepare`, timed apart): the first and a later one.
TABLE_QUESTIONS = ("Which team is Member 17 in?", "Who is the mentor of Member 1234?")
TARGET_FIRST_QUESTION_SECONDS = 1.0


def run_table(rows: int, workdir: Path) -> dict:
    from kgstore import KGStore

    data = workdir / "members.csv"
    generate_table(data, rows)
    out: dict = {"rows": rows, "file_mb": round(data.stat().st_size / 2**20, 1), "target_seconds_under": TARGET_SECONDS,
                 "cpus": os.cpu_count()}
    # in memory as `kgchat ask --kg` loads it, on disk as `kgchat load --store` and the app do
    for where, store in (("memory", KGStore()), ("disk", KGStore(workdir / "store"))):
        start, cpu = time.perf_counter(), time.process_time()
        report = store.load(data)
        seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
        out["loaded"], out["table"] = report.added, report.tables[0].describe()
        out[where] = {"seconds": round(seconds, 2), "cpu_seconds": round(cpu_seconds, 2), "bulk": report.bulk,
                      "triples_per_s": round(report.added / seconds), "met": seconds < TARGET_SECONDS}
        if where == "memory":
            out["prepare"], out["questions"] = ask_table(store)
        del store
    return out


def ask_table(store) -> tuple[dict, list[dict]]:
    """TABLE_QUESTIONS asked in turn over the loaded store, each answered from the facts (no
    model), after what a running app does once a file is loaded (its rules read at start-up,
    `Session.prepare`: the encoder, the scorer, the parser, the name index), timed apart: its
    seconds and CPU seconds, then each turn's, with its reply."""
    from engine.config import AnswerMode, Config
    from engine.context import TurnContext
    from engine.session import Session
    from harness.bench.retrieve import shared_resources
    from rules.reasoner import validate_rule_files

    config = Config(memory=True, demo="none", answer=AnswerMode.FACTS)
    ctx = TurnContext(config=config, store=store, background=store,
                      resources={**shared_resources(), "rules": validate_rule_files(config.rules, config.trust_rules)})
    session = Session(ctx)
    start, cpu = time.perf_counter(), time.process_time()
    session.prepare()
    prepared = {"seconds": round(time.perf_counter() - start, 2), "cpu_seconds": round(time.process_time() - cpu, 2)}
    out = []
    for question in TABLE_QUESTIONS:
        start, cpu = time.perf_counter(), time.process_time()
        state = session.user_turn(question)
        out.append({"question": question, "seconds": round(time.perf_counter() - start, 2),
                    "cpu_seconds": round(time.process_time() - cpu, 2), "reply": state.shown_reply,
                    "stages_ms": {k: round(v) for k, v in state.timings_ms.items() if v >= 1}})
    return prepared, out


def run(n: int, rdflib_n: int, workdir: Path) -> dict:
    from kgstore import KGStore

    data = workdir / "bench.nt"
    generate(data, n)
    size = data.stat().st_size
    store = KGStore(workdir / "store")
    store.bulk_min_bytes = 0  # the bulk loader whatever --triples is
    start, cpu = time.perf_counter(), time.process_time()
    report = store.load(data)
    ox_seconds, ox_cpu = time.perf_counter() - start, time.process_time() - cpu
    del store

    import rdflib

    sample = data
    parsed = n
    if 0 < rdflib_n < n:
        sample = workdir / "rdflib_sample.nt"
        with open(data, encoding="utf-8") as src, open(sample, "w", encoding="utf-8") as dst:
            dst.writelines(itertools.islice(src, rdflib_n))
        parsed = rdflib_n
    start, cpu = time.perf_counter(), time.process_time()
    graph = rdflib.Graph()
    graph.parse(str(sample), format="nt")
    rdflib_seconds, rdflib_cpu = time.perf_counter() - start, time.process_time() - cpu
    ox_rate = report.added / ox_seconds
    rdflib_rate = len(graph) / rdflib_seconds
    return {
        "triples": n, "file_mb": round(size / 2**20, 1), "bulk": report.bulk, "loaded": report.added,
        "pyoxigraph_seconds": round(ox_seconds, 2), "pyoxigraph_cpu_seconds": round(ox_cpu, 2),
        "pyoxigraph_triples_per_s": round(ox_rate),
        "rdflib_triples_parsed": parsed, "rdflib_seconds": round(rdflib_seconds, 2),
        "rdflib_cpu_seconds": round(rdflib_cpu, 2),
        "rdflib_triples_per_s": round(rdflib_rate),
        "rdflib_seconds_extrapolated_to_all": round(n / rdflib_rate, 1),
        "speedup": round(ox_rate / rdflib_rate, 1),
        "targets": {"seconds_under": TARGET_SECONDS, "speedup_at_least": TARGET_RATIO},
        "met": {"seconds": ox_seconds < TARGET_SECONDS, "speedup": ox_rate / rdflib_rate >= TARGET_RATIO},
        "cpus": os.cpu_count(),
    }


def main(argv: list[str], command: str = "bench load") -> int:
    p = ArgumentParser(prog=f"kgchat {command}", description=__doc__.split("\n")[0])
    p.add_argument("--triples", type=positive_int, default=1_000_000, help="size of the generated file (default 1,000,000)")
    p.add_argument("--rdflib-triples", type=nonnegative_int, default=200_000,
                   help="lines of the file rdflib parses for its rate (0: the whole file)")
    p.add_argument("--table", type=positive_int, metavar="ROWS",
                   help="load a generated CSV table of ROWS rows instead (eight columns; target under 10 s)")
    p.add_argument("--dir", help="keep the generated file and store here (default: a temporary directory)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)

    def bench(workdir: Path) -> dict:
        return run_table(args.table, workdir) if args.table else run(args.triples, args.rdflib_triples, workdir)

    if args.dir:
        Path(args.dir).mkdir(parents=True, exist_ok=True)
        result = bench(Path(args.dir))
    else:
        with tempfile.TemporaryDirectory(prefix="kgchat-bench-load-") as tmp:
            result = bench(Path(tmp))
    if args.json:
        print(json.dumps(result))
        return 0
    r = result
    if args.table:
        print(f"CSV table: {r['rows']:,} rows, {r['file_mb']} MB, {r['loaded']:,} triples: {r['table']}")
        for where in ("memory", "disk"):
            m = r[where]
            print(f"into a store {'in memory' if where == 'memory' else 'on disk':<10} {m['seconds']:>7} s "
                  f"({m['cpu_seconds']} CPU s, {m['triples_per_s']:,} triples/s{', bulk load' if m['bulk'] else ''}) "
                  f"on {r['cpus']} CPUs (target < {TARGET_SECONDS} s: {'met' if m['met'] else 'NOT met'})")
        print(f"then what the app prepares after a load (encoder, scorer, parser, name index) "
              f"{r['prepare']['seconds']} s ({r['prepare']['cpu_seconds']} CPU s)")
        for n, q in enumerate(r["questions"]):
            target = f" (target <= {TARGET_FIRST_QUESTION_SECONDS} s)" if n == 0 else ""
            print(f"{'first' if n == 0 else 'next'} question {q['seconds']} s ({q['cpu_seconds']} CPU s){target}: "
                  f"{q['question']} -> {q['reply'].strip()}")
        return 0
    print(f"N-Triples file: {r['triples']:,} triples, {r['file_mb']} MB")
    print(f"{'loader':<36}{'triples':>12}{'seconds':>10}{'CPU s':>8}{'triples/s':>12}")
    print(f"{'pyoxigraph bulk load (on disk)':<36}{r['loaded']:>12,}{r['pyoxigraph_seconds']:>10}"
          f"{r['pyoxigraph_cpu_seconds']:>8}{r['pyoxigraph_triples_per_s']:>12,}")
    print(f"{'rdflib parse (in memory)':<36}{r['rdflib_triples_parsed']:>12,}{r['rdflib_seconds']:>10}"
          f"{r['rdflib_cpu_seconds']:>8}{r['rdflib_triples_per_s']:>12,}")
    print(f"speedup {r['speedup']}x (target >= {TARGET_RATIO}x: {'met' if r['met']['speedup'] else 'NOT met'}); "
          f"whole file {r['pyoxigraph_seconds']} s (target < {TARGET_SECONDS} s: {'met' if r['met']['seconds'] else 'NOT met'}); "
          f"rdflib would need about {r['rdflib_seconds_extrapolated_to_all']} s for the whole file")
    return 0
