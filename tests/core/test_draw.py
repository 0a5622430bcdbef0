"""The seating draw (docs/tournaments.md, "Seating draw"): table sizes per game, byes that rotate,
the same draw from the same seed, few repeated pairs, and the organiser's swap.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterator
from itertools import combinations, product
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.core.draw import (
    Draw,
    DrawError,
    TablePlan,
    byes_needed,
    count_repeated_pairs,
    draw_round,
    swap,
    table_plan,
    table_sizes,
)
from scorekeeper.core.rules import VARIANTS, get_variant
from scorekeeper.core.rules.base import UnknownVariantError

TROGGEN = table_plan("troggen")
DOPPEN = table_plan("doppen")
PLANS = {"troggen": TROGGEN, "doppen": DOPPEN, "troggu": table_plan("troggu")}
PROPERTY = settings(max_examples=80)


def random_draw(players: range, history: list[Draw], seed: int, plan: TablePlan) -> Draw:
    """The baseline: shuffle with the same seed and cut into the same table sizes."""
    order = Random(seed).sample(list(players), len(players))
    sizes = table_sizes(len(order), plan)
    assert sizes is not None
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    tables = tuple(tuple(order[s : s + size]) for s, size in zip(starts, sizes, strict=True))
    return Draw(tables, (), seed, count_repeated_pairs(tables, history))


def tournament(players: range, rounds: int, base: int, plan: TablePlan, *, naive: bool) -> int:
    """Repeated pairs over ``rounds`` rounds of the same players, seeds ``base``, ``base+1``..."""
    history: list[Draw] = []
    for r in range(rounds):
        seed = base + r
        if naive:
            history.append(random_draw(players, history, seed, plan))
        else:
            history.append(draw_round(players, history, seed=seed, preference=plan))
    return sum(d.repeated_pairs for d in history)


# -- table sizes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "sizes"),
    [
        pytest.param("troggen", (4, 5, 6), id="troggen-4-then-5-then-6"),
        pytest.param("doppen", (3, 4), id="doppen-3-then-4-dealer-out"),
        *(
            pytest.param(v, (4, 5, 6), id=f"troggu-{key}-4-to-6")
            for (game, key), v in VARIANTS.items()
            if game == "troggu"
        ),
    ],
)
def test_each_game_prefers_its_usual_size(game: object, sizes: tuple[int, ...]) -> None:
    """docs/tournaments.md: Troggen 4, then 5, then 6; Troggu 4 to 6; Doppen 3, then 4."""
    assert table_plan(game).sizes == sizes  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("low", "high", "sizes"), [(4, 5, (4, 5)), (5, 8, (5, 6)), (3, 4, (4,))], ids=str
)
def test_the_plan_keeps_to_the_variants_range(low: int, high: int, sizes: tuple[int, ...]) -> None:
    """A variant that allows fewer sizes narrows Troggu's 4 to 6."""
    variant = copy.copy(get_variant("troggu", "flat"))
    variant.min_players, variant.max_players = low, high
    assert table_plan(variant).sizes == sizes


def test_impossible_plans_are_refused() -> None:
    """Sizes are distinct and positive; an unknown game is the registry's error."""
    for sizes in [(), (4, 4), (0, 4)]:
        with pytest.raises(DrawError):
            TablePlan(sizes)
    with pytest.raises(UnknownVariantError):
        table_plan("schach")


