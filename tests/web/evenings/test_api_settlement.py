"""API: the settlement with each end-of-evening rule, and a middle hand edited."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import PLAYERS4, PLAYERS5

LOST_DOPPELT = {"contract": "doppelt", "bidder": "Anna", "partner": "Dora", "points": 30}
MISERE = {
    "contract": "misere",
    "points": {"Anna": 8, "Bert": 20, "Clara": 12, "Dora": 15, "Emil": 12},
}


@pytest.fixture
def open_pot(create_evening: Callable[..., int], record_hand: Callable[..., Any]) -> int:
    """G5's first two hands: 26 jetons left in the pot (A 8, B 6, C/D/E 4 each)."""
    evening = create_evening(PLAYERS5, first_dealer="Emil")
    record_hand(evening, LOST_DOPPELT)
    record_hand(evening, MISERE)
    return evening


def total(amounts: dict[str, str]) -> Decimal:
    """Sum of money strings."""
    return sum((Decimal(v) for v in amounts.values()), Decimal(0))


def test_split_shares_the_pot_from_the_next_forehand(client: FlaskClient, open_pot: int) -> None:
    data = client.get(f"/api/v1/evenings/{open_pot}/settlement").json
    # Next dealer is Bert, so Clara leads: 26 = 5 x 5 + 1, the odd jeton to Clara.
    assert data["rule"] == "split"
    assert data["pot"] == {
        "jetons": 26,
        "rule": "split",
        "shares": {"Anna": 5, "Bert": 5, "Clara": 6, "Dora": 5, "Emil": 5},
    }
    assert data["final"] == {"Anna": -3, "Bert": -1, "Clara": 2, "Dora": 1, "Emil": 1}
    assert data["net"] == {
        "Anna": "-0.30",
        "Bert": "-0.10",
        "Clara": "0.20",
        "Dora": "0.10",
        "Emil": "0.10",
    }
    assert total(data["net"]) == 0
    assert data["transfers"] == [
        {"from": "Anna", "to": "Clara", "amount": "0.20"},
        {"from": "Anna", "to": "Dora", "amount": "0.10"},
        {"from": "Bert", "to": "Emil", "amount": "0.10"},
    ]
    for player, net in data["net"].items():
        received = sum(Decimal(p["amount"]) for p in data["pairwise"] if p["to"] == player)
        paid = sum(Decimal(p["amount"]) for p in data["pairwise"] if p["from"] == player)
        assert received - paid == Decimal(net)


def test_refund_gives_back_what_each_put_in(client: FlaskClient, open_pot: int) -> None:
    data = client.get(f"/api/v1/evenings/{open_pot}/settlement?end_pot=refund").json
    assert data["rule"] == "refund"
    assert data["pot"]["shares"] == {"Anna": 8, "Bert": 6, "Clara": 4, "Dora": 4, "Emil": 4}
    assert set(data["net"].values()) == {"0.00"}
    assert data["transfers"] == []


def test_carry_makes_the_pot_a_party(client: FlaskClient, open_pot: int) -> None:
    data = client.get(f"/api/v1/evenings/{open_pot}/settlement?end_pot=carry").json
    assert data["net"]["pot"] == "2.60"
    assert total(data["net"]) == 0
    assert {t["to"] for t in data["transfers"]} == {"pot"}


def test_evening_option_is_the_default_rule(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening(PLAYERS5, options={"end_pot": "refund"})
    record_hand(evening, LOST_DOPPELT)
    assert client.get(f"/api/v1/evenings/{evening}/settlement").json["rule"] == "refund"


def test_unknown_end_rule_is_422(client: FlaskClient, open_pot: int) -> None:
    response = client.get(f"/api/v1/evenings/{open_pot}/settlement?end_pot=keep")
    assert response.status_code == 422
    assert response.json["errors"]["end_pot"] == ["Choose one of: split, refund, carry."]


def test_rounding_to_the_coin_is_reported(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening(PLAYERS4, options={"unit_value": "0.07"})
    record_hand(evening, {"contract": "einfach", "bidder": "Anna", "points": 40})
    data = client.get(f"/api/v1/evenings/{evening}/settlement").json
    # Anna +3 jetons = 0.21, the others -0.07 each. To 5 Rappen the three debtors tie for
    # the missing coin; Clara, who leads the next hand, comes first in playing order.
    assert data["net"] == {"Anna": "0.20", "Bert": "-0.05", "Clara": "-0.10", "Dora": "-0.05"}
    assert data["rounding"] == {
        "Anna": "-0.0100",
        "Bert": "0.0200",
        "Clara": "-0.0300",
        "Dora": "0.0200",
    }


def test_editing_a_middle_hand_moves_every_later_hand_and_the_settlement(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening(PLAYERS5, first_dealer="Emil")
    record_hand(evening, LOST_DOPPELT)
    record_hand(evening, MISERE)
    record_hand(
        evening, {"contract": "einfach", "bidder": "Clara", "partner": "Emil", "points": 37}
    )
    before = client.get(f"/api/v1/evenings/{evening}/settlement").json
    assert before["net"]["Clara"] == "1.60"
    # The misère is corrected: Anna had the most points, Bert the fewest.
    corrected = {
        "contract": "misere",
        "points": {"Anna": 20, "Bert": 8, "Clara": 12, "Dora": 15, "Emil": 12},
        "version": 1,
    }
    assert client.put(f"/api/v1/evenings/{evening}/hands/2", json=corrected).status_code == 200
    data = client.get(f"/api/v1/evenings/{evening}").json
    assert [h["pot"] for h in data["hands"]] == [16, 26, 0]
    assert data["hands"][1]["deltas"] == {
        "Anna": -4,
        "Bert": 0,
        "Clara": -2,
        "Dora": -2,
        "Emil": -2,
    }
    assert data["hands"][2]["deltas"] == before_hand3()
    assert data["balances"] == {"Anna": -13, "Bert": -3, "Clara": 16, "Dora": -5, "Emil": 5}
    after = client.get(f"/api/v1/evenings/{evening}/settlement").json
    assert after["net"] == {
        "Anna": "-1.30",
        "Bert": "-0.30",
        "Clara": "1.60",
        "Dora": "-0.50",
        "Emil": "0.50",
    }


def before_hand3() -> dict[str, int]:
    """G5's third hand: the carry-over is 26 either way, so its payments stay the same."""
    return {"Anna": -1, "Bert": -1, "Clara": 20, "Dora": -1, "Emil": 9}
