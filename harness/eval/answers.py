"""`kgchat eval answers`: can a user trust the replies shown, with the default model and defaults?

Replays the test dialogues of the office benchmark (harness.office) and of the out-of-domain
benchmark (harness.ood: five domains, five file formats) through a live Session each, the
model answering every user turn (the shown reply becomes the system turn, as in the app), and
measures on what the user is shown:

- contradicted shown: the share of shown replies that still hold a contradicted claim (neither
  refined away nor replaced by kgchat's composed answer). Target 0.
- gold in reply: the share of single-relation questions (office: one request_entity_attribute
  intent; out of domain: every kind but compound and absent) whose shown reply contains the gold
  value (any of them, for a relation with several). Target >= 0.9 with `--answer auto`.
- not found: the share of questions about something the KG lacks (out of domain: kind absent, a
  person it does not have or a relation it lacks) answered "not found". Target >= 0.95. Beside
  it, its price: the share of single-relation questions the KG does answer that got "not found".
- readable (harness.eval.readable): the claims of kgchat's composed answers its own checker judges
  other than supported, and the shown replies with a "<relation label>: <value>" form or two
  sentences in a row opening with the same entity label. Target 0 for kgchat's own answers.

`--benchmarks handwritten --handwritten DIR` adds the out-of-domain companion nobody here
generated: a folder of domain folders, each with one KG file (`kg.ttl`, `kg.csv`, ...) and a
`questions.jsonl` (and a `questions_more.jsonl`) of dialogues whose last user turn is judged, the
layout of `../shared/ood/`. The earlier turns are replayed as `kgchat ask --dialogue` does: the
user's without asking the model, the system's as written ("The band has four members." before
"Who are they?"). Each kind is judged as its questions ask: single, paraphrase, asr, pronoun and
two_hop want a gold value in the shown reply; compound, multi and list_followup want every one;
absent wants "not found". Beside them, the share of answerable questions answered "not found".
A domain's `questions_compute.jsonl` (questions that count, compare, pick the most or least,
ask yes or no, filter by a value, or go three relations deep) is reported apart, per kind, and
kept out of every total: yes/no by the reply's first word; compare and superlative by its first
clause (up to ':', ';' or '.') naming the gold and none of the other candidates (the compared
entities, the subjects of the gold's facts); count by its first number; filter by the candidates
its first sentence names being the gold set; three hops by a gold value said.

One run gives both columns: `auto` is what the app shows by default; `llm` is what it would
show with `--answer llm`, read from the same turns (the model's reply, refined when it was). A
turn `auto` answered "not found" without asking the model has no model reply: it counts as
missing the gold value in the `llm` column too (those turns name nothing the KG has).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from engine.state import TurnState

OFFICE = "office"
ANY_VALUE = frozenset(("single", "paraphrase", "asr", "pronoun", "two_hop"))  # one gold value said is enough
EVERY_VALUE = frozenset(("compound", "multi", "list_followup"))  # every gold value must be said
ANSWERABLE = ANY_VALUE | EVERY_VALUE
HAND_FILES = ("questions.jsonl", "questions_more.jsonl")
# Questions that compute, judged each as it asks and reported apart: the totals above stay over
# HAND_FILES alone.
COMPUTE_FILE = "questions_compute.jsonl"
COMPUTED = frozenset(("count", "compare", "superlative", "yesno", "filter", "three_hop"))
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve")
SINGLE_INTENT = re.compile(r'^request_entity_attribute\(entity="[^"]*", attribute="(\w+)"\)$')


def norm(text: str) -> str:
    """Words, case aside; dots and colons kept inside a word (e-mails, 14:00), not at its ends."""
    words = re.sub(r"[^\w@.+:/-]+", " ", text.casefold()).split()
    return " ".join(w.strip(".:/-") for w in words if w.strip(".:/-"))


def contains(reply: str, value: str) -> bool:
    """The gold value said in the reply: as words (case and punctuation aside); a clock time
    as HH:MM."""
    from datetime import date

    from engine.nlp.sentences import MONTHS

    value = value.strip()
    if re.fullmatch(r"\d{2}:\d{2}:\d{2}", value):
        value = value[:5]
    forms = [value]
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):  # the verbalizations say dates as "20 February 1957"
        d = date.fromisoformat(value)
        forms.append(f"{d.day} {MONTHS[d.month - 1]} {d.year}")
    said = f" {norm(reply)} "
    if any(norm(v) and f" {norm(v)} " in said for v in forms):
        return True
    # A phone number said with other spacing ("4765725921" for "+47 657 25 921"): its digits.
    digits = re.sub(r"\D", "", value)
    phone = re.fullmatch(r"[+\d][\d ()-]{5,}", value) and len(forms) == 1
    return bool(phone) and digits in re.sub(r"\D", "", reply)


# --- what a turn asks -------------------------------------------------------------------------

def office_question(entry: dict, state: TurnState, store) -> tuple[str, list[str]]:
    """("single", gold values) for a one-attribute question of the office benchmark, else ("other", [])."""
    intents = entry.get("intents") or []
    m = SINGLE_INTENT.match(intents[0]) if len(intents) == 1 else None
    if not m:
        return "other", []
    attribute = m.group(1)
    values = []
    for _s, p, o in (entry.get("gold") or {}).get("edges", []):
        if p.rsplit(":", 1)[-1].rsplit("/", 1)[-1] == attribute:
            values.append(store.label(o) if re.match(r"^(urn|https?):", o) else o)
    return ("single", values) if values else ("other", [])


def ood_question(entry: dict) -> tuple[str, list[str]]:
    answer = (entry.get("gold") or {}).get("answer") or {}
    kind = answer.get("kind", "")
    if kind == "absent":
        return "absent", []
    if kind == "compound" or not answer.get("strings"):
        return "other", []
    return "single", list(answer["strings"])


def hand_question(entry: dict) -> tuple[str, list[str], list[str]]:
    """(kind as written, gold values, the other candidates a computed answer must not name) of a
    hand-written question's judged turn."""
    answer = (entry.get("gold") or {}).get("answer") or {}
    return (str(answer.get("kind", "other")), list(answer.get("strings") or []),
            list(answer.get("candidates") or []))


