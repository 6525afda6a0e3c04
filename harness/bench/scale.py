"""`kgchat bench scale`: per-turn latency and memory as the KG grows, embedded store beside the
Oxigraph server on loopback.

For each size (10^4, 10^5, 10^6 triples; 10^7 with --sizes) a Wikidata-shaped KG is generated
(power-law in-degrees, a heavy tail of entities with many facts, ~100 properties, a label per
entity, typed entities), bulk-loaded once into an on-disk store, and a fixed set of turns (the
same entities at every size) is run:

- `fetch`: the part the store owns, the capped 1-hop neighbourhood of the turn's entities plus
  the labels of everything in it (what candidates + verbalize read from the KG);
- `retrieval` (unless --no-retrieval): the engine's plan → candidates → verbalize → score →
  retrieve stages through `harness.bench.retrieve.timed_turn`, with the encoder and scorer built
  once before timing.

Both run against the embedded store and then against `oxigraph serve` on the same store
directory (after the embedded store is closed). Peak memory: this process's peak RSS after each
size (it only grows, and includes the generator and the models), and the server's peak RSS.
"""

from __future__ import annotations

import gc
import json
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from engine.options import ArgumentParser, nonnegative_int, positive_int
from harness.timing import percentile
from kgstore.vocab import RDF_TYPE, RDFS_LABEL, WD, WDT, XSD

PROPERTIES = 100
CLASSES = 30
HUB_STRIDE = 1_000_003  # a prime: rank -> id is a permutation, hubs are spread over the ids


