"""`kgchat eval ...`: the evaluation harness, one module per evaluation."""

from engine.subcommands import family_main

EVALUATIONS = {
    "retrieval": ("engine.eval_retrieval", "P/R/F1 of retrieved nodes+edges against the generated benchmark's gold"),
    "factcheck": ("engine.eval_factcheck", "verdict accuracy per class on replies with planted claims"),
    "linking": ("rules.eval_linking", "precision@1 of refers_to for named mentions and pronouns"),
    "answers": ("engine.harness.eval.answers", "replies a user is shown: contradictions left, gold values said, "
                "absent things answered 'not found' (office + out-of-domain dialogues, default model)"),
}

main = family_main("eval", EVALUATIONS)
