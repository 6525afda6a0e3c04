"""Building a structure of 10^5 or more small objects at once (a table's rows, the name index
of its labels) without the cyclic garbage collector: each of its full passes walks every object
alive, and the allocations of such a build set off several, which took more time than the build
(the name index of a 10^5-row table: 2.7 s, 1.1 s without them). Nothing built there is a cycle
to collect; the collector runs again as usual after it. A turn runs so too (engine.session), and
what lives as long as the background is left out of the full passes once prepared (`settle`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def settle() -> None:
    """Take what is alive now out of the collector's full passes (`gc.freeze`), after one last
    collection: the store's name index, caches and models, built once and kept, are a few 10^5
    objects that every full pass of a turn walked again (a quarter of a MetaQA turn's CPU).
    Objects still go when nothing refers to them; only a cycle among them would stay, so a new
    load first gives them back to the collector (`unsettle`), and so does every settling."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def unsettle() -> None:
    gc.unfreeze()
