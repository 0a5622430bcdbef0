"""A line of a paper score sheet, typed back in: the short codes of the sheet's columns read
into the hand's facts as the table screen would send them (docs/recording.md "Back from
paper").

The codes are the printed sheet's (``sheet_codes``), read the way a hand writes them: in
any case, with or without the sheet's dots and spaces, ``-`` or ``\u2212`` alike, ``x2`` or
``\u00d72``. A player is written by the sheet's code, by the start of the name where no other
name starts alike, or by the seat number. A Misère's points may be written with the
players' codes (``A12 B3 C30 T8``) or in seat order (``12 3 30 15 8``: a number past the
players' is the Talon's or Tapp's).

Pure: what was typed goes in, the facts (or the column and the reason a code cannot be
read) come out; whether the facts make a possible hand is the rules' to say
(``Variant.parse_entry``), as for a hand typed on the table screen.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.rules.base import ErrorCollector, InvalidHandError, msg
from scorekeeper.core.sheet_codes import (
    DOPPEN_CONTRACTS,
    TROGGEN_CONTRACTS,
    TROGGEN_LAST_TRICK,
    TROGGU_ALL_TRICKS,
    TROGGU_CONTRACTS,
    player_codes,
)

#: The sheet's columns a row is typed in, in the order of the printed sheet.
COLUMNS = ("contract", "who", "points", "extra")
#: What the game column holds on a line that changes the table from the next hand on.
NEW_TABLE = "="
#: From this many players on, a Troggu Misère has the Fool and trump I in the Tapp.
FOOL_IN_TAPP_FROM = 7
#: From this many players on, who played names a partner too (docs/troggen.md,
#: docs/troggu.md): the Bieterin's at Troggen, the declarer's in a normal Troggu game.
PARTNER_FROM = {"troggen": 5, "troggu": 7}


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One hand's line as typed: the four fact columns of the sheet."""

    contract: str = ""
    who: str = ""
    points: str = ""
    extra: str = ""

    @property
    def blank(self) -> bool:
        """Whether nothing was typed in the row's fact columns."""
        return not any(part.strip() for part in (self.contract, self.who, self.points, self.extra))

    @property
    def new_table(self) -> bool:
        """Whether the line changes the table (``=``) rather than saying a hand."""
        return self.contract.strip() == NEW_TABLE


def plain(text: str) -> str:
    """What was typed, in one spelling: lower case, the sheet's signs as a keyboard types
    them, the dots between a premium and its player left out.

    >>> plain(" aP\u2212\u00b7B \u00d72 "), plain("K\u2013")
    ('ap-b x2', 'k-')
    """
    text = text.strip().casefold()
    for sign in "\u2212\u2013\u2014":
        text = text.replace(sign, "-")
    return text.replace("\u00d7", "x").replace("*", "x").replace("\u00b7", "").replace(".", "")


def read_player(text: str, players: Sequence[str]) -> str | None:
    """The player ``text`` stands for: the sheet's code, the seat number (``2`` or
    ``#2``), the start of one name only, or the whole name; None when it names nobody or
    more than one.

    >>> seated = ("Anna", "Andrea", "Bert", "Gast 1")
    >>> [read_player(t, seated) for t in ("ann", "B", "2", "#4", "an", "Gast 1", "Xaver")]
    ['Anna', 'Bert', 'Andrea', 'Gast 1', None, 'Gast 1', None]
    """
    wanted = plain(text).replace(" ", "")
    if not wanted:
        return None
    for player, code in player_codes(players).items():
        if plain(code) == wanted:
            return player
    number = wanted.removeprefix("#")
    if number.isdigit() and 1 <= int(number) <= len(players):
        return players[int(number) - 1]
    for player in players:
        if plain(player).replace(" ", "") == wanted:
            return player
    starting = [p for p in players if plain(p).replace(" ", "").startswith(wanted)]
    return starting[0] if len(starting) == 1 else None


