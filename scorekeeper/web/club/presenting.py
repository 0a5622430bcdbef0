"""What the club's pages show beside the numbers (docs/club.md, "Pages"): the season table
split by game, unit and currency, the column headers that sort it, a member's running
result as a chart, and the season as spreadsheet rows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from flask import url_for
from flask_babel import gettext

from scorekeeper.core.chart import balance_chart, signed
from scorekeeper.core.rules import VARIANTS
from scorekeeper.core.statistics import RunningSeries, SeasonRow
from scorekeeper.operations.club_statistics import Season
from scorekeeper.web.club.figure_labels import GAMES, game_title, unit_name
from scorekeeper.web.evenings.csv_exports import csv_text
from scorekeeper.web.evenings.csv_exports import money as csv_money
from scorekeeper.web.jinja_filters import money
from scorekeeper.web.json_shapes import text

#: The season table's columns: sort key and heading, in the order they stand.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("person", "Member"),
    ("evenings", "Evenings"),
    ("hands", "Hands"),
    ("money", "Money"),
    ("units", "Units"),
    ("average_money", "Average per evening"),
    ("best", "Best evening"),
    ("worst", "Worst evening"),
)


def column_title(key: str) -> str:
    """A column's heading in the page's language."""
    titles: dict[str, str] = {
        "person": gettext("Member"),
        "evenings": gettext("Evenings"),
        "hands": gettext("Hands"),
        "money": gettext("Money"),
        "units": gettext("Units"),
        "average_money": gettext("Average per evening"),
        "best": gettext("Best evening"),
        "worst": gettext("Worst evening"),
    }
    return titles[key]


@dataclass(frozen=True, slots=True)
class SeasonTable:
    """The rows of one group of the season (game, unit, currency), in the order asked."""

    game: str
    unit: str
    currency: str
    rows: tuple[SeasonRow, ...]

    @property
    def title(self) -> str:
        """The game, its unit and the currency, as the table's caption."""
        parts = [game_title(self.game, self.unit), unit_name(self.unit)]
        return " · ".join([*parts, self.currency] if self.currency else parts)

    @property
    def keeps_money(self) -> bool:
        """Whether the group keeps money (Eisten-Stalden keeps Striche only)."""
        return bool(self.currency)


def tables(rows: Sequence[SeasonRow]) -> list[SeasonTable]:
    """The rows split by group, each group's rows in the order given; never summed across."""
    found: dict[tuple[str, str, str], list[SeasonRow]] = {}
    for row in rows:
        found.setdefault((row.game, row.unit, row.currency), []).append(row)
    return [SeasonTable(*key, tuple(found[key])) for key in sorted(found)]


def average_cents(row: SeasonRow) -> int:
    """Money per evening, rounded to the cent for display."""
    return round(row.average_money)


def average_units(row: SeasonRow) -> Fraction:
    """Units per evening, exact (the page writes one decimal)."""
    return row.average_units


@dataclass(frozen=True, slots=True)
class Header:
    """A sortable column heading: where tapping it leads and how it is sorted now."""

    key: str
    title: str
    url: str
    sorted: str | None  # "ascending", "descending" or None (aria-sort)


def headers(group_id: int, query: Mapping[str, str], key: str, descending: bool) -> list[Header]:
    """The headings of the season table, each a link sorting by its column: the column
    sorted now turns round, another starts with most first (by name: A first)."""
    kept = {k: v for k, v in query.items() if k in ("from", "to", "game", "variant") and v}
    out = []
    for column, _ in COLUMNS:
        if column == key:
            order = "asc" if descending else "desc"
            now: str | None = "descending" if descending else "ascending"
        else:
            order = "asc" if column == "person" else "desc"
            now = None
        args: dict[str, Any] = {**kept, "sort": column, "order": order}
        url = url_for("groups.season", group_id=group_id, **args)
        out.append(Header(column, column_title(column), url, now))
    return out


def choices_of_games() -> list[tuple[str, str]]:
    """The games to filter by."""
    return [(g, GAMES.get(g, g)) for g in dict.fromkeys(g for g, _ in VARIANTS)]


