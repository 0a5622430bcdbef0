"""The facts of a Doppen hand (seed 001, docs/doppen.md) as read from docs/api.md's body.

A played hand names the contract, the soloist, the soloist's card points (left out with a
Valat), the doublings per component, what was announced, who played trump I in the last
trick and trump II in the second-to-last and whether it won, a Valat, who held the Trull or
all four kings, and any revokes (at most three per player and hand). A thrown-in hand
(everybody passed) has only penalties.

Field names of errors follow the body: ``soloist``, ``points``, ``kontra.pagat``,
``announced.uhu``, ``pagat.player``, ``uhu.result``, ``penalties.0.player``...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from scorekeeper.core.rules.base import ErrorCollector, InvalidHandError, Message, Table, msg
from scorekeeper.core.rules.parsing import find_player, read_choice, read_int, reject_unknown


class Contract(StrEnum):
    """The bids, lowest first (docs/doppen.md §3), and the hand everybody passed."""

    DREIER = "dreier"
    UNTERER = "unterer"
    ZWEIER = "zweier"
    EINER = "einer"
    SOLO = "solo"
    PASS = "pass"


class Result(StrEnum):
    """Whether trump I (II) won the last (second-to-last) trick it was played in."""

    WON = "won"
    LOST = "lost"


class Side(StrEnum):
    """The side that took every trick (Valat)."""

    SOLOIST = "soloist"
    OPPONENTS = "opponents"


class PenaltyKind(StrEnum):
    """What a player is fined for: half the Kasse base (docs/doppen.md §8)."""

    REVOKE = "revoke"


#: Game factor GF (game and Valat) and premium factor PF (the other premiums), docs/doppen.md §3.
GAME_FACTOR = {
    Contract.DREIER: 1,
    Contract.UNTERER: 2,
    Contract.ZWEIER: 2,
    Contract.EINER: 3,
    Contract.SOLO: 4,
}
PREMIUM_FACTOR = {
    Contract.DREIER: 1,
    Contract.UNTERER: 1,
    Contract.ZWEIER: 2,
    Contract.EINER: 3,
    Contract.SOLO: 4,
}
TOTAL_POINTS = 70
#: Kontra, Re, Subkontra...: the seed sets no limit, so more doublings than a table plays
#: in practice are asked to be confirmed (a typing error would multiply the hand by
#: thousands), not refused.
USUAL_DOUBLINGS = 10
#: Where the count stops being a count of doublings said at a table: a factor of 2^64 is
#: far beyond any evening, and the bound keeps the amounts a reasonable size to compute.
MAX_DOUBLINGS = 64
#: Revokes one player can be fined for in one hand. A revoke is fined as it is found, and
#: a player found out three times in one hand is already more than tables report; a longer
#: list is a slip of the finger or a client repeating itself, and an unbounded one would let
#: a single hand carry any fine and a score sheet thousands of lines long (docs/limits.md).
MAX_PENALTIES_PER_PLAYER = 3
KONTRA_KEYS = ("game", "valat", "pagat", "uhu")
ANNOUNCED_KEYS = ("pagat", "uhu", "valat")
PLAYED_KEYS = ("player", "result")
PENALTY_KEYS = ("player", "kind")
GAME_KEYS = {
    "contract",
    "soloist",
    "points",
    "kontra",
    "announced",
    "pagat",
    "uhu",
    "valat",
    "trull",
    "kings",
    "penalties",
}
_PENALTY_EXAMPLE = '[{"player": "Bert", "kind": "revoke"}]'


@dataclass(frozen=True, slots=True)
class Kontra:
    """How often each component was doubled: 1 Kontra (times 2), 2 Re (4), 3 Subkontra (8)..."""

    game: int = 0
    valat: int = 0
    pagat: int = 0
    uhu: int = 0

    def __post_init__(self) -> None:
        if not all(0 <= getattr(self, k) <= MAX_DOUBLINGS for k in KONTRA_KEYS):
            raise ValueError(f"doublings are between 0 and {MAX_DOUBLINGS}")

    def to_json(self) -> dict[str, int]:
        """The counts per component."""
        return {k: getattr(self, k) for k in KONTRA_KEYS}

    def unusual(self) -> dict[str, int]:
        """The components doubled more often than tables do, by their count."""
        counts = self.to_json()
        return {k: n for k, n in counts.items() if n > USUAL_DOUBLINGS}


@dataclass(frozen=True, slots=True)
class Announced:
    """Who announced Pagat or Uhu (any active player), and whether the soloist announced Valat."""

    pagat: str | None = None
    uhu: str | None = None
    valat: bool = False

    def to_json(self) -> dict[str, Any]:
        """The announcements as the body gives them."""
        return {"pagat": self.pagat, "uhu": self.uhu, "valat": self.valat}


@dataclass(frozen=True, slots=True)
class Played:
    """Who played trump I in the last trick (or II in the second-to-last), and whether it won."""

    player: str
    result: Result

    def to_json(self) -> dict[str, str]:
        """Player and result."""
        return {"player": self.player, "result": self.result.value}


@dataclass(frozen=True, slots=True)
class Penalty:
    """A player fined half the Kasse base."""

    player: str
    kind: PenaltyKind = PenaltyKind.REVOKE

    def to_json(self) -> dict[str, str]:
        """Player and kind."""
        return {"player": self.player, "kind": self.kind.value}


@dataclass(frozen=True, slots=True)
class GameHand:
    """A hand that was played: everything the table says at its end (docs/doppen.md §4-§8)."""

    contract: Contract
    soloist: str
    #: The soloist's card points, 0-70; None with a Valat, silent or announced.
    points: int | None
    kontra: Kontra
    announced: Announced
    pagat: Played | None
    uhu: Played | None
    valat: Side | None
    trull: str | None
    kings: str | None
    penalties: tuple[Penalty, ...] = ()

    def __post_init__(self) -> None:
        if self.contract is Contract.PASS:
            raise ValueError("a played hand has a contract other than pass")
        counted = self.valat is None and not self.announced.valat
        if counted != (self.points is not None):
            raise ValueError("points are given exactly when there is no Valat")
        if self.points is not None and not 0 <= self.points <= TOTAL_POINTS:
            raise ValueError("points are between 0 and 70")

    def to_json(self) -> dict[str, Any]:
        """The facts as recorded, every key present; ``points`` only when counted."""
        out: dict[str, Any] = {"contract": self.contract.value, "soloist": self.soloist}
        if self.points is not None:
            out["points"] = self.points
        out |= {
            "kontra": self.kontra.to_json(),
            "announced": self.announced.to_json(),
            "pagat": self.pagat.to_json() if self.pagat else None,
            "uhu": self.uhu.to_json() if self.uhu else None,
            "valat": self.valat.value if self.valat else None,
            "trull": self.trull,
            "kings": self.kings,
            "penalties": [p.to_json() for p in self.penalties],
        }
        return out


@dataclass(frozen=True, slots=True)
class PassHand:
    """Everybody passed: the cards are thrown in (docs/doppen.md §1)."""

    penalties: tuple[Penalty, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The facts as recorded."""
        return {"contract": Contract.PASS.value, "penalties": [p.to_json() for p in self.penalties]}


