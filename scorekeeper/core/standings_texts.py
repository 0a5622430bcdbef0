"""The words the standings use to state how they rank, shown wherever standings appear."""

from __future__ import annotations

from scorekeeper.core.rules.base import Message, msg
from scorekeeper.core.standings import RANK_TOP


def scoring_rule(scoring: str) -> Message:
    """How the standings rank, with the tie breaks and what a bye scores."""
    if scoring == "rank":
        return msg(
            "Rank points per round: {top} for first place at the table, 0 for the last, "
            "evenly in between; tied players share. Ties in the standings: the better best "
            "round, then fewer hands played. A bye scores the round's average, in the result "
            "and in the number of hands.",
            top=RANK_TOP,
        )
    return msg(
        "The sum of the round results. Ties: the better best round, then fewer hands "
        "played. A bye scores the round's average, in the result and in the number of "
        "hands. Tables of different sizes play different numbers of hands, so the result "
        "per hand is shown beside the sum."
    )
