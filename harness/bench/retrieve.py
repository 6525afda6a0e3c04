"""`kgchat bench retrieve`: retrieval latency per user turn on the office KG and on a
1,000,000-triple Wikidata-style KG.

Timed per turn: plan, candidates, verbalize, score (features + the ONNX model), route (the
relation paths) and retrieve (PCST) — everything between reasoning and generation. Mentions come already linked (the
office turns take the benchmark's gold links, the Wikidata turns name their entities), so
reasoning is left out by construction. The encoder and the scorer are built before timing;
the embedding cache starts empty for each KG, so first turns on a world pay for encoding
(their mean is also reported apart as "cold"; p50 and p90 are over all turns). The
Wikidata-style turns are short dialogues like the office ones: a topic entity, follow-ups on
it, then a related entity. The office KG is measured twice: with that empty cache, and with
the cache prefetched at load (`engine.prefetch.prefetch`, small KGs only; its time is
reported per world).

Office KG: the worlds of the generated benchmark's test split (about 1,000 triples each),
dialogues replayed with their system turns. Wikidata-style KG: generated here with a seed
(humans, films, places, athletes, with the usual noise properties), written as N-Triples,
bulk-loaded once into a temporary on-disk store.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from datetime import datetime
from pathlib import Path

from engine.context import TurnContext
from engine.options import ArgumentParser, nonnegative_int, positive_int
from engine.pipeline import run_stages, stage_name
from engine.stages import candidates, plan, retrieve, route, score, verbalize
from engine.state import Focus, Mention, TurnState
from harness.timing import percentile
from kgstore.errors import BadInput

STAGES = (plan.run, candidates.run, verbalize.run, score.run, route.run, retrieve.run)
WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
XSD_DATE = "http://www.w3.org/2001/XMLSchema#date"


def timed_turn(ctx: TurnContext, session_id: str, turn: int, text: str, links: list[tuple[str, str]],
               history: list[tuple[str, str]], now: datetime, focus: Focus,
               stages: dict[str, list[float]] | None = None) -> float:
    """Milliseconds of the retrieval stages for one user turn; `focus` is the session's (what
    earlier turns linked); `stages` collects each stage's."""
    state = TurnState(session_id=session_id, turn=turn, text=text, now=now, history=list(history), focus=focus)
    state.rewritten = text
    for mention, iri in links:
        start = max(text.find(mention), 0)
        state.mentions.append(Mention(mention, start, start + len(mention), "name", entity=iri, p=1.0))
    start = time.perf_counter()
    run_stages(state, ctx, STAGES)
    ms = (time.perf_counter() - start) * 1000.0
    if stages is not None:
        for run in STAGES:
            stages.setdefault(stage_name(run), []).append(state.timings_ms.get(stage_name(run), 0.0))
    return ms


def summary(times: list[float], cold: list[float], stages: dict[str, list[float]]) -> dict:
    return {"stage_p50_ms": {k: round(statistics.median(v), 1) for k, v in stages.items()},"turns": len(times), "p50_ms": round(statistics.median(times), 1), "p90_ms": round(percentile(times, 0.9), 1),
            "mean_ms": round(statistics.fmean(times), 1),
            "cold_turns": len(cold), "cold_mean_ms": round(statistics.fmean(cold), 1) if cold else None}


def shared_resources() -> dict:
    from engine.nlp.encoder import Encoder
    from engine.nlp.relevance import RelevanceModel

    encoder = Encoder()
    encoder.encode(["warm up the encoder"])
    return {"encoder": encoder, "scorer": RelevanceModel()}


