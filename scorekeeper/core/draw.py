"""The seating draw of a tournament round: who sits at which table, in which seat.

docs/tournaments.md, "Seating draw". Pure: no clock, no I/O, and no global randomness; every
random choice comes from ``random.Random(seed)`` built from the seed the caller passes and
stores, so a draw can be made again and checked. The rules:

* **Table sizes.** Each game has its sizes, most preferred first (Troggen 4, 5, 6; Troggu
  4, 5, 6; Doppen 3, 4, the fourth sitting out each hand as dealer), kept to the variant's
  player range. ``n`` players are split into as many tables of the first size as possible
  such that the rest can still be split, then as many of the second size, and so on (10
  Troggen players: 4 + 6; 11: 5 + 6; 13: 4 + 4 + 5).
* **Byes.** When ``n`` cannot be split (Troggen 7, Doppen 5), the fewest players sit out
  so the rest can be. A bye goes to the present players with the fewest byes so far,
  ties by a seeded random choice, so nobody sits out twice before everyone present has once.
  Only byes count: rounds a late arrival missed are neither byes nor a credit, so a late
  arrival joins the rotation with none, like everyone who has not sat out yet.
* **Repeated pairs.** Tables are filled greedily in a seeded random order, each player
  joining the open table where they met the fewest players before; a bounded tabu search
  then swaps players between tables to lower the number of pairs who met before (the
  figure docs/tournaments.md asks to minimise, and the one shown). Among draws with as few,
  the one with fewer earlier meetings wins: a pair that met twice weighs twice.
* **Seats.** The order inside a table is seeded random; it is the playing order, and the
  first seat deals first. Tables are numbered in the order of their sizes' preference.

The same players, history and seed give the same draw with the same Python version (the
order in which players are passed does not matter). The shell stores a fresh seed per round
and the draw itself, so an upgrade of Python never changes a round that was played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from random import Random
from typing import Protocol

from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import ScorekeeperError
from scorekeeper.core.rules.variant import Variant

#: Each game's table sizes, most preferred first (docs/tournaments.md, "Seating draw").
USUAL_SIZES: dict[str, tuple[int, ...]] = {
    "troggen": (4, 5, 6),
    "troggu": (4, 5, 6),
    "doppen": (3, 4),
}
#: Swaps the search may try per round; it stops earlier once no pair meets again.
SEARCH_STEPS = 1000
#: A cap on steps times players, since each step weighs a swap with every player: about
#: 50 ms for a 200-player round whose pairs cannot all be new.
SEARCH_WORK = 100_000
#: How many steps a swapped player stays put unless moving them beats the best draw yet.
TABU_STEPS = 7
#: Marks a swap the search may not make; above any real change of weight.
_BLOCKED = 1 << 62


class DrawError(ScorekeeperError, ValueError):
    """A draw or a swap that cannot be made (unknown player, duplicate, impossible plan)."""


@dataclass(frozen=True, slots=True)
class TablePlan:
    """The table sizes a round may use, most preferred first.

    >>> TablePlan((4, 5, 6)).sizes
    (4, 5, 6)
    """

    sizes: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.sizes or min(self.sizes) < 1 or len(set(self.sizes)) != len(self.sizes):
            raise DrawError(f"Table sizes must be distinct and positive, not {self.sizes}.")


class Seating(Protocol):
    """What the draw reads from an earlier round: its tables and who sat out."""

    @property
    def tables(self) -> Sequence[Sequence[int]]:
        """Start numbers per table."""
        ...

    @property
    def byes(self) -> Sequence[int]:
        """Start numbers of the players who sat out."""
        ...


@dataclass(frozen=True, slots=True)
class Draw:
    """One round's seating: tables in seat order (first seat deals first) and the byes.

    ``repeated_pairs`` counts the pairs at a table who sat together in an earlier round.
    """

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]
    seed: int
    repeated_pairs: int

    def __post_init__(self) -> None:
        everyone = [p for table in self.tables for p in table] + list(self.byes)
        if len(set(everyone)) != len(everyone):
            raise DrawError("A player can sit at only one table or on the bye.")
        if any(not table for table in self.tables):
            raise DrawError("A table needs players.")


def table_plan(game: Variant | str) -> TablePlan:
    """The game's usual table sizes, kept to what its variant allows (a key: the default).

    The museum's tables prefer the usual size (docs/tournaments.md, "Seating draw"); a game with
    no usual sizes listed takes its variant's range, smallest first.

    >>> table_plan("troggen").sizes, table_plan("doppen").sizes
    ((4, 5, 6), (3, 4))
    """
    variant = get_variant(game) if isinstance(game, str) else game
    low, high = variant.min_players, variant.max_players
    usual = USUAL_SIZES.get(variant.game, tuple(range(low, high + 1)))
    sizes = tuple(s for s in usual if low <= s <= high)
    if not sizes:
        raise DrawError(f"{variant.game} allows no table of {usual}.")
    return TablePlan(sizes)


def table_sizes(n: int, preference: TablePlan) -> tuple[int, ...] | None:
    """Split ``n`` players into tables: most of the preferred size, then the next; or None.

    None means some players must sit out (see ``byes_needed``).

    >>> troggen = table_plan("troggen")
    >>> table_sizes(10, troggen), table_sizes(13, troggen), table_sizes(7, troggen)
    ((4, 6), (4, 4, 5), None)
    """
    if n < 0:
        raise DrawError(f"Cannot seat {n} players.")
    sizes = preference.sizes
    # fits[i][m]: m players can be split into tables of sizes[i:].
    fits = [[m == 0 for m in range(n + 1)]]
    for size in reversed(sizes):
        row = list(fits[-1])
        for m in range(size, n + 1):
            row[m] = row[m] or row[m - size]
        fits.append(row)
    fits.reverse()
    if not fits[0][n]:
        return None
    out: list[int] = []
    left = n
    for i, size in enumerate(sizes):
        count = left // size
        while not fits[i + 1][left - count * size]:
            count -= 1
        out += [size] * count
        left -= count * size
    return tuple(out)


def byes_needed(n: int, preference: TablePlan) -> int:
    """The fewest of ``n`` present players who must sit out so the rest can be seated.

    >>> byes_needed(7, table_plan("troggen")), byes_needed(5, table_plan("doppen"))
    (1, 1)
    """
    return next(k for k in range(n + 1) if table_sizes(n - k, preference) is not None)


def count_repeated_pairs(tables: Iterable[Iterable[int]], history: Sequence[Seating]) -> int:
    """How many pairs at these tables already sat together in an earlier round.

    The figure the draw minimises; the shell shows it beside a swap.

    >>> earlier = Draw(((1, 2, 3, 4), (5, 6, 7, 8)), (), seed=1, repeated_pairs=0)
    >>> count_repeated_pairs([(1, 2, 5, 6), (3, 4, 7, 8)], [earlier])
    4
    """
    met = {pair for past in history for table in past.tables for pair in _pairs(table)}
    return sum(pair in met for table in tables for pair in _pairs(table))


def draw_round(
    players: Iterable[int], history: Sequence[Seating], *, seed: int, preference: TablePlan
) -> Draw:
    """Seat the present players for the next round, avoiding pairs who met before.

    ``players`` are the present start numbers; ``history`` the earlier rounds in order.
    Byes rotate and repeated pairs are kept few (docs/tournaments.md, "Seating draw").

    >>> first = draw_round(range(1, 8), [], seed=7, preference=table_plan("troggen"))
    >>> [len(t) for t in first.tables], len(first.byes)
    ([6], 1)
    >>> second = draw_round(range(1, 8), [first], seed=8, preference=table_plan("troggen"))
    >>> second.byes == first.byes
    False
    """
    present = sorted(players)
    if len(set(present)) != len(present):
        raise DrawError("A start number is listed twice.")
    rng = Random(seed)
    byes = _choose_byes(present, history, byes_needed(len(present), preference), rng)
    seated = [p for p in present if p not in byes]
    sizes = table_sizes(len(seated), preference)
    assert sizes is not None
    weights = _meetings(seated, history)
    groups = _improve(_greedy(sizes, weights, rng), weights, rng)
    tables = tuple(tuple(rng.sample([seated[i] for i in g], len(g))) for g in groups)
    return Draw(tables, byes, seed, count_repeated_pairs(tables, history))


def swap(draw: Draw, a: int, b: int, *, history: Sequence[Seating]) -> Draw:
    """The draw with players ``a`` and ``b`` in each other's place (a seat or the bye).

    The organiser's change before the round starts; the shell records it.

    >>> before = Draw(((1, 2, 3, 4), (5, 6, 7, 8)), (9,), seed=1, repeated_pairs=0)
    >>> swap(before, 2, 9, history=[]).tables
    ((1, 9, 3, 4), (5, 6, 7, 8))
    """
    if a == b:
        raise DrawError("Choose two different players to swap.")
    if a in draw.byes and b in draw.byes:
        raise DrawError(f"{a} and {b} both sit out; there is nothing to swap.")
    for player in (a, b):
        if player not in draw.byes and not any(player in table for table in draw.tables):
            raise DrawError(f"{player} is not in this round's draw.")
    other = {a: b, b: a}
    tables = tuple(tuple(other.get(p, p) for p in table) for table in draw.tables)
    byes = tuple(sorted(other.get(p, p) for p in draw.byes))
    return replace(
        draw, tables=tables, byes=byes, repeated_pairs=count_repeated_pairs(tables, history)
    )


# -- helpers ---------------------------------------------------------------------------------


def _pairs(table: Iterable[int]) -> Iterable[tuple[int, int]]:
    return combinations(sorted(table), 2)


def _choose_byes(
    present: list[int], history: Sequence[Seating], count: int, rng: Random
) -> tuple[int, ...]:
    """The ``count`` present players with the fewest byes, ties in seeded random order."""
    if count == 0:
        return ()
    byes = Counter(p for past in history for p in past.byes)
    order = rng.sample(present, len(present))
    order.sort(key=lambda p: byes[p])
    return tuple(sorted(order[:count]))


def _meetings(seated: list[int], history: Sequence[Seating]) -> list[list[int]]:
    """What seating each two seated players (by index in ``seated``) together again costs.

    A pair who met before costs more than all earlier meetings together, so a draw with
    fewer repeated pairs always weighs less; among those, each earlier meeting adds one.
    """
    index = {p: i for i, p in enumerate(seated)}
    met = [[0] * len(seated) for _ in seated]
    for past in history:
        for table in past.tables:
            for x, y in combinations([index[p] for p in table if p in index], 2):
                met[x][y] += 1
                met[y][x] += 1
    repeated = 1 + sum(map(sum, met)) // 2
    return [[repeated + count if count else 0 for count in row] for row in met]


def _greedy(sizes: tuple[int, ...], weights: list[list[int]], rng: Random) -> list[list[int]]:
    """Players in seeded random order, each to the open table where they met fewest."""
    groups: list[list[int]] = [[] for _ in sizes]
    for player in rng.sample(range(len(weights)), len(weights)):
        row = weights[player]
        best = min(
            (t for t, g in enumerate(groups) if len(g) < sizes[t]),
            key=lambda t: (sum(row[q] for q in groups[t]), len(groups[t]) - sizes[t], t),
        )
        groups[best].append(player)
    return groups


def _improve(groups: list[list[int]], weights: list[list[int]], rng: Random) -> list[list[int]]:
    """Tabu search over swaps between tables; returns the best grouping it saw.

    Each step takes a random player who met someone at their table before and swaps them
    with the player elsewhere whose swap lowers the weight most (or raises it least), a
    recently swapped player only when that beats the best yet. At most ``SEARCH_STEPS``,
    fewer for many players (``SEARCH_WORK``).
    """
    n = len(weights)
    if len(groups) < 2:
        return groups
    where = [t for p in range(n) for t, g in enumerate(groups) if p in g]
    own = [sum(weights[p][q] for q in groups[where[p]]) for p in range(n)]
    cost = best_cost = sum(own) // 2
    best = [list(g) for g in groups]
    tabu_until = [0] * n
    for step in range(1, min(SEARCH_STEPS, SEARCH_WORK // n) + 1):
        if best_cost == 0:
            break
        a = rng.choice([p for p in range(n) if own[p]])
        change = _swap_changes(a, groups, where, own, weights)
        for b in range(n):
            if tabu_until[b] > step and cost + change[b] - own[a] >= best_cost:
                change[b] = _BLOCKED
        lowest = min(change)
        if lowest == _BLOCKED:
            continue
        choices = [b for b in range(n) if change[b] == lowest]
        b = choices[rng.randrange(len(choices))]
        cost += lowest - own[a]
        home, away = where[a], where[b]
        groups[home][groups[home].index(a)] = b
        groups[away][groups[away].index(b)] = a
        where[a], where[b] = away, home
        for q in groups[home] + groups[away]:
            own[q] = sum(weights[q][r] for r in groups[where[q]])
        tabu_until[a] = tabu_until[b] = step + TABU_STEPS
        if cost < best_cost:
            best_cost, best = cost, [list(g) for g in groups]
    return best


def _swap_changes(
    a: int, groups: list[list[int]], where: list[int], own: list[int], weights: list[list[int]]
) -> list[int]:
    """For every player b, the total weight's change if ``a`` and ``b`` swapped tables, plus
    ``own[a]`` (the same for every b); ``_BLOCKED`` for a's table-mates."""
    home, row_a = where[a], weights[a]
    # into_home[b]: what b would weigh at a's table once a has left it.
    into_home = [0] * len(weights)
    for q in groups[home]:
        if q != a:
            into_home = [x + y for x, y in zip(into_home, weights[q], strict=True)]
    a_at = [sum(row_a[q] for q in g) for g in groups]
    return [
        _BLOCKED if t == home else a_at[t] - row_a[b] + into_home[b] - own[b]
        for b, t in enumerate(where)
    ]
