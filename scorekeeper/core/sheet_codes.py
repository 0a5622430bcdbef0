"""The short forms of the paper score sheet: a hand's facts in a few letters, and the legend
that explains them (docs/presentation.md "The score sheet as paper").

A hand-kept sheet writes "D A/C 41 P+" for a Doppelt of Anna's with Clara, 41 points, the
Pagat won in the last trick. The printed sheet does the same, one line per hand, so 35 and
more hands fit a page. The codes are the same in every language (they are letters, as on
the paper); the legend printed on the sheet says what they stand for, in the evening's
language. Players are written by a code too (``player_codes``): their initial where it is
unique, more letters where it is not.

Pure: the stored facts (as said at the table) go in, texts come out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.rules.base import Message, msg

#: The longest player code made of a name's letters; past it a seat number stands in.
CODE_LETTERS = 3


@dataclass(frozen=True, slots=True)
class HandCodes:
    """One hand's facts as the sheet's columns write them."""

    contract: str
    #: Who played: the Bieterin and her partner, the soloist, the team; a Misère's points.
    who: str
    points: str
    #: The last trick, the premiums, every trick: what else was said.
    extra: str
    #: A Misère: ``who`` holds every player's points (and the Talon's or Tapp's) and
    #: takes the points' and extra columns too, so the line stays short.
    spread: bool = False


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """A code and what it stands for."""

    code: str
    meaning: Message


@dataclass(frozen=True, slots=True)
class Columns:
    """The heads of a game's four fact columns."""

    contract: Message
    who: Message
    points: Message
    extra: Message


def player_codes(players: Sequence[str]) -> dict[str, str]:
    """A short code per player: the shortest start of the name (up to three letters) that no
    other player's name starts with alike; a seat number (1, 2, …) where even three letters
    do not tell two apart (``#2`` where a name's letters make the seat number already).

    >>> player_codes(["Annelies", "Bartholomäus", "Christine"])
    {'Annelies': 'A', 'Bartholomäus': 'B', 'Christine': 'C'}
    >>> player_codes(["Anna", "Andrea", "Bert"])
    {'Anna': 'Ann', 'Andrea': 'And', 'Bert': 'B'}
    >>> player_codes(["Gast 1", "Gast 2", "Dora"])
    {'Gast 1': '1', 'Gast 2': '2', 'Dora': 'D'}
    """
    letters = {p: "".join(p.split()) for p in players}
    codes: dict[str, str] = {}
    alike: list[tuple[int, str]] = []
    for seat, player in enumerate(players, start=1):
        for size in range(1, CODE_LETTERS + 1):
            start = letters[player][:size].casefold()
            if not any(
                letters[other][:size].casefold() == start for other in players if other != player
            ):
                codes[player] = letters[player][:size]
                break
        else:
            alike.append((seat, player))
    taken = {code.casefold() for code in codes.values()}
    for seat, player in alike:
        codes[player] = str(seat) if str(seat) not in taken else f"#{seat}"
    return {p: codes[p] for p in players}


def signed(value: int) -> str:
    """A whole number with its sign, the minus as printers set it.

    >>> signed(12), signed(-3), signed(0)
    ('+12', '\u22123', '0')
    """
    if value > 0:
        return f"+{value}"
    return str(value).replace("-", "\u2212")


def _who(facts: Mapping[str, Any], codes: Mapping[str, str], one: str, two: str) -> str:
    """``one`` and ``two`` of the facts as codes, ``A/C``; a name the codes do not know (a
    player seated after the sheet's columns were drawn) as it is."""
    first = codes.get(facts.get(one) or "", facts.get(one) or "")
    second = facts.get(two)
    return f"{first}/{codes.get(second, second)}" if second else first


def _misere(
    code: str, facts: Mapping[str, Any], codes: Mapping[str, str], set_aside: str
) -> HandCodes:
    """A Misère: each player's points, then those set aside (the Talon or Tapp) after a
    ``T``: ``A12 B3 C30 T8``.

    >>> _misere("M", {"points": {"Anna": 12, "Bert": 3}, "talon_points": 8},
    ...     {"Anna": "A", "Bert": "B"}, "talon_points").who
    'A12 B3 T8'
    """
    points: Mapping[str, Any] = facts.get("points") or {}
    said = [f"{codes.get(p, p)}{v}" for p, v in points.items()]
    if facts.get(set_aside) is not None:
        said.append(f"T{facts[set_aside]}")
    return HandCodes(code, " ".join(said), "", "", spread=True)


# -- Troggen --------------------------------------------------------------------------

TROGGEN_CONTRACTS = {"einfach": "E", "doppelt": "D", "ohne": "OT", "gegen": "GT", "misere": "M"}
TROGGEN_LAST_TRICK = {
    "pagat_won": "P+",
    "pagat_lost": "P\u2212",
    "king_won": "K+",
    "king_lost": "K\u2212",
}


