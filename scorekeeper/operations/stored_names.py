"""Players' names stored before names were folded, brought in line once after an upgrade
(docs/limits.md "Names that look alike").

A player's name is quoted by every hand it played (the bidder, the partner, a Misère's
points), so it cannot be rewritten by a schema migration alone: it is renamed as
anonymising renames, everywhere at once, the amounts checked unchanged
(``anonymising.rename_player``). A name is stored composed and without invisible
characters, and its folded form is its key; where two players' names fold alike, the
later (by id) is renamed with " (2)" (or the next free number). Run after every upgrade
(``db.schema.upgrade_schema``); with nothing to do it reads the players' names and writes
nothing.
"""

from __future__ import annotations

from sqlalchemy import select

from scorekeeper.core.names import clean_text, fold
from scorekeeper.db.extensions import db
from scorekeeper.db.models import Player
from scorekeeper.operations.anonymising import rename_player


def spelled(name: str, taken: set[str]) -> str:
    """``name`` as stored: clean, with the first free " (n)" when its folded form is
    ``taken``."""
    clean = clean_text(name) or "?"
    wanted, n = clean, 2
    while fold(wanted) in taken:
        wanted = f"{clean} ({n})"
        n += 1
    return wanted


def normalise_players() -> list[tuple[str, str]]:
    """Bring every player's name and key in line; the renamings, (old, new)."""
    players = list(db.session.scalars(select(Player).order_by(Player.id)))
    if all(p.name == clean_text(p.name) and p.name_key == fold(p.name) for p in players):
        return []
    # Keys set apart first: the new key of one player may be the old key of a later one.
    for player in players:
        player.name_key = f"\x01{player.id}"
    db.session.flush()
    taken: set[str] = set()
    renamed = []
    for player in players:
        name = spelled(player.name, taken)
        taken.add(fold(name))
        if name != player.name:
            renamed.append((player.name, name))
            rename_player(player, name)
        player.name_key = fold(name)
    db.session.flush()
    return renamed