def _players(text: str, players: Sequence[str], errors: ErrorCollector, *, most: int) -> list[str]:
    """Up to ``most`` players written one after another (``A/C``, ``A+B``, ``A C`` or
    ``AC`` where that can be read one way only)."""
    parts = [p for p in re.split(r"[/+,;\s]+", plain(text)) if p]
    if len(parts) == 1 and most > 1:
        # Two codes one after the other (``AC``): read so when one cut makes two of the
        # sheet's codes, before the whole is read as a name's start.
        by_code = {plain(code): player for player, code in player_codes(players).items()}
        joined = parts[0]
        splits = [
            [by_code[joined[:cut]], by_code[joined[cut:]]]
            for cut in range(1, len(joined))
            if joined[:cut] in by_code and joined[cut:] in by_code
        ]
        if len(splits) == 1 and joined not in by_code:
            return splits[0]
    found = [read_player(part, players) for part in parts]
    if None in found or len(found) > most:
        errors.add(
            "who", msg("Write who played by the codes of the sheet's legend, or by seat number.")
        )
        return []
    return [p for p in found if p is not None]


def _points(text: str, errors: ErrorCollector) -> int | None:
    """Card points, a whole number."""
    typed = plain(text)
    if not typed.isdigit():
        errors.add("points", msg("Write the points as a number."))
        return None
    return int(typed)


def _misere(
    text: str, players: Sequence[str], known: Sequence[str], errors: ErrorCollector, set_aside: str
) -> dict[str, Any]:
    """A Misère's points per player (by code, or in seat order) and those set aside."""
    points: dict[str, int] = {}
    aside: int | None = None
    for label, value in re.findall(r"([^\d\s,;]*)\s*(\d+)", plain(text)):
        player = None
        if label:
            player = read_player(label, known)
            if label == "t" and (player is None or player in points):
                player = None
                if aside is None:
                    aside = int(value)
                    continue
        else:
            player = next((p for p in players if p not in points), None)
            if player is None and aside is None:
                aside = int(value)
                continue
        if player is None or player in points:
            errors.add("who", msg("Write each player's points once, by code or in seat order."))
            return {}
        points[player] = int(value)
    if len(points) != len(players):
        errors.add("who", msg("Write every player's points for a Misère."))
        return {}
    facts: dict[str, Any] = {"contract": "misere", "points": points}
    if aside is not None:
        facts[set_aside] = aside
    return facts


def _contract(text: str, codes: dict[str, str], errors: ErrorCollector) -> str | None:
    """The contract a code stands for: the whole code, or a start that only one has."""
    typed = plain(text).replace(" ", "")
    by_code = {plain(code): contract for contract, code in codes.items()}
    if typed in by_code:
        return by_code[typed]
    starting = [contract for code, contract in by_code.items() if typed and code.startswith(typed)]
    if len(starting) == 1:
        return starting[0]
    errors.add("contract", msg("Write the game by its code in the sheet's legend."))
    return None


def _factor(text: str | None, field: str, errors: ErrorCollector) -> int:
    """A Kontra's factor (``x2``, ``x4``...) as the count of doublings (1, 2...)."""
    if not text:
        return 0
    factor = int(text)
    if factor < 2 or factor & (factor - 1):
        errors.add(field, msg("A Kontra doubles: write x2, x4, x8..."))
        return 0
    return factor.bit_length() - 1


