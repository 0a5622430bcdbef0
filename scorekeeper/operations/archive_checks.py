"""An evening archive checked whole before anything is stored (``check_archive``, which
touches no database): a damaged, edited or foreign file is refused with a message naming
the first problem, and nothing is cut, stripped or filled in to make it fit. Whatever any
earlier version wrote passes the checks (tests/data holds their files; docs/archives.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from scorekeeper.core import ledger as ledger_mod
from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import (
    InvalidInputError,
    InvalidSettingsError,
    Message,
    Table,
    UnknownVariantError,
    msg,
)
from scorekeeper.core.rules.options import as_stored, parse_options
from scorekeeper.core.rules.rotation import Seating as SeatingFact
from scorekeeper.core.rules.rotation import seating_for
from scorekeeper.core.rules.variant import Variant
from scorekeeper.core.validation import LANGUAGES, RESERVED, name_key
from scorekeeper.operations.evening_archives import (
    ARCHIVE_KEYS,
    CARRIED_FROM_KEYS,
    CARRIED_KEYS,
    EVENING_KEYS,
    FORMAT,
    GROUP_KEYS,
    HAND_KEYS,
    MAX_NUMBER,
    NAME_LENGTH,
    REASON_LENGTH,
    REVISION_KEYS,
    SEATING_KEYS,
    SETTINGS_KEYS,
    SETTINGS_REVISION_KEYS,
    SHARED_SETTINGS,
    SOURCE_LENGTH,
    TEXT_LENGTH,
    VERSION,
    identity,
)
from scorekeeper.operations.evenings import MAX_SEATINGS
from scorekeeper.operations.hands import MAX_HANDS
from scorekeeper.operations.views import table_after


class ArchiveError(InvalidSettingsError):
    """The file is not an archive this installation can read.

    ``problem`` is its message: what is wrong, the first thing found (an import adds that
    nothing was imported; a restore names the evening and that nothing was restored).
    """

    def __init__(self, errors: Mapping[str, Sequence[Message]], *, hand: int | None = None):
        super().__init__(errors, hand=hand)
        self.problem: Message = first_message(self)


def archive_error(problem: Message) -> ArchiveError:
    """The refusal of a file, with its problem in words."""
    return ArchiveError({"file": (problem,)})


# Places in the file, for the messages --------------------------------------------------

EVENING = msg("the evening")
ARCHIVE = msg("the archive")
GROUP = msg("the evening's group")
CARRIED = msg("the evening's carried pot")
CARRIED_FROM = msg("the evening the pot was carried from")


def _hand(n: int) -> Message:
    return msg("hand {n}", n=n)


def _version(v: int, n: int) -> Message:
    return msg("version {v} of hand {n}", v=v, n=n)


def _seating(i: int) -> Message:
    return msg("seating {i}", i=i)


def _settings(v: int) -> Message:
    return msg("settings version {v}", v=v)


# Reading single values ---------------------------------------------------------------


def _need(data: object, key: str, kind: type | tuple[type, ...], where: Message) -> Any:
    # ``data`` comes from the file: a list entry may be anything, not only an object.
    value = data.get(key) if isinstance(data, Mapping) else None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise archive_error(
            msg("The file is damaged: {where} has no valid {key}.", where=where, key=key)
        )
    return value


def _object(data: object, known: set[str], where: Message) -> Mapping[str, Any]:
    """A part of the archive that must be a JSON object holding only ``known`` keys."""
    if not isinstance(data, Mapping):
        raise archive_error(msg("The file is damaged: {where} is not a valid entry.", where=where))
    for key in data:
        if key not in known:
            raise archive_error(
                msg(
                    "The file is damaged: {where} holds “{key}”, which this version of "
                    "Scorekeeper does not know.",
                    where=where,
                    key=key,
                )
            )
    return data


def _number(data: Mapping[str, Any], key: str, where: Message) -> int:
    """A hand number, seating start or version: a whole number a database column holds."""
    value = _need(data, key, int, where)
    if not 1 <= value <= MAX_NUMBER:
        raise archive_error(
            msg("The file is damaged: {where} has no valid {key}.", where=where, key=key)
        )
    return int(value)


def _text(data: Mapping[str, Any], key: str, limit: int, where: Message) -> str:
    """A free text of the archive (title, source, reason), exactly as written: a text
    longer than its column, or holding a NUL character (which PostgreSQL cannot store), is
    refused, naming the field."""
    value = data.get(key)
    if not isinstance(value, str):
        raise archive_error(
            msg("The file is damaged: {where} has no valid {key}.", where=where, key=key)
        )
    if len(value) > limit:
        raise archive_error(
            msg(
                "The file is damaged: the {key} of {where} is {length} characters long; at "
                "most {n} fit.",
                key=key,
                where=where,
                length=len(value),
                n=limit,
            )
        )
    if "\x00" in value:
        raise archive_error(
            msg(
                "The file is damaged: the {key} of {where} holds a NUL character, which no "
                "text may hold.",
                key=key,
                where=where,
            )
        )
    return value


def _maybe_text(data: Mapping[str, Any], key: str, limit: int, where: Message) -> str | None:
    """A text that may be left out or null (a void reason): checked as ``_text``."""
    return None if data.get(key) is None else _text(data, key, limit, where)


def _time(value: object, where: Message) -> datetime:
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            pass
        else:
            # Archives write UTC; a time without its zone is read as UTC, so that it
            # compares with the others.
            return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    raise archive_error(msg("The file is damaged: {where} has no valid time.", where=where))


def _name_problem(name: str) -> Message | None:
    """Why a name from the file cannot be a player's name as stored, if it cannot."""
    if not name.strip():
        return msg("A player's name is empty.")
    if name != name.strip():
        return msg("“{name}” has spaces before or after it.", name=name)
    if len(name) > NAME_LENGTH or len(name_key(name)) > NAME_LENGTH:
        return msg("Names can be at most {n} characters long.", n=NAME_LENGTH)
    if "\x00" in name:
        return msg("Text cannot contain the NUL character.")
    if name_key(name) in RESERVED:
        return msg(
            "{name} is reserved for the pot or the Kasse; please choose another name.",
            name=name,
        )
    return None


