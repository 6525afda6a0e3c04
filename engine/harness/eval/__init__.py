"""Evaluations (`kgchat eval ...`)."""
