"""The settlement printout's pairwise table laid out on the page: a column per party as
wide as the page allows, each name printed whole (broken at its spaces) or as its code
with a line that explains the codes (docs/presentation.md "The score sheet as paper").

With eight players of long names, a column per name set at its natural width ran off
the page; WeasyPrint then broke a name letter by letter or cut it at the page's edge.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scorekeeper.core.sheet_codes import player_codes
from scorekeeper.web.evenings.score_sheet import CELL_PAD_MM, SIZE_PT, SLACK_MM, name_head
from scorekeeper.web.text_width import width_mm

#: The settlement printout's content width: A4 less its margins (static/print.css), less
#: what the cells' padding and rules add to the widths set.
PAGE_MM = 176.0
#: The row heads' column: at most this wide, at least this narrow.
FIRST_MAX_MM = 64.0
FIRST_MIN_MM = 24.0


@dataclass(frozen=True, slots=True)
class Pairwise:
    """The table's widths, each party's head (column) and row head as printed lines, and
    the codes that stand for a name too long for its column."""

    first: float
    column: float
    heads: dict[str, tuple[str, ...]]
    rows: dict[str, tuple[str, ...]]
    codes: tuple[tuple[str, str], ...]


def pairwise_table(
    parties: Sequence[str], label: Callable[[str], str], amounts: Sequence[str]
) -> Pairwise:
    """Lay out the table of ``parties`` (named by ``label``) holding ``amounts``."""
    names = [label(p) for p in parties]
    cell = max((width_mm(a, SIZE_PT) for a in amounts), default=0.0) + CELL_PAD_MM + SLACK_MM
    widest = max((width_mm(n, SIZE_PT, bold=True) for n in names), default=0.0)
    first = min(FIRST_MAX_MM, widest + CELL_PAD_MM + SLACK_MM)
    column = max(cell, (PAGE_MM - first) / max(len(parties), 1))
    first = max(FIRST_MIN_MM, min(first, PAGE_MM - column * len(parties)))
    short = player_codes(names)
    heads = {
        p: name_head(n, short[n], column, bold=True) for p, n in zip(parties, names, strict=True)
    }
    rows = {
        p: name_head(n, short[n], first, bold=True) for p, n in zip(parties, names, strict=True)
    }
    used = [
        n
        for p, n in zip(parties, names, strict=True)
        if heads[p] == (short[n],) or rows[p] == (short[n],)
    ]
    codes = tuple((short[n], n) for n in used if short[n] != n)
    return Pairwise(first, column, heads, rows, codes)