def sitting_out(table: Table) -> str | None:
    """The dealer at a table of four, who plays no cards but pays as an opponent (§1)."""
    return table.dealer if table.size == 4 else None


def parse_doppen_hand(raw: Mapping[str, object], table: Table) -> GameHand | PassHand:
    """Read a Doppen hand body (docs/api.md); raise ``InvalidHandError`` naming every problem.

    >>> table = Table(("Anne", "Bert", "Clara"), dealer="Clara")
    >>> parse_doppen_hand({"contract": "dreier", "soloist": "anne", "points": 41}, table).soloist
    'Anne'
    >>> four = {"contract": "pass", "penalties": [{"player": "Bert"}] * 4}
    >>> try:
    ...     parse_doppen_hand(four, table)
    ... except InvalidHandError as error:
    ...     print(error.errors["penalties"][0].render())
    Bert can be fined for at most 3 revokes in one hand.
    """
    errors = ErrorCollector()
    contract = read_choice(raw, "contract", Contract, errors)
    if contract is None:
        errors.raise_if_any(InvalidHandError)
    penalties = _read_penalties(raw, table, errors)
    if contract is Contract.PASS:
        reject_unknown(raw, GAME_KEYS, errors)
        for key in sorted(GAME_KEYS - {"contract", "penalties"}):
            if key in raw and not _is_blank(raw[key]):
                errors.add(key, msg("Everybody passed, so leave this out."))
        errors.raise_if_any(InvalidHandError)
        return PassHand(penalties)
    assert contract is not None
    reject_unknown(raw, GAME_KEYS, errors)
    soloist = _read_seated(raw.get("soloist"), "soloist", table, errors, required=True)
    kontra = _read_kontra(raw, errors)
    announced = _read_announced(raw, table, errors)
    pagat = _read_played(raw, "pagat", table, errors)
    uhu = _read_played(raw, "uhu", table, errors)
    valat = None
    if raw.get("valat") is not None:
        valat = read_choice(raw, "valat", Side, errors)
    trull = _read_seated(raw.get("trull"), "trull", table, errors, required=False)
    kings = _read_seated(raw.get("kings"), "kings", table, errors, required=False)
    points = _read_points(raw, announced, errors)
    _check_doublings(kontra, announced, errors)
    _check_announced(announced, pagat, uhu, errors)
    _check_valat(valat, soloist, pagat, uhu, errors)
    _check_trull(trull, announced, pagat, errors)
    errors.raise_if_any(InvalidHandError)
    assert soloist is not None
    return GameHand(
        contract, soloist, points, kontra, announced, pagat, uhu, valat, trull, kings, penalties
    )


