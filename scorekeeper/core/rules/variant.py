"""What a game variant must provide to plug into the ledger, the API and the pages."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from scorekeeper.core.rules.base import (
    POT,
    HandInput,
    HandScore,
    InvalidHandError,
    Message,
    ScoreLine,
    Table,
    msg,
)
from scorekeeper.core.rules.options import OptionSpec

Options = Mapping[str, str]


class Variant(ABC):
    """A ruleset: its table sizes, house rules, and how a hand's facts turn into payments.

    Scoring is a fold: ``score_hand`` takes the state left by the previous hand (the pot,
    a Kasse...) and returns the hand's lines and the new state. The state is a frozen value,
    so replaying the same facts always gives the same ledger.
    """

    game: str
    key: str
    title: Message
    min_players: int
    max_players: int
    option_specs: tuple[OptionSpec, ...]
    #: What one native unit is called on pages and printouts (jetons, points...).
    unit_name: Message = msg("Units")
    #: The same unit inside a sentence ("Bert won +24 jetons"): lower case where the
    #: language writes it so, as English does and German does not.
    unit_word: Message = msg("units")
    #: Accounts besides the players' own (e.g. the pot); they may never go negative.
    common_accounts: tuple[str, ...] = ()
    #: Option keys that are end-of-evening rules and can be changed on the settlement page.
    end_rule_option: str | None = None
    #: Whether hands add to a tally beside the money (``HandScore.tally``, ``Ledger.tally``):
    #: Eisten-Stalden's Striche. Pages and the API show the tally only when this is set.
    keeps_tally: bool = False
    #: The end rule's choice that leaves the pot for a later evening (Troggen's ``carry``);
    #: None for games whose evenings cannot carry anything on.
    carry_choice: str | None = None

    @abstractmethod
    def initial_state(self) -> Any:
        """The state before the first hand of an evening."""

    def carried_state(self, pot: int) -> Any:
        """The state before the first hand of an evening that opens with ``pot`` carried in
        from an earlier one (docs/troggen.md §8); only games with ``carry_choice`` have one."""
        raise ValueError(f"{self.game} carries nothing from one evening to the next")

    def carries_on(self, options: Options) -> bool:
        """Whether an evening under ``options`` leaves its pot for a later evening."""
        return self.carry_choice is not None and (
            self.end_rule_option is not None
            and options.get(self.end_rule_option) == self.carry_choice
        )

    def pot_carried_on(self, options: Options, common: Mapping[str, int]) -> int:
        """The jetons an evening under ``options`` leaves for a later one, given what its
        common accounts hold after its last hand: the pot when its end rule carries it on,
        nothing when that rule shares or refunds it (docs/troggen.md §8)."""
        return common.get(POT, 0) if self.carries_on(options) else 0

    @abstractmethod
    def parse_hand(self, raw: Mapping[str, object], table: Table, options: Options) -> HandInput:
        """Validate what was said at the table; raise ``InvalidHandError`` when impossible."""

    def refusals(
        self, hand: HandInput, table: Table, options: Options
    ) -> dict[str, tuple[Message, ...]]:
        """Impossible facts refused when a hand is entered or corrected, beyond those that
        ``parse_hand`` refuses (default: none).

        Checks that came after hands were first stored belong here: stored hands are
        replayed through ``parse_hand`` alone, so a hand kept under an earlier, looser
        check still replays (nothing entered is lost), and is held to the check once it is
        corrected.
        """
        return {}

    def parse_entry(self, raw: Mapping[str, object], table: Table, options: Options) -> HandInput:
        """A hand as entered at the table: ``parse_hand``, then ``refusals``."""
        hand = self.parse_hand(raw, table, options)
        refused = self.refusals(hand, table, options)
        if refused:
            raise InvalidHandError(refused)
        return hand

    def warnings(
        self, hand: HandInput, table: Table, options: Options
    ) -> dict[str, tuple[Message, ...]]:
        """Possible but implausible facts that the table must confirm (default: none)."""
        return {}

    @abstractmethod
    def score_hand(
        self, hand: HandInput, table: Table, state: Any, options: Options
    ) -> tuple[HandScore, Any]:
        """The hand's itemised lines and the state after it."""

    @abstractmethod
    def close_evening(
        self, state: Any, table: Table, options: Options, *, rule: str | None = None
    ) -> tuple[ScoreLine, ...]:
        """Lines that resolve what is left in common accounts at the end of the evening.

        ``table`` is the table as it would play the next hand (its dealer is the next
        dealer); ``rule`` overrides the evening's end rule, as on the settlement page.
        """

    def common_balance(self, state: Any) -> dict[str, int]:
        """What each common account holds in ``state`` (default: nothing)."""
        return {}

    def allows_players(self, count: int) -> bool:
        """Whether ``count`` players can play this variant."""
        return self.min_players <= count <= self.max_players

    def player_count_problem(self, count: int) -> Message | None:
        """What to say when ``count`` players cannot play this variant, else None."""
        if self.allows_players(count):
            return None
        return msg(
            "This game is played by {low} to {high} players, not {n}.",
            low=self.min_players,
            high=self.max_players,
            n=count,
        )
