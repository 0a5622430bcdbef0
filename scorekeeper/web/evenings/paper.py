"""Typing a paper score sheet back in: a grid of the sheet's lines, checked as they are
typed and saved all at once (docs/recording.md "Back from paper").

The page works as a plain form (each "Check" shows every line's hand, payments and
running totals, or what to mend, in place); ``static/paper.js`` adds the keyboard's moves
and checks the lines as they are typed (``POST .../paper/check``, JSON). "Save all"
stores, in one transaction, every line before the first one refused; the page keeps that
line and the ones after it. The form's token is the save's request key: a double press
or a resend stores once. Who may use it is the evening's pages' rule (the organiser
alone at a tournament table, ``web/guard.py``).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import BooleanField, FieldList, Form, FormField, HiddenField, StringField
from wtforms.validators import Length

from scorekeeper import operations
from scorekeeper.core.rules.base import Message
from scorekeeper.core.sheet_codes import fact_legend, game_codes, player_codes
from scorekeeper.core.sheet_entry import SheetRow, contract_codes, one_player_writes
from scorekeeper.db.idempotency import MAX_KEY_LENGTH, StoredAnswer, fingerprint
from scorekeeper.operations import paper_sheets
from scorekeeper.operations.paper_sheets import Checked, LineChecked, PaperLine
from scorekeeper.web import access
from scorekeeper.web.json_shapes import text
from scorekeeper.web.loading import view_or_404
from scorekeeper.web.tournament_tables import table_for_evening
from scorekeeper.web.writing import Answered, Key, Written, write

bp = Blueprint("paper", __name__, url_prefix="/evenings/<int:evening_id>/paper")

#: Empty lines the page offers below those typed (the script adds more as they fill).
BLANK_LINES = 8
#: The longest text a column takes: a Misère's points of eight players with their codes.
COLUMN_LENGTH = 120


class LineForm(Form):
    """One line of the grid: its dealer and the sheet's four fact columns."""

    dealer = StringField(validators=[Length(max=20)])
    contract = StringField(validators=[Length(max=20)])
    who = StringField(validators=[Length(max=COLUMN_LENGTH)])
    points = StringField(validators=[Length(max=COLUMN_LENGTH)])
    extra = StringField(validators=[Length(max=COLUMN_LENGTH)])
    confirm = BooleanField()


class SheetForm(FlaskForm):  # type: ignore[misc]
    """The grid: its lines, the number its first line's hand gets, and its request key."""

    token = HiddenField()
    first = HiddenField()
    lines = FieldList(FormField(LineForm), max_entries=paper_sheets.MAX_LINES)


def paper_lines(form: SheetForm) -> list[PaperLine]:
    """The grid's lines as typed (blank ones are left out by the check)."""
    return [
        PaperLine(
            (entry.dealer.data or "").strip(),
            SheetRow(
                entry.contract.data or "",
                entry.who.data or "",
                entry.points.data or "",
                entry.extra.data or "",
            ),
            bool(entry.confirm.data),
        )
        for entry in (line.form for line in form.lines)
    ]


def new_form(current: operations.EveningView, lines: Sequence[PaperLine] = ()) -> SheetForm:
    """The grid with ``lines`` and blank ones after them, a fresh key, starting at the
    evening's next hand."""
    form = SheetForm(formdata=None)
    form.token.data = secrets.token_urlsafe(16)
    form.first.data = str(operations.next_number(current.evening))
    for line in [*lines, *(PaperLine() for _ in range(BLANK_LINES))][: paper_sheets.MAX_LINES]:
        form.lines.append_entry(
            {
                "dealer": line.dealer,
                "contract": line.row.contract,
                "who": line.row.who,
                "points": line.row.points,
                "extra": line.row.extra,
                "confirm": line.confirm,
            }
        )
    return form


def posted_form() -> SheetForm:
    """The grid as posted, with blank lines to go on typing."""
    form = SheetForm()
    missing = BLANK_LINES - sum(1 for line in paper_lines(form)[-BLANK_LINES:] if line.blank)
    for _ in range(max(0, min(missing, paper_sheets.MAX_LINES - len(form.lines)))):
        form.lines.append_entry()
    return form


def messages(found: Mapping[str, tuple[Message, ...]]) -> dict[str, list[str]]:
    """A line's messages by column, in the reader's language."""
    return {column: [text(m) for m in ms] for column, ms in found.items()}


def line_json(line: LineChecked, codes: Mapping[str, str]) -> dict[str, Any]:
    """A checked line as the page's script shows it."""
    out: dict[str, Any] = {"number": line.number, "state": line.state}
    if line.seated:
        out["seated"] = list(line.seated)
        out["dealer"] = codes.get(line.dealer or "", line.dealer)
    if line.result is not None:
        out["dealer"] = codes.get(line.dealer or "", line.dealer)
        out["deltas"] = line.result.deltas
        out["balances"] = dict(line.balances)
    if line.refused:
        out["refused"] = messages(line.refused)
    if line.to_confirm:
        out["confirm"] = messages(line.to_confirm)
    return out


