"""The balances chart: valid, accessible SVG with a line per player, drawn without libraries."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest

from scorekeeper.core.chart import balance_chart, nice_step, spread

SVG = "{http://www.w3.org/2000/svg}"
PLAYERS = ("Anna", "Bert", "Clara", "Dora")
#: Balances after each of three hands (native units), as Ledger.hands[i].balances gives them.
POINTS = (
    {"Anna": 12, "Bert": -4, "Clara": -4, "Dora": -4},
    {"Anna": 9, "Bert": -1, "Clara": -7, "Dora": -1},
    {"Anna": 5, "Bert": 3, "Clara": -11, "Dora": 3},
)


def parse(svg: str) -> ET.Element:
    """The chart as XML; fails on anything a browser's XML parser would refuse."""
    return ET.fromstring(svg)


def texts(root: ET.Element) -> list[str]:
    """Every text element's content."""
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def along_x(root: ET.Element) -> list[str]:
    """The labels under the x axis (hand numbers, the end)."""
    return [t.text or "" for t in root.iter(f"{SVG}text") if t.get("text-anchor") == "middle"]


def test_chart_is_valid_accessible_svg() -> None:
    root = parse(balance_chart(PLAYERS, POINTS, title="Bilanz", description="Anna vorne"))
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.get("viewBox", "").startswith("0 0 ")
    assert "width" not in root.attrib  # scales with its box
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title is not None
    assert title.text == "Bilanz"
    assert desc is not None
    assert desc.text == "Anna vorne"
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"


def test_one_line_per_player_starting_at_zero() -> None:
    root = parse(balance_chart(PLAYERS, POINTS))
    lines = list(root.iter(f"{SVG}polyline"))
    assert len(lines) == len(PLAYERS)
    for line in lines:
        assert len(line.get("points", "").split()) == len(POINTS) + 1  # the start, then each hand
    starts = {line.get("points", "").split()[0] for line in lines}
    assert len(starts) == 1


def test_lines_differ_by_dash_pattern_as_well_as_colour() -> None:
    root = parse(balance_chart(PLAYERS, POINTS))
    lines = list(root.iter(f"{SVG}polyline"))
    assert len({line.get("stroke-dasharray", "solid") for line in lines}) == len(PLAYERS)
    assert len({line.get("stroke") for line in lines}) == len(PLAYERS)


def test_each_line_ends_with_its_name_and_balance() -> None:
    labels = texts(parse(balance_chart(PLAYERS, POINTS)))
    for expected in ("Anna +5", "Bert +3", "Clara \u221211", "Dora +3"):
        assert expected in labels


def test_hand_numbers_and_the_zero_line_are_drawn() -> None:
    root = parse(balance_chart(PLAYERS, POINTS, axis="Spiel"))
    labels = texts(root)
    assert {"Spiel", "1", "2", "3", "0"} <= set(labels)
    zero = [line for line in root.iter(f"{SVG}line") if line.get("stroke-width") == "1.5"]
    assert len(zero) == 1


def test_final_point_after_the_end_rule_is_labelled() -> None:
    final = {"Anna": 10, "Bert": 8, "Clara": -6, "Dora": 8}
    root = parse(balance_chart(PLAYERS, POINTS, final=final, final_label="Ende"))
    assert "Ende" in texts(root)
    assert "Anna +10" in texts(root)
    for line in root.iter(f"{SVG}polyline"):
        assert len(line.get("points", "").split()) == len(POINTS) + 2


@pytest.mark.parametrize("name", ['<script>alert("x")</script>', "Anna & Bert", 'O\'Brien "Pagat"'])
def test_names_are_escaped(name: str) -> None:
    svg = balance_chart((name, "Bert"), [{name: 3, "Bert": -3}], title=f"{name} <3")
    root = parse(svg)  # a raw < or & would not parse
    assert "<script>" not in svg
    assert root.find(f"{SVG}script") is None
    desc = root.find(f"{SVG}desc")
    assert desc is not None
    assert name in (desc.text or "")


