"""Table groups and their members: who a name at a group's evening is (docs/club.md).

A group is named once; its evenings are put into it when they start or afterwards. Each
name written at a group's evening stands for one member of the group, created the first
time the name appears there. A member can be renamed (the names written at the table stay
as they were, the history with them) and two members who are one person can be merged.
Within a group a name is one person; the same name in another group, or at an evening of
no group, is someone else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sqlalchemy import delete, func, select

from scorekeeper.core.names import normal
from scorekeeper.core.rules.base import (
    ErrorCollector,
    InvalidSettingsError,
    ScorekeeperError,
    msg,
)
from scorekeeper.core.rules.parsing import reject_unknown
from scorekeeper.core.validation import REFUSED_NAMES, name_key, name_problem
from scorekeeper.db.extensions import db
from scorekeeper.db.models import (
    Evening,
    GroupEvening,
    Member,
    MemberName,
    Player,
    Seat,
    Seating,
    TableGroup,
)
from scorekeeper.operations.errors import NO_GROUP_FOR_TABLES, refuse_tournament_table

#: Groups an installation keeps: a club meets weekly for years, a few groups each.
MAX_GROUPS = 200


class GroupNotFoundError(ScorekeeperError):
    """No group, or no member, with that number (404)."""


def read_name(raw: object, field: str = "name") -> str:
    """A group's or member's name from a JSON object, checked as player names are."""
    if not isinstance(raw, Mapping):
        raise InvalidSettingsError.single("body", msg("Send it as a JSON object."))
    errors = ErrorCollector()
    reject_unknown(raw, {field}, errors)
    value = raw.get(field)
    if not isinstance(value, str) or not value.strip():
        errors.add(field, msg("Enter a name."))
    elif (problem := name_problem(normal(value))) is not None:
        errors.add(field, problem)
    errors.raise_if_any(InvalidSettingsError)
    assert isinstance(value, str)
    return normal(value)


def all_groups() -> list[TableGroup]:
    """Every group, by name."""
    return list(db.session.scalars(select(TableGroup).order_by(TableGroup.name_key)))


def get_group(group_id: int) -> TableGroup:
    """The group with that number."""
    group = db.session.get(TableGroup, group_id)
    if group is None:
        raise GroupNotFoundError(group_id)
    return group


def lock_group(group: TableGroup) -> None:
    """Hold ``group``'s row until the write commits, and read its members anew: the
    member writes of one group (renames, merges) run one after the other, each deciding on
    what the one before left. Two merges at once, A with B and C with B, both answered 200
    and one did nothing; now the second finds B merged already. (SQLite's write lock,
    taken when the write begins, does the same.)"""
    db.session.execute(select(TableGroup.id).where(TableGroup.id == group.id).with_for_update())
    db.session.expire_all()


def get_member(group: TableGroup, member_id: int) -> Member:
    """The member of ``group`` with that number."""
    member = db.session.get(Member, member_id)
    if member is None or member.group_id != group.id:
        raise GroupNotFoundError(member_id)
    return member


def _check_free(name: str, keep: TableGroup | None = None) -> None:
    """Refuse a group name another group has, or one that looks the same (``name_key``),
    naming the group there is."""
    found = db.session.scalars(
        select(TableGroup).where(TableGroup.name_key == name_key(name))
    ).first()
    if found is not None and found is not keep:
        if found.name == name:
            refusal = msg("A group of this name exists already.")
        else:
            refusal = msg(
                "A group of this name exists already: {other} looks the same.",
                other=found.name,
            )
        raise InvalidSettingsError.single("name", refusal)


def create_group(raw: object) -> TableGroup:
    """A new group, ``{"name": "Donnerstagsrunde"}``."""
    name = read_name(raw)
    _check_free(name)
    if (db.session.scalar(select(func.count()).select_from(TableGroup)) or 0) >= MAX_GROUPS:
        limit = msg("An installation keeps at most {n} groups.", n=MAX_GROUPS)
        raise InvalidSettingsError.single("name", limit)
    group = TableGroup(name=name, name_key=name_key(name))
    db.session.add(group)
    db.session.flush()
    return group


def rename_group(group: TableGroup, raw: object) -> TableGroup:
    """Give the group another name."""
    name = read_name(raw)
    _check_free(name, keep=group)
    group.name, group.name_key = name, name_key(name)
    db.session.flush()
    return group


def group_of(evening_id: int) -> TableGroup | None:
    """The group of evening ``evening_id``, if it belongs to one."""
    link = db.session.get(GroupEvening, evening_id)
    return None if link is None else link.group


def evenings_of(group: TableGroup) -> list[Evening]:
    """The group's evenings, oldest first (by date, then as they were started)."""
    found = db.session.scalars(
        select(Evening)
        .join(GroupEvening, GroupEvening.evening_id == Evening.id)
        .where(GroupEvening.group_id == group.id)
    )
    return sorted(found, key=lambda e: (e.date or e.created_at.date(), e.id))


