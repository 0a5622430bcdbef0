"""Writing integer cents as decimal strings, the API's money format ("1.20", "-0.35")."""

from __future__ import annotations

from fractions import Fraction


def cents_to_str(cents: int) -> str:
    """Two decimals, a minus sign for debts.

    >>> cents_to_str(120), cents_to_str(-35), cents_to_str(0)
    ('1.20', '-0.35', '0.00')
    """
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}"


def exact_to_str(cents: Fraction) -> str:
    """An exact amount of cents (possibly fractional) to four decimals of money.

    >>> exact_to_str(Fraction(10, 3))
    '0.0333'
    """
    units = round(cents * 100)  # hundredths of a cent
    sign = "-" if units < 0 else ""
    whole, part = divmod(abs(units), 10_000)
    return f"{sign}{whole}.{part:04d}"
