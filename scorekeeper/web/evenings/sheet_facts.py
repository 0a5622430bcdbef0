"""An evening read for its score sheet: each hand's facts in short forms, each player's
cell and the totals after every hand (docs/presentation.md "The score sheet as paper");
``score_sheet`` measures them into pages."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from scorekeeper.core.sheet_codes import GameCodes, signed
from scorekeeper.operations.views import EveningView
from scorekeeper.web.jinja_filters import money


@dataclass(frozen=True, slots=True)
class HandLine:
    """A hand read for the sheet, before it is measured into a row."""

    number: int
    #: Its number and dealer.
    lead: tuple[str, str]
    #: ``hand``: the four facts' texts; ``spread``: a Misère's contract and its points,
    #: which take the other three columns; ``void``: the reason, across all four.
    kind: str
    facts: tuple[str, ...]
    #: Each player's total and the hand's change.
    players: tuple[tuple[str, str], ...]
    common: tuple[str, ...]


@dataclass
class Facts:
    """The evening read for its sheet: every hand's cells and the totals after each."""

    current: EveningView
    codes: GameCodes
    short: dict[str, str]
    void_reasons: Mapping[int, str]

    @property
    def players(self) -> tuple[str, ...]:
        """Every player of the evening, a column each."""
        return self.current.all_players

    @property
    def kasse(self) -> bool:
        """Doppen's Aufschreibsystem: the soloist's column and the Kasse notes."""
        return hasattr(self.current.variant, "kasse_view")

    @property
    def tally(self) -> bool:
        """Eisten-Stalden's Striche: strokes instead of money."""
        return self.current.variant.keeps_tally

    def common_heads(self) -> list[str]:
        """The heads of the columns right of the players': the pot, or the Kasse."""
        if self.kasse:
            return [gettext("Kasse")]
        return [gettext("Pot") for _ in self.current.ledger.common]

    def kasse_cell(self, result: Any, note: int | None) -> str:
        """The Kasse column of a hand: who won the Kasse and how much (``A +7.50``), and the
        note everybody is noted for where it changed."""
        won = [
            f"{self.short.get(p, p)} {money(cents, plus=True)}"
            for p, cents in result.money_deltas.items()
            if cents > 0 and p in self.players
        ]
        return " · ".join([*won, *([money(note)] if note is not None else [])])

    def kasse_notes(self, state: Any) -> tuple[int, dict[str, int]]:
        """The Kasse column's note (what each seated player is noted for in common) and
        each player's own notes, at the foot of their column."""
        kasse = self.current.variant.kasse_view(state)  # type: ignore[attr-defined]
        return max(dict(kasse.common).values(), default=0), dict(kasse.individual)

    def columns_of(self, state: Any) -> dict[str, int]:
        """Doppen's column value S per player after a hand (docs/doppen.md §10)."""
        return dict(self.current.variant.columns(state))  # type: ignore[attr-defined]

    def hands(self) -> list[HandLine]:
        """Every hand: its facts in short forms (a void: its reason), its players' cells
        and its common cells."""
        found = []
        columns: dict[str, int] = {}
        note = 0
        game = self.current.evening.game
        commons = len(self.common_heads())
        for result in self.current.ledger.hands:
            record = result.record
            lead = (str(record.number), self.short.get(record.table.dealer, ""))
            if record.void:
                reason = self.void_reasons.get(record.number) or ""
                said = f"{gettext('voided')}: {reason}" if reason else gettext("voided")
                empty = (("", ""),) * len(self.players)
                found.append(HandLine(record.number, lead, "void", (said,), empty, ("",) * commons))
                continue
            hand = self.codes.hand(game, record.facts, self.short)
            kind = "spread" if hand.spread else "hand"
            texts: tuple[str, ...] = (hand.contract, hand.who)
            if not hand.spread:
                texts += (hand.points, hand.extra)
            cells: list[tuple[str, str]] = []
            common: list[str]
            if self.kasse:
                now = self.columns_of(result.state)
                soloist = record.facts.get("soloist")
                for p in self.players:
                    moved = now.get(p, 0) - columns.get(p, 0)
                    written = moved or p == soloist
                    cells.append((signed(now.get(p, 0)), signed(moved)) if written else ("", ""))
                columns = now
                new_note, _ = self.kasse_notes(result.state)
                common = [self.kasse_cell(result, new_note if new_note != note else None)]
                note = new_note
            else:
                for p in self.players:
                    if self.tally:
                        cells.append(("|" * result.tally.get(p, 0), ""))
                    elif p in result.deltas:
                        moved = result.deltas[p]
                        total = signed(result.balances.get(p, 0))
                        cells.append((total, signed(moved) if moved else ""))
                    else:
                        cells.append(("", ""))
                common = [str(result.common.get(a, 0)) for a in self.current.ledger.common]
            found.append(HandLine(record.number, lead, kind, texts, tuple(cells), tuple(common)))
        return found

    def totals(self) -> dict[int, tuple[list[str], list[str], list[str]]]:
        """After each hand (and before the first, as 0): the players' totals, their own
        Kasse notes (Doppen) and the common cells."""
        ledger = self.current.ledger
        out: dict[int, tuple[list[str], list[str], list[str]]] = {}
        balances: dict[str, int] = {}
        tally: dict[str, int] = {}
        common = {a: ledger.carried_in if a == "pot" else 0 for a in ledger.common}
        note, own = 0, dict[str, int]()

        def keep(number: int) -> None:
            if self.tally:
                totals = [str(tally.get(p, 0)) for p in self.players]
            else:
                totals = [signed(balances.get(p, 0)) for p in self.players]
            if self.kasse:
                owned = [money(own[p]) if own.get(p) else "" for p in self.players]
                out[number] = (totals, owned, [money(note)])
            else:
                out[number] = (totals, [], [str(v) for v in common.values()])

        keep(0)
        for result in ledger.hands:
            if self.kasse:
                balances = self.columns_of(result.state)
                note, own = self.kasse_notes(result.state)
            else:
                balances = dict(result.balances)
                common = {a: result.common.get(a, 0) for a in ledger.common}
            for p, marks in result.tally.items():
                tally[p] = tally.get(p, 0) + marks
            keep(result.record.number)
        return out
