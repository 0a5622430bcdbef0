"""The score sheet's last page ends with the settlement, as a keeper of paper would close
it: each player's result, the end rule's lines and the payments (docs/presentation.md
"The score sheet as paper")."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext

from scorekeeper.core.rules.eisten_stalden import leaders
from scorekeeper.core.settlement import Settlement
from scorekeeper.core.sheet_codes import signed
from scorekeeper.operations.views import EveningView
from scorekeeper.web.jinja_filters import money


@dataclass(frozen=True, slots=True)
class End:
    """What the last page ends with: each player's result, the pot or Kasse, the payments."""

    heads: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    lines: tuple[str, ...]
    payments: tuple[tuple[str, str, str], ...]


def party(name: str) -> str:
    """A settlement's party as the sheet names it: a player, or the pot or Kasse."""
    names: dict[str, str] = {
        "pot": gettext("Pot"),
        "kasse": gettext("Kasse"),
        "carried": gettext("Carried pot"),
    }
    return names.get(name, name)


def closing_lines(current: EveningView, result: Settlement, currency: str) -> tuple[str, ...]:
    """The end rule's lines (the pot shared out, the Kasse paid in), in words."""
    found = []
    for line in result.closing:
        amounts = [
            f"{party(account)} "
            + (money(amount, currency, plus=True) if line.money else signed(amount))
            for account, amount in line.amounts().items()
            if account not in current.variant.common_accounts
        ]
        found.append(f"{line.label.render(gettext)}: {', '.join(amounts)}")
    return tuple(found)


def kasse_rows(
    current: EveningView, result: Settlement, currency: str
) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """Doppen's end: each column S, the points it pays (n·S \u2212 ΣS where the table stayed
    the same all evening), the Kasse shared out, the money."""
    columns: dict[str, int] = current.variant.columns(current.ledger.state)  # type: ignore[attr-defined]
    nets = current.variant.column_nets(columns)  # type: ignore[attr-defined]
    formula = all(result.final.get(p, 0) == net for p, net in nets.items())
    net_head = f"{gettext('Points')} (n·S \u2212 ΣS)" if formula else gettext("Points")
    heads = (gettext("Player"), gettext("Column S"), net_head, gettext("Kasse"), gettext("Money"))
    rows = tuple(
        (
            p,
            signed(columns.get(p, 0)),
            signed(result.final.get(p, 0)),
            money(result.money.get(p, 0), currency, plus=True),
            money(result.net.get(p, 0), currency, plus=True),
        )
        for p in current.all_players
    )
    return heads, rows


def sheet_end(current: EveningView) -> End:
    """The settlement as the sheet's last page gives it: each player's result (Doppen's
    by ``kasse_rows``; Eisten-Stalden's Striche), the end rule's lines, the payments."""
    players = current.all_players
    if current.variant.keeps_tally:
        tally = current.ledger.tally
        striche = tuple((p, str(tally.get(p, 0))) for p in players)
        best = leaders({p: tally.get(p, 0) for p in players})
        said = (f"{gettext('Tagessieger')}: {', '.join(best)}",) if best else ()
        return End((gettext("Player"), gettext("Striche")), striche, said, ())
    result = current.settlement()
    currency = current.evening.options.get("currency", "")
    lines = closing_lines(current, result, currency)
    payments = tuple(
        (party(p.source), party(p.target), money(p.amount, currency)) for p in result.transfers
    )
    if hasattr(current.variant, "kasse_view"):
        heads, rows = kasse_rows(current, result, currency)
        return End(heads, rows, lines, payments)
    heads = (gettext("Player"), current.variant.unit_name.render(gettext), gettext("Money"))
    parties = [*players, *(q for q in result.net if q not in players)]
    rows = tuple(
        (party(p), signed(result.final[p]), money(result.net[p], currency, plus=True))
        for p in parties
        if p in result.net
    )
    return End(heads, rows, lines, payments)