def choices_of_variants() -> list[tuple[str, str, list[tuple[str, str]]]]:
    """The variants to filter by, grouped by game (key, name, its variants by their
    titles): the page's script shows only the chosen game's, and without it the groups
    still say which game a variant belongs to."""
    by_game: dict[str, list[tuple[str, str]]] = {}
    for (g, key), variant in VARIANTS.items():
        by_game.setdefault(g, []).append((key, text(variant.title)))
    return [(g, GAMES.get(g, g), variants) for g, variants in by_game.items()]


def running_charts(series: Sequence[RunningSeries]) -> list[tuple[str, str]]:
    """A member's running result as charts with their captions: one per currency (a line
    per game kept in it) and one of Striche for games without money; never a line summing
    two groups."""
    by_chart: dict[str, list[RunningSeries]] = {}
    for s in series:
        by_chart.setdefault(s.currency or "", []).append(s)
    return [
        (
            gettext("Money in %(currency)s", currency=currency) if currency else "Striche",
            running_chart(found, currency, n),
        )
        for n, (currency, found) in enumerate(by_chart.items())
    ]


def running_chart(series: Sequence[RunningSeries], currency: str, number: int) -> str:
    """One chart: each series' running money (or Striche) after each of the member's
    evenings in it."""
    names = {id(s): game_title(s.game, s.unit) for s in series}
    if len(set(names.values())) < len(series):
        names = {id(s): f"{game_title(s.game, s.unit)} {unit_name(s.unit)}" for s in series}
    evenings = sorted(
        {(p.day or date.min, p.evening_id) for s in series for p in s.points},
    )
    so_far: dict[str, int] = {}
    points: list[dict[str, int]] = []
    for _, evening_id in evenings:
        for s in series:
            for p in s.points:
                if p.evening_id == evening_id:
                    so_far[names[id(s)]] = p.money if currency else p.units
        points.append(dict(so_far))
    value_text: Callable[[int], str] = (
        (lambda cents: money(cents, plus=True)) if currency else signed
    )
    title = (
        gettext("Running result in %(currency)s", currency=currency)
        if currency
        else gettext("Running Striche")
    )
    return balance_chart(
        list(names.values()),
        points,
        title=title,
        description=gettext(
            "The result so far after each evening of the season: %(lines)s.",
            lines=", ".join(
                f"{names[id(s)]} {value_text(so_far.get(names[id(s)], 0))}" for s in series
            ),
        ),
        empty=gettext("No evening in this season."),
        axis=gettext("Evening"),
        chart_id=f"running-chart-{number}",
        value_text=value_text,
    )


def season_csv(season: Season, rows: Sequence[SeasonRow]) -> str:
    """The season table as a spreadsheet: a row per member and group, numbers as numbers;
    the page's tables one after another (game, unit, currency, as ``tables`` orders
    them), each in the order asked for, so no column mixes EUR with CHF or Striche."""
    head = [
        gettext("Member"),
        gettext("Game"),
        gettext("Unit"),
        gettext("Currency"),
        gettext("Evenings"),
        gettext("Hands"),
        gettext("Money"),
        gettext("Units"),
        gettext("Average per evening"),
        gettext("Best evening"),
        gettext("Best evening: money"),
        gettext("Worst evening"),
        gettext("Worst evening: money"),
    ]
    lines: list[list[object]] = [head]
    for r in (row for table in tables(rows) for row in table.rows):
        lines.append(
            [
                season.names.get(r.person, r.person),
                game_title(r.game, r.unit),
                unit_name(r.unit),
                r.currency,
                r.evenings,
                r.hands,
                csv_money(r.money),
                r.units,
                csv_money(average_cents(r)),
                (r.best.day or "").__str__(),
                csv_money(r.best.money),
                (r.worst.day or "").__str__(),
                csv_money(r.worst.money),
            ]
        )
    return csv_text(lines)


def cents_decimal(cents: int) -> Decimal:
    """Cents as a decimal amount."""
    return Decimal(cents) / 100
