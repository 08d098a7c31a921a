"""The report's building blocks: a document of blocks rendered as Markdown and as one
self-contained HTML page (:class:`Doc`), table cells with their intervals, and saving a
chart beside the report.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from .render import md_alt, render_html

__all__ = ["Doc", "fmt_value", "format_p", "pp", "ratio_interval", "save_figure", "with_ci"]


def format_p(p: float) -> str:
    """A p-value for people: 3 significant digits, ``< 1e-6`` below that, ``-`` if NaN."""
    if p is None or not math.isfinite(p):
        return "-"
    if p < 1e-6:
        return "< 1e-6"
    return f"{p:.3g}"


def ratio_interval(a, b, z: float = 1.959963984540054) -> tuple[float, float, float]:
    """Ratio of the means of two independent samples, ``mean(a) / mean(b)``, with a
    delta-method 95% interval (on the log scale). Returns ``(ratio, low, high)``."""
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    if len(a) < 2 or len(b) < 2 or a.mean() <= 0 or b.mean() <= 0:
        return math.nan, math.nan, math.nan
    ma, mb = a.mean(), b.mean()
    se = math.sqrt(a.var(ddof=1) / len(a) / ma**2 + b.var(ddof=1) / len(b) / mb**2)
    r = ma / mb
    return r, r * math.exp(-z * se), r * math.exp(z * se)


def fmt_value(v, digits=4):
    """A table cell: floats to ``digits`` significant digits, ``-`` if not finite."""
    if isinstance(v, (float, np.floating)):
        if not math.isfinite(v):
            return "-"
        return f"{v:.{digits}g}"
    return str(v)


def with_ci(df: pd.DataFrame, cols, digits=4, scale=None) -> pd.DataFrame:
    """Columns ``c``, ``c_low``, ``c_high`` folded into one text column ``c [low, high]``,
    the three numbers at one precision (:func:`~unospin_sim.analysis.stats.format_interval`;
    ``scale``: {column: factor}, e.g. 100 for percentage points)."""
    from ..analysis.stats import format_interval

    scale = scale or {}
    out = pd.DataFrame(index=df.index)
    for c in df.columns:
        if c.endswith("_low") or c.endswith("_high"):
            continue
        f = scale.get(c, 1.0)
        if c in cols and f"{c}_low" in df:
            out[c] = [
                format_interval(f * v, f * lo, f * hi, digits)
                for v, lo, hi in zip(df[c], df[f"{c}_low"], df[f"{c}_high"])
            ]
        else:
            out[c] = df[c]
    return out


class Doc:
    """Blocks rendered as Markdown (:meth:`markdown`), and as one self-contained HTML page
    rendered from that Markdown (:meth:`html`, :func:`~unospin_sim.report.render.render_html`)."""

    def __init__(self, out: Path):
        self.out = out
        self.blocks: list[tuple] = []  # (kind, its arguments ...)

    def h(self, level, text):
        self.blocks.append(("h", level, text))

    def p(self, text):
        self.blocks.append(("p", text))

    def ul(self, items):
        self.blocks.append(("ul", list(items)))

    def code(self, text):
        self.blocks.append(("code", text))

    def table(self, df: pd.DataFrame, digits=4):
        self.blocks.append(("table", df.reset_index(), digits))

    def figure(self, name, caption, alt):
        """The chart ``name`` (a PNG in ``out``) with its ``caption`` and ``alt`` text (what
        the chart shows, :func:`~unospin_sim.report.render.chart_alt`)."""
        self.blocks.append(("fig", name, caption, alt))

    def markdown(self) -> str:
        md = []
        for b in self.blocks:
            if b[0] == "h":
                md += ["#" * b[1] + " " + b[2], ""]
            elif b[0] == "p":
                md += [b[1], ""]
            elif b[0] == "ul":
                md += [f"- {i}" for i in b[1]] + [""]
            elif b[0] == "code":
                md += ["```", b[1], "```", ""]
            elif b[0] == "table":
                df, digits = b[1], b[2]
                md.append("| " + " | ".join(_cell(c) for c in df.columns) + " |")
                md.append("|" + "---|" * len(df.columns))
                for row in df.itertuples(index=False):
                    md.append("| " + " | ".join(_cell(fmt_value(v, digits)) for v in row) + " |")
                md.append("")
            elif b[0] == "fig":
                md += [f"![{md_alt(b[3])}]({b[1]})", "", b[2], ""]
        return "\n".join(md)

    def html(self, title) -> str:
        """The page of :meth:`markdown`, the charts embedded."""
        return render_html(self.markdown(), self.out, title)


def _cell(v) -> str:
    """A Markdown table cell: ``|`` escaped."""
    return str(v).replace("|", "\\|")


def pp(v) -> str:
    """A share as signed percentage points, one decimal: ``+1.2``."""
    return f"{100 * v:+.1f}"


def save_figure(fig, out: Path, name: str) -> None:
    """Lay out ``fig``, save it as ``out/name`` (PNG, 110 dpi) and close it."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(out / name, dpi=110)
    plt.close(fig)
