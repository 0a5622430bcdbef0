"""Doppen's Pagatkasse as the Kirchberg paper sheet keeps it (seed 001; docs/doppen.md §8).

The Kasse is kept as notes, not money. The Kasse column holds a common amount noted for
every seated player alike (the refill ``b`` when it is empty, ``b/2`` when everybody
passes); the foot of a player's own column holds what only they owe (``b/2`` for a revoke,
the doubling of the Kasse for an announced Pagat they lost). Its contents are the sum of
all notes. Nothing changes hands until an announced Pagat wins the Kasse: then each player
pays the winner their own notes times the Pagat's Kontra multiplier (the winner's own
share cancels), the notes are struck out and everybody is noted for a refill. At the end
of the evening the notes still standing are paid in and the contents shared out equally.

Amounts are integer cents. The state is a frozen value, so a replay gives the same Kasse.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from scorekeeper.core.rules.base import KASSE, Message, ScoreLine, Table, Transfer, msg
from scorekeeper.core.rules.options import to_fraction

_AMOUNT = re.compile(r"^\d{1,6}(\.\d{1,4})?$")


def check_kasse_base(value: str) -> Message | None:
    """A positive, even number of whole cents, so that half of it is whole cents too.

    >>> check_kasse_base("1.00") is None, check_kasse_base("0.05").render()
    (True, 'The Kasse base must be a positive, even number of whole cents, such as 1.00.')
    """
    problem = msg("The Kasse base must be a positive, even number of whole cents, such as 1.00.")
    if not _AMOUNT.match(value):
        return problem
    cents = Decimal(value) * 100
    if cents <= 0 or cents != cents.to_integral_value() or int(cents) % 2:
        return problem
    return None


def base_cents(options: Mapping[str, str]) -> int:
    """The evening's Kasse base ``b`` in cents (option ``kasse_base``).

    >>> base_cents({"kasse_base": "1.00"})
    100
    """
    return int(to_fraction(options["kasse_base"]) * 100)


def _add(
    entries: tuple[tuple[str, int], ...], amounts: Mapping[str, int]
) -> tuple[tuple[str, int], ...]:
    out = dict(entries)
    for player, amount in amounts.items():
        out[player] = out.get(player, 0) + amount
    return tuple(out.items())


@dataclass(frozen=True, slots=True)
class Kasse:
    """The notes standing on the sheet, per player: common (Kasse column) and individual.

    The seed's example: Anne, Bert and Clara, base 1 €; refill, all pass, Bert loses an
    announced Pagat (the Kasse doubles).

    >>> k = Kasse().noted(dict.fromkeys(("Anne", "Bert", "Clara"), 150), common=True)
    >>> k = k.noted({"Bert": k.contents}, common=False)
    >>> k.contents, k.owed()
    (900, {'Anne': 150, 'Bert': 600, 'Clara': 150})
    """

    #: The Kasse column: what each player is noted for in common (``c`` in docs/doppen.md §8).
    common: tuple[tuple[str, int], ...] = ()
    #: The foot of each player's column: what only they owe (``d_i``).
    individual: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        if any(amount < 0 for _, amount in (*self.common, *self.individual)):
            raise ValueError("notes are never negative")

    @property
    def contents(self) -> int:
        """What the Kasse holds in effect: every note standing (``K = n·c + Σd_i``)."""
        return sum(a for _, a in self.common) + sum(a for _, a in self.individual)

    @property
    def is_empty(self) -> bool:
        """Whether nothing is noted, so the next hand starts with a refill."""
        return self.contents == 0

    def owed(self) -> dict[str, int]:
        """What each noted player owes the Kasse: common and individual notes together."""
        out = dict(self.common)
        for player, amount in self.individual:
            out[player] = out.get(player, 0) + amount
        return out

    def common_notes(self) -> dict[str, int]:
        """The Kasse column per player (the same for everyone who sat at every hand)."""
        return dict(self.common)

    def individual_notes(self) -> dict[str, int]:
        """The notes at the foot of each player's column."""
        return dict(self.individual)

    def noted(self, amounts: Mapping[str, int], *, common: bool) -> Kasse:
        """The Kasse after noting ``amounts`` (cents per player), in common or individually."""
        if common:
            return Kasse(_add(self.common, amounts), self.individual)
        return Kasse(self.common, _add(self.individual, amounts))


def note_line(label: Message, amounts: Mapping[str, int]) -> ScoreLine:
    """A note as the payment it will become: each player owes the Kasse their amount."""
    return ScoreLine(
        label, tuple(Transfer(p, KASSE, a) for p, a in amounts.items() if a), money=True
    )


def won_line(kasse: Kasse, winner: str, factor: int, label: Message) -> ScoreLine:
    """An announced Pagat wins the Kasse: each player pays the winner ``factor`` times their
    notes, directly; the winner's own notes cancel (docs/doppen.md §8, §9).

    >>> k = Kasse((("Anne", 150), ("Bert", 150), ("Clara", 150)), (("Bert", 450),))
    >>> won_line(k, "Anne", 1, msg("Kasse won")).amounts()
    {'Bert': -600, 'Anne': 750, 'Clara': -150}
    """
    return ScoreLine(
        label,
        tuple(
            Transfer(p, winner, factor * a) for p, a in kasse.owed().items() if p != winner and a
        ),
        money=True,
    )


def close_lines(kasse: Kasse, table: Table) -> tuple[ScoreLine, ...]:
    """The end of the evening: the notes are paid in, the contents shared out equally.

    ``table`` is the table as it would play on: its players share, cents that do not divide
    go one each in playing order from the next forehand (equal shares have equal
    remainders, so the largest-remainder rule comes down to that order).

    >>> k = Kasse((("A", 100), ("B", 100), ("C", 100)), (("B", 101),))
    >>> paid, shared = close_lines(k, Table(("A", "B", "C"), dealer="C"))
    >>> paid.amounts()["kasse"], shared.amounts()
    (401, {'kasse': -401, 'A': 134, 'B': 134, 'C': 133})
    """
    if kasse.is_empty:
        return ()
    paid_in = note_line(msg("Kasse notes paid in"), kasse.owed())
    share, rest = divmod(kasse.contents, table.size)
    order = table.order_from(table.forehand)
    amounts = {p: share + (1 if i < rest else 0) for i, p in enumerate(order)}
    shared = ScoreLine(
        msg("Kasse shared out equally"),
        tuple(Transfer(KASSE, p, amounts[p]) for p in table.players if amounts[p]),
        money=True,
    )
    return paid_in, shared


def everyone(players: Iterable[str], amount: int) -> dict[str, int]:
    """The same amount noted for each of ``players``."""
    return dict.fromkeys(players, amount)
