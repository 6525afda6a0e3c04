"""Errors caused by bad input. The CLI prints their message on one line and exits 2; the TUI
shows it in a notification. Anything else is a bug and keeps its traceback."""


class BadInput(Exception):
    """Base of every error the user can fix: the message names what was wrong."""


class LoadError(BadInput):
    """A file could not be loaded; the store was left exactly as before."""


class RemoteUnavailable(Exception):
    """A remote knowledge source (SPARQL endpoint) failed mid-session: down, too slow, or
    answering garbage. Not the user's fault: the turn goes on without it and says so."""