def troggen_codes(facts: Mapping[str, Any], codes: Mapping[str, str]) -> HandCodes:
    """A Troggen hand: contract, Bieterin/partner (and the Kulanz), points, last trick.

    >>> troggen_codes({"contract": "doppelt", "bidder": "Anna", "partner": "Clara",
    ...     "points": 41, "last_trick": "pagat_won", "kulanz": 2}, {"Anna": "A", "Clara": "C"})
    HandCodes(contract='D', who='A/C k2', points='41', extra='P+', spread=False)
    """
    contract = str(facts.get("contract", ""))
    code = TROGGEN_CONTRACTS.get(contract, contract)
    if contract == "misere":
        return _misere(code, facts, codes, "talon_points")
    who = _who(facts, codes, "bidder", "partner")
    if facts.get("kulanz"):
        who += f" k{facts['kulanz']}"
    won = "+" if facts.get("won") else "\u2212"
    points = str(facts["points"]) if "points" in facts else won
    return HandCodes(code, who, points, TROGGEN_LAST_TRICK.get(facts.get("last_trick", ""), ""))


TROGGEN_COLUMNS = Columns(msg("Game"), msg("Who"), msg("Pts"), msg("Last"))
TROGGEN_LEGEND = (
    LegendEntry("E", msg("Einfach")),
    LegendEntry("D", msg("Doppelt")),
    LegendEntry("OT", msg("Ohne Talon")),
    LegendEntry("GT", msg("Gegen den Talon")),
    LegendEntry("M", msg("Misère: each player's points, T those of the Talon")),
    LegendEntry("A/C", msg("Bieterin / partner")),
    LegendEntry("k", msg("Kulanz to the partner")),
    LegendEntry("+ \u2212", msg("won, lost (no points counted)")),
    LegendEntry("P+ P\u2212", msg("Pagat won, lost in the last trick")),
    LegendEntry("K+ K\u2212", msg("King won, lost in the last trick")),
)


# -- Doppen ---------------------------------------------------------------------------

DOPPEN_CONTRACTS = {
    "dreier": "3",
    "unterer": "U",
    "zweier": "2",
    "einer": "1",
    "solo": "S",
    "pass": "\u2013",
}


def _times(count: object) -> str:
    """A Kontra, Re, … as the factor it gives (times 2, 4); nothing without one."""
    return f"\u00d7{2 ** int(count)}" if isinstance(count, int) and count > 0 else ""


def _premium(
    letter: str, facts: Mapping[str, Any], key: str, codes: Mapping[str, str]
) -> str | None:
    """A Pagat or Uhu in the last tricks: ``P+·B``, won by B; an ``a`` before it when it
    was announced, its Kontra's factor after it."""
    played = facts.get(key)
    announced = (facts.get("announced") or {}).get(key)
    if not played and not announced:
        return None
    kontra = _times((facts.get("kontra") or {}).get(key))
    if not played:
        return f"a{letter}\u2212·{codes.get(str(announced), str(announced))}{kontra}"
    result = "+" if played.get("result") == "won" else "\u2212"
    who = str(played.get("player"))
    prefix = "a" if announced else ""
    return f"{prefix}{letter}{result}·{codes.get(who, who)}{kontra}"


def doppen_codes(facts: Mapping[str, Any], codes: Mapping[str, str]) -> HandCodes:
    """A Doppen hand: contract (with its Kontra), soloist, points or Valat, premiums.

    >>> doppen_codes({"contract": "zweier", "soloist": "Bert", "points": 33,
    ...     "kontra": {"game": 1, "uhu": 0}, "announced": {"uhu": "Bert"},
    ...     "uhu": {"player": "Bert", "result": "won"},
    ...     "pagat": {"player": "Clara", "result": "won"}},
    ...     {"Anne": "A", "Bert": "B", "Clara": "C"})
    HandCodes(contract='2\u00d72', who='B', points='33', extra='P+·C aU+·B', spread=False)
    """
    contract = str(facts.get("contract", ""))
    kontra: Mapping[str, Any] = facts.get("kontra") or {}
    code = DOPPEN_CONTRACTS.get(contract, contract) + _times(kontra.get("game"))
    soloist = facts.get("soloist") or ""
    valat = facts.get("valat")
    if valat:
        points = "V+" if valat == "soloist" else "V\u2212"
    elif facts.get("points") is not None:
        points = str(facts["points"])
    else:
        points = ""
    if (facts.get("announced") or {}).get("valat"):
        points = f"a{points or 'V'}{_times(kontra.get('valat'))}"
    extra = [
        found
        for found in (_premium("P", facts, "pagat", codes), _premium("U", facts, "uhu", codes))
        if found
    ]
    for letter, key in (("T", "trull"), ("K", "kings")):
        if facts.get(key):
            extra.append(f"{letter}·{codes.get(facts[key], facts[key])}")
    extra += [f"R·{codes.get(p['player'], p['player'])}" for p in facts.get("penalties") or []]
    return HandCodes(code, codes.get(soloist, soloist), points, " ".join(extra))