@pytest.mark.parametrize(
    ("plan", "n", "sizes"),
    [
        (TROGGEN, 0, ()),
        (TROGGEN, 3, None),
        (TROGGEN, 4, (4,)),
        (TROGGEN, 5, (5,)),
        (TROGGEN, 6, (6,)),
        (TROGGEN, 7, None),
        (TROGGEN, 8, (4, 4)),
        (TROGGEN, 9, (4, 5)),
        (TROGGEN, 10, (4, 6)),
        (TROGGEN, 11, (5, 6)),
        (TROGGEN, 13, (4, 4, 5)),
        (TROGGEN, 15, (4, 5, 6)),
        (TROGGEN, 40, (4,) * 10),
        (TROGGEN, 203, (4,) * 48 + (5, 6)),
        (DOPPEN, 2, None),
        (DOPPEN, 5, None),
        (DOPPEN, 7, (3, 4)),
        (DOPPEN, 8, (4, 4)),
        (DOPPEN, 10, (3, 3, 4)),
    ],
    ids=lambda v: "+".join(map(str, v.sizes)) if isinstance(v, TablePlan) else str(v)[:20],
)
def test_table_sizes(plan: TablePlan, n: int, sizes: tuple[int, ...] | None) -> None:
    """Most tables of the preferred size, then the next; None when n cannot be split."""
    assert table_sizes(n, plan) == sizes