# -- reading ----------------------------------------------------------------------------


def _is_blank(value: object) -> bool:
    """Nothing said: null, empty, false, zero, or an object of such values (as forms send)."""
    if isinstance(value, Mapping):
        return all(_is_blank(v) for v in value.values())
    return value in (None, "", False, 0) or (isinstance(value, list) and not value)


def _read_seated(
    value: object, field: str, table: Table, errors: ErrorCollector, *, required: bool
) -> str | None:
    """A player who plays this hand: at the table and not the dealer sitting out."""
    if value is None or value == "":
        if required:
            errors.add(field, msg("Choose a player."))
        return None
    player = find_player(value, table)
    if player is None:
        errors.add(field, msg("{name} is not at the table.", name=str(value)))
        return None
    if player == sitting_out(table):
        errors.add(field, msg("{name} deals this hand and sits out.", name=player))
        return None
    return player


def _read_object(
    raw: Mapping[str, object], key: str, keys: Sequence[str], errors: ErrorCollector
) -> Mapping[str, object] | None:
    """A nested object with known keys; None (after naming the problem) when it is not one."""
    value = raw.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        errors.add(key, msg("Send this as an object with the keys {keys}.", keys=", ".join(keys)))
        return None
    reject_unknown(value, set(keys), errors, prefix=f"{key}.")
    return value


def _read_kontra(raw: Mapping[str, object], errors: ErrorCollector) -> Kontra:
    counts = _read_object(raw, "kontra", KONTRA_KEYS, errors) or {}
    out: dict[str, int] = {}
    for key in KONTRA_KEYS:
        if counts.get(key) is None:
            out[key] = 0
            continue
        field = f"kontra.{key}"
        out[key] = read_int(counts, key, errors, low=0, high=MAX_DOUBLINGS, field_name=field) or 0
    return Kontra(**out)


def _read_announced(raw: Mapping[str, object], table: Table, errors: ErrorCollector) -> Announced:
    said = _read_object(raw, "announced", ANNOUNCED_KEYS, errors) or {}
    pagat = _read_seated(said.get("pagat"), "announced.pagat", table, errors, required=False)
    uhu = _read_seated(said.get("uhu"), "announced.uhu", table, errors, required=False)
    valat = said.get("valat")
    if valat is not None and not isinstance(valat, bool):
        errors.add("announced.valat", msg("Say true or false."))
    return Announced(pagat, uhu, valat is True)


def _read_played(
    raw: Mapping[str, object], key: str, table: Table, errors: ErrorCollector
) -> Played | None:
    if raw.get(key) is None:
        return None
    played = _read_object(raw, key, PLAYED_KEYS, errors)
    if played is None:
        return None
    player = _read_seated(played.get("player"), f"{key}.player", table, errors, required=True)
    result = read_choice(played, "result", Result, errors, field_name=f"{key}.result")
    if player is None or result is None:
        return None
    return Played(player, result)


def _read_points(
    raw: Mapping[str, object], announced: Announced, errors: ErrorCollector
) -> int | None:
    """The soloist's card points, required unless a Valat replaces the count (§5)."""
    given = raw.get("points") not in (None, "")
    if raw.get("valat") is not None or announced.valat:
        if given:
            errors.add("points", msg("With a Valat the card points do not count; leave them out."))
        return None
    if not given:
        errors.add("points", msg("Enter the soloist's card points, 0 to 70."))
        return None
    return read_int(raw, "points", errors, low=0, high=TOTAL_POINTS)


