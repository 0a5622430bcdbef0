"""What the settlement page and the printouts show beside the numbers: the balance chart
in the reader's language, exact rounding amounts, the Striche ranking, house rules in
words."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction

from flask_babel import gettext, ngettext

from scorekeeper import operations
from scorekeeper.core.chart import balance_chart, signed
from scorekeeper.core.money import exact_to_str
from scorekeeper.core.rules.eisten_stalden import leaders
from scorekeeper.core.rules.variant import Variant
from scorekeeper.core.settlement import Settlement
from scorekeeper.web.jinja_filters import decimal, with_currency
from scorekeeper.web.json_shapes import text


def chart(current: operations.EveningView, result: Settlement) -> str:
    """The balances chart with its texts in the page's language, ending with the end rule."""
    players = current.ledger.players
    points = [hand.balances for hand in current.ledger.hands]
    ends = result.final if result.closing else current.ledger.balances
    finals = ", ".join(f"{p} {signed(ends.get(p, 0))}" for p in players)
    empty = gettext("No hand recorded yet.")
    described = ngettext(
        "Each player's balance after every hand, %(num)s hand. At the end: %(finals)s.",
        "Each player's balance after every hand, %(num)s hands. At the end: %(finals)s.",
        len(points),
        finals=finals,
    )
    return balance_chart(
        players,
        points,
        title=gettext("Balances over the evening"),
        description=described if points else empty,
        empty=empty,
        axis=gettext("Hand"),
        final=result.final if result.closing else None,
        final_label=gettext("End"),
    )


def exact_money(cents: Fraction, currency: str) -> str:
    """A signed amount of money to a hundredth of a cent, without trailing zeros.

    Rounding moves fractions of a cent, so the two decimals of ``|money`` would hide it.
    """
    return with_currency(Decimal(exact_to_str(cents)), currency, plus=True)


def house_rules(variant: Variant, options: Mapping[str, str]) -> list[tuple[str, str]]:
    """Each house rule's name and value as a reader says them: a choice by its words, an
    amount as money (``CHF 0.10``), the currency by its code; never the stored keys."""
    currency = options.get("currency", "")
    shown = []
    for spec in variant.option_specs:
        value = options.get(spec.key, spec.default_for(options))
        labels = {key: text(label) for key, label in spec.choices}
        if labels:
            words = labels.get(value, value)
        elif spec.key == "currency":
            words = value
        else:
            words = decimal(value, currency)
        shown.append((text(spec.label), words))
    return shown


def tally_view(current: operations.EveningView) -> dict[str, object]:
    """The Striche per player, most first, and the Tagessieger (games without money)."""
    tally = {p: current.ledger.tally.get(p, 0) for p in current.all_players}
    ranking = sorted(current.all_players, key=lambda p: -tally[p])
    return {"tally": tally, "ranking": ranking, "leaders": leaders(tally)}
