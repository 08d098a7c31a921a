"""The report's building blocks: a document of blocks rendered as Markdown and as one
self-contained HTML page (:class:`Doc`), table cells with their intervals, and saving a
chart beside the report.
"""

from __future__ import annotations

import base64
import html
import math
from pathlib import Path

import numpy as np
import pandas as pd

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
    """Columns ``c``, ``c_low``, ``c_high`` folded into one text column ``c [low, high]``
    (``scale``: {column: factor}, e.g. 100 for percentage points)."""
    scale = scale or {}
    out = pd.DataFrame(index=df.index)
    for c in df.columns:
        if c.endswith("_low") or c.endswith("_high"):
            continue
        f = scale.get(c, 1.0)
        if c in cols and f"{c}_low" in df:
            out[c] = [
                f"{fmt_value(f * v, digits)} [{fmt_value(f * lo, digits)}, {fmt_value(f * hi, digits)}]"
                for v, lo, hi in zip(df[c], df[f"{c}_low"], df[f"{c}_high"])
            ]
        else:
            out[c] = df[c]
    return out


class Doc:
    """Blocks rendered both as Markdown and as one self-contained HTML page."""

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

    def figure(self, name, caption):
        self.blocks.append(("fig", name, caption))

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
                md.append("| " + " | ".join(map(str, df.columns)) + " |")
                md.append("|" + "---|" * len(df.columns))
                for row in df.itertuples(index=False):
                    md.append("| " + " | ".join(fmt_value(v, digits) for v in row) + " |")
                md.append("")
            elif b[0] == "fig":
                md += [f"![{b[1]}]({b[1]})", "", b[2], ""]
        return "\n".join(md)

    def html(self, title) -> str:
        def inline(text):
            # `code` spans of the Markdown text
            parts = html.escape(text).split("`")
            return "".join(f"<code>{s}</code>" if i % 2 else s for i, s in enumerate(parts))

        body = []
        for b in self.blocks:
            if b[0] == "h":
                body.append(f"<h{b[1]}>{inline(b[2])}</h{b[1]}>")
            elif b[0] == "p":
                body.append(f"<p>{inline(b[1])}</p>")
            elif b[0] == "ul":
                body.append("<ul>" + "".join(f"<li>{inline(i)}</li>" for i in b[1]) + "</ul>")
            elif b[0] == "code":
                body.append(f"<pre>{html.escape(b[1])}</pre>")
            elif b[0] == "table":
                df, digits = b[1], b[2]
                head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
                rows = "".join(
                    "<tr>"
                    + "".join(f"<td>{html.escape(fmt_value(v, digits))}</td>" for v in row)
                    + "</tr>"
                    for row in df.itertuples(index=False)
                )
                body.append(f"<table><tr>{head}</tr>{rows}</table>")
            elif b[0] == "fig":
                data = base64.b64encode((self.out / b[1]).read_bytes()).decode("ascii")
                body.append(
                    f'<figure><img alt="{html.escape(b[1])}" '
                    f'src="data:image/png;base64,{data}"><figcaption>'
                    f"{inline(b[2])}</figcaption></figure>"
                )
        style = (
            "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
            "table{border-collapse:collapse;font-size:12px;margin:1em 0}"
            "td,th{border:1px solid #ccc;padding:2px 6px}img{max-width:100%}"
            "figcaption{font-size:12px;color:#444}pre{background:#f4f4f4;padding:6px}"
        )
        return (
            f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
            f"</title><style>{style}</style></head><body>" + "\n".join(body) + "</body></html>"
        )


def pp(v) -> str:
    """A share as signed percentage points, one decimal: ``+1.2``."""
    return f"{100 * v:+.1f}"


def save_figure(fig, out: Path, name: str) -> None:
    """Lay out ``fig``, save it as ``out/name`` (PNG, 110 dpi) and close it."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(out / name, dpi=110)
    plt.close(fig)
