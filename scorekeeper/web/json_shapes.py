"""JSON shapes of docs/api.md, built explicitly from the derived views."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import get_translations

from scorekeeper.core.ledger import HandResult
from scorekeeper.core.money import cents_to_str, exact_to_str
from scorekeeper.core.rules.base import Message
from scorekeeper.core.rules.eisten_stalden import leaders
from scorekeeper.core.settlement import Payment, Settlement
from scorekeeper.core.statistics import Highlights
from scorekeeper.db.models import HandRevision
from scorekeeper.operations import EveningSummary, EveningView
from scorekeeper.operations.facts import EveningFacts, HandFact


def text(message: Message, translate: Callable[[str], str] | None = None) -> str:
    """A core message in the request's language (``translate``: ``translator()``, looked
    up once for a whole answer rather than for each message)."""
    return message.render(translate or translator())


def translator() -> Callable[[str], str]:
    """The request's catalogue as a function of the message."""
    return get_translations().gettext  # type: ignore[no-any-return]


def errors_json(errors: dict[str, tuple[Message, ...]]) -> dict[str, list[str]]:
    """Per-field messages in the request's language."""
    translate = translator()
    return {field: [text(m, translate) for m in messages] for field, messages in errors.items()}


def hand_json(current: EveningView, result: HandResult, hand: HandFact) -> dict[str, Any]:
    """One hand as the evening shows it."""
    table = result.record.table
    translate = translator()
    out: dict[str, Any] = {
        "number": hand.number,
        "dealer": table.dealer,
        "forehand": table.forehand,
        "players": list(table.players),
        "version": hand.version,
        "input": hand.input,
        "deltas": result.deltas,
        **result.common,
        "lines": [
            {"label": text(line.label, translate), "amounts": line.amounts()}
            for line in result.score.lines
        ],
    }
    if current.variant.keeps_tally:
        out["striche"] = result.tally
    if hasattr(current.variant, "kasse_view"):
        out["kasse"] = kasse_json(current, result.state)
        out["kasse_deltas"] = {p: cents_to_str(c) for p, c in result.money_deltas.items()}
    if hand.void_reason is not None:
        out["void"] = {"reason": hand.void_reason}
    return out


def kasse_json(current: EveningView, state: Any) -> dict[str, Any]:
    """A Pagatkasse (Doppen): its contents and what each player owes it, as money."""
    kasse = current.variant.kasse_view(state)  # type: ignore[attr-defined]
    return {
        "contents": cents_to_str(kasse.contents),
        "owed": {p: cents_to_str(a) for p, a in kasse.owed().items()},
    }


def aufschreib_json(current: EveningView) -> dict[str, Any]:
    """Doppen's paper sheet: the column per player, the Kasse, and money moved so far."""
    state = current.ledger.state
    return {
        "columns": current.variant.columns(state),  # type: ignore[attr-defined]
        "kasse": kasse_json(current, state),
        "kasse_paid": {
            p: cents_to_str(current.ledger.money.get(p, 0)) for p in current.all_players
        },
    }


def tally_json(current: EveningView) -> dict[str, Any]:
    """The Striche so far and the Tagessieger (shared on a tie), for games that keep them."""
    tally = {p: current.ledger.tally.get(p, 0) for p in current.all_players}
    return {"striche": tally, "leaders": list(leaders(tally))}


def evening_json(current: EveningView) -> dict[str, Any]:
    """The evening with its ledger (``GET /api/v1/evenings/{id}``)."""
    evening = current.evening
    hands = {h.number: h for h in evening.hands}
    return {
        "id": evening.id,
        "game": evening.game,
        "variant": evening.variant,
        "title": evening.title,
        "place": evening.place,
        "date": evening.date.isoformat() if evening.date else None,
        "version": evening.version,
        "language": evening.language,
        "closed": evening.closed_at is not None,
        "players": list(current.players),
        "all_players": list(current.all_players),
        "options": evening.options,
        "hands": [hand_json(current, r, hands[r.record.number]) for r in current.ledger.hands],
        "balances": {p: current.ledger.balances.get(p, 0) for p in current.all_players},
        **current.ledger.common,
        **(carried_json(evening) if current.variant.carry_choice else {}),
        "next_dealer": current.next_table.dealer,
        "next_forehand": current.next_table.forehand,
        **(tally_json(current) if current.variant.keeps_tally else {}),
        **(aufschreib_json(current) if hasattr(current.variant, "kasse_view") else {}),
    }


