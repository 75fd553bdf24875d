"""Line charts as plain numbers for a server-rendered SVG (no script, no
style attribute: the Content-Security-Policy allows neither inline)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from app.db.facts import points_count
from app.db.models import Result

WIDTH, HEIGHT = 320, 160
#: Room for the y-axis labels on the left and a margin elsewhere, in SVG units.
LEFT, PAD = 30, 8


@dataclass
class Series:
    """One line: its CSS class (colour) and the SVG ``points`` of its
    polyline."""

    css: str
    points: str


@dataclass
class LineChart:
    """A chart in a ``WIDTH`` × ``HEIGHT`` view box: its lines and the
    y-axis ticks as ``(y, value)`` (the page writes the value in its
    language's digits); the x-axis runs over games, oldest first."""

    series: list[Series]
    ticks: list[tuple[float, float]]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    pad: int = PAD


def line_chart(lines: Sequence[tuple[str, Sequence[float]]]) -> LineChart | None:
    """Return a chart of ``lines`` (``(css_class, values)``, values per game
    oldest first), on one y scale from 0; ``None`` with fewer than 2 values."""
    longest = max((len(values) for _, values in lines), default=0)
    if longest < 2:
        return None
    top = max(max(values, default=0) for _, values in lines)
    top = _nice(top)
    span_x = (WIDTH - LEFT - PAD) / (longest - 1)

    def y(value: float) -> float:
        return round(HEIGHT - PAD - (HEIGHT - 2 * PAD) * value / top, 1)

    series = [
        Series(
            css,
            " ".join(f"{round(LEFT + i * span_x, 1)},{y(v)}" for i, v in enumerate(values)),
        )
        for css, values in lines
    ]
    ticks = [(y(top * step / 4), top * step / 4) for step in range(5)]
    return LineChart(series, ticks)


def _nice(value: float) -> float:
    """Round ``value`` up to 1, 2 or 5 times a power of ten (at least 1)."""
    if value <= 1:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 5, 10):
        if value <= step * power:
            return float(step * power)
    return float(10 * power)


def scored_as_set(results: Sequence[Result]) -> list[Result]:
    """The ``results`` whose games score as their rule set does (not those
    whose house rules set what a pişti or the cards are worth: a pişti of
    999,999 points would flatten every other game's line)."""
    return [r for r in results if r.hands and points_count(r.house)]


def points_per_hand(results: Sequence[Result]) -> LineChart | None:
    """Points per hand in each game, oldest first, of the games
    :func:`scored_as_set` keeps."""
    return line_chart([("line-points", [r.points / r.hands for r in scored_as_set(results)])])


def pistis_per_hand(results: Sequence[Result]) -> LineChart | None:
    """Piştis and Jack piştis per hand in each game, oldest first."""
    played = [r for r in results if r.hands]
    return line_chart(
        [
            ("line-pisti", [r.pistis / r.hands for r in played]),
            ("line-jack", [r.jack_pistis / r.hands for r in played]),
        ]
    )
