"""What the tournament printouts show, gathered once so the PDF templates only lay it out.

The seating list, table cards, blank sheets, round results and standings (docs/tournaments.md,
"Printouts") all read the same draw; this module turns it into plain rows: who sits where,
which seat deals first, the address and QR code a table card carries, and the deals a paper
sheet expects in rotation.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from urllib.parse import urlsplit

import segno
from flask import current_app, request, url_for

from scorekeeper.core.standings import rank_points
from scorekeeper.db.tournament_models import Entrant, Round, Tournament
from scorekeeper.operations.tournament_results import Line, TableState
from scorekeeper.web import printouts

#: Host names a tablet on the hall's network can never reach: they name the laptop itself.
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0"})
#: Pixels per QR module in the embedded PNG: sharp when printed at 50 to 60 mm, still tiny.
QR_SCALE = 8
#: The blank sheet's rows are this tall unless many deals must share one page (mm).
SHEET_ROW_MM = 10.0
#: Room for the grid on a portrait A4 sheet below its header (mm), so a table's sheet
#: stays on one page however many deals it has.
SHEET_GRID_MM = 150.0
#: Rows never get smaller than this, or nobody can write in them (mm).
SHEET_ROW_MIN_MM = 5.0


@dataclass(frozen=True, slots=True)
class TableAddress:
    """Where tablets reach this installation: ``PUBLIC_URL``, else the address in use."""

    base: str

    @property
    def is_local(self) -> bool:
        """Whether the address names the organiser's own machine (tablets cannot reach it)."""
        host = urlsplit(self.base).hostname or ""
        return host in LOCAL_HOSTS or host.startswith("127.") or host.endswith(".localhost")

    @property
    def shown(self) -> str:
        """The address as people type it: without ``http://``."""
        parts = urlsplit(self.base)
        return parts.netloc + parts.path.rstrip("/")

    def table_url(self, code: str) -> str:
        """The address in a table's QR code, which opens and binds that table."""
        path = url_for("tables.enter", code=code)
        root = request.script_root
        if root and path.startswith(root):
            path = path[len(root) :]
        return self.base + path

    def open_form(self) -> str:
        """The page where a code is typed, as printed beside the QR code."""
        return self.shown + "/t"


def table_address() -> TableAddress:
    """The address for table cards, from the configuration or from this request."""
    configured = current_app.config.get("PUBLIC_URL")
    base = str(configured) if configured else request.url_root
    return TableAddress(base.rstrip("/"))


def qr_png(url: str) -> str:
    """A QR code of ``url`` as a PNG ``data:`` URI, for an ``<img>`` on the table card.

    A bitmap (not SVG) keeps the modules exactly on the pixel grid, and lets the tests read
    the code back out of the PDF.
    """
    return str(segno.make_qr(url, error="m").png_data_uri(scale=QR_SCALE, border=4))


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """A player at a table, with their seat and whether they deal the first hand."""

    number: int
    name: str
    club: str
    seat: int
    deals_first: bool


@dataclass(frozen=True, slots=True)
class PrintedTable:
    """A table of the draw as every printout shows it."""

    number: int
    players: tuple[SeatedPlayer, ...]
    #: The code, once the round has started (a drawn round has none yet).
    code: str | None = None
    #: The table's evening, once the round has started.
    evening_id: int | None = None

    @property
    def first_dealer(self) -> SeatedPlayer:
        """Who deals the first hand: seat 1, as the round was started."""
        return self.players[0]


@dataclass(frozen=True, slots=True)
class Placement:
    """A line of the alphabetical list: where one player sits this round."""

    name: str
    number: int
    #: None: sits out the round (a bye).
    table: int | None
    seat: int | None


def sort_key(name: str) -> str:
    """Alphabetical as people expect: accents and case do not move a name (Ärni by Arni)."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def printed_tables(tournament: Tournament, round_: Round) -> list[PrintedTable]:
    """The round's tables in seat order, with their codes once the round has started."""
    entrants = {e.number: e for e in tournament.entrants}
    started = {t.number: t for t in round_.tables}
    tables = []
    for index, seats in enumerate(round_.drawn_tables, start=1):
        players = tuple(
            SeatedPlayer(n, entrants[n].name, entrants[n].club, seat, seat == 1)
            for seat, n in enumerate(seats, start=1)
        )
        table = started.get(index)
        tables.append(
            PrintedTable(
                index,
                players,
                table.code if table else None,
                table.evening_id if table else None,
            )
        )
    return tables


def byes(tournament: Tournament, round_: Round) -> list[Entrant]:
    """Who sits out the round, by start number."""
    entrants = {e.number: e for e in tournament.entrants}
    return [entrants[n] for n in sorted(round_.byes)]


def placements(tables: Sequence[PrintedTable], sitting_out: Sequence[Entrant]) -> list[Placement]:
    """Everyone in the round, alphabetically, with their table and seat ("where do I sit")."""
    rows = [Placement(p.name, p.number, t.number, p.seat) for t in tables for p in t.players]
    rows += [Placement(e.name, e.number, None, None) for e in sitting_out]
    return sorted(rows, key=lambda p: (sort_key(p.name), p.number))


@dataclass(frozen=True, slots=True)
class SheetRow:
    """A row of a blank score sheet: the deal's number and who deals it."""

    number: int
    dealer: SeatedPlayer


def sheet_rows(table: PrintedTable, due: int) -> list[SheetRow]:
    """One row per hand due, the deal passing from seat to seat (docs/troggen.md §9, rotation)."""
    players = table.players
    return [SheetRow(i + 1, players[i % len(players)]) for i in range(due)]


def sheet_row_height(due: int) -> float:
    """How tall a sheet's rows are so all ``due`` of them and the totals fit on one page."""
    return max(SHEET_ROW_MIN_MM, min(SHEET_ROW_MM, round(SHEET_GRID_MM / (due + 1), 1)))


def hands_due(tournament: Tournament, table: PrintedTable) -> int:
    """The hands a table plays in the round: every player deals ``deals_per_player`` times."""
    return tournament.deals_per_player * len(table.players)


def table_rank_points(states: Sequence[TableState]) -> dict[int, dict[int, Fraction]]:
    """Each table's rank points per start number, for the results sheet of a rank tournament."""
    return {state.table.number: rank_points(state.results) for state in states}


def is_final(tournament: Tournament) -> bool:
    """Whether every round of the tournament has been played and closed."""
    closed = [r for r in tournament.round_list if r.closed_at is not None]
    return len(closed) >= tournament.rounds


def winners(lines: Sequence[Line]) -> list[Line]:
    """Who holds first place (several when tied on every tie break), if anyone played."""
    return [line for line in lines if line.standing.place == 1 and line.standing.rounds]


def print_round_ahead(tournament_id: int, number: int, *, closed: bool) -> None:
    """Ask the print workers for the printouts a round's start or close makes wanted: the
    seating list, table cards and blank sheets of a round that starts; its results and the
    standings once it closes (``printouts.print_ahead``)."""
    kinds = ("results",) if closed else ("seating", "cards", "sheets")
    paths = [
        url_for(f"tournament_pdfs.{kind}", tournament_id=tournament_id, number=number)
        for kind in kinds
    ]
    if closed:
        paths.append(url_for("tournament_pdfs.standings", tournament_id=tournament_id))
    printouts.print_ahead((path, False) for path in paths)