def bench_office(dialogues: int, resources: dict, warm: bool = False) -> dict:
    """Replay test-split dialogues; `warm` first runs `engine.prefetch.prefetch` on each world
    (timed apart), else every world starts with an empty embedding cache."""
    from engine.config import Config
    from engine.nlp.encoder import Encoder
    from engine.prefetch import prefetch
    from engine.setup import build_context
    from harness.office import load_split

    split = load_split("test")
    times: list[float] = []
    cold: list[float] = []
    triples: list[int] = []
    prefetch_s: list[float] = []
    stages: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="kgchat-bench-") as tmp:
        for n, (dialogue_id, d) in enumerate(list(split.items())[:dialogues]):
            path = Path(tmp) / f"{n}.json"
            path.write_text(json.dumps({dialogue_id: d}), encoding="utf-8")
            ctx = build_context(Config(kg=[str(path)], dialogue_id=dialogue_id, memory=True, demo="none"))
            # A fresh cache per world (the loaded model is shared).
            ctx.resources.update(resources, encoder=Encoder())
            ctx.resources["encoder"]._model = resources["encoder"].model
            triples.append(ctx.store.count())
            if warm:
                start = time.perf_counter()
                prefetch(ctx)
                prefetch_s.append(time.perf_counter() - start)
            history: list[tuple[str, str]] = []
            focus = Focus()
            now = datetime.fromisoformat(d["now"])
            for i, entry in enumerate(d["log"]):
                text = entry["manual_transcription"]
                links = [(g["mention"], g["entity"]) for g in entry["gold"]["links"] if g.get("entity")]
                ms = timed_turn(ctx, dialogue_id, len(history) + 1, text, links, history, now, focus, stages)
                times.append(ms)
                if i == 0 and not warm:
                    cold.append(ms)
                history.append(("user", text))
                if entry.get("agent_response"):
                    history.append(("system", entry["agent_response"]))
    out = {**summary(times, cold, stages), "worlds": len(triples), "triples_per_world": round(statistics.fmean(triples))}
    if warm:
        out["prefetch_s_per_world"] = round(statistics.fmean(prefetch_s), 1)
    return out


def write_wikidata_kg(path: Path, target: int, seed: int) -> tuple[int, dict]:
    """A Wikidata-style N-Triples file of about `target` triples; returns the count and the
    entities the benchmark turns mention."""
    rng = random.Random(seed)
    count = 0
    out = path.open("w", encoding="utf-8")

    def t(s: str, p: str, o: str) -> None:
        nonlocal count
        out.write(f"<{WD}{s}> <{WDT}{p}> <{WD}{o}> .\n")
        count += 1

    def label(s: str, text: str) -> None:
        nonlocal count
        out.write(f'<{WD}{s}> <{LABEL}> "{text}"@en .\n')
        count += 1

    def lit(s: str, p: str, value: str, dt: str | None = None) -> None:
        nonlocal count
        out.write(f'<{WD}{s}> <{WDT}{p}> "{value}"' + (f"^^<{dt}>" if dt else "") + " .\n")
        count += 1

    for q, name in (("Q5", "human"), ("Q11424", "film"), ("Q515", "city"), ("Q6256", "country"),
                    ("Q12973014", "sports team"), ("Q201658", "film genre"), ("Q28640", "profession"),
                    ("Q202444", "given name"), ("Q101352", "family name"), ("Q349", "sport"),
                    ("Q6581097", "male"), ("Q6581072", "female"), ("Q17329259", "encyclopedic article")):
        label(q, name)
    nid = iter(range(1_000_000, 10_000_000))
    syll = ["ka", "lo", "mi", "ra", "to", "ne", "sa", "vi", "du", "pe", "jo", "an", "el", "or", "is", "ur"]

    def word(k: int = 2) -> str:
        return "".join(rng.choice(syll) for _ in range(k + rng.randrange(2))).capitalize()

    def make(kind_q: str, name: str) -> str:
        q = f"Q{next(nid)}"
        label(q, name)
        t(q, "P31", kind_q)
        return q

    countries = [make("Q6256", f"{word(3)}land") for _ in range(40)]
    cities = []
    for _ in range(3000):
        c = make("Q515", f"{word(2)} {word(2)}")
        t(c, "P17", rng.choice(countries))
        lit(c, "P1082", str(rng.randrange(5_000, 3_000_000)))
        cities.append(c)
    jobs = [make("Q28640", w) for w in ("actor", "film director", "screenwriter", "athlete", "singer", "painter",
                                         "politician", "writer", "producer", "composer", "journalist", "engineer")]
    genres = [make("Q201658", f"{w} film") for w in ("drama", "comedy", "thriller", "documentary", "western",
                                                     "science fiction", "horror", "musical", "animated")]
    sports = [make("Q349", w) for w in ("association football", "basketball", "tennis", "ice hockey", "cycling")]
    sources = [make("Q17329259", f"{word(3)} Encyclopedia") for _ in range(20)]
    given = [make("Q202444", word(2)) for _ in range(800)]
    family = [make("Q101352", word(3)) for _ in range(3000)]
    teams = [make("Q12973014", f"FC {word(2)}") for _ in range(400)]
    for team in teams:
        t(team, "P641", rng.choice(sports))
        t(team, "P17", rng.choice(countries))
    humans: list[str] = []
    films: list[str] = []
    born: dict[str, str] = {}
    directed: dict[str, str] = {}
    athletes: list[str] = []
    while count < target:
        g, f = rng.randrange(len(given)), rng.randrange(len(family))
        h = f"Q{next(nid)}"
        label(h, f"{word(2)} {word(3)}")
        t(h, "P31", "Q5")
        t(h, "P21", rng.choice(("Q6581097", "Q6581072")))
        t(h, "P735", given[g])
        t(h, "P734", family[f])
        t(h, "P27", rng.choice(countries))
        born[h] = rng.choice(cities)
        t(h, "P19", born[h])
        t(h, "P106", rng.choice(jobs))
        t(h, "P1343", rng.choice(sources))
        lit(h, "P569", f"{rng.randrange(1920, 2005)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}", XSD_DATE)
        humans.append(h)
        if rng.random() < 0.15:
            t(h, "P641", rng.choice(sports))
            t(h, "P54", rng.choice(teams))
            athletes.append(h)
        if len(humans) > 50 and rng.random() < 0.3:
            film = make("Q11424", f"The {word(2)} of {word(3)}")
            directed[film] = rng.choice(humans[-5000:])
            t(film, "P57", directed[film])
            for actor in rng.sample(humans[-5000:], 4):
                t(film, "P161", actor)
            t(film, "P136", rng.choice(genres))
            t(film, "P495", rng.choice(countries))
            t(film, "P1343", rng.choice(sources))
            lit(film, "P577", f"{rng.randrange(1950, 2025)}-01-01", XSD_DATE)
            films.append(film)
    out.close()
    return count, {"humans": humans, "films": films, "athletes": athletes, "cities": cities, "countries": countries,
                   "born": born, "directed": directed}


