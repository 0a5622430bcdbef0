"""Doppen as played in Kirchberg am Wechsel, Lower Austria (seed 001; our reading docs/doppen.md).

Three-player tarock: the highest bidder, the soloist, plays alone against the other two; at
a table of four the dealer sits out and pays or receives as an opponent (§1). The contract
(Dreier, Unterer, Zweier, Einer, Solo) sets the game factor GF and the premium factor PF
(§3). A hand's result R, per opponent and seen from the soloist, is the card-point game
``(10 + |P - 35|)·GF`` (the soloist wins with 36) or a Valat instead, plus Pagat, Uhu,
Trull and Könige for whichever side earned them, each doubled by its own Kontra, Re...
(§4-§7). Every opponent pays R to the soloist, or receives -R: the hand is zero-sum in
points (Wertungspunkte, the native unit), itemised line by line.

The Pagatkasse is money kept as notes on the sheet (``rules/kasse.py``, §8): refilled
when empty, half the base when everybody passes and for a revoke, won by an announced
Pagat, doubled by a lost one. Each hand's R also goes into the soloist's column of the
Aufschreibsystem (§10); for a fixed table, j owes i ``S_i - S_j`` points at the end.

What the shell uses (the hand body is docs/api.md's, parsed by ``parse_hand``, see
``rules/doppen_hand.py``):

* per hand (``ledger.HandResult``): ``deltas`` in points; ``money_deltas`` the cents that
  changed hands (the Kasse won); ``score.lines`` itemised, money lines flagged ``money``;
  ``score.notes`` the Kasse notes the hand wrote, as the payments they will become;
  ``DOPPEN.kasse_view(result.state)`` the Kasse after the hand (``contents``, ``owed()``);
  ``DOPPEN.columns(result.state)`` the Aufschreibsystem after the hand.
* the evening: the same two calls on ``ledger.state``; ``settle`` resolves the Kasse
  (``Settlement.money``) and adds it to the points in money.
* ``rules/counting.py``: the card-point helper for the 3-card rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from scorekeeper.core.rules.base import (
    KASSE,
    HandInput,
    HandScore,
    Message,
    ScoreLine,
    Table,
    msg,
    pays,
    receives,
)
from scorekeeper.core.rules.doppen_hand import (
    GAME_FACTOR,
    PREMIUM_FACTOR,
    GameHand,
    PassHand,
    Played,
    Result,
    Side,
    parse_doppen_hand,
)
from scorekeeper.core.rules.kasse import (
    Kasse,
    base_cents,
    check_kasse_base,
    close_lines,
    everyone,
    note_line,
    won_line,
)
from scorekeeper.core.rules.options import OptionSpec, money_options
from scorekeeper.core.rules.variant import Options, Variant

#: The game is worth 10 plus the difference to 35 (§4); the soloist needs more than 35.
GAME_BASE = 10
HALF = 35
VALAT_SILENT = 50
VALAT_ANNOUNCED = 100
#: Pagat and Uhu, silent or announced; Trull and Könige are always silent (§5).
PREMIUM_SILENT = 10
PREMIUM_ANNOUNCED = 20
HELD_PREMIUM = 10

#: Who sits at the table changes (docs/doppen.md §8, "A player joins or leaves"): the Partie
#: ends for the Kasse (split), or the notes stay with each player (stays, the reading before
#: the option existed, which evenings stored without it keep).
KASSE_ON_CHANGE = OptionSpec(
    "kasse_on_change",
    "split",
    msg("Kasse when players change"),
    msg(
        "When someone joins or leaves: the Kasse is shared out among those seated before "
        "and the new table pays the base in, or the notes stay with each player."
    ),
    choices=(
        ("split", msg("shared out among those seated before")),
        ("stays", msg("the notes stay")),
    ),
    earlier="stays",
)

#: One item of a hand's result: its label and its value per opponent, from the soloist.
Item = tuple[Message, int]


@dataclass(frozen=True, slots=True)
class DoppenState:
    """What carries from hand to hand: the Kasse notes and the Aufschreibsystem columns."""

    kasse: Kasse = field(default_factory=Kasse)
    #: Each player's column S_i in points, in the order they first sat down.
    columns: tuple[tuple[str, int], ...] = ()
    #: The table of the last hand scored (None before the first): whether the next one
    #: sits the same players, and how that table would have played on.
    table: Table | None = None


def _splits(options: Options, before: Table | None, now: Table) -> bool:
    """Whether the Kasse is shared out before ``now``: the house rule says so and someone
    joined or left since ``before`` (a swap of seats or a new dealer is no change)."""
    rule = options.get(KASSE_ON_CHANGE.key, KASSE_ON_CHANGE.earlier)
    return rule == "split" and before is not None and set(before.players) != set(now.players)


def split_lines(kasse: Kasse, before: Table) -> tuple[ScoreLine, ...]:
    """The Partie ends for the Kasse as at the end of the evening (docs/doppen.md §8): the
    notes standing are paid in and the contents shared out among those seated ``before``,
    the table as it would have played on (cents that do not divide in its order)."""
    played_on = Table(before.players, before.after(before.dealer))
    labels = (
        msg("Players changed: the Kasse notes are paid in"),
        msg("Players changed: the Kasse is shared out among those seated before"),
    )
    # Nothing standing (an empty Kasse) gives no lines.
    return tuple(
        replace(line, label=label)
        for line, label in zip(close_lines(kasse, played_on), labels, strict=False)
    )


def _doubled(label: Message, doublings: int) -> Message:
    """The label of an item doubled ``doublings`` times (Kontra, Re, Subkontra...)."""
    if not doublings:
        return label
    return msg("{item}, times {factor} by Kontra", item=label, factor=2**doublings)


def _side_of(player: str, soloist: str) -> int:
    """+1 for the soloist's side, -1 for the opponents'."""
    return 1 if player == soloist else -1


def game_item(hand: GameHand) -> Item:
    """The card-point game, or the Valat that replaces it (§4, §5)."""
    gf = GAME_FACTOR[hand.contract]
    k = hand.kontra
    if hand.announced.valat:
        won = hand.valat is Side.SOLOIST
        label = msg("Valat announced and won") if won else msg("Valat announced and failed")
        value = VALAT_ANNOUNCED * gf * 2**k.valat
        return _doubled(label, k.valat), value if won else -value
    if hand.valat is not None:
        won = hand.valat is Side.SOLOIST
        label = msg("Valat by the soloist") if won else msg("Valat by the opponents")
        value = VALAT_SILENT * gf * 2**k.game
        return _doubled(label, k.game), value if won else -value
    assert hand.points is not None
    points = hand.points
    value = (GAME_BASE + abs(points - HALF)) * gf * 2**k.game
    if points > HALF:
        return _doubled(msg("Game won with {points} card points", points=points), k.game), value
    return _doubled(msg("Game lost with {points} card points", points=points), k.game), -value


def trick_item(
    name: str, announcer: str | None, played: Played | None, doublings: int, hand: GameHand
) -> Item | None:
    """Pagat or Uhu, silent or announced, won or lost, to the side that earned it (§5)."""
    pf = PREMIUM_FACTOR[hand.contract]
    if announcer is not None:
        # An announced premium that did not happen is lost (docs/api.md).
        won = played is not None and played.result is Result.WON
        if won:
            label = msg("{premium} announced and won", premium=name)
        else:
            label = msg("{premium} announced and lost", premium=name)
        sign = _side_of(announcer, hand.soloist) * (1 if won else -1)
        return _doubled(label, doublings), sign * PREMIUM_ANNOUNCED * pf * 2**doublings
    if played is None:
        return None
    won = played.result is Result.WON
    if won:
        label = msg("{premium} won, silent", premium=name)
    else:
        label = msg("{premium} lost, silent", premium=name)
    sign = _side_of(played.player, hand.soloist) * (1 if won else -1)
    return label, sign * PREMIUM_SILENT * pf


def hand_items(hand: GameHand) -> tuple[Item, ...]:
    """Every item of a hand's result R, in the order of the sheet (§7).

    D2: Bert's Zweier with 33 card points, Kontra on the game; Clara's silent Pagat; Bert's
    announced Uhu won.

    >>> from scorekeeper.core.rules.doppen_hand import Announced, Contract, Kontra, Result
    >>> d2 = GameHand(Contract.ZWEIER, "Bert", 33, Kontra(game=1), Announced(uhu="Bert"),
    ...               Played("Clara", Result.WON), Played("Bert", Result.WON), None, None, None)
    >>> for label, value in hand_items(d2):
    ...     print(label.render(), value)
    Game lost with 33 card points, times 2 by Kontra -48
    Pagat won, silent -20
    Uhu announced and won 40
    """
    pf = PREMIUM_FACTOR[hand.contract]
    k = hand.kontra
    items: list[Item | None] = [
        game_item(hand),
        trick_item("Pagat", hand.announced.pagat, hand.pagat, k.pagat, hand),
        trick_item("Uhu", hand.announced.uhu, hand.uhu, k.uhu, hand),
    ]
    if hand.trull is not None:
        items.append((msg("Trull"), _side_of(hand.trull, hand.soloist) * HELD_PREMIUM * pf))
    if hand.kings is not None:
        items.append((msg("Kings"), _side_of(hand.kings, hand.soloist) * HELD_PREMIUM * pf))
    return tuple(item for item in items if item is not None)


def result_per_opponent(hand: GameHand) -> int:
    """R: what each opponent pays the soloist (negative: receives), all items together.

    D1: a Dreier won with 41 card points.

    >>> from scorekeeper.core.rules.doppen_hand import Announced, Contract, Kontra
    >>> d1 = GameHand(Contract.DREIER, "Anne", 41, Kontra(), Announced(), None, None, None,
    ...               None, None)
    >>> result_per_opponent(d1)
    16
    """
    return sum(value for _, value in hand_items(hand))


def _item_line(label: Message, value: int, soloist: str, opponents: tuple[str, ...]) -> ScoreLine:
    """Each opponent pays ``value`` to the soloist, or receives it when negative."""
    if value >= 0:
        return pays(label, opponents, soloist, value)
    return receives(label, soloist, opponents, -value)


class Doppen(Variant):
    """Doppen, Kirchberg am Wechsel (seed 001).

    ``common_balance`` stays at the default (no native common account): the Kasse holds
    money, not points, and is shown through ``kasse_view``. ``KASSE`` is a common account
    only for the settlement, which pays the notes in and shares them out.
    """

    game = "doppen"
    key = "kirchberg"
    title = msg("Doppen (Kirchberg am Wechsel)")
    min_players = 3
    max_players = 4
    unit_name = msg("Points")
    unit_word = msg("points")
    common_accounts = (KASSE,)
    option_specs = (
        *money_options(unit_value="0.02", currency="EUR"),
        OptionSpec(
            "kasse_base",
            "1.00",
            msg("Kasse base"),
            msg(
                "What everybody pays into the Pagatkasse when it is empty; half of it when "
                "all pass and for a revoke."
            ),
            check=check_kasse_base,
        ),
        KASSE_ON_CHANGE,
    )

    def initial_state(self) -> DoppenState:
        """An empty Kasse and empty columns."""
        return DoppenState()

    def parse_hand(
        self, raw: Mapping[str, object], table: Table, options: Options
    ) -> GameHand | PassHand:
        """Validate a hand's facts (docs/api.md's Doppen body); every problem is named at once."""
        return parse_doppen_hand(raw, table)

    def warnings(
        self, hand: HandInput, table: Table, options: Options
    ) -> dict[str, tuple[Message, ...]]:
        """More doublings than a table plays: confirmed, since each one doubles the amount
        (§4 sets no limit, but a 12 typed for a 2 would cost the table a thousandfold)."""
        if not isinstance(hand, GameHand):
            return {}
        return {
            f"kontra.{key}": (
                msg(
                    "{count} doublings multiply this by {factor}. Please check: Kontra is 1, "
                    "Re 2, Subkontra 3.",
                    count=count,
                    factor=2**count,
                ),
            )
            for key, count in hand.kontra.unusual().items()
        }

    def kasse_view(self, state: Any) -> Kasse:
        """The Kasse in ``state``: ``contents`` and ``owed()`` in cents, and the notes.

        >>> DOPPEN.kasse_view(DOPPEN.initial_state()).contents
        0
        """
        kasse: Kasse = state.kasse
        return kasse

    def columns(self, state: Any) -> dict[str, int]:
        """The Aufschreibsystem in ``state``: each player's column S_i in points (§10).

        Each hand's R goes into the soloist's column. At a table that stayed the same all
        evening, j owes i ``S_i - S_j`` points, so player i's net is ``n·S_i - ΣS``.
        """
        return dict(state.columns)

    def column_nets(self, columns: Mapping[str, int]) -> dict[str, int]:
        """Each player's net from the Aufschreibsystem's columns, ``n·S_i - ΣS`` (§10): what
        the pairwise settlement of a table that stayed the same all evening gives.

        >>> DOPPEN.column_nets({"Anne": 16, "Bert": 0, "Clara": 0})
        {'Anne': 32, 'Bert': -16, 'Clara': -16}
        """
        total = sum(columns.values())
        return {p: len(columns) * s - total for p, s in columns.items()}

    def score_hand(
        self, hand: Any, table: Table, state: Any, options: Options
    ) -> tuple[HandScore, DoppenState]:
        """Points of one hand, the Kasse notes it writes and what it pays (§4-§8)."""
        base = base_cents(options)
        kasse: Kasse = state.kasse
        notes: list[ScoreLine] = []
        lines: list[ScoreLine] = []
        if _splits(options, state.table, table):
            lines += split_lines(kasse, state.table)
            kasse = Kasse()
        if kasse.is_empty:
            refill = everyone(table.players, base)
            notes.append(note_line(msg("Kasse empty: everybody pays the base in"), refill))
            kasse = kasse.noted(refill, common=True)
        for penalty in hand.penalties:
            owed = {penalty.player: base // 2}
            notes.append(note_line(msg("Revoke: half the base into the Kasse"), owed))
            kasse = kasse.noted(owed, common=False)
        columns = dict(state.columns)
        for player in table.players:
            columns.setdefault(player, 0)
        if isinstance(hand, PassHand):
            half = everyone(table.players, base // 2)
            notes.append(note_line(msg("Everybody passed: half the base into the Kasse"), half))
            kasse = kasse.noted(half, common=True)
        else:
            opponents = table.others(hand.soloist)
            items = hand_items(hand)
            lines += [_item_line(label, value, hand.soloist, opponents) for label, value in items]
            columns[hand.soloist] += sum(value for _, value in items)
            kasse = self._announced_pagat(hand, table, kasse, base, lines, notes)
        score = HandScore(
            tuple(line for line in lines if line.transfers),
            notes=tuple(note for note in notes if note.transfers),
        )
        return score, DoppenState(kasse, tuple(columns.items()), table)

    def _announced_pagat(
        self,
        hand: GameHand,
        table: Table,
        kasse: Kasse,
        base: int,
        lines: list[ScoreLine],
        notes: list[ScoreLine],
    ) -> Kasse:
        """An announced Pagat wins the Kasse or doubles it, times its Kontra (§8)."""
        announcer = hand.announced.pagat
        if announcer is None:
            return kasse
        factor = 2**hand.kontra.pagat
        if hand.pagat is not None and hand.pagat.result is Result.WON:
            label = _doubled(msg("Kasse won with the announced Pagat"), hand.kontra.pagat)
            lines.append(won_line(kasse, announcer, factor, label))
            refill = everyone(table.players, base)
            notes.append(note_line(msg("Kasse empty: everybody pays the base in"), refill))
            return Kasse().noted(refill, common=True)
        owed = {announcer: factor * kasse.contents}
        label = _doubled(msg("Announced Pagat lost: the Kasse doubles"), hand.kontra.pagat)
        notes.append(note_line(label, owed))
        return kasse.noted(owed, common=False)

    def close_evening(
        self, state: Any, table: Table, options: Options, *, rule: str | None = None
    ) -> tuple[ScoreLine, ...]:
        """The Kasse at the end: notes paid in, contents shared out equally (§8) among
        those seated at the end; with ``kasse_on_change`` ``split`` and players changed
        after the last hand, among those who played it, whose Partie the change ended."""
        if _splits(options, state.table, table):
            return split_lines(state.kasse, state.table)
        return close_lines(state.kasse, table)


DOPPEN = Doppen()
