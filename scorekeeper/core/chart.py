"""The balances of an evening as a small inline SVG line chart, drawn on the server.

Pure: no framework and no chart library, so the page needs no JavaScript. Each player gets
a colour *and* a dash pattern, and a label with name and final balance at the end of the
line, so the chart reads in black and white and for colour-blind players too. The picture
scales with its ``viewBox``; ``<title>`` and ``<desc>`` describe it to screen readers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

#: Dark enough to stand on white; paired with DASHES, never relied on alone.
COLOURS = ("#0b5cad", "#c2410c", "#047857", "#a21caf", "#854d0e", "#334155", "#be123c")
DASHES = ("", "9 5", "2 4", "12 4 2 4", "5 3", "1 5", "14 3 3 3 3 3")

PLOT_WIDTH = 180
PLOT_HEIGHT = 190
LEFT = 40
TOP = 12
BOTTOM = 30
FONT = 14
#: Rough width of one character at FONT, to leave room for the axis name and values.
CHAR = 8.7
#: The same for the bold end labels: DejaVu Sans Bold's digits and minus sign are wider,
#: and "Anne -254" (with a minus sign) was cut at CHAR.
BOLD_CHAR = 10.2
LABEL_GAP = FONT + 3
LABEL_CHARS = 10
SAMPLE = 16
#: Hand numbers are labelled at one of these intervals, the smallest that fits.
EVERY = (1, 2, 5, 10, 20, 50, 100, 200, 500)


def signed(value: int) -> str:
    """A balance with its sign, and a real minus sign (U+2212) that reads well from afar.

    >>> signed(-3) == "\u22123", signed(0), signed(4)
    (True, '0', '+4')
    """
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def short(name: str) -> str:
    """A name cut to fit the label column; the full name is in the description."""
    return name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 1] + "\u2026"


def nice_step(span: int) -> int:
    """A step of 1, 2 or 5 times a power of ten giving at most five grid lines.

    >>> nice_step(7), nice_step(26), nice_step(44), nice_step(180)
    (2, 10, 10, 50)
    """
    step = 1
    while True:
        for factor in (1, 2, 5):
            if span / (step * factor) <= 5:
                return step * factor
        step *= 10


def spread(wanted: Sequence[float], low: float, high: float, gap: float) -> list[float]:
    """Label positions at least ``gap`` apart, as near their line ends as fits in [low, high].

    >>> spread([50, 52, 100], 0, 200, 16)
    [50.0, 66.0, 100.0]
    """
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    ys = [float(wanted[i]) for i in order]
    for i in range(len(ys)):
        ys[i] = max(ys[i], low if i == 0 else ys[i - 1] + gap)
    for i in reversed(range(len(ys))):
        ys[i] = min(ys[i], high if i == len(ys) - 1 else ys[i + 1] - gap)
    out = [0.0] * len(ys)
    for position, i in enumerate(order):
        out[i] = round(ys[position], 1)
    return out


@dataclass(frozen=True, slots=True)
class Frame:
    """Where values land: ``count`` steps along x, ``low``..``high`` (units) along y,
    the plot starting ``left`` from the edge (room for the values and the axis name)."""

    count: int
    low: int
    high: int
    left: float = LEFT

    def x(self, i: int) -> float:
        """The x of step ``i`` (0 is the start, before the first hand)."""
        return round(self.left + PLOT_WIDTH * i / self.count, 1)

    def y(self, value: int) -> float:
        """The y of a balance."""
        return round(TOP + PLOT_HEIGHT * (self.high - value) / (self.high - self.low), 1)


def balance_chart(
    players: Sequence[str],
    points: Sequence[Mapping[str, int]],
    *,
    title: str = "Balances over the evening",
    description: str | None = None,
    empty: str = "No hands yet.",
    axis: str = "Hand",
    final: Mapping[str, int] | None = None,
    final_label: str = "End",
    chart_id: str = "balance-chart",
    value_text: Callable[[int], str] = signed,
) -> str:
    """An accessible SVG of each player's balance after every hand (native units).

    ``points[i]`` is the balances after hand ``i + 1``; a player missing from it had not
    played yet and stands at 0. Every line starts at 0 before the first hand. ``final``
    adds one more point, labelled ``final_label``: the balances after the end rule.
    ``value_text`` writes a value on the axis and at a line's end (money, say: the values
    are then cents); by default a signed number.

    >>> svg = balance_chart(["Anna", "Bert"], [{"Anna": 4, "Bert": -4}])
    >>> svg.count("<polyline"), "Anna +4" in svg
    (2, True)
    """
    steps = [*points, final] if final is not None and points else list(points)
    if description is None:
        finals = (
            ", ".join(f"{p} {value_text(steps[-1].get(p, 0))}" for p in players) if points else ""
        )
        description = f"Balance after each hand. At the end: {finals}." if points else empty
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" class="chart" id="{chart_id}" '
        f'aria-labelledby="{chart_id}-title {chart_id}-desc" '
        f'font-size="{FONT}" font-family="inherit"'
    )
    caption = (
        f'<title id="{chart_id}-title">{escape(title)}</title>'
        f'<desc id="{chart_id}-desc">{escape(description)}</desc>'
    )
    if not points or not players:
        return (
            f'{head} viewBox="0 0 {LEFT + PLOT_WIDTH} 60">{caption}'
            f'<text x="{(LEFT + PLOT_WIDTH) / 2}" y="34" text-anchor="middle" fill="#5b5b66">'
            f"{escape(empty)}</text></svg>"
        )
    series = {p: [0] + [step.get(p, 0) for step in steps] for p in players}
    values = [v for line in series.values() for v in line]
    step = nice_step(max(values) - min(values) or 1)
    low = min(0, min(values) // step * step)
    high = max(0, -(-max(values) // step) * step)
    high = high if high > low else low + step
    # The axis name and the values stand right-aligned left of the plot: room for the
    # longest, so "Runde" is not cut to "unde".
    widest = max(len(axis), *(len(value_text(v)) for v in range(low, high + 1, step)))
    frame = Frame(len(steps), low, high, max(LEFT, round(CHAR * widest + 10)))
    labels = {p: f"{short(p)} {value_text(series[p][-1])}" for p in players}
    width = round(
        frame.left + PLOT_WIDTH + SAMPLE + 18 + BOLD_CHAR * max(map(len, labels.values()))
    )
    return "".join(
        [
            f'{head} viewBox="0 0 {width} {TOP + PLOT_HEIGHT + BOTTOM}">',
            caption,
            *grid(frame, step, value_text),
            *x_labels(frame, len(points), axis, final_label),
            *lines(frame, series, labels),
            "</svg>",
        ]
    )


def grid(frame: Frame, step: int, value_text: Callable[[int], str] = signed) -> list[str]:
    """Horizontal grid lines with their values; the zero line stands out."""
    parts = []
    for value in range(frame.low, frame.high + 1, step):
        stroke = 'stroke="#1d1d1f" stroke-width="1.5"' if value == 0 else 'stroke="#d9d9de"'
        y = frame.y(value)
        parts.append(
            f'<line x1="{frame.left}" x2="{frame.left + PLOT_WIDTH}" y1="{y}" y2="{y}" {stroke}/>'
            f'<text x="{frame.left - 5}" y="{y + 4}" text-anchor="end" fill="#5b5b66">'
            f"{escape(value_text(value))}</text>"
        )
    return parts


def x_labels(frame: Frame, hands: int, axis: str, final_label: str) -> list[str]:
    """The axis name and every 1st, 2nd, 5th, 10th... hand number, as many as fit."""
    base = TOP + PLOT_HEIGHT + 18
    gray = 'text-anchor="end" fill="#5b5b66"'
    parts = [f'<text x="{frame.left - 5}" y="{base}" {gray}>{escape(axis)}</text>']
    room = CHAR * len(str(hands)) + 6
    every = next((e for e in EVERY if PLOT_WIDTH * e / frame.count >= room), max(hands, 1))
    ticks = [(frame.x(i), str(i), "") for i in range(every, hands + 1, every)]
    if frame.count > hands:
        end = frame.x(frame.count)
        ticks = [t for t in ticks if end - t[0] >= CHAR * (len(final_label) + len(t[1])) / 2 + 4]
        ticks.append((end, final_label, ' font-weight="600"'))
    for x, label, weight in ticks:
        parts.append(
            f'<text x="{x}" y="{base}" text-anchor="middle"{weight}>{escape(label)}</text>'
        )
    return parts


def lines(frame: Frame, series: Mapping[str, list[int]], labels: Mapping[str, str]) -> list[str]:
    """A line per player, and at its end a sample of its pattern with name and balance."""
    players = list(series)
    ends = spread(
        [frame.y(series[p][-1]) for p in players], TOP + FONT / 2, TOP + PLOT_HEIGHT + 4, LABEL_GAP
    )
    edge = frame.left + PLOT_WIDTH
    parts = []
    for n, player in enumerate(players):
        colour, dash = COLOURS[n % len(COLOURS)], DASHES[n % len(DASHES)]
        style = f'stroke="{colour}" stroke-width="2.5" fill="none" stroke-linejoin="round"'
        style += f' stroke-dasharray="{dash}"' if dash else ""
        points = " ".join(f"{frame.x(i)},{frame.y(v)}" for i, v in enumerate(series[player]))
        label_y = ends[n]
        parts.append(
            f'<g class="series"><polyline points="{points}" {style}/>'
            f'<line x1="{edge}" y1="{frame.y(series[player][-1])}" x2="{edge + 8}" '
            f'y2="{label_y}" stroke="{colour}" stroke-width="1"/>'
            f'<line x1="{edge + 8}" y1="{label_y}" x2="{edge + 8 + SAMPLE}" y2="{label_y}" '
            f"{style}/>"
            f'<text x="{edge + 14 + SAMPLE}" y="{label_y + 4.5}" fill="{colour}" '
            f'font-weight="600">{escape(labels[player])}</text></g>'
        )
    return parts
