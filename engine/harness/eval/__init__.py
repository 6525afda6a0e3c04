"""Evaluations: data sets written apart from the code they measure."""