def put_in_group(evening: Evening, group: TableGroup | None) -> None:
    """Make ``evening`` one of ``group``'s (None: of no group); everyone who sat at it
    becomes a member, or is the member their name already stands for."""
    if group is not None:
        refuse_tournament_table(evening.id, NO_GROUP_FOR_TABLES)
    link = db.session.get(GroupEvening, evening.id)
    moved = link is None or group is None or link.group_id != group.id
    carried = evening.carried is not None and evening.carried.from_evening_id is not None
    if moved and (carried or evening.carried_on is not None):
        refusal = msg(
            "This evening's pot is carried from or to another evening of its group; "
            "remove that link first."
        )
        raise InvalidSettingsError.single("group", refusal)
    if group is None:
        if link is not None:
            db.session.delete(link)
            db.session.flush()
        return
    if link is None:
        db.session.add(GroupEvening(evening_id=evening.id, group_id=group.id))
    else:
        link.group_id = group.id
    seated = {seat.player for seating in evening.seatings for seat in seating.seats}
    ensure_members(group, sorted(seated, key=lambda p: p.id))
    db.session.flush()


def ensure_members(group: TableGroup, players: Iterable[Player]) -> None:
    """A member for each of ``players`` whose name the group does not know yet; a name
    that looks like a member's (``name_key``) is that member's, as a name is one person
    within a group."""
    known = set(
        db.session.scalars(select(MemberName.player_id).where(MemberName.group_id == group.id))
    )
    by_key = {m.name_key: m for m in group.members}
    for player in players:
        if player.id in known:
            continue
        member = by_key.get(name_key(player.name))
        if member is None:
            member = Member(group=group, name=player.name)
            db.session.add(member)
            by_key[member.name_key] = member
        member.names.append(MemberName(group_id=group.id, player=player))
        known.add(player.id)
    db.session.flush()


def rename_member(member: Member, raw: object) -> Member:
    """What the group calls the member from now on; the names written at its evenings
    stay as they were, and stay theirs.

    Refused: a name another member of the group is called (two rows of one name in the
    season table would be two people no one can tell apart; one person is merged), and a
    name a new player could not take either.
    """
    name = read_name(raw)
    if name_key(name) in REFUSED_NAMES:
        refusal = msg(
            "{name} is reserved for the pot or the Kasse; please choose another name.", name=name
        )
        raise InvalidSettingsError.single("name", refusal)
    for other in member.group.members:
        if other.id != member.id and name_key(other.name) == name_key(name):
            refusal = msg(
                "Another member is called {name} already. If it is the same person, merge "
                "the two instead.",
                name=other.name,
            )
            raise InvalidSettingsError.single("name", refusal)
    member.name = name
    db.session.flush()
    return member


def check_merge(group: TableGroup, keep: Member, other: Member) -> None:
    """Refuse to merge a member with itself, or two members who sat at one table."""
    if keep.id == other.id:
        raise InvalidSettingsError.single("other", msg("Choose two different members."))
    shared = _evenings_seating(group, other) & _evenings_seating(group, keep)
    if shared:
        evening = db.session.get_one(Evening, min(shared))
        refusal = msg(
            "They sat at one table on {day}, so they are two people and stay apart.",
            day=_day(evening),
        )
        raise InvalidSettingsError.single("other", refusal)


