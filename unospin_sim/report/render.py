"""The report's HTML: ``report.md`` rendered by a Markdown library (mistune) into one
self-contained page (:func:`render_html`): a contents list of the sections, tables with
borders, zebra rows and numbers right-aligned, and the charts embedded (base64 PNG) with alt
text that says what each chart shows (:func:`chart_alt`). :func:`rerender` writes a report
directory's ``report.html`` again from its ``report.md`` and the charts beside it (``python
-m unospin_sim report --rerender DIR``).
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

__all__ = [
    "CHARTS",
    "align_numbers",
    "chart_alt",
    "describe_charts",
    "md_alt",
    "render_html",
    "rerender",
]

#: each chart's kind (its file name without the run index) -> what it shows; ``{runs}``:
#: the runs drawn, comma-separated
CHARTS = {
    "balance": (
        "Two charts: left, the round win rate of the player who acts first minus a fair share in "
        "percentage points with 95% intervals, one point per run; right, the distribution of "
        "turns per round, one curve per run. Runs: {runs}."
    ),
    "seats": (
        "Round win rate of the player who acts first (after the first card's effect), "
        "then of each seat in seat order (seat 0 left of the dealer, the dealer last; "
        "players in a match run), with 95% intervals against a dashed fair-share line, "
        "one series per run. Runs: {runs}."
    ),
    "wheel": (
        "Two bar charts of the {runs} wheel, one bar per space: left, the relative swing "
        "of the spinner's round win rate in percentage points with 95% intervals; right, "
        "the change of the spinner's hand size per spin."
    ),
    "wheel_drawn": (
        "The {runs} wheel drawn: one wedge per segment, clockwise from the pointer, each "
        "labelled with its space and its effect; the slot order is assumed."
    ),
    "wheel_effects": (
        "Bar chart of the {runs} wheel, one bar per space: the change in the spinner's "
        "chance to win the round against a blank space, percentage points with 95% "
        "intervals."
    ),
    "skill_profile": (
        "Line chart of each variant's skill trace: for each doubling of the search budget "
        "(rollouts a decision, log scale), the doubled bot's gain in points of rounds over a "
        "fair share against the budget below, with 95% intervals, the 1- and 2-point lines "
        "and each variant's skill depth. Variants: {runs}."
    ),
    "race": (
        "Step curves of the share of matches decided within k rounds, cumulative, one "
        "curve per run. Runs: {runs}."
    ),
    "race_lead": (
        "Curves of the chance that the sole leader after round k wins the match, by round "
        "k, with 95% intervals, one curve per run. Runs: {runs}."
    ),
    "race_heat": (
        "Heat map of {runs}: the chance, in percent, that the sole leader after round k "
        "wins the match, by round k (across) and the lead over second place (up)."
    ),
}

#: a numeric table cell: a number (with its interval), or a sign, ``-`` (not finite),
#: ``< 1e-6`` (a p-value), ``n/a``
_NUMBER = re.compile(
    r"^(?:[-+]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?%?(?: \[[^\]]*\])?|[-+]|< 1e-6|n/a)$"
)
_SEPARATOR = re.compile(r"^\|(?:\s*:?-+:?\s*\|)+$")
_IMAGE = re.compile(r"^!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]+)\)$")
_LABEL = re.compile(r"`([^`]+)`")

_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
    "line-height:1.45;color:#222}"
    "h1,h2,h3{line-height:1.2}h2{margin-top:2em;border-bottom:1px solid #ddd}"
    "nav.contents{background:#f6f8fa;border:1px solid #ddd;padding:.5em 1em;margin:1em 0}"
    "nav.contents h2{margin:.3em 0;border:0;font-size:1.1em}"
    "nav.contents ul{margin:.3em 0;padding-left:1.2em}"
    ".table{overflow-x:auto;margin:1em 0}"
    "table{border-collapse:collapse;font-size:13px}"
    "th,td{border:1px solid #c8ccd0;padding:3px 8px;vertical-align:top}"
    "td:first-child{overflow-wrap:anywhere;min-width:12em}"
    "th{background:#eef1f4;text-align:left}th.num{text-align:right}"
    "tbody tr:nth-child(even){background:#f6f8fa}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    "figure{margin:1.5em 0 .3em}img{max-width:100%}"
    "figure+p{font-size:13px;color:#444;margin-top:0}"
    "code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.88em;background:#f2f2f2;"
    "padding:0 .2em;border-radius:3px;overflow-wrap:anywhere}"
    "pre{background:#f4f4f4;padding:6px;overflow-x:auto}pre code{background:none}"
)


def chart_alt(name: str, runs) -> str:
    """The alt text of chart ``name`` (a file name such as ``wheel_1.png``): what its kind
    shows (:data:`CHARTS`), for the runs ``runs`` (labels) drawn in it.

    Parameters
    ----------
    name : str
        The chart's file name.
    runs : sequence of str
        The labels of the runs drawn.

    Returns
    -------
    str
        The alt text, or ``"Chart <stem>: runs ..."`` for a kind not in :data:`CHARTS`.
    """
    stem = Path(name).stem
    kind = re.sub(r"_\d+$", "", stem)
    runs = ", ".join(runs) or "none"
    if kind not in CHARTS:
        return f"Chart {stem.replace('_', ' ')}: runs {runs}."
    return CHARTS[kind].format(runs=runs)


def md_alt(text: str) -> str:
    """Alt text safe inside Markdown's ``![...]``: brackets and backslashes escaped."""
    return re.sub(r"([\\\[\]])", r"\\\1", text)


