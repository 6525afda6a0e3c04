"""`kgchat eval ...`: the evaluation harness, one module per evaluation."""

from cli.families import family_main

EVALUATIONS = {
    "retrieval": ("harness.eval.retrieval", "P/R/F1 and answer-fact recall of the retrieved facts against the generated "
                  "benchmarks' gold (--domain all: the out-of-domain ones too; --graphwoz FILE: a published "
                  "GraphWOZ file's answer recall)"),
    "factcheck": ("harness.eval.factcheck", "verdict accuracy per class on replies with planted claims and on "
                  "out-of-generator replies (--set planted|replies|both)"),
    "answers": ("harness.eval.answers", "replies a user is shown: contradictions left, gold values said, "
                "absent things answered 'not found' (office + out-of-domain dialogues, default model)"),
    "linking": ("harness.eval.linking", "precision@1 of refers_to for named mentions and pronouns (--graphwoz FILE: "
                "the gold entity links of a published GraphWOZ file)"),
    "paths": ("harness.eval.paths", "relation paths chosen right: gold answer facts on a chosen path, none when absent "
              "(generated out-of-domain domains + office; --lodo chooses the settings leaving each domain out)"),
    "metaqa": ("harness.eval.metaqa", "MetaQA zero-shot: the WikiMovies KB loaded once, 1-3 hop questions asked as a user "
               "would; Hits@1, any hit, all answers per hop and question type (--kb FILE --questions-dir DIR)"),
}

main = family_main("eval", EVALUATIONS)
