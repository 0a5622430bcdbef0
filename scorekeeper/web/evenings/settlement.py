"""The settlement page: the end rule, nets, who pays whom with ticks, pairwise, the chart."""

from __future__ import annotations

from decimal import Decimal

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper import operations
from scorekeeper.core.rules.base import InvalidInputError
from scorekeeper.core.settlement import Payment
from scorekeeper.operations import carried_pots, payments_ticked, table_groups
from scorekeeper.operations.club_statistics import evening_highlights
from scorekeeper.web.evenings.presentation import chart, exact_money, tally_view
from scorekeeper.web.json_shapes import text
from scorekeeper.web.loading import view_or_404
from scorekeeper.web.writing import Answered, Written, write

bp = Blueprint("settlement", __name__)

#: The query and form field naming the end-of-evening rule shown (as in the API).
RULE_FIELD = "end_pot"


@bp.get("/evenings/<int:evening_id>/settlement")
def show(evening_id: int) -> str:
    """The settlement with the evening's end rule, or the one chosen on the page."""
    return render_page(view_or_404(evening_id), request.args.get(RULE_FIELD))


@bp.post("/evenings/<int:evening_id>/settlement/ticks")
def tick(evening_id: int) -> Response | tuple[str, int]:
    """Tick a payment off as paid, or undo a tick; then back to the page (PRG).

    Another tablet ticking the same payment at the same moment wins the race; this tick,
    run again, finds it and keeps it (``payments_ticked.tick``).
    """
    form = request.form
    rule = form.get(RULE_FIELD) or None
    payer, payee = form.get("payer", ""), form.get("payee", "")
    untick = form.get("action") == "untick"
    amount = 0 if untick else form.get("amount", 0, type=int)

    def make() -> Written[Response | tuple[str, int]]:
        current = view_or_404(evening_id)
        try:
            if untick:
                payments_ticked.untick(current, payer, payee)
            else:
                payments_ticked.tick(current, payer, payee, amount, rule=rule)
        except InvalidInputError as error:
            problems = [text(m) for messages in error.errors.values() for m in messages]
            raise Answered(
                lambda: (render_page(view_or_404(evening_id), rule, problems=problems), 422)
            ) from None
        target = url_for("settlement.show", evening_id=evening_id, end_pot=rule, _anchor="payments")
        return Written(redirect(target))

    return write(make)


def render_page(
    current: operations.EveningView, asked: str | None, problems: list[str] | None = None
) -> str:
    """The page for ``current`` with the rule ``asked`` (ignored unless it is a valid one)."""
    evening = current.evening
    if current.variant.keeps_tally:
        return render_template(
            "evenings/striche.html",
            current=current,
            highlights=evening_highlights(current),
            group=table_groups.group_of(evening.id),
            **tally_view(current),
        )
    try:
        rule = operations.read_end_rule(current, asked)
    except InvalidInputError:
        rule = None
    result = current.settlement(rule)
    parties = [p for p in current.all_players if p in result.net]
    parties += [p for p in result.net if p not in parties]
    rows, orphans = payments_ticked.payment_rows(
        result.transfers, payments_ticked.ticks_of(evening.id)
    )
    options = evening.options
    currency = options.get("currency", "")
    spec = next(
        (s for s in current.variant.option_specs if s.key == current.variant.end_rule_option),
        None,
    )
    return render_template(
        "evenings/settlement.html",
        current=current,
        result=result,
        parties=parties,
        rule=rule,
        rule_spec=spec,
        evening_rule=options.get(spec.key) if spec else None,
        shown_rule=result.rule,
        rows=rows,
        pairwise=by_payer(result.pairwise, parties),
        orphans=orphans,
        coin=int(Decimal(options.get("coin", "0.01")) * 100),
        rounding={p: exact_money(v, currency) for p, v in result.rounding.items()},
        chart=chart(current, result),
        problems=problems or [],
        highlights=evening_highlights(current),
        carry=carried_pots.links(evening.id),
        group=table_groups.group_of(evening.id),
    )


def by_payer(payments: tuple[Payment, ...], order: list[str]) -> list[Payment]:
    """Pairwise payments grouped by payer, both sides in the page's order of players."""
    rank = {p: i for i, p in enumerate(order)}
    return sorted(
        payments, key=lambda p: (rank.get(p.source, len(rank)), rank.get(p.target, len(rank)))
    )
