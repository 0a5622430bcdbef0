"""A tournament's printouts as PDF: seating list, table cards, blank sheets, results, standings.

Printed in the tournament's language (as an evening's printouts use the evening's), whatever
language the organiser's browser reads. Every endpoint carries ``tournament_id``, so the
check in ``web/guard.py`` lets only the organiser print.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response, abort

from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import msg
from scorekeeper.core.sheet_codes import fact_legend, game_codes, player_codes
from scorekeeper.core.standings_texts import scoring_rule
from scorekeeper.db.models import utcnow
from scorekeeper.db.tournament_models import Round, Tournament
from scorekeeper.operations import print_keys
from scorekeeper.operations.tournament_results import (
    round_states,
    table_states,
    tournament_standings,
)
from scorekeeper.operations.tournament_rounds import RoundStateError
from scorekeeper.web import printouts
from scorekeeper.web.pdf import render_pdf
from scorekeeper.web.printouts import Printout
from scorekeeper.web.tournaments import printing
from scorekeeper.web.tournaments.api import load, load_round

bp = Blueprint("tournament_pdfs", __name__, url_prefix="/tournaments/<int:tournament_id>")
# The round page warns when table cards would carry an address tablets cannot reach.
bp.add_app_template_global(printing.table_address, "table_address")


def printed(tournament: Tournament, what: str, make: Callable[[], bytes]) -> Response:
    """The printout ``what``, kept by the tournament's state (``web/printouts.py``): its
    settings, entrants, rounds and every table's hands, and the address the table cards
    print; named so the downloads folder stays readable."""
    parts = print_keys.tournament_print_parts(tournament.id)
    if parts is None:
        abort(404)
    day = (tournament.date or tournament.created_at.date()).isoformat()
    name = f"{day}-{what}-{tournament.id}.pdf"
    key = {**parts, "what": what, "address": printing.table_address().base}
    return printouts.answer(Printout("tournament", key, name, make))


def started(round_: Round) -> None:
    """Refuse printouts that need the tables' codes or hands before the round starts."""
    if round_.started_at is None:
        raise RoundStateError(
            msg(
                "Round {n} has not started yet: its tables get their codes and hands when it "
                "starts. Start the round, then print this.",
                n=round_.number,
            )
        )


def render(tournament: Tournament, template: str, **context: object) -> bytes:
    """A printout in the tournament's language, with what every tournament printout shows."""
    return render_pdf(
        template,
        language=tournament.language,
        tournament=tournament,
        variant=get_variant(tournament.game, tournament.variant),
        **context,
    )


@bp.get("/rounds/<int:number>/seating.pdf")
def seating(tournament_id: int, number: int) -> Response:
    """The seating list to pin on the wall: by table, then alphabetically."""
    tournament = load(tournament_id)
    round_ = load_round(tournament, number)

    def make() -> bytes:
        tables = printing.printed_tables(tournament, round_)
        sitting_out = printing.byes(tournament, round_)
        return render(
            tournament,
            "pdf/tournament/seating.html",
            round=round_,
            tables=tables,
            byes=sitting_out,
            placements=printing.placements(tables, sitting_out),
        )

    return printed(tournament, f"round{number}-seating", make)


@bp.get("/rounds/<int:number>/cards.pdf")
def cards(tournament_id: int, number: int) -> Response:
    """One card per table: its number, players, first dealer, and the QR code and code."""
    tournament = load(tournament_id)
    round_ = load_round(tournament, number)
    started(round_)

    def make() -> bytes:
        address = printing.table_address()
        tables = printing.printed_tables(tournament, round_)
        urls = {t.number: address.table_url(t.code or "") for t in tables}
        return render(
            tournament,
            "pdf/tournament/cards.html",
            round=round_,
            tables=tables,
            address=address,
            urls=urls,
            qr={n: printing.qr_png(url) for n, url in urls.items()},
        )

    return printed(tournament, f"round{number}-cards", make)


@bp.get("/rounds/<int:number>/sheets.pdf")
def sheets(tournament_id: int, number: int) -> Response:
    """A blank paper score sheet per table, for when a tablet fails."""
    tournament = load(tournament_id)
    round_ = load_round(tournament, number)

    def make() -> bytes:
        tables = printing.printed_tables(tournament, round_)
        due = printing.hands_due
        rows = {t.number: printing.sheet_rows(t, due(tournament, t)) for t in tables}
        variant = get_variant(tournament.game, tournament.variant)
        codes = game_codes(variant.game, keeps_tally=variant.keeps_tally)
        return render(
            tournament,
            "pdf/tournament/sheets.html",
            round=round_,
            tables=tables,
            rows=rows,
            row_mm={n: printing.sheet_row_height(len(r)) for n, r in rows.items()},
            columns=codes.columns,
            legend=fact_legend(codes.legend),
            variant_game=variant.game,
            keeps_tally=variant.keeps_tally,
            seated={t.number: [(p.seat, p.name) for p in t.players] for t in tables},
            codes={t.number: player_codes([p.name for p in t.players]) for t in tables},
            grid_rows={
                n: [(row.number, row.dealer.seat, row.dealer.name) for row in r]
                for n, r in rows.items()
            },
        )

    return printed(tournament, f"round{number}-sheets", make)


@bp.get("/rounds/<int:number>/results.pdf")
def results(tournament_id: int, number: int) -> Response:
    """Each table's results as they stand, with a line for every player to sign."""
    tournament = load(tournament_id)
    round_ = load_round(tournament, number)
    started(round_)

    def make() -> bytes:
        states = table_states(round_)
        return render(
            tournament,
            "pdf/tournament/results.html",
            round=round_,
            tables={t.number: t for t in printing.printed_tables(tournament, round_)},
            states=states,
            rank_points=printing.table_rank_points(states),
            byes=printing.byes(tournament, round_),
        )

    return printed(tournament, f"round{number}-results", make)


@bp.get("/standings.pdf")
def standings(tournament_id: int) -> Response:
    """The standings with every round and the rule that ranks them; then the winners'
    certificates once the last round is closed."""
    tournament = load(tournament_id)

    def make() -> bytes:
        states = round_states(tournament)
        lines = tournament_standings(tournament, states)
        final = printing.is_final(tournament)
        return render(
            tournament,
            "pdf/tournament/standings.html",
            lines=lines,
            round_numbers=sorted(states),
            rule=scoring_rule(tournament.scoring),
            final=final,
            printed_at=utcnow(),
            winners=printing.winners(lines) if final else [],
        )

    return printed(tournament, "standings", make)
