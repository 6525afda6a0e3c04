"""Measuring code: benchmarks, evaluations and the data sets they generate."""
