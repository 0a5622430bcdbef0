"""A check every game's property tests share: a replay goes on from any of its steps."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from hypothesis import strategies as st

from scorekeeper.core.ledger import HandRecord, Ledger, extend, replay
from scorekeeper.core.rules.base import InvalidInputError
from scorekeeper.core.rules.variant import Variant


def check_goes_on(
    variant: Variant,
    options: Mapping[str, str],
    records: Sequence[HandRecord],
    data: st.DataObject,
) -> None:
    """Playing on from the ledger after the first hands gives the ledger of the whole
    evening (how a stored evening is brought up to date), and leaves the first alone.
    The first hand played on may be voided, which later hands may no longer fit."""
    split = data.draw(st.integers(0, len(records)))
    first, rest = list(records[:split]), list(records[split:])
    if rest and data.draw(st.booleans()):
        rest[0] = replace(rest[0], void=True)
    before = replay(variant, options, first)
    kept = replay(variant, options, first)

    def outcome(run: Callable[[], Ledger]) -> Ledger | tuple[int | None, str]:
        try:
            return run()
        except InvalidInputError as error:
            return error.hand, str(error)

    assert outcome(lambda: extend(before, variant, options, rest)) == outcome(
        lambda: replay(variant, options, [*first, *rest])
    )
    assert before == kept
