"""A paper sheet's line typed back in (``core/sheet_entry.py``; docs/recording.md "Back from
paper"): every hand the printed sheet writes reads back as a hand that plays the same."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.core.ledger import HandRecord, Ledger, replay
from scorekeeper.core.rules.base import InvalidHandError
from scorekeeper.core.rules.variant import Variant
from scorekeeper.core.sheet_codes import CODERS, player_codes
from scorekeeper.core.sheet_entry import SheetRow, read_player, read_row
from tests.core.rules import test_doppen_properties as doppen
from tests.core.rules import test_troggen_properties as troggen
from tests.core.rules import test_troggu_properties as troggu

ROUND_TRIP = settings(max_examples=120, deadline=None)


def as_written(game: str, facts: Mapping[str, Any], known: Sequence[str]) -> SheetRow:
    """The line the printed sheet writes for ``facts``."""
    codes = CODERS[game](facts, player_codes(known))
    return SheetRow(codes.contract, codes.who, codes.points, codes.extra)


def read_back(
    variant: Variant, records: Sequence[HandRecord], known: Sequence[str]
) -> list[HandRecord]:
    """Each hand as typed back in from its printed line."""
    return [
        replace(
            r,
            facts=read_row(
                variant.game,
                as_written(variant.game, r.facts, known),
                r.table.players,
                known,
                keeps_tally=variant.keeps_tally,
            ),
        )
        for r in records
    ]


def outcome(ledger: Ledger) -> tuple[object, ...]:
    """What a ledger pays and keeps, hand by hand, without the facts it was read from."""
    return (
        [(h.deltas, h.common, h.money_deltas, h.tally) for h in ledger.hands],
        ledger.balances,
        ledger.common,
        ledger.money,
    )


def everyone(records: Sequence[HandRecord]) -> list[str]:
    """Everyone the evening seated, in order of appearance (as the sheet lists them)."""
    seen: list[str] = []
    for record in records:
        seen += [p for p in record.table.players if p not in seen]
    return seen


@ROUND_TRIP
@given(troggen.evenings())
def test_every_troggen_line_reads_back_as_the_hand_it_writes(
    evening: troggen.Evening,
) -> None:
    back = read_back(troggen.TROGGEN, evening.records, everyone(evening.records))
    assert outcome(replay(troggen.TROGGEN, evening.options, back)) == outcome(troggen.play(evening))


@ROUND_TRIP
@given(doppen.evenings())
def test_every_doppen_line_reads_back_as_the_hand_it_writes(evening: doppen.Evening) -> None:
    back = read_back(doppen.DOPPEN, evening.records, everyone(evening.records))
    assert outcome(replay(doppen.DOPPEN, evening.options, back)) == outcome(doppen.play(evening))


@ROUND_TRIP
@given(troggu.evenings())
def test_every_troggu_line_reads_back_as_the_hand_it_writes(evening: troggu.Evening) -> None:
    back = read_back(evening.variant, evening.records, everyone(evening.records))
    assert outcome(replay(evening.variant, evening.options, back)) == outcome(troggu.play(evening))


SEATED = ("Anna", "Bert", "Clara", "Dora")


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        (SheetRow("E", "B", "41", "P+"), {"bidder": "Bert", "points": 41}),
        (SheetRow("ot", "#3", "+"), {"contract": "ohne", "bidder": "Clara", "won": True}),
        (SheetRow("g", "do", "20", "k\u2212"), {"contract": "gegen", "last_trick": "king_lost"}),
        (SheetRow("M", "A12 B3 C30 D15 T10"), {"talon_points": 10}),
        (SheetRow("m", "12 3 30 15"), {"points": {"Anna": 12, "Bert": 3, "Clara": 30, "Dora": 15}}),
    ],
)
def test_a_troggen_line_as_a_hand_writes_it(typed: SheetRow, expected: dict[str, Any]) -> None:
    read = read_row("troggen", typed, SEATED)
    assert {key: read.get(key) for key in expected} == expected


FIVE = ("Anna", "Bert", "Clara", "Dora", "Emil")


@pytest.mark.parametrize(
    ("extra", "kulanz", "last_trick"),
    [
        ("k2", 2, None),
        ("P+ k3", 3, "pagat_won"),
        ("k1 K-", 1, "king_lost"),
        ("K+", None, "king_won"),
    ],
)
def test_a_kulanz_may_be_typed_in_the_last_column(
    extra: str, kulanz: int | None, last_trick: str | None
) -> None:
    """The cursor leaves Who after the two players: the Kulanz goes where it lands next."""
    read = read_row("troggen", SheetRow("D", "AC", "41", extra), FIVE)
    assert (read["partner"], read.get("kulanz"), read.get("last_trick")) == (
        "Clara",
        kulanz,
        last_trick,
    )


def test_a_kulanz_written_twice_differently_is_refused_at_the_last_column() -> None:
    assert read_row("troggen", SheetRow("D", "A/C k2", "41", "k2"), FIVE)["kulanz"] == 2
    with pytest.raises(InvalidHandError) as refused:
        read_row("troggen", SheetRow("D", "A/C k2", "41", "k3"), FIVE)
    assert list(refused.value.errors) == ["extra"]


@pytest.mark.parametrize(
    ("game", "typed", "column"),
    [
        ("troggen", SheetRow("Q", "A", "41"), "contract"),
        ("troggen", SheetRow("E", "Xaver", "41"), "who"),
        ("troggen", SheetRow("E", "A", "viel"), "points"),
        ("troggen", SheetRow("E", "A", "41", "P?"), "extra"),
        ("troggen", SheetRow("M", "A12 B3"), "who"),
        ("doppen", SheetRow("3x3", "A", "41"), "contract"),
        ("doppen", SheetRow("3", "A", "41", "Z+A"), "extra"),
        ("doppen", SheetRow("3", "A", "V?"), "points"),
        ("troggu", SheetRow("N", "A", "", "V"), "points"),
    ],
)
def test_a_code_that_cannot_be_read_is_refused_at_its_column(
    game: str, typed: SheetRow, column: str
) -> None:
    with pytest.raises(InvalidHandError) as refused:
        read_row(game, typed, SEATED)
    assert column in refused.value.errors


def test_a_doppen_line_with_every_premium() -> None:
    read = read_row(
        "doppen", SheetRow("s\u00d74", "C", "aV+\u00d72", "aP+\u00b7C U\u2212D T A K B r d"), SEATED
    )
    assert read == {
        "contract": "solo",
        "soloist": "Clara",
        "announced": {"valat": True, "pagat": "Clara"},
        "valat": "soloist",
        "pagat": {"player": "Clara", "result": "won"},
        "uhu": {"player": "Dora", "result": "lost"},
        "trull": "Anna",
        "kings": "Bert",
        "kontra": {"game": 2, "valat": 1},
        "penalties": [{"player": "Dora", "kind": "revoke"}],
    }


@given(st.lists(st.text(alphabet="AaBbCcÄä 12", min_size=1, max_size=6), min_size=3, max_size=8))
def test_each_players_code_names_that_player(names: list[str]) -> None:
    names = list(dict.fromkeys(n.strip() for n in names if n.strip()))
    names = [n for i, n in enumerate(names) if all(n.casefold() != m.casefold() for m in names[:i])]
    for name, code in player_codes(names).items():
        assert read_player(code, names) == name
