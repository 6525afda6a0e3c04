"""Errors caused by bad input. The CLI prints their message on one line and exits 2; the TUI
shows it in a notification. Anything else is a bug and keeps its traceback."""


class BadInput(Exception):
    """Base of every error the user can fix: the message names what was wrong."""


class LoadError(BadInput):
    """A file could not be loaded; the store was left exactly as before."""
