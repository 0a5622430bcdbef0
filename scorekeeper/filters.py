"""Jinja filters, so templates format amounts and never compute them."""

from __future__ import annotations

from flask import Flask
from flask_babel import get_locale

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


def register(app: Flask) -> None:
    """Make the filters available to every template."""
    app.add_template_filter(signed)
    app.add_template_filter(money)
    app.add_template_filter(decimal)
    app.add_template_global(get_locale)
    app.add_template_global(text)
