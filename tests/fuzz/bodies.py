"""Valid request bodies for every API endpoint, given the path the request goes to.

The fuzzer sends them as they are (so that successes happen too) and with one place
changed, so that the validators behind the JSON parser see nearly good input. Every
endpoint of the API must be listed here (``test_every_api_rule_is_fuzzed`` checks it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.fuzz.world import PASSWORD, PIN, EveningInfo, World

Bodies = Callable[[World, dict[str, str]], list[Any]]


def _evening(world: World, values: dict[str, str]) -> EveningInfo:
    """The evening the path names, or the first one (its bodies then go astray on purpose)."""
    raw = values.get("evening_id", "")
    return (raw.isdigit() and world.evening(int(raw))) or world.evenings[0]


def hand_bodies(evening: EveningInfo, dealer: str | None = None) -> list[dict[str, Any]]:
    """Hands that the evening's game would record as they are (dealt by ``dealer``, who
    sits out in Doppen at four; the next dealer in turn when not given)."""
    stored = [dict(h["input"]) for h in evening.hands.values()]
    p = [name for name in evening.players if name != dealer]
    if evening.game == "troggen":
        partner = {"partner": p[-1]} if len(evening.players) > 4 else {}
        made = [
            {"contract": "doppelt", "bidder": p[0], "points": 41, "last_trick": "pagat_won"}
            | partner,
            {"contract": "gegen", "bidder": p[1], "won": False, "kulanz": 0} | partner,
        ]
        if len(evening.players) == 4:
            made.append(
                {
                    "contract": "misere",
                    "points": dict(zip(evening.players, [10, 20, 21, 11], strict=True)),
                }
            )
    elif evening.game == "doppen":
        made = [
            {
                "contract": "dreier",
                "soloist": p[0],
                "points": 41,
                "kontra": {"game": 0, "valat": 0, "pagat": 0, "uhu": 0},
                "announced": {"pagat": None, "uhu": None, "valat": False},
                "pagat": {"player": p[1], "result": "won"},
                "penalties": [],
            },
            {"contract": "pass", "penalties": [{"player": p[1], "kind": "revoke"}]},
        ]
    elif evening.variant == "eisten-stalden":
        made = [{"contract": "team", "team": p[:2], "points": 61}]
    else:
        partner = {"partner": p[2]} if len(evening.players) >= 7 else {}
        made = [
            {"contract": "normal", "declarer": p[0], "points": 62, "all_tricks": None} | partner,
            {"contract": "solo", "declarer": p[1], "points": 40},
        ]
    return stored + made


def record_hand(world: World, values: dict[str, str]) -> list[Any]:
    evening = _evening(world, values)
    dealer = evening.players[-1]
    bodies = [{**b, "dealer": dealer} for b in hand_bodies(evening, dealer)]
    if evening.game != "doppen":
        bodies += hand_bodies(evening)
    return bodies + [{**b, "confirm": True} for b in bodies[:1]]


def replace_hand(world: World, values: dict[str, str]) -> list[Any]:
    evening = _evening(world, values)
    raw = values.get("number", "")
    hand = evening.hands.get(int(raw)) if raw.isdigit() else None
    version = hand["version"] if hand else 1
    dealer = hand["dealer"] if hand else None
    bodies = [{**b, "version": version} for b in hand_bodies(evening, dealer)]
    if hand:
        bodies.append({**hand["input"], "version": version, "correction": "Zahlendreher"})
    return bodies


def new_evening(world: World, values: dict[str, str]) -> list[Any]:
    return [
        {
            "game": "troggen",
            "variant": "blumenstein-2015",
            "players": ["Anna", "Bert", "Clara", "Dora"],
            "first_dealer": "Clara",
            "title": "Spielabend",
            "place": "Museum",
            "date": "2026-11-21",
            "options": {"unit_value": "0.10", "currency": "CHF", "end_pot": "split"},
        },
        {"game": "doppen", "players": ["Anne", "Bert", "Clara", "Dora"]},
        {"game": "troggu", "variant": "graechen", "players": ["A", "B", "C"]},
        {"game": "troggu", "variant": "eisten-stalden", "players": ["A", "B", "C", "D"]},
    ]


def update_evening(world: World, values: dict[str, str]) -> list[Any]:
    evening = _evening(world, values)
    bodies: list[Any] = [
        {"version": evening.version, "title": "Neuer Titel", "place": "Bern"},
        {"version": evening.version, "date": "2026-11-20", "first_dealer": evening.players[1]},
    ]
    if evening.variant != "eisten-stalden":
        bodies.append({"version": evening.version, "options": {"unit_value": "0.20"}})
    return bodies


def seating(world: World, values: dict[str, str]) -> list[Any]:
    players = _evening(world, values).players
    return [
        {"players": [*players, "Zora"], "dealer": players[0]},
        {"players": players[::-1]},
        {"players": players[:-1]},
    ]


def import_archive(world: World, values: dict[str, str]) -> list[Any]:
    return list(world.archives)


def new_tournament(world: World, values: dict[str, str]) -> list[Any]:
    return [
        {
            "name": "Frühlingsturnier",
            "game": "troggen",
            "rounds": 2,
            "deals_per_player": 1,
            "password": PASSWORD,
            "scoring": "rank",
            "place": "Bern",
            "date": "2027-03-01",
            "language": "de",
            "options": {"unit_value": "0.10"},
        },
        {
            "name": "Troggu",
            "game": "troggu",
            "variant": "visp",
            "rounds": 1,
            "deals_per_player": 2,
            "password": "secret-1",
        },
    ]


def update_tournament(world: World, values: dict[str, str]) -> list[Any]:
    raw = values.get("tournament_id", "")
    tournament = next((t for t in world.tournaments if str(t.id) == raw), world.tournaments[0])
    version = tournament.version
    return [
        {"version": version, "name": "Umbenannt", "place": "Thun", "date": "2027-01-02"},
        {"version": version, "rounds": 4, "scoring": "sum"},
        {"version": version, "password": "new-password"},
    ]


def none(world: World, values: dict[str, str]) -> list[Any]:
    """Endpoints that read no body (a GET, or a POST that only acts)."""
    return []


VALID_BODIES: dict[str, Bodies] = {
    "api.openapi": none,
    "api.unlock": lambda w, v: [{"pin": PIN}, {"pin": "0000"}],
    "api.index": none,
    "api.create": new_evening,
    "api.show": none,
    "api.update": update_evening,
    "api.evening_revisions": none,
    "api.seating": seating,
    "api.record_hand": record_hand,
    "api.show_hand": none,
    "api.replace_hand": replace_hand,
    "api.void_hand": lambda w, v: [{"reason": "verzählt"}, {"reason": "undo"}],
    "api.hand_revisions": none,
    "api.settlement": none,
    "api.highlights": none,
    "api.sheet_pdf": none,
    "api.settlement_pdf": none,
    "api.export": none,
    "api.import_archive": import_archive,
    "api.close": lambda w, v: [{}],
    "api.reopen": lambda w, v: [{}],
    "groups_api.index": none,
    "groups_api.create": lambda w, v: [{"name": "Mittwochsrunde"}, {"name": "stamm"}],
    "groups_api.show": none,
    "groups_api.rename": lambda w, v: [{"name": "Stammtisch"}],
    "groups_api.rename_member": lambda w, v: [{"name": "Anna Muster"}],
    "groups_api.merge": lambda w, v: [{"other": m} for m in w.members[:3]],
    "groups_api.season": none,
    "groups_api.member_statistics": none,
    "groups_api.compare_members": none,
    "groups_api.put_evening": lambda w, v: [{"group": g} for g in [*w.groups, None]],
    "groups_api.put_carried_pot": lambda w, v: [
        *({"carried_from": e.id} for e in w.evenings[:3]),
        {"carried_from": None},
    ],
    "tournament_api.index": none,
    "tournament_api.create": new_tournament,
    "tournament_api.login": lambda w, v: [{"password": PASSWORD}, {"password": "wrong-one"}],
    "tournament_api.show": none,
    "tournament_api.update": update_tournament,
    "tournament_api.entrants": none,
    "tournament_api.register": lambda w, v: [
        {"name": "Zora", "club": "Bern"},
        {"name": "Yves", "number": 40, "present": False},
    ],
    "tournament_api.change_entrant": lambda w, v: [
        {"present": False},
        {"dropped": True},
        {"dropped": False, "present": True},
        {"name": "Umbenannt", "club": "Thun"},
    ],
    "tournament_api.rounds": none,
    "tournament_api.draw": lambda w, v: [{}],
    "tournament_api.show_round": none,
    "tournament_api.redraw": lambda w, v: [{}],
    "tournament_api.swap": lambda w, v: [{"a": 1, "b": 5}, {"a": 2, "b": 3}],
    "tournament_api.start": lambda w, v: [{}],
    "tournament_api.close": lambda w, v: [{"confirm": True}, {}],
    "tournament_api.standings": none,
    "tournament_api.open_table": lambda w, v: [{}],
}

#: Query strings some GET endpoints read.
QUERIES: dict[str, list[str]] = {
    "end_pot": ["split", "refund", "carry", "", "SPLIT", "none", "x" * 500, "\x00"],
}
