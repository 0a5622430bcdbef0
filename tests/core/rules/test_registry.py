"""The registry of games and variants: what an evening's stored keys resolve to."""

from __future__ import annotations

import pytest

from scorekeeper.core.rules import VARIANTS, games, get_variant
from scorekeeper.core.rules.base import InvalidSettingsError, UnknownVariantError
from scorekeeper.core.rules.options import parse_options
from scorekeeper.core.rules.troggen import TROGGEN
from scorekeeper.core.rules.variant import Variant


def test_default_variant_is_the_first_registered() -> None:
    """An evening may omit the variant: each game has a default (docs/api.md)."""
    assert get_variant("troggen") is TROGGEN
    assert get_variant("troggen", None) is TROGGEN
    assert get_variant("troggen", "blumenstein-2015") is TROGGEN
    assert games()["troggen"][0] == "blumenstein-2015"


@pytest.mark.parametrize(
    ("game", "variant", "field", "text"),
    [
        pytest.param("schach", None, "game", "Unknown game schach", id="unknown-game"),
        pytest.param("", None, "game", "Choose one of: troggen", id="empty-game"),
        pytest.param("troggen", "visp", "variant", "Unknown variant visp", id="unknown-variant"),
        pytest.param(
            "troggen", "x", "variant", "Choose one of: blumenstein-2015", id="variants-listed"
        ),
    ],
)
def test_unknown_keys_are_refused(game: str, variant: str | None, field: str, text: str) -> None:
    """A key that is not registered names the field and the keys that are."""
    with pytest.raises(UnknownVariantError) as caught:
        get_variant(game, variant)
    assert list(caught.value.errors) == [field]
    assert text in caught.value.errors[field][0].render()


def test_unknown_variant_is_a_settings_error_and_a_value_error() -> None:
    """Rule errors are ValueErrors (docs/development.md) and the API maps them to 422."""
    assert issubclass(UnknownVariantError, InvalidSettingsError)
    assert issubclass(UnknownVariantError, ValueError)


@pytest.mark.parametrize(
    ("key", "variant"), list(VARIANTS.items()), ids=["/".join(key) for key in VARIANTS]
)
def test_registered_variant_is_complete(key: tuple[str, str], variant: Variant) -> None:
    """Every variant is found under its own keys and its option defaults are valid."""
    assert key == (variant.game, variant.key)
    assert get_variant(*key) is variant
    assert variant.min_players <= variant.max_players
    specs = variant.option_specs
    assert len({s.key for s in specs}) == len(specs)
    defaults = parse_options(specs, {})
    assert list(defaults) == [s.key for s in specs]
    assert parse_options(specs, defaults) == defaults
    for spec in specs:
        assert spec.problem(defaults[spec.key]) is None, spec.key
        assert spec.label.render()
        assert spec.help.render()
    if variant.end_rule_option is not None:
        assert variant.end_rule_option in defaults
    for account, balance in variant.common_balance(variant.initial_state()).items():
        assert account in variant.common_accounts
        assert balance == 0


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        pytest.param({"threshold": "half"}, "options.threshold", id="bad-choice"),
        pytest.param({"thresold": "half-up"}, "options.thresold", id="unknown-option"),
        pytest.param({"unit_value": 0.1}, "options.unit_value", id="money-is-a-string"),
        pytest.param({"coin": "0.001"}, "options.coin", id="coin-in-whole-cents"),
        pytest.param({"currency": "chf"}, "options.currency", id="currency-code"),
    ],
)
def test_troggen_options_refused(raw: dict[str, object], field: str) -> None:
    """House rules outside their choices are refused on the option's own field."""
    with pytest.raises(InvalidSettingsError) as caught:
        parse_options(TROGGEN.option_specs, raw)
    assert field in caught.value.errors


def test_coin_default_follows_currency() -> None:
    """Five Rappen in CHF, one cent otherwise, unless chosen."""
    specs = TROGGEN.option_specs
    assert parse_options(specs, {})["coin"] == "0.05"
    assert parse_options(specs, {"currency": "EUR"})["coin"] == "0.01"
    assert parse_options(specs, {"currency": "EUR", "coin": "0.10"})["coin"] == "0.10"


@pytest.mark.parametrize(("count", "allowed"), [(3, False), (4, True), (6, True), (7, False)])
def test_troggen_table_sizes(count: int, allowed: bool) -> None:
    """Troggen is played by 4, 5 or 6 (docs/troggen.md §1)."""
    assert TROGGEN.allows_players(count) is allowed