def test_long_names_are_cut_in_the_label_but_kept_in_the_description() -> None:
    name = "Emil Müller-Lüdenscheidt"
    root = parse(balance_chart((name,), [{name: 0}]))
    assert not any(name in t for t in texts(root))
    assert any(t.startswith("Emil Müll\u2026") for t in texts(root))
    desc = root.find(f"{SVG}desc")
    assert desc is not None
    assert name in (desc.text or "")


def test_a_player_who_joins_later_stands_at_zero_before() -> None:
    root = parse(balance_chart(("Anna", "Emil"), [{"Anna": 2}, {"Anna": 1, "Emil": 4}]))
    assert len(list(root.iter(f"{SVG}polyline"))) == 2
    assert "Emil +4" in texts(root)


@pytest.mark.parametrize(
    ("players", "points"),
    [pytest.param((), (), id="nobody"), pytest.param(PLAYERS, (), id="no-hands")],
)
def test_empty_evening_gives_a_friendly_text(
    players: tuple[str, ...], points: tuple[dict[str, int], ...]
) -> None:
    root = parse(balance_chart(players, points, empty="Noch kein Spiel."))
    assert list(root.iter(f"{SVG}polyline")) == []
    assert texts(root) == ["Noch kein Spiel."]
    assert root.get("role") == "img"


def test_all_zero_balances_still_draw() -> None:
    root = parse(balance_chart(PLAYERS, [dict.fromkeys(PLAYERS, 0)]))
    assert len(list(root.iter(f"{SVG}polyline"))) == len(PLAYERS)


@pytest.mark.parametrize(
    ("hands", "shown"),
    [
        pytest.param(8, [str(i) for i in range(1, 9)], id="every-hand"),
        pytest.param(23, ["5", "10", "15", "20"], id="every-fifth"),
        pytest.param(40, ["10", "20", "30", "40"], id="every-tenth"),
    ],
)
def test_hand_numbers_are_thinned_to_round_steps(hands: int, shown: list[str]) -> None:
    points = [{"Anna": i, "Bert": -i} for i in range(1, hands + 1)]
    assert along_x(parse(balance_chart(("Anna", "Bert"), points))) == shown


def test_end_label_keeps_clear_of_the_last_hand_number() -> None:
    points = [{"Anna": i, "Bert": -i} for i in range(1, 9)]
    final = {"Anna": 10, "Bert": -10}
    labels = along_x(parse(balance_chart(("Anna", "Bert"), points, final=final)))
    assert labels == [*(str(i) for i in range(1, 8)), "End"]  # 8 would touch "End"


def test_labels_are_spread_apart_within_bounds() -> None:
    placed = spread([100, 100, 100, 100], 0, 110, 16)
    assert all(b - a >= 16 for a, b in pairwise(sorted(placed)))
    assert max(placed) <= 110
    assert spread([20, 80], 0, 110, 16) == [20, 80]  # labels far apart stay at their lines


@pytest.mark.parametrize(("span", "step"), [(1, 1), (5, 1), (7, 2), (44, 10), (180, 50)])
def test_grid_steps_are_round_numbers(span: int, step: int) -> None:
    assert nice_step(span) == step


def test_the_axis_name_and_the_end_labels_fit_the_picture() -> None:
    """The axis name "Runde" was cut to "unde", the end label "Anne -254" at the right."""
    doppen = ({"Anne": -254, "Bert": 127, "Clara": 127},)
    root = parse(balance_chart(("Anne", "Bert", "Clara"), doppen, axis="Runde"))
    width = float(root.get("viewBox", "").split()[2])
    by_text = {t.text: t for t in root.iter(f"{SVG}text")}
    axis = by_text["Runde"]
    # Right-aligned: the name ends at x and needs about 46 px of DejaVu Sans at 14 px.
    assert float(axis.get("x", "0")) >= 46
    end = by_text["Anne \u2212254"]
    # Left-aligned: DejaVu Sans Bold draws these nine characters about 86 px wide.
    assert float(end.get("x", "0")) + 86 <= width