DOPPEN_COLUMNS = Columns(msg("Game"), msg("Soloist"), msg("Pts"), msg("Premiums"))
DOPPEN_LEGEND = (
    LegendEntry("3 U 2 1 S", msg("Dreier, Unterer, Zweier, Einer, Solo")),
    LegendEntry("\u2013", msg("all passed")),
    LegendEntry("\u00d72 \u00d74", msg("Kontra, Re")),
    LegendEntry("V+ V\u2212", msg("Valat of the soloist, of the opponents")),
    LegendEntry("a", msg("announced")),
    LegendEntry("P U", msg("Pagat, Uhu: + won, \u2212 lost, then who played it")),
    LegendEntry("T K", msg("Trull, the four kings, then who held them")),
    LegendEntry("R", msg("revoke: half the base into the Kasse")),
)


# -- Troggu ---------------------------------------------------------------------------

TROGGU_CONTRACTS = {"normal": "N", "solo": "S", "misere": "M", "team": "T"}
TROGGU_ALL_TRICKS = {"declarer": "V+", "opponents": "V\u2212"}


def troggu_codes(facts: Mapping[str, Any], codes: Mapping[str, str]) -> HandCodes:
    """A Troggu hand: contract, declarer/partner or the team, points, every trick taken.

    >>> troggu_codes({"contract": "team", "team": ["Anna", "Beat"], "points": 61},
    ...     {"Anna": "A", "Beat": "B"})
    HandCodes(contract='T', who='A+B', points='61', extra='', spread=False)
    """
    contract = str(facts.get("contract") or "team")
    code = TROGGU_CONTRACTS.get(contract, contract)
    if contract == "misere":
        return _misere(code, facts, codes, "tapp_points")
    if contract == "team":
        who = "+".join(codes.get(p, p) for p in facts.get("team") or [])
        return HandCodes(code, who, str(facts.get("points", "")), "")
    who = _who(facts, codes, "declarer", "partner")
    extra = TROGGU_ALL_TRICKS.get(facts.get("all_tricks") or "", "")
    return HandCodes(code, who, str(facts.get("points", "")), extra)


TROGGU_COLUMNS = Columns(msg("Game"), msg("Who"), msg("Pts"), msg("All"))
TROGGU_LEGEND = (
    LegendEntry("N", msg("normal game")),
    LegendEntry("S", msg("Solo")),
    LegendEntry("M", msg("Misère: each player's points, T those of the Tapp")),
    LegendEntry("A/C", msg("declarer / partner")),
    LegendEntry("V+ V\u2212", msg("every trick to the declaring side, to the opponents")),
)
TROGGU_TALLY_LEGEND = (
    LegendEntry("T", msg("team game")),
    LegendEntry("A+B", msg("the declaring side")),
    LegendEntry("|", msg("a Strich to each member of the winning side")),
)


#: How a player's cell reads, on every money sheet; Doppen writes the soloist's only.
CELL_LEGEND = LegendEntry("(\u22126) +59", msg("the hand's change, then the running total"))
DOPPEN_CELL_LEGEND = LegendEntry(
    "(+16) 48", msg("in the soloist's column: the hand's result, then the column's value")
)


def fact_legend(legend: Sequence[LegendEntry]) -> tuple[LegendEntry, ...]:
    """``legend`` without what it says of the totals' cells: the legend of a blank sheet,
    which asks for the facts alone (docs/recording.md "Back from paper")."""
    return tuple(e for e in legend if e not in (CELL_LEGEND, DOPPEN_CELL_LEGEND))


@dataclass(frozen=True, slots=True)
class GameCodes:
    """Everything the sheet writes in short forms for one game."""

    columns: Columns
    legend: tuple[LegendEntry, ...]

    def hand(self, game: str, facts: Mapping[str, Any], codes: Mapping[str, str]) -> HandCodes:
        """The hand's facts in this game's short forms."""
        return CODERS[game](facts, codes)


CODERS = {"troggen": troggen_codes, "doppen": doppen_codes, "troggu": troggu_codes}


def game_codes(game: str, *, keeps_tally: bool = False) -> GameCodes:
    """The columns and the legend of ``game`` (Eisten-Stalden's Striche have their own)."""
    if game == "troggen":
        return GameCodes(TROGGEN_COLUMNS, (*TROGGEN_LEGEND, CELL_LEGEND))
    if game == "doppen":
        return GameCodes(DOPPEN_COLUMNS, (*DOPPEN_LEGEND, DOPPEN_CELL_LEGEND))
    if keeps_tally:
        return GameCodes(TROGGU_COLUMNS, TROGGU_TALLY_LEGEND)
    return GameCodes(TROGGU_COLUMNS, (*TROGGU_LEGEND, CELL_LEGEND))
