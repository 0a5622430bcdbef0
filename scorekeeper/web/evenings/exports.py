"""Printouts and archives of an evening: PDFs, CSV, the JSON archive and its import, and
closing an evening once its settlement is signed."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    g,
    has_request_context,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import force_locale, gettext, ngettext
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import operations
from scorekeeper.core import json_limits
from scorekeeper.core.rules.base import InvalidInputError, Table
from scorekeeper.core.sheet_codes import fact_legend, game_codes, player_codes
from scorekeeper.db import unit_of_work
from scorekeeper.operations import (
    archive_import,
    carried_pots,
    evening_archives,
    payments_ticked,
    print_keys,
    table_groups,
)
from scorekeeper.operations import evenings as evenings_ops
from scorekeeper.operations.club_statistics import evening_highlights
from scorekeeper.operations.facts import EveningFacts
from scorekeeper.web import printouts
from scorekeeper.web.bodies import takes_upload
from scorekeeper.web.evenings import csv_exports
from scorekeeper.web.evenings.pairwise_table import pairwise_table
from scorekeeper.web.evenings.presentation import exact_money, tally_view
from scorekeeper.web.evenings.score_sheet import build_sheet
from scorekeeper.web.evenings.sheet_end import party, sheet_end
from scorekeeper.web.jinja_filters import day, decimal, money, void_reason
from scorekeeper.web.json_shapes import text
from scorekeeper.web.loading import view_or_404
from scorekeeper.web.pdf import pdf_of, printed_html, render_pdf
from scorekeeper.web.printouts import Printout
from scorekeeper.web.tournament_tables import table_for_evening
from scorekeeper.web.writing import Answered, Written, write

bp = Blueprint("exports", __name__)


def filename(evening: EveningFacts, what: str, ext: str) -> str:
    """A file name people recognise in their downloads: date, what, evening number."""
    return named((evening.date or evening.created_at.date()).isoformat(), evening.id, what, ext)


def named(day: str, evening_id: int, what: str, ext: str) -> str:
    """A file's name from its day (ISO), the evening's number, what it holds and its
    extension; printouts name theirs by their key's ``day`` (``print_keys``)."""
    return f"{day}-{what}-{evening_id}.{ext}"


def download(data: bytes | str, mimetype: str, name: str, *, inline: bool = False) -> Response:
    """A file answer with a sensible name."""
    response = Response(data, mimetype=mimetype)
    kind = "inline" if inline else "attachment"
    response.headers["Content-Disposition"] = f'{kind}; filename="{name}"'
    return response


def sheet_heading(current: operations.EveningView, group: str | None) -> list[str]:
    """The texts above the sheet's first table: the title, what was played where and for
    how much, the house rules, a pot carried in."""
    ev = current.evening
    options = ev.options
    about = [text(current.variant.title), group or "", day(ev.date) if ev.date else "", ev.place]
    if options.get("unit_value"):
        value = decimal(options["unit_value"], options.get("currency", ""))
        about.append(f"{gettext('Unit value')}: {value}")
    rules = [
        f"{text(spec.label)}: {text(label)}"
        for spec in current.variant.option_specs
        if spec.choices
        for value, label in spec.choices
        if value == options.get(spec.key)
    ]
    heading = [ev.title or text(current.variant.title), " · ".join(a for a in about if a)]
    if rules:
        heading.append(" · ".join(rules))
    if hasattr(current.variant, "kasse_view"):
        heading.append(
            f"{gettext('Aufschreibsystem')}: "
            + gettext(
                "Each hand's result goes into the soloist's column. At the end, each player "
                "pays every other the difference of their columns."
            )
            + " "
            + gettext(
                "The Kasse column holds what everybody is noted for; a player's own notes (a "
                "revoke, a lost announced Pagat) stand at the foot of their column."
            )
        )
    if current.variant.keeps_tally:
        heading.append(gettext("A stroke marks each Strich; the last row counts them."))
    if current.ledger.carried_in:
        heading.append(
            ngettext(
                "(opened with %(num)s jeton carried in)",
                "(opened with %(num)s jetons carried in)",
                current.ledger.carried_in,
            )
        )
    return heading


