"""Hypothesis strategies for bad (and nearly good) input: JSON of every shape, raw bytes,
one-field mutations of valid bodies, path values and request headers."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import strategies as st

from tests.fuzz.world import World

#: Field names the validators know, so that generated objects hit them with wrong values.
KNOWN_KEYS = [
    "game",
    "variant",
    "players",
    "first_dealer",
    "title",
    "place",
    "date",
    "options",
    "unit_value",
    "currency",
    "coin",
    "end_pot",
    "version",
    "dealer",
    "contract",
    "bidder",
    "partner",
    "points",
    "won",
    "last_trick",
    "kulanz",
    "talon_points",
    "soloist",
    "kontra",
    "announced",
    "pagat",
    "uhu",
    "valat",
    "trull",
    "kings",
    "penalties",
    "declarer",
    "all_tricks",
    "team",
    "tapp_points",
    "confirm",
    "reason",
    "correction",
    "name",
    "club",
    "number",
    "present",
    "dropped",
    "rounds",
    "deals_per_player",
    "scoring",
    "password",
    "language",
    "pin",
    "a",
    "b",
    "hands",
    "evening",
    "format",
]

#: Strings that have broken parsers, databases and templates before.
NASTY_STRINGS = [
    "",
    " ",
    "\x00",
    "Anna\x00",
    "\ud800",
    "\udfff",
    "\u202eAnna",
    "\ufeff",
    "😀",
    "ANNA",
    " anna ",
    "null",
    "NaN",
    "Infinity",
    "-0",
    "1e309",
    "0x10",
    "\uff11\uff12",
    "٣",
    "<script>alert(1)</script>",
    "{{ 7*7 }}",
    "%s%n",
    "../../etc/passwd",
    "'; DROP TABLE evening; --",
    "2026-02-30",
    "9999-12-31",
    "0001-01-01",
    "0.001",
    "-0.10",
    "1e3",
    "1,20",
]

HUGE_INTS = [2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**30, -(10**30)]

names = st.sampled_from(KNOWN_KEYS)
long_strings = st.builds(
    lambda unit, n: unit * n,
    st.sampled_from(["x", "Ä", "😀", "\x00", " "]),
    st.integers(200, 20_000),
)
texts = st.one_of(
    st.text(max_size=30),
    st.sampled_from(NASTY_STRINGS),
    long_strings,
)
integers = st.one_of(st.integers(-5, 200), st.sampled_from(HUGE_INTS), st.integers(-(2**70), 2**70))
floats = st.floats(allow_nan=True, allow_infinity=True)
scalars = st.one_of(st.none(), st.booleans(), integers, floats, texts)


def json_values(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Any JSON value (with NaN and infinities, which Python's parser accepts too)."""
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=5),
            st.dictionaries(st.one_of(names, st.text(max_size=8)), children, max_size=5),
        ),
        max_leaves=max_leaves,
    )


def encode(value: Any) -> bytes:
    """A value as JSON bytes; lone surrogates travel as ``\\ud800`` escapes, as they may."""
    return json.dumps(value, allow_nan=True).encode()


#: Bodies that are not JSON or are JSON of the wrong kind.
RAW_BODIES = [
    b"",
    b" ",
    b"{",
    b'{"a":',
    b"nul",
    b"null",
    b"[]",
    b"[1, 2]",
    b'"text"',
    b"0",
    b"1e999",
    b"-1e999",
    b"NaN",
    b"\xff\xfe\x00",
    b"\xef\xbb\xbf{}",
    b'{"a": 1, "a": 2}',
    b'{"points": 1' + b"0" * 5000 + b"}",
    b"[" * 100_000 + b"]" * 100_000,
    b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
]
raw_bodies = st.one_of(st.sampled_from(RAW_BODIES), st.binary(max_size=64))


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON value, the whole value first."""
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*prefix, index))
    return found


def _near(value: Any) -> st.SearchStrategy[Any]:
    """Values close to ``value``: off by one, of a neighbouring type, or odd spellings."""
    if isinstance(value, bool):
        return st.sampled_from([not value, str(value).lower(), int(value), None, "yes", []])
    if isinstance(value, int):
        return st.sampled_from(
            [value + 1, value - 1, -value, 0, -1, str(value), float(value), value + 0.5, *HUGE_INTS]
        )
    if isinstance(value, str):
        return st.sampled_from(
            [
                "",
                " ",
                value.upper(),
                f" {value.lower()} ",
                value + "\x00",
                value * 50,
                value[:-1],
                value + "x",
                value + "ä",
                value.replace("a", "\u0430"),
                value.replace("0", "O"),
                [value],
                {"name": value},
                "\ud800",
            ]
        )
    if isinstance(value, list):
        return st.sampled_from([[], value + value, value[:-1], value[::-1], [value], value * 20])
    if isinstance(value, dict):
        return st.sampled_from([{}, [value], {**value, "extra": 1}, dict(list(value.items())[1:])])
    return st.sampled_from([0, "", [], {}, False])


@st.composite
def mutated(draw: st.DrawFn, body: Any) -> Any:
    """``body`` with one place changed: replaced, removed, or given an unknown neighbour."""
    body = json.loads(json.dumps(body))
    path = draw(st.sampled_from(_paths(body)))
    if not path:
        return draw(st.one_of(_near(body), json_values()))
    *parents, last = path
    holder = body
    for step in parents:
        holder = holder[step]
    action = draw(st.sampled_from(["near", "near", "any", "remove", "add"]))
    if action == "remove":
        del holder[last]
    elif action == "add" and isinstance(holder, dict):
        holder[draw(st.one_of(names, st.text(max_size=8)))] = draw(json_values(4))
    elif action == "any":
        holder[last] = draw(json_values(6))
    else:
        holder[last] = draw(_near(holder[last]))
    return body


def weighted(*options: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of ``options``, each drawn about as often as its weight says (the first is the
    one a failing example shrinks towards)."""
    total = sum(weight for weight, _ in options)

    def pick(n: int) -> st.SearchStrategy[Any]:
        for weight, strategy in options:
            if n < weight:
                return strategy
            n -= weight
        raise AssertionError(n)

    return st.integers(0, total - 1).flatmap(pick)