def describe_charts(markdown: str) -> str:
    """``markdown`` with every image whose alt text is only its file name (reports written
    before the alt texts) given its :func:`chart_alt`, the runs read from the document
    itself: a per-run chart's run from its section heading (wheel charts) or its caption
    (lead heat maps); the race charts' runs from the race section's ``N matches`` lines;
    the other charts' from the Runs list (runs flagged as mixed bots without rotation left
    out, as the balance and seat charts leave them out)."""
    lines = markdown.splitlines()
    runs, race_runs, heading = [], [], ""
    section = ""
    for ln in lines:
        if ln.startswith("## "):
            section = ln
        elif section == "## Runs" and ln.startswith("- `"):
            if "Mixed bots without rotation" not in ln:
                runs += _LABEL.findall(ln)[:1]
        m = re.match(r"^`([^`]+)`: [\d,]+ matches$", ln)
        if m:
            race_runs.append(m.group(1))
    out = []
    for i, ln in enumerate(lines):
        if ln.startswith("## "):
            heading = ln
        m = _IMAGE.match(ln)
        if m and m["alt"] in (
            m["src"],
            Path(m["src"]).stem,
            re.sub(r"_\d+$", "", Path(m["src"]).stem),
        ):
            kind = re.sub(r"_\d+$", "", Path(m["src"]).stem)
            caption = next((c for c in lines[i + 1 :] if c.strip()), "")
            if kind in ("wheel", "wheel_drawn", "wheel_effects"):
                drawn = _LABEL.findall(heading)[:1]
            elif kind == "race_heat":
                drawn = _LABEL.findall(caption)[:1]
            elif kind in ("race", "race_lead"):
                drawn = race_runs
            else:
                drawn = runs
            ln = f"![{md_alt(chart_alt(m['src'], drawn))}]({m['src']})"
        out.append(ln)
    return "\n".join(out) + ("\n" if markdown.endswith("\n") else "")


def _cells(line: str) -> list[str]:
    """The cells of a Markdown table row (``|`` escaped as ``\\|`` inside a cell)."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def align_numbers(markdown: str) -> str:
    """``markdown`` with every table column whose cells are all numbers (:data:`_NUMBER`)
    marked right-aligned in its separator row (``---:``)."""
    lines = markdown.splitlines()
    for i in range(1, len(lines)):
        if not (lines[i - 1].startswith("|") and _SEPARATOR.match(lines[i].strip())):
            continue
        body = []
        for ln in lines[i + 1 :]:
            if not ln.startswith("|"):
                break
            body.append(_cells(ln))
        width = len(_cells(lines[i]))
        right = [
            bool(body) and all(j < len(r) and _NUMBER.match(r[j]) for r in body)
            for j in range(width)
        ]
        lines[i] = "|" + "".join("---:|" if r else "---|" for r in right)
    return "\n".join(lines) + ("\n" if markdown.endswith("\n") else "")


def _slug(text: str) -> str:
    """A heading id: lower-case words joined by hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", html.unescape(re.sub(r"<[^>]+>", "", text)).lower()).strip(
        "-"
    )