#: Where a request keeps the evenings it closed until its answer is made.
CLOSED_AHEAD = "printouts_closed"
#: A score sheet of more hands than this (five pages of 35) is a long printout: its own
#: print workers render it (``web/printouts.py``).
LONG_HANDS = 5 * 35
#: A score sheet prints in parts of this many hands: at most about 30 s of work each on
#: two cores (docs/server.md "Printouts kept, handed on and asked ahead").
PART_HANDS = 1000


def sheet_parts(last_hand: int) -> list[tuple[int, int]]:
    """The hand numbers (first, last) of each part of a sheet up to ``last_hand``; one
    part for an evening of up to ``PART_HANDS`` hands.

    >>> sheet_parts(2500)
    [(1, 1000), (1001, 2000), (2001, 2500)]
    """
    return [
        (first, min(first + PART_HANDS - 1, last_hand))
        for first in range(1, max(last_hand, 1) + 1, PART_HANDS)
    ]


bp.add_app_template_global(sheet_parts, "sheet_parts")


def sheet_html(current: operations.EveningView, hands: tuple[int, int] | None = None) -> str:
    """The score sheet of ``current`` (or of the hands numbered ``hands``, a part) as the
    HTML WeasyPrint sets, laid out as paper (``web/evenings/score_sheet.py``)."""
    evening = current.evening
    group = table_groups.group_of(evening.id)
    stored = evening.hands
    reasons = {h.number: void_reason(h.void_reason) for h in stored if h.void_reason}
    part = None
    with force_locale(evening.language):
        heading = sheet_heading(current, group.name if group else None)
        sheet = build_sheet(current, void_reasons=reasons, heading=heading, hands=hands)
        end = sheet_end(current) if sheet.last else None
        if hands is not None:
            part = gettext("Part with hands %(first)s to %(last)s", first=hands[0], last=hands[1])
    return printed_html(
        "pdf/sheet.html",
        language=evening.language,
        current=current,
        sheet=sheet,
        heading=heading,
        end=end,
        part=part,
    )


def sheet_pdf_bytes(current: operations.EveningView, hands: tuple[int, int] | None = None) -> bytes:
    """The score sheet of ``current`` (or one part of it) as PDF."""
    return pdf_of(sheet_html(current, hands))


def sheet_printout(evening_id: int) -> Printout | list[tuple[int, int]]:
    """The score sheet asked for (``part`` in the query for a long evening's part), or the
    parts when the evening is too long for one printout and no part was asked."""
    parts = print_keys.evening_print_parts(evening_id)
    if parts is None:
        abort(404)
    pieces = sheet_parts(print_keys.last_hand(parts))
    asked = request.args.get("part", type=int)
    if asked is None and len(pieces) > 1:
        return pieces
    if asked is not None and not 1 <= asked <= len(pieces):
        abort(404)
    hands = pieces[asked - 1] if asked is not None and len(pieces) > 1 else None
    name = named(parts["day"], evening_id, "sheet" if hands is None else f"sheet-{asked}", "pdf")
    printed = print_keys.hand_count(parts) if hands is None else hands[1] - hands[0] + 1
    return Printout(
        "sheet",
        {**parts, "hands": hands},
        name,
        lambda: sheet_pdf_bytes(view_or_404(evening_id), hands),
        long=printed > LONG_HANDS,
    )


