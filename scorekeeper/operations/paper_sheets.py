"""Hands typed back in from a paper score sheet, line by line (docs/recording.md "Back from
paper").

Each line is read from the sheet's codes (``core.sheet_entry``) into the facts the table
screen sends, then checked and played on exactly as a hand recorded at the table
(``hands.prepare_record``): the same dealer proposed by the rotation, the same refusals and
the same questions about implausible facts. Saving stores, in one transaction, every line
before the first one refused, as ordinary hands of source ``paper``; the first refused
line and those after it are left to mend.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scorekeeper.core.ledger import HandResult
from scorekeeper.core.rules.base import (
    ErrorCollector,
    ImplausibleHandError,
    InvalidInputError,
    Message,
    ScorekeeperError,
    msg,
)
from scorekeeper.core.rules.rotation import Seating as SeatingFact
from scorekeeper.core.sheet_entry import COLUMNS, SheetRow, read_player, read_row, read_table
from scorekeeper.core.validation import read_players
from scorekeeper.operations.errors import is_tournament_table
from scorekeeper.operations.evenings import change_seating
from scorekeeper.operations.hands import (
    hands_left,
    next_number,
    prepare_record,
    store_hand,
)
from scorekeeper.operations.snapshots import locked_view
from scorekeeper.operations.views import EveningView, table_after

#: The source a hand typed back in from paper is stored with.
SOURCE = "paper"
#: Lines one sheet takes at once: a long club evening's page and more.
MAX_LINES = 200

#: The sheet's column each of a hand's facts is written in, for a refusal to stand at.
WHO = frozenset({"bidder", "partner", "declarer", "soloist", "team", "kulanz"})
POINTS = frozenset({"points", "won", "valat"})


@dataclass(frozen=True, slots=True)
class PaperLine:
    """A line as typed: its dealer (empty: the rotation's), its facts in the sheet's
    codes, and whether its implausible facts were confirmed."""

    dealer: str = ""
    row: SheetRow = field(default_factory=SheetRow)
    confirm: bool = False

    @property
    def blank(self) -> bool:
        """Nothing typed in its fact columns: not a hand."""
        return self.row.blank


@dataclass(frozen=True, slots=True)
class LineChecked:
    """A line after its check: the hand it makes (its number, dealer, result and the
    balances after it), or why it is refused (by column) or what to confirm."""

    line: PaperLine
    number: int
    dealer: str | None = None
    result: HandResult | None = None
    balances: Mapping[str, int] = field(default_factory=dict)
    refused: Mapping[str, tuple[Message, ...]] = field(default_factory=dict)
    to_confirm: Mapping[str, tuple[Message, ...]] = field(default_factory=dict)
    #: A line that changes the table: its players from hand ``number`` on.
    seated: tuple[str, ...] = ()

    @property
    def state(self) -> str:
        """``ok``, ``refused``, ``confirm`` (implausible, not confirmed) or ``waiting``
        (after a line that is not ``ok``: checked once that one is mended)."""
        if self.result is not None or self.seated:
            return "ok"
        if self.refused:
            return "refused"
        if self.to_confirm:
            return "confirm"
        return "waiting"


@dataclass(frozen=True, slots=True)
class Checked:
    """Every line checked, and the evening as it stands after the good ones."""

    lines: tuple[LineChecked, ...]
    #: The number the first line's hand gets: the evening's next when checked.
    first: int
    view: EveningView

    @property
    def good(self) -> int:
        """How many lines, from the first, make hands: those a save stores."""
        count = 0
        for line in self.lines:
            if line.state != "ok":
                break
            count += 1
        return count


class SheetMovedError(ScorekeeperError):
    """A hand was stored in the evening since the lines were checked (a tablet came
    back): nothing is stored, and the lines are checked again after it."""

    def __init__(self, expected: int, upcoming: int) -> None:
        super().__init__(expected, upcoming)
        self.expected = expected
        self.upcoming = upcoming


def column_of(fact: str, contract: object) -> str:
    """The sheet's column a refusal of ``fact`` stands at."""
    name = fact.split(".")[0]
    if name in ("dealer", "row", *COLUMNS):
        return name
    if contract == "misere" or name in WHO:
        return "who"
    if name in POINTS:
        return "points"
    return "extra"


def by_column(
    errors: Mapping[str, Sequence[Message]], contract: object
) -> dict[str, tuple[Message, ...]]:
    """A refusal's messages by the sheet's column they concern."""
    out: dict[str, list[Message]] = {}
    for fact, messages in errors.items():
        out.setdefault(column_of(fact, contract), []).extend(messages)
    return {column: tuple(messages) for column, messages in out.items()}


def body_of(current: EveningView, line: PaperLine, known: Sequence[str]) -> dict[str, Any]:
    """The hand's body as the table screen sends it: the facts read from the line's
    codes, its dealer when one was written, its confirmation."""
    table = current.next_table
    variant = current.variant
    facts = read_row(variant.game, line.row, table.players, known, keeps_tally=variant.keeps_tally)
    body: dict[str, Any] = {**facts, "confirm": line.confirm}
    if line.dealer.strip():
        dealer = read_player(line.dealer, table.players)
        if dealer is None:
            refusal = msg("Write the dealer by code or seat number, or leave it for the rotation.")
            raise InvalidInputError.single("dealer", refusal)
        body["dealer"] = dealer
    return body


def check_lines(current: EveningView, lines: Sequence[PaperLine]) -> Checked:
    """Check ``lines`` (blank ones left out) one after another from ``current``, each
    played on from the ones before; once a line is not ``ok`` the ones after it wait."""
    known: Sequence[str] = current.all_players
    first = next_number(current.evening)
    left = hands_left(current.evening)
    view = current
    out: list[LineChecked] = []
    number = first
    hands = 0
    for line in (line for line in lines if not line.blank):
        if out and out[-1].state != "ok":
            out.append(LineChecked(line, number))
            number += int(not line.row.new_table)
            continue
        if line.row.new_table:
            try:
                view, seated = new_table(view, line, known)
            except InvalidInputError as error:
                out.append(LineChecked(line, number, refused=by_column(error.errors, None)))
            else:
                out.append(LineChecked(line, number, view.next_table.dealer, seated=seated))
                known = joined(known, seated)
            continue
        if left is not None and left <= hands:
            done = msg("This table has played all its hands: this line is one too many.")
            out.append(LineChecked(line, number, refused={"row": (done,)}))
            number += 1
            continue
        try:
            view = prepare_record(view, body_of(view, line, known)).view
        except ImplausibleHandError as warning:
            said = _contract_of(view, line, known)
            out.append(LineChecked(line, number, to_confirm=by_column(warning.warnings, said)))
        except InvalidInputError as error:
            said = _contract_of(view, line, known)
            out.append(LineChecked(line, number, refused=by_column(error.errors, said)))
        else:
            result = view.ledger.hands[-1]
            hands += 1
            out.append(
                LineChecked(
                    line,
                    result.record.number,
                    result.record.table.dealer,
                    result,
                    dict(view.ledger.balances),
                )
            )
        number += 1
    return Checked(tuple(out), first, view)


def joined(known: Sequence[str], seated: Sequence[str]) -> tuple[str, ...]:
    """Everyone the lines may name once a new table sat down: a player new to the evening
    is named after the others (by name; the codes of the page stay those it shows while
    no new name starts alike)."""
    return (*known, *(name for name in seated if name not in known))


def new_table(
    current: EveningView, line: PaperLine, known: Sequence[str]
) -> tuple[EveningView, tuple[str, ...]]:
    """The evening as it plays on once a line changes its table (``=`` in the game
    column, the players in seat order in Who, who deals next in the dealer's column),
    checked as a change of table is (``evenings.change_seating``), and its players."""
    errors = ErrorCollector()
    if is_tournament_table(current.evening.id):
        refusal = msg("A tournament table's players are set by the tournament.")
        raise InvalidInputError.single("contract", refusal)
    seated_before = [name for seating in current.seatings for name in seating.players]
    names = read_players(
        read_table(line.row.who, known), current.variant, errors, "who", seated=seated_before
    )
    dealer = None
    if line.dealer.strip():
        dealer = read_player(line.dealer, names) if names else None
        if dealer is None and names:
            errors.add("dealer", msg("The dealer must be one of the new table's players."))
    errors.raise_if_any(InvalidInputError)
    facts = current.evening
    seatings = (*current.seatings, SeatingFact(next_number(facts), names, dealer))
    ids = {**{name: -1 for name in names}, **facts.player_ids}  # new players: ids once stored
    facts = replace(facts, seatings=seatings, player_ids=ids)
    view = replace(
        current,
        evening=facts,
        seatings=seatings,
        next_table=table_after(seatings, (h.record for h in reversed(current.ledger.hands))),
    )
    return view, names


def _contract_of(current: EveningView, line: PaperLine, known: Sequence[str]) -> object:
    """The contract a line says, when its codes can be read (a Misère's refusals stand
    in its points column, ``who``)."""
    try:
        return body_of(current, line, known).get("contract")
    except InvalidInputError:
        return None


def store_lines(evening_id: int, lines: Sequence[PaperLine], first: int) -> Checked:
    """Check ``lines`` under the evening's lock and store every line before the first
    that is not ``ok``, as the evening's next hands; ``first``: the number the page
    showed for the first line. ``SheetMovedError`` when the evening's next number is
    another now: nothing is stored."""
    current = locked_view(evening_id)
    upcoming = next_number(current.evening)
    if upcoming != first:
        raise SheetMovedError(first, upcoming)
    checked = check_lines(current, lines)
    known: Sequence[str] = current.all_players
    for line in checked.lines[: checked.good]:
        if line.seated:
            body = {"players": list(line.seated), "dealer": line.dealer}
            current = change_seating(evening_id, body, source=SOURCE)
            known = joined(known, line.seated)
            continue
        new = store_hand(prepare_record(current, body_of(current, line.line, known)), source=SOURCE)
        current = new.view
    return checked