def generate(path: Path, n: int, seed: int = 0) -> int:
    """About `n` distinct triples; returns the number of entities (Q0 .. Q{E-1})."""
    rng = random.Random(seed)
    entities = max(n // 8, 50)
    entities += entities % HUB_STRIDE == 0
    count = 0
    with open(path, "w", encoding="utf-8") as f:
        for c in range(CLASSES):
            f.write(f'<{WD}C{c}> <{RDFS_LABEL}> "class {c}"@en .\n')
        for p in range(PROPERTIES):
            f.write(f'<{WD}P{1000 + p}> <{RDFS_LABEL}> "property {p}"@en .\n')
        count += CLASSES + PROPERTIES
        i = 0
        while count < n:
            s = i % entities
            if i < entities:
                f.write(f'<{WD}Q{s}> <{RDFS_LABEL}> "entity {s}"@en .\n')
                f.write(f'<{WD}Q{s}> <{RDF_TYPE}> <{WD}C{int(CLASSES * rng.random() ** 2)}> .\n')
                count += 2
            # Out-degree: most entities a few facts, 1 in 200 a few hundred.
            k = rng.randrange(150, 400) if rng.random() < 0.005 else rng.randrange(2, 8)
            used: set[int] = set()
            for _ in range(k):
                p = int(PROPERTIES * rng.random() ** 2)
                if rng.random() < 0.25:
                    if p in used:
                        continue
                    used.add(p)
                    f.write(f'<{WD}Q{s}> <{WDT}P{1000 + p}> "{rng.randrange(10**6)}"^^<{XSD}integer> .\n')
                else:  # objects by a power law over ranks ("human", "United States" are hubs)
                    o = (int(entities * rng.random() ** 4) * HUB_STRIDE) % entities  # rank -> scattered id
                    f.write(f'<{WD}Q{s}> <{WDT}P{1000 + p}> <{WD}Q{o}> .\n')
                count += 1
            i += 1
    return entities


def turn_entities(entities: int, turns: int, seed: int) -> list[list[str]]:
    """The turns' entities, drawn uniformly (so their degrees follow the KG's distribution):
    the same draw at every size, over that size's entities."""
    rng = random.Random(seed + 1)
    return [[f"{WD}Q{rng.randrange(entities)}" for _ in range(rng.choice((1, 1, 2)))] for _ in range(turns)]


def fetch_ms(background, seeds: list[str], cap: int, sizes: list[int] | None = None) -> float:
    start = time.perf_counter()
    nb = background.neighborhood(seeds, hops=1, cap=cap)
    iris = {f.s for f in nb.facts} | {f.p for f in nb.facts} | {f.o for f in nb.facts if not f.o_literal}
    background.labels(iris)
    if sizes is not None:
        sizes.append(len(nb.facts))
    return (time.perf_counter() - start) * 1000.0


def percentiles(values: list[float]) -> dict:
    return {"p50_ms": round(percentile(values, 0.5), 2), "p95_ms": round(percentile(values, 0.95), 2)}


def peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def server_peak_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def start_server(location: Path):
    exe = Path(sys.executable).with_name("oxigraph")
    if not exe.exists():
        return None, "the oxigraph server is not installed (pip install oxigraph)"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([str(exe), "serve", "--location", str(location), "--bind", f"127.0.0.1:{port}",
                             "--union-default-graph"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    if "Listening" not in line:
        proc.kill()
        return None, f"oxigraph serve did not start: {line.strip()}"
    return (proc, f"http://127.0.0.1:{port}/query"), ""


def engine_resources(scorer: str, log) -> tuple[dict, str]:
    """The encoder (and the learned scorer) built once; bm25 scoring when the model is missing."""
    from harness.bench.retrieve import shared_resources
    from kgstore.errors import BadInput

    if scorer == "learned":
        try:
            return shared_resources(), scorer
        except BadInput as exc:
            log(f"learned scorer unavailable ({exc}): scoring with bm25")
    from engine.nlp.encoder import Encoder

    encoder = Encoder()
    encoder.encode(["warm up the encoder"])
    return {"encoder": encoder}, "bm25"


def retrieval_runner(resources: dict, scorer: str):
    """A function timing one turn through the engine's retrieval stages."""
    from engine.config import Config
    from engine.context import TurnContext
    from engine.nlp.encoder import Encoder
    from engine.state import Focus
    from harness.bench.retrieve import timed_turn
    from kgstore import KGStore

    def make(store, background):
        ctx = TurnContext(config=Config(memory=True, demo="none", scorer=scorer), store=store, background=background)
        ctx.resources.update(resources, encoder=Encoder())
        ctx.resources["encoder"]._model = resources["encoder"].model  # a fresh embedding cache per run
        return ctx

    def run(store, background, turns: list[list[str]]) -> list[float]:
        ctx = make(store if store is not None else KGStore(), background)
        now = datetime(2026, 3, 2, 9)
        times = []
        history: list[tuple[str, str]] = []
        focus = Focus()
        for i, seeds in enumerate(turns):
            labels = [background.label(s) for s in seeds]
            text = "Tell me about " + " and ".join(labels) + "."
            times.append(timed_turn(ctx, "scale", i + 1, text, list(zip(labels, seeds, strict=False)), history, now, focus))
            history.append(("user", text))
        return times[1:]  # the first turn warms the caches

    return run


def bench_size(n: int, turns: int, cap: int, seed: int, retrieval, workdir: Path, log) -> dict:
    from kgstore import KGStore
    from kgstore.remote import SparqlBackground

    row: dict = {"triples_target": n}
    nt = workdir / f"kg{n}.nt"
    start = time.perf_counter()
    entities = generate(nt, n, seed)
    row["generate_s"] = round(time.perf_counter() - start, 1)
    location = workdir / f"store{n}"
    # Loaded by `kgchat load` in its own process, as a user would before starting the app, so
    # this process's peak memory is the app's (store open, models, turns), not the loader's.
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cli", "load", str(nt), "--store", str(location), "--json"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"kgchat load failed: {done.stderr.strip()}")
    row["load_s"] = round(time.perf_counter() - start, 1)
    row["triples"] = json.loads(done.stdout)["quads"]
    row["loader_peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1)
    nt.unlink()
    store = KGStore(location)
    seeds = turn_entities(entities, turns, seed)
    for s in seeds[:3]:  # warm the store's block cache like a running session would be
        fetch_ms(store, s, cap)
    facts: list[int] = []
    row["embedded_fetch"] = percentiles([fetch_ms(store, s, cap, facts) for s in seeds])
    row["facts_per_turn"] = {"mean": round(statistics.fmean(facts), 1), "max": max(facts)}
    if retrieval:
        row["embedded_retrieval"] = percentiles(retrieval(store, store, seeds))
    row["embedded_peak_rss_mb"] = peak_rss_mb()
    log(f"{n:>10,} triples: {row['facts_per_turn']['mean']} facts/turn; embedded fetch p50 {row['embedded_fetch']['p50_ms']} ms"
        + (f", retrieval p50 {row['embedded_retrieval']['p50_ms']} ms" if retrieval else ""))
    del store
    gc.collect()
    started, why = start_server(location)
    if started is None:
        row["server_skipped"] = why
        return row
    proc, url = started
    try:
        remote = SparqlBackground(url, timeout=30)
        for s in seeds[:3]:
            fetch_ms(remote, s, cap)
        remote = SparqlBackground(url, timeout=30)  # a fresh session: no cached neighbourhoods
        row["server_fetch"] = percentiles([fetch_ms(remote, s, cap) for s in seeds])
        if retrieval:
            row["server_retrieval"] = percentiles(retrieval(None, SparqlBackground(url, timeout=30), seeds))
        row["server_peak_rss_mb"] = server_peak_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait()
    log(f"{'':>10}  server   fetch p50 {row['server_fetch']['p50_ms']} ms"
        + (f", retrieval p50 {row['server_retrieval']['p50_ms']} ms" if retrieval else ""))
    return row


def plot(rows: list[dict], path: Path) -> str:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed: no plot (pip install matplotlib)"
    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    xs = [r["triples"] for r in rows]
    for key, label, style in (("embedded_fetch", "fetch, embedded", "o-"), ("server_fetch", "fetch, server", "o--"),
                              ("embedded_retrieval", "retrieval, embedded", "s-"),
                              ("server_retrieval", "retrieval, server", "s--")):
        if all(key in r for r in rows):
            ax.plot(xs, [r[key]["p50_ms"] for r in rows], style, label=label + " p50")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("triples in the KG")
    ax.set_ylabel("ms per turn")
    ax.set_title("kgchat per-turn latency as the KG grows")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    return f"plot written to {path}"


def main(argv: list[str], command: str = "bench scale") -> int:
    p = ArgumentParser(prog=f"kgchat {command}", description=__doc__.split("\n")[0])
    p.add_argument("--sizes", type=positive_int, nargs="+", default=[10**4, 10**5, 10**6],
                   help="KG sizes in triples (default 10^4 10^5 10^6; add 10000000 for 10^7)")
    p.add_argument("--turns", type=positive_int, default=40, help="turns per size and backend")
    p.add_argument("--cap", type=positive_int, default=2000, help="neighbourhood cap (the engine's default candidate cap)")
    p.add_argument("--no-retrieval", action="store_true", help="time only the store's fetch, not the engine stages")
    p.add_argument("--scorer", choices=("learned", "bm25"), default="learned",
                   help="relevance scorer of the timed retrieval (bm25 when the learned model is missing)")
    p.add_argument("--plot", default="scale.png", help="PNG file for the plot")
    p.add_argument("--seed", type=nonnegative_int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    log = (lambda msg: print(msg, file=sys.stderr, flush=True)) if args.json else (lambda msg: print(msg, flush=True))
    retrieval = None
    scorer = None
    if not args.no_retrieval:
        try:
            resources, scorer = engine_resources(args.scorer, log)
            retrieval = retrieval_runner(resources, scorer)
        except ImportError as exc:
            log(f"engine retrieval not available ({exc}): timing the store's fetch only")
    rows = []
    with tempfile.TemporaryDirectory(prefix="kgchat-bench-scale-") as tmp:
        for n in sorted(args.sizes):
            rows.append(bench_size(n, args.turns, args.cap, args.seed, retrieval, Path(tmp), log))
    note = plot(rows, Path(args.plot))
    base = rows[0]
    big = next((r for r in rows if r["triples_target"] == 10**6), rows[-1])
    checks = {"fetch_p50_ratio_vs_smallest": round(big["embedded_fetch"]["p50_ms"] / base["embedded_fetch"]["p50_ms"], 2)}
    if "server_fetch" in big:
        checks["server_over_embedded_fetch_p50"] = round(big["server_fetch"]["p50_ms"] / big["embedded_fetch"]["p50_ms"], 2)
    if retrieval:
        checks["retrieval_p50_ratio_vs_smallest"] = round(
            big["embedded_retrieval"]["p50_ms"] / base["embedded_retrieval"]["p50_ms"], 2)
        if "server_retrieval" in big:
            checks["server_over_embedded_retrieval_p50"] = round(
                big["server_retrieval"]["p50_ms"] / big["embedded_retrieval"]["p50_ms"], 2)
    result = {"rows": rows, "checks": checks, "targets": {"ratio_vs_smallest_max": 2.0, "server_over_embedded_max": 3.0,
                                                          "peak_rss_mb_max_at_1e6": 1536},
              "plot": note, "settings": {"turns": args.turns, "cap": args.cap, "hops": 1, "seed": args.seed,
                                         "retrieval": bool(retrieval), "scorer": scorer}}
    if args.json:
        print(json.dumps(result))
        return 0
    head = f"{'triples':>10} {'load s':>7} {'fetch emb p50/p95':>18} {'fetch srv p50/p95':>18}"
    if retrieval:
        head += f" {'retr emb p50/p95':>18} {'retr srv p50/p95':>18}"
    print(head + f" {'facts':>7} {'RSS MB':>7} {'srv MB':>7}")
    for r in rows:
        line = f"{r['triples']:>10,} {r['load_s']:>7} {_pair(r.get('embedded_fetch')):>18} {_pair(r.get('server_fetch')):>18}"
        if retrieval:
            line += f" {_pair(r.get('embedded_retrieval')):>18} {_pair(r.get('server_retrieval')):>18}"
        print(line + f" {r['facts_per_turn']['mean']:>7} {r['embedded_peak_rss_mb']:>7} {str(r.get('server_peak_rss_mb', '-')):>7}")
    print(", ".join(f"{k} {v}" for k, v in checks.items()))
    print(note)
    return 0


def _pair(stats: dict | None) -> str:
    return f"{stats['p50_ms']}/{stats['p95_ms']}" if stats else "-"
