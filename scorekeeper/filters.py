"""Jinja filters, so templates format amounts and never compute them."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction

from flask import Flask
from flask_babel import format_time, get_locale

from scorekeeper.money import cents_to_str
from scorekeeper.serialize import text


def signed(value: int) -> str:
    """An amount with its sign, +12 or 0, and a real minus sign that reads well from afar."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"


def money(cents: int, currency: str = "", *, plus: bool = False) -> str:
    """Money in the page's language: ``CHF 3.50`` in English, ``3,50 CHF`` in German.

    The sign always sits right before the digits; ``plus`` writes it for gains too.
    """
    amount = cents_to_str(cents).replace("-", "\u2212")
    if plus and cents > 0:
        amount = f"+{amount}"
    if str(get_locale()) == "de":
        amount = amount.replace(".", ",")
        return f"{amount} {currency}".strip()
    return f"{currency} {amount}".strip()


def decimal(value: str) -> str:
    """A decimal string (a unit value) with the page's decimal separator."""
    return value.replace(".", ",") if str(get_locale()) == "de" else value


def timeofday(moment: datetime) -> str:
    """A time of day in the installation's time zone (``BABEL_DEFAULT_TIMEZONE``), 14:05."""
    return format_time(moment, "HH:mm")


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
    app.add_template_filter(exact)
    app.add_template_global(get_locale)
    app.add_template_global(text)