def troggen_row(row: SheetRow, players: Sequence[str], known: Sequence[str] = ()) -> dict[str, Any]:
    """A Troggen line: ``D``, ``A/C k2``, ``41`` (or ``+``/``-``), ``P+``.

    The Kulanz may also be typed in the last column (``P+ k2``, ``k2``): the cursor leaves
    Who by itself after the two players, and the last column is where it lands next.

    >>> seated = ("Anna", "Bert", "Clara", "Dora", "Emil")
    >>> said = troggen_row(SheetRow("d", "a/c k2", "41", "p+"), seated)
    >>> said["bidder"], said["partner"], said["points"], said["last_trick"], said["kulanz"]
    ('Anna', 'Clara', 41, 'pagat_won', 2)
    >>> troggen_row(SheetRow("d", "ac", "41", "p+ k2"), seated) == said
    True
    >>> troggen_row(SheetRow("e", "b", "-"), seated)
    {'contract': 'einfach', 'bidder': 'Bert', 'partner': None, 'won': False}
    >>> troggen_row(SheetRow("m", "10 20 21 11 0 8"), seated)["talon_points"]
    8
    """
    errors = ErrorCollector()
    known = known or players
    contract = _contract(row.contract, TROGGEN_CONTRACTS, errors)
    if contract == "misere":
        said = " ".join((row.who, row.points, row.extra))
        misere = _misere(said, players, known, errors, "talon_points")
        errors.raise_if_any(InvalidHandError)
        return misere
    who = plain(row.who)
    kulanz = re.search(r"(?:^|\s)k\s*(\d+)\s*$", who)
    if kulanz:
        who = who[: kulanz.start()]
    found = _players(who, known, errors, most=2)
    facts: dict[str, Any] = {"contract": contract}
    if found:
        facts["bidder"] = found[0]
    if len(found) > 1:
        facts["partner"] = found[1]
    elif len(players) >= PARTNER_FROM["troggen"]:
        facts["partner"] = None
    typed = plain(row.points)
    if typed in ("+", "-"):
        facts["won"] = typed == "+"
    else:
        facts["points"] = _points(row.points, errors)
    last = plain(row.extra).replace(" ", "")
    # ``k`` and a number is a Kulanz; ``k+`` and ``k-`` are the king in the last trick.
    kulanz_last = re.search(r"k(\d+)", last)
    if kulanz_last:
        last = last[: kulanz_last.start()] + last[kulanz_last.end() :]
    tricks = {plain(code): key for key, code in TROGGEN_LAST_TRICK.items()}
    if last and last not in tricks:
        errors.add("extra", msg("Write the last trick as P+, P-, K+ or K-, or leave it empty."))
    elif last:
        facts["last_trick"] = tricks[last]
    given = {int(m.group(1)) for m in (kulanz, kulanz_last) if m}
    if len(given) > 1:
        errors.add("extra", msg("Write the Kulanz once: in Who or in the last column."))
    elif given:
        facts["kulanz"] = given.pop()
    errors.raise_if_any(InvalidHandError)
    return facts


PREMIUM = re.compile(r"(a)?([pu])([+-])?(.*?)(?:x(\d+))?")
HELD = {"t": "trull", "k": "kings"}


def doppen_row(row: SheetRow, players: Sequence[str], known: Sequence[str] = ()) -> dict[str, Any]:
    """A Doppen line: ``2x2``, ``B``, ``33`` (``V+``, ``aV+x2``), ``P+C aU+B x2 TC R A``.

    >>> seated = ("Anne", "Bert", "Clara")
    >>> doppen_row(SheetRow("2x2", "b", "33", "p+c au+b"), seated)["kontra"]
    {'game': 1}
    >>> doppen_row(SheetRow("-", "", "", "r a"), seated)
    {'contract': 'pass', 'penalties': [{'player': 'Anne', 'kind': 'revoke'}]}
    """
    errors = ErrorCollector()
    players = known or players
    typed = plain(row.contract).replace(" ", "")
    game = re.fullmatch(r"([^x]*)(?:x(\d+))?", typed)
    assert game is not None  # the pattern takes any text
    contract = _contract(game.group(1), {**DOPPEN_CONTRACTS, "pass": "-"}, errors)
    kontra: dict[str, int] = {}
    if factor := _factor(game.group(2), "contract", errors):
        kontra["game"] = factor
    facts: dict[str, Any] = {"contract": contract}
    if contract != "pass":
        found = _players(row.who, players, errors, most=1)
        facts["soloist"] = found[0] if found else None
        _doppen_points(plain(row.points).replace(" ", ""), facts, kontra, errors)
    announced: dict[str, Any] = {}
    penalties: list[dict[str, str]] = []
    for token in extra_tokens(row.extra):
        if token[0] in HELD or token[0] == "r":
            player = read_player(token[1:], players)
            if player is None:
                errors.add("extra", msg("Write who held it or revoked by code or seat number."))
            elif token[0] == "r":
                penalties.append({"player": player, "kind": "revoke"})
            else:
                facts[HELD[token[0]]] = player
        elif token[0] in "apu":
            _doppen_premium(token, players, facts, announced, kontra, errors)
        else:
            errors.add("extra", msg("Write the premiums by the codes of the sheet's legend."))
    if announced:
        facts.setdefault("announced", {}).update(announced)
    if kontra:
        facts["kontra"] = kontra
    facts["penalties"] = penalties
    errors.raise_if_any(InvalidHandError)
    return facts


