"""An evening archive, checked (``archive_checks``), stored as a new evening with every
revision it holds, and its carried pot linked (docs/archives.md).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from scorekeeper import operations
from scorekeeper.core.rules.base import (
    InvalidInputError,
    Message,
    msg,
)
from scorekeeper.core.validation import name_key
from scorekeeper.db.extensions import db
from scorekeeper.db.models import (
    CarriedPot,
    Evening,
    EveningRevision,
    Hand,
    HandRevision,
    Player,
    Seat,
    Seating,
)
from scorekeeper.operations import carried_pots, snapshots, table_groups
from scorekeeper.operations.archive_checks import (
    ArchiveError,
    CheckedArchive,
    CheckedHand,
    archive_error,
    check_archive,
    first_message,
)
from scorekeeper.operations.evening_archives import identity
from scorekeeper.operations.evening_revisions import add_revision
from scorekeeper.operations.views import locks_rows, take_lock


def import_evening(data: object, *, source: str = "import") -> Evening:
    """Store an archived evening as a new one; refuse the whole file if anything is off.

    Flushes, never commits: on a refusal the caller rolls back, though nothing was added.
    """
    try:
        checked = check_archive(data)
    except ArchiveError as error:
        raise _refused(error.problem) from error
    return store(checked, source=source, refused=_refused)


def _refused(problem: Message) -> ArchiveError:
    return archive_error(msg("{problem} Nothing was imported.", problem=problem))


def store(
    checked: CheckedArchive,
    *,
    source: str,
    refused: Callable[[Message], ArchiveError] = archive_error,
) -> Evening:
    """Store a checked archive as a new evening, with one settings revision more saying
    where it came from (``source``); ``refused`` words a problem found only once stored."""
    people: dict[str, Player] = {}

    def person(name: str) -> Player:
        # Rows are not flushed while the archive is stored, so each name is looked up once.
        # A name the installation knows in another case is that player, as when an evening
        # is started (docs/archives.md).
        key = name_key(name)
        if key not in people:
            people[key] = operations.player_named(name)
        return people[key]

    names = {n for s in checked.seatings for n in s.players}
    with db.session.no_autoflush:
        evening = Evening(
            game=checked.variant.game,
            variant=checked.variant.key,
            title=checked.title,
            place=checked.place,
            date=checked.date,
            options=checked.options,
            language=checked.language,
            closed_at=checked.closed_at,
            created_at=checked.created_at,
        )
        db.session.add(evening)
        for s in checked.seatings:
            seating = Seating(
                evening=evening,
                from_hand=s.from_hand,
                dealer=person(s.dealer) if s.dealer is not None else None,
                created_at=s.created_at,
            )
            seating.seats = [Seat(position=p, player=person(n)) for p, n in enumerate(s.players)]
            db.session.add(seating)
        for h in checked.hands:
            _store_hand(evening, h, person(h.dealer))
        for r in checked.settings:
            db.session.add(
                EveningRevision(
                    evening=evening,
                    version=r.version,
                    settings=r.settings,
                    at=r.at,
                    source=r.source,
                )
            )
        evening.version = checked.settings[-1].version + 1
    try:
        db.session.flush()
    except IntegrityError:
        raise refused(msg("The file is damaged: two hands or seatings share a number.")) from None
    if checked.carried is not None:
        # The pot as the archive says: it is not worked out again from the earlier evening.
        db.session.add(CarriedPot(evening_id=evening.id, pot=checked.carried.pot))
        db.session.flush()
        db.session.refresh(evening, ["carried", "carried_on"])
    # The revision saying where the evening came from holds the pot it took over.
    db.session.add(
        EveningRevision(
            evening=evening,
            version=evening.version,
            settings=operations.evening_settings(evening),
            source=source,
        )
    )
    db.session.flush()
    if checked.group is not None:
        table_groups.adopt(evening, checked.group.name, checked.group.members)
    link_carried(evening, checked, source=source)
    # The check replayed these very facts, unless a name is stored as the installation
    # spells it: then the evening is replayed as stored.
    spelled = all(person(n).name == n for n in names)
    try:
        snapshots.written(evening.id, checked.ledger if spelled else None)
    except InvalidInputError as error:
        raise refused(
            msg(
                "The file is damaged: hand {n} does not fit the rules: {problem}",
                n=error.hand or "?",
                problem=first_message(error),
            )
        ) from error
    return evening


def link_carried(evening: Evening, checked: CheckedArchive, *, source: str) -> Evening | None:
    """Link the pot ``evening`` (stored from ``checked``) took over to the evening it came
    from, when that evening is in this installation and its pot went to no other evening
    yet; returns it. The pot stays as the archive says (docs/archives.md, "Carried pots").

    The earlier evening keeps a settings revision saying where its pot went, as when a pot
    is carried on at the table. An evening that could not take the pot over at the table
    (another group, game or unit value, a rule that does not carry the pot on, a circle)
    is not linked: the pot stays as the archive says, from an evening not here.
    """
    wanted = checked.carried.source if checked.carried is not None else None
    link = db.session.get(CarriedPot, evening.id)
    if wanted is None or link is None or link.from_evening_id is not None:
        return None
    taken = select(CarriedPot.from_evening_id).where(CarriedPot.from_evening_id.is_not(None))
    found = db.session.scalars(
        select(Evening)
        .where(
            Evening.game == wanted.game,
            Evening.variant == wanted.variant,
            Evening.created_at == wanted.created_at,
            Evening.id != evening.id,
            Evening.id.not_in(taken),
        )
        .order_by(Evening.id)
    )
    key = identity(wanted.game, wanted.variant, wanted.created_at)
    for earlier in found:
        if identity(earlier.game, earlier.variant, earlier.created_at) != key:
            continue
        if carried_pots.mismatch(earlier, evening) is not None:
            continue
        if locks_rows():
            # PostgreSQL: wait for any write to the earlier evening, which may be carrying
            # its pot on right now. SQLite's one writer is this import already.
            take_lock(earlier.id)
            if carried_pots.link_from(earlier.id) is not None:
                continue
        link.from_evening_id = earlier.id
        db.session.flush()
        # Both evenings' facts changed (where the pot went, where it came from): both
        # stamps say so, as when a pot is carried on at the table.
        add_revision(earlier, source=source)
        add_revision(evening, source=source)
        return earlier
    return None


def _store_hand(evening: Evening, checked: CheckedHand, dealer: Player) -> None:
    """A hand and its versions, stored as the app stores them: a hand never changed is its
    row alone (``Hand.history``), any other keeps every version as a revision."""
    first = checked.versions[0]
    hand = Hand(
        evening=evening,
        number=checked.number,
        dealer=dealer,
        input=checked.input,
        void_reason=checked.void_reason,
        version=checked.versions[-1].version,
        created_at=checked.created_at,
        updated_at=checked.versions[-1].at,
        source=first.source,
    )
    as_recorded = (
        len(checked.versions) == 1 and first.at == checked.created_at and first.correction is None
    )
    if not as_recorded:
        for v in checked.versions:
            hand.revisions.append(
                HandRevision(
                    version=v.version,
                    input=v.input,
                    void_reason=v.void_reason,
                    at=v.at,
                    source=v.source,
                    reason=v.correction,
                )
            )
    db.session.add(hand)
