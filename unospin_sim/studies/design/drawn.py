"""The recommended design's wheel drawn into the study's directory: ``wheel.svg`` and
``wheel.png`` (``plots.plot_wheel``, the picture ``wheel --draw`` makes) and ``wheel.txt``
(its rule string, the slot layout and the layout rule, as ``wheel --draw`` prints them)."""

from __future__ import annotations

from pathlib import Path

from ...errors import RuleError
from ...rules import parse_rules
from .spec import atomic_write

__all__ = ["WHEEL_FILES", "draw_recommended"]

#: the files of the drawn wheel, in the study's directory
WHEEL_FILES = ("wheel.svg", "wheel.png", "wheel.txt")


def draw_recommended(out: Path, rules: str | None) -> list[str]:
    """Draw the wheel of the design ``rules`` (a rule string; None: no design) into
    ``out``; returns the names written. An earlier study's wheel files are removed first,
    so none is left beside a design that has no wheel to draw (none recommended, an edition
    without a wheel, or a wheel of more segments than a picture can label)."""
    import matplotlib
    from matplotlib.figure import Figure  # no pyplot: the caller's backend is untouched

    from ...plots import LAYOUT_RULE, format_slots, plot_wheel, wheel_slots

    for name in WHEEL_FILES:
        (out / name).unlink(missing_ok=True)
    if rules is None:
        return []
    rs = parse_rules(rules)
    if not rs.wheel_spaces():
        return []
    try:
        slots = wheel_slots(rs.option("wheel"))
    except RuleError:
        return []
    fig = Figure(figsize=(9, 9.5))
    plot_wheel(rs, ax=fig.subplots())
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # labels as text in the SVG
        fig.savefig(out / "wheel.svg", format="svg", bbox_inches="tight", metadata={"Date": None})
    fig.savefig(out / "wheel.png", format="png", dpi=150, bbox_inches="tight")
    atomic_write(out / "wheel.txt", f"rules {rs}\n{format_slots(slots)}\n({LAYOUT_RULE})\n")
    return list(WHEEL_FILES)