@dataclass(frozen=True, slots=True)
class Numbering:
    """How to say that numbers in the file do not count 1, 2, 3...: for hands, a hand's
    versions, or the settings versions."""

    #: (missing number, the number before it, the number found instead)
    missing: Callable[[int, int, int], Message]
    #: (the first number found, when 1 is missing)
    late_start: Callable[[int], Message]
    twice: Callable[[int], Message]
    #: (the number found, the number it stands before)
    disorder: Callable[[int, int], Message]


def _in_sequence(found: int, entries: Sequence[object], i: int, key: str, words: Numbering) -> None:
    """Refuse ``found``, the ``key`` of the ``i``-th entry (counted from 1, the ones before
    it numbered 1, 2, 3...), unless it is ``i``: a gap, a repeat or a swap is named."""
    if found == i:
        return
    if found < i:
        raise archive_error(words.twice(found))
    # A swap, if the number missing here comes later; read only now, once.
    if i in [e.get(key) for e in entries[i:] if isinstance(e, Mapping)]:
        raise archive_error(words.disorder(found, i))
    if i == 1:
        raise archive_error(words.late_start(found))
    raise archive_error(words.missing(i, i - 1, found))


HAND_NUMBERS = Numbering(
    missing=lambda n, a, b: msg(
        "The file is damaged: hand {n} is missing (the hands jump from {before} to {after}).",
        n=n,
        before=a,
        after=b,
    ),
    late_start=lambda b: msg(
        "The file is damaged: hand 1 is missing (the hands start at {after}).", after=b
    ),
    twice=lambda n: msg("The file is damaged: hand {n} appears twice.", n=n),
    disorder=lambda n, m: msg(
        "The file is damaged: the hands are out of order (hand {n} comes before hand {m}).",
        n=n,
        m=m,
    ),
)

