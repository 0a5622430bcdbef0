"""The score sheet laid out as paper: a line per hand, the facts in short forms, a column per
player, pages that open with the totals carried over and end with their own
(docs/presentation.md "The score sheet as paper").

The layout is decided here, not by WeasyPrint: the text widths are measured in the
printout's font (``text_width``), so each column is as wide as its widest cell, a name
prints whole (broken only at its spaces) or as its code, and each page holds as many hand
lines as fit. WeasyPrint then sets fixed tables, one per page, which costs it little more
than a plain table of the same cells (``bench/sheet_pdf.py``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from flask_babel import gettext

from scorekeeper.core.sheet_codes import game_codes, player_codes
from scorekeeper.operations.views import EveningView
from scorekeeper.web.evenings.sheet_facts import Facts, HandLine
from scorekeeper.web.text_width import width_mm, wrap

#: The type of the whole sheet, and of its title, in points.
SIZE_PT = 8
TITLE_PT = 12
#: A printed line of 8 pt and of the title, what a table row adds to its lines (padding
#: and rule), and what a paragraph adds below itself, in mm. The template's style block
#: sets the same values (``Sheet.style``).
LINE_MM = 3.5
TITLE_LINE_MM = 5.4
ROW_PAD_MM = 0.4
ROW_EXTRA_MM = 2 * ROW_PAD_MM + 0.15  # the 0.3 pt rule below the row, and rounding
PARAGRAPH_MM = 1.2
#: A cell's padding, left and right together, and the slack a measured width keeps.
CELL_PAD_MM = 1.4
SLACK_MM = 0.6
#: A4 less the sheet's margins: the width and height its content may take, in mm.
PORTRAIT = (192.0, 273.0)
LANDSCAPE = (279.0, 186.0)
#: The line above each page's table (title, part, hands), and what each page keeps free
#: for what the measurement cannot see (the rules' widths, rounding).
PAGE_HEAD_MM = LINE_MM + PARAGRAPH_MM
PAGE_SPARE_MM = 5.0
#: A head may wrap over this many lines; a name that needs more prints as its code.
HEAD_LINES = 3
#: A player's column: at least this wide, and grown at most to this from spare width.
PLAYER_MIN_MM = 12.0
PLAYER_MAX_MM = 34.0
#: What joins a player's code and name on the key line, so a name never breaks over lines.
NBSP = "\u00a0"
#: The lead columns (number, dealer) and the facts' four.
LEAD = 2
FACTS = 4


@dataclass(frozen=True, slots=True)
class Column:
    """A column: its head as printed lines, its width in mm, whether it holds numbers."""

    head: tuple[str, ...]
    width: float
    numeric: bool = False


@dataclass(frozen=True, slots=True)
class Cell:
    """A cell: its text in lines and the columns it spans."""

    lines: tuple[str, ...] = ()
    span: int = 1


@dataclass(frozen=True, slots=True)
class Row:
    """A printed line of the table: a hand, a void, the totals carried or reached."""

    kind: str
    cells: tuple[Cell, ...]
    lines: int = 1

    @property
    def height(self) -> float:
        """The row's height on paper, in mm."""
        return self.lines * LINE_MM + ROW_EXTRA_MM


@dataclass(frozen=True, slots=True)
class Page:
    """One sheet of paper: its hands, between the totals carried over and its own."""

    carried: tuple[Row, ...]
    rows: tuple[Row, ...]
    reached: tuple[Row, ...]
    first: int
    last: int


@dataclass(frozen=True, slots=True)
class Sheet:
    """The score sheet (or one part of a long one) laid out, for ``pdf/sheet.html``."""

    landscape: bool
    columns: tuple[Column, ...]
    pages: tuple[Page, ...]
    legend: tuple[tuple[str, str], ...]
    codes: tuple[tuple[str, str], ...]
    #: Only the last part ends with the settlement.
    last: bool

    @property
    def style(self) -> dict[str, float]:
        """The measures the template's style block sets, in mm."""
        return {
            "line": LINE_MM,
            "title": TITLE_LINE_MM,
            "pad": CELL_PAD_MM / 2,
            "row": ROW_PAD_MM,
            "paragraph": PARAGRAPH_MM,
        }


