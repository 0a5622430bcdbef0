"""Jinja filters, so templates format amounts and never compute them.

Money and clock times follow one rule on every page and printout (``docs/presentation.md``):
``CHF 0.30`` with the currency first and a decimal point in both languages, as Swiss German
writes amounts; times in the installation's time zone, without the zone's name.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction

from babel.numbers import format_decimal
from flask import Flask
from flask_babel import format_date, format_datetime, format_time, get_locale

from scorekeeper.core.chart import signed
from scorekeeper.core.rules.base import msg
from scorekeeper.web.json_shapes import text
from scorekeeper.web.text_width import fitting_size

#: How thousands are grouped in money, by page language: Swiss German with an apostrophe
#: (U+2019), English with a comma; both use a decimal point (docs/presentation.md). Our
#: own table rather than the locale's, since locale data changes its mind: Babel 2.19's
#: de_CH groups with a typewriter apostrophe (U+0027).
GROUPING = {"de": "\u2019", "en": ","}

#: Void reasons the app gives itself (an Undo at the table), shown in the reader's language.
#: Reasons typed by people are shown as typed.
VOID_REASONS = {"undo": msg("taken back with Undo")}

#: Where a version of a hand came from, as the hand's history names it.
SOURCES = {
    "page": msg("entered on the table screen"),
    "api": msg("sent by a program"),
    "import": msg("imported from an archive"),
    "restore": msg("restored from a backup"),
    "anonymise": msg("a name anonymised"),
}


def grouping() -> str:
    """The thousands separator money is written with on this page."""
    return GROUPING.get(str(get_locale()), ",")


def decimal_amount(value: Decimal) -> str:
    """``value`` without its sign, grouped, with two decimals or up to four where they
    carry something (a rounding that moved a fraction of a cent)."""
    written = str(format_decimal(abs(value), format="#,##0.00##", locale="en"))
    return written.replace(",", grouping())


def with_currency(value: Decimal, currency: str, *, plus: bool) -> str:
    """``CHF \u22120.30``: the currency, then the sign right before the digits."""
    sign = "\u2212" if value < 0 else "+" if plus and value > 0 else ""
    return f"{currency} {sign}{decimal_amount(value)}".strip()


def money(cents: int, currency: str = "", *, plus: bool = False) -> str:
    """Money the same way on every page and in both languages: ``CHF 3.50``, ``CHF -0.30``
    (with a real minus sign).

    ``plus`` writes the sign for gains too (``CHF +0.30``), where gains and debts stand in
    one column.
    """
    return with_currency(Decimal(cents) / 100, currency, plus=plus)


def decimal(value: str, currency: str = "") -> str:
    """A decimal string of money (a unit value, ``"0.10"``) written as ``|money`` writes it."""
    return with_currency(Decimal(value), currency, plus=False)


def timeofday(moment: datetime) -> str:
    """A time of day in the installation's time zone (``BABEL_DEFAULT_TIMEZONE``), 14:05."""
    return str(format_time(moment, "HH:mm"))


def machine(moment: datetime) -> str:
    """A moment for a ``<time datetime>``: to the second, with its zone (HTML takes at
    most three digits of a second's fraction; the stored six are refused).

    >>> from datetime import UTC
    >>> machine(datetime(2026, 11, 28, 2, 38, 1, 313881, tzinfo=UTC))
    '2026-11-28T02:38:01+00:00'
    """
    return moment.isoformat(timespec="seconds")


def stamp(moment: datetime) -> str:
    """A date and time in the installation's time zone, 21.11.2026 16:45 (no zone name:
    the table reads the clock on the wall)."""
    return str(format_datetime(moment, "dd.MM.yyyy HH:mm"))


def day(value: date) -> str:
    """A day as the table writes it, 21.11.2026; a moment (a datetime) counts by its day in
    the installation's time zone, so an evening started at 00:30 in Zurich is that day's."""
    if isinstance(value, datetime):
        return str(format_date(value, "dd.MM.yyyy"))
    return value.strftime("%d.%m.%Y")


def void_reason(reason: str | None) -> str:
    """A void's reason as shown: the app's own reasons translated, typed ones as typed."""
    known = VOID_REASONS.get(reason or "")
    return text(known) if known else reason or ""


def source(name: str | None) -> str:
    """Where a version of a hand came from, in words."""
    known = SOURCES.get(name or "")
    return text(known) if known else name or ""


def exact(value: Fraction | int | None) -> str:
    """An exact amount for the standings: whole, or with one decimal (7/3 → 2.3)."""
    if value is None:
        return "\u2013"
    if isinstance(value, int) or value.denominator == 1:
        return signed(int(value))
    rounded = round(Fraction(value) * 10)
    sign = "+" if rounded > 0 else "\u2212" if rounded < 0 else ""
    return f"{sign}{abs(rounded) // 10}.{abs(rounded) % 10}"


def register(app: Flask) -> None:
    """Make the filters available to every template."""
    app.add_template_filter(signed)
    app.add_template_filter(money)
    app.add_template_filter(decimal)
    app.add_template_filter(timeofday)
    app.add_template_filter(stamp)
    app.add_template_filter(machine)
    app.add_template_filter(day)
    app.add_template_filter(exact)
    app.add_template_filter(void_reason)
    app.add_template_filter(source)
    app.add_template_global(get_locale)
    app.add_template_global(text)
    app.add_template_global(fitting_size)