def extra_tokens(text: str) -> list[str]:
    """The premiums column's entries, each whole: a Kontra (``x2``) joins the entry
    before it, a premium's or holder's code the player after it.

    >>> extra_tokens("P+\u00b7C aU+ B \u00d72 T C r1")
    ['p+c', 'au+bx2', 'tc', 'r1']
    """
    tokens: list[str] = []
    pending = ""
    for part in plain(text).split():
        if re.fullmatch(r"x\d+", part) and tokens and not pending:
            tokens[-1] += part
            continue
        part = pending + part
        if re.fullmatch(r"a?[pu][+-]?|[tkr]", part):
            pending = part
            continue
        pending = ""
        tokens.append(part)
    if pending:
        tokens.append(pending)
    return tokens


def _doppen_points(
    typed: str, facts: dict[str, Any], kontra: dict[str, int], errors: ErrorCollector
) -> None:
    """The points column: card points, or a Valat (``V+``, ``V-``), announced (``a``)
    with its Kontra."""
    found = re.fullmatch(r"(a)?(v[+-]?|\d+)?(?:x(\d+))?", typed)
    if found is None or (not found.group(1) and not found.group(2)):
        errors.add("points", msg("Write the points as a number, or V+ or V- for a Valat."))
        return
    if found.group(1):
        facts["announced"] = {"valat": True}
        if factor := _factor(found.group(3), "points", errors):
            kontra["valat"] = factor
    said = found.group(2) or ""
    if said.startswith("v"):
        if said != "v":
            facts["valat"] = "soloist" if said == "v+" else "opponents"
    elif said:
        facts["points"] = int(said)


def _doppen_premium(
    token: str,
    players: Sequence[str],
    facts: dict[str, Any],
    announced: dict[str, Any],
    kontra: dict[str, int],
    errors: ErrorCollector,
) -> None:
    """A Pagat or Uhu: ``P+C`` played by C and won; ``aU-B`` announced by B and lost;
    ``x2`` its Kontra."""
    found = PREMIUM.fullmatch(token)
    player = read_player(found.group(4), players) if found else None
    if found is None or player is None or not found.group(3):
        errors.add("extra", msg("Write a Pagat or Uhu as P+ or U- and who played it, as P+C."))
        return
    key = "pagat" if found.group(2) == "p" else "uhu"
    if found.group(1):
        announced[key] = player
        if factor := _factor(found.group(5), "extra", errors):
            kontra[key] = factor
        if found.group(3) == "-":
            return  # announced and lost: played or not, the announcer's loss
    facts[key] = {"player": player, "result": "won" if found.group(3) == "+" else "lost"}


