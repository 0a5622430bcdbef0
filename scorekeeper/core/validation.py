"""Validation of evening settings and seating, shared by the JSON API and the pages.

Hands are validated by their variant in ``rules/``; what is checked here is generic:
the game exists, the players are named once each and fit the game, the date is a date.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from scorekeeper.core.names import clean_text, fold, invisible_problem, normal
from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import (
    CARRIED,
    KASSE,
    POT,
    ErrorCollector,
    InvalidSettingsError,
    Message,
    msg,
)
from scorekeeper.core.rules.options import parse_options
from scorekeeper.core.rules.parsing import reject_unknown
from scorekeeper.core.rules.variant import Variant

#: The longest player name (evenings, seatings, tournament entrants): a name tile on the
#: table screen and a column of the score sheet hold about this many characters, and the
#: longest real names ("Anna-Barbara Zurbriggen-Imboden") stay well below it
#: (docs/limits.md).
NAME_LENGTH = 40
#: What a name's columns hold (``Player.name`` and ``name_key``, ``Entrant.name``): names
#: stored before the limit was lowered to 40 keep their spelling, and a name's folded form
#: ("ß" folds to "ss") must fit here.
NAME_COLUMN = 80
#: The longest title, place, club or tournament name: what their columns hold.
TEXT_LENGTH = 200
#: Languages the pages and printouts speak.
LANGUAGES = ("de", "en")
#: Names of common accounts (and of whoever keeps a pot carried in); a player called like
#: one would be mistaken for it.
RESERVED = {POT, KASSE, CARRIED}
#: Names a new player or member may not take: the accounts' own, and what the German pages
#: call the pot ("Einsatz"), which a player of that name would be read as. Names stored
#: before keep their spelling; archives are held to ``RESERVED`` alone.
REFUSED_NAMES = RESERVED | {"einsatz"}
#: The longest reason for voiding or correcting a hand: a sentence, as long as a title.
VOID_LENGTH = 200


@dataclass(frozen=True, slots=True)
class EveningSettings:
    """Validated settings of a new evening."""

    variant: Variant
    players: tuple[str, ...]
    first_dealer: str
    title: str
    place: str
    date: date | None
    options: dict[str, str]
    language: str
    #: The table group it belongs to, by number (None: no group); whether the group
    #: exists is the operations' to say.
    group: int | None = None
    #: The evening whose carried pot it takes over, by number (None: none); whether it
    #: may is the operations' to say (docs/troggen.md §8).
    carried_from: int | None = None


def name_key(name: str) -> str:
    """How names are compared: their folded form, so that names that look alike (case,
    spaces, invisible characters, look-alike letters of other scripts) are one name
    (``names.fold``; docs/limits.md "Names that look alike")."""
    return fold(name)


def text_problem(value: str, limit: int) -> Message | None:
    """Why a text cannot be stored: longer than its column, or holding a NUL character.

    SQLite would keep either; PostgreSQL refuses both, so they are refused here on every
    database alike instead of failing at the commit.
    """
    if len(value) > limit:
        return msg("This can be at most {n} characters long.", n=limit)
    if "\x00" in value:
        return msg("Text cannot contain the NUL character.")
    return None


def name_problem(name: str, limit: int = NAME_LENGTH) -> Message | None:
    """Why a (stripped, non-empty) player name cannot be stored, if it cannot.

    Its folded form is stored too, and can be longer ("ß" folds to "ss"): it must fit its
    column. ``limit``: ``NAME_COLUMN`` for names stored before (an archive's).

    >>> name_problem("Anna-Barbara Zurbriggen-Imboden") is None
    True
    >>> name_problem("A" * 41).render()
    'Names can be at most 40 characters long.'
    >>> name_problem("A" * 41, NAME_COLUMN) is None
    True
    """
    if len(name) > limit or len(name_key(name)) > NAME_COLUMN:
        return msg("Names can be at most {n} characters long.", n=limit)
    return text_problem(name, limit) or invisible_problem(name)


def read_players(
    value: object,
    variant: Variant,
    errors: ErrorCollector,
    field: str = "players",
    *,
    seated: Sequence[str] = (),
) -> tuple[str, ...]:
    """A list of distinct names whose count the game allows.

    A list longer than the largest table is refused as a whole, without reading its names:
    one message, however long the list. ``seated``: names already at this evening's table,
    which keep their spelling even when longer than ``NAME_LENGTH`` (stored before the
    limit was lowered; up to ``NAME_COLUMN``).
    """
    if not isinstance(value, list):
        errors.add(field, msg("List the players' names in playing order."))
        return ()
    if len(value) > variant.max_players:
        problem = variant.player_count_problem(len(value))
        assert problem is not None
        errors.add(field, problem)
        return ()
    if not all(isinstance(v, str) for v in value):
        errors.add(field, msg("List the players' names in playing order."))
        return ()
    names = tuple(normal(v) for v in value)
    known = {name_key(s) for s in seated}
    seen: dict[str, str] = {}
    for name in names:
        limit = NAME_COLUMN if name_key(name) in known else NAME_LENGTH
        if not name:
            errors.add(field, msg("A player's name is empty."))
        elif (problem := name_problem(name, limit)) is not None:
            errors.add(field, problem)
        elif (other := seen.get(name_key(name))) is not None:
            errors.add(field, twice(name, other))
        elif name_key(name) in REFUSED_NAMES and name_key(name) not in known:
            errors.add(
                field,
                msg(
                    "{name} is reserved for the pot or the Kasse; please choose another name.",
                    name=name,
                ),
            )
        seen.setdefault(name_key(name), name)
    problem = variant.player_count_problem(len(names))
    if problem is not None:
        errors.add(field, problem)
    return names


def twice(name: str, other: str) -> Message:
    """Why ``name`` cannot sit beside ``other`` (already listed): the same name, or one
    that looks the same, named as it was written first."""
    if name.casefold() == other.casefold():
        return msg("{name} is listed twice.", name=name)
    return msg(
        "{name} looks the same as {other}, listed already; write the names so that they "
        "can be told apart.",
        name=name,
        other=other,
    )


def read_member(
    value: object, players: Sequence[str], errors: ErrorCollector, field: str
) -> str | None:
    """One of ``players`` (compared like names are), or None when not given.

    Without ``players`` (their list was refused, and says so) nothing is compared: "Anna
    is not at the table" would blame a name that stands in that list.

    >>> errors = ErrorCollector()
    >>> read_member("Anna", (), errors, "first_dealer"), errors.errors
    (None, {})
    """
    if value is None or value == "" or not players:
        return None
    if isinstance(value, str):
        for player in players:
            if name_key(player) == name_key(value):
                return player
    errors.add(field, msg("{name} is not at the table.", name=str(value)))
    return None


def read_text(raw: Mapping[str, object], key: str, errors: ErrorCollector) -> str:
    """An optional short text (a title, a place, a club), composed and without invisible
    characters (``names.clean_text``); a NUL character is refused in words."""
    value = raw.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        errors.add(key, msg("This must be text."))
        return ""
    if (problem := text_problem(value.strip(), TEXT_LENGTH)) is not None:
        errors.add(key, problem)
        return value.strip()
    return clean_text(value)


def read_date(raw: Mapping[str, object], errors: ErrorCollector) -> date | None:
    """An optional ISO date (2026-11-21)."""
    value = raw.get("date")
    if value is None or value == "":
        return None
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    errors.add("date", msg("Write the date as year-month-day, such as 2026-11-21."))
    return None


def parse_evening(raw: object) -> EveningSettings:
    """Validate the body of a new evening (docs/api.md "Evenings")."""
    if not isinstance(raw, Mapping):
        raise InvalidSettingsError.single("body", msg("Send the evening as a JSON object."))
    errors = ErrorCollector()
    known = {
        "game",
        "variant",
        "players",
        "first_dealer",
        "title",
        "place",
        "date",
        "options",
        "language",
        "group",
        "carried_from",
    }
    reject_unknown(raw, known, errors)
    game, variant_key = raw.get("game"), raw.get("variant")
    if not isinstance(game, str) or not game:
        errors.add("game", msg("Choose a game."))
        errors.raise_if_any(InvalidSettingsError)
    if variant_key is not None and not isinstance(variant_key, str):
        errors.add("variant", msg("Choose a variant."))
        errors.raise_if_any(InvalidSettingsError)
    assert isinstance(game, str)
    variant = get_variant(game, variant_key or None)
    players = read_players(raw.get("players"), variant, errors)
    first_dealer = read_member(raw.get("first_dealer"), players, errors, "first_dealer")
    title = read_text(raw, "title", errors)
    place = read_text(raw, "place", errors)
    when = read_date(raw, errors)
    language = raw.get("language", "de")
    if language not in LANGUAGES:
        errors.add("language", msg("Choose one of: {choices}.", choices=", ".join(LANGUAGES)))
    options: dict[str, str] = {}
    try:
        options = parse_options(variant.option_specs, raw.get("options"))
    except InvalidSettingsError as error:
        for field, messages in error.errors.items():
            for message in messages:
                errors.add(field, message)
    group = read_group(raw, errors)
    carried_from = read_chosen(
        raw, "carried_from", errors, msg("Choose the pot to take over from the list, or none.")
    )
    errors.raise_if_any(InvalidSettingsError)
    return EveningSettings(
        variant,
        players,
        first_dealer or players[0],
        title,
        place,
        when,
        options,
        str(language),
        group,
        carried_from,
    )


def read_group(raw: Mapping[str, object], errors: ErrorCollector) -> int | None:
    """An optional table group, by its number (null or left out: none)."""
    return read_chosen(raw, "group", errors, msg("Choose a group from the list, or none."))


def read_chosen(
    raw: Mapping[str, object], key: str, errors: ErrorCollector, problem: Message
) -> int | None:
    """An optional choice by number (a group, a member): a whole number a database column
    holds; null or left out: none; anything else is ``problem`` at ``key``."""
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**31:
        errors.add(key, problem)
        return None
    return value
