"""Readers and judging for MetaQA (Zhang et al. 2018) in its published file forms.

The KB comes either as `subject|relation|object` lines (kb.txt) or as tab-separated ID triples
with `entities.dict` / `relations.dict` (`id<TAB>name`); questions as
`question with [topic]<TAB>answer|answer`, some mirrors adding a third column, the question's
relation path (`directed_by|has_genre`), read as its type when no type file is given. A question
is asked as a user would type it, so the brackets that mark the topic are removed.
"""

from __future__ import annotations

import csv
import json
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgstore.errors import BadInput

BRACKET = re.compile(r"\[([^\[\]]*)\]")


@dataclass(frozen=True)
class Question:
    text: str
    topic: str
    answers: tuple[str, ...]
    kind: str = ""  # the question's type: a third column's relation path, or a type file's line


def read_kb_lines(lines) -> list[tuple[str, str, str]]:
    """Triples of `subject|relation|object` lines; blank lines skipped, a malformed one raises."""
    out = []
    for n, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        parts = line.split("|")
        if len(parts) != 3 or not all(p.strip() for p in parts):
            raise ValueError(f"KB line {n} is not subject|relation|object: {line!r}")
        out.append((parts[0].strip(), parts[1].strip(), parts[2].strip()))
    return out


def read_dict(lines) -> dict[str, str]:
    """`id<TAB>name` lines as {id: name}."""
    out = {}
    for n, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        key, sep, name = line.partition("\t")
        if not sep:
            raise ValueError(f"dictionary line {n} has no tab: {line!r}")
        out[key.strip()] = name.strip()
    return out


