"""The pot an evening carries into a later evening of its group (docs/troggen.md §8).

With the end rule ``carry`` an evening's pot stays open. A later evening of the same
table group can take it over: the link is a fact of the later evening (``CarriedPot``),
so its replay opens with the pot, and its cache and stamp stay its own. Whenever a write
changes what the earlier evening carries (a hand recorded, corrected or voided, its end
rule changed), ``carry_forward`` writes the new pot into the later evening as a new
settings revision, and on along the chain, in the same transaction: money stays
conserved across every evening of the chain.

Locks are taken earlier evening first, as the chain runs, so two writes to one chain
wait for each other instead of deadlocking.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from fractions import Fraction
from typing import Any, Protocol

from sqlalchemy import select

from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import (
    InvalidInputError,
    InvalidSettingsError,
    Message,
    msg,
)
from scorekeeper.core.rules.options import to_fraction
from scorekeeper.db.extensions import db
from scorekeeper.db.models import CarriedPot, Evening, EveningRevision, GroupEvening
from scorekeeper.operations import snapshots
from scorekeeper.operations.errors import (
    NO_POT_FOR_TABLES,
    StaleVersionError,
    ensure_open,
    is_tournament_table,
    refuse_tournament_table,
)
from scorekeeper.operations.evening_revisions import add_revision
from scorekeeper.operations.snapshots import stored_view
from scorekeeper.operations.views import EveningView, lock_evening

#: The field a refused link is reported under (the new-evening form's choice, the API's).
FIELD = "carried_from"


@dataclass(frozen=True, slots=True)
class OpenPot:
    """An evening whose pot waits for a later evening of its group."""

    evening: Evening
    pot: int


@dataclass(frozen=True, slots=True)
class Carried:
    """One side of a carried pot as an evening's pages name it: the other evening (None:
    not in this installation), its day, and the jetons."""

    evening_id: int | None
    day: date | None
    pot: int
    #: When a change to the earlier evening last changed the pot carried in, and what it
    #: was before (None: as it was when the link was made).
    changed_at: datetime | None = None
    was: int | None = None


@dataclass(frozen=True, slots=True)
class Links:
    """The pot an evening took over (``came``) and the one it passed on (``went``)."""

    came: Carried | None
    went: Carried | None


def links(evening_id: int) -> Links:
    """What an evening's statement and settlement say about carried pots."""
    came = db.session.get(CarriedPot, evening_id)
    went = link_from(evening_id)
    taken = None
    if came is not None:
        taken = replace(_side(came.from_evening_id, came.pot), **_last_change(evening_id))
    return Links(taken, _side(went.evening_id, went.pot) if went is not None else None)


def _last_change(evening_id: int) -> dict[str, Any]:
    """When the evening's carried-in pot last changed while linked, from its settings
    revisions (``carried_in``), and what it was before; nothing when it never did."""
    kept = db.session.scalars(
        select(EveningRevision)
        .where(EveningRevision.evening_id == evening_id)
        .order_by(EveningRevision.version)
    )
    found: dict[str, Any] = {}
    before = None
    for revision in kept:
        now = revision.settings.get("carried_in")
        if before is not None and now is not None and now != before:
            found = {"changed_at": revision.at, "was": before}
        before = now
    return found


def _side(evening_id: int | None, pot: int) -> Carried:
    other = db.session.get(Evening, evening_id) if evening_id is not None else None
    return Carried(evening_id, day_of(other) if other is not None else None, pot)


def links_among(evening_ids: list[int]) -> dict[int, int]:
    """Which of ``evening_ids`` took over the pot of which evening (later -> earlier), in
    one query: a group's page names every link of its evenings."""
    found = db.session.execute(
        select(CarriedPot.evening_id, CarriedPot.from_evening_id).where(
            CarriedPot.evening_id.in_(evening_ids), CarriedPot.from_evening_id.is_not(None)
        )
    )
    return {later: earlier for later, earlier in found if earlier is not None}


class Dated(Protocol):
    """An evening as its day is read: its row, or its facts (``facts.EveningFacts``)."""

    @property
    def date(self) -> date | None:
        """The day it was played on, if given."""

    @property
    def created_at(self) -> datetime:
        """When it was started."""


def day_of(evening: Dated) -> date:
    """The day an evening is known by: its date, or the day it was started."""
    return evening.date or evening.created_at.date()


