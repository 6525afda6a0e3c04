"""Measuring code: benchmark generators, evaluations, benchmarks and data sets made by code."""
