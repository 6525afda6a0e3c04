"""Helpers of the generate stage."""
