"""Score stage helpers."""
