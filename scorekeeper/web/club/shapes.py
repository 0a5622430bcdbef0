"""A group's season, a member's statistics, two members compared and an evening's
highlights, as the JSON API returns them (docs/api.md "Table groups")."""

from __future__ import annotations

from typing import Any

from scorekeeper.core.money import cents_to_str, exact_to_str
from scorekeeper.core.statistics import (
    Comparison,
    EveningMark,
    PlayerStatistics,
    SeasonRow,
    sort_rows,
)
from scorekeeper.operations.club_statistics import Season


def day(value: Any) -> str | None:
    """A day as the API writes dates."""
    return value.isoformat() if value is not None else None


def mark_json(mark: EveningMark) -> dict[str, Any]:
    """One evening's result."""
    return {
        "evening": mark.evening_id,
        "date": day(mark.day),
        "money": cents_to_str(mark.money),
        "units": mark.units,
    }


def who(season: Season, person: str) -> dict[str, Any]:
    """A person as the group knows them: member number and name (a name of no member:
    that name, no number)."""
    return {"member": season.members.get(person), "name": season.names.get(person, person)}


def row_json(season: Season, row: SeasonRow) -> dict[str, Any]:
    """One row of the season table."""
    return {
        **who(season, row.person),
        "game": row.game,
        "unit": row.unit,
        "currency": row.currency,
        "evenings": row.evenings,
        "hands": row.hands,
        "money": cents_to_str(row.money),
        "units": row.units,
        "average_money": exact_to_str(row.average_money),
        "average_units": str(round(row.average_units, 2)),
        "best": mark_json(row.best),
        "worst": mark_json(row.worst),
    }


def ordered(
    season: Season, rows: tuple[SeasonRow, ...], key: str, descending: bool
) -> tuple[SeasonRow, ...]:
    """The rows in the order asked for; by person means by the name the group uses."""
    if key == "person":
        return tuple(
            sorted(
                rows,
                key=lambda r: (season.names.get(r.person, r.person).casefold(), r.game),
                reverse=descending,
            )
        )
    return sort_rows(rows, key, descending)


def filters_json(season: Season) -> dict[str, Any]:
    """What the answer was asked for."""
    f = season.filters
    return {"from": day(f.start), "to": day(f.end), "game": f.game, "variant": f.variant}


def season_json(season: Season, rows: tuple[SeasonRow, ...]) -> dict[str, Any]:
    """The season table."""
    return {
        "group": {"id": season.group.id, "name": season.group.name},
        **filters_json(season),
        "evenings": len(season.evenings),
        "rows": [row_json(season, r) for r in rows],
    }


def statistics_json(season: Season, stats: PlayerStatistics) -> dict[str, Any]:
    """A member's season: every evening, the running result and every figure."""
    return {
        **who(season, stats.person),
        "group": {"id": season.group.id, "name": season.group.name},
        **filters_json(season),
        "evenings": [
            {
                "evening": r.evening_id,
                "date": day(r.day),
                "game": r.game,
                "variant": r.variant,
                "unit": r.unit,
                "currency": r.currency,
                "hands": r.hands,
                "money": cents_to_str(r.money),
                "units": r.units,
            }
            for r in stats.evenings
        ],
        "running": [
            {
                "game": s.game,
                "unit": s.unit,
                "currency": s.currency,
                "points": [
                    {
                        "evening": p.evening_id,
                        "date": day(p.day),
                        "money": cents_to_str(p.money),
                        "units": p.units,
                    }
                    for p in s.points
                ],
            }
            for s in stats.running
        ],
        "figures": dict(stats.figures()),
    }


def comparison_json(season: Season, comparison: Comparison) -> dict[str, Any]:
    """Two members side by side: every figure either has (null: a game never played)."""
    return {
        "a": who(season, comparison.a),
        "b": who(season, comparison.b),
        **filters_json(season),
        "figures": [{"key": f.key, "a": f.a, "b": f.b} for f in comparison.figures],
    }