def carried_json(evening: EveningFacts) -> dict[str, Any]:
    """The pot an evening took over and from which evening, and the evening its own pot
    went to (docs/troggen.md §8)."""
    return {
        "carried_in": evening.carried_in,
        "carried_from": evening.carried_from,
        "carried_to": evening.carried_to,
    }


def evening_summary(summary: EveningSummary) -> dict[str, Any]:
    """An evening in the list."""
    evening = summary.evening
    return {
        "id": evening.id,
        "game": evening.game,
        "variant": evening.variant,
        "title": evening.title,
        "date": evening.date.isoformat() if evening.date else None,
        "players": list(summary.players),
        "hands": summary.hands,
        "created_at": evening.created_at.isoformat(),
        "last_activity": summary.last_activity.isoformat(),
    }


def payments_json(payments: tuple[Payment, ...]) -> list[dict[str, str]]:
    """Payments with money as decimal strings."""
    return [{"from": p.source, "to": p.target, "amount": cents_to_str(p.amount)} for p in payments]


def settlement_json(current: EveningView, result: Settlement) -> dict[str, Any]:
    """``GET /api/v1/evenings/{id}/settlement``; the Striche table for games without money."""
    if current.variant.keeps_tally:
        return tally_json(current)
    options = current.evening.options
    order = [p for p in current.all_players if p in result.net]
    order += [p for p in result.net if p not in order]
    out: dict[str, Any] = {
        "currency": options.get("currency"),
        "unit_value": options.get("unit_value"),
        "coin": options.get("coin"),
        "rule": result.rule,
        "final": {p: result.final[p] for p in order},
        "net": {p: cents_to_str(result.net[p]) for p in order},
        "rounding": {p: exact_to_str(v) for p, v in result.rounding.items()},
        "transfers": payments_json(result.transfers),
        "pairwise": payments_json(result.pairwise),
        "closing": [
            {"label": text(line.label), "amounts": line.amounts()} for line in result.closing
        ],
    }
    if hasattr(current.variant, "kasse_view"):
        resolved = {
            p: a
            for line in result.closing
            if line.money
            for p, a in line.amounts().items()
            if p not in current.variant.common_accounts
        }
        out["kasse"] = {
            **kasse_json(current, current.ledger.state),
            "resolved": {p: cents_to_str(a) for p, a in resolved.items()},
            "money": {p: cents_to_str(result.money.get(p, 0)) for p in order},
        }
    for account, held in current.ledger.common.items():
        shares = {
            p: a for line in result.closing for p, a in line.amounts().items() if p != account
        }
        out[account] = {"jetons": held, "rule": result.rule, "shares": shares}
    return out


def revision_json(revision: HandRevision) -> dict[str, Any]:
    """One version of a hand."""
    out: dict[str, Any] = {
        "version": revision.version,
        "input": revision.input,
        "at": revision.at.isoformat().replace("+00:00", "Z"),
        "source": revision.source,
    }
    if revision.void_reason is not None:
        out["void"] = {"reason": revision.void_reason}
    if revision.reason:
        out["correction"] = revision.reason
    return out


def highlights_json(found: Highlights) -> dict[str, Any]:
    """An evening's highlights (null where the game has none, a pot for instance)."""
    pot, run, best, bids = found.biggest_pot, found.longest_carry, found.best_hand, found.most_bids
    return {
        "biggest_pot": pot
        and {"hand": pot.hand, "amount": pot.amount, "winner": pot.winner, "partner": pot.partner},
        "longest_carry": run
        and {
            "first_hand": run.first_hand,
            "last_hand": run.last_hand,
            "hands": run.hands,
            "pot": run.pot,
        },
        "best_hand": best and {"hand": best.hand, "player": best.player, "amount": best.amount},
        "most_bids": bids and {"players": list(bids.players), "hands": bids.hands},
    }
