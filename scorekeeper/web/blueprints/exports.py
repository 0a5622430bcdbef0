"""Printouts and archives of an evening: PDFs, CSV, the JSON archive and its import, and
closing an evening once its settlement is signed."""

from __future__ import annotations

import json
from decimal import Decimal

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import force_locale, gettext
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import operations
from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import InvalidInputError
from scorekeeper.db.models import Evening
from scorekeeper.operations import carried_pots, evening_archives, payments_ticked, table_groups
from scorekeeper.operations.club_statistics import evening_highlights
from scorekeeper.web import csv_exports, json_limits
from scorekeeper.web.bodies import takes_upload
from scorekeeper.web.hand_forms import hand_form
from scorekeeper.web.json_shapes import text
from scorekeeper.web.pdf import render_pdf
from scorekeeper.web.presentation import chart, exact_money, tally_view
from scorekeeper.web.writing import Answered, Written, write

bp = Blueprint("exports", __name__)


def load(evening_id: int) -> Evening:
    """The evening, or 404."""
    evening = operations.get_evening(evening_id)
    if evening is None:
        abort(404)
    return evening


def filename(evening: Evening, what: str, ext: str) -> str:
    """A file name people recognise in their downloads: date, what, evening number."""
    day = (evening.date or evening.created_at.date()).isoformat()
    return f"{day}-{what}-{evening.id}.{ext}"


def download(data: bytes | str, mimetype: str, name: str, *, inline: bool = False) -> Response:
    """A file answer with a sensible name."""
    response = Response(data, mimetype=mimetype)
    kind = "inline" if inline else "attachment"
    response.headers["Content-Disposition"] = f'{kind}; filename="{name}"'
    return response


def sheet_pdf_bytes(evening: Evening) -> bytes:
    """The score sheet of ``evening`` as PDF."""
    current = operations.view(evening)
    with force_locale(evening.language):
        drawn = chart(current, current.settlement())
    return render_pdf(
        "pdf/sheet.html",
        language=evening.language,
        current=current,
        hands={h.number: h for h in evening.hands},
        sheet_macros=hand_form(get_variant(evening.game, evening.variant)).sheet_macros,
        chart=drawn,
        group=table_groups.group_of(evening),
    )


def settlement_pdf_bytes(evening: Evening, asked: str | None) -> bytes:
    """The settlement of ``evening`` as PDF, with the end rule asked for (or its own).

    Games without money print their Striche sheet instead, with the Tagessieger.
    """
    current = operations.view(evening)
    if current.variant.keeps_tally:
        return render_pdf(
            "pdf/striche.html",
            language=evening.language,
            current=current,
            highlights=evening_highlights(current),
            group=table_groups.group_of(evening),
            **tally_view(current),
        )
    rule = operations.read_end_rule(current, asked)
    result = current.settlement(rule)
    parties = [p for p in current.all_players if p in result.net]
    parties += [p for p in result.net if p not in parties]
    currency = evening.options.get("currency", "")
    spec = next(
        (s for s in current.variant.option_specs if s.key == current.variant.end_rule_option),
        None,
    )
    with force_locale(evening.language):
        rounding = {p: exact_money(v, currency) for p, v in result.rounding.items()}
    return render_pdf(
        "pdf/settlement.html",
        language=evening.language,
        current=current,
        result=result,
        parties=parties,
        rule_spec=spec,
        coin=int(Decimal(evening.options.get("coin", "0.01")) * 100),
        rounding=rounding,
        rows=payments_ticked.payment_rows(result.transfers, payments_ticked.ticks_of(evening))[0],
        highlights=evening_highlights(current),
        carry=carried_pots.links(evening.id),
        group=table_groups.group_of(evening),
    )


@bp.get("/evenings/<int:evening_id>/sheet.pdf")
def sheet_pdf(evening_id: int) -> Response:
    """The score sheet: every hand, running balances, the chart."""
    evening = load(evening_id)
    return download(
        sheet_pdf_bytes(evening), "application/pdf", filename(evening, "sheet", "pdf"), inline=True
    )


@bp.get("/evenings/<int:evening_id>/settlement.pdf")
def settlement_pdf(evening_id: int) -> Response:
    """The settlement to sign: results, payments with tick boxes, the pairwise table."""
    evening = load(evening_id)
    data = settlement_pdf_bytes(evening, request.args.get("end_pot"))
    return download(data, "application/pdf", filename(evening, "settlement", "pdf"), inline=True)


