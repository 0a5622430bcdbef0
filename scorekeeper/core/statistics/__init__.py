"""A club's statistics, derived by replaying its evenings (docs/statistics.md).

Pure like the rest of the core: evenings go in as the core's own values (the replayed
``Ledger``, the settlement's nets in cents) and frozen figures come out; nothing is
stored. Money is summed only within one game, unit and currency.

* ``season_table(evenings, persons=None)`` and ``sort_rows(rows, key, descending)``: the
  season table;
* ``player_statistics(evenings, person)`` and ``compare(a, b)``: one person's figures, and
  two side by side;
* ``highlights(evening)``: one evening's highlights for its settlement page.
"""

from __future__ import annotations

from scorekeeper.core.statistics.evenings import PlayedEvening, evening_order
from scorekeeper.core.statistics.figures import (
    Announcement,
    ContractTally,
    DoppenFigures,
    EistenStaldenFigures,
    LastTrick,
    Premium,
    Roles,
    Tally,
    TroggenFigures,
    TrogguFigures,
)
from scorekeeper.core.statistics.highlights import (
    BestHand,
    CarriedRun,
    Highlights,
    MostBids,
    PotWon,
    highlights,
)
from scorekeeper.core.statistics.player import (
    ComparedFigure,
    Comparison,
    EveningResult,
    PlayerStatistics,
    RunningPoint,
    RunningSeries,
    compare,
    player_statistics,
)
from scorekeeper.core.statistics.season import (
    SORT_KEYS,
    EveningMark,
    SeasonRow,
    season_table,
    sort_rows,
)

__all__ = [
    "SORT_KEYS",
    "Announcement",
    "BestHand",
    "CarriedRun",
    "ComparedFigure",
    "Comparison",
    "ContractTally",
    "DoppenFigures",
    "EistenStaldenFigures",
    "EveningMark",
    "EveningResult",
    "Highlights",
    "LastTrick",
    "MostBids",
    "PlayedEvening",
    "PlayerStatistics",
    "PotWon",
    "Premium",
    "Roles",
    "RunningPoint",
    "RunningSeries",
    "SeasonRow",
    "Tally",
    "TroggenFigures",
    "TrogguFigures",
    "compare",
    "evening_order",
    "highlights",
    "player_statistics",
    "season_table",
    "sort_rows",
]
