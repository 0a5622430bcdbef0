"""Anonymising a guest: on request, a player's name disappears from every evening.

The name is replaced by a neutral one ("Gast 3", "Guest 3"), unique in the installation,
wherever it is stored: the player, every hand's facts and their revisions, the evenings'
settings and their revisions, titles, places and void reasons that mention it, the ticks of
the settlements, and the answers kept for repeated requests. Seats and dealers point at the
player row, so they follow by themselves.

Every ledger must stay the same up to the renaming: each affected evening is replayed
before and after, and the change is refused if a single amount differs. Closed evenings are
anonymised too; a person's wish to be forgotten outweighs the read-only lock of a signed
sheet, whose amounts do not change. Flushes, never commits.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask_babel import force_locale, gettext
from sqlalchemy import func, or_, select
from sqlalchemy.orm import selectinload

from scorekeeper import operations
from scorekeeper.core.rules.base import ScorekeeperError
from scorekeeper.core.validation import LANGUAGES, name_key
from scorekeeper.db.extensions import db
from scorekeeper.db.models import (
    Evening,
    Hand,
    IdempotentResponse,
    Player,
    Seat,
    Seating,
    SettlementTick,
)
from scorekeeper.db.tournament_models import Tournament, TournamentEvent
from scorekeeper.operations.evening_revisions import add_revision
from scorekeeper.operations.snapshots import stored_view, written
from scorekeeper.operations.table_groups import rename_members_called
from scorekeeper.operations.tournament_rounds import seat_names

#: Keys whose values are fixed words of the rules or settings, never a player's name: a
#: player called "solo" must not turn a Solo into "Gast 1".
FIXED = frozenset(
    {
        "contract",
        "last_trick",
        "result",
        "valat",
        "all_tricks",
        "kind",
        "options",
        "label",
        "game",
        "variant",
        "language",
    }
)
#: Keys holding free text, where the name may appear among other words.
FREE_TEXT = frozenset({"title", "place", "reason", "void_reason"})


class PlayerNotFoundError(ScorekeeperError):
    """There is no player with that id."""


class AnonymiseError(ScorekeeperError):
    """Renaming would have changed a ledger; nothing was changed."""


@dataclass(frozen=True, slots=True)
class Renaming:
    """One name replaced by another, in the shapes the database stores names in."""

    old: str
    new: str

    def name(self, value: str) -> str:
        """A name as stored (exactly as seated): the new one if it was the old one."""
        return self.new if value == self.old else value

    def text(self, value: str | None) -> str | None:
        """Free text with every whole-word mention of the old name replaced, any case.

        "Anna" inside "Annabelle" or "Anna-Lena" is another name and stays.
        """
        if not value:
            return value
        pattern = rf"(?<![\w-]){re.escape(self.old.strip())}(?![\w-])"
        return re.sub(pattern, self.new, value, flags=re.IGNORECASE)

    def data(self, value: Any, key: str | None = None) -> Any:
        """Stored JSON (hand facts, settings, answers) with the old name replaced."""
        if key in FIXED:
            return value
        if key in FREE_TEXT and isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {
                (self.name(k) if isinstance(k, str) else k): self.data(v, k)
                for k, v in value.items()
            }
        if isinstance(value, list | tuple):
            return [self.data(v) for v in value]
        if isinstance(value, str):
            return self.name(value)
        return value


def guest_name(n: int) -> str:
    """The neutral name number ``n`` in the current language."""
    return str(gettext("Guest %(n)s", n=n))


def free_guest_number() -> int:
    """The smallest number not yet taken by a neutral name in any of the languages."""
    words = set()
    for language in LANGUAGES:
        with force_locale(language):
            words.add(name_key(guest_name(0)).removesuffix("0").strip())
    pattern = re.compile(rf"^(?:{'|'.join(map(re.escape, words))}) (\d+)$")
    taken = {
        int(found.group(1))
        for key in db.session.scalars(select(Player.name_key))
        if (found := pattern.match(key))
    }
    return next(n for n in range(1, len(taken) + 2) if n not in taken)


def evenings_of(player_id: int) -> list[Evening]:
    """Every evening the player sat at, with its hands and revisions: the rows renaming
    changes."""
    sat_at = (
        select(Seating.evening_id)
        .join(Seat, Seat.seating_id == Seating.id)
        .where(Seat.player_id == player_id)
    )
    return list(
        db.session.scalars(
            select(Evening)
            .where(Evening.id.in_(sat_at))
            .order_by(Evening.id)
            .options(
                selectinload(Evening.revisions),
                selectinload(Evening.hands).selectinload(Hand.revisions),
            )
        )
    )


def outcome(current: operations.EveningView) -> dict[str, Any]:
    """Every amount an evening's ledger and settlement give, by player name."""
    ledger = current.ledger
    found: dict[str, Any] = {
        "hands": [
            [r.record.number, r.deltas, r.common, r.tally, r.money_deltas] for r in ledger.hands
        ],
        "balances": ledger.balances,
        "common": ledger.common,
        "tally": ledger.tally,
        "money": ledger.money,
        "next": [list(current.next_table.players), current.next_table.dealer],
    }
    if not current.variant.keeps_tally:
        settled = current.settlement()
        found["settlement"] = {
            "final": settled.final,
            "net": settled.net,
            "money": settled.money,
            "payments": [
                [[p.source, p.target, p.amount] for p in payments]
                for payments in (settled.transfers, settled.pairwise)
            ],
        }
    return found


