"""The installation's own pages, for whoever may manage it: the backup (download and
restore) and the players (anonymising a guest).

Both hold every name, and the backup every tournament's table codes and password hashes,
so one rule, ``access.may_manage_installation``, decides who reaches them and whether the
home page shows the way there.
"""

from __future__ import annotations

from flask import Blueprint, Flask, abort

from scorekeeper.web import access

#: The blueprints only the installation's manager reaches: the check before every request
#: (``guard``) leaves them to ``refuse_others``, even at a tournament table's evening,
#: which the manager may take out of a group or a pot link (docs/hall-safety.md "Who may
#: do what").
MANAGED: set[str] = set()


def for_the_installation(bp: Blueprint) -> Blueprint:
    """Refuse every page of ``bp`` (403) to a caller who may not manage the installation."""
    bp.before_request(refuse_others)
    MANAGED.add(bp.name)
    return bp


def refuse_others() -> None:
    """403 for anyone else (``errors.PLAIN_WORDS`` says why), before anything is looked up:
    a group or an evening that exists and one that does not are refused alike. Checked
    before every request to the blueprint."""
    if not access.may_manage_installation():
        abort(403)


def may_manage() -> bool:
    """For templates: whether to show the way to the installation's pages."""
    return access.may_manage_installation()


def register(app: Flask) -> None:
    """Let every template ask ``may_manage_installation()``."""
    app.context_processor(lambda: {"may_manage_installation": may_manage})