@bp.get("/evenings/<int:evening_id>/hands.csv")
def hands_csv(evening_id: int) -> Response:
    """Every hand as a spreadsheet row."""
    evening = load(evening_id)
    data = csv_exports.hands_csv(operations.view(evening))
    return download(data, "text/csv", filename(evening, "hands", "csv"))


@bp.get("/evenings/<int:evening_id>/settlement.csv")
def settlement_csv(evening_id: int) -> Response:
    """The settlement as a spreadsheet."""
    evening = load(evening_id)
    current = operations.view(evening)
    if current.variant.keeps_tally:
        data = csv_exports.tally_csv(current)
    else:
        rule = operations.read_end_rule(current, request.args.get("end_pot"))
        data = csv_exports.settlement_csv(current, current.settlement(rule))
    return download(data, "text/csv", filename(evening, "settlement", "csv"))


@bp.get("/evenings/<int:evening_id>/export.json")
def export_json(evening_id: int) -> Response:
    """The whole evening as a JSON archive, for another installation or a backup."""
    evening = load(evening_id)
    data = json.dumps(evening_archives.export_evening(evening), ensure_ascii=False, indent=1)
    return download(data, "application/json", filename(evening, "evening", "json"))


@bp.post("/evenings/<int:evening_id>/close")
def close(evening_id: int) -> BaseResponse:
    """Close the evening: it becomes read-only until reopened."""

    def make() -> Written[BaseResponse]:
        operations.set_closed(load(evening_id), True, source="page")
        flash(gettext("The evening is closed. Reopen it from the settlement page if needed."))
        return Written(redirect(url_for("settlement.show", evening_id=evening_id), 303))

    return write(make)


@bp.post("/evenings/<int:evening_id>/reopen")
def reopen(evening_id: int) -> BaseResponse:
    """Reopen a closed evening; the history keeps that it was closed."""

    def make() -> Written[BaseResponse]:
        operations.set_closed(load(evening_id), False, source="page")
        flash(gettext("The evening is open again."))
        return Written(redirect(url_for("settlement.show", evening_id=evening_id), 303))

    return write(make)


class NotJSONError(Exception):
    """An uploaded file that is not JSON text."""


def read_json(raw: bytes) -> object:
    """The JSON in an uploaded file.

    Nesting deeper than ``json_limits.MAX_DEPTH`` is refused before parsing
    (``json_limits.TooDeepError``). Besides bad syntax and bad UTF-8 the parser fails on
    numbers of thousands of digits (ValueError); and it accepts lone surrogates
    (``"\\ud800"``), which are no text a database could store.
    """
    json_limits.check_file(raw)
    try:
        data = json.loads(raw.decode("utf-8"))
        json.dumps(data, ensure_ascii=False).encode()
    except (UnicodeError, ValueError, RecursionError):
        raise NotJSONError from None
    return data


@bp.get("/import")
def import_form() -> str:
    """Upload an evening archive."""
    return render_template("evenings/import.html", problems=[])


@bp.post("/import")
@takes_upload
def import_upload() -> BaseResponse | tuple[str, int]:
    """Store an uploaded archive as a new evening, or say why the file is refused."""
    upload = request.files.get("archive")
    if upload is None or not upload.filename:
        return import_refused([gettext("Choose the archive file (.json) to import.")])
    try:
        data = read_json(upload.read())
    except NotJSONError:
        return import_refused([gettext("This file is not an evening archive (not JSON).")])
    except json_limits.TooDeepError as error:
        abort(400, description=" ".join(text(m) for m in error.errors["file"]))

    def make() -> Written[BaseResponse | tuple[str, int]]:
        try:
            evening = evening_archives.import_evening(data, source="page")
        except InvalidInputError as error:
            problems = [text(m) for ms in error.errors.values() for m in ms]
            raise Answered(lambda: import_refused(problems)) from None
        flash(gettext("The evening was imported."))
        return Written(redirect(url_for("evenings.show", evening_id=evening.id), 303))

    return write(make)


def import_refused(problems: list[str]) -> tuple[str, int]:
    """The import page again, saying why the file was refused."""
    return render_template("evenings/import.html", problems=problems), 422
