"""A game is registered once, in ``core/rules`` ``VARIANTS``; every other place that names
the games must know each of them (docs/development.md "Add a variant or a region"). The
OpenAPI document's lists are tied to ``VARIANTS`` in ``tests/web/test_openapi_document.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.core.draw import USUAL_SIZES
from scorekeeper.core.rules import VARIANTS
from scorekeeper.core.rules.troggu import MONEY_VARIANTS as TROGGU_MONEY_VARIANTS
from scorekeeper.core.rules.variant import Variant
from scorekeeper.core.sheet_codes import CODERS, game_codes
from scorekeeper.core.statistics.figures import CONTRACTS, MISERE_PLACES
from scorekeeper.core.statistics.reading import EISTEN_STALDEN
from scorekeeper.web.evenings.hand_forms import hand_form


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


ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("region", TROGGU_MONEY_VARIANTS, ids=lambda v: v.key)
def test_the_recipe_for_a_troggu_region_was_followed(region: Variant) -> None:
    """docs/development.md "A Troggu region": registered (above), its row in troggu.md's
    table, a variant of the OpenAPI document, and its examples in the rules' tests."""
    assert VARIANTS["troggu", region.key] is region
    assert f"| `{region.key}`" in (ROOT / "docs" / "troggu.md").read_text(encoding="utf-8")
    document = json.loads((ROOT / "scorekeeper" / "web" / "openapi.json").read_text())
    assert f'"{region.key}"' in json.dumps(document)
    constant = "TROGGU_" + region.key.upper().replace("-", "_")
    tests = (ROOT / "tests" / "core" / "rules" / "test_troggu.py").read_text(encoding="utf-8")
    assert f"pytest.param({constant}," in tests
