"""Checks every game's property tests share: a replay goes on from any of its steps, and a
hand parsed once as it is entered plays as its stored form does."""

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


def check_parsed_once(
    variant: Variant, options: Mapping[str, str], records: Sequence[HandRecord]
) -> None:
    """A write parses a hand once and stores its ``to_json``; the ledger plays the parsed
    value (``HandRecord.parsed``). Replayed later from the stored form alone, the evening
    is the same, every hand's parsed facts included (docs/architecture.md, step 5)."""
    entered, stored = [], []
    for record in records:
        if record.void:
            entered.append(record)
            stored.append(record)
            continue
        parsed = variant.parse_hand(record.facts, record.table, options)
        as_stored = replace(record, facts=parsed.to_json())
        entered.append(replace(as_stored, parsed=parsed))
        stored.append(as_stored)
    assert replay(variant, options, entered) == replay(variant, options, stored)
