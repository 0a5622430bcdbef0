"""The imperative shell: load rows, call the rules core, write facts. Flushes, never commits.

Every write replays the evening before it is kept, so a change that would make any hand
impossible (a later Kulanz larger than its pot, say) is refused and nothing is stored.
Views and commands call the names gathered here. Beside evenings and hands the folder
holds the other writes and whole-installation reads: tournaments (set-up, rounds, results),
evening archives, installation backups, anonymising a guest and ticking payments off.
"""

from scorekeeper.operations.errors import (
    AlreadyVoidError,
    EveningClosedError,
    HandNumberTakenError,
    NotFoundError,
    StaleVersionError,
    UndoRefusedError,
    ensure_open,
)
from scorekeeper.operations.evening_revisions import evening_settings, revisions_of
from scorekeeper.operations.evenings import (
    change_seating,
    correct_evening,
    create_evening,
    player_named,
    read_end_rule,
    set_closed,
)
from scorekeeper.operations.hands import (
    SHELL_KEYS,
    check_hand,
    check_version,
    close_when_due,
    corrected_hands,
    find_hand,
    hand_row,
    hands_left,
    history_of,
    next_number,
    prepare_hand,
    prepare_record,
    record_hand,
    replace_hand,
    split_body,
    store_hand,
    undo_hand,
    void_hand,
)
from scorekeeper.operations.snapshots import current_view
from scorekeeper.operations.views import EveningSummary, EveningView, evening_row, summaries

__all__ = [
    "SHELL_KEYS",
    "AlreadyVoidError",
    "EveningClosedError",
    "EveningSummary",
    "EveningView",
    "HandNumberTakenError",
    "NotFoundError",
    "StaleVersionError",
    "UndoRefusedError",
    "change_seating",
    "check_hand",
    "check_version",
    "close_when_due",
    "correct_evening",
    "corrected_hands",
    "create_evening",
    "current_view",
    "ensure_open",
    "evening_row",
    "evening_settings",
    "find_hand",
    "hand_row",
    "hands_left",
    "history_of",
    "next_number",
    "player_named",
    "prepare_hand",
    "prepare_record",
    "read_end_rule",
    "record_hand",
    "replace_hand",
    "revisions_of",
    "set_closed",
    "split_body",
    "store_hand",
    "summaries",
    "undo_hand",
    "void_hand",
]
