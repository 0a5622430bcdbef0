"""Reading a hand's raw facts (JSON or form data) into typed values with clear messages.

Every helper records a message in the collector instead of raising, so that a single
answer names every field that needs fixing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from itertools import islice
from typing import TypeVar

from scorekeeper.core.names import fold
from scorekeeper.core.rules.base import ErrorCollector, Table, msg

E = TypeVar("E", bound=StrEnum)

#: A whole number as typed into a form: ASCII digits only, since ``int()`` refuses "²" and
#: "--5", which ``str.isdigit`` lets through.
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
#: Longer digit strings are out of every range here, and ``int()`` refuses very long ones.
_MAX_DIGITS = 18


def find_player(name: object, table: Table) -> str | None:
    """The seated player called ``name`` (case and surrounding spaces ignored), else the
    one whose name looks the same (``names.fold``: a name from an archive written before
    names were stored composed), or None. The exact spelling is tried first: evenings
    stored before may seat two names that look alike."""
    if not isinstance(name, str):
        return None
    wanted = name.strip().casefold()
    for player in table.players:
        if player.casefold() == wanted:
            return player
    folded = fold(name)
    for player in table.players:
        if fold(player) == folded:
            return player
    return None


def read_player(
    raw: Mapping[str, object], key: str, table: Table, errors: ErrorCollector
) -> str | None:
    """A required player at the table."""
    value = raw.get(key)
    if value is None or value == "":
        errors.add(key, msg("Choose a player."))
        return None
    player = find_player(value, table)
    if player is None:
        errors.add(key, msg("{name} is not at the table.", name=str(value)))
    return player


def read_int(
    raw: Mapping[str, object],
    key: str,
    errors: ErrorCollector,
    *,
    low: int,
    high: int,
    field_name: str | None = None,
) -> int | None:
    """A whole number between ``low`` and ``high``; JSON booleans are not numbers here."""
    name = field_name or key
    value = raw.get(key)
    out_of_range = msg("Enter a number between {low} and {high}.", low=low, high=high)
    if isinstance(value, str) and _WHOLE_NUMBER.fullmatch(text := value.strip()):
        if len(text.lstrip("-")) > _MAX_DIGITS:
            errors.add(name, out_of_range)
            return None
        value = int(text)
    if isinstance(value, bool) or not isinstance(value, int):
        errors.add(name, msg("Enter a whole number."))
        return None
    if not low <= value <= high:
        errors.add(name, out_of_range)
        return None
    return value


def read_choice(
    raw: Mapping[str, object],
    key: str,
    enum: type[E],
    errors: ErrorCollector,
    *,
    default: E | None = None,
    field_name: str | None = None,
) -> E | None:
    """One of an enum's values; ``default`` when the key is missing.

    ``field_name`` names the field in the message when it differs from ``key`` (a key
    inside a nested object, such as ``pagat.result``).
    """
    value = raw.get(key)
    if value is None and default is not None:
        return default
    if isinstance(value, str):
        try:
            return enum(value)
        except ValueError:
            pass
    choices = ", ".join(e.value for e in enum)
    errors.add(field_name or key, msg("Choose one of: {choices}.", choices=choices))
    return None


#: Unknown keys named one by one; the rest are counted in one message.
MOST_UNKNOWN_NAMED = 10
#: A key is named with at most this many characters.
LONGEST_KEY_NAMED = 100


def reject_unknown(
    raw: Mapping[str, object],
    known: set[str] | frozenset[str],
    errors: ErrorCollector,
    prefix: str = "",
) -> None:
    """Name the keys that are not understood, so typos do not pass silently: the first
    ``MOST_UNKNOWN_NAMED`` each at its field (``prefix`` + key, cut to
    ``LONGEST_KEY_NAMED`` characters), the rest only counted, in one message at the
    object's own field (``body`` at the top), so a body of 300,000 made-up keys is answered
    with eleven messages rather than an error per key (docs/limits.md)."""
    unknown = (key for key in raw if key not in known)
    named = list(islice(unknown, MOST_UNKNOWN_NAMED))
    for key in named:
        shown = prefix + (
            key if len(key) <= LONGEST_KEY_NAMED else key[: LONGEST_KEY_NAMED - 1] + "…"
        )
        errors.add(shown, msg("Unknown field {key}.", key=shown))
    more = sum(1 for _ in unknown)
    if more:
        errors.add(
            prefix.rstrip(".") or "body", msg("And {more:,} more unknown fields.", more=more)
        )


def read_points_per_player(
    raw: Mapping[str, object], table: Table, errors: ErrorCollector, *, high: int
) -> dict[str, int]:
    """A Misère's ``points``: every seated player once, each between 0 and ``high``.

    Messages go to ``points`` (a missing, unknown or repeated player) or to
    ``points.<name>`` (that player's number). More entries than players are refused, and
    only the first one too many is read: one of those is unknown or repeated and is named,
    while a message for every entry would make the answer as long as the list.
    """
    given = raw.get("points")
    if not isinstance(given, Mapping):
        errors.add("points", msg("Enter the points of every player."))
        return {}
    too_many = len(given) > table.size
    if too_many:
        errors.add(
            "points",
            msg("Enter the points of the {n} players at the table, no more.", n=table.size),
        )
    points: dict[str, int] = {}
    named: set[str] = set()
    for name, value in islice(given.items(), table.size + 1):
        player = find_player(name, table)
        if player is None:
            errors.add("points", msg("{name} is not at the table.", name=str(name)))
            continue
        if player in named:
            errors.add("points", msg("{name} is given more than once.", name=player))
            continue
        named.add(player)
        number = read_int(
            {"v": value}, "v", errors, low=0, high=high, field_name=f"points.{player}"
        )
        if number is not None:
            points[player] = number
    missing = [p for p in table.players if p not in named]
    if missing and not too_many:
        errors.add(
            "points", msg("Enter the points of every player: {names}.", names=", ".join(missing))
        )
    return points


def check_sum(points: Mapping[str, int], errors: ErrorCollector, *, low: int, high: int) -> None:
    """Refuse a Misère whose points cannot add up like this at this table."""
    total = sum(points.values())
    if not low <= total <= high:
        errors.add(
            "points",
            msg(
                "The points add up to {sum}; at this table they must add up to "
                "between {low} and {high}.",
                sum=total,
                low=low,
                high=high,
            ),
        )
