"""Ticking off the settlement's payments as paid at the table (docs/settlement.md "Who pays whom").

A tick is a fact: "``payer`` paid ``payee`` this amount, at this time". It keeps the amount,
so when a correction later changes what ``payer`` owes ``payee`` the payment shows as open
again and the earlier tick as stale, instead of silently counting as paid. Flushes, never
commits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select

from scorekeeper import operations
from scorekeeper.core.rules.base import InvalidSettingsError, msg
from scorekeeper.core.settlement import Payment
from scorekeeper.db.extensions import db
from scorekeeper.db.models import SettlementTick, utcnow


@dataclass(frozen=True, slots=True)
class PaymentRow:
    """One payment of the settlement with its tick, or with a tick for another amount."""

    payment: Payment
    tick: SettlementTick | None
    stale: SettlementTick | None


def ticks_of(evening_id: int) -> dict[tuple[str, str], SettlementTick]:
    """The evening's ticks by (payer, payee)."""
    rows = db.session.scalars(
        select(SettlementTick)
        .where(SettlementTick.evening_id == evening_id)
        .order_by(SettlementTick.id)
    )
    return {(t.payer, t.payee): t for t in rows}


def payment_rows(
    payments: Iterable[Payment], ticks: dict[tuple[str, str], SettlementTick]
) -> tuple[list[PaymentRow], list[SettlementTick]]:
    """Each payment with its state, and the ticks that match no payment's pair at all."""
    rows = []
    used = set()
    for payment in payments:
        key = (payment.source, payment.target)
        found = ticks.get(key)
        used.add(key)
        if found is not None and found.amount == payment.amount:
            rows.append(PaymentRow(payment, found, None))
        else:
            rows.append(PaymentRow(payment, None, found))
    return rows, [t for key, t in ticks.items() if key not in used]


def tick(
    current: operations.EveningView,
    payer: str,
    payee: str,
    amount: int,
    *,
    rule: str | None = None,
) -> SettlementTick:
    """Mark ``payer`` → ``payee`` as paid; it must be a payment of the settlement shown.

    ``rule`` is the end-of-evening rule the page showed (None: the evening's own). Ticking
    a payment that is ticked already keeps the first time; a stale tick for another amount
    is replaced.
    """
    operations.ensure_open(current.evening)
    chosen = operations.read_end_rule(current, rule)
    payment = Payment(payer, payee, amount)
    if payment not in current.settlement(chosen).transfers:
        raise InvalidSettingsError.single(
            "payment",
            msg(
                "{payer} paying {payee} this amount is not one of the payments of this "
                "settlement (any more). The list shows the payments as they are now.",
                payer=payer,
                payee=payee,
            ),
        )
    evening_id = current.evening.id
    found = ticks_of(evening_id).get((payer, payee))
    if found is None:
        found = SettlementTick(evening_id=evening_id, payer=payer, payee=payee, amount=amount)
        db.session.add(found)
    elif found.amount != amount:
        found.amount = amount
        found.ticked_at = utcnow()
    db.session.flush()
    return found


def untick(current: operations.EveningView, payer: str, payee: str) -> bool:
    """Remove the tick of ``payer`` → ``payee``; False when there was none (undone already)."""
    operations.ensure_open(current.evening)
    found = ticks_of(current.evening.id).get((payer, payee))
    if found is None:
        return False
    db.session.delete(found)
    db.session.flush()
    return True