def text_width(texts: Sequence[str]) -> float:
    """The width a column of these unbroken texts takes, padding and slack included."""
    return max((width_mm(t, SIZE_PT) for t in texts), default=0.0) + CELL_PAD_MM + SLACK_MM


def widest_word(texts: Sequence[str]) -> float:
    """The width of the widest word of ``texts``: narrower, a text would break inside."""
    return text_width([w for t in texts for w in t.split()])


def lines_of(text: str, width: float, size: float = SIZE_PT, *, bold: bool = False) -> int:
    """How many lines ``text`` takes at ``width`` mm when broken at its spaces (a word
    wider than that counts as broken where it must)."""
    lines = wrap(text, width, size, bold=bold)
    if lines is not None:
        return len(lines)
    return sum(max(1, math.ceil(width_mm(w, size, bold=bold) / width)) for w in text.split())


@dataclass
class Widths:
    """The columns' widths as the sheet's paper allows them."""

    lead: list[float]
    facts: list[float]
    player: float
    common: list[float]
    landscape: bool


def spread_fits(texts: Sequence[str], width: float) -> bool:
    """Whether every Misère's points take at most two lines across ``width`` mm."""
    return all(lines_of(t, width - CELL_PAD_MM - SLACK_MM) <= 2 for t in texts)


def measure(
    facts: Facts,
    hands: Sequence[HandLine],
    totals: Mapping[int, tuple[list[str], list[str], list[str]]],
    heads: Sequence[str],
) -> Widths:
    """Each column as wide as its widest cell and its head's widest word; the facts'
    wordy columns (who, and what else was said) at least their widest word. Portrait when
    that fits, else landscape. The spare width goes first to the column of who played
    until a Misère's points take at most two lines, then to the players' columns (up to
    their names' widest word, so names print whole), then to the wordy columns (so a
    hand keeps to one line), the rest to the column of who played."""
    columns: list[list[str]] = [[h] for h in heads[: LEAD + FACTS]]
    common: list[list[str]] = [[h] for h in facts.common_heads()]
    player_texts: list[str] = []
    spread: list[str] = []
    for hand in hands:
        texts = [*hand.lead, *hand.facts]
        if hand.kind == "hand":
            for index, text in enumerate(texts):
                columns[index].append(text)
        elif hand.kind == "spread":
            columns[LEAD].append(hand.facts[0])
            columns[LEAD + 1] += hand.facts[1].split()
            spread.append(hand.facts[1])
        player_texts += [beside(total, change) for total, change in hand.players]
        for index, text in enumerate(hand.common):
            common[index].append(text)
    for players, owned, tail in totals.values():
        player_texts += players + owned
        for index, text in enumerate(tail):
            common[index].append(text)
    wordy = (LEAD + 1, LEAD + 3)
    lead_facts = [
        widest_word(texts) if index in wordy else text_width(texts)
        for index, texts in enumerate(columns)
    ]
    natural = {index: text_width(columns[index]) for index in wordy}
    player = max(PLAYER_MIN_MM, text_width(player_texts))
    common_widths = [text_width(texts) for texts in common]
    count = len(facts.players)
    need = sum(lead_facts) + sum(common_widths) + count * player
    landscape = need > PORTRAIT[0]
    spare = (LANDSCAPE if landscape else PORTRAIT)[0] - need
    while spare >= 1 and not spread_fits(spread, sum(lead_facts[LEAD + 1 :])):
        lead_facts[LEAD + 1] += 1
        spare -= 1
    names = min(PLAYER_MAX_MM, widest_word(list(facts.players)))
    if count and spare > 0 and names > player:
        grow = min(spare / count, names - player)
        player += grow
        spare -= grow * count
    for index in wordy:
        grow = max(0.0, min(spare, natural[index] - lead_facts[index]))
        lead_facts[index] += grow
        spare -= grow
    if spare > 0:
        lead_facts[LEAD + 1] += spare
    return Widths(lead_facts[:LEAD], lead_facts[LEAD:], player, common_widths, landscape)