def written(evening: Dated) -> str:
    """An evening's day as messages name it, 14.11.2026 (as the pages write days)."""
    return day_of(evening).strftime("%d.%m.%Y")


def carried_out(current: EveningView) -> int:
    """The jetons ``current`` leaves for a later evening: its pot under its own end rule
    (nothing when that rule shares or refunds the pot)."""
    return current.variant.pot_carried_on(current.evening.options, current.ledger.common)


def open_pots(group_id: int | None = None) -> list[OpenPot]:
    """Evenings (of one group, or of every group) whose pot is carried on but not yet
    taken over by a later evening, newest first: what starting an evening offers."""
    query = select(Evening).join(GroupEvening, GroupEvening.evening_id == Evening.id)
    if group_id is not None:
        query = query.where(GroupEvening.group_id == group_id)
    taken = select(CarriedPot.from_evening_id).where(CarriedPot.from_evening_id.is_not(None))
    query = query.where(Evening.id.not_in(taken))
    found = []
    for evening in db.session.scalars(query):
        variant = get_variant(evening.game, evening.variant)
        if not variant.carries_on(evening.options):
            continue
        # Through the kept evenings: the page that offers pots is asked for again and again.
        pot = carried_out(stored_view(evening.id))
        if pot > 0:
            found.append(OpenPot(evening, pot))
    return sorted(found, key=lambda p: (day_of(p.evening), p.evening.id), reverse=True)


def _refuse(message: Message) -> InvalidSettingsError:
    return InvalidSettingsError({FIELD: (message,)})


def carry_into(later_id: int, earlier_id: int, *, source: str) -> CarriedPot:
    """Let evening ``later_id`` open with the pot that evening ``earlier_id`` carries on.

    Refused unless both are evenings of the same table group, of the same game and unit
    value, the earlier one carries its pot on and has not passed it to another evening,
    the later one is open and takes in no other pot, and the link goes round in no circle.
    """
    if db.session.get(Evening, earlier_id) is None:
        raise _refuse(msg("There is no evening {n}.", n=earlier_id))
    if earlier_id == later_id:
        raise _refuse(msg("An evening cannot take over its own pot."))
    refuse_tournament_table(later_id, NO_POT_FOR_TABLES)
    refuse_tournament_table(earlier_id, NO_POT_FOR_TABLES)
    earlier = lock_evening(earlier_id)
    later = lock_evening(later_id)
    ensure_open(stored_view(later_id).evening)
    problem = link_problem(earlier, later)
    if problem is not None:
        raise _refuse(problem)
    before = stored_view(earlier_id)
    link = CarriedPot(evening_id=later_id, from_evening_id=earlier_id, pot=carried_out(before))
    db.session.add(link)
    add_revision(earlier, source=source)
    add_revision(later, source=source)
    snapshots.written(earlier_id, before.ledger)
    carry_forward(_checked(later), source=source)
    return link


def link_problem(earlier: Evening, later: Evening) -> Message | None:
    """Why ``later`` cannot take over ``earlier``'s pot, if it cannot."""
    if link_into(later.id) is not None:
        return msg("This evening already takes over a pot; remove that link first.")
    if (taken := link_from(earlier.id)) is not None:
        taker = db.session.get(Evening, taken.evening_id)
        assert taker is not None  # evenings are never deleted
        return msg(
            "The pot of the evening of {day} went to the evening of {later} (number {n}) already.",
            day=written(earlier),
            later=written(taker),
            n=taker.id,
        )
    return mismatch(earlier, later)


def mismatch(earlier: Evening, later: Evening) -> Message | None:
    """Why ``later`` is not an evening that may follow ``earlier`` with its pot, if it is
    not: another group, game or unit value, a rule that does not carry the pot on, or a
    link that would go round in a circle. Importing an archive links by this too."""
    day = written(earlier)
    if is_tournament_table(earlier.id) or is_tournament_table(later.id):
        return NO_POT_FOR_TABLES
    group = db.session.get(GroupEvening, earlier.id)
    if group is None:
        return msg("The evening of {day} belongs to no table group.", day=day)
    own = db.session.get(GroupEvening, later.id)
    if own is None or own.group_id != group.group_id:
        return msg("Only an evening of the same table group can take over its pot.")
    variant = get_variant(earlier.game, earlier.variant)
    if not variant.carries_on(earlier.options):
        return msg("The evening of {day} does not carry its pot on (its end rule).", day=day)
    if (later.game, later.variant) != (earlier.game, earlier.variant):
        return msg("The evening of {day} is another game or variant.", day=day)
    if later.options.get("currency") != earlier.options.get("currency"):
        return msg(
            "The evening of {day} played in {currency}; choose the same currency to take "
            "over its pot.",
            day=day,
            currency=earlier.options.get("currency", ""),
        )
    if _worth(later) != _worth(earlier):
        return msg(
            "The evening of {day} played for {value} a jeton; choose the same unit value to "
            "take over its pot.",
            day=day,
            value=earlier.options.get("unit_value", ""),
        )
    if later.id in _earlier_in_chain(earlier):
        return msg("The evening of {day} took its pot from this one.", day=day)
    return None