def _read_penalties(
    raw: Mapping[str, object], table: Table, errors: ErrorCollector
) -> tuple[Penalty, ...]:
    value = raw.get("penalties")
    if value is None:
        return ()
    if not isinstance(value, list | tuple):
        errors.add(
            "penalties",
            msg("Send the penalties as a list, such as {example}.", example=_PENALTY_EXAMPLE),
        )
        return ()
    if len(value) > MAX_PENALTIES_PER_PLAYER * table.size:
        # More than every player's most: refused whole, without reading each entry.
        errors.add("penalties", _too_many_penalties())
        return ()
    out: list[Penalty] = []
    for i, item in enumerate(value):
        field = f"penalties.{i}"
        if not isinstance(item, Mapping):
            errors.add(
                field,
                msg("Send the penalties as a list, such as {example}.", example=_PENALTY_EXAMPLE),
            )
            continue
        reject_unknown(item, set(PENALTY_KEYS), errors, prefix=f"{field}.")
        player = _read_seated(item.get("player"), f"{field}.player", table, errors, required=True)
        kind = read_choice(
            item,
            "kind",
            PenaltyKind,
            errors,
            default=PenaltyKind.REVOKE,
            field_name=f"{field}.kind",
        )
        if player is not None and kind is not None:
            out.append(Penalty(player, kind))
    for player in table.players:
        if sum(1 for p in out if p.player == player) > MAX_PENALTIES_PER_PLAYER:
            errors.add("penalties", _too_many_penalties(player))
    return tuple(out)


def _too_many_penalties(player: str | None = None) -> Message:
    """At most ``MAX_PENALTIES_PER_PLAYER`` revokes per player and hand.

    >>> _too_many_penalties("Bert").render()
    'Bert can be fined for at most 3 revokes in one hand.'
    """
    if player is None:
        return msg(
            "Each player can be fined for at most {n} revokes in one hand.",
            n=MAX_PENALTIES_PER_PLAYER,
        )
    return msg(
        "{name} can be fined for at most {n} revokes in one hand.",
        name=player,
        n=MAX_PENALTIES_PER_PLAYER,
    )


# -- consistency ------------------------------------------------------------------------


def _check_doublings(kontra: Kontra, announced: Announced, errors: ErrorCollector) -> None:
    """Only an announced Valat, Pagat or Uhu can be doubled; the game not beside a Valat."""
    for key, premium, said in (
        ("valat", "Valat", announced.valat),
        ("pagat", "Pagat", announced.pagat is not None),
        ("uhu", "Uhu", announced.uhu is not None),
    ):
        if getattr(kontra, key) and not said:
            errors.add(
                f"kontra.{key}",
                msg("Nobody announced the {premium}, so it cannot be doubled.", premium=premium),
            )
    if kontra.game and announced.valat:
        errors.add(
            "kontra.game",
            msg("With an announced Valat the game is not counted; put the doublings on the Valat."),
        )


def _check_announced(
    announced: Announced, pagat: Played | None, uhu: Played | None, errors: ErrorCollector
) -> None:
    """Only the announcer holds the card of an announced Pagat or Uhu."""
    for key, premium, announcer, played in (
        ("pagat", "Pagat", announced.pagat, pagat),
        ("uhu", "Uhu", announced.uhu, uhu),
    ):
        if announcer is not None and played is not None and played.player != announcer:
            errors.add(
                f"{key}.player",
                msg(
                    "{name} announced the {premium}, so only {name} can have played it.",
                    name=announcer,
                    premium=premium,
                ),
            )


def _check_valat(
    valat: Side | None,
    soloist: str | None,
    pagat: Played | None,
    uhu: Played | None,
    errors: ErrorCollector,
) -> None:
    """When one side took every trick, it also took the last two (§5)."""
    if valat is None or soloist is None:
        return
    for key, premium, played in (("pagat", "Pagat", pagat), ("uhu", "Uhu", uhu)):
        if played is None:
            continue
        mine = played.player == soloist
        if valat is Side.SOLOIST and (mine != (played.result is Result.WON)):
            errors.add(
                f"{key}.result",
                msg(
                    "The soloist took every trick: the soloist's {premium} won and an "
                    "opponent's was lost.",
                    premium=premium,
                ),
            )
        elif valat is Side.OPPONENTS and mine and played.result is Result.WON:
            errors.add(
                f"{key}.result",
                msg(
                    "The opponents took every trick, so the soloist's {premium} was lost.",
                    premium=premium,
                ),
            )


def _check_trull(
    trull: str | None, announced: Announced, pagat: Played | None, errors: ErrorCollector
) -> None:
    """Whoever held the Trull held trump I, the Pagat."""
    if trull is None:
        return
    problem = msg("{name} held the Trull, so trump I was {name}'s.", name=trull)
    if pagat is not None and pagat.player != trull:
        errors.add("pagat.player", problem)
    if announced.pagat is not None and announced.pagat != trull:
        errors.add("announced.pagat", problem)
