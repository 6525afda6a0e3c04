"""Evaluations of the pipeline against generated gold."""