SETTINGS_NUMBERS = Numbering(
    missing=lambda v, a, b: msg(
        "The file is damaged: settings version {v} is missing (the versions jump from "
        "{before} to {after}).",
        v=v,
        before=a,
        after=b,
    ),
    late_start=lambda b: msg(
        "The file is damaged: settings version 1 is missing (the versions start at {after}).",
        after=b,
    ),
    twice=lambda v: msg("The file is damaged: settings version {v} appears twice.", v=v),
    disorder=lambda v, w: msg(
        "The file is damaged: the settings versions are out of order (version {v} comes "
        "before version {w}).",
        v=v,
        w=w,
    ),
)


def version_numbers(n: int) -> Numbering:
    """How to say that hand ``n``'s versions do not count 1, 2, 3..."""
    return Numbering(
        missing=lambda v, a, b: msg(
            "The file is damaged: version {v} of hand {n} is missing (the versions jump from "
            "{before} to {after}).",
            v=v,
            n=n,
            before=a,
            after=b,
        ),
        late_start=lambda b: msg(
            "The file is damaged: version 1 of hand {n} is missing (the versions start at "
            "{after}).",
            n=n,
            after=b,
        ),
        twice=lambda v: msg(
            "The file is damaged: version {v} of hand {n} appears twice.", v=v, n=n
        ),
        disorder=lambda v, w: msg(
            "The file is damaged: the versions of hand {n} are out of order (version {v} "
            "comes before version {w}).",
            n=n,
            v=v,
            w=w,
        ),
    )


# The checked archive -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CheckedVersion:
    """One version of a hand, as said at the table."""

    version: int
    input: dict[str, Any]
    void_reason: str | None
    at: datetime
    source: str
    correction: str | None


@dataclass(frozen=True, slots=True)
class CheckedHand:
    """A hand with every version it had, the last one being the hand as it stands."""

    number: int
    dealer: str
    input: dict[str, Any]
    void_reason: str | None
    created_at: datetime
    versions: tuple[CheckedVersion, ...]


@dataclass(frozen=True, slots=True)
class CheckedSettings:
    """The evening's settings at one version."""

    version: int
    settings: dict[str, Any]
    at: datetime
    source: str


@dataclass(frozen=True, slots=True)
class CheckedSeating:
    """A table from hand ``from_hand`` on."""

    from_hand: int
    players: tuple[str, ...]
    dealer: str | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class CheckedGroup:
    """The table group an archived evening belongs to, and the member each name at its
    table stands for (by the name the group calls them)."""

    name: str
    members: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class CheckedSource:
    """The earlier evening a pot was carried from, by what tells one evening from every
    other (``identity``): its game and the moment it was started."""

    game: str
    variant: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class CheckedCarried:
    """The pot an archived evening took over from an earlier one, and that evening (None
    when the archive does not know it)."""

    pot: int
    source: CheckedSource | None


@dataclass(frozen=True, slots=True)
class CheckedArchive:
    """An archive that passed every check: what is stored, exactly as the file says it."""

    variant: Variant
    title: str
    place: str
    date: date | None
    options: dict[str, str]
    created_at: datetime
    language: str
    closed_at: datetime | None
    settings: tuple[CheckedSettings, ...]
    seatings: tuple[CheckedSeating, ...]
    hands: tuple[CheckedHand, ...]
    ledger: ledger_mod.Ledger
    group: CheckedGroup | None = None
    carried: CheckedCarried | None = None