def name_head(name: str, code: str, width: float, *, bold: bool = False) -> tuple[str, ...]:
    """A player's head: the name broken at its spaces into at most ``HEAD_LINES`` lines, or
    the player's code when a word of it is wider than the column (never broken inside).

    >>> name_head("Anna Maria von Allmen", "A", 20.0)
    ('Anna Maria', 'von Allmen')
    >>> name_head("Bartholomäus-Friedrich", "B", 20.0)
    ('B',)
    """
    lines = wrap(name, width - CELL_PAD_MM - SLACK_MM, SIZE_PT, bold=bold)
    if lines is None or len(lines) > HEAD_LINES:
        return (code,)
    return tuple(lines)


def build_sheet(
    current: EveningView,
    *,
    void_reasons: Mapping[int, str],
    heading: Sequence[str],
    hands: tuple[int, int] | None = None,
) -> Sheet:
    """The score sheet of ``current``, or of the hands numbered ``hands`` (first, last) when
    it is printed in parts. ``heading``: the texts above the first page's table (the title
    first), measured to know how many hands that page holds."""
    facts = Facts(
        current,
        game_codes(current.evening.game, keeps_tally=current.variant.keeps_tally),
        player_codes(current.all_players),
        void_reasons,
    )
    named = facts.codes.columns
    heads = [
        "#",
        gettext("Dealer"),
        *(m.render(gettext) for m in (named.contract, named.who, named.points, named.extra)),
    ]
    every = facts.hands()
    totals = facts.totals()
    widths = measure(facts, every, totals, heads)
    player_heads = [name_head(p, facts.short[p], widths.player) for p in facts.players]
    columns = (
        Column((heads[0],), widths.lead[0], numeric=True),
        Column((heads[1],), widths.lead[1]),
        *(
            Column((h,), w, numeric=i == 2)
            for i, (h, w) in enumerate(zip(heads[LEAD:], widths.facts, strict=True))
        ),
        *(Column(h, widths.player, numeric=True) for h in player_heads),
        *(
            Column((h,), w, numeric=True)
            for h, w in zip(facts.common_heads(), widths.common, strict=True)
        ),
    )
    chosen = every if hands is None else [h for h in every if hands[0] <= h.number <= hands[1]]
    last_number = current.ledger.hands[-1].record.number if current.ledger.hands else 0
    legend = tuple((e.code, e.meaning.render(gettext)) for e in facts.codes.legend)
    codes = tuple((facts.short[p], p) for p in facts.players)
    key = f"{gettext('Players')}: " + " · ".join(
        NBSP.join([code, *name.split(" ")]) for code, name in codes
    )
    first_page = [*heading, f"{gettext('Legend')}: " + " · ".join(f"{c} {m}" for c, m in legend)]
    paper = Paper(facts, columns, totals, widths.landscape, first_page, key)
    last = hands is None or hands[1] >= last_number
    first = chosen[0].number if chosen else last_number + 1
    before = max((n for n in totals if n < first), default=0)
    pages = paper.pages(
        [(h.number, hand_row(h, columns)) for h in chosen], before=before, last=last
    )
    return Sheet(widths.landscape, columns, pages, legend, codes, last)


def beside(total: str, change: str) -> str:
    """A player's cell: the hand's change in brackets, then the running total, which lines
    up at the column's right edge. Plain text, with no element of its own: a styled
    change cost WeasyPrint a third more time for the whole sheet (bench/sheet_pdf.py).

    >>> beside("+59", "\u22126"), beside("", "")
    ('(\u22126) +59', '')
    """
    return f"({change}) {total}" if change else total


def cell_lines(text: str, width: float) -> tuple[str, ...]:
    """``text`` broken at its spaces to fit ``width`` mm of column (padding included)."""
    return tuple(wrap(text, width - CELL_PAD_MM - SLACK_MM / 2, SIZE_PT) or [text])