def _worth(evening: Evening) -> Fraction | None:
    """What a jeton is worth at ``evening``, as a number: "0.1" and "0.10" are one value."""
    value = evening.options.get("unit_value")
    return to_fraction(value) if value is not None else None


def _earlier_in_chain(evening: Evening) -> set[int]:
    """Every evening whose pot reached ``evening``, directly or along the chain."""
    seen: set[int] = set()
    link = db.session.get(CarriedPot, evening.id)
    while link is not None and link.from_evening_id is not None:
        if link.from_evening_id in seen:
            break
        seen.add(link.from_evening_id)
        link = db.session.get(CarriedPot, link.from_evening_id)
    return seen


def remove_link(later_id: int, *, source: str) -> None:
    """Let evening ``later_id`` open with an empty pot again; the earlier evening's pot is
    open again. Both keep a revision saying so."""
    link = link_into(later_id)
    if link is None:
        return
    earlier_id = link.from_evening_id
    # The earlier evening first, as the chain runs.
    earlier = lock_evening(earlier_id) if earlier_id is not None else None
    later = lock_evening(later_id)
    link = link_into(later_id)
    if link is None:
        return
    if link.from_evening_id != earlier_id:
        raise StaleVersionError(later.version)  # linked anew meanwhile: read it again
    if not is_tournament_table(later_id):
        # A tournament table took no pot in by right: taking it out repairs the table even
        # after its round closed it.
        ensure_open(stored_view(later_id).evening)
    before = stored_view(earlier_id) if earlier_id is not None else None
    db.session.delete(link)
    if earlier is not None and before is not None:
        add_revision(earlier, source=source)
        snapshots.written(earlier.id, before.ledger)
    add_revision(later, source=source)
    carry_forward(_checked(later), source=source)


def carry_forward(current: EveningView, *, source: str) -> None:
    """Bring the pots ``current`` carries on up to date, along the whole chain, after a
    write that may have changed what it carries (a hand, its options). ``current`` is the
    evening as this write leaves it.

    Each later evening whose carried-in pot changes gets a new settings revision. A later
    evening that is closed is not changed behind the back of whoever signed it: the write
    is refused, naming it. So is one whose stored hands would no longer fit.
    """
    if current.evening.carried_to is None:
        return
    db.session.flush()
    while (link := link_from(current.evening.id)) is not None:
        pot = carried_out(current)
        if pot == link.pot:
            return
        later = lock_evening(link.evening_id)
        if later.closed_at is not None:
            raise InvalidInputError.single(
                FIELD,
                msg(
                    "This evening's pot was carried into the evening of {day}, which is "
                    "closed: reopen that evening first, then change this one.",
                    day=written(later),
                ),
            )
        link.pot = pot
        add_revision(later, source=source)
        current = _checked(later)


def link_from(evening_id: int) -> CarriedPot | None:
    """The link that carries ``evening_id``'s pot on, if any."""
    return db.session.scalars(
        select(CarriedPot).where(CarriedPot.from_evening_id == evening_id)
    ).one_or_none()


def link_into(evening_id: int) -> CarriedPot | None:
    """The link that carries a pot into ``evening_id``, as stored now, if any."""
    return db.session.get(CarriedPot, evening_id, populate_existing=True)


def _checked(later: Evening) -> EveningView:
    """``later`` as this write leaves it, replayed with its new carried-in pot; a stored
    hand that no longer fits is named (a Kulanz larger than the Bieterin's share now,
    say)."""
    try:
        return snapshots.written(later.id)
    except InvalidInputError as error:
        messages = [m for ms in error.errors.values() for m in ms]
        raise _refuse(
            msg(
                "The pot carried into the evening of {day} would change, and then: {reason}",
                day=written(later),
                reason=messages[0],
            )
        ) from error
