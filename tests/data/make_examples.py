"""Write example archives (and a backup) with whatever Scorekeeper is importable.

Run from a checkout of the version to capture, with that checkout first on the path:

    git worktree add /tmp/old-023e6f9 023e6f9
    cd /tmp/old-023e6f9
    PYTHONPATH=/tmp/old-023e6f9 /work/main/.venv/bin/python \\
        /work/main/tests/data/make_examples.py --out /tmp/examples --label v1-2026-11-22-023e6f9

It starts the app on a new SQLite file, plays one evening per game and variant the version
knows (hands, a correction, a void, a hand voided and then corrected, a change of table, a
corrected title, an English evening, a closed one) through the JSON API, and writes for
each evening its archive (``GET /api/v1/evenings/<id>/export``) and beside it what that
version showed: the balances, the common accounts, each hand's deltas, the next dealer and
the settlement. With ``--backup`` it also writes the backup (``flask backup``'s JSON and
the page's zip) with the expected results of every evening in it.

Only the standard library and the app itself are used, so the script runs unchanged on
every version since archives exist (tests/data/README.md lists the runs).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

SEVEN = ["Anna", "Beat", "Carla", "Dani", "Ella", "Fritz", "Gabi"]

#: Keys of the evening's JSON that are not results (the rest are balances and accounts).
NOT_RESULTS = {
    "id",
    "game",
    "variant",
    "title",
    "place",
    "date",
    "version",
    "language",
    "closed",
    "players",
    "all_players",
    "options",
    "hands",
    "next_forehand",
}


def troggen() -> tuple[dict[str, Any], list[tuple[str, str, dict[str, Any]]]]:
    """A Troggen evening at five, then four: correction, void, void undone, new table."""
    start = {
        "game": "troggen",
        "players": ["Anna", "Bert", "Clara", "Dora", "Emil"],
        "first_dealer": "Emil",
        "title": "Spielabend bei Anna",
        "place": "Solothurn",
        "date": "2026-11-21",
    }
    steps = [
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
            {"contract": "einfach", "bidder": "Clara", "partner": "Emil", "points": 37},
        ),
        (
            "PUT",
            "hands/3",
            {
                "contract": "einfach",
                "bidder": "Clara",
                "partner": "Anna",
                "points": 38,
                "version": 1,
            },
        ),
        ("DELETE", "hands/2", {"reason": "Anna hat falsch gezählt"}),
        (
            "POST",
            "hands",
            {"contract": "einfach", "bidder": "Bert", "partner": "Emil", "points": 44},
        ),
        ("DELETE", "hands/4", {"reason": "versehentlich gestrichen"}),
        (
            "PUT",
            "hands/4",
            {
                "contract": "einfach",
                "bidder": "Bert",
                "partner": "Emil",
                "points": 44,
                "version": 2,
            },
        ),
        ("POST", "seating", {"players": ["Anna", "Bert", "Clara", "Dora"]}),
        ("POST", "hands", {"contract": "ohne", "bidder": "Bert", "points": 40}),
        ("POST", "hands", {"contract": "doppelt", "bidder": "Dora", "points": 33}),
        ("PATCH", "", {"version": 1, "title": "Museumsabend mit Anna"}),
    ]
    return start, steps


def doppen() -> tuple[dict[str, Any], list[tuple[str, str, dict[str, Any]]]]:
    """A Doppen evening in English: solo, pass with a penalty, kontra, correction, void."""
    start = {
        "game": "doppen",
        "players": ["Anne", "Bert", "Clara", "Dora"],
        "first_dealer": "Dora",
        "language": "en",
        "title": "Doppen in the museum",
    }
    steps = [
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
        (
            "PUT",
            "hands/3",
            {
                "contract": "zweier",
                "soloist": "Clara",
                "points": 36,
                "kontra": {"game": 1},
                "version": 1,
            },
        ),
        ("POST", "hands", {"contract": "dreier", "soloist": "Dora", "points": 25}),
        ("DELETE", "hands/4", {"reason": "wrong soloist"}),
        ("POST", "seating", {"players": ["Anne", "Bert", "Clara", "Emil"]}),
        ("POST", "hands", {"contract": "dreier", "soloist": "Emil", "points": 44}),
    ]
    return start, steps


def troggu(variant: str) -> tuple[dict[str, Any], list[tuple[str, str, dict[str, Any]]]]:
    """A Troggu evening of ``variant`` with a correction, a void and a new table."""
    if variant == "eisten-stalden":
        start = {"game": "troggu", "variant": variant, "players": SEVEN[:6]}
        steps = [
            ("POST", "hands", {"team": ["Anna", "Dani", "Fritz"], "points": 60}),
            ("POST", "hands", {"team": ["Beat", "Carla", "Ella"], "points": 50}),
            ("PUT", "hands/2", {"team": ["Beat", "Carla", "Ella"], "points": 52, "version": 1}),
            ("POST", "hands", {"team": ["Anna", "Beat", "Carla"], "points": 70}),
            ("DELETE", "hands/3", {"reason": "falsch zusammengezählt"}),
            ("POST", "seating", {"players": SEVEN[1:7]}),
            ("POST", "hands", {"team": ["Carla", "Ella", "Gabi"], "points": 40}),
        ]
        return start, steps
    sizes = {"visp": 7, "st-niklaus": 5, "graechen": 4, "flat": 3}
    players = SEVEN[: sizes.get(variant, 4)]
    start = {"game": "troggu", "variant": variant, "players": players}
    a, b, c = players[0], players[1], players[2]
    called = {"partner": players[3]} if len(players) > 5 else {}
    steps = [
        ("POST", "hands", {"contract": "normal", "declarer": a, **called, "points": 62}),
        ("POST", "hands", {"contract": "normal", "declarer": b, **called, "points": 40}),
        (
            "PUT",
            "hands/2",
            {"contract": "normal", "declarer": b, **called, "points": 44, "version": 1},
        ),
        ("POST", "hands", {"contract": "normal", "declarer": c, **called, "points": 45}),
        ("DELETE", "hands/3", {"reason": "Karten falsch gegeben"}),
        ("POST", "seating", {"players": players[1:] + players[:1]}),
        ("POST", "hands", {"contract": "normal", "declarer": a, **called, "points": 50}),
    ]
    return start, steps


def scenarios(games: dict[str, tuple[str, ...]]) -> list[tuple[str, Any]]:
    """Every scenario this version can play, by file name."""
    out = [("troggen", troggen())]
    if "doppen" in games:
        out.append(("doppen", doppen()))
    for variant in games.get("troggu", ()):
        out.append((f"troggu-{variant}", troggu(variant)))
    return out


def results(client: Any, evening: int) -> dict[str, Any]:
    """What this version shows of the evening: its ledger, next dealer and settlement."""
    shown = client.get(f"/api/v1/evenings/{evening}").json
    settlement = client.get(f"/api/v1/evenings/{evening}/settlement")
    return {
        "players": shown["players"],
        "closed": shown.get("closed"),
        "language": shown.get("language"),
        "hands": [
            {"number": h["number"], "dealer": h["dealer"], "deltas": h.get("deltas")}
            for h in shown["hands"]
        ],
        "results": {k: v for k, v in shown.items() if k not in NOT_RESULTS},
        "settlement": settlement.json if settlement.status_code == 200 else None,
    }


def play(client: Any, start: dict[str, Any], steps: list[tuple[str, str, dict[str, Any]]]) -> int:
    """Start the evening and make its requests; stop on any refusal."""
    response = client.post("/api/v1/evenings", json=start)
    assert response.status_code == 201, response.json
    evening = int(response.json["id"])
    for method, path, body in steps:
        url = f"/api/v1/evenings/{evening}" + (f"/{path}" if path else "")
        response = client.open(url, method=method, json=body)
        assert response.status_code < 300, (url, body, response.json)
    return evening


def correct_closed(app: Any, client: Any, evening: int) -> None:
    """Correct hand 1 of a closed evening with a reason, through the operation the
    organiser's correction of a closed tournament table goes through."""
    from scorekeeper import operations
    from scorekeeper.db.extensions import db

    hand = client.get(f"/api/v1/evenings/{evening}/hands/1").json
    body = {**hand["input"], "version": hand["version"]}
    with app.test_request_context():
        operations.replace_hand(evening, 1, body, source="api", correction="Nachgezählt")
        db.session.commit()


