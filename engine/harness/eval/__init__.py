"""Evaluations: each measures one part of kgchat against data made by code written apart from it."""
