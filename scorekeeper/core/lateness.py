"""Which tables of a tournament round the organiser's board flags as late
(docs/tournaments.md, "The board").

A flag must mean "go and look at that table", so it waits for evidence: nothing is late
in a round's first ``GRACE``; after it, an unfinished table is late when it has been
quiet for ``QUIET`` (no hand since its last one, or since the round started if it has
none yet), or when it is both ``BEHIND_HANDS`` hands and at least ``BEHIND`` of its
hands behind the round's median table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from statistics import median

#: No table is late this soon after its round started.
GRACE = timedelta(minutes=15)
#: A table without a new hand for this long is late.
QUIET = timedelta(minutes=15)
#: Behind the median by at least this many hands...
BEHIND_HANDS = 2
#: ...and by at least this share of the hands it plays.
BEHIND = Fraction(1, 4)


@dataclass(frozen=True, slots=True)
class TableProgress:
    """One table of the round: hands played and due, finished, when its last hand came."""

    hands: int
    due: int
    finished: bool
    last_hand_at: datetime | None


def late(tables: Sequence[TableProgress], started_at: datetime, now: datetime) -> list[bool]:
    """For each of ``tables`` (of a round started at ``started_at``), whether it is late.

    >>> t0 = datetime(2026, 11, 28, 14, 0)
    >>> playing = TableProgress(6, 16, False, t0 + timedelta(minutes=19))
    >>> stuck = TableProgress(1, 16, False, t0 + timedelta(minutes=3))
    >>> late([playing, playing, stuck], t0, t0 + timedelta(minutes=10))
    [False, False, False]
    >>> late([playing, playing, stuck], t0, t0 + timedelta(minutes=20))
    [False, False, True]
    """
    if now - started_at < GRACE or not tables:
        return [False] * len(tables)
    middle = median(Fraction(t.hands, t.due or 1) for t in tables)
    middle_hands = median(t.hands for t in tables)
    out = []
    for table in tables:
        quiet = now - (table.last_hand_at or started_at) > QUIET
        share = Fraction(table.hands, table.due or 1)
        behind = middle - share >= BEHIND and middle_hands - table.hands >= BEHIND_HANDS
        out.append(not table.finished and (quiet or behind))
    return out