def _renderer_class():
    """The HTML renderer (a mistune class, imported when a report is rendered)."""
    import mistune

    class ReportRenderer(mistune.HTMLRenderer):
        """mistune's HTML with heading ids (collected for the contents), tables wrapped
        for scrolling, right-aligned cells (:func:`align_numbers`) in a numbers' style, and
        images embedded from ``out``."""

        def __init__(self, out: Path):
            super().__init__(escape=True)
            self.out = out
            self.contents: list[tuple[str, str]] = []  # (id, inner HTML) of every h2
            self.ids: set[str] = set()

        def heading(self, text, level, **attrs):
            hid = base = _slug(text) or "section"
            n = 1
            while hid in self.ids:
                n += 1
                hid = f"{base}-{n}"
            self.ids.add(hid)
            if level == 2:
                self.contents.append((hid, text))
            return f'<h{level} id="{hid}">{text}</h{level}>\n'

        def image(self, text, url, title=None):
            data = base64.b64encode((self.out / url).read_bytes()).decode("ascii")
            alt = html.escape(html.unescape(re.sub(r"<[^>]+>", "", text)), quote=True)
            return f'<img alt="{alt}" src="data:image/png;base64,{data}">'

        def paragraph(self, text):
            if text.startswith("<img ") and text.count("<img ") == 1 and text.endswith(">"):
                return f"<figure>{text}</figure>\n"
            return super().paragraph(text)

        def table(self, text):
            return f'<div class="table"><table>\n{text}</table></div>\n'

        def table_cell(self, text, align=None, head=False):
            tag = "th" if head else "td"
            cls = ' class="num"' if align == "right" else ""
            return f"<{tag}{cls}>{text}</{tag}>"

    return ReportRenderer


def render_html(markdown: str, out: Path, title: str) -> str:
    """The report's HTML page from its Markdown text.

    Parameters
    ----------
    markdown : str
        The report's Markdown (``report.md``).
    out : pathlib.Path
        The report directory, where the charts the Markdown names are read (and embedded).
    title : str
        The page's title.

    Returns
    -------
    str
        One self-contained HTML page: the document's first heading, a contents list linking
        every section (level-2 heading), then the rest of the document.
    """
    import mistune

    renderer = _renderer_class()(Path(out))
    md = mistune.create_markdown(renderer=renderer, plugins=["table"])
    body = str(md(align_numbers(describe_charts(markdown))))
    contents = "".join(f'<li><a href="#{hid}">{text}</a></li>' for hid, text in renderer.contents)
    nav = f'<nav class="contents"><h2>Contents</h2><ul>{contents}</ul></nav>\n'
    end = body.find("</h1>")
    body = body[: end + 6] + nav + body[end + 6 :] if end >= 0 else nav + body
    return (
        f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>\n<body>\n"
        f"{body}</body></html>\n"
    )


def rerender(directory) -> Path:
    """Write ``report.html`` of a report directory again from its ``report.md`` and the
    charts beside it (which are read, never written): the page the ``report`` command writes
    from the same document.

    Parameters
    ----------
    directory : path-like
        A report directory (holding ``report.md``).

    Returns
    -------
    pathlib.Path
        The written ``report.html``.
    """
    from ..errors import UserError

    d = Path(directory)
    md = d / "report.md"
    if not md.is_file():
        raise UserError(f"--rerender {d}: no report.md there")
    text = md.read_text(encoding="utf-8")
    title = next((ln[2:].strip() for ln in text.splitlines() if ln.startswith("# ")), "report")
    for m in (_IMAGE.match(ln) for ln in text.splitlines()):
        if m and not (d / m["src"]).is_file():
            raise UserError(f"--rerender {d}: the chart {m['src']} of report.md is missing")
    path = d / "report.html"
    path.write_text(render_html(text, d, title), encoding="utf-8")
    return path
