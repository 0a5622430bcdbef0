"""From a replayed evening to money: the end rule, nets, who pays whom (docs/settlement.md).

Money is integer cents; exact intermediate values are ``Fraction``s. Rounding to the coin
happens only here, with written, deterministic rules:

* **Nets** are rounded to the coin by largest remainder: every amount is first cut towards
  zero to whole coins, then the coins still missing go, one each, to the amounts with the
  largest cut-off remainder on the side that lost by cutting (ties in ``order``).
* **Transfers** are the fewest payments: the parties are split into as many groups summing
  to zero as possible (exact search over subsets up to 12 players and the pot, greedy
  beyond), and inside each group the largest debtor pays the largest creditor.
* **Pairwise** amounts follow every transfer between two players directly; money that went
  through a common account is owed by each person who put it in, in proportion to what they
  put in since it was last emptied. Each pair is rounded to the nearest coin, then the
  rows are brought to the players' nets by moving single coins along pairs that still stay
  within one coin of their exact value (a shortest-path search in playing order); only
  when that cannot close the gap does a pair move further.

Games whose hands also move money directly (``ScoreLine.money``: Doppen's Pagatkasse) are
settled in both units at once: a party's exact net is its native result times the unit
value plus its money result, and pairwise amounts count money lines in cents like any
other transfer (money through the Kasse is owed by whoever paid it in, as with a pot).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise

from scorekeeper.core.ledger import Ledger
from scorekeeper.core.rules.base import CARRIED, ScoreLine, Table
from scorekeeper.core.rules.options import to_fraction
from scorekeeper.core.rules.variant import Options, Variant

#: Exact search for the fewest transfers is used up to this many parties: twelve players
#: (docs/settlement.md) and the pot or the Kasse beside them. 13 parties take about 20 ms.
EXACT_TRANSFER_LIMIT = 13


@dataclass(frozen=True, slots=True)
class Payment:
    """``source`` pays ``amount`` cents to ``target``."""

    source: str
    target: str
    amount: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """The end of an evening in money."""

    rule: str | None
    closing: tuple[ScoreLine, ...]
    final: dict[str, int]
    net: dict[str, int]
    exact: dict[str, Fraction]
    transfers: tuple[Payment, ...]
    pairwise: tuple[Payment, ...]
    #: Each party's money result (cents) from money lines besides ``final`` (Doppen's
    #: Kasse, the closing's pay-in and share-out included); zeros for other games.
    money: dict[str, int] = field(default_factory=dict)

    @property
    def rounding(self) -> dict[str, Fraction]:
        """What rounding to the coin moved, per party (non-zero entries only)."""
        return {p: self.net[p] - self.exact[p] for p in self.net if self.net[p] != self.exact[p]}


@dataclass(frozen=True, slots=True)
class Nets:
    """What each party ends the evening with, before anyone is told whom to pay: the end
    rule applied (``closing``), the native and money results, and the net in cents."""

    rule: str | None
    closing: tuple[ScoreLine, ...]
    parties: tuple[str, ...]
    final: dict[str, int]
    final_money: dict[str, int]
    exact: dict[str, Fraction]
    net: dict[str, int]
    coin: int
    unit: Fraction


def nets(
    variant: Variant,
    options: Options,
    ledger: Ledger,
    next_table: Table,
    *,
    rule: str | None = None,
) -> Nets:
    """Resolve the common accounts by the end rule and round each party's result to the
    coin: the nets, without the transfers and the pairwise table (which cost four fifths
    of a settlement, bench/club.py), for statistics that need only the nets.

    ``next_table`` is the table as it would play on (its dealer the next dealer): the pot
    split goes to those players, remainders starting with the next forehand. A pot carried
    in from an earlier evening makes whoever keeps it (``CARRIED``) one more party, owing
    the jetons it brought (less any refund); when this evening carries its pot on too, the
    two are one pile, and the pot's entry is only what it gained or lost tonight.
    """
    rule = rule or (options[variant.end_rule_option] if variant.end_rule_option else None)
    closing = variant.close_evening(ledger.state, next_table, options, rule=rule)
    totals = {**ledger.balances, **ledger.common}
    if ledger.carried_in and rule == variant.carry_choice:
        # The pot taken in goes on with what tonight added: one pile, whose keeper hands
        # nothing to himself. The pot's entry is what it won or lost tonight.
        (pot,) = variant.common_accounts
        totals[pot] -= ledger.carried_in
    elif ledger.carried_in:
        totals[CARRIED] = -ledger.carried_in
    money = dict(ledger.money)
    for line in closing:
        booked = money if line.money else totals
        for account, amount in line.amounts().items():
            booked[account] = booked.get(account, 0) + amount
    parties = party_order(ledger.players, next_table)
    parties += [a for a in variant.common_accounts if totals.get(a) or money.get(a)]
    parties += [CARRIED] if totals.get(CARRIED) else []
    final = {p: totals.get(p, 0) for p in parties}
    final_money = {p: money.get(p, 0) for p in parties}
    if sum(final.values()) != 0 or sum(final_money.values()) != 0:
        raise AssertionError(f"the ledger does not balance: {final}, money {final_money}")
    cents = to_fraction(options["unit_value"]) * 100 if "unit_value" in options else Fraction(0)
    coin = int(to_fraction(options.get("coin", "0.01")) * 100)
    exact = {p: final[p] * cents + final_money[p] for p in parties}
    net = round_to_coin(exact, coin, parties)
    return Nets(rule, closing, tuple(parties), final, final_money, exact, net, coin, cents)


def settle(
    variant: Variant,
    options: Options,
    ledger: Ledger,
    next_table: Table,
    *,
    rule: str | None = None,
) -> Settlement:
    """Settle an evening: resolve the common accounts, then nets, transfers and pairwise
    (``nets`` for the first two)."""
    found = nets(variant, options, ledger, next_table, rule=rule)
    parties = list(found.parties)
    pair_exact = pairwise_exact(ledger, found.closing, variant.common_accounts, unit=found.unit)
    if ledger.carried_in and CARRIED not in found.net:
        (pot,) = variant.common_accounts
        pair_exact = merged(pair_exact, CARRIED, pot)
    pairs = round_pairwise(pair_exact, found.net, found.coin, parties)
    transfers = fewest_transfers(found.net, parties)
    return Settlement(
        found.rule,
        found.closing,
        found.final,
        found.net,
        found.exact,
        transfers,
        pairs,
        found.final_money,
    )


def merged(
    exact: Mapping[tuple[str, str], Fraction], gone: str, into: str
) -> dict[tuple[str, str], Fraction]:
    """The pairwise table with party ``gone`` counted as ``into`` (the pot taken in and the
    pot carried on, one pile): what passed between the two vanishes."""
    summed: dict[tuple[str, str], Fraction] = {}
    for (a, b), amount in exact.items():
        a, b = (into if a == gone else a), (into if b == gone else b)
        if a != b:
            summed[(a, b)] = summed.get((a, b), Fraction(0)) + amount
    out = {}
    for (a, b), amount in summed.items():
        net = amount - summed.get((b, a), Fraction(0))
        if net > 0:
            out[(a, b)] = net
    return out


def party_order(players: Sequence[str], next_table: Table) -> list[str]:
    """Tie-break order: the next table from its forehand, then those who left."""
    seated = list(next_table.order_from(next_table.forehand))
    return seated + [p for p in players if p not in seated]


def round_to_coin(exact: Mapping[str, Fraction], coin: int, order: Sequence[str]) -> dict[str, int]:
    """Round amounts that sum to zero to whole coins so that they still sum to zero.

    >>> round_to_coin({"A": Fraction(7), "B": Fraction(-3), "C": Fraction(-4)}, 5, "ABC")
    {'A': 5, 'B': 0, 'C': -5}
    """
    units = {p: exact[p] / coin for p in order}
    cut = {p: int(u) for p, u in units.items()}  # int() cuts towards zero
    missing = -sum(cut.values())  # positive: positives need rounding up
    if missing:
        sign = 1 if missing > 0 else -1
        side = [p for p in order if units[p] * sign > 0 and units[p] != cut[p]]
        side.sort(key=lambda p: -abs(units[p] - cut[p]))  # stable: ties keep ``order``
        for p in side[: abs(missing)]:
            cut[p] += sign
    return {p: cut[p] * coin for p in order}


def fewest_transfers(net: Mapping[str, int], order: Sequence[str]) -> tuple[Payment, ...]:
    """The fewest payments that settle ``net`` (which sums to zero), deterministically.

    >>> fewest_transfers({"A": 50, "B": -20, "C": 20, "D": -50}, "ABCD")
    (Payment(source='D', target='A', amount=50), Payment(source='B', target='C', amount=20))
    """
    parties = [p for p in order if net[p]]
    if not parties:
        return ()
    groups = _zero_groups(parties, net) if len(parties) <= EXACT_TRANSFER_LIMIT else [parties]
    payments: list[Payment] = []
    for group in groups:
        payments += _greedy(group, net)
    return tuple(payments)


def _zero_groups(parties: list[str], net: Mapping[str, int]) -> list[list[str]]:
    """Split ``parties`` into the most groups that each sum to zero (exact, 2^n·n)."""
    n = len(parties)
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + net[parties[low.bit_length() - 1]]
    best = [0] * (1 << n)
    for mask in range(1, 1 << n):
        top = max(best[mask ^ (1 << i)] for i in range(n) if mask >> i & 1)
        best[mask] = top + (1 if sums[mask] == 0 else 0)
    groups: list[list[str]] = []
    mask, current = full, full
    while mask:
        # Peel off one member at a time, keeping the count of zero groups optimal.
        drop = next(
            i
            for i in reversed(range(n))
            if mask >> i & 1 and best[mask ^ (1 << i)] + (sums[mask] == 0) == best[mask]
        )
        if sums[mask] == 0 and mask != current:
            groups.append([parties[i] for i in range(n) if (current ^ mask) >> i & 1])
            current = mask
        mask ^= 1 << drop
    groups.append([parties[i] for i in range(n) if current >> i & 1])
    return sorted(groups, key=lambda g: parties.index(g[0]))


def _greedy(group: list[str], net: Mapping[str, int]) -> list[Payment]:
    """Largest debtor pays largest creditor until the group is settled."""
    left = {p: net[p] for p in group}
    payments = []
    while any(left.values()):
        debtor = min(group, key=lambda p: (left[p], group.index(p)))
        creditor = max(group, key=lambda p: (left[p], -group.index(p)))
        amount = min(-left[debtor], left[creditor])
        payments.append(Payment(debtor, creditor, amount))
        left[debtor] += amount
        left[creditor] -= amount
    return payments


def pairwise_exact(
    ledger: Ledger,
    closing: Sequence[ScoreLine],
    common: Sequence[str],
    *,
    unit: Fraction | None = None,
) -> dict[tuple[str, str], Fraction]:
    """What each player received from each other player, exactly.

    Key ``(a, b)`` is what ``a`` received from ``b`` net; only one order of each pair
    is kept, the one with a positive amount. Whatever is still in a common account at
    the end is owed to that account by whoever put it in.

    Without ``unit`` the amounts are native units and money lines (``ScoreLine.money``)
    are left out: for Doppen that is the points part alone, the Aufschreibsystem's
    ``S_i - S_j``. With ``unit``, the cents one native unit is worth, every amount is in
    cents: native transfers are scaled by it, money lines are taken as they are.

    Amounts stay integers until a common account pays out: a long evening has thousands
    of transfers, and fractions are only needed for the shares of a pot.
    """
    scale: Fraction | int = 1
    if unit is not None:
        scale = unit.numerator if unit.denominator == 1 else unit
    flows = _Flows(common)
    lines = [
        *ledger.opening,
        *(line for hand in ledger.hands for line in hand.score.lines),
        *closing,
    ]
    for line in lines:
        if line.money and unit is None:
            continue
        factor = 1 if line.money else scale
        for t in line.transfers:
            flows.transfer(t.source, t.target, t.amount * factor)
    flows.settle_accounts()
    out: dict[tuple[str, str], Fraction] = {}
    for (a, b), amount in flows.flows.items():
        net = amount - flows.flows.get((b, a), 0)
        if net > 0:
            out[(a, b)] = Fraction(net)
    return out


class _Flows:
    """Who received what from whom, following money through the common accounts (pots):
    what an account pays out is owed by those who put it in, in proportion."""

    def __init__(self, common: Sequence[str]) -> None:
        self.flows: dict[tuple[str, str], Fraction | int] = {}
        self.put_in: dict[str, dict[str, Fraction | int]] = {account: {} for account in common}
        # Paid out of each account since money last went in: the payers' proportions do
        # not change while an account pays out, so their amounts are scaled down only
        # when needed.
        self.drained: dict[str, Fraction | int] = dict.fromkeys(common, 0)

    def book(self, receiver: str, payer: str, amount: Fraction | int) -> None:
        if receiver != payer and amount:
            self.flows[(receiver, payer)] = self.flows.get((receiver, payer), 0) + amount

    def left_in(self, account: str) -> dict[str, Fraction | int]:
        """The payers' amounts still in ``account``, after what it paid out."""
        payers = self.put_in[account]
        drained = self.drained[account]
        if drained:
            total = sum(payers.values())
            payers = {p: Fraction(paid * (total - drained), total) for p, paid in payers.items()}
            self.put_in[account], self.drained[account] = payers, 0
        return payers

    def transfer(self, source: str, target: str, amount: Fraction | int) -> None:
        """``amount`` from ``source`` to ``target``, either of which may be an account."""
        if target in self.put_in:
            payers = self.left_in(target)
            payers[source] = payers.get(source, 0) + amount
        elif source in self.put_in:
            payers = self.put_in[source]
            total = sum(payers.values())
            for payer, paid in payers.items():
                self.book(target, payer, Fraction(amount * paid, total))
            self.drained[source] += amount
            if self.drained[source] == total:
                payers.clear()
                self.drained[source] = 0
        else:
            self.book(target, source, amount)

    def settle_accounts(self) -> None:
        """Whatever is still in an account is owed to it by whoever put it in."""
        for account in self.put_in:
            for payer, paid in self.left_in(account).items():
                self.book(account, payer, paid)


