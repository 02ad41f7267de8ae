"""The garbage collector of a serving process (`boardchat run`, issue 23).

A move makes thousands of short-lived dicts and lists (the state loaded from JSON, the
view, the wording), and with CPython's default thresholds (700, 10, 10) the collector ran
about once per ten moves and, every few hundred moves, a full collection through every
object the process holds: the modules, the games' data, the translation catalogs, asyncpg's
and the platforms' libraries, some 40,000 objects that live as long as the process. Measured
on the 2-core machine (2026-11-29, bench/table_latency.py `--moves 8000 --games 400`, the
collector's CPU time taken with `gc.callbacks`): a PostgreSQL worker of 2,000 moves spent
0.075-0.080 s in it (about 39 µs a move, 4-5 % of its CPU), two or three full collections of
about 20 ms each, every one a pause inside some move; after `settle` 0.009-0.014 s, with one full
collection, 4-9 ms, of the 8,000 objects made since startup (the slowest move 30.7 -> 6.3 ms
in that pair of runs). On SQLite fewer objects outlive a move: 6 µs a move before, less after.

`settle()`, once the table is open: a last full collection, then `gc.freeze()` moves what
survived (what startup built) to the permanent generation, which no collection walks again;
and a larger first generation, so the young objects of several moves are looked at at once.
Reference counting still frees nearly everything at once; only cycles wait for the
collector, and the engine's and the table's data make none that matter.
"""

from __future__ import annotations

import gc

# The first generation's allocation threshold (CPython's default 700): about a hundred moves'
# surviving containers; each young collection walks them in well under a millisecond.
YOUNG = 10_000
# How many collections of each generation trigger one of the next (CPython's 10 and 10).
MIDDLE = 20
OLD = 20


def settle() -> None:
    """Freeze what startup built and set the thresholds of a serving process. Idempotent:
    objects frozen once stay frozen; the thresholds are set again."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, OLD)