def settlement_pdf_bytes(current: operations.EveningView, asked: str | None) -> bytes:
    """The settlement of ``current`` as PDF, with the end rule asked for (or its own).

    Games without money print their Striche sheet instead, with the Tagessieger.
    """
    evening = current.evening
    if current.variant.keeps_tally:
        return render_pdf(
            "pdf/striche.html",
            language=evening.language,
            current=current,
            highlights=evening_highlights(current),
            group=table_groups.group_of(evening.id),
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
    ticks = payments_ticked.ticks_of(evening.id)
    with force_locale(evening.language):
        rounding = {p: exact_money(v, currency) for p, v in result.rounding.items()}
        amounts = [money(p.amount, currency) for p in result.pairwise]
        pairwise = pairwise_table(parties, party, amounts)
    return render_pdf(
        "pdf/settlement.html",
        language=evening.language,
        current=current,
        result=result,
        parties=parties,
        rule_spec=spec,
        coin=int(Decimal(evening.options.get("coin", "0.01")) * 100),
        rounding=rounding,
        pairwise=pairwise,
        rows=payments_ticked.payment_rows(result.transfers, ticks)[0],
        highlights=evening_highlights(current),
        carry=carried_pots.links(evening.id),
        group=table_groups.group_of(evening.id),
    )


@bp.get("/evenings/<int:evening_id>/sheet.pdf")
def sheet_pdf(evening_id: int) -> BaseResponse:
    """The score sheet as paper: every hand on a line, the totals carried page to page; a
    long evening's sheet part by part (``?part=``), listed on ``sheet_parts_page``."""
    found = sheet_printout(evening_id)
    if isinstance(found, list):
        return redirect(url_for("exports.sheet_parts_page", evening_id=evening_id), 303)
    return printouts.answer(found)


@bp.get("/evenings/<int:evening_id>/sheet")
def sheet_parts_page(evening_id: int) -> str:
    """A long evening's score sheet offered in parts, each its own PDF."""
    evening = view_or_404(evening_id).evening
    parts = print_keys.evening_print_parts(evening_id)
    assert parts is not None
    return render_template(
        "evenings/sheet_parts.html",
        evening=evening,
        parts=sheet_parts(print_keys.last_hand(parts)),
    )


#: The lines of a blank score sheet: a page of hands, under any game's legend.
BLANK_LINES = 26


def blank_sheet_pdf_bytes(current: operations.EveningView) -> bytes:
    """A blank score sheet that asks for the facts of the evening's next hands, in the
    columns its page for typing a paper sheet back in has (docs/recording.md "Back from
    paper"): the dealers as the rotation proposes them, the players' codes, the legend."""
    variant = current.variant
    known = current.all_players
    codes = game_codes(variant.game, keeps_tally=variant.keeps_tally)
    table = current.next_table
    first = operations.next_number(current.evening)
    rows = []
    for number in range(first, first + BLANK_LINES):
        rows.append((number, known.index(table.dealer) + 1, table.dealer))
        table = Table(table.players, table.after(table.dealer))
    return render_pdf(
        "pdf/blank_sheet.html",
        language=current.evening.language,
        current=current,
        columns=codes.columns,
        legend=fact_legend(codes.legend),
        seated=list(enumerate(known, start=1)),
        codes=player_codes(known),
        rows=rows,
        row_mm=7,
        variant_game=variant.game,
        keeps_tally=variant.keeps_tally,
    )


@bp.get("/evenings/<int:evening_id>/blank-sheet.pdf")
def blank_sheet_pdf(evening_id: int) -> Response:
    """A blank score sheet for the evening's next hands, for a table without its tablet."""
    parts = print_keys.evening_print_parts(evening_id)
    if parts is None:
        abort(404)
    return printouts.answer(
        Printout(
            "blank-sheet",
            parts,
            named(parts["day"], evening_id, "blank-sheet", "pdf"),
            lambda: blank_sheet_pdf_bytes(view_or_404(evening_id)),
        )
    )


def settlement_printout(evening_id: int) -> Printout:
    """The settlement printout asked for (``end_pot`` tries another end rule)."""
    parts = print_keys.evening_print_parts(evening_id)
    if parts is None:
        abort(404)
    asked = request.args.get("end_pot")
    return Printout(
        "settlement",
        {**parts, "end_pot": asked},
        named(parts["day"], evening_id, "settlement", "pdf"),
        lambda: settlement_pdf_bytes(view_or_404(evening_id), asked),
    )


@bp.get("/evenings/<int:evening_id>/settlement.pdf")
def settlement_pdf(evening_id: int) -> Response:
    """The settlement to sign: results, payments with tick boxes, the pairwise table."""
    return printouts.answer(settlement_printout(evening_id))


@bp.get("/evenings/<int:evening_id>/hands.csv")
def hands_csv(evening_id: int) -> Response:
    """Every hand as a spreadsheet row."""
    current = view_or_404(evening_id)
    data = csv_exports.hands_csv(current)
    return download(data, "text/csv", filename(current.evening, "hands", "csv"))


@bp.get("/evenings/<int:evening_id>/settlement.csv")
def settlement_csv(evening_id: int) -> Response:
    """The settlement as a spreadsheet."""
    current = view_or_404(evening_id)
    evening = current.evening
    if current.variant.keeps_tally:
        data = csv_exports.tally_csv(current)
    else:
        rule = operations.read_end_rule(current, request.args.get("end_pot"))
        data = csv_exports.settlement_csv(current, current.settlement(rule))
    return download(data, "text/csv", filename(evening, "settlement", "csv"))


@bp.get("/evenings/<int:evening_id>/export.json")
def export_json(evening_id: int) -> Response:
    """The whole evening as a JSON archive, for another installation or a backup."""
    evening = view_or_404(evening_id).evening
    archive = evening_archives.archive_of(evening_id)
    data = json.dumps(archive, ensure_ascii=False, indent=1)
    return download(data, "application/json", filename(evening, "evening", "json"))


@bp.post("/evenings/<int:evening_id>/close")
def close(evening_id: int) -> BaseResponse:
    """Close the evening: it becomes read-only until reopened."""

    def make() -> Written[BaseResponse]:
        view_or_404(evening_id)
        operations.set_closed(evening_id, True, source="page")
        flash(gettext("The evening is closed. Reopen it from the settlement page if needed."))
        return Written(redirect(url_for("settlement.show", evening_id=evening_id), 303))

    return write(make)


@unit_of_work.when_committed
def _note_closed(info: dict[str, Any]) -> None:
    """The evenings a committed unit of work closed wait for the end of the request."""
    closed = info.pop(evenings_ops.CLOSED, None)
    if closed and has_request_context():
        g.setdefault(CLOSED_AHEAD, set()).update(closed)


@unit_of_work.when_rolled_back
def _forget_closed(info: dict[str, Any]) -> None:
    info.pop(evenings_ops.CLOSED, None)


@bp.after_app_request
def _print_closed(response: BaseResponse) -> BaseResponse:
    """Once the answer is made, ask for the closed evenings' printouts ahead; a tournament
    table's are left to the tournament's own (its results and standings)."""
    for evening_id in sorted(g.pop(CLOSED_AHEAD, ())):
        if table_for_evening(evening_id) is None:
            print_closed_ahead(evening_id)
    return response


def print_closed_ahead(evening_id: int) -> None:
    """Once an evening is closed, its score sheet and settlement are asked of the print
    workers, so the tap at midnight finds them printed (``printouts.print_ahead``)."""
    parts = print_keys.evening_print_parts(evening_id)
    if parts is None:
        return
    pieces = sheet_parts(print_keys.last_hand(parts))
    sheets = (
        [url_for("exports.sheet_pdf", evening_id=evening_id)]
        if len(pieces) == 1
        else [
            url_for("exports.sheet_pdf", evening_id=evening_id, part=n)
            for n in range(1, len(pieces) + 1)
        ]
    )
    hands = (
        [print_keys.hand_count(parts)]
        if len(pieces) == 1
        else [last - first + 1 for first, last in pieces]
    )
    printouts.print_ahead(
        [
            *((path, count > LONG_HANDS) for path, count in zip(sheets, hands, strict=True)),
            (url_for("exports.settlement_pdf", evening_id=evening_id), False),
        ]
    )


@bp.post("/evenings/<int:evening_id>/reopen")
def reopen(evening_id: int) -> BaseResponse:
    """Reopen a closed evening; the history keeps that it was closed."""

    def make() -> Written[BaseResponse]:
        view_or_404(evening_id)
        operations.set_closed(evening_id, False, source="page")
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
            evening = archive_import.import_evening(data, source="page")
        except InvalidInputError as error:
            problems = [text(m) for ms in error.errors.values() for m in ms]
            raise Answered(lambda: import_refused(problems)) from None
        flash(gettext("The evening was imported."))
        return Written(redirect(url_for("evenings.show", evening_id=evening.id), 303))

    return write(make)


def import_refused(problems: list[str]) -> tuple[str, int]:
    """The import page again, saying why the file was refused."""
    return render_template("evenings/import.html", problems=problems), 422
