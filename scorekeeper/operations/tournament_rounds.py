"""Rounds: the draw (stored with its seed), the organiser's swaps, starting and closing.

A round is drawn, may be swapped or drawn again while nobody plays, then started: each
table becomes an evening of ``deals_per_player`` times its players' hands with a code that opens
it. The organiser closes the round when the tables are done (or, late ones, as they stand).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from flask_babel import force_locale, gettext

from scorekeeper import operations
from scorekeeper.core.draw import Draw, draw_round, swap, table_plan
from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import (
    ErrorCollector,
    InvalidSettingsError,
    Message,
    ScorekeeperError,
    msg,
)
from scorekeeper.core.rules.parsing import read_int
from scorekeeper.core.validation import NAME_LENGTH, name_key
from scorekeeper.db.extensions import db
from scorekeeper.db.models import utcnow
from scorekeeper.db.tournament_models import Entrant, Round, Tournament, TournamentTable
from scorekeeper.operations.tournament_setup import log

#: Letters and digits that cannot be mistaken for each other when typed from a card.
CODE_ALPHABET = "ACDEFGHJKLMNPQRTUVWXY34679"
CODE_LENGTH = 6


class RoundStateError(ScorekeeperError):
    """The round is not in a state that allows this (drawn, started, closed)."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class PastRound:
    """An earlier round as the draw reads it."""

    tables: Sequence[Sequence[int]]
    byes: Sequence[int]


def current_round(tournament: Tournament) -> Round | None:
    """The latest round, drawn, started or closed."""
    return tournament.round_list[-1] if tournament.round_list else None


def drawable(tournament: Tournament, number: int) -> list[Entrant]:
    """The present entrants the draw of round ``number`` includes."""
    return [e for e in tournament.entrants if e.present and e.plays_in(number)]


def draw_next(tournament: Tournament) -> Round:
    """Draw the next round from a fresh seed, once the previous one is closed."""
    last = current_round(tournament)
    if last is not None and last.closed_at is None:
        raise RoundStateError(msg("Close round {n} before drawing the next.", n=last.number))
    number = last.number + 1 if last else 1
    if number > tournament.rounds:
        raise RoundStateError(
            msg("The only round has been played.")
            if tournament.rounds == 1
            else msg("All {n} rounds have been played.", n=tournament.rounds),
        )
    drawn = _draw(tournament, number, secrets.randbits(62))
    round_ = Round(
        tournament=tournament,
        number=number,
        seed=drawn.seed,
        draw=_draw_json(drawn),
        repeated_pairs=drawn.repeated_pairs,
    )
    db.session.add(round_)
    db.session.flush()
    log(tournament, "drawn", round=number, seed=drawn.seed)
    return round_


def redraw(tournament: Tournament, round_: Round) -> Round:
    """Draw a round again from a new seed (check-ins changed), before it starts."""
    _ensure_not_started(round_)
    drawn = _draw(tournament, round_.number, secrets.randbits(62))
    round_.seed = drawn.seed
    round_.draw = _draw_json(drawn)
    round_.repeated_pairs = drawn.repeated_pairs
    log(tournament, "drawn", round=round_.number, seed=drawn.seed, again=True)
    db.session.flush()
    return round_


def _draw(tournament: Tournament, number: int, seed: int) -> Draw:
    players = [e.number for e in drawable(tournament, number)]
    plan = table_plan(get_variant(tournament.game, tournament.variant))
    if len(players) < min(plan.sizes):
        raise RoundStateError(
            msg("1 player is checked in; a table needs at least {low}.", low=min(plan.sizes))
            if len(players) == 1
            else msg(
                "{n} players are checked in; a table needs at least {low}.",
                n=len(players),
                low=min(plan.sizes),
            )
        )
    return draw_round(players, history(tournament, before=number), seed=seed, preference=plan)


def history(tournament: Tournament, *, before: int) -> list[PastRound]:
    """The rounds before ``before`` that were played, as the draw reads them."""
    return [
        PastRound(r.drawn_tables, r.byes)
        for r in tournament.round_list
        if r.number < before and r.started_at is not None
    ]


def _draw_json(drawn: Draw) -> dict[str, list[list[int]] | list[int]]:
    return {"tables": [list(t) for t in drawn.tables], "byes": list(drawn.byes)}


def swap_players(tournament: Tournament, round_: Round, raw: object) -> Round:
    """Swap two players (seats or the bye) before the round starts; the swap is logged."""
    _ensure_not_started(round_)
    if not isinstance(raw, Mapping):
        raise InvalidSettingsError.single("body", msg("Send the swap as a JSON object."))
    errors = ErrorCollector()
    a = read_int(raw, "a", errors, low=1, high=99999)
    b = read_int(raw, "b", errors, low=1, high=99999)
    errors.raise_if_any(InvalidSettingsError)
    assert a is not None
    assert b is not None
    seated = {p for table in round_.drawn_tables for p in table}
    for key, number in (("a", a), ("b", b)):
        if number not in seated and number not in round_.byes:
            errors.add(key, msg("Start number {n} is not in this round's draw.", n=number))
    if a == b:
        errors.add("b", msg("Choose two different players to swap."))
    elif a in round_.byes and b in round_.byes:
        errors.add("b", msg("Both sit out this round; there is nothing to swap."))
    errors.raise_if_any(InvalidSettingsError)
    before = Draw(
        tuple(tuple(t) for t in round_.drawn_tables),
        tuple(round_.byes),
        round_.seed,
        round_.repeated_pairs,
    )
    after = swap(before, a, b, history=history(tournament, before=round_.number))
    round_.draw = _draw_json(after)
    round_.repeated_pairs = after.repeated_pairs
    log(tournament, "swap", round=round_.number, a=a, b=b)
    db.session.flush()
    return round_


