"""`kgchat bench compute`: an operation over every member of a large class of the
1,000,000-triple Wikidata-style KG (the one `kgchat bench retrieve` generates): the oldest human,
the most recent film, the films released before a year, how many films there are.

Each question is run as the answer stage runs it (`engine.compute.members`): the class read
from the KG's class labels, the relation chosen among the members' relations by the relation
matcher (the encoder built and warmed before timing, its vectors cached after the first run of
a question), the operator run over every member's value (no cap). Timed per run: wall time of
the whole operation, and this process's CPU time (the figure to compare on a loaded machine);
the first run of each question is reported apart (cold: the matcher encodes the relation labels
then, and the class's ordered column is read from the store, kept for later questions until the
store changes). Side by side, each ranking, filter and count is run again the way a small class
is (every member's value read and ranked or filtered in Python, every member read to be counted):
`python_p50_ms`. The class's size and the answer are reported too, so a run that reads fewer
members than the class has would show.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from engine.options import ArgumentParser, positive_int
from harness.timing import percentile

QUESTIONS = ("Who is the oldest human?", "Which film is the most recent?", "Which films were released before 1951?",
             "Who is the youngest human?")


def bench(triples: int, runs: int, seed: int) -> dict:
    from engine.compute import members
    from engine.compute.members import class_labels, class_size, members_of, named_classes, operate_members
    from engine.compute.operators import detect
    from engine.compute.run import count
    from engine.relations import RelationMatcher
    from harness.bench.retrieve import shared_resources, write_wikidata_kg
    from kgstore import KGStore

    grid = RelationMatcher(shared_resources()["encoder"]).grid
    default = members.LARGE
    with tempfile.TemporaryDirectory(prefix="kgchat-bench-compute-") as tmp:
        nt = Path(tmp) / "wikidata_style.nt"
        write_wikidata_kg(nt, triples, seed)
        store = KGStore(str(Path(tmp) / "store"))
        store.load(str(nt))
        nt.unlink()
        classes = class_labels(store)
        rows = []
        for question in (*QUESTIONS, "How many films are there?"):
            op = detect(question)
            named = named_classes(question, classes)
            row: dict = {"question": question, "operator": op.name, "class": named[0].label if named else ""}
            for tag, large in (("", members.LARGE), ("python_", None)):
                if large is None and op.name not in ("argmax", "argmin", "filter", "count"):
                    continue
                members.LARGE = large if large is not None else 10 ** 12
                times: list[float] = []
                cpu: list[float] = []
                answer, size = "", 0
                for _ in range(runs + 1):
                    start, used = time.perf_counter(), time.process_time()
                    if op.name == "count" and large is None:
                        every = members_of(store, named)
                        size, answer = len(every), str(count(every).count)
                    elif op.name == "count":
                        size = class_size(store, named)
                        answer = str(size)
                    else:
                        done = operate_members(op, question, store, grid, named, store.labels)
                        size = done.members if done else 0
                        answer = "" if done is None else (
                            f"{done.label}: {done.result.count} kept" if op.name == "filter"
                            else f"{done.label}: {', '.join(done.result.winners[:2])}")
                    times.append((time.perf_counter() - start) * 1000.0)
                    cpu.append((time.process_time() - used) * 1000.0)
                members.LARGE = default
                row.update({f"{tag}members": size, f"{tag}answer": answer, f"{tag}cold_ms": round(times[0], 1),
                            f"{tag}p50_ms": round(statistics.median(times[1:]), 1),
                            f"{tag}p90_ms": round(percentile(times[1:], 0.9), 1),
                            f"{tag}cpu_p50_ms": round(statistics.median(cpu[1:]), 1)})
            rows.append(row)
        total = store.count()
        del store
    return {"triples": total, "runs": runs, "questions": rows,
            "p50_ms": round(statistics.median(r["p50_ms"] for r in rows), 1),
            "cpu_p50_ms": round(statistics.median(r["cpu_p50_ms"] for r in rows), 1)}


def main(argv: list[str], command: str = "bench compute") -> int:
    import json

    parser = ArgumentParser(prog=f"kgchat {command}", description=__doc__.splitlines()[0])
    parser.add_argument("--triples", type=positive_int, default=1_000_000, help="size of the Wikidata-style KG")
    parser.add_argument("--runs", type=positive_int, default=5, help="timed runs per question, after a cold one")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = bench(args.triples, args.runs, args.seed)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"Wikidata-style KG, {result['triples']} triples; {result['runs']} timed runs a question")
    for r in result["questions"]:
        beside = f"; ranked in Python: p50 {r['python_p50_ms']} ms, CPU {r['python_cpu_p50_ms']} ms" \
            if "python_p50_ms" in r else ""
        print(f"  {r['question']:<40} {r['operator']:<7} {r['class']:<6} {r['members']:>7} members  "
              f"p50 {r['p50_ms']} ms (p90 {r['p90_ms']}, cold {r['cold_ms']}, CPU {r['cpu_p50_ms']}){beside}  "
              f"{r['answer']}")
    print(f"p50 over the questions: {result['p50_ms']} ms (CPU {result['cpu_p50_ms']} ms)")
    return 0
