"""A rule set's wheel drawn: one wedge per segment, each labelled with its space's title and
one-line effect (``editions.toml``'s ``[spaces]``), and the slot layout as data.

The engine knows only weights (a space's chance is its weight over the sum). A picture needs
whole segments and an order round the wheel, both ours:

- segments (:func:`wheel_segments`): whole-number weights are segment counts as given;
  other weights, and whole ones adding up to more than :data:`MAX_SEGMENTS`, become the
  smallest whole numbers in the same ratio (``{a:0.5,b:1}``: 1 and 2 segments); a wheel
  whose ratio needs more than :data:`MAX_SEGMENTS` segments is refused (``RuleError``);
- order (:func:`wheel_slots`): each space's segments spread as evenly as possible round the
  wheel (:data:`LAYOUT_RULE`), the same every time. The physical wheels' layouts are not
  known (docs/RULINGS.md), so the picture says its order is an assumption.

>>> from unospin_sim.rules import RuleSet
>>> wheel_slots({"two_x": 2, "swap_hands": 1, "color_discard": 1, "war": 0})
('two_x', 'swap_hands', 'two_x', 'color_discard')
>>> format_slots(wheel_slots(RuleSet.build("spin2025").option("wheel")))[:38]
'8 slots, clockwise from the pointer: c'
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import RuleError

__all__ = [
    "LAYOUT_RULE",
    "MAX_SEGMENTS",
    "format_slots",
    "plot_wheel",
    "wheel_segments",
    "wheel_slots",
]

#: the most segments a drawn wheel has: 9 spaces of 4 (``design --vary wheel``'s largest),
#: each still with room for its label
MAX_SEGMENTS = 36

#: the slot order's rule, as the picture states it
LAYOUT_RULE = (
    "slot order assumed, not the physical wheel's: each space's segments spread as "
    "evenly as possible round the wheel"
)

#: UNO's colours, for the spaces named after one (draw_red, color_draw_blue, ...)
_UNO_COLOURS = {"red": "#d72600", "yellow": "#ecd407", "green": "#379711", "blue": "#0956bf"}
#: the other spaces' colours, in the order the spaces first appear on a wheel; wilds black
_OTHER_COLOURS = ("#8dd3c7", "#bebada", "#fdb462", "#b3de69", "#fccde5", "#80b1d3", "#d9d9d9")


def wheel_segments(weights: Mapping[str, float]) -> dict[str, int]:
    """Whole segments for the wheel weights ``weights``.

    Parameters
    ----------
    weights : mapping
        ``{space: weight}`` in wheel order (``RuleSet.option("wheel")``); spaces of weight
        0 get no segment.

    Returns
    -------
    dict
        ``{space: segments}`` of the spaces with a positive weight, in the given order:
        the weights themselves when they are whole numbers adding up to at most
        :data:`MAX_SEGMENTS`, else the smallest whole numbers in the weights' ratio.

    Raises
    ------
    RuleError
        No positive weight, or a ratio that needs more than :data:`MAX_SEGMENTS` segments.
    """
    w = {s: float(x) for s, x in weights.items() if float(x) > 0}
    if not w:
        raise RuleError("the wheel has no space of positive weight: nothing to draw")
    if all(x.is_integer() for x in w.values()) and sum(w.values()) <= MAX_SEGMENTS:
        return {s: int(x) for s, x in w.items()}
    least = min(w.values())
    for m in range(1, MAX_SEGMENTS + 1):  # the least weight's segments
        counts = {s: x / least * m for s, x in w.items()}
        if all(abs(c - round(c)) <= 1e-9 * max(1.0, c) for c in counts.values()):
            whole = {s: round(c) for s, c in counts.items()}
            if sum(whole.values()) <= MAX_SEGMENTS:
                return whole
            break
    text = ",".join(f"{s}:{x:g}" for s, x in w.items())
    raise RuleError(
        f"cannot draw the wheel {{{text}}}: its weights are in no ratio of whole numbers "
        f"adding up to at most {MAX_SEGMENTS} segments; give whole-number weights"
    )


def _cost(slots: list[int], counts: Sequence[int]) -> tuple[int, float]:
    """(neighbouring slots of one space, sum of each gap's squared distance from the even
    gap) of a slot order: what the layout keeps low."""
    n = len(slots)
    where: list[list[int]] = [[] for _ in counts]
    for i, r in enumerate(slots):
        where[r].append(i)
    touching, spread = 0, 0.0
    for r, c in enumerate(counts):
        if c < 2:
            continue
        pos = where[r]
        for a, b in zip(pos, pos[1:] + [pos[0] + n]):
            touching += b - a == 1
            spread += (b - a - n / c) ** 2
    return touching, spread


def wheel_slots(weights: Mapping[str, float]) -> tuple[str, ...]:
    """The wheel's slots, clockwise from the pointer: each space once per segment.

    The layout rule (ours; the engine uses weights only): with ``k`` spaces of
    :func:`wheel_segments` counts, segment ``j`` of the ``r``-th space (wheel order) with
    ``c`` segments starts at the point ``(j + (r + 1/2) / k) / c`` of the way round, and the
    slots take the spaces in the order of their points (ties in wheel order). Then, slot
    pairs in index order, swapping two slots is kept while it lowers, first, the number of
    neighbouring slots of one space and, second, the sum over spaces of each gap between
    its consecutive segments' squared distance from the even gap (slots over segments),
    until no swap lowers them. The same weights give the same slots every time; a wheel of
    one segment per space keeps the wheel order.

    Parameters
    ----------
    weights : mapping
        ``{space: weight}`` in wheel order, as for :func:`wheel_segments`.

    Returns
    -------
    tuple of str
        One space name per slot.
    """
    seg = wheel_segments(weights)
    names, counts = list(seg), list(seg.values())
    k = len(names)
    points = sorted(((j + (r + 0.5) / k) / c, r) for r, c in enumerate(counts) for j in range(c))
    slots = [r for _, r in points]
    best = _cost(slots, counts)
    improved = True
    while improved:
        improved = False
        for i in range(len(slots)):
            for j in range(i + 1, len(slots)):
                if slots[i] == slots[j]:
                    continue
                slots[i], slots[j] = slots[j], slots[i]
                cost = _cost(slots, counts)
                if cost[0] < best[0] or (cost[0] == best[0] and cost[1] < best[1] - 1e-9):
                    best, improved = cost, True
                else:
                    slots[i], slots[j] = slots[j], slots[i]
    return tuple(names[r] for r in slots)


def format_slots(slots: Sequence[str]) -> str:
    """The slot layout as one line: ``"12 slots, clockwise from the pointer: a, b, ..."``."""
    return f"{len(slots)} slots, clockwise from the pointer: {', '.join(slots)}"


def _colours(names: Sequence[str]) -> dict[str, str]:
    out, others = {}, iter(_OTHER_COLOURS * 3)
    for s in names:
        colour = next((c for word, c in _UNO_COLOURS.items() if word in s.split("_")), None)
        out[s] = colour or ("#222222" if s.startswith("wild") else next(others))
    return out


def _label_style(n: int) -> tuple[float, int]:
    """Font size and effect-line width for a wheel of ``n`` slots (a figure ~9 in wide)."""
    return max(5.0, min(9.0, 150.0 / n)), 28 if n <= 24 else 48


def plot_wheel(rules: Any, ax=None):
    """Draw the wheel of ``rules``: one wedge per segment (:func:`wheel_slots`), clockwise
    from the pointer at the top, each labelled with its space's title and one-line effect;
    the title gives the edition, the slot count and the weights, the foot the layout rule.

    Parameters
    ----------
    rules : RuleSet or str
        A rule set with a wheel, or its rule string.
    ax : matplotlib Axes, optional
        Where to draw (default: a new 9 x 9.5 inch figure; the labels are sized for it).

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    RuleError
        The edition has no wheel, or its weights cannot be drawn (:func:`wheel_segments`).
    """
    import math

    from matplotlib.colors import to_rgb
    from matplotlib.patches import Circle, Polygon, Wedge

    from ..rules import parse_rules
    from ..rules.values import format_number

    if isinstance(rules, str):
        rules = parse_rules(rules)
    if not rules.wheel_spaces():
        raise RuleError(f"{rules.edition} has no wheel: choose spin2005 or spin2025")
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(9, 9.5))
    weights = rules.option("wheel")
    seg = wheel_segments(weights)
    slots = wheel_slots(weights)
    n, step = len(slots), 360.0 / len(slots)
    colour = _colours(list(seg))
    size, width = _label_style(n)
    for i, s in enumerate(slots):
        top = 90.0 - i * step  # slot i runs clockwise from the angle ``top``
        ax.add_patch(Wedge((0, 0), 1.0, top - step, top, fc=colour[s], ec="white", lw=1.5))
        mid = math.radians(top - step / 2)
        rot = math.degrees(mid) if math.cos(mid) >= -1e-9 else math.degrees(mid) + 180
        ink = "white" if sum(to_rgb(colour[s])) < 1.5 else "black"
        words = rules.space_words(s)
        text = "\n".join([words.title, *textwrap.wrap(words.effect, width)])
        ax.text(
            0.6 * math.cos(mid),
            0.6 * math.sin(mid),
            text,
            rotation=rot,
            rotation_mode="anchor",
            ha="center",
            va="center",
            fontsize=size,
            color=ink,
            linespacing=1.1,
        )
        ax.text(
            1.05 * math.cos(mid),
            1.05 * math.sin(mid),
            str(i + 1),
            ha="center",
            va="center",
            fontsize=7,
            color="grey",
        )
    ax.add_patch(Circle((0, 0), 0.15, fc="white", ec="black", lw=1))
    ax.text(0, 0, "SPIN", ha="center", va="center", fontsize=9, weight="bold")
    ax.add_patch(Polygon([(-0.05, 1.16), (0.05, 1.16), (0, 1.02)], closed=True, fc="black"))
    wheel = ", ".join(f"{s}:{format_number(w)}" for s, w in weights.items() if w > 0)
    lines = [f"{rules.edition_data.title} wheel: {n} slots"]
    lines += textwrap.wrap(f"wheel={{{wheel}}}", 100)
    if any(float(weights[s]) != c for s, c in seg.items()):
        lines.append(f"drawn as {':'.join(map(str, seg.values()))} segments (the same ratio)")
    ax.set_title("\n".join(lines), fontsize=10)
    ax.text(
        0.5,
        0.0,
        "\n".join(textwrap.wrap(LAYOUT_RULE[0].upper() + LAYOUT_RULE[1:] + ".", 90)),
        transform=ax.transAxes,
        ha="center",
        va="top",
        fontsize=8,
        style="italic",
    )
    ax.set_xlim(-1.2, 1.2)
    ax.set_ylim(-1.15, 1.2)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax
