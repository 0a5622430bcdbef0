"""What a season page or answer is asked for: the date range, game, variant and order,
read the same way from a page's query and the API's (docs/club.md, "Filters")."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from scorekeeper.core.rules import VARIANTS
from scorekeeper.core.rules.base import ErrorCollector, InvalidSettingsError, msg
from scorekeeper.core.statistics import SORT_KEYS
from scorekeeper.operations.club_statistics import Filters, year_of

#: The season table's order when none is asked for: money, most first.
DEFAULT_SORT = "money"


def read_day(raw: Mapping[str, str], key: str, errors: ErrorCollector) -> date | None:
    """An optional day, written year-month-day."""
    value = raw.get(key, "").strip()
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        errors.add(key, msg("Write the date as year-month-day, such as 2026-11-21."))
        return None


def read_filters(raw: Mapping[str, str], today: date) -> Filters:
    """The filters asked for: ``from`` and ``to`` (the year of ``today`` by default), a
    ``game`` and a ``variant`` of it; refused with a message per field."""
    errors = ErrorCollector()
    year = year_of(today)
    start = read_day(raw, "from", errors) or year.start
    end = read_day(raw, "to", errors) or year.end
    if start > end:
        errors.add("to", msg("The end of the range comes before its start."))
    game = raw.get("game", "").strip() or None
    variant = raw.get("variant", "").strip() or None
    games = {g for g, _ in VARIANTS}
    if game is not None and game not in games:
        errors.add("game", msg("Choose one of: {choices}.", choices=", ".join(sorted(games))))
    if variant is not None and not any(
        key == variant and (game is None or g == game) for g, key in VARIANTS
    ):
        errors.add("variant", msg("Choose a variant of the game."))
    errors.raise_if_any(InvalidSettingsError)
    return Filters(start, end, game, variant)


def read_order(raw: Mapping[str, str]) -> tuple[str, bool]:
    """The column the season table is sorted by and whether most comes first."""
    errors = ErrorCollector()
    key = raw.get("sort", "").strip() or DEFAULT_SORT
    if key not in SORT_KEYS:
        errors.add("sort", msg("Choose one of: {choices}.", choices=", ".join(SORT_KEYS)))
    order = raw.get("order", "").strip() or "desc"
    if order not in ("asc", "desc"):
        errors.add("order", msg("Choose one of: {choices}.", choices="asc, desc"))
    errors.raise_if_any(InvalidSettingsError)
    return key, order == "desc"
