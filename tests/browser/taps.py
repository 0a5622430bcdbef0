"""The table screen's figures: taps and scrolls for each reference hand at each size.

``test_table_screen.py`` plays the reference hands; in a run over several worker processes
(``scripts/pytest``) each worker plays some of them. So every process notes what it played
on its configuration, a worker hands its notes to the process that started it at the end
(``workeroutput``, ``conftest.py``), and that process writes ``bench/taps.json`` and
``bench/taps.md`` once every hand was played at every size, as a run in one process does.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pytest

#: Where the figures go.
BENCH = Path(__file__).resolve().parents[2] / "bench"
#: The key under which a worker hands its figures over.
OUTPUT = "taps"


@dataclass
class Run:
    """What playing one reference hand at one size took."""

    hand: int
    size: str
    taps: int = 0
    scrolls: int = 0
    #: Scrolls before the hand's first choice (the page as it opens).
    scrolls_before_first: int = 0
    covered: list[str] = field(default_factory=list)


@dataclass
class Figures:
    """The reference hands' titles (by number), the sizes (id and label, in order) and the
    runs played so far in this process, or handed to it."""

    titles: dict[int, str] = field(default_factory=dict)
    sizes: dict[str, str] = field(default_factory=dict)
    runs: list[Run] = field(default_factory=list)

    def complete(self) -> bool:
        """Whether every reference hand was played at every size."""
        wanted = {(hand, size) for hand in self.titles for size in self.sizes}
        return bool(wanted) and {(r.hand, r.size) for r in self.runs} == wanted

    def take(self, other: Figures) -> None:
        """Add what another process played."""
        self.titles.update(other.titles)
        self.sizes.update(other.sizes)
        self.runs += other.runs


KEY = pytest.StashKey[Figures]()


def figures(config: pytest.Config) -> Figures:
    """This process's figures."""
    return config.stash.setdefault(KEY, Figures())


def note(config: pytest.Config, titles: dict[int, str], sizes: dict[str, str], run: Run) -> None:
    """A reference hand played."""
    noted = figures(config)
    noted.titles.update(titles)
    noted.sizes.update(sizes)
    noted.runs.append(run)


def hand_over(config: pytest.Config, output: dict[str, Any]) -> None:
    """A worker's figures, into what it sends back at its end."""
    if KEY in config.stash:
        noted = config.stash[KEY]
        output[OUTPUT] = json.dumps(
            {
                "titles": list(noted.titles.items()),
                "sizes": list(noted.sizes.items()),
                "runs": [asdict(r) for r in noted.runs],
            }
        )


def take_over(config: pytest.Config, output: dict[str, Any]) -> None:
    """A worker's figures, as it sent them back."""
    if OUTPUT in output:
        sent = json.loads(output[OUTPUT])
        figures(config).take(
            Figures(
                dict((int(k), v) for k, v in sent["titles"]),
                dict(sent["sizes"]),
                [Run(**r) for r in sent["runs"]],
            )
        )


def write(config: pytest.Config, folder: Path = BENCH) -> None:
    """``taps.json`` (every figure) and ``taps.md`` (the table the README quotes), once
    every reference hand was played at every size."""
    noted = config.stash.get(KEY, None)
    if noted is None or not noted.complete():
        return
    order = list(noted.sizes)
    runs = sorted(noted.runs, key=lambda r: (r.hand, order.index(r.size)))
    (folder / "taps.json").write_text(
        json.dumps([asdict(r) | {"covered": len(r.covered)} for r in runs], indent=1) + "\n"
    )
    labels = list(noted.sizes.values())
    lines = [
        "# Taps and scrolls for the reference hands",
        "",
        "Written by `tests/browser/test_table_screen.py` (Debian's Chromium, JavaScript on).",
        "A tap is one click or one key of the keypad, Save included; a scroll is a control",
        "out of view or under the Save bar before its tap. *taps / scrolls*:",
        "",
        "| reference hand | " + " | ".join(labels) + " |",
        "|---|" + "---|" * len(labels),
    ]
    for hand, title in sorted(noted.titles.items()):
        cells = [f"{r.taps} / {r.scrolls}" for r in runs if r.hand == hand]
        lines.append(f"| {hand}. {title} | " + " | ".join(cells) + " |")
    (folder / "taps.md").write_text("\n".join(lines) + "\n")