def check_archive(data: object) -> CheckedArchive:
    """Read and check a whole archive without storing anything; raises ``ArchiveError``
    naming the first problem. The order of the checks is the order of the file: the
    evening, its settings revisions, its seatings, its hands (each with its versions),
    then what ties them together, then the replay (docs/archives.md, "Checks")."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise archive_error(msg("This is not a Scorekeeper evening archive."))
    if data.get("version") != VERSION:
        raise archive_error(msg("This archive was written by another version of Scorekeeper."))
    _object(data, ARCHIVE_KEYS, ARCHIVE)
    head = _object(_need(data, "evening", Mapping, EVENING), EVENING_KEYS, EVENING)
    game = _need(head, "game", str, EVENING)
    try:
        variant = get_variant(game, _need(head, "variant", str, EVENING))
    except UnknownVariantError as error:
        raise archive_error(
            msg(
                "This archive is of a game this version of Scorekeeper does not know: {problem}",
                problem=first_message(error),
            )
        ) from None
    raw_options = _need(head, "options", Mapping, EVENING)
    try:
        # An archive written before a house rule existed keeps the amounts it had.
        options = parse_options(variant.option_specs, as_stored(variant.option_specs, raw_options))
    except InvalidSettingsError as error:
        raise archive_error(
            msg(
                "The file is damaged: the evening's house rules are not valid: {problem}",
                problem=first_message(error),
            )
        ) from None
    day = head.get("date")
    try:
        when = date.fromisoformat(day) if isinstance(day, str) else None
    except ValueError:
        when = None
    if day is not None and when is None:
        raise archive_error(msg("The file is damaged: the evening has no valid date."))
    title = _text(head, "title", TEXT_LENGTH, EVENING)
    place = _text(head, "place", TEXT_LENGTH, EVENING)
    created_at = _time(head.get("created_at"), EVENING)
    settings = _check_settings(_need(data, "settings_revisions", list, ARCHIVE))
    seatings = _check_seatings(_need(data, "seatings", list, ARCHIVE), variant)
    last = settings[-1]
    shared = {**head, "options": raw_options}
    for key in SHARED_SETTINGS:
        if key not in last.settings or last.settings[key] != shared.get(key):
            raise _differs(key, last.version)
    if last.settings.get("first_dealer") != seatings[0].dealer:
        raise _differs("first_dealer", last.version)
    raw_hands = _need(data, "hands", list, ARCHIVE)
    if len(raw_hands) > MAX_HANDS:
        raise archive_error(
            msg("The file holds more than {n} hands: too many for one evening.", n=MAX_HANDS)
        )
    hands = _check_hands(raw_hands, seatings)
    for i, seating in enumerate(seatings, start=1):
        if seating.from_hand > len(hands) + 1:
            raise archive_error(_beyond(i, seating.from_hand, len(hands)))
    _one_spelling(seatings, hands)
    carried = _check_carried(data.get("carried"), variant, created_at)
    if last.settings.get("carried_in") != (carried.pot if carried is not None else None):
        raise _differs("carried_in", last.version)
    ledger = _replay(variant, options, seatings, hands, carried.pot if carried is not None else 0)
    group = _check_group(data.get("group"), seatings)
    return CheckedArchive(
        variant=variant,
        title=title,
        place=place,
        date=when,
        options=options,
        created_at=created_at,
        language=last.settings.get("language", "de"),
        closed_at=_closed_at(settings),
        settings=settings,
        seatings=seatings,
        hands=hands,
        group=group,
        carried=carried,
        ledger=ledger,
    )


def _check_group(raw: object, seatings: Sequence[CheckedSeating]) -> CheckedGroup | None:
    """The evening's table group, if the archive names one: a name as groups have, and
    for names seated at the evening the member of the group they stand for."""
    if raw is None:
        return None
    item = _object(raw, GROUP_KEYS, GROUP)
    name = _text(item, "name", NAME_LENGTH, GROUP)
    if not name.strip() or _name_problem(name.strip()) is not None:
        raise archive_error(msg("The file is damaged: the evening's group has no valid name."))
    members = _need(item, "members", Mapping, GROUP)
    seated = {n for s in seatings for n in s.players}
    found: dict[str, str] = {}
    for player, member in members.items():
        if player not in seated or not isinstance(member, str) or not member.strip():
            raise archive_error(
                msg("The file is damaged: the group names someone not at the table.")
            )
        if _name_problem(member.strip()) is not None:
            raise archive_error(
                msg("The file is damaged: the group names someone not at the table.")
            )
        found[player] = member.strip()
    return CheckedGroup(name.strip(), found)


def _check_carried(raw: object, variant: Variant, created_at: datetime) -> CheckedCarried | None:
    """The pot the evening took over, if the archive says it took one over: a number of
    jetons, and the earlier evening of the same game it came from, or null."""
    if raw is None:
        return None
    item = _object(raw, CARRIED_KEYS, CARRIED)
    if variant.carry_choice is None:
        raise archive_error(
            msg("The file is damaged: this game carries no pot over to another evening.")
        )
    pot = _need(item, "pot", int, CARRIED)
    if not 0 <= pot <= MAX_NUMBER:
        raise archive_error(
            msg("The file is damaged: {where} has no valid {key}.", where=CARRIED, key="pot")
        )
    if "from" not in item:
        raise archive_error(
            msg("The file is damaged: {where} has no valid {key}.", where=CARRIED, key="from")
        )
    if item["from"] is None:
        return CheckedCarried(int(pot), None)
    earlier = _object(item["from"], CARRIED_FROM_KEYS, CARRIED_FROM)
    game = _need(earlier, "game", str, CARRIED_FROM)
    key = _need(earlier, "variant", str, CARRIED_FROM)
    started = _time(earlier.get("created_at"), CARRIED_FROM)
    if (game, key) != (variant.game, variant.key):
        raise archive_error(
            msg("The file is damaged: the pot was carried from an evening of another game.")
        )
    if identity(game, key, started) == identity(game, key, created_at):
        raise archive_error(msg("The file is damaged: the evening's pot is carried from itself."))
    return CheckedCarried(int(pot), CheckedSource(game, key, started))


def first_message(error: InvalidInputError) -> Message:
    """The first message an error carries."""
    return next(m for messages in error.errors.values() for m in messages)


def _differs(key: str, version: int) -> ArchiveError:
    return archive_error(
        msg(
            "The file is damaged: the evening's {key} is not the one of its last settings "
            "version ({v}).",
            key=key,
            v=version,
        )
    )


def _beyond(i: int, start: int, count: int) -> Message:
    if count == 0:
        return msg(
            "The file is damaged: seating {i} starts at hand {n}, but the evening has no hands.",
            i=i,
            n=start,
        )
    return msg(
        "The file is damaged: seating {i} starts at hand {n}, but the evening's last hand is "
        "hand {last}.",
        i=i,
        n=start,
        last=count,
    )


def _check_settings(raw: list[Any]) -> tuple[CheckedSettings, ...]:
    """The settings revisions: versions 1, 2, 3... each a complete set of settings."""
    if not raw:
        raise archive_error(msg("The file is damaged: the evening's settings have no history."))
    out: list[CheckedSettings] = []
    for i, entry in enumerate(raw, start=1):
        where = msg("entry {i} of the settings versions", i=i)
        item = _object(entry, SETTINGS_REVISION_KEYS, where)
        version = _number(item, "version", where)
        _in_sequence(version, raw, i, "version", SETTINGS_NUMBERS)
        where = _settings(version)
        settings = _object(_need(item, "settings", Mapping, where), SETTINGS_KEYS, where)
        if "language" in settings and settings["language"] not in LANGUAGES:
            raise archive_error(
                msg("The file is damaged: {where} has no valid {key}.", where=where, key="language")
            )
        if "closed" in settings and not isinstance(settings["closed"], bool):
            raise archive_error(
                msg("The file is damaged: {where} has no valid {key}.", where=where, key="closed")
            )
        # The pot taken over (jetons, 0 or more) and the later evening the pot went to (its
        # number in the installation that wrote the file): kept as written.
        for key, low in (("carried_in", 0), ("carried_to", 1)):
            value = settings.get(key, low)
            if isinstance(value, bool) or not isinstance(value, int):
                value = low - 1
            if not low <= value <= MAX_NUMBER:
                raise archive_error(
                    msg("The file is damaged: {where} has no valid {key}.", where=where, key=key)
                )
        source = _text(item, "source", SOURCE_LENGTH, where)
        out.append(CheckedSettings(version, dict(settings), _time(item.get("at"), where), source))
    return tuple(out)


def _check_seatings(raw: list[Any], variant: Variant) -> tuple[CheckedSeating, ...]:
    """The seatings: the first from hand 1, each later one from the same hand or later."""
    if not raw:
        raise archive_error(msg("The file is damaged: the first seating is missing."))
    if len(raw) > MAX_SEATINGS:
        raise archive_error(
            msg(
                "The file holds more than {n} seatings: too many for one evening.",
                n=MAX_SEATINGS,
            )
        )
    out: list[CheckedSeating] = []
    for i, entry in enumerate(raw, start=1):
        where = _seating(i)
        item = _object(entry, SEATING_KEYS, where)
        start = _number(item, "from_hand", where)
        if i == 1 and start != 1:
            raise archive_error(
                msg(
                    "The file is damaged: the first seating starts at hand {n}, not at hand 1.",
                    n=start,
                )
            )
        if out and start < out[-1].from_hand:
            # Two seatings may start at the same hand: the table changed twice before it,
            # and the later one holds.
            raise archive_error(
                msg(
                    "The file is damaged: seating {i} starts at hand {n}, before the seating "
                    "listed before it (hand {before}).",
                    i=i,
                    n=start,
                    before=out[-1].from_hand,
                )
            )
        names = _need(item, "players", list, where)
        if not all(isinstance(n, str) for n in names):
            raise archive_error(
                msg("The file is damaged: {where} has no valid players.", where=where)
            )
        if len(names) > variant.max_players:  # refused before reading a long list's names
            problem = variant.player_count_problem(len(names))
            assert problem is not None
            raise archive_error(_bad_players(where, problem))
        seen: set[str] = set()
        for name in names:
            problem = _name_problem(name)
            if problem is None and name_key(name) in seen:
                problem = msg("{name} is listed twice.", name=name)
            if problem is not None:
                raise archive_error(_bad_players(where, problem))
            seen.add(name_key(name))
        if (problem := variant.player_count_problem(len(names))) is not None:
            raise archive_error(_bad_players(where, problem))
        dealer = item.get("dealer")
        if dealer is not None and dealer not in names:
            raise archive_error(
                msg("The file is damaged: {where} has no valid dealer.", where=where)
            )
        out.append(
            CheckedSeating(start, tuple(names), dealer, _time(item.get("created_at"), where))
        )
    return tuple(out)


def _bad_players(where: Message, problem: Message) -> Message:
    return msg(
        "The file is damaged: the players of {where} are not valid: {problem}",
        where=where,
        problem=problem,
    )


def _check_hands(raw: list[Any], seatings: tuple[CheckedSeating, ...]) -> tuple[CheckedHand, ...]:
    """The hands: numbered 1, 2, 3... in order, each the last of its versions."""
    out: list[CheckedHand] = []
    tables = _facts(seatings)
    for i, entry in enumerate(raw, start=1):
        item = _object(entry, HAND_KEYS, msg("entry {i} of the hands", i=i))
        number = _number(item, "number", msg("entry {i} of the hands", i=i))
        _in_sequence(number, raw, i, "number", HAND_NUMBERS)
        where = _hand(number)
        dealer = _need(item, "dealer", str, where)
        if _name_problem(dealer) is not None:
            raise archive_error(
                msg("The file is damaged: {where} has no valid {key}.", where=where, key="dealer")
            )
        if dealer not in seating_for(tables, number).players:
            raise archive_error(
                msg(
                    "The file is damaged: hand {n} is dealt by {name}, who is not at its table.",
                    n=number,
                    name=dealer,
                )
            )
        facts = dict(_need(item, "input", Mapping, where))
        void = _maybe_text(item, "void_reason", REASON_LENGTH, where)
        if void is not None and not void.strip():
            raise archive_error(
                msg("The file is damaged: hand {n} is voided without a reason.", n=number)
            )
        created_at = _time(item.get("created_at"), where)
        versions = _check_versions(_need(item, "revisions", list, where), number)
        last = versions[-1]
        for key, mine, theirs in (
            ("input", facts, last.input),
            ("void_reason", void, last.void_reason),
        ):
            if mine != theirs:
                raise archive_error(
                    msg(
                        "The file is damaged: hand {n} contradicts its last version ({v}): "
                        "the {key} differs.",
                        n=number,
                        v=last.version,
                        key=key,
                    )
                )
        if created_at > versions[0].at:
            raise archive_error(
                msg("The file is damaged: hand {n} was recorded after its first version.", n=number)
            )
        out.append(CheckedHand(number, dealer, facts, void, created_at, versions))
    return tuple(out)


def _check_versions(raw: list[Any], n: int) -> tuple[CheckedVersion, ...]:
    """A hand's versions, 1, 2, 3...: recorded, then corrected or voided in turn. A void
    keeps the facts, and a voided hand is corrected (which brings it back) before it can be
    voided again: ``operations.hands``."""
    if not raw:
        raise archive_error(msg("The file is damaged: {where} has no history.", where=_hand(n)))
    words = version_numbers(n)
    out: list[CheckedVersion] = []
    for i, entry in enumerate(raw, start=1):
        where = msg("entry {i} of the versions of hand {n}", i=i, n=n)
        item = _object(entry, REVISION_KEYS, where)
        version = _number(item, "version", where)
        _in_sequence(version, raw, i, "version", words)
        where = _version(version, n)
        facts = dict(_need(item, "input", Mapping, where))
        void = _maybe_text(item, "void_reason", REASON_LENGTH, where)
        if void is not None:
            if not void.strip():
                raise archive_error(
                    msg(
                        "The file is damaged: version {v} of hand {n} voids it without a reason.",
                        v=version,
                        n=n,
                    )
                )
            if not out:
                raise archive_error(
                    msg(
                        "The file is damaged: hand {n} is voided in its first version; a hand "
                        "is recorded before it is voided.",
                        n=n,
                    )
                )
            if out[-1].void_reason is not None:
                raise archive_error(
                    msg(
                        "The file is damaged: version {v} of hand {n} voids it again; it was "
                        "voided already.",
                        v=version,
                        n=n,
                    )
                )
            if facts != out[-1].input:
                raise archive_error(
                    msg(
                        "The file is damaged: version {v} of hand {n} voids it and changes its "
                        "facts; a void keeps them.",
                        v=version,
                        n=n,
                    )
                )
        source = _text(item, "source", SOURCE_LENGTH, where)
        correction = _maybe_text(item, "correction", REASON_LENGTH, where)
        out.append(
            CheckedVersion(version, facts, void, _time(item.get("at"), where), source, correction)
        )
    return tuple(out)


def _facts(seatings: tuple[CheckedSeating, ...]) -> tuple[SeatingFact, ...]:
    return tuple(SeatingFact(s.from_hand, s.players, s.dealer) for s in seatings)


def _one_spelling(seatings: tuple[CheckedSeating, ...], hands: tuple[CheckedHand, ...]) -> None:
    """Refuse one person written two ways ("Anna", "anna"): the app writes every name
    from its player's row, and storing would silently make them one."""
    spelled: dict[str, str] = {}
    names = [n for s in seatings for n in s.players] + [h.dealer for h in hands]
    for name in names:
        other = spelled.setdefault(name_key(name), name)
        if other != name:
            raise archive_error(
                msg(
                    "The file is damaged: one player is named both “{name}” and “{other}”.",
                    name=other,
                    other=name,
                )
            )


