"""The pipeline stages and their helpers."""