@given(n=st.integers(0, 40), game=st.sampled_from(sorted(PLANS)))
def test_table_sizes_take_the_most_preferred_tables(n: int, game: str) -> None:
    """Against every split of n: none has more of the first size, then of the next..."""
    plan = PLANS[game]
    counts = [
        c
        for c in product(*(range(n // s + 1) for s in plan.sizes))
        if sum(k * s for k, s in zip(c, plan.sizes, strict=True)) == n
    ]
    sizes = table_sizes(n, plan)
    if not counts:
        assert sizes is None
    else:
        assert sizes is not None
        assert tuple(sizes.count(s) for s in plan.sizes) == max(counts)
        assert list(sizes) == sorted(sizes, key=plan.sizes.index)


def test_a_negative_count_is_refused() -> None:
    """Nobody can seat fewer than no players."""
    with pytest.raises(DrawError):
        table_sizes(-1, TROGGEN)


@pytest.mark.parametrize(
    ("plan", "n", "byes"),
    [(TROGGEN, 7, 1), (TROGGEN, 8, 0), (TROGGEN, 3, 3), (DOPPEN, 5, 1), (DOPPEN, 2, 2)],
    ids=str,
)
def test_the_fewest_sit_out(plan: TablePlan, n: int, byes: int) -> None:
    """docs/tournaments.md: 7 for Troggen or 5 for Doppen leave one player out."""
    assert byes_needed(n, plan) == byes


# -- the draw ------------------------------------------------------------------------------


def test_seven_troggen_players_make_one_table_and_a_bye() -> None:
    """One sits out so the other six can play."""
    draw = draw_round([3, 1, 4, 15, 9, 2, 6], [], seed=1, preference=TROGGEN)
    assert [len(t) for t in draw.tables] == [6]
    assert len(draw.byes) == 1
    assert sorted([*draw.tables[0], *draw.byes]) == [1, 2, 3, 4, 6, 9, 15]


def test_seven_players_over_seven_rounds_each_sit_out_once() -> None:
    """Nobody sits out twice before everyone has once."""
    history: list[Draw] = []
    for r in range(7):
        history.append(draw_round(range(1, 8), history, seed=r, preference=TROGGEN))
    assert sorted(p for d in history for p in d.byes) == list(range(1, 8))


def test_a_late_arrival_joins_the_rotation_with_no_byes() -> None:
    """Missed rounds are not byes: the newcomer has sat out least, so sits out next."""
    history = [
        Draw((tuple(p for p in range(1, 8) if p != bye),), (bye,), seed=0, repeated_pairs=0)
        for bye in range(1, 7)
    ]
    for seed in range(10):
        draw = draw_round([1, 2, 3, 4, 5, 6, 20], history, seed=seed, preference=TROGGEN)
        assert draw.byes == (20,)


def test_the_order_players_are_given_in_does_not_matter() -> None:
    """The draw depends on who is present, not on how the list was sorted."""
    first = draw_round(range(1, 30), [], seed=5, preference=TROGGEN)
    again = draw_round(reversed(range(1, 30)), [], seed=5, preference=TROGGEN)
    assert first == again


def test_forty_players_draw_differently_for_each_seed() -> None:
    """The seed is the only source of chance, and a different one gives another draw."""
    draws = {draw_round(range(1, 41), [], seed=s, preference=TROGGEN) for s in range(30)}
    assert len(draws) == 30


def test_a_listed_twice_start_number_is_refused() -> None:
    """Start numbers are unique (docs/tournaments.md, "Shape")."""
    with pytest.raises(DrawError):
        draw_round([1, 2, 3, 4, 4], [], seed=1, preference=TROGGEN)


def test_a_draw_seats_each_player_once() -> None:
    """A Draw cannot hold a player twice or an empty table."""
    with pytest.raises(DrawError):
        Draw(((1, 2, 3, 4),), (4,), seed=1, repeated_pairs=0)
    with pytest.raises(DrawError):
        Draw(((1, 2, 3, 4), ()), (), seed=1, repeated_pairs=0)


# -- repeated pairs ------------------------------------------------------------------------


def test_forty_players_over_six_rounds_repeat_far_fewer_pairs_than_chance() -> None:
    """Measured: no repeated pair in 10 such tournaments, against about 63 each by chance."""
    players = range(1, 41)
    ours = [tournament(players, 6, 100 * t, TROGGEN, naive=False) for t in range(5)]
    chance = [tournament(players, 6, 100 * t, TROGGEN, naive=True) for t in range(5)]
    assert all(o <= c for o, c in zip(ours, chance, strict=True))
    assert sum(ours) <= 5
    assert sum(chance) >= 200


def test_sixteen_players_over_six_rounds_repeat_the_fewest_pairs_possible() -> None:
    """Each meets 18 over six rounds and only 15 others, so at least 16 * 3 / 2 = 24 repeats."""
    for base in (0, 100, 200):
        assert tournament(range(1, 17), 6, base, TROGGEN, naive=False) == 24


def fours(players: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to split ``players`` into tables of four (5,775 for twelve)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in combinations(rest, 3):
        remaining = [p for p in rest if p not in others]
        for tail in fours(remaining):
            yield [(first, *others), *tail]


@pytest.mark.parametrize("seed", [0, 10, 20])
def test_twelve_players_meet_again_in_as_few_pairs_as_any_seating_allows(seed: int) -> None:
    """The draw minimises how many pairs meet again, the figure shown (docs/tournaments.md),
    even where that seats a pair a third time: checked against every possible seating."""
    history: list[Draw] = []
    for number in range(4):
        drawn = draw_round(range(1, 13), history, seed=seed + number, preference=TROGGEN)
        fewest = min(count_repeated_pairs(t, history) for t in fours(list(range(1, 13))))
        assert drawn.repeated_pairs == fewest, number + 1
        history.append(drawn)


# -- the organiser's swap ------------------------------------------------------------------

BEFORE = Draw(((1, 2, 3, 4), (5, 6, 7, 8)), (9,), seed=3, repeated_pairs=0)


def test_swapping_two_seated_players_exchanges_their_seats() -> None:
    """Each takes the other's seat; the repeat count follows the new tables."""
    earlier = [Draw(((1, 6, 3, 4), (5, 2, 7, 8)), (9,), seed=2, repeated_pairs=0)]
    after = swap(BEFORE, 2, 6, history=earlier)
    assert after.tables == ((1, 6, 3, 4), (5, 2, 7, 8))
    assert after.byes == (9,)
    assert after.repeated_pairs == 12
    assert after.seed == BEFORE.seed


def test_swapping_with_the_bye_seats_the_player_who_sat_out() -> None:
    """The player on the bye takes the seat; the other sits out."""
    after = swap(BEFORE, 9, 5, history=[])
    assert after.tables == ((1, 2, 3, 4), (9, 6, 7, 8))
    assert after.byes == (5,)


@pytest.mark.parametrize(
    ("a", "b"), [(1, 1), (1, 42), (42, 1)], ids=["same", "unknown-second", "unknown-first"]
)
def test_impossible_swaps_are_refused(a: int, b: int) -> None:
    """Two different players, both in the round's draw."""
    with pytest.raises(DrawError):
        swap(BEFORE, a, b, history=[])


def test_two_players_on_the_bye_cannot_swap() -> None:
    """Exchanging two byes would change nothing, which is a mistake worth saying."""
    draw = Draw(((1, 2, 3, 4),), (5, 6), seed=1, repeated_pairs=0)
    with pytest.raises(DrawError):
        swap(draw, 5, 6, history=[])


# -- properties ----------------------------------------------------------------------------


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[TablePlan, list[list[int]], list[int]]:
    """A game, who is present in each round (late arrivals, dropouts), and each round's seed."""
    plan = PLANS[draw(st.sampled_from(sorted(PLANS)))]
    pool = draw(st.integers(1, 40))
    rounds = draw(st.integers(1, 6))
    present = [
        sorted(draw(st.sets(st.integers(1, pool), min_size=max(0, pool - 6), max_size=pool)))
        for _ in range(rounds)
    ]
    seeds = draw(st.lists(st.integers(0, 2**64), min_size=rounds, max_size=rounds))
    return plan, present, seeds


@PROPERTY
@given(tournaments())
def test_every_present_player_is_seated_once_or_sits_out(
    case: tuple[TablePlan, list[list[int]], list[int]],
) -> None:
    """Each round: all present seated exactly once or on the bye, at allowed sizes, the fewest
    sitting out, and those with the fewest byes so far."""
    plan, present, seeds = case
    history: list[Draw] = []
    for players, seed in zip(present, seeds, strict=True):
        result = draw_round(players, history, seed=seed, preference=plan)
        seated = [p for t in result.tables for p in t]
        assert sorted(seated + list(result.byes)) == players
        assert len(result.byes) == byes_needed(len(players), plan)
        assert tuple(len(t) for t in result.tables) == table_sizes(len(seated), plan)
        byes = Counter(p for d in history for p in d.byes)
        if result.byes and seated:
            assert max(byes[p] for p in result.byes) <= min(byes[p] for p in seated)
        assert result.repeated_pairs == count_repeated_pairs(result.tables, history)
        assert result.seed == seed
        history.append(result)


#: Player counts that leave someone out, with plans of one or two sizes for several byes.
SHORT = [
    (plan, n)
    for plan in (TROGGEN, DOPPEN, TablePlan((6,)), TablePlan((6, 4)))
    for n in range(1, 41)
    if byes_needed(n, plan)
]


@PROPERTY
@given(case=st.sampled_from(SHORT), rounds=st.integers(1, 12), seed=st.integers(0, 10**6))
def test_byes_rotate(case: tuple[TablePlan, int], rounds: int, seed: int) -> None:
    """With the same players every round, bye counts never differ by more than one."""
    plan, n = case
    history: list[Draw] = []
    for r in range(rounds):
        history.append(draw_round(range(n), history, seed=seed + r, preference=plan))
        byes = Counter(p for d in history for p in d.byes)
        assert max(byes[p] for p in range(n)) - min(byes[p] for p in range(n)) <= 1


@PROPERTY
@given(tournaments(), st.randoms(use_true_random=False))
def test_the_same_seed_gives_the_same_draw(
    case: tuple[TablePlan, list[list[int]], list[int]], rng: Random
) -> None:
    """Reproducible from the stored seed, whatever order the players are listed in."""
    plan, present, seeds = case
    history: list[Draw] = []
    for players, seed in zip(present, seeds, strict=True):
        first = draw_round(players, history, seed=seed, preference=plan)
        shuffled = rng.sample(players, len(players))
        assert draw_round(shuffled, list(history), seed=seed, preference=plan) == first
        history.append(first)


@PROPERTY
@given(
    game=st.sampled_from(sorted(PLANS)),
    n=st.integers(20, 60),
    seeds=st.lists(st.integers(0, 2**32), min_size=2, max_size=2, unique=True),
)
def test_different_seeds_give_different_draws(game: str, n: int, seeds: list[int]) -> None:
    """With 20 or more players two seeds practically never give the same seating."""
    first, second = (draw_round(range(n), [], seed=s, preference=PLANS[game]) for s in seeds)
    assert first.tables != second.tables