def body_of(valid: list[Any]) -> st.SearchStrategy[bytes | None]:
    """A request body: a valid one, a mutated valid one, any JSON, not JSON, or none."""
    if not valid:
        return weighted((50, st.none()), (30, json_values().map(encode)), (20, raw_bodies))
    good = st.sampled_from(valid)
    return weighted(
        (30, good.map(encode)),
        (40, good.flatmap(mutated).map(encode)),
        (15, json_values().map(encode)),
        (10, raw_bodies),
        (5, st.none()),
    )


MISSING_IDS = ["0", "999", "-1", "01", "1.0", "abc", "%00", "9" * 30, str(2**63), str(2**63 - 1)]


def id_values(existing: list[int]) -> st.SearchStrategy[str]:
    """A path segment for an id: one that exists, or one that cannot."""
    missing = st.one_of(st.sampled_from(MISSING_IDS), st.integers(0, 2**80).map(str))
    if not existing:
        return missing
    return weighted((85, st.sampled_from([str(i) for i in existing])), (15, missing))


def code_values(world: World) -> st.SearchStrategy[str]:
    """A table code: a real one as typed (any case, dashes), or a wrong one."""
    codes = [c for t in world.tournaments for c in t.codes]
    spelled = st.sampled_from(codes).flatmap(
        lambda c: st.sampled_from([c, c.lower(), f"{c[:3]}-{c[3:]}", f" {c} ", c + "X"])
    )
    wrong = st.one_of(
        st.text(alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ23456789-", min_size=1, max_size=12),
        st.sampled_from(["%2F", "..", "%00", "x" * 300, "%F0%9F%98%80"]),
    )
    return weighted((70, spelled), (30, wrong))


ARGUMENT = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")


def path_arguments(rule: str) -> list[tuple[str, str]]:
    """The ``(converter, name)`` of each argument of a URL rule."""
    return [(conv or "default", name) for conv, name in ARGUMENT.findall(rule)]


def fill(rule: str, values: dict[str, str]) -> str:
    """The rule's address with ``values`` put in (already URL-safe or deliberately not)."""
    return ARGUMENT.sub(lambda m: values[m.group(2)], rule)


@st.composite
def path_values(draw: st.DrawFn, world: World, rule: str) -> dict[str, str]:
    """Values for every argument of ``rule``: mostly the world's, sometimes missing or odd."""
    values: dict[str, str] = {}
    arguments = dict((name, conv) for conv, name in path_arguments(rule))
    if "evening_id" in arguments:
        values["evening_id"] = draw(id_values([e.id for e in world.evenings]))
        evening = (
            world.evening(int(values["evening_id"])) if values["evening_id"].isdigit() else None
        )
        if "number" in arguments:
            values["number"] = draw(id_values(sorted(evening.hands) if evening else [1]))
    if "tournament_id" in arguments:
        values["tournament_id"] = draw(id_values([t.id for t in world.tournaments]))
        tournament = next(
            (t for t in world.tournaments if str(t.id) == values["tournament_id"]), None
        )
        if "number" in arguments:
            numbers = [1]
            if tournament is not None:
                numbers = tournament.entrants if "/entrants/" in rule else tournament.rounds
            values["number"] = draw(id_values(numbers))
    if "code" in arguments:
        values["code"] = draw(code_values(world))
    if "lang" in arguments:
        values["lang"] = draw(st.sampled_from(["de", "en", "fr", "", "x" * 100, "%00"]))
    if "player_id" in arguments:
        values["player_id"] = draw(id_values(world.players))
    if "group_id" in arguments:
        values["group_id"] = draw(id_values(world.groups))
    if "member_id" in arguments:
        values["member_id"] = draw(id_values(world.members))
    unknown = set(arguments) - set(values)
    assert not unknown, f"no values for the path arguments {sorted(unknown)} of {rule}"
    return values


@st.composite
def headers(draw: st.DrawFn, world: World) -> tuple[str, dict[str, str]]:
    """Who calls (organiser or table device by token or cookie, anonymous, a forged token)
    and with what headers."""
    caller = draw(
        weighted(
            (30, st.just("organiser")),
            (15, st.just("organiser-cookie")),
            (12, st.just("table")),
            (8, st.just("table-cookie")),
            (25, st.just("anonymous")),
            (10, st.just("forged")),
        )
    )
    sent = dict(world.callers.get(caller, {"Authorization": "Bearer not-a-token"}))
    if draw(st.booleans()):
        sent["Accept-Language"] = draw(st.sampled_from(["de", "en", "de-CH,de;q=0.9", "xx", ""]))
    if draw(st.integers(0, 5)) == 0:
        sent["Idempotency-Key"] = draw(
            st.one_of(st.sampled_from(["k1", "k1", "", "x" * 201]), st.text(max_size=20))
        )
    if draw(st.integers(0, 9)) == 0:
        sent["Origin"] = draw(st.sampled_from(["http://localhost", "http://elsewhere.example"]))
    return caller, {k: _latin1(v) for k, v in sent.items()}


def _latin1(value: str) -> str:
    """Header values travel as Latin-1 on one line: keep what can, as a client would."""
    one_line = value.replace("\r", " ").replace("\n", " ")
    return one_line.encode("latin-1", "replace").decode("latin-1")
