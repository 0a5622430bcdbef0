"""A table group's evenings, replayed for its statistics (docs/club.md, docs/statistics.md).

Loads the group's evenings in a date range, replays each through the kept evenings
(``snapshots.current_view``: an evening already replayed by this process is brought up to
date by its stamp, not replayed again), settles it, and hands the core's statistics each
evening with its players' person keys. Nothing is stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from sqlalchemy import select

from scorekeeper.core.rules.base import CARRIED
from scorekeeper.core.statistics import Highlights, PlayedEvening, highlights
from scorekeeper.db.extensions import db
from scorekeeper.db.models import Evening, GroupEvening, Member, TableGroup
from scorekeeper.operations.snapshots import stored_view
from scorekeeper.operations.table_groups import persons
from scorekeeper.operations.views import EveningView


@dataclass(frozen=True, slots=True)
class Filters:
    """Which of a group's evenings count: a date range (both ends included), and
    optionally one game or one variant."""

    start: date
    end: date
    game: str | None = None
    variant: str | None = None

    def admits(self, evening: Evening) -> bool:
        """Whether ``evening`` counts under these filters."""
        day = evening_day(evening)
        return (
            self.start <= day <= self.end
            and (self.game is None or evening.game == self.game)
            and (self.variant is None or evening.variant == self.variant)
        )


@dataclass(frozen=True, slots=True)
class Season:
    """A group's evenings under ``filters``, replayed, with who is who."""

    group: TableGroup
    filters: Filters
    evenings: tuple[PlayedEvening, ...]
    #: Person key -> the name the group calls them now.
    names: Mapping[str, str]
    #: Person key -> member number (for the member's page).
    members: Mapping[str, int]


def person_key(member: Member) -> str:
    """The key a member's figures are gathered under."""
    return f"member-{member.id}"


def evening_day(evening: Evening) -> date:
    """The day an evening counts for: its date, or the day it was started."""
    return evening.date or evening.created_at.date()


def year_of(today: date) -> Filters:
    """The default range: the calendar year of ``today``."""
    return Filters(date(today.year, 1, 1), date(today.year, 12, 31))


def group_evenings(group: TableGroup, filters: Filters) -> list[Evening]:
    """The group's evenings that count under ``filters``."""
    found = db.session.scalars(
        select(Evening)
        .join(GroupEvening, GroupEvening.evening_id == Evening.id)
        .where(GroupEvening.group_id == group.id)
        .order_by(Evening.id)
    )
    return [e for e in found if filters.admits(e)]


def played(current: EveningView, day: date, by_player: Mapping[int, Member]) -> PlayedEvening:
    """One evening as the statistics read it."""
    evening = current.evening
    person = {
        name: person_key(by_player[player_id])
        for name, player_id in evening.player_ids.items()
        if player_id in by_player
    }
    commons = {*current.variant.common_accounts, CARRIED}
    money = {p: cents for p, cents in current.nets().items() if p not in commons}
    return PlayedEvening(
        evening_id=evening.id,
        day=day,
        game=evening.game,
        variant=evening.variant,
        currency=str(evening.options.get("currency", "")),
        ledger=current.ledger,
        money=money,
        person=person,
    )


def season(group: TableGroup, filters: Filters) -> Season:
    """The group's evenings under ``filters``, replayed and settled, oldest first."""
    by_player = persons(group)
    evenings = []
    for evening in group_evenings(group, filters):
        current = stored_view(evening.id)
        evenings.append(played(current, evening_day(evening), by_player))
    evenings.sort(key=lambda e: (e.day or date.min, e.evening_id))
    members = {person_key(m): m for m in group.members}
    return Season(
        group,
        filters,
        tuple(evenings),
        {key: m.name for key, m in members.items()},
        {key: m.id for key, m in members.items()},
    )


def evening_highlights(current: EveningView, day: date | None = None) -> Highlights:
    """The highlights of one evening for its settlement page and printout."""
    return highlights(played(current, day or date.min, {}))
