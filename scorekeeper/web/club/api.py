"""The JSON API for table groups and their members, in the style of docs/api.md.

Groups hold every regular's name and history: the same access as the players page
(``access.may_manage_installation``); a tournament table's token reaches none of it.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, request, url_for
from flask_babel import gettext

from scorekeeper import operations
from scorekeeper.core.rules.base import ErrorCollector, InvalidSettingsError, Message, msg
from scorekeeper.core.rules.parsing import reject_unknown
from scorekeeper.core.statistics import compare, player_statistics, season_table
from scorekeeper.core.validation import read_chosen
from scorekeeper.db.models import Evening, Member, TableGroup
from scorekeeper.operations import carried_pots, club_statistics, table_groups
from scorekeeper.operations.club_statistics import Season, person_key
from scorekeeper.web.answers import reply
from scorekeeper.web.bodies import body
from scorekeeper.web.club.queries import read_filters, read_order
from scorekeeper.web.club.shapes import comparison_json, ordered, season_json, statistics_json
from scorekeeper.web.evenings.pages import local_today
from scorekeeper.web.forms import chosen_id
from scorekeeper.web.managed import for_the_installation
from scorekeeper.web.writing import Written, write

bp = for_the_installation(Blueprint("groups_api", __name__, url_prefix="/api/v1"))


def load(group_id: int) -> TableGroup:
    """The group, or 404."""
    try:
        return table_groups.get_group(group_id)
    except table_groups.GroupNotFoundError:
        abort(404, description=gettext("There is no group %(id)s.", id=group_id))


def load_member(group: TableGroup, member_id: int) -> Member:
    """The group's member, or 404."""
    try:
        return table_groups.get_member(group, member_id)
    except table_groups.GroupNotFoundError:
        abort(404, description=gettext("There is no member %(id)s.", id=member_id))


def member_json(member: Member) -> dict[str, Any]:
    """A member: the name the group uses and the names written at its evenings."""
    return {
        "id": member.id,
        "name": member.name,
        "written_as": sorted(n.player.name for n in member.names),
    }


def evening_entry(evening: Evening) -> dict[str, Any]:
    """An evening of the group, as its list shows it."""
    return {
        "id": evening.id,
        "date": evening.date.isoformat() if evening.date else None,
        "title": evening.title,
        "game": evening.game,
        "variant": evening.variant,
    }


def group_json(group: TableGroup, *, whole: bool = False) -> dict[str, Any]:
    """A group; ``whole``: with its members and evenings."""
    answer: dict[str, Any] = {"id": group.id, "name": group.name}
    if whole:
        answer["members"] = [member_json(m) for m in group.members]
        answer["evenings"] = [evening_entry(e) for e in table_groups.evenings_of(group)]
    return answer


@bp.get("/groups")
def index() -> Response:
    """Every group, by name."""
    return jsonify({"groups": [group_json(g) for g in table_groups.all_groups()]})


@bp.post("/groups")
def create() -> Response:
    """Start a group, ``{"name": "Donnerstagsrunde"}``."""
    raw = body()

    def make() -> Written[Response]:
        group = table_groups.create_group(raw)
        location = url_for("groups_api.show", group_id=group.id)
        return Written(reply(group_json(group, whole=True), 201, location))

    return write(make)


@bp.get("/groups/<int:group_id>")
def show(group_id: int) -> Response:
    """A group with its members and evenings."""
    return jsonify(group_json(load(group_id), whole=True))


@bp.patch("/groups/<int:group_id>")
def rename(group_id: int) -> Response:
    """Rename a group, ``{"name": ...}``."""
    raw = body()

    def make() -> Written[Response]:
        group = table_groups.rename_group(load(group_id), raw)
        return Written(jsonify(group_json(group, whole=True)))

    return write(make)


@bp.patch("/groups/<int:group_id>/members/<int:member_id>")
def rename_member(group_id: int, member_id: int) -> Response:
    """What the group calls a member from now on, ``{"name": ...}``."""
    raw = body()

    def make() -> Written[Response]:
        group = load(group_id)
        table_groups.lock_group(group)
        member = table_groups.rename_member(load_member(group, member_id), raw)
        return Written(jsonify(member_json(member)))

    return write(make)


@bp.post("/groups/<int:group_id>/members/<int:member_id>/merge")
def merge(group_id: int, member_id: int) -> Response:
    """Another member is this one, ``{"other": 7}``: their names become this member's."""
    raw = body()

    def make() -> Written[Response]:
        group = load(group_id)
        table_groups.lock_group(group)
        keep = load_member(group, member_id)
        other = load_member(group, read_number(raw, "other"))
        merged = table_groups.merge_members(group, keep, other)
        return Written(jsonify(member_json(merged)))

    return write(make)


