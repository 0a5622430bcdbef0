"""Each statistics figure in words, German and English (docs/statistics.md).

A figure's key (``troggen.contract.doppelt.won``, ``doppen.kontra.given``) is matched
against the patterns below, ``*`` standing for one part of the key (a contract, a card,
a premium, a place); the game's own terms (Bieterin, Pagat, Misère, Kontra, Solo,
Striche, Tagessieger) stay as the table says them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

#: The games by their keys, as players name them in both languages.
GAMES: Mapping[str, str] = {
    "troggen": "Troggen",
    "doppen": "Doppen",
    "troggu": "Troggu",
    "eisten-stalden": "Eisten-Stalden",
}

#: Contracts, cards and premiums: the German names are the real ones, in every language.
PARTS: Mapping[str, Any] = {
    "einfach": "Einfach",
    "doppelt": "Doppelt",
    "ohne": "Ohne Talon",
    "gegen": "Gegen den Talon",
    "dreier": "Dreier",
    "unterer": "Unterer",
    "zweier": "Zweier",
    "einer": "Einer",
    "solo": "Solo",
    "normal": _l("Normal game (Tapp)"),
    "team": _l("Game of the declaring side"),
    "pagat": "Pagat",
    "king": _l("King"),
    "uhu": "Uhu",
    "trull": "Trull",
    "kings": "Könige",
    "valat": "Valat",
}

#: Each figure's pattern and its words; ``{part}`` is the part ``*`` stands for.
LABELS: Mapping[str, Any] = {
    "hands": _l("Hands played"),
    "contract.*.played": _l("{part}: bid"),
    "contract.*.won": _l("{part}: won"),
    "contract.*.lost": _l("{part}: lost"),
    "partner.played": _l("As partner: played"),
    "partner.won": _l("As partner: won"),
    "partner.lost": _l("As partner: lost"),
    "defender.played": _l("As defender: played"),
    "defender.won": _l("As defender: won"),
    "defender.lost": _l("As defender: lost"),
    "misere.place.*": _l("Misère: place {part}"),
    "last_trick.*.won": _l("{part} in the last trick won (own side)"),
    "last_trick.*.lost": _l("{part} in the last trick lost (own side)"),
    "last_trick.*.conceded": _l("{part} in the last trick of the Bieterin let through"),
    "last_trick.*.captured": _l("{part} of the Bieterin caught in the last trick"),
    "premium.*.won": _l("Premium {part}: earned by own side"),
    "premium.*.lost": _l("Premium {part}: earned by the other side"),
    "announced.*.said": _l("{part} announced"),
    "announced.*.won": _l("{part} announced and made"),
    "kontra.given": _l("Kontra given"),
    "kontra.received": _l("Kontra received"),
    "passed": _l("Hands everybody passed"),
    "sat_out": _l("Hands sat out as dealer"),
    "all_tricks.taken": _l("Every trick taken by own side"),
    "all_tricks.conceded": _l("Every trick taken by the other side"),
    "striche": "Striche",
    "tagessieger": _l("Tagessieger alone"),
    "tagessieger.shared": _l("Tagessieger shared"),
}

#: A group's own figures (``troggen.jetons.CHF.money``): the last part of the key.
GROUP_FIGURES: Mapping[str, Any] = {
    "evenings": _l("Evenings"),
    "hands": _l("Hands played"),
    "money": _l("Money"),
    "units": _l("Units"),
}


def game_title(game: str, unit: str = "") -> str:
    """A game as players name it; Troggu kept in Striche is Eisten-Stalden."""
    if unit == "striche":
        return GAMES["eisten-stalden"]
    return GAMES.get(game, game)


def part_name(part: str) -> str:
    """A contract, card or premium by its name at the table."""
    return str(PARTS.get(part, part))


def matches(pattern: str, key: str) -> str | None:
    """What ``*`` stands for when ``key`` matches ``pattern`` ("" without a ``*``)."""
    want, have = pattern.split("."), key.split(".")
    if len(want) != len(have):
        return None
    found = ""
    for w, h in zip(want, have, strict=True):
        if w == "*":
            found = h
        elif w != h:
            return None
    return found


def game_of(key: str) -> str:
    """The game a figure's key belongs to."""
    return key.split(".", 1)[0]


def label(key: str) -> str:
    """A game's figure (``troggen.contract.doppelt.won``) in words, without the game."""
    rest = key.split(".", 1)[1] if "." in key else key
    for pattern, words in LABELS.items():
        part = matches(pattern, rest)
        if part is not None:
            return str(words).format(part=part_name(part))
    return rest


def group_label(key: str) -> str | None:
    """A group's figure (``troggen.jetons.CHF.money``) in words, or None for a game's."""
    parts = key.split(".")
    if len(parts) != 4 or parts[3] not in GROUP_FIGURES:
        return None
    game, unit, currency, what = parts
    currency = "" if currency == "-" else currency
    where = f"{game_title(game, unit)} {currency}".strip()
    return f"{where}: {GROUP_FIGURES[what]}"


@dataclass(frozen=True, slots=True)
class FigureLine:
    """A figure as a page shows it: its words and its value (or values side by side)."""

    key: str
    words: str
    values: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class GameFigures:
    """One game's figures in words, in the order the statistics give them."""

    game: str
    title: str
    lines: tuple[FigureLine, ...]


def by_game(figures: Iterable[tuple[str, tuple[int | None, ...]]]) -> list[GameFigures]:
    """Each game's figures in words; a group's figures (money, units) are left out, the
    pages show them in their own table."""
    found: dict[str, list[FigureLine]] = {}
    for key, values in figures:
        if group_label(key) is not None:
            continue
        game = game_of(key)
        found.setdefault(game, []).append(FigureLine(key, label(key), values))
    return [GameFigures(g, GAMES.get(g, g), tuple(lines)) for g, lines in found.items()]


def unit_name(unit: str) -> str:
    """A game's unit in words (``jetons``, ``points``, ``base-amounts``, ``striche``)."""
    names: dict[str, str] = {
        "jetons": gettext("Jetons"),
        "points": gettext("Points"),
        "base-amounts": gettext("Base amounts"),
        "striche": "Striche",
    }
    return names.get(unit, unit)