def wikidata_turns(ents: dict, n: int, seed: int) -> list[tuple[str, list[str]]]:
    """Short dialogues shaped like the office ones: a topic entity, follow-ups on it (their
    pronouns already resolved, as the office turns' gold links are), then a related entity."""
    rng = random.Random(seed)
    out: list[tuple[str, list[str]]] = []
    if not (ents["films"] or ents["athletes"] or ents["humans"]):
        raise BadInput("bench retrieve: the generated KG is too small to hold a film or a person (raise --triples)")
    while len(out) < n:
        if ents["films"] and (rng.random() < 0.5 or not (ents["athletes"] or ents["humans"])):
            film = rng.choice(ents["films"])
            director = ents["directed"][film]
            out += [("Tell me about {0}.", [film]), ("Who directed it, and when was it released?", [film]),
                    ("Where was {0} born?", [director]), ("What does he do for a living?", [director])]
        else:
            person = rng.choice(ents["athletes"] or ents["humans"])
            city = ents["born"][person]
            out += [("Where was {0} born?", [person]), ("Which team does she play for?", [person]),
                    ("Which country is {0} in?", [city]), ("How many people live there?", [city])]
    return out[:n]


def bench_wikidata(triples: int, turns: int, resources: dict, seed: int) -> dict:
    from engine.config import Config
    from engine.context import TurnContext
    from engine.nlp.encoder import Encoder
    from kgstore import KGStore

    with tempfile.TemporaryDirectory(prefix="kgchat-bench-wd-") as tmp:
        nt = Path(tmp) / "wikidata_style.nt"
        start = time.perf_counter()
        written, ents = write_wikidata_kg(nt, triples, seed)
        gen_s = time.perf_counter() - start
        store = KGStore(str(Path(tmp) / "store"))
        start = time.perf_counter()
        report = store.load(str(nt))
        load_s = time.perf_counter() - start
        nt.unlink()
        ctx = TurnContext(config=Config(store=str(Path(tmp) / "store")), store=store, background=store)
        ctx.resources.update(resources, encoder=Encoder())
        ctx.resources["encoder"]._model = resources["encoder"].model
        times: list[float] = []
        cold: list[float] = []
        stages: dict[str, list[float]] = {}
        history: list[tuple[str, str]] = []
        focus = Focus()
        now = datetime(2026, 3, 2, 9)
        for i, (template, iris) in enumerate(wikidata_turns(ents, turns, seed)):
            labels = [store.label(WD + iri) for iri in iris]
            text = template.format(*labels)
            if "{0}" not in template:  # a follow-up: the pronoun stands for the entity
                labels = [next((w for w in ("it", "he", "she", "there") if f" {w}" in f" {template}"), labels[0])]
            links = [(lab, WD + iri) for lab, iri in zip(labels, iris, strict=False)]
            ms = timed_turn(ctx, "wd", len(history) + 1, text, links, history, now, focus, stages)
            times.append(ms)
            if i == 0:
                cold.append(ms)
            history.append(("user", text))
        total = store.count()
        # the store closes when its last reference goes (the context holds one too); removing its
        # folder while it is open raced with its background writes ("Directory not empty")
        del ctx, store
    return {**summary(times, cold, stages), "triples": total, "generate_s": round(gen_s, 1), "bulk_load_s": round(load_s, 1),
            "bulk": bool(getattr(report, "bulk", False))}