def merge_members(group: TableGroup, keep: Member, other: Member) -> Member:
    """``other`` and ``keep`` are one person: every name of ``other`` becomes ``keep``'s.

    Two names of one person never sat at one table, so nothing is counted twice; if they
    did, they are two people, and the merge is refused.
    """
    check_merge(group, keep, other)
    db.session.execute(
        MemberName.__table__.update()
        .where(MemberName.member_id == other.id)
        .values(member_id=keep.id)
    )
    db.session.execute(delete(Member).where(Member.id == other.id))
    db.session.expire_all()
    return db.session.get(Member, keep.id) or keep


def _evenings_seating(group: TableGroup, member: Member) -> set[int]:
    """The group's evenings where one of ``member``'s names sat, in one query."""
    names = [n.player_id for n in member.names]
    return set(
        db.session.scalars(
            select(Seating.evening_id)
            .join(Seat, Seat.seating_id == Seating.id)
            .join(GroupEvening, GroupEvening.evening_id == Seating.evening_id)
            .where(GroupEvening.group_id == group.id, Seat.player_id.in_(names))
        )
    )


def _day(evening: Evening) -> str:
    """The evening's date as the refusal names it, as the pages write days (14.11.2026)."""
    return (evening.date or evening.created_at.date()).strftime("%d.%m.%Y")


def persons(group: TableGroup) -> dict[int, Member]:
    """The member each player (by id) stands for in ``group``."""
    rows = db.session.execute(
        select(MemberName.player_id, Member)
        .join(Member, Member.id == MemberName.member_id)
        .where(MemberName.group_id == group.id)
    )
    return {player_id: member for player_id, member in rows}


def rename_members_called(player: Player, old_name: str) -> None:
    """A player anonymised: members who were called by the old name are called by the new
    one, so their statistics stay whole under it (docs/club.md)."""
    members = db.session.scalars(
        select(Member)
        .join(MemberName, MemberName.member_id == Member.id)
        .where(MemberName.player_id == player.id)
    )
    for member in members:
        if name_key(member.name) == name_key(old_name):
            member.name = player.name
    db.session.flush()


def members_at(group: TableGroup, evening: Evening) -> dict[str, str]:
    """Each name seated at ``evening``, and the name of the member of ``group`` it stands
    for: what an archive keeps of who is who (docs/archives.md, "Groups")."""
    by_player = persons(group)
    return {
        seat.player.name: by_player[seat.player_id].name
        for seating in evening.seatings
        for seat in seating.seats
        if seat.player_id in by_player
    }


def group_named(name: str) -> TableGroup:
    """The group of that name (case ignored), started if the installation has none."""
    found = db.session.scalars(
        select(TableGroup).where(TableGroup.name_key == name_key(name))
    ).first()
    if found is not None:
        return found
    group = TableGroup(name=name, name_key=name_key(name))
    db.session.add(group)
    db.session.flush()
    return group


def adopt(evening: Evening, group_name: str, members: Mapping[str, str]) -> None:
    """An imported or restored evening joins the group its archive names; each name at its
    table stands for the member the archive says: the one the group already knows for
    that name, else the group's member of the archive's member name, else a new one."""
    group = group_named(group_name)
    link = db.session.get(GroupEvening, evening.id)
    if link is None:
        db.session.add(GroupEvening(evening_id=evening.id, group_id=group.id))
    by_player = persons(group)
    by_name = {name_key(m.name): m for m in group.members}
    for seating in evening.seatings:
        for seat in seating.seats:
            player = seat.player
            if player.id in by_player or player.name not in members:
                continue
            wanted = members[player.name]
            member = by_name.get(name_key(wanted))
            if member is None:
                member = Member(group=group, name=wanted)
                db.session.add(member)
                by_name[name_key(wanted)] = member
            member.names.append(MemberName(group_id=group.id, player=player))
            by_player[player.id] = member
    ensure_members(group, [s.player for seating in evening.seatings for s in seating.seats])
    db.session.flush()