def hand_row(hand: HandLine, columns: Sequence[Column]) -> Row:
    """A hand's line: its facts in their columns (the wordy ones broken at spaces), each
    player's total with the change before it; a Misère's points across the three facts
    after its contract, a void's reason across all four."""
    lead = [Cell((text,)) for text in hand.lead]
    widths = [c.width for c in columns[LEAD : LEAD + FACTS]]
    if hand.kind == "void":
        facts = [Cell((hand.facts[0],), span=FACTS)]
        lines = lines_of(hand.facts[0], sum(widths) - CELL_PAD_MM - SLACK_MM)
    elif hand.kind == "spread":
        points = cell_lines(hand.facts[1], sum(widths[1:]))
        facts = [Cell((hand.facts[0],)), Cell(points, span=FACTS - 1)]
        lines = len(points)
    else:
        facts = [
            Cell(cell_lines(text, widths[index]) if index in (1, 3) else (text,))
            for index, text in enumerate(hand.facts)
        ]
        lines = max(len(c.lines) for c in facts)
    cells = [Cell((beside(total, change),)) for total, change in hand.players]
    tail = [Cell((text,)) for text in hand.common]
    return Row(hand.kind, (*lead, *facts, *cells, *tail), lines)


@dataclass
class Paper:
    """Hand lines poured onto pages: each page opens with the totals carried over and ends
    with its own; the first page of the sheet (or part) holds the title and legend."""

    facts: Facts
    columns: tuple[Column, ...]
    totals: Mapping[int, tuple[list[str], list[str], list[str]]]
    landscape: bool
    first_page: Sequence[str]
    #: The players' codes, on every page: a page read alone still says whose they are.
    key: str

    @property
    def size(self) -> tuple[float, float]:
        """The width and height the page's content may take, in mm."""
        return LANDSCAPE if self.landscape else PORTRAIT

    def total_rows(self, label: str, after: int) -> tuple[Row, ...]:
        """The totals after hand ``after`` under ``label``; Doppen adds each player's own
        Kasse notes below."""
        players, owned, common = self.totals[after]
        span = sum(c.width for c in self.columns[: LEAD + FACTS])
        head = Cell((label,), span=LEAD + FACTS)
        lines = lines_of(label, span - CELL_PAD_MM - SLACK_MM)
        rows = [
            Row(
                "total",
                (head, *(Cell((t,)) for t in players), *(Cell((t,)) for t in common)),
                lines,
            )
        ]
        if self.facts.kasse:
            note = Cell((gettext("Own Kasse notes"),), span=LEAD + FACTS)
            cells = (*(Cell((t,)) for t in owned), *(Cell() for _ in common))
            rows.append(Row("own", (note, *cells)))
        return tuple(rows)

    def paragraphs_height(self, texts: Sequence[str]) -> float:
        """What paragraphs of 8 pt take above the table."""
        width = self.size[0] * 0.97
        return sum(lines_of(text, width) * LINE_MM + PARAGRAPH_MM for text in texts)

    def heading_height(self) -> float:
        """The first page's title and paragraphs above the table."""
        title, *paragraphs = self.first_page
        title_lines = lines_of(title, self.size[0], TITLE_PT, bold=True)
        return title_lines * TITLE_LINE_MM + PARAGRAPH_MM + self.paragraphs_height(paragraphs)

    def room(self, first: bool, before: int) -> float:
        """The height a page leaves for its hand lines."""
        head = max(len(c.head) for c in self.columns) * LINE_MM + ROW_EXTRA_MM + 0.4
        carried = sum(r.height for r in self.total_rows("", before))
        reached = sum(r.height for r in self.total_rows("", before))
        room = self.size[1] - PAGE_SPARE_MM - PAGE_HEAD_MM - head - carried - reached
        room -= self.paragraphs_height([self.key])
        return room - (self.heading_height() if first else 0.0)

    def pages(
        self, rows: Sequence[tuple[int, Row]], *, before: int, last: bool
    ) -> tuple[Page, ...]:
        """The hand lines in pages, each full as far as its room allows; ``before``: the
        hand whose totals the first page carries over (0: none yet)."""
        found: list[Page] = []
        index = 0
        while index < len(rows) or not found:
            room = self.room(not found, before)
            taken: list[Row] = []
            while index < len(rows) and (not taken or rows[index][1].height <= room):
                room -= rows[index][1].height
                taken.append(rows[index][1])
                index += 1
            after = rows[index - 1][0] if taken else before
            is_end = last and index >= len(rows)
            label = gettext("Carried over") if before else gettext("Start")
            reached = gettext("End") if is_end else gettext("After hand %(number)s", number=after)
            found.append(
                Page(
                    self.total_rows(label, before),
                    tuple(taken),
                    self.total_rows(reached, after),
                    before + 1,
                    after,
                )
            )
            before = after
        return tuple(found)