def main(argv: list[str], command: str = "bench retrieve") -> int:
    parser = ArgumentParser(prog=f"kgchat {command}", description=__doc__.split("\n")[0])
    parser.add_argument("--dialogues", type=positive_int, default=10, help="office dialogues (test split) to replay")
    parser.add_argument("--triples", type=positive_int, default=1_000_000, help="size of the Wikidata-style KG")
    parser.add_argument("--turns", type=positive_int, default=60, help="turns on the Wikidata-style KG")
    parser.add_argument("--seed", type=nonnegative_int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    resources = shared_resources()
    office = bench_office(args.dialogues, resources)
    office_warm = bench_office(args.dialogues, resources, warm=True)
    if not args.json:
        print(f"office KG, empty cache per world: p50 {office['p50_ms']} ms/turn (p90 {office['p90_ms']}; "
              f"{office['turns']} turns over {office['worlds']} worlds of ~{office['triples_per_world']} "
              f"triples; first turns mean {office['cold_mean_ms']} ms)", flush=True)
        print(f"office KG, cache prefetched at load ({office_warm['prefetch_s_per_world']} s per world): "
              f"p50 {office_warm['p50_ms']} ms/turn (p90 {office_warm['p90_ms']}, {office_warm['turns']} turns)", flush=True)
        print(f"  per stage p50 (ms): empty cache {office['stage_p50_ms']}; prefetched {office_warm['stage_p50_ms']}")
    wikidata = bench_wikidata(args.triples, args.turns, resources, args.seed)
    ratio = round(wikidata["p50_ms"] / office["p50_ms"], 2) if office["p50_ms"] else None
    result = {"office": office, "office_prefetched": office_warm, "wikidata": wikidata, "ratio_p50": ratio,
              "targets": {"office_p50_ms_max": 100, "ratio_max": 2.0},
              "settings": {"stages": [stage_name(run) for run in STAGES], "scorer": "learned", "retriever": "pcst",
                           "scorer_device": resources["scorer"].device,
                           "encoder_device": getattr(resources["encoder"].model, "device", "CPU"), "seed": args.seed}}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"Wikidata-style KG: p50 {wikidata['p50_ms']} ms/turn (p90 {wikidata['p90_ms']}, {wikidata['turns']} "
              f"turns; {wikidata['triples']} triples, generated in {wikidata['generate_s']} s, bulk-loaded in "
              f"{wikidata['bulk_load_s']} s; cold first turn {wikidata['cold_mean_ms']} ms)")
        print(f"  per stage p50 (ms): {wikidata['stage_p50_ms']}")
        print(f"ratio Wikidata / office (empty cache) p50: {ratio} (target ≤ 2.0); office p50 target ≤ 100 ms")
    return 0