def main() -> None:
    """Play, export and write the files."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--label", required=True, help="v<format>-<commit date>-<commit>")
    parser.add_argument("--backup", action="store_true", help="also write a backup")
    parser.add_argument("--only", nargs="*", help="only these scenarios")
    parser.add_argument(
        "--correct-closed",
        action="store_true",
        help="correct hand 1 of the closed evening with a reason, as a tournament's organiser "
        "corrects a closed table (versions since the archive carries the reason)",
    )
    args = parser.parse_args()

    import scorekeeper
    from scorekeeper import create_app
    from scorekeeper.core.rules import games

    print("using", scorekeeper.__file__, file=sys.stderr)
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-examples-"))
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{folder / 'scorekeeper.sqlite'}",
            "SECRET_KEY": "examples",
            "WTF_CSRF_ENABLED": False,
        },
        instance_path=str(folder),
    )
    client = app.test_client()
    archives = args.out / "archives"
    archives.mkdir(parents=True, exist_ok=True)
    played: list[tuple[str, int]] = []
    for name, (start, steps) in scenarios(games()):
        if args.only and name not in args.only:
            continue
        played.append((name, play(client, start, steps)))
    # One closed evening: the last one played.
    closing = client.post(f"/api/v1/evenings/{played[-1][1]}/close")
    assert closing.status_code == 200, closing.json
    if args.correct_closed:
        correct_closed(app, client, played[-1][1])
    expected: dict[str, Any] = {}
    for name, evening in played:
        archive = client.get(f"/api/v1/evenings/{evening}/export").json
        base = archives / f"{args.label}-{name}"
        base.with_suffix(".json").write_text(
            json.dumps(archive, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        shown = results(client, evening)
        base.with_suffix(".expected.json").write_text(
            json.dumps(shown, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        expected[archive["evening"]["created_at"]] = shown
    if args.backup:
        backups = args.out / "backups"
        backups.mkdir(parents=True, exist_ok=True)
        written = folder / "written"
        result = app.test_cli_runner().invoke(args=["backup", str(written)])
        assert result.exit_code == 0, result.output
        (document,) = written.glob("scorekeeper-*.json")
        shutil.copyfile(document, backups / f"{args.label}.json")
        download = client.get("/backup/scorekeeper-backup.zip")
        assert download.status_code == 200
        (backups / f"{args.label}.zip").write_bytes(download.data)
        download.close()
        (backups / f"{args.label}.expected.json").write_text(
            json.dumps(expected, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
    print(f"wrote {len(played)} evenings to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
