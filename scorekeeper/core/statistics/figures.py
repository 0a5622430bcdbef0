"""A person's figures per game, frozen from the counts (docs/statistics.md, "A player's
figures"): sides and contracts for every game, and each game's own events.

Every figure lists all its keys, zeros included (each contract of the game, each card,
each premium), so two players' figures line up key by key (``compare``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from scorekeeper.core.rules import doppen_hand, troggen, troggu_scoring
from scorekeeper.core.rules.troggu import MONEY_VARIANTS as TROGGU_MONEY_VARIANTS

Counts = Counter[str]
Figure = tuple[str, int]

#: The contracts a declarer can bid, in each game's order of bidding.
CONTRACTS = {
    "troggen": tuple(c.value for c in troggen.Contract if c is not troggen.Contract.MISERE),
    "doppen": tuple(c.value for c in doppen_hand.Contract if c is not doppen_hand.Contract.PASS),
    "troggu": tuple(
        c.value for c in troggu_scoring.Contract if c is not troggu_scoring.Contract.MISERE
    ),
    "eisten-stalden": ("team",),
}
#: The Misère places of each game: one per seat of its largest table (docs/statistics.md,
#: "Sides"); games without a Misère have none.
MISERE_PLACES = {
    "troggen": troggen.Troggen.max_players,
    "doppen": 0,
    "troggu": max(v.max_players for v in TROGGU_MONEY_VARIANTS),
    "eisten-stalden": 0,
}
#: The games where a hand may name a partner: Doppen's soloist and Eisten-Stalden's side
#: have none, so their figures list no "as partner" (docs/statistics.md, "Sides").
WITH_PARTNER = frozenset({"troggen", "troggu"})
LAST_TRICK_CARDS = ("pagat", "king")
DOPPEN_PREMIUMS = ("pagat", "uhu", "trull", "kings", "valat")
DOPPEN_ANNOUNCED = ("pagat", "uhu", "valat")


@dataclass(frozen=True, slots=True)
class Tally:
    """How often a part was played, won and lost; the rest were ties (``tied``)."""

    played: int = 0
    won: int = 0
    lost: int = 0

    @property
    def tied(self) -> int:
        """Hands neither won nor lost (57 : 57 in Troggu)."""
        return self.played - self.won - self.lost

    @classmethod
    def of(cls, counts: Counts, key: str) -> Tally:
        """The tally counted under ``key``."""
        return cls(counts[f"{key}.played"], counts[f"{key}.won"], counts[f"{key}.lost"])

    def figures(self, key: str) -> tuple[Figure, ...]:
        """The tally as keyed figures."""
        return (
            (f"{key}.played", self.played),
            (f"{key}.won", self.won),
            (f"{key}.lost", self.lost),
        )


@dataclass(frozen=True, slots=True)
class ContractTally:
    """One contract: how often the person bid it (declared it) and won or lost it."""

    contract: str
    bid: Tally


@dataclass(frozen=True, slots=True)
class Roles:
    """The sides a person played in one game (docs/statistics.md, "Sides").

    ``misere_places``: (place, how often), for every place of the game from 1 to its
    largest table, in order, a place never taken included with 0.
    """

    hands: int
    contracts: tuple[ContractTally, ...]
    #: None in a game without partners.
    as_partner: Tally | None
    as_defender: Tally
    misere_places: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, counts: Counts, kind: str) -> Roles:
        """The roles counted for a game of ``kind``."""
        places = tuple((p, counts[f"misere.{p}"]) for p in range(1, MISERE_PLACES[kind] + 1))
        return cls(
            counts["hands"],
            tuple(ContractTally(c, Tally.of(counts, f"contract.{c}")) for c in CONTRACTS[kind]),
            Tally.of(counts, "partner") if kind in WITH_PARTNER else None,
            Tally.of(counts, "defender"),
            places,
        )

    @property
    def declared(self) -> Tally:
        """All contracts together."""
        return Tally(
            sum(c.bid.played for c in self.contracts),
            sum(c.bid.won for c in self.contracts),
            sum(c.bid.lost for c in self.contracts),
        )

    def figures(self) -> tuple[Figure, ...]:
        """The roles as keyed figures."""
        out: list[Figure] = [("hands", self.hands)]
        for contract in self.contracts:
            out += contract.bid.figures(f"contract.{contract.contract}")
        if self.as_partner is not None:
            out += self.as_partner.figures("partner")
        out += self.as_defender.figures("defender")
        out += [(f"misere.place.{place}", n) for place, n in self.misere_places]
        return tuple(out)


@dataclass(frozen=True, slots=True)
class LastTrick:
    """The Bieterin's Pagat or King in the last trick, seen from the person's side.

    ``won``/``lost``: on her side (as Bieterin or partner); ``conceded``: defending while
    her card won the trick; ``captured``: defending while her card was taken.
    """

    card: str
    won: int
    lost: int
    conceded: int
    captured: int


@dataclass(frozen=True, slots=True)
class TroggenFigures:
    """A person's Troggen (docs/statistics.md, "Troggen")."""

    roles: Roles
    last_trick: tuple[LastTrick, ...]

    @classmethod
    def of(cls, counts: Counts) -> TroggenFigures:
        """Frozen from the counts."""
        cards = tuple(
            LastTrick(card, *(counts[f"last_trick.{card}.{k}"] for k in LAST_TRICK_KEYS))
            for card in LAST_TRICK_CARDS
        )
        return cls(Roles.of(counts, "troggen"), cards)

    def figures(self) -> tuple[Figure, ...]:
        """Keyed figures."""
        out = list(self.roles.figures())
        for c in self.last_trick:
            values = (c.won, c.lost, c.conceded, c.captured)
            out += [
                (f"last_trick.{c.card}.{k}", v)
                for k, v in zip(LAST_TRICK_KEYS, values, strict=True)
            ]
        return tuple(out)


