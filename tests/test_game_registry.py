"""A game is registered once, in ``core/rules`` ``VARIANTS``; every other place that names
the games must know each of them (docs/development.md "Add a variant or a region"). The
OpenAPI document's lists are tied to ``VARIANTS`` in ``tests/web/test_openapi_document.py``.
"""

from __future__ import annotations

import pytest

from scorekeeper.core.draw import USUAL_SIZES
from scorekeeper.core.rules import VARIANTS
from scorekeeper.core.sheet_codes import CODERS, game_codes
from scorekeeper.core.statistics.figures import CONTRACTS, MISERE_PLACES
from scorekeeper.core.statistics.reading import EISTEN_STALDEN
from scorekeeper.web.hand_forms import hand_form


@pytest.mark.parametrize("key", sorted(VARIANTS), ids="/".join)
def test_every_variant_is_known_wherever_games_are_named(key: tuple[str, str]) -> None:
    variant = VARIANTS[key]
    assert hand_form(variant).template.startswith("hands/")
    assert variant.game in CODERS
    assert game_codes(variant.game, keeps_tally=variant.keeps_tally).legend
    sizes = USUAL_SIZES[variant.game]
    assert any(variant.min_players <= size <= variant.max_players for size in sizes)
    kind = EISTEN_STALDEN if variant.keeps_tally else variant.game
    assert kind in CONTRACTS
    assert kind in MISERE_PLACES


def test_nothing_names_a_game_that_is_not_registered() -> None:
    games = {variant.game for variant in VARIANTS.values()}
    assert set(USUAL_SIZES) == games
    assert set(CODERS) == games
    assert set(CONTRACTS) == games | {EISTEN_STALDEN}