def _replay(
    variant: Variant,
    options: Mapping[str, str],
    seatings: tuple[CheckedSeating, ...],
    hands: tuple[CheckedHand, ...],
    carried_in: int,
) -> ledger_mod.Ledger:
    """Replay the evening as the file has it, opening with the pot it took over: every
    hand must fit the rules. The ledger is the stored evening's: the import keeps it
    (``snapshots.written``) rather than replaying the evening again."""
    facts = _facts(seatings)
    records = [
        ledger_mod.HandRecord(
            h.number,
            Table(seating_for(facts, h.number).players, h.dealer),
            h.input,
            h.void_reason is not None,
        )
        for h in hands
    ]
    try:
        ledger = ledger_mod.replay(variant, options, records, carried_in=carried_in)
    except InvalidInputError as error:
        raise archive_error(
            msg(
                "The file is damaged: hand {n} does not fit the rules: {problem}",
                n=error.hand or "?",
                problem=first_message(error),
            )
        ) from error
    try:
        table_after(facts, reversed(records))
    except ValueError:
        raise archive_error(msg("The file is damaged: a dealer is not at the table.")) from None
    return ledger


def _closed_at(settings: tuple[CheckedSettings, ...]) -> datetime | None:
    """When the evening was closed, if its newest settings say it is: the time of the
    version that closed it (later versions while closed, anonymising say, keep it so)."""
    closed_at = None
    for version in settings:
        closed = version.settings.get("closed") is True
        if not closed:
            closed_at = None
        elif closed_at is None:
            closed_at = version.at
    return closed_at


# Storing -----------------------------------------------------------------------------