def asked_season(group_id: int) -> Season:
    """The season the query asks for (``from``, ``to``, ``game``, ``variant``)."""
    filters = read_filters(request.args, local_today())
    return club_statistics.season(load(group_id), filters)


@bp.get("/groups/<int:group_id>/season")
def season(group_id: int) -> Response:
    """The season table: a row per member and game (and unit and currency)."""
    found = asked_season(group_id)
    key, descending = read_order(request.args)
    rows = ordered(found, season_table(found.evenings), key, descending)
    return jsonify(season_json(found, rows))


@bp.get("/groups/<int:group_id>/members/<int:member_id>/statistics")
def member_statistics(group_id: int, member_id: int) -> Response:
    """A member's season: every evening, the running result, every figure per game."""
    found = asked_season(group_id)
    member = load_member(found.group, member_id)
    stats = player_statistics(found.evenings, person_key(member))
    return jsonify(statistics_json(found, stats))


@bp.get("/groups/<int:group_id>/compare")
def compare_members(group_id: int) -> Response:
    """Two members side by side, ``?a=3&b=7``."""
    found = asked_season(group_id)
    a, b = (load_member(found.group, read_query_number(k)) for k in ("a", "b"))
    both = compare(
        player_statistics(found.evenings, person_key(a)),
        player_statistics(found.evenings, person_key(b)),
    )
    return jsonify(comparison_json(found, both))


def read_query_number(key: str) -> int:
    """A member's number from the query."""
    number = chosen_id(request.args.get(key, ""))
    if number is None:
        raise InvalidSettingsError.single(key, msg("Choose one from the list."))
    return number


@bp.put("/evenings/<int:evening_id>/group")
def put_evening(evening_id: int) -> Response:
    """Put an evening into a group, ``{"group": 3}``, or into none, ``{"group": null}``."""
    raw = body()

    def make() -> Written[Response]:
        evening, wanted = evening_and_choice(
            evening_id, raw, "group", msg("Say which group, or null for none.")
        )
        group = None if wanted is None else load(wanted)
        table_groups.put_in_group(evening, group)
        return Written(jsonify({"evening": evening_id, "group": group and group.id}))

    return write(make)


def evening_and_choice(
    evening_id: int, raw: object, key: str, refusal: Message
) -> tuple[Evening, int | None]:
    """The evening a PUT changes (or 404) and the number its body chooses under ``key``,
    which must be said, as null for none (``refusal`` when it is not)."""
    evening = operations.evening_row(evening_id)
    if evening is None:
        abort(404, description=gettext("There is no evening %(id)s.", id=evening_id))
    if not isinstance(raw, dict) or key not in raw:
        raise InvalidSettingsError.single(key, refusal)
    return evening, read_optional_number(raw, key)


def read_number(raw: object, key: str) -> int:
    """A required number (a member's, a group's) from the body."""
    found = read_optional_number(raw, key)
    if found is None:
        raise InvalidSettingsError.single(key, msg("Choose one from the list."))
    return found


def read_optional_number(raw: object, key: str) -> int | None:
    """An optional number from the body; null or left out: none."""
    if not isinstance(raw, dict):
        raise InvalidSettingsError.single("body", msg("Send it as a JSON object."))
    errors = ErrorCollector()
    reject_unknown(raw, {key}, errors)
    found = read_chosen(raw, key, errors, msg("Choose one from the list."))
    errors.raise_if_any(InvalidSettingsError)
    return found


@bp.put("/evenings/<int:evening_id>/carried-pot")
def put_carried_pot(evening_id: int) -> Response:
    """Let an evening open with the pot an earlier evening of its group carries on,
    ``{"carried_from": 12}``, or with none again, ``{"carried_from": null}``
    (docs/troggen.md §8)."""
    raw = body()

    def make() -> Written[Response]:
        evening, earlier = evening_and_choice(
            evening_id, raw, "carried_from", msg("Say which evening's pot, or null for none.")
        )
        if earlier is None:
            carried_pots.remove_link(evening.id, source="api")
        else:
            carried_pots.carry_into(evening.id, earlier, source="api")
        link = carried_pots.link_into(evening_id)
        return Written(
            jsonify(
                {
                    "evening": evening_id,
                    "carried_from": link.from_evening_id if link is not None else None,
                    "carried_in": link.pot if link is not None else 0,
                }
            )
        )

    return write(make)