def plain(value: Any) -> Any:
    """``value`` as JSON would give it back (tuples as lists), for comparing."""
    return json.loads(json.dumps(value))


def _rename_evening(evening: Evening, renaming: Renaming) -> None:
    """Replace the name in everything an evening stores besides the player row."""
    evening.title = renaming.text(evening.title) or ""
    evening.place = renaming.text(evening.place) or ""
    for revision in evening.revisions:
        revision.settings = renaming.data(revision.settings)
    for hand in evening.hands:
        hand.input = renaming.data(hand.input)
        hand.void_reason = renaming.text(hand.void_reason)
        for version in hand.revisions:
            version.input = renaming.data(version.input)
            version.void_reason = renaming.text(version.void_reason)
    ticks = db.session.scalars(
        select(SettlementTick).where(SettlementTick.evening_id == evening.id)
    )
    for tick in ticks:
        tick.payer, tick.payee = renaming.name(tick.payer), renaming.name(tick.payee)
    # A revision of its own: the evening's facts changed, and its stamp must say so to the
    # server processes that keep it replayed (``operations.snapshots``).
    add_revision(evening, source="anonymise")


def _rename_answers(evening_ids: Iterable[int], renaming: Renaming) -> None:
    """Replace the name in the answers kept for repeated requests (which echo evenings)."""
    scopes = [f"evening:{i}" for i in evening_ids]
    answers = db.session.scalars(
        select(IdempotentResponse).where(
            or_(IdempotentResponse.scope.in_(scopes), IdempotentResponse.scope == "evenings")
        )
    )
    for answer in answers:
        answer.body = renaming.data(answer.body)


def anonymise_player(player_id: int) -> str:
    """Replace a player's name everywhere by a neutral, unique one; return the new name.

        The new name is in the current language ("Gast 4" in German). Raises
        ``PlayerNotFoundError`` for an unknown id, and ``AnonymiseError`` (nothing changed once
        the caller rolls back) if any evening's amounts would differ afterwards. A member of a
    table group who was called by the name is called by the new one (docs/club.md).

        This is the one place that knows where names are kept: whatever else comes to store a
        person's name is renamed here as well, tournaments included: the entrant who played
        under that name (from whom later rounds' tables take their names) and the tournament's
        log.
    """
    player = db.session.get(Player, player_id)
    if player is None:
        raise PlayerNotFoundError(player_id)
    new = guest_name(free_guest_number())
    rename_player(player, new)
    return new


def rename_player(player: Player, new: str) -> None:
    """Replace ``player``'s name everywhere by ``new`` (which no player has yet): seatings,
    hands, settings, kept answers, entrants and members, as anonymising does. Raises
    ``AnonymiseError`` (nothing changed once the caller rolls back) if any evening's
    amounts would differ afterwards."""
    renaming = Renaming(player.name, new)
    player_id = player.id
    evenings = evenings_of(player_id)
    before = {e.id: plain(renaming.data(outcome(stored_view(e.id)))) for e in evenings}
    player.name, player.name_key = renaming.new, name_key(renaming.new)
    for evening in evenings:
        _rename_evening(evening, renaming)
    _rename_answers([e.id for e in evenings], renaming)
    _rename_entrants(renaming)
    rename_members_called(player, renaming.old)
    db.session.flush()
    for evening in evenings:
        try:
            after = plain(outcome(written(evening.id)))
        except ValueError as error:  # a renamed fact no longer reads as the rules expect
            raise AnonymiseError(evening.id) from error
        if after != before[evening.id]:
            raise AnonymiseError(evening.id)


def _rename_entrants(renaming: Renaming) -> None:
    """Rename the tournament entrants who played under the old name, and their log lines.

    An entrant plays under their own name, or under "Name (12)" when the name repeats in
    the tournament: whoever was seated as the old name is that person.
    """
    for tournament in db.session.scalars(select(Tournament)):
        seated = seat_names(tournament)
        for entrant in tournament.entrants:
            if seated.get(entrant.number) != renaming.old:
                continue
            old_name = entrant.name
            entrant.name = renaming.new
            events = db.session.scalars(
                select(TournamentEvent).where(TournamentEvent.tournament_id == tournament.id)
            )
            for event in events:
                if event.detail.get("number") == entrant.number and "name" in event.detail:
                    event.detail = {**event.detail, "name": renaming.new}
                elif old_name in json.dumps(event.detail, ensure_ascii=False):
                    event.detail = Renaming(old_name, renaming.new).data(event.detail)


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """A player as the list of players shows them."""

    player: Player
    evenings: int
    last_played: datetime | None


def player_summaries() -> list[PlayerSummary]:
    """Every player by name, with how many evenings they sat at and when last."""
    rows = db.session.execute(
        select(Player, func.count(func.distinct(Seating.evening_id)), func.max(Evening.created_at))
        .outerjoin(Seat, Seat.player_id == Player.id)
        .outerjoin(Seating, Seating.id == Seat.seating_id)
        .outerjoin(Evening, Evening.id == Seating.evening_id)
        .group_by(Player.id)
        .order_by(Player.name_key)
    ).all()
    return [PlayerSummary(player, count, last) for player, count, last in rows]
