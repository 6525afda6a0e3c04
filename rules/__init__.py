"""ProbLog reasoning: the rule files (*.pl), their Python builtins, the per-turn reasoner, and
its commands (`kgchat learn`, `kgchat eval linking`, `kgchat bench reason`)."""