def handwritten(folder: str) -> dict[str, dict]:
    """{domain: dialogues} of a hand-written set, each dialogue as the replay reads it: the KG
    file, and the turns (a system turn as `system_text`), the last user turn with its gold answer
    (hand_question's shape); the dialogues of every question file of the domain (HAND_FILES)."""
    from kgstore.errors import BadInput

    root = Path(folder)
    if not root.is_dir():
        raise BadInput(f"--handwritten: {folder} is not a folder")
    out: dict[str, dict] = {}
    for first in sorted(root.glob(f"*/{HAND_FILES[0]}")):
        kgs = sorted(f for f in first.parent.glob("kg.*") if f.is_file())
        if len(kgs) != 1:
            raise BadInput(f"--handwritten: {first.parent} needs one kg.* file, has {len(kgs)}")
        dialogues = {}
        for questions in (first.parent / name for name in (*HAND_FILES, COMPUTE_FILE)):
            if questions.exists():
                dialogues.update(_hand_dialogues(questions, str(kgs[0])))
        out[first.parent.name] = dialogues
    if not out:
        raise BadInput(f"--handwritten: {folder} has no */questions.jsonl")
    return out


def _hand_dialogues(questions: Path, kg_file: str) -> dict[str, dict]:
    from kgstore.errors import BadInput

    dialogues = {}
    for n, line in enumerate(questions.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            q = json.loads(line)
            turns = [(str(t["speaker"]), str(t["text"])) for t in q["dialogue"]]
            strings = [str(v) for v in q.get("answer_contains") or []]
            kind = str(q["kind"])
            candidates = _candidates(q, strings)
        except (ValueError, KeyError, TypeError) as exc:
            raise BadInput(f"--handwritten: {questions}:{n}: not a question line ({exc})") from None
        last = max((i for i, (who, _) in enumerate(turns) if who == "user"), default=None)
        if last is None:
            raise BadInput(f"--handwritten: {questions}:{n}: no user turn")
        log = [{"manual_transcription": text} if who == "user" else {"system_text": text}
               for who, text in turns[:last + 1]]
        log[-1]["gold"] = {"answer": {"kind": kind, "strings": strings, "candidates": candidates}}
        dialogues[str(q.get("id") or f"{questions.parent.name}-{questions.stem}-{n}")] = {
            "kg_file": kg_file, "log": log, "replies": "written"}
    return dialogues


def _candidates(q: dict, gold: list[str]) -> list[str]:
    """The entities a computed question weighs besides its gold: the compared ones, and the
    subjects of the facts the gold was computed from (a superlative's class members, a filter's)."""
    check = q.get("check") or {}
    names = [str(check[k]) for k in ("a", "b") if isinstance(check.get(k), str)]
    names += [str(f["s"]) for f in q.get("answer_fact") or [] if isinstance(f, dict) and "s" in f]
    wanted = {norm(g) for g in gold}
    return list(dict.fromkeys(n for n in names if norm(n) not in wanted))


def first_clause(reply: str) -> str:
    """The reply up to its first ':', ';' or sentence end (a dot inside a number or a name's
    initial does not end it)."""
    return re.split(r"[:;]|\.(?=\s|$)|[!?]", reply.strip(), maxsplit=1)[0]


def first_number(reply: str) -> str | None:
    """The first number of the reply, as digits; a number word counts as its digits."""
    for word in re.findall(r"\d+(?:[.,]\d+)*|[^\W\d_]+", reply.casefold()):
        if word[0].isdigit():
            return word.replace(",", "")
        if word in NUMBER_WORDS:
            return str(NUMBER_WORDS.index(word))
    return None


def computed(reply: str, kind: str, values: list[str], others: Sequence[str]) -> bool | None:
    """A computed question judged as it asks: yes/no by the reply's first word; compare and
    superlative by the first clause naming the gold and no other candidate; count by the first
    number; filter by the candidates the first sentence names equalling the gold set; three hops
    by a gold value said."""
    if not values or not reply.strip():
        return False if values else None
    if kind == "yesno":
        words = norm(reply).split()
        return bool(words) and words[0] == norm(values[0])
    if kind in ("compare", "superlative"):
        clause = first_clause(reply)
        return contains(clause, values[0]) and not any(contains(clause, o) for o in others)
    if kind == "count":
        return first_number(reply) == norm(values[0])
    if kind == "filter":
        sentence = re.split(r"\.(?=\s|$)", reply.strip(), maxsplit=1)[0]
        return {v for v in (*values, *others) if contains(sentence, v)} == set(values)
    return any(contains(reply, v) for v in values)


# --- replay ------------------------------------------------------------------------------------

def said(reply: str, kind: str, values: list[str]) -> bool | None:
    """Does the reply say the gold: any value for a one-value kind, every value for compound and
    list kinds; None for a turn not judged on its value."""
    if kind not in ANSWERABLE or not values:
        return None
    return (all if kind in EVERY_VALUE else any)(contains(reply, v) for v in values)


def judge(state: TurnState, kind: str, values: list[str], others: Sequence[str] = ()) -> dict:
    """One user turn's figures, for the shown reply (auto) and the model's (llm), and what a
    reader of the shown reply stumbles on (harness.eval.readable)."""
    from harness.eval.readable import findings

    llm_reply = state.refined.response if state.refined else state.response
    llm_checks = state.refined.checks if state.refined else state.checks
    shown_checks = state.composed.checks if state.composed else llm_checks
    return {
        "kind": kind, "answer_source": state.answer_source, "shown": state.shown_reply, "model": llm_reply,
        "contradicted_shown": any(c.verdict == "contradicted" for c in shown_checks),
        "contradicted_llm": any(c.verdict == "contradicted" for c in llm_checks),
        "gold_auto": computed(state.shown_reply, kind, values, others) if kind in COMPUTED
        else said(state.shown_reply, kind, values),
        "gold_llm": computed(llm_reply, kind, values, others) if kind in COMPUTED else said(llm_reply, kind, values),
        "computed": kind in COMPUTED,
        "not_found": state.answer_source == "not_found",
        "values": values,
        **findings(state).as_row(),
    }


def replay(benchmark: str, dialogues: dict, resources: dict, limit: int | None, options: dict,
           progress: Callable[[str], None]) -> Iterator[dict]:
    from engine.session import Session
    from harness.office.replay import dialogue_configs

    for _, dialogue_id, dialogue, config in dialogue_configs(dialogues, limit, reason_timeout_ms=10_000, **options):
        session = Session.open(config, **resources)
        written = dialogue.get("replies") == "written"  # earlier replies as written, not the model's
        for entry in dialogue.get("log", []):
            if written and "system_text" in entry:
                session.system_turn(entry["system_text"])
                continue
            text = entry.get("manual_transcription") or ""
            if not text.strip():
                continue
            if written and not entry.get("gold"):
                session.user_turn(text, answer=False)
                continue
            state = session.user_turn(text)
            others: list[str] = []  # values of the other things a hand-written question names
            if benchmark == OFFICE:
                kind, values = office_question(entry, state, session.ctx.background)
            elif written:
                kind, values, others = hand_question(entry)
            else:
                kind, values = ood_question(entry)
            yield {"benchmark": benchmark, "dialogue": dialogue_id, "text": text,
                   **judge(state, kind, values, others)}
            for name in ("llm", "encoder", "scorer"):  # built once (at the first turn), shared by every session
                if name in session.ctx.resources:
                    resources.setdefault(name, session.ctx.resources[name])
        progress(f"{benchmark}: {dialogue_id}")


def share(rows: list[dict], key: str, where: Callable[[dict], bool] = lambda r: True) -> dict:
    picked = [r for r in rows if where(r)]
    hits = sum(bool(r[key]) for r in picked)
    return {"value": round(hits / len(picked), 4) if picked else None, "n": len(picked), "hits": hits}


def figures(every: list[dict]) -> dict:
    from harness.eval.readable import totals

    rows = [r for r in every if not r.get("computed")]
    shown = lambda r: bool(r["shown"])  # noqa: E731
    single = lambda r: r["kind"] in ANSWERABLE  # noqa: E731
    kinds = sorted({r["kind"] for r in rows} - {"other"})
    return {
        "turns": len(rows),
        "contradicted_shown_auto": share(rows, "contradicted_shown", shown),
        "contradicted_shown_llm": share(rows, "contradicted_llm", lambda r: bool(r["model"])),
        "gold_in_reply_auto": share(rows, "gold_auto", single),
        "gold_in_reply_llm": share(rows, "gold_llm", single),
        "absent_not_found_auto": share(rows, "not_found", lambda r: r["kind"] == "absent"),
        # The price of saying "not found": single-relation questions the KG answers that got it.
        "answerable_not_found_auto": share(rows, "not_found", single),
        "answer_sources": {s: sum(r["answer_source"] == s for r in rows) for s in ("llm", "facts", "not_found", "")},
        # Per kind: the gold said (answerable kinds) or "not found" said (absent).
        "by_kind": {k: share(rows, "not_found" if k == "absent" else "gold_auto", lambda r, k=k: r["kind"] == k)
                    for k in kinds},
        # Computed questions apart, each kind judged as it asks (computed()).
        "computed_by_kind": {k: share(every, "gold_auto", lambda r, k=k: r["kind"] == k)
                             for k in sorted({r["kind"] for r in every if r.get("computed")})},
        # Over every turn, computed ones too: the checker's verdicts on kgchat's own answers and
        # what reads as a database row (targets 0 for kgchat's own).
        "readable": totals(every),
    }


def table(results: dict[str, dict]) -> str:
    def cell(f: dict) -> str:
        return "–" if f["value"] is None else f"{f['value']:.3f} ({f['hits']}/{f['n']})"

    head = ("| benchmark | turns | contradicted shown: auto | llm | gold value in reply: auto | llm "
            "| absent → not found (auto) | answerable → not found (auto) |")
    lines = [head, "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, f in results.items():
        lines.append(f"| {name} | {f['turns']} | {cell(f['contradicted_shown_auto'])} | "
                     f"{cell(f['contradicted_shown_llm'])} | {cell(f['gold_in_reply_auto'])} | "
                     f"{cell(f['gold_in_reply_llm'])} | {cell(f['absent_not_found_auto'])} | "
                     f"{cell(f['answerable_not_found_auto'])} |")
    by_kind = {name: f["by_kind"] for name, f in results.items() if len(f.get("by_kind", {})) > 2}
    if by_kind:
        kinds = sorted({k for f in by_kind.values() for k in f})
        lines += ["", "| benchmark | " + " | ".join(kinds) + " |", "| --- |" + " --- |" * len(kinds)]
        lines += [f"| {name} | " + " | ".join(cell(f[k]) if k in f else "–" for k in kinds) + " |"
                  for name, f in by_kind.items()]
    by_computed = {name: f["computed_by_kind"] for name, f in results.items() if f.get("computed_by_kind")}
    if by_computed:
        kinds = sorted({k for f in by_computed.values() for k in f})
        lines += ["", "| benchmark (computed) | " + " | ".join(kinds) + " |", "| --- |" + " --- |" * len(kinds)]
        lines += [f"| {name} | " + " | ".join(cell(f[k]) if k in f else "–" for k in kinds) + " |"
                  for name, f in by_computed.items()]
    return "\n".join(lines)


def main(argv: list[str], command: str = "eval answers") -> int:
    parser = argparse.ArgumentParser(prog=f"kgchat {command}", description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=("train", "dev", "test"), default="test")
    parser.add_argument("--limit", type=int, metavar="N",
                        help="only the first N dialogues of the office benchmark and of each out-of-domain domain")
    parser.add_argument("--benchmarks", nargs="+", default=["office", "ood"], choices=("office", "ood", "handwritten"))
    parser.add_argument("--handwritten", metavar="DIR",
                        help="with --benchmarks handwritten: the hand-written set's folder (such as ../shared/ood)")
    parser.add_argument("--domains", nargs="+", metavar="DOMAIN", help="out-of-domain domains (default: all)")
    parser.add_argument("--model", metavar="PATH.gguf", help="GGUF model (default: the default model)")
    parser.add_argument("--rows", action="store_true", help="with --json: every turn's row too")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    from kgstore.errors import BadInput

    if args.limit is not None and args.limit < 1:
        raise BadInput("--limit: must be at least 1")
    options = {"model": args.model} if args.model else {}
    from engine.config import Config
    from engine.llm import check_model

    check_model(Config(**options))
    benchmarks: list[tuple[str, str, dict]] = []  # (row name, benchmark kind, dialogues)
    if "office" in args.benchmarks:
        from harness.office import load_split

        benchmarks.append((OFFICE, OFFICE, load_split(args.split)))
    if "ood" in args.benchmarks:
        from harness import ood

        domains = args.domains or ood.domains()
        unknown = sorted(set(domains) - set(ood.domains()))
        if unknown:
            raise BadInput(f"--domains: unknown domain(s) {', '.join(unknown)} (known: {', '.join(ood.domains())})")
        benchmarks += [(f"ood:{d}", "ood", ood.load_split(d, args.split)) for d in domains]
    if "handwritten" in args.benchmarks:
        if not args.handwritten:
            raise BadInput("--benchmarks handwritten: give the set's folder with --handwritten DIR")
        benchmarks += [(f"hand:{d}", "ood", dialogues) for d, dialogues in handwritten(args.handwritten).items()]
    resources: dict = {}
    rows: list[dict] = []
    start = time.perf_counter()
    for name, kind, dialogues in benchmarks:
        for row in replay(kind if kind == OFFICE else name, dialogues, resources, args.limit, options,
                          lambda what: print(f"  {what} ({time.perf_counter() - start:.0f} s)", file=sys.stderr)):
            row["benchmark"] = name
            rows.append(row)
    results = {name: figures([r for r in rows if r["benchmark"] == name]) for name, _, _ in benchmarks}
    for prefix, total in (("ood:", "ood (all domains)"), ("hand:", "handwritten (all domains)")):
        if part := [r for r in rows if r["benchmark"].startswith(prefix)]:
            results[total] = figures(part)
    results["all"] = figures(rows)
    settings = {"split": args.split, "limit_dialogues_per_benchmark": args.limit,
                "dialogues": {name: (min(len(d), args.limit) if args.limit else len(d)) for name, _, d in benchmarks},
                "model": getattr(resources.get("llm"), "name", ""), "answer": "auto (llm column from the same turns)",
                "seconds": round(time.perf_counter() - start, 1)}
    if args.json:
        out = {"rows": [{"benchmark": n, **f} for n, f in results.items()], "settings": settings}
        if args.rows:
            out["turns"] = rows
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(table(results))
        for name, f in results.items():
            print(f"readable {name}: {json.dumps(f['readable'])}")
        print("targets: contradicted shown (auto) = 0; gold value in reply (auto) >= 0.9; absent → not found >= 0.95")
        if args.limit:
            print(f"limited: the first {args.limit} dialogues of each benchmark/domain (--limit), not the whole split")
        print(f"settings: {json.dumps(settings)}")
    return 0