def read_id_triples(lines, entities: dict[str, str], relations: dict[str, str]) -> list[tuple[str, str, str]]:
    """Tab-separated ID triples resolved through the two dictionaries."""
    out = []
    for n, line in enumerate(lines, 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 3:
            raise ValueError(f"triple line {n} has not three ids: {line!r}")
        s, r, o = parts
        try:
            out.append((entities[s], relations[r], entities[o]))
        except KeyError as e:
            raise ValueError(f"triple line {n} names an unknown id {e.args[0]}") from None
    return out


def plain(question: str) -> str:
    """The question as a user types it: topic brackets removed."""
    return BRACKET.sub(r"\1", question)


def read_questions(lines) -> list[Question]:
    out = []
    for n, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        text, sep, rest = line.partition("\t")
        answers, _, kind = rest.partition("\t")
        found = BRACKET.search(text)
        if not sep or found is None:
            raise ValueError(f"question line {n} lacks a [topic] or a tab: {line!r}")
        golds = tuple(a.strip() for a in answers.split("|") if a.strip())
        out.append(Question(plain(text), found.group(1), golds, kind.strip()))
    return out


def read_file(path: Path, reader):
    with open(path, encoding="utf-8") as f:
        return reader(f)


def judge(named: list[str], gold: tuple[str, ...]) -> dict[str, bool]:
    """Hits@1: the first answer the reply names is gold; any-hit; all-answers named."""
    golds = {g.casefold() for g in gold}
    said = [n.casefold() for n in named]
    return {"hits1": bool(said) and said[0] in golds, "any": any(s in golds for s in said), "all": bool(golds) and golds <= set(said)}


def check_inputs(kb: Path, questions_dir: Path) -> None:
    """One line naming what is wrong when the KB file or the questions' folder is missing."""
    if not kb.is_file():
        raise BadInput(f"--kb {kb}: no such file")
    if not questions_dir.is_dir():
        raise BadInput(f"--questions-dir {questions_dir}: no such folder")


def read_kb(path: Path) -> list[tuple[str, str, str]]:
    """The KB of `path`: `subject|relation|object` lines, or ID triples whose `entities.dict` and
    `relations.dict` lie beside them."""
    folder = path.parent
    entities, relations = folder / "entities.dict", folder / "relations.dict"
    with open(path, encoding="utf-8") as f:
        first = f.readline()
    if "|" in first or not (entities.is_file() and relations.is_file()):
        return read_file(path, read_kb_lines)
    names = read_file(entities, read_dict)
    labels = read_file(relations, read_dict)
    return read_file(path, lambda lines: read_id_triples(lines, names, labels))


def write_tsv(triples: Iterable[tuple[str, str, str]], path: Path) -> None:
    """The triples as the TSV triples file kgchat loads as any user's (head, relation, tail)."""
    with open(path, "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f, delimiter="\t")
        out.writerow(("head", "relation", "tail"))
        out.writerows(triples)


SPLIT_NAMES = {"dev": ("dev", "valid"), "test": ("test",), "train": ("train",)}


def question_files(folder: Path, hop: int, split: str) -> tuple[Path, Path | None]:
    """The questions of one hop and split, and its type file when there is one. Two layouts:
    the published one (`N-hop/vanilla/qa_dev.txt`, types in `N-hop/qa_dev_qtype.txt`) and the
    mirrors' flat one (`valid_Nhop.txt`, `dev_Nhop.txt`)."""
    for name in SPLIT_NAMES[split]:
        nested = folder / f"{hop}-hop" / "vanilla" / f"qa_{name}.txt"
        if nested.is_file():
            types = folder / f"{hop}-hop" / f"qa_{name}_qtype.txt"
            return nested, types if types.is_file() else None
        for flat in (folder / f"{name}_{hop}hop.txt", folder / f"qa_{name}_{hop}hop.txt"):
            if flat.is_file():
                return flat, None
    raise BadInput(f"--questions-dir {folder}: no {split} questions of {hop} hops "
                   f"(neither {hop}-hop/vanilla/qa_{split}.txt nor {SPLIT_NAMES[split][-1]}_{hop}hop.txt)")


def read_questions_of(folder: Path, hop: int, split: str) -> list[Question]:
    path, types = question_files(folder, hop, split)
    questions = read_file(path, read_questions)
    if types is not None:
        kinds = [line.strip() for line in read_file(types, list) if line.strip()]
        if len(kinds) != len(questions):
            raise BadInput(f"{types}: {len(kinds)} types for {len(questions)} questions in {path}")
        questions = [Question(q.text, q.topic, q.answers, k) for q, k in zip(questions, kinds, strict=True)]
    return questions


# What a reply adds to a name shared by several entities to tell them apart: "Heat (film)".
TOLD_APART = re.compile(r"\s+\([^()]*\)$")


def named_in(reply: str, candidates: Iterable[str], topic: str) -> list[str]:
    """The candidates the reply names, in the order it names them; the topic's own name (and any
    name inside it) is no answer. At one place the longest name wins ("The Tracker" over
    "Tracker"); a name told apart by a bracket is found by the name alone."""
    found: list[tuple[int, int, str]] = []
    for name in {TOLD_APART.sub("", c) for c in candidates if c.strip()} | {topic}:
        found += [(hit.start(), hit.end(), name)
                  for hit in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", reply, re.IGNORECASE)]
    found.sort(key=lambda f: (f[0], -(f[1] - f[0])))
    named: list[str] = []
    end = -1
    for start, stop, name in found:
        if start < end:
            continue
        end = stop
        if name.casefold() != topic.casefold() and name not in named:
            named.append(name)
    return named


def on_the_way(state) -> set[str]:
    """The labels of the entities the best path passes through: the way to its answers ("the films
    X starred in" of "Who directed X's films?"), named in the reply, never answers of it."""
    if not state.paths:
        return set()
    labels = {c.fact.s: c.s_label for c in state.candidates} | {c.fact.o: c.o_label for c in state.candidates}
    path = state.paths[0]
    return {labels.get(iri, "") for chain in path.chains for fact in chain[:-1] for iri in (fact.s, fact.o)
            if iri != path.start} - set(path.values) - {""}


def ask(question: Question, hop: int, session) -> dict[str, Any]:
    """One question through a fresh session of the shared context: its row."""
    start, cpu = time.perf_counter(), time.process_time()
    state = session.user_turn(question.text)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    paths = [{"start": p.start_label, "steps": [s.label if s.forward else f"{s.label} (of)" for s in p.steps],
              "values": p.values[:10], "total": p.total} for p in state.paths[:3]]
    way = on_the_way(state)
    candidates = [label for c in state.retrieved for label in (c.s_label, c.o_label) if label not in way]
    candidates += [v for p in state.paths for v in p.values] + list(question.answers)
    named = named_in(state.shown_reply, candidates, question.topic)
    return {"hop": hop, "kind": question.kind or "all", "question": question.text, "topic": question.topic,
            "gold": list(question.answers), "shown": state.shown_reply, "answer_source": str(state.answer_source),
            "named": named[:10], **judge(named, question.answers), "paths": paths, "seconds": round(seconds, 3),
            "cpu_seconds": round(cpu_seconds, 3)}


def share(rows: list[dict], key: str) -> dict[str, Any]:
    hits = sum(bool(r[key]) for r in rows)
    return {"value": round(hits / len(rows), 4) if rows else None, "hits": hits, "n": len(rows)}


def figures(rows: list[dict]) -> dict[str, Any]:
    times = [r["seconds"] for r in rows]
    return {"n": len(rows), "hits1": share(rows, "hits1"), "any": share(rows, "any"), "all": share(rows, "all"),
            "answer_sources": {s: sum(r["answer_source"] == s for r in rows) for s in ("llm", "facts", "not_found", "")},
            "turn_p50_s": round(statistics.median(times), 3) if times else None,
            "by_kind": {k: {m: share([r for r in rows if r["kind"] == k], m) for m in ("hits1", "any", "all")}
                        for k in sorted({r["kind"] for r in rows})}}


def sample(questions: list[Question], limit: int | None) -> list[Question]:
    """The first `limit` questions, or every question; spread over the file rather than its head,
    since the files are grouped by template."""
    if limit is None or limit >= len(questions):
        return questions
    step = len(questions) / limit
    return [questions[int(i * step)] for i in range(limit)]


def run(kb: Path, folder: Path, hops: list[int], split: str, limit: int | None, options: dict,
        progress=lambda text: None) -> Iterator[dict]:
    """Load the KB once and prepare for questions as the app does, then yield the seconds of each
    and every question's row."""
    from engine.config import Config, Demo
    from engine.session import Session
    from engine.setup import build_context

    asked = {hop: sample(read_questions_of(folder, hop, split), limit) for hop in hops}
    triples = read_kb(kb)
    with tempfile.TemporaryDirectory(prefix="kgchat-metaqa-") as tmp:
        tsv = Path(tmp) / f"{kb.parent.name or 'kb'}.tsv"
        write_tsv(triples, tsv)
        start, cpu = time.perf_counter(), time.process_time()
        ctx = build_context(Config(kg=[str(tsv)], demo=Demo.NONE, **options))
        load = {"load_seconds": round(time.perf_counter() - start, 2),
                "load_cpu_seconds": round(time.process_time() - cpu, 2), "triples": len(triples)}
    # what the app prepares once a file is loaded (the scorer, the parser, the name index), apart
    start, cpu = time.perf_counter(), time.process_time()
    Session(ctx).prepare()
    yield {**load, "prepare_seconds": round(time.perf_counter() - start, 2),
           "prepare_cpu_seconds": round(time.process_time() - cpu, 2)}
    for hop, questions in asked.items():
        for n, question in enumerate(questions, 1):
            yield ask(question, hop, Session(ctx))
            if n % 25 == 0:
                progress(f"{hop}-hop: {n}/{len(questions)}")


def table(results: dict[str, dict]) -> str:
    def cell(f: dict) -> str:
        return "–" if f["value"] is None else f"{f['value']:.3f} ({f['hits']}/{f['n']})"

    lines = ["| hops | questions | Hits@1 | any hit | all answers | turn p50 | sources (llm/facts/not found) |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, f in results.items():
        src = f["answer_sources"]
        lines.append(f"| {name} | {f['n']} | {cell(f['hits1'])} | {cell(f['any'])} | {cell(f['all'])} | "
                     f"{f['turn_p50_s']} s | {src['llm']}/{src['facts']}/{src['not_found']} |")
    lines += ["", "| hops | type | Hits@1 | any hit | all answers |", "| --- | --- | --- | --- | --- |"]
    for name, f in results.items():
        lines += [f"| {name} | {k} | {cell(m['hits1'])} | {cell(m['any'])} | {cell(m['all'])} |"
                  for k, m in f["by_kind"].items()]
    return "\n".join(lines)


def main(argv: list[str], command: str = "eval metaqa") -> int:
    from engine.config import AnswerMode
    from engine.options import ArgumentParser, positive_int

    parser = ArgumentParser(prog=f"kgchat {command}", description="MetaQA (WikiMovies KB, 1-3 hop questions) "
                            "zero-shot: Hits@1, any hit and all answers of the shown reply, per hop and question type.")
    parser.add_argument("--kb", required=True, type=Path, metavar="FILE",
                        help="kb.txt (subject|relation|object lines), or ID triples with entities.dict and "
                        "relations.dict beside them")
    parser.add_argument("--questions-dir", required=True, type=Path, metavar="DIR",
                        help="the question files: N-hop/vanilla/qa_SPLIT.txt (types in N-hop/qa_SPLIT_qtype.txt) "
                        "or SPLIT_Nhop.txt (dev also as valid_Nhop.txt)")
    parser.add_argument("--hops", nargs="+", type=int, choices=(1, 2, 3), default=[1, 2, 3])
    parser.add_argument("--split", choices=tuple(SPLIT_NAMES), default="dev")
    parser.add_argument("--limit", type=positive_int, metavar="N",
                        help="N questions per hop, spread evenly over the file (default: all)")
    parser.add_argument("--answer", choices=[m.value for m in AnswerMode], default=AnswerMode.AUTO.value,
                        help="the reply shown, as `kgchat ask --answer` (facts: no model)")
    parser.add_argument("--model", metavar="PATH.gguf", help="GGUF model (default: the default model)")
    parser.add_argument("--rows", action="store_true", help="with --json: every question's row too")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    check_inputs(args.kb, args.questions_dir)
    options: dict[str, Any] = {"answer": AnswerMode(args.answer)}
    if args.model:
        options["model"] = args.model
    if args.answer != AnswerMode.FACTS:
        from engine.config import Config
        from engine.llm import check_model

        check_model(Config(**options))
    hops = sorted(set(args.hops))
    start = time.perf_counter()
    rows: list[dict] = []
    load: dict = {}
    try:
        for row in run(args.kb, args.questions_dir, hops, args.split, args.limit, options,
                       lambda what: print(f"  {what} ({time.perf_counter() - start:.0f} s)", file=sys.stderr)):
            if "load_seconds" in row:
                load = row
            else:
                rows.append(row)
    except ValueError as exc:  # a malformed line of a file read
        raise BadInput(str(exc)) from None
    results = {f"{h}-hop": figures([r for r in rows if r["hop"] == h]) for h in hops}
    settings = {"split": args.split, "limit_per_hop": args.limit, "answer": args.answer, "model": args.model or "",
                **load, "seconds": round(time.perf_counter() - start, 1)}
    if args.json:
        out: dict[str, Any] = {"rows": [{"hops": n, **f} for n, f in results.items()], "settings": settings}
        if args.rows:
            out["questions"] = rows
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(table(results))
        print("published Hits@1 (trained on MetaQA's training questions; kgchat is zero-shot): "
              "KV-MemNN 96.2/82.7/48.9, GraftNet 97.0/94.8/77.2, EmbedKGQA 97.5/98.8/94.8, NSM 97.1/99.9/98.9")
        if args.limit:
            print(f"limited: {args.limit} questions per hop (--limit), spread over the split")
        print(f"settings: {json.dumps(settings)}")
    return 0
