"""`kgchat learn`: re-estimate the entity-linking rule weights from gold links (ProbLog LFI).

The train dialogues of the generated benchmark (or any GraphWOZ-format file whose user turns
carry `gold.links`) are replayed as in the app; every user turn's linking program (its
mentions, candidates, earlier links) becomes part of one ProbLog program, and every linked
mention an interpretation: `refers_to(mention, gold entity)` true, `refers_to(mention, other)`
false for the other entities the rules considered. Learning from interpretations
(`problog.learning.lfi`, expectation maximisation) then fits every weight of
`entity_linking.pl`, starting from the current ones. `--out FILE` writes the rule file with the
learned weights; pass it back with `--rules FILE` (a file named entity_linking.pl replaces the
built-in one).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine.options import ArgumentParser, positive_int
from rules.reasoner import BUILTINS_MODULE, INPUT_PREDICATES, RULES_DIR
from rules.similarity import encode

WEIGHT = re.compile(r"^(\d*\.\d+)::", re.M)


def tunable(rule_text: str) -> str:
    """The rule file with every weight `p::` turned into LFI's `t(p)::`."""
    return WEIGHT.sub(lambda m: f"t({m.group(1)})::", rule_text)


def with_weights(rule_text: str, weights: list[float]) -> str:
    """The rule file with its weights, in order of appearance, replaced by `weights`."""
    it = iter(weights)
    return WEIGHT.sub(lambda m: f"{next(it):.4f}::", rule_text)


def collect(dialogues: dict[str, dict], limit: int | None, rules_file: Path):
    """(program text of every linking program, examples) from replaying the dialogues."""
    from problog.logic import Term

    from engine.pipeline import run_stages
    from engine.session import Session
    from engine.stages import observe, reason
    from engine.stages.reason import TurnInput, build_program, rules_of
    from harness.office.replay import dialogue_configs

    programs: list[str] = []
    examples: list[list[tuple]] = []
    replay = dialogue_configs(dialogues, limit, reason_timeout_ms=20000, rules=[str(rules_file)])
    for n, _, dialogue, config in replay:
        # Each dialogue its own session id, so mention constants never collide across them.
        session = Session.open(config, session_id=f"learn{n}")
        for entry in dialogue.get("log", []):
            text = entry.get("manual_transcription") or ""
            state = session.new_state(text)
            run_stages(state, session.ctx, (observe.run,))
            inp = TurnInput(state.session_id, state.turn, state.turn_iri, state.mentions, state.now,
                            state.speaker_entity, derive=False, text=state.text)
            prog = build_program(session.ctx, rules_of(session.ctx), inp)
            prog.queries.clear()
            run_stages(state, session.ctx, (reason.run,))
            evidence = []
            for g in (entry.get("gold") or {}).get("links", []):
                m = next((m for m in state.mentions if m.kind != "time" and m.start < g["end"]
                          and g["start"] < m.end), None)
                if m is None or not g.get("entity"):
                    continue
                others = {e for e, _ in m.candidates} - {g["entity"]}
                if g["entity"] not in {e for e, _ in m.candidates} and m.kind == "name":
                    continue  # the name matcher never offered it: nothing to learn here
                evidence.append((Term("refers_to", Term(encode(m.iri)), Term(encode(g["entity"]))), True))
                evidence += [(Term("refers_to", Term(encode(m.iri)), Term(encode(e))), False) for e in sorted(others)]
            if evidence:
                programs.append(prog.render())
                examples.append(evidence)
            session.history.append(("user", text))
            if entry.get("agent_response"):
                session.system_turn(entry["agent_response"])
    return programs, examples


def learn(rule_text: str, programs: list[str], examples: list, max_iter: int):
    from problog.learning.lfi import run_lfi
    from problog.program import PrologString

    stubs = "\n".join(f"{name}({', '.join('_' for _ in range(arity))}) :- fail." for name, arity in INPUT_PREDICATES)
    source = (f":- use_module('{BUILTINS_MODULE.as_posix()}').\n{stubs}\n{tunable(rule_text)}\n" + "\n".join(programs))
    score, weights, names, iterations, _ = run_lfi(PrologString(source), examples, max_iter=max_iter)
    return score, [float(w) for w in weights], [str(n) for n in names], iterations


def main(argv: list[str], command: str = "learn") -> int:
    from kgstore.errors import BadInput

    parser = ArgumentParser(prog=f"kgchat {command}", description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="train", choices=("train", "dev", "test"),
                        help="generated benchmark split to learn from (default train)")
    parser.add_argument("--dialogues", metavar="FILE", help="GraphWOZ-format JSON with gold links instead")
    parser.add_argument("--limit", type=positive_int, default=12, help="dialogues to learn from (default 12)")
    parser.add_argument("--rules", default=str(RULES_DIR / "entity_linking.pl"), metavar="FILE.pl",
                        help="the linking rules to start from (default the built-in ones)")
    parser.add_argument("--max-iter", type=positive_int, default=15, help="EM iterations (default 15)")
    parser.add_argument("--out", metavar="FILE.pl", help="write the rule file with the learned weights")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.limit <= 0:
        raise BadInput("--limit: must be a positive number of dialogues")
    if args.out and not Path(args.out).resolve().parent.is_dir():
        raise BadInput(f"--out {args.out}: its directory does not exist")
    rules_file = Path(args.rules)
    if rules_file.name != "entity_linking.pl":
        raise BadInput(f"--rules {rules_file}: must be an entity_linking.pl (it replaces the built-in one)")
    from rules.reasoner import parse_rule_file

    rule_text = parse_rule_file(rules_file)
    if args.dialogues:
        try:
            dialogues = json.loads(Path(args.dialogues).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise BadInput(f"--dialogues {args.dialogues}: cannot read GraphWOZ JSON: {exc}") from None
    else:
        from harness.office import load_split

        dialogues = load_split(args.split)
    programs, examples = collect(dialogues, args.limit, rules_file)
    if not examples:
        raise BadInput("no user turn with gold links to learn from")
    score, weights, names, iterations = learn(rule_text, programs, examples, args.max_iter)
    start = [float(m.group(1)) for m in WEIGHT.finditer(rule_text)]
    rows = [{"rule": n, "start": s, "learned": round(w, 4)} for n, s, w in zip(names, start, weights, strict=False)]
    if args.out:
        Path(args.out).write_text(with_weights(rule_text, weights), encoding="utf-8")
    if args.json:
        print(json.dumps({"rows": rows, "log_likelihood": score, "iterations": iterations,
                          "examples": len(examples), "dialogues": min(args.limit, len(dialogues)), "out": args.out}))
        return 0
    print(f"learned from {len(examples)} turns of {min(args.limit, len(dialogues))} dialogues, "
          f"{iterations} EM iterations, log-likelihood {score:.3f}")
    for r in rows:
        print(f"  {r['start']:.3f} -> {r['learned']:.4f}  {r['rule']}")
    if args.out:
        print(f"wrote {args.out}; use it with --rules {args.out}")
    return 0
