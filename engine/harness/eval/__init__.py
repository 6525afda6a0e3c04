"""Evaluations of kgchat against benchmarks made by separate code."""
