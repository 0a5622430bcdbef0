"""The rules core: every game and variant the app can score, found through a registry.

Pure Python only (a test enforces it): facts in, itemised payments out.
"""

from __future__ import annotations

from scorekeeper.core.rules.base import UnknownVariantError, msg
from scorekeeper.core.rules.doppen import DOPPEN
from scorekeeper.core.rules.eisten_stalden import EISTEN_STALDEN
from scorekeeper.core.rules.troggen import TROGGEN
from scorekeeper.core.rules.troggu import MONEY_VARIANTS as TROGGU_MONEY_VARIANTS
from scorekeeper.core.rules.variant import Variant

#: Every registered variant by (game, variant key); each game's first variant is its default.
VARIANTS: dict[tuple[str, str], Variant] = {
    (v.game, v.key): v for v in (TROGGEN, DOPPEN, *TROGGU_MONEY_VARIANTS, EISTEN_STALDEN)
}


def games() -> dict[str, tuple[str, ...]]:
    """Game keys with their variant keys, default variant first."""
    out: dict[str, tuple[str, ...]] = {}
    for game, key in VARIANTS:
        out[game] = (*out.get(game, ()), key)
    return out


def get_variant(game: str, variant: str | None = None) -> Variant:
    """The variant registered under ``game``/``variant`` (the game's default when omitted).

    >>> get_variant("troggen").key
    'blumenstein-2015'
    """
    if variant is not None and (found := VARIANTS.get((game, variant))) is not None:
        return found  # a stored evening names both: looked up for every request
    keys = games().get(game)
    if keys is None:
        raise UnknownVariantError.single(
            "game",
            msg(
                "Unknown game {game}. Choose one of: {games}.", game=game, games=", ".join(games())
            ),
        )
    key = variant or keys[0]
    if key not in keys:
        raise UnknownVariantError.single(
            "variant",
            msg(
                "Unknown variant {variant}. Choose one of: {variants}.",
                variant=key,
                variants=", ".join(keys),
            ),
        )
    return VARIANTS[(game, key)]