def _ensure_not_started(round_: Round) -> None:
    if round_.started_at is not None:
        raise RoundStateError(
            msg("Round {n} has started; its seating can no longer change.", n=round_.number)
        )


def seat_names(tournament: Tournament) -> dict[int, str]:
    """The name each entrant plays under at a table: their own, numbered when it repeats.

    An evening tells its players apart by name, and two guests may share one.
    """
    counts: dict[str, int] = {}
    for entrant in tournament.entrants:
        counts[name_key(entrant.name)] = counts.get(name_key(entrant.name), 0) + 1
    names = {}
    for entrant in tournament.entrants:
        if counts[name_key(entrant.name)] > 1:
            suffix = f" ({entrant.number})"
            names[entrant.number] = entrant.name[: NAME_LENGTH - len(suffix)] + suffix
        else:
            names[entrant.number] = entrant.name
    return names


def gone_since_draw(tournament: Tournament, round_: Round) -> list[Entrant]:
    """Entrants the round's draw seats who have since been checked out or dropped out:
    the round cannot start with them at a table."""
    drawable_now = {e.number for e in drawable(tournament, round_.number)}
    seated = {n for seats in round_.drawn_tables for n in seats}
    return [e for e in tournament.entrants if e.number in seated - drawable_now]


def start_round(tournament: Tournament, round_: Round) -> Round:
    """Start a drawn round: one evening per table, each with its code; the set-up freezes.

    Refused while the draw seats someone who has left since: the table would wait for a
    player who is gone, and the draw must be made again without them.
    """
    _ensure_not_started(round_)
    gone = gone_since_draw(tournament, round_)
    if gone:
        raise RoundStateError(
            msg(
                "Left after round {n} was drawn: {names}. Draw it again before starting it.",
                names=", ".join(f"{e.number} {e.name}" for e in gone),
                n=round_.number,
            )
        )
    names = seat_names(tournament)
    with force_locale(tournament.language):
        title = gettext("Round %(r)s, table %(t)s")
    for index, seats in enumerate(round_.drawn_tables, start=1):
        players = [names[n] for n in seats]
        evening = operations.create_evening(
            {
                "game": tournament.game,
                "variant": tournament.variant,
                "players": players,
                "first_dealer": players[0],
                "title": f"{tournament.name}: " + title % {"r": round_.number, "t": index},
                "place": tournament.place,
                "date": tournament.date.isoformat() if tournament.date else None,
                "options": dict(tournament.options),
                "language": tournament.language,
            },
            source="tournament",
        )
        evening.hands_due = tournament.deals_per_player * len(seats)
        db.session.add(
            TournamentTable(
                round=round_, number=index, code=new_code(), evening=evening, seats=list(seats)
            )
        )
    round_.started_at = utcnow()
    if tournament.frozen_at is None:
        tournament.frozen_at = round_.started_at
    log(tournament, "started", round=round_.number)
    db.session.flush()
    return round_


def new_code() -> str:
    """A fresh table code, unlike every code stored so far."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if db.session.query(TournamentTable.id).filter_by(code=code).first() is None:
            return code


def unfinished(round_: Round) -> list[TournamentTable]:
    """The round's tables that have not recorded their last hand."""
    return [t for t in round_.tables if t.evening.closed_at is None]


def read_confirm(raw: object) -> bool:
    """Whether a request to close a round confirms closing its unfinished tables: the body's
    ``confirm``, true or false (left out: false); any other body is refused, not read as
    false, so a mistyped confirmation is said rather than answered with "not confirmed"."""
    if not isinstance(raw, Mapping):
        raise InvalidSettingsError.single("body", msg("Send it as a JSON object."))
    confirm = raw.get("confirm", False)
    if not isinstance(confirm, bool):
        raise InvalidSettingsError.single("confirm", msg("Say yes or no (true or false)."))
    return confirm


def close_round(tournament: Tournament, round_: Round, *, confirm: bool) -> Round:
    """Close a started round; tables still playing are closed as they stand when confirmed."""
    if round_.started_at is None:
        raise RoundStateError(msg("Round {n} has not started yet.", n=round_.number))
    if round_.closed_at is not None:
        return round_
    late = unfinished(round_)
    if late and not confirm:
        raise InvalidSettingsError.single(
            "confirm",
            msg(
                "Not finished yet: table {tables}. Close the round anyway? Their hands so far "
                "count.",
                tables=", ".join(str(t.number) for t in late),
            ),
        )
    for table in late:
        operations.set_closed(table.evening_id, True, source="organiser")
    round_.closed_at = utcnow()
    log(
        tournament,
        "closed",
        round=round_.number,
        unfinished=[t.number for t in late],
    )
    db.session.flush()
    return round_