def round_pairwise(
    exact: Mapping[tuple[str, str], Fraction],
    net: Mapping[str, int],
    coin: int,
    order: Sequence[str],
) -> tuple[Payment, ...]:
    """Round pairwise amounts to the coin so each party's pairs sum to its ``net``."""
    index = {p: i for i, p in enumerate(order)}
    value: dict[tuple[str, str], Fraction] = {}
    for (a, b), amount in exact.items():
        if a in index and b in index:
            value[(a, b)] = amount / coin
            value[(b, a)] = -amount / coin
    rounded = {k: round(v) for k, v in value.items()}
    for k in list(rounded):
        rounded[k] = -rounded[(k[1], k[0])] if index[k[0]] > index[k[1]] else rounded[k]
    gap = {p: net[p] // coin - sum(rounded.get((p, q), 0) for q in order) for p in order}
    for strict in (True, False):
        while any(g > 0 for g in gap.values()):
            path = _coin_path(order, gap, rounded, value, strict=strict)
            if path is None:
                break
            for a, b in pairwise(path):
                rounded[(a, b)] = rounded.get((a, b), 0) + 1
                rounded[(b, a)] = rounded.get((b, a), 0) - 1
            gap[path[0]] -= 1
            gap[path[-1]] += 1
    return tuple(
        Payment(b, a, rounded[(a, b)] * coin)
        for a in order
        for b in order
        if rounded.get((a, b), 0) > 0
    )


def _coin_path(
    order: Sequence[str],
    gap: Mapping[str, int],
    rounded: Mapping[tuple[str, str], int],
    value: Mapping[tuple[str, str], Fraction],
    *,
    strict: bool,
) -> list[str] | None:
    """A shortest chain of pairs along which one coin can move from a short row to a long one.

    Moving a coin along a→b raises what a receives from b by one coin. With ``strict``,
    only pairs that stay within one coin of their exact value are used.
    """
    start = next(p for p in order if gap[p] > 0)
    previous: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        a = queue.popleft()
        if gap[a] < 0:
            path = [a]
            while (step := previous[path[-1]]) is not None:
                path.append(step)
            return path[::-1]
        for b in order:
            if b in previous or b == a:
                continue
            if strict and rounded.get((a, b), 0) + 1 - value.get((a, b), Fraction(0)) > 1:
                continue
            previous[b] = a
            queue.append(b)
    return None