def troggu_row(
    row: SheetRow, players: Sequence[str], known: Sequence[str] = (), *, keeps_tally: bool
) -> dict[str, Any]:
    """A Troggu line: ``N``, ``A/C``, ``62``, ``V+``; Eisten-Stalden's ``T``, ``A+B``, ``61``.

    >>> seated = ("Anna", "Beat", "Carla", "Dani")
    >>> troggu_row(SheetRow("", "a+b", "61"), seated, keeps_tally=True)
    {'contract': 'team', 'team': ['Anna', 'Beat'], 'points': 61}
    >>> troggu_row(SheetRow("s", "c", "114", "v+"), seated, keeps_tally=False)
    {'contract': 'solo', 'declarer': 'Carla', 'points': 114, 'all_tricks': 'declarer'}
    """
    errors = ErrorCollector()
    known = known or players
    if keeps_tally:
        if row.contract.strip() and plain(row.contract) not in ("t", "team"):
            errors.add("contract", msg("Eisten-Stalden plays team games: write T or nothing."))
        team = _players(row.who, known, errors, most=len(players))
        facts: dict[str, Any] = {"contract": "team", "team": team}
        facts["points"] = _points(row.points, errors)
        errors.raise_if_any(InvalidHandError)
        return facts
    contract = _contract(row.contract, contract_codes("troggu"), errors)
    if contract == "misere":
        said = " ".join((row.who, row.points, row.extra))
        facts = _misere(said, players, known, errors, "tapp_points")
        if facts and len(players) >= FOOL_IN_TAPP_FROM:
            facts["fool_and_i_in_tapp"] = True
        errors.raise_if_any(InvalidHandError)
        return facts
    found = _players(row.who, known, errors, most=2)
    facts = {"contract": contract}
    if found:
        facts["declarer"] = found[0]
    if len(found) > 1:
        facts["partner"] = found[1]
    elif contract == "normal" and len(players) >= PARTNER_FROM["troggu"]:
        facts["partner"] = None
    facts["points"] = _points(row.points, errors)
    every = plain(row.extra).replace(" ", "")
    tricks = {plain(code): key for key, code in TROGGU_ALL_TRICKS.items()}
    if every and every not in tricks:
        errors.add("extra", msg("Write V+ or V- when one side took every trick, or nothing."))
    elif every:
        facts["all_tricks"] = tricks[every]
    errors.raise_if_any(InvalidHandError)
    return facts


def contract_codes(game: str, *, keeps_tally: bool = False) -> dict[str, str]:
    """Each contract of ``game`` by the code its sheet writes (Eisten-Stalden: the team
    game alone; Troggu's money variants: every game but it)."""
    if game == "troggen":
        return dict(TROGGEN_CONTRACTS)
    if game == "doppen":
        return dict(DOPPEN_CONTRACTS)
    if keeps_tally:
        return {"team": TROGGU_CONTRACTS["team"]}
    return {k: v for k, v in TROGGU_CONTRACTS.items() if k != "team"}


def one_player_writes(game: str, seated: int, *, keeps_tally: bool = False) -> bool:
    """Whether who played is one player at a table of ``seated`` (no partner written, no
    team): the page's script then moves on once that player's code is complete.

    >>> one_player_writes("troggen", 4), one_player_writes("troggen", 5)
    (True, False)
    """
    if keeps_tally:
        return False
    return seated < PARTNER_FROM.get(game, seated + 1)


def read_table(text: str, known: Sequence[str]) -> list[str]:
    """The players of a new table, in seat order, separated by commas: each by the
    sheet's code or seat number, or by name (a player new to the evening).

    >>> read_table("A, b, Fritz Meier", ("Anna", "Bert", "Clara"))
    ['Anna', 'Bert', 'Fritz Meier']
    """
    parts = [part.strip() for part in text.split(",") if part.strip()]
    return [read_player(part, known) or part for part in parts]


def read_row(
    game: str,
    row: SheetRow,
    players: Sequence[str],
    known: Sequence[str] = (),
    *,
    keeps_tally: bool = False,
) -> dict[str, Any]:
    """The facts of a line of ``game``'s sheet, played by ``players`` (in seat order);
    ``InvalidHandError`` at the column whose code cannot be read.

    ``known``: everyone the sheet names, in its order, whose codes the sheet prints (the
    evening's players; by default ``players``): a code and a seat number are read
    against them, a Misère's points in seat order against ``players``.
    """
    if game == "troggen":
        return troggen_row(row, players, known)
    if game == "doppen":
        return doppen_row(row, players, known)
    return troggu_row(row, players, known, keeps_tally=keeps_tally)
