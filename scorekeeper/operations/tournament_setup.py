"""A tournament's set-up and its entrants: validated, stored, changed while allowed.

The set-up (game, house rules, rounds, deals per player, scoring) is frozen when the first
round starts; entrants can register, check in and drop out at any time, and their start
number stays theirs for the whole tournament.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from flask import current_app
from sqlalchemy import select
from werkzeug.security import generate_password_hash

from scorekeeper.core.names import normal
from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import ErrorCollector, InvalidSettingsError, ScorekeeperError, msg
from scorekeeper.core.rules.options import parse_options
from scorekeeper.core.rules.parsing import read_int, reject_unknown
from scorekeeper.core.rules.variant import Variant
from scorekeeper.core.standings import SCORINGS
from scorekeeper.core.validation import (
    LANGUAGES,
    NAME_COLUMN,
    NAME_LENGTH,
    REFUSED_NAMES,
    name_key,
    name_problem,
    read_date,
    read_text,
)
from scorekeeper.db.extensions import db
from scorekeeper.db.tournament_models import Entrant, Tournament, TournamentEvent
from scorekeeper.operations.errors import StaleVersionError

MAX_ROUNDS = 20
MAX_DEALS = 10
MAX_START_NUMBER = 9999
#: Entrants of one tournament. The largest tarock tournaments seat a few hundred players;
#: the draw weighs every pair of them (a thousand: a million pairs, a fifth of a second),
#: so ten times as many would take minutes and gigabytes (docs/limits.md).
MAX_ENTRANTS = 1000
#: The longest tournament name: each table's evening is titled after it, "<name>: Round 20,
#: table 334" ("Durchgang 20, Tisch 334"), and that title must fit the 200 characters of a
#: title; a name stored longer before stays as it is (docs/limits.md).
NAME_OF_TOURNAMENT_LENGTH = 160
PASSWORD_LENGTH = 6
SETUP_KEYS = {
    "name",
    "place",
    "date",
    "game",
    "variant",
    "options",
    "rounds",
    "deals_per_player",
    "scoring",
    "language",
    "password",
}
ENTRANT_KEYS = {"name", "club", "number", "present"}


class FrozenError(ScorekeeperError):
    """The set-up cannot change once the first round has started."""


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """A validated set-up (the password already hashed)."""

    name: str
    place: str
    date: date | None
    variant: Variant
    options: dict[str, str]
    rounds: int
    deals_per_player: int
    scoring: str
    language: str
    password_hash: str | None


def log(tournament: Tournament, kind: str, reason: str | None = None, **detail: Any) -> None:
    """Keep a trace of an organiser's action in the tournament's log."""
    db.session.add(
        TournamentEvent(tournament_id=tournament.id, kind=kind, detail=detail, reason=reason)
    )


def parse_settings(raw: object, *, current: Tournament | None = None) -> TournamentSettings:
    """Validate a set-up: a new one, or changes to ``current`` (missing keys keep theirs)."""
    if not isinstance(raw, Mapping):
        raise InvalidSettingsError.single("body", msg("Send the tournament as a JSON object."))
    errors = ErrorCollector()
    reject_unknown(raw, SETUP_KEYS | ({"version"} if current else set()), errors)
    merged: dict[str, object] = {**(as_body(current) if current else {}), **raw}
    name = read_text(merged, "name", errors)
    if not name and "name" not in errors.errors:
        errors.add("name", msg("Give the tournament a name."))
    elif (
        len(name) > NAME_OF_TOURNAMENT_LENGTH
        and "name" not in errors.errors
        and (current is None or name != current.name)
    ):
        errors.add(
            "name",
            msg("This can be at most {n} characters long.", n=NAME_OF_TOURNAMENT_LENGTH),
        )
    game, variant_key = merged.get("game"), merged.get("variant")
    if not isinstance(game, str) or not game:
        errors.add("game", msg("Choose a game."))
        errors.raise_if_any(InvalidSettingsError)
    if variant_key is not None and not isinstance(variant_key, str):
        errors.add("variant", msg("Choose a variant."))
        errors.raise_if_any(InvalidSettingsError)
    assert isinstance(game, str)
    variant = get_variant(game, str(variant_key) if variant_key else None)
    if variant.keeps_tally:
        errors.add(
            "variant",
            msg("This variant counts Striche, not points; choose one that keeps a score."),
        )
    options = _read_options(variant, merged.get("options"), errors)
    rounds = read_int(merged, "rounds", errors, low=1, high=MAX_ROUNDS)
    deals = read_int(merged, "deals_per_player", errors, low=1, high=MAX_DEALS)
    scoring = merged.get("scoring", "sum")
    if scoring not in SCORINGS:
        errors.add("scoring", msg("Choose one of: {choices}.", choices=", ".join(SCORINGS)))
    language = merged.get("language", "de")
    if language not in LANGUAGES:
        errors.add("language", msg("Choose one of: {choices}.", choices=", ".join(LANGUAGES)))
    password_hash = current.password_hash if current else None
    if "password" in raw or current is None:
        password = raw.get("password")
        if not isinstance(password, str) or len(password) < PASSWORD_LENGTH:
            errors.add(
                "password",
                msg(
                    "Choose an organiser password of at least {n} characters.",
                    n=PASSWORD_LENGTH,
                ),
            )
        elif len(password) > 200:
            errors.add("password", msg("This can be at most {n} characters long.", n=200))
        else:
            method = current_app.config["PASSWORD_HASH_METHOD"]
            password_hash = generate_password_hash(password, method=method)
    when = read_date(merged, errors)
    place = read_text(merged, "place", errors)
    errors.raise_if_any(InvalidSettingsError)
    assert rounds is not None
    assert deals is not None
    return TournamentSettings(
        name,
        place,
        when,
        variant,
        options,
        rounds,
        deals,
        str(scoring),
        str(language),
        password_hash,
    )


def as_body(tournament: Tournament) -> dict[str, object]:
    """A stored set-up in the shape of a request body (changes are merged over it; the API
    answers with it)."""
    return {
        "name": tournament.name,
        "place": tournament.place,
        "date": tournament.date.isoformat() if tournament.date else None,
        "game": tournament.game,
        "variant": tournament.variant,
        "options": dict(tournament.options),
        "rounds": tournament.rounds,
        "deals_per_player": tournament.deals_per_player,
        "scoring": tournament.scoring,
        "language": tournament.language,
    }


def _read_options(variant: Variant, given: object, errors: ErrorCollector) -> dict[str, str]:
    """The house rules; the pot cannot be carried beyond a round, as each table ends."""
    try:
        options = parse_options(variant.option_specs, given)
    except InvalidSettingsError as error:
        for field, messages in error.errors.items():
            for message in messages:
                errors.add(field, message)
        return {}
    rule = variant.end_rule_option
    if rule is not None and options.get(rule) == "carry":
        errors.add(
            f"options.{rule}",
            msg("Every table ends with its round: share the pot or pay it back."),
        )
    return options


def create_tournament(raw: object) -> Tournament:
    """Store a new tournament."""
    settings = parse_settings(raw)
    assert settings.password_hash is not None
    tournament = Tournament(password_hash=settings.password_hash)
    _apply(tournament, settings)
    db.session.add(tournament)
    db.session.flush()
    log(tournament, "created")
    return tournament


def update_tournament(tournament: Tournament, raw: object) -> Tournament:
    """Change the set-up until the first round starts (the password at any time)."""
    if isinstance(raw, Mapping):
        version = raw.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            raise InvalidSettingsError.single(
                "version", msg("Send the version you read, as a whole number.")
            )
        if version != tournament.version:
            raise StaleVersionError(tournament.version)
        frozen = set(raw) - {"version", "password", "name", "place", "date"}
        if tournament.frozen_at is not None and frozen:
            raise FrozenError(tournament.id)
    settings = parse_settings(raw, current=tournament)
    assert isinstance(raw, Mapping)
    _apply(tournament, settings)
    tournament.version += 1
    log(tournament, "settings", changed=sorted(set(raw) - {"password", "version"}))
    db.session.flush()
    return tournament


def _apply(tournament: Tournament, settings: TournamentSettings) -> None:
    tournament.name = settings.name
    tournament.place = settings.place
    tournament.date = settings.date
    tournament.game = settings.variant.game
    tournament.variant = settings.variant.key
    tournament.options = settings.options
    tournament.rounds = settings.rounds
    tournament.deals_per_player = settings.deals_per_player
    tournament.scoring = settings.scoring
    tournament.language = settings.language
    if settings.password_hash:
        tournament.password_hash = settings.password_hash


def started_rounds(tournament: Tournament) -> int:
    """The number of the latest round that has started (0 before the first)."""
    return max((r.number for r in tournament.round_list if r.started_at), default=0)


def register(tournament: Tournament, raw: object) -> Entrant:
    """Register a player; after a round has started they join from the next one."""
    errors = ErrorCollector()
    body = _entrant_body(raw, errors)
    taken = {e.number: e for e in tournament.entrants}
    if len(taken) >= MAX_ENTRANTS:
        raise InvalidSettingsError.single(
            "entrants",
            msg("A tournament can have at most {n} players.", n=MAX_ENTRANTS),
        )
    name = _read_name(body, errors)
    club = read_text(body, "club", errors)
    number = max(taken, default=0) + 1
    if number > MAX_START_NUMBER:
        # The highest number is taken: the lowest free one (there is one, as the
        # entrants are fewer than the numbers).
        number = next(n for n in range(1, MAX_START_NUMBER + 1) if n not in taken)
    if body.get("number") is not None:
        given = read_int(body, "number", errors, low=1, high=MAX_START_NUMBER)
        if given is not None and given in taken:
            errors.add(
                "number",
                msg("Start number {n} is {name}'s already.", n=given, name=taken[given].name),
            )
        number = given or number
    present = _read_flag(body, "present", errors, default=True)
    errors.raise_if_any(InvalidSettingsError)
    entrant = Entrant(
        tournament=tournament,
        number=number,
        name=name,
        club=club,
        present=present,
        joins_round=started_rounds(tournament) + 1,
    )
    db.session.add(entrant)
    db.session.flush()
    log(tournament, "registered", number=number, name=name)
    return entrant


def change_entrant(tournament: Tournament, entrant: Entrant, raw: object) -> Entrant:
    """Correct a name or club, check a player in or out, or let them drop out or return."""
    errors = ErrorCollector()
    body = _entrant_body(raw, errors, extra={"dropped"})
    if "number" in body:
        errors.add("number", msg("A start number stays the same for the whole tournament."))
    name = _read_name(body, errors, kept=entrant.name) if "name" in body else entrant.name
    club = read_text(body, "club", errors) if "club" in body else entrant.club
    present = _read_flag(body, "present", errors, default=entrant.present)
    dropped = _read_flag(body, "dropped", errors, default=entrant.left_after is not None)
    errors.raise_if_any(InvalidSettingsError)
    changes: dict[str, Any] = {}
    if name != entrant.name or club != entrant.club:
        changes["name"] = name
        entrant.name, entrant.club = name, club
    if present != entrant.present:
        changes["present"] = present
        entrant.present = present
    if dropped != (entrant.left_after is not None):
        changes["dropped"] = dropped
        # A dropout finishes the round under way and is not drawn again; a return joins
        # the next draw like a late arrival.
        entrant.left_after = started_rounds(tournament) if dropped else None
        if not dropped:
            entrant.joins_round = max(entrant.joins_round, started_rounds(tournament) + 1)
    if changes:
        log(tournament, "entrant", number=entrant.number, **changes)
    db.session.flush()
    return entrant


def find_entrant(tournament: Tournament, number: int) -> Entrant | None:
    """The entrant with that start number."""
    return db.session.scalars(
        select(Entrant).where(Entrant.tournament_id == tournament.id, Entrant.number == number)
    ).one_or_none()


def _entrant_body(
    raw: object, errors: ErrorCollector, extra: set[str] | None = None
) -> Mapping[str, object]:
    if not isinstance(raw, Mapping):
        raise InvalidSettingsError.single("body", msg("Send the player as a JSON object."))
    reject_unknown(raw, ENTRANT_KEYS | (extra or set()), errors)
    return raw


def _read_name(body: Mapping[str, object], errors: ErrorCollector, kept: str = "") -> str:
    """An entrant's name, spaces tidied; ``kept``: the name registered so far, which stays
    allowed as it is even when longer than ``NAME_LENGTH`` (registered before the limit)."""
    value = body.get("name")
    if not isinstance(value, str) or not value.strip():
        errors.add("name", msg("A player's name is empty."))
        return ""
    name = normal(" ".join(value.split()))
    if (problem := name_problem(name, NAME_COLUMN if name == kept else NAME_LENGTH)) is not None:
        errors.add("name", problem)
    elif name_key(name) in REFUSED_NAMES and name != kept:
        errors.add(
            "name",
            msg(
                "{name} is reserved for the pot or the Kasse; please choose another name.",
                name=name,
            ),
        )
    return name


def _read_flag(
    body: Mapping[str, object], key: str, errors: ErrorCollector, *, default: bool
) -> bool:
    value = body.get(key, default)
    if value in ("on", "true", "1", 1):
        return True
    if value in ("", "off", "false", "0", 0, None):
        return False
    if not isinstance(value, bool):
        errors.add(key, msg("Say yes or no (true or false)."))
        return default
    return value