def render_page(
    current: operations.EveningView,
    form: SheetForm,
    checked: Checked | None = None,
    *,
    status: int = 200,
) -> tuple[str, int]:
    """The grid, with each line's check when there is one."""
    variant = current.variant
    codes = game_codes(variant.game, keeps_tally=variant.keeps_tally)
    short = player_codes(current.all_players)
    by_line: list[LineChecked | None] = []
    if checked is not None:
        found = iter(checked.lines)
        by_line = [None if line.blank else next(found, None) for line in paper_lines(form)]
    page = render_template(
        "evenings/paper.html",
        current=current,
        form=form,
        columns=codes.columns,
        legend=fact_legend(codes.legend),
        short=short,
        checked=checked,
        by_line=by_line,
        proposed=short.get(current.next_table.dealer, current.next_table.dealer),
        contracts=list(contract_codes(variant.game, keeps_tally=variant.keeps_tally).values()),
        single_who=one_player_writes(
            variant.game, len(current.next_table.players), keeps_tally=variant.keeps_tally
        ),
        new_tables=table_for_evening(current.evening.id) is None,
    )
    return page, status


def refuse_closed(current: operations.EveningView) -> Response | None:
    """Back to the evening when it is closed: a closed evening takes no hand."""
    if current.evening.closed_at is None:
        return None
    flash(gettext("This evening is closed: reopen it to type hands in."), "warning")
    return redirect(url_for("evenings.history", evening_id=current.evening.id), 303)


@bp.get("")
def entry(evening_id: int) -> Response | tuple[str, int]:
    """The grid, starting at the evening's next hand with its totals carried."""
    current = view_or_404(evening_id)
    if (closed := refuse_closed(current)) is not None:
        return closed
    return render_page(current, new_form(current))


@bp.post("/check")
def check(evening_id: int) -> Response:
    """Every line checked, for the page's script: each line's state, hand number, the
    dealer, the payments and the totals after it, or its messages by column."""
    current = view_or_404(evening_id)
    form = SheetForm()
    checked = paper_sheets.check_lines(current, paper_lines(form))
    short = player_codes(current.all_players)
    return jsonify(
        {
            "first": checked.first,
            "good": checked.good,
            "lines": [line_json(line, short) for line in checked.lines],
        }
    )


@bp.post("")
def save(evening_id: int) -> Response | tuple[str, int]:
    """ "Check": the grid again with every line checked. "Save all": the good lines
    stored as the evening's next hands, the rest kept on the page to mend."""
    current = view_or_404(evening_id)
    if (closed := refuse_closed(current)) is not None:
        return closed
    form = posted_form()
    if not form.validate():
        return render_page(current, form, status=422)
    lines = paper_lines(form)
    if request.form.get("action") != "save":
        return render_page(current, form, paper_sheets.check_lines(current, lines))
    token = form.token.data or ""
    if not token or len(token) > MAX_KEY_LENGTH:
        form.token.data = secrets.token_urlsafe(16)
        return render_page(current, form, paper_sheets.check_lines(current, lines), status=422)
    typed = [line for line in lines if not line.blank]
    key = Key(
        f"evening:{evening_id}",
        access.requester(),
        f"paper:{token}",
        fingerprint("POST", request.path, {"first": form.first.data, "lines": repr(typed)}),
    )

    def repeated(stored: StoredAnswer, same: bool) -> Response | tuple[str, int]:
        if same:
            return after_save(evening_id, typed, int(stored.body.get("saved", 0)))
        flash(
            gettext(
                "These lines were saved from this page before, as they then were: check "
                "them against the hands stored now and save again."
            ),
            "warning",
        )
        return left_page(evening_id, typed, 0)

    first = form.first.data or ""
    return write(
        lambda: store(evening_id, typed, int(first) if first.isdigit() else 0),
        key=key,
        repeated=repeated,
    )


def store(
    evening_id: int, typed: list[PaperLine], first: int
) -> Written[Response | tuple[str, int]]:
    """Store the good lines; nothing when none is good, or when the evening has moved
    on since the page was made."""
    try:
        checked = paper_sheets.store_lines(evening_id, typed, first)
    except paper_sheets.SheetMovedError:
        raise Answered(lambda: moved_page(evening_id, typed)) from None
    if checked.good == 0:
        raise Answered(lambda: left_page(evening_id, typed, 0))
    kept = ({"saved": checked.good}, 200, None)
    return Written(after_save(evening_id, typed, checked.good), kept)


def after_save(evening_id: int, typed: list[PaperLine], saved: int) -> Response | tuple[str, int]:
    """The answer once the first ``saved`` lines are stored: the evening's hands when
    every line was; else the grid with the lines left."""
    if saved == len(typed):
        flash(ngettext("%(num)s hand was saved.", "%(num)s hands were saved.", saved))
        return redirect(url_for("evenings.history", evening_id=evening_id), 303)
    flash(
        ngettext(
            "%(num)s hand was saved. The lines below are not saved yet: mend the first one "
            "marked and save again.",
            "%(num)s hands were saved. The lines below are not saved yet: mend the first "
            "one marked and save again.",
            saved,
        )
    )
    return left_page(evening_id, typed, saved)


def moved_page(evening_id: int, typed: list[PaperLine]) -> tuple[str, int]:
    """The grid kept whole when a hand was stored in the evening since it was made."""
    flash(
        gettext(
            "A hand was stored in this evening meanwhile, so nothing was saved. The lines "
            "now start after it: check them and save again."
        ),
        "warning",
    )
    page, _ = left_page(evening_id, typed, 0)
    return page, 409


def left_page(evening_id: int, typed: list[PaperLine], saved: int) -> tuple[str, int]:
    """The grid with the lines after the first ``saved`` ones, checked against the
    evening as it now stands (422 when nothing could be saved)."""
    current = view_or_404(evening_id)
    left = typed[saved:]
    checked = paper_sheets.check_lines(current, left)
    return render_page(current, new_form(current, left), checked, status=200 if saved else 422)
