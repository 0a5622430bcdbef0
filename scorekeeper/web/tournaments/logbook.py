"""The tournament's log as sentences in the reader's language.

Each entry stores its kind and details as keys and numbers (``round``, ``seed``,
``unfinished``...), so a page in either language can say it; the organiser reads a sentence
("Round 2 closed; table 3 had not finished"), never the keys. Entries written by earlier
versions may lack a detail: what is missing is left out of the sentence, not shown raw.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import flask_babel
from flask_babel import lazy_gettext

from scorekeeper.db.tournament_models import Tournament, TournamentEvent

#: Flask-Babel ships no type information; its gettext and ngettext return str.
gettext: Callable[..., str] = flask_babel.gettext
ngettext: Callable[..., str] = flask_babel.ngettext

#: What a set-up change names for each changed key (the password is never logged).
SETTING_NAMES = {
    "name": lazy_gettext("Name of the tournament"),
    "place": lazy_gettext("Place"),
    "date": lazy_gettext("Date"),
    "game": lazy_gettext("Game"),
    "variant": lazy_gettext("Game"),
    "options": lazy_gettext("House rules"),
    "rounds": lazy_gettext("Rounds"),
    "deals_per_player": lazy_gettext("Deals per player per round"),
    "scoring": lazy_gettext("Scoring"),
    "language": lazy_gettext("Language of the printouts"),
}


def describe(event: TournamentEvent, names: Mapping[int, str]) -> str:
    """The sentence for ``event``; ``names`` gives each start number its player's name."""
    sentence = SENTENCES.get(event.kind)
    detail = dict(event.detail or {})
    if sentence is None:
        return ""
    try:
        return sentence(detail, names)
    except KeyError:
        return ""  # an entry without the details its sentence needs: the kind says enough


def names_of(tournament: Tournament) -> dict[int, str]:
    """Each start number's name, as the log's sentences name players."""
    return {e.number: e.name for e in tournament.entrants}


def _player(number: Any, names: Mapping[int, str]) -> str:
    """``No. 12 (Anna Meier)``, or ``No. 12`` when the number is unknown."""
    name = names.get(number) if isinstance(number, int) else None
    if name is None:
        return gettext("No. %(number)s", number=number)
    return gettext("No. %(number)s (%(name)s)", number=number, name=name)


def _created(detail: dict[str, Any], names: Mapping[int, str]) -> str:
    return gettext("The tournament was set up.")


def _settings(detail: dict[str, Any], names: Mapping[int, str]) -> str:
    changed = [str(SETTING_NAMES.get(key, key)) for key in detail.get("changed", [])]
    if not changed:
        return gettext("The set-up was saved unchanged.")
    return gettext("Changed: %(what)s.", what=", ".join(dict.fromkeys(changed)))


def _registered(detail: dict[str, Any], names: Mapping[int, str]) -> str:
    return gettext(
        "%(name)s registered with start number %(number)s.",
        name=detail["name"],
        number=detail["number"],
    )


def _entrant(detail: dict[str, Any], names: Mapping[int, str]) -> str:
    changes = []
    if "name" in detail:
        changes.append(gettext("name or club corrected (now %(name)s)", name=detail["name"]))
    if "present" in detail:
        changes.append(gettext("checked in") if detail["present"] else gettext("marked not here"))
    if "dropped" in detail:
        changes.append(
            gettext("dropped out") if detail["dropped"] else gettext("back in the next draw")
        )
    return gettext(
        "%(player)s: %(changes)s.",
        player=_player(detail["number"], names),
        changes=", ".join(changes),
    )


def _drawn(detail: dict[str, Any], names: Mapping[int, str]) -> str:
    if detail.get("again"):
        return gettext(
            "Round %(round)s drawn again, from the seed %(seed)s.",
            round=detail["round"],
            seed=detail["seed"],
        )
    return gettext(
        "Round %(round)s drawn, from the seed %(seed)s.", round=detail["round"], seed=detail["seed"]
    )


def _swap(detail: dict[str, Any], names: Mapping[int, str]) -> str:
    return gettext(
        "Round %(round)s: %(a)s and %(b)s swapped seats.",
        round=detail["round"],
        a=_player(detail["a"], names),
        b=_player(detail["b"], names),
    )


def _started(detail: dict[str, Any], names: Mapping[int, str]) -> str:
    return gettext("Round %(round)s started.", round=detail["round"])


def _closed(detail: dict[str, Any], names: Mapping[int, str]) -> str:
    unfinished = list(detail.get("unfinished", []))
    if not unfinished:
        return gettext("Round %(round)s closed; every table had finished.", round=detail["round"])
    return ngettext(
        "Round %(round)s closed; table %(tables)s had not finished, its hands so far count.",
        "Round %(round)s closed; tables %(tables)s had not finished, their hands so far count.",
        len(unfinished),
        round=detail["round"],
        tables=", ".join(str(t) for t in unfinished),
    )


def _correction(detail: dict[str, Any], names: Mapping[int, str]) -> str:
    return gettext(
        "Round %(round)s, table %(table)s: hand %(hand)s corrected.",
        round=detail["round"],
        table=detail["table"],
        hand=detail["hand"],
    )


#: The sentence for each kind of entry.
SENTENCES: dict[str, Callable[[dict[str, Any], Mapping[int, str]], str]] = {
    "created": _created,
    "settings": _settings,
    "registered": _registered,
    "entrant": _entrant,
    "drawn": _drawn,
    "swap": _swap,
    "started": _started,
    "closed": _closed,
    "correction": _correction,
}
