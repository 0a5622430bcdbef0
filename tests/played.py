"""Evenings of every game and variant, played through the API with everything that can
happen at a table: corrections, voids, a change of table, a ticked payment, a closing.

Backups, migrations and anonymising must all leave these ledgers exactly as they were, so
their tests share this one well-used installation and one way to read its results.
"""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

SEVEN = ["Anna", "Beat", "Carla", "Dani", "Ella", "Fritz", "Gabi"]

#: Each evening: how it is started, then the requests made during it (method, path, body).
EVENINGS: list[tuple[dict[str, Any], list[tuple[str, str, dict[str, Any]]]]] = [
    (
        {
            "game": "troggen",
            "players": ["Anna", "Bert", "Clara", "Dora", "Emil"],
            "first_dealer": "Emil",
            "title": "Spielabend bei Anna",
            "place": "Solothurn",
            "date": "2026-11-21",
        },
        [
            (
                "POST",
                "hands",
                {"contract": "doppelt", "bidder": "Anna", "partner": "Dora", "points": 30},
            ),
            (
                "POST",
                "hands",
                {
                    "contract": "misere",
                    "points": {"Anna": 8, "Bert": 20, "Clara": 12, "Dora": 15, "Emil": 12},
                },
            ),
            (
                "POST",
                "hands",
                {
                    "contract": "einfach",
                    "bidder": "Clara",
                    "partner": "Emil",
                    "points": 37,
                    "last_trick": "pagat_won",
                },
            ),
            (
                "PUT",
                "hands/3",
                {
                    "contract": "einfach",
                    "bidder": "Clara",
                    "partner": "Anna",
                    "points": 38,
                    "last_trick": "pagat_won",
                    "version": 1,
                },
            ),
            ("DELETE", "hands/2", {"reason": "Anna hat falsch gezählt"}),
            ("POST", "seating", {"players": ["Anna", "Bert", "Clara", "Dora"]}),
            (
                "POST",
                "hands",
                {"contract": "ohne", "bidder": "Bert", "won": True, "last_trick": "king_lost"},
            ),
            ("PATCH", "", {"version": 1, "title": "Museumsabend mit Anna"}),
        ],
    ),
    (
        {
            "game": "doppen",
            "players": ["Anne", "Bert", "Clara", "Dora"],
            "first_dealer": "Dora",
            "language": "en",
        },
        [
            (
                "POST",
                "hands",
                {
                    "contract": "dreier",
                    "soloist": "Anne",
                    "points": 41,
                    "announced": {"pagat": "Bert"},
                    "pagat": {"player": "Bert", "result": "lost"},
                },
            ),
            ("POST", "hands", {"contract": "pass", "penalties": [{"player": "Clara"}]}),
            (
                "POST",
                "hands",
                {"contract": "zweier", "soloist": "Clara", "points": 30, "kontra": {"game": 1}},
            ),
        ],
    ),
    (
        {"game": "troggu", "variant": "visp", "players": SEVEN},
        [
            (
                "POST",
                "hands",
                {"contract": "normal", "declarer": "Anna", "partner": "Dani", "points": 62},
            ),
            (
                "POST",
                "hands",
                {
                    "contract": "misere",
                    "fool_and_i_in_tapp": True,
                    "points": {
                        "Anna": 20,
                        "Beat": 22,
                        "Carla": 10,
                        "Dani": 20,
                        "Ella": 5,
                        "Fritz": 15,
                        "Gabi": 6,
                    },
                },
            ),
        ],
    ),
    (
        {"game": "troggu", "variant": "st-niklaus", "players": SEVEN[:5]},
        [
            ("POST", "hands", {"contract": "solo", "declarer": "Beat", "points": 80}),
            (
                "POST",
                "hands",
                {
                    "contract": "misere",
                    "points": {"Anna": 30, "Beat": 22, "Carla": 30, "Dani": 20, "Ella": 5},
                },
            ),
        ],
    ),
    (
        {"game": "troggu", "variant": "graechen", "players": SEVEN[:4]},
        [
            (
                "POST",
                "hands",
                {
                    "contract": "normal",
                    "declarer": "Carla",
                    "points": 114,
                    "all_tricks": "declarer",
                },
            )
        ],
    ),
    (
        {"game": "troggu", "variant": "flat", "players": SEVEN[:3]},
        [("POST", "hands", {"contract": "normal", "declarer": "Anna", "points": 40})],
    ),
    (
        {"game": "troggu", "variant": "eisten-stalden", "players": SEVEN[:6]},
        [
            ("POST", "hands", {"team": ["Anna", "Dani", "Fritz"], "points": 60}),
            ("POST", "hands", {"team": ["Beat", "Carla"], "points": 50}),
        ],
    ),
]


def play(client: FlaskClient) -> list[int]:
    """Play every evening of ``EVENINGS``; tick a payment of the first and close the last."""
    ids = []
    for start, requests in EVENINGS:
        response = client.post("/api/v1/evenings", json=start)
        assert response.status_code == 201, response.json
        evening = int(response.json["id"])
        ids.append(evening)
        for method, path, body in requests:
            url = f"/api/v1/evenings/{evening}" + (f"/{path}" if path else "")
            response = client.open(url, method=method, json=body)
            assert response.status_code < 300, (url, body, response.json)
    first = client.get(f"/api/v1/evenings/{ids[0]}/settlement").json["transfers"][0]
    tick = {
        "payer": first["from"],
        "payee": first["to"],
        "amount": str(int(first["amount"].replace(".", ""))),
    }
    assert client.post(f"/evenings/{ids[0]}/settlement/ticks", data=tick).status_code == 302
    assert client.post(f"/api/v1/evenings/{ids[-1]}/close").status_code == 200
    return ids


def results(client: FlaskClient) -> dict[str, dict[str, Any]]:
    """Every evening's ledger and settlement, by the moment it was started.

    The database's numbering and the settings version (an import adds a revision) are left
    out: a restored or migrated evening may differ in those and still be the same.
    """
    out = {}
    for summary in client.get("/api/v1/evenings").json["evenings"]:
        evening = client.get(f"/api/v1/evenings/{summary['id']}").json
        settlement = client.get(f"/api/v1/evenings/{summary['id']}/settlement").json
        for key in ("id", "version"):
            evening.pop(key)
        out[summary["created_at"]] = {"evening": evening, "settlement": settlement}
    return out
