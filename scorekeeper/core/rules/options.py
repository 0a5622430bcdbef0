"""House rules as explicit, validated options (docs/api.md "Options").

Every option is a string in storage and JSON (money is a decimal string, never a float);
each variant lists the options it understands, with defaults, and anything else is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from scorekeeper.core.rules.base import ErrorCollector, InvalidSettingsError, Message, msg

Checker = Callable[[str], Message | None]
DefaultFor = Callable[[Mapping[str, str]], str]

_DECIMAL = re.compile(r"^\d{1,6}(\.\d{1,4})?$")
_CURRENCY = re.compile(r"^[A-Z]{3}$")


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One house rule: its key, default, allowed values and a one-line explanation."""

    key: str
    default: str | DefaultFor
    label: Message
    help: Message
    choices: tuple[tuple[str, Message], ...] = ()
    check: Checker | None = None
    #: What an evening stored before the option existed reads as, when that is not the
    #: default for new evenings (an archive or a stored evening without the key keeps the
    #: amounts it had); None: the default.
    earlier: str | None = None

    def default_for(self, chosen: Mapping[str, str]) -> str:
        """The default, which may depend on options chosen before it (coin on currency)."""
        return self.default if isinstance(self.default, str) else self.default(chosen)

    def problem(self, value: str) -> Message | None:
        """Why ``value`` is not allowed, or None."""
        if self.choices and value not in {c for c, _ in self.choices}:
            return msg("Choose one of: {choices}.", choices=", ".join(c for c, _ in self.choices))
        return self.check(value) if self.check else None


def to_fraction(value: str) -> Fraction:
    """An exact fraction from a decimal string such as ``"0.10"``.

    >>> to_fraction("0.10")
    Fraction(1, 10)
    """
    return Fraction(Decimal(value))


def check_amount(value: str) -> Message | None:
    """A non-negative decimal string with at most four decimals."""
    if not _DECIMAL.match(value):
        return msg('Write the amount as a decimal number such as "0.10".')
    return None


def check_coin(value: str) -> Message | None:
    """A positive amount of whole cents."""
    if not _DECIMAL.match(value):
        return msg('Write the amount as a decimal number such as "0.05".')
    try:
        cents = Decimal(value) * 100
    except InvalidOperation:  # pragma: no cover - the pattern already excludes this
        return msg('Write the amount as a decimal number such as "0.05".')
    if cents <= 0 or cents != cents.to_integral_value():
        return msg("The coin must be a positive amount of whole cents, such as 0.05.")
    return None


def check_currency(value: str) -> Message | None:
    """Three capital letters, as ISO 4217 codes are."""
    if not _CURRENCY.match(value):
        return msg("Use a three-letter currency code such as CHF or EUR.")
    return None


def default_coin(chosen: Mapping[str, str]) -> str:
    """Five Rappen in Switzerland, one cent elsewhere."""
    return "0.05" if chosen.get("currency") == "CHF" else "0.01"


def money_options(*, unit_value: str, currency: str = "CHF") -> tuple[OptionSpec, ...]:
    """The money options every game with stakes shares: unit value, currency and coin."""
    return (
        OptionSpec(
            "unit_value",
            unit_value,
            msg("Unit value"),
            msg("What one unit of the game is worth in money."),
            check=check_amount,
        ),
        OptionSpec(
            "currency",
            currency,
            msg("Currency"),
            msg("The currency the evening is settled in."),
            check=check_currency,
        ),
        OptionSpec(
            "coin",
            default_coin,
            msg("Smallest coin"),
            msg("The smallest amount that changes hands; results are rounded to it."),
            check=check_coin,
        ),
    )


def as_stored(specs: tuple[OptionSpec, ...], stored: Mapping[str, object]) -> dict[str, object]:
    """Options stored before some of ``specs`` existed, with those read as they were then
    (``OptionSpec.earlier``); the others are left for ``parse_options`` to default.

    >>> spec = OptionSpec("rule", "new", msg("Rule"), msg("A rule."), earlier="old")
    >>> as_stored((spec,), {}), as_stored((spec,), {"rule": "new"})
    ({'rule': 'old'}, {'rule': 'new'})
    """
    missing = {s.key: s.earlier for s in specs if s.earlier is not None and s.key not in stored}
    return {**stored, **missing}


def parse_options(specs: tuple[OptionSpec, ...], raw: object) -> dict[str, str]:
    """Validate ``raw`` against ``specs`` and return the complete set with defaults filled in.

    >>> specs = money_options(unit_value="0.10")
    >>> parse_options(specs, {"currency": "EUR"})
    {'unit_value': '0.10', 'currency': 'EUR', 'coin': '0.01'}
    """
    errors = ErrorCollector()
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise InvalidSettingsError.single("options", msg("Options must be an object."))
    known = {s.key for s in specs}
    for key in raw:
        if key not in known:
            errors.add(f"options.{key}", msg("Unknown option {key}.", key=key))
    chosen: dict[str, str] = {}
    for spec in specs:
        value = raw.get(spec.key)
        if value is None:
            chosen[spec.key] = spec.default_for(chosen)
            continue
        if not isinstance(value, str):
            errors.add(f"options.{spec.key}", msg("This option must be given as text."))
            continue
        value = value.strip()
        problem = spec.problem(value)
        if problem is not None:
            errors.add(f"options.{spec.key}", problem)
        chosen[spec.key] = value
    errors.raise_if_any(InvalidSettingsError)
    return chosen