LAST_TRICK_KEYS = ("won", "lost", "conceded", "captured")


@dataclass(frozen=True, slots=True)
class Premium:
    """A Doppen premium: how often the person's side earned it (``won``) or the other
    side did (``lost``)."""

    premium: str
    won: int
    lost: int


@dataclass(frozen=True, slots=True)
class Announcement:
    """A premium the person announced (``said``) and how often it came off (``won``)."""

    premium: str
    said: int
    won: int


@dataclass(frozen=True, slots=True)
class DoppenFigures:
    """A person's Doppen (docs/statistics.md, "Doppen")."""

    roles: Roles
    premiums: tuple[Premium, ...]
    announced: tuple[Announcement, ...]
    kontra_given: int
    kontra_received: int
    passed: int
    sat_out: int

    @classmethod
    def of(cls, counts: Counts) -> DoppenFigures:
        """Frozen from the counts."""
        return cls(
            Roles.of(counts, "doppen"),
            tuple(
                Premium(p, counts[f"premium.{p}.won"], counts[f"premium.{p}.lost"])
                for p in DOPPEN_PREMIUMS
            ),
            tuple(
                Announcement(p, counts[f"announced.{p}.said"], counts[f"announced.{p}.won"])
                for p in DOPPEN_ANNOUNCED
            ),
            counts["kontra.given"],
            counts["kontra.received"],
            counts["passed"],
            counts["sat_out"],
        )

    def figures(self) -> tuple[Figure, ...]:
        """Keyed figures."""
        out = list(self.roles.figures())
        for p in self.premiums:
            out += [(f"premium.{p.premium}.won", p.won), (f"premium.{p.premium}.lost", p.lost)]
        for a in self.announced:
            out += [(f"announced.{a.premium}.said", a.said), (f"announced.{a.premium}.won", a.won)]
        out += [
            ("kontra.given", self.kontra_given),
            ("kontra.received", self.kontra_received),
            ("passed", self.passed),
            ("sat_out", self.sat_out),
        ]
        return tuple(out)


@dataclass(frozen=True, slots=True)
class TrogguFigures:
    """A person's Troggu for money (docs/statistics.md, "Troggu")."""

    roles: Roles
    all_tricks_taken: int
    all_tricks_conceded: int

    @property
    def solo(self) -> Tally:
        """The Solos the person bid, won and lost."""
        return next(c.bid for c in self.roles.contracts if c.contract == "solo")

    @classmethod
    def of(cls, counts: Counts) -> TrogguFigures:
        """Frozen from the counts."""
        return cls(
            Roles.of(counts, "troggu"), counts["all_tricks.taken"], counts["all_tricks.conceded"]
        )

    def figures(self) -> tuple[Figure, ...]:
        """Keyed figures."""
        return (
            *self.roles.figures(),
            ("all_tricks.taken", self.all_tricks_taken),
            ("all_tricks.conceded", self.all_tricks_conceded),
        )


@dataclass(frozen=True, slots=True)
class EistenStaldenFigures:
    """A person's Eisten-Stalden (docs/statistics.md, "Eisten-Stalden")."""

    roles: Roles
    striche: int
    tagessieger: int
    tagessieger_shared: int

    @classmethod
    def of(cls, counts: Counts) -> EistenStaldenFigures:
        """Frozen from the counts."""
        return cls(
            Roles.of(counts, "eisten-stalden"),
            counts["striche"],
            counts["tagessieger.alone"],
            counts["tagessieger.shared"],
        )

    def figures(self) -> tuple[Figure, ...]:
        """Keyed figures."""
        return (
            *self.roles.figures(),
            ("striche", self.striche),
            ("tagessieger", self.tagessieger),
            ("tagessieger.shared", self.tagessieger_shared),
        )
