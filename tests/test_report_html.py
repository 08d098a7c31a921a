"""The report's HTML is its Markdown rendered: no literal Markdown syntax outside code, tables
as HTML tables, a contents list linking every section, and each chart with alt text saying
what it shows (issue 46, item 8). Read with a real HTML parser (``html.parser``)."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from unospin_sim.report.render import align_numbers, chart_alt, describe_charts, rerender

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "results_format1"
REPORTS = Path(__file__).resolve().parent.parent / "reports"
COMMITTED = sorted(p.parent for p in REPORTS.glob("*/report.html"))

#: Markdown syntax that must not be left in the text a reader sees
LITERAL_MARKDOWN = {
    "bold **": re.compile(r"\*\*"),
    "bold __": re.compile(r"__"),
    "code span": re.compile(r"`[^`\n]+`"),
    "link": re.compile(r"\[[^\]\n]*\]\([^)\n]*\)"),
    "heading": re.compile(r"^\s*#", re.M),
    "table row": re.compile(r"^\s*\|", re.M),
}


class Page(HTMLParser):
    """The text outside <code>, <pre>, <style> and <title>, the images' alt texts, the
    element ids, the contents list's links and the table cells."""

    SKIP = frozenset({"code", "pre", "style", "title"})

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.skip, self.in_nav = 0, 0
        self.text, self.alts, self.srcs, self.ids, self.links = [], [], [], set(), []
        self.tables, self.num_cells = 0, 0
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in self.SKIP:
            self.skip += 1
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "nav":
            self.in_nav += 1
        if tag == "a" and self.in_nav and a.get("href", "").startswith("#"):
            self.links.append(a["href"][1:])
        if tag == "img":
            self.alts.append(a.get("alt"))
            self.srcs.append(a.get("src", ""))
        if tag == "table":
            self.tables += 1
        if tag == "td" and "num" in (a.get("class") or "").split():
            self.num_cells += 1

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.skip -= 1
        if tag == "nav":
            self.in_nav -= 1

    def handle_data(self, data):
        if not self.skip:
            self.text.append(data)


def check_page(path: Path) -> Page:
    """Parse ``path`` and assert what every report page must hold."""
    page = Page(path.read_text(encoding="utf-8"))
    for i, chunk in enumerate(page.text):
        for what, pattern in LITERAL_MARKDOWN.items():
            m = pattern.search(chunk)
            assert m is None, f"{path}: literal Markdown ({what}) {m.group(0)!r} in {chunk!r}"
    assert page.alts, f"{path}: no chart"
    for alt, src in zip(page.alts, page.srcs):
        assert alt and alt.strip(), f"{path}: an image without alt text"
        assert not re.fullmatch(r"[\w.-]+(\.png)?", alt), f"{path}: alt text {alt!r} is a name"
        assert len(alt.split()) >= 8, f"{path}: alt text {alt!r} says too little"
        assert src.startswith("data:image/png;base64,"), f"{path}: a chart not embedded"
    assert len(page.links) >= 4, f"{path}: no contents list"
    assert not set(page.links) - page.ids, f"{path}: contents links without a target"
    assert page.tables and page.num_cells, f"{path}: no table, or no number right-aligned"
    return page


@pytest.fixture(scope="module")
def fixture_report(tmp_path_factory):
    from unospin_sim.report import build_report

    out = tmp_path_factory.mktemp("rep")
    build_report(
        [FIXTURES / "spin2025-p3", FIXTURES / "classic-p2-race"], out, target=100, wheel_games=0
    )
    return out


def test_the_report_html_is_its_markdown_rendered(fixture_report):
    md = (fixture_report / "report.md").read_text()
    assert "**How long is a round?**" in md  # the Markdown has it; the page must not
    page = check_page(fixture_report / "report.html")
    text = " ".join(page.text)
    assert "How long is a round?" in text
    assert {"answers", "findings", "runs", "balance-per-round"} <= set(page.links)
    # a chart's alt names its kind and the run drawn, not its file
    assert any(
        alt.startswith("Heat map of classic(players=2,match=race,target=100) random")
        for alt in page.alts
    )
    assert any("spin2025(players=3) random" in alt and "wheel" in alt for alt in page.alts)


