"""The backup page: every evening in one download, and restoring evenings from one.

For organisers who never open a terminal: one button saves everything, one upload brings
lost evenings back. Replacing the whole database stays a server task (docs/using.md, "Backups").
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from datetime import datetime
from zoneinfo import ZoneInfo

import flask_babel
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    send_file,
    url_for,
)
from sqlalchemy import func, select
from werkzeug.wrappers import Response

from scorekeeper.core import json_limits
from scorekeeper.core.rules.base import InvalidInputError
from scorekeeper.db.extensions import db
from scorekeeper.db.models import Evening
from scorekeeper.operations import installation_backups
from scorekeeper.web.bodies import takes_upload
from scorekeeper.web.json_shapes import text
from scorekeeper.web.managed import for_the_installation
from scorekeeper.web.writing import Answered, Written, write

#: Flask-Babel ships no type information; its gettext and ngettext return str.
gettext: Callable[..., str] = flask_babel.gettext
ngettext: Callable[..., str] = flask_babel.ngettext

bp = for_the_installation(Blueprint("backups", __name__, url_prefix="/backup"))


def local_now() -> datetime:
    """Now on the hall's clock, for the file name people find in their downloads."""
    return datetime.now(ZoneInfo(current_app.config["BABEL_DEFAULT_TIMEZONE"]))


@bp.get("")
def index() -> str:
    """What a backup holds, the download button and the way to restore."""
    count = db.session.scalar(select(func.count()).select_from(Evening)) or 0
    return render_template(
        "backups/index.html",
        count=count,
        with_database=installation_backups.database_file() is not None,
    )


@bp.get("/scorekeeper-backup.zip")
def download() -> Response:
    """Every evening (and the SQLite database) as one zip, from one moment."""
    now = local_now()
    # Not a with-block: the answer streams the file and closes it once it is sent.
    handle = tempfile.TemporaryFile()  # noqa: SIM115
    try:
        installation_backups.write_zip(handle, now)
    except BaseException:
        handle.close()
        raise
    handle.seek(0)
    return send_file(
        handle,
        mimetype="application/zip",
        as_attachment=True,
        download_name=f"scorekeeper-backup-{now:%Y-%m-%d-%H%M}.zip",
    )


@bp.get("/restore")
def restore_form() -> str:
    """Upload a backup to bring its evenings back."""
    return render_template("backups/restore.html", problems=[])


@bp.post("/restore")
@takes_upload
def restore() -> Response | tuple[str, int]:
    """Import the evenings of an uploaded backup that are not here yet, or say why not."""
    upload = request.files.get("backup")
    if upload is None or not upload.filename:
        return restore_refused([gettext("Choose the backup file (.zip or .json) to restore.")])
    try:
        archives = installation_backups.read_backup(upload.read())
    except json_limits.TooDeepError as error:
        abort(400, description=" ".join(text(m) for m in error.errors["file"]))
    except InvalidInputError as error:
        return restore_refused(problems_of(error))

    def make() -> Written[Response | tuple[str, int]]:
        try:
            restored = installation_backups.restore_evenings(archives)
        except InvalidInputError as error:
            problems = problems_of(error)
            raise Answered(lambda: restore_refused(problems)) from None
        flash(restored_message(len(restored.imported), restored.already_there))
        return Written(redirect(url_for("evenings.index"), 303))

    return write(make)


def problems_of(error: InvalidInputError) -> list[str]:
    """What a refused backup is told, one text per problem."""
    return [text(m) for messages in error.errors.values() for m in messages]


def restore_refused(problems: list[str]) -> tuple[str, int]:
    """The restore page again, saying why the file was refused."""
    return render_template("backups/restore.html", problems=problems), 422


def restored_message(imported: int, already_there: int) -> str:
    """What a restore did, in words."""
    said = ngettext("%(num)s evening restored.", "%(num)s evenings restored.", imported)
    if already_there:
        said += " " + ngettext(
            "%(num)s was already here and stays as it is.",
            "%(num)s were already here and stay as they are.",
            already_there,
        )
    return said