def test_the_wheel_section_draws_the_runs_wheel(fixture_report):
    """The wheel section draws its run's wheel, the slot layout and its rule in the
    caption (item 1 of issue 49)."""
    md = (fixture_report / "report.md").read_text()
    drawn = sorted(fixture_report.glob("wheel_drawn_*.png"))
    assert len(drawn) == 1 and drawn[0].stat().st_size > 1000
    assert f"]({drawn[0].name})" in md
    assert "8 slots, clockwise from the pointer: color_draw_red, color_draw_yellow," in md
    assert "slot order assumed" in md
    assert chart_alt(drawn[0].name, ["x"]).startswith("The x wheel drawn")


def test_intervals_print_at_the_estimates_precision():
    """An estimate and its interval share one precision (issue 49: not
    ``1.51 [0.4423, 2.606]``)."""
    import pandas as pd

    from unospin_sim.analysis.stats import format_interval
    from unospin_sim.report.doc import with_ci

    assert format_interval(1.51004, 0.44231, 2.6059) == "1.510 [0.442, 2.606]"
    assert format_interval(50.2, 49.93, 50.51) == "50.20 [49.93, 50.51]"
    assert format_interval(0.0001234, -0.02, 0.02) == "0.00012 [-0.02000, 0.02000]"
    assert format_interval(123456.7, 120000.0, 130000.0) == "123457 [120000, 130000]"
    assert format_interval(-3.25, -4.1, -2.4, 3) == "-3.25 [-4.10, -2.40]"
    assert format_interval(0.5, float("nan"), float("nan")) == "0.5000 [-, -]"
    t = pd.DataFrame({"x": [1.51004], "x_low": [0.44231], "x_high": [2.6059]})
    assert with_ci(t, {"x"})["x"].iloc[0] == "1.510 [0.442, 2.606]"
    cell = with_ci(t, {"x"}, digits=3, scale={"x": 100.0})["x"].iloc[0]
    assert cell == "151 [44, 261]"
    decimals = {len(n.split(".")[1]) if "." in n else 0 for n in re.findall(r"[\d.]+", cell)}
    assert len(decimals) == 1


def test_rerender_writes_the_same_page_from_report_md(fixture_report, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(fixture_report, copy)
    (copy / "report.html").unlink()
    rerender(copy)
    assert (copy / "report.html").read_bytes() == (fixture_report / "report.html").read_bytes()


def test_charts_named_by_their_file_get_a_description():
    md = (
        "# r\n\n## Runs\n\n- `classic(players=4) random`: 10 rounds\n"
        "- `a,b`: 5 rounds **Mixed bots without rotation: ...**\n\n"
        "## Wheel spaces of `spin2025(players=4) random`\n\n![wheel_1.png](wheel_1.png)\n\n"
        "cap\n\n![seats](seats.png)\n"
    )
    out = describe_charts(md)
    assert f"![{chart_alt('wheel_1.png', ['spin2025(players=4) random'])}](wheel_1.png)" in out
    assert "Runs: classic(players=4) random.](seats.png)" in out  # the mixed run left out
    assert chart_alt("seats.png", ["x"]) != chart_alt("race_heat_0.png", ["x"])


def test_numeric_columns_are_right_aligned():
    md = "| label | value | p |\n|---|---|---|\n| a | 1.5 [1, 2] | < 1e-6 |\n| b | - | 0.3 |\n"
    assert align_numbers(md).splitlines()[1] == "|---|---:|---:|"


@pytest.mark.parametrize("d", COMMITTED, ids=[d.name for d in COMMITTED])
def test_committed_reports_are_their_markdown_rendered(d, tmp_path):
    """Every committed report.html passes the same checks, and is what ``report
    --rerender`` writes from its report.md and charts."""
    check_page(d / "report.html")
    copy = tmp_path / d.name
    copy.mkdir()
    for f in d.iterdir():
        if f.is_file() and (f.suffix == ".png" or f.name == "report.md"):
            shutil.copy(f, copy / f.name)
    rerender(copy)
    assert (copy / "report.html").read_bytes() == (d / "report.html").read_bytes(), (
        f"{d}/report.html is not its report.md rendered: "
        f"python -m unospin_sim report --rerender {d}"
    )
