"""What a reader sees: the committed report page and a drawn wheel, opened in a real headless
browser (Chromium), in the slow tier.

The rendered DOM (``--dump-dom``, after the browser parsed the page) must hold what a reader
needs (the Answers, every chart loaded with its alt text, the contents list; no literal
Markdown), and a screenshot must not be blank. The drawn wheel's SVG must show every space's
label. Without a browser the tests skip locally and fail in CI (``.ci/run`` installs
Chromium when it is absent).
"""

from __future__ import annotations

import html.parser
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
REPORT = REPO / "reports" / "editions-4p-random" / "report.html"


def _browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("CI"):
        pytest.fail("no Chromium on this machine: .ci/run installs it (apt-get install chromium)")
    pytest.skip("no Chromium installed (apt-get install chromium)")


def _chromium(*args, timeout=120):
    cmd = [_browser(), "--headless", "--no-sandbox", "--disable-gpu", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


class _Dom(html.parser.HTMLParser):
    """The DOM's images (their attributes), headings' text and the visible text outside
    code."""

    def __init__(self):
        super().__init__()
        self.images, self.headings, self.text = [], [], []
        self._stack = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.images.append(dict(attrs))
        elif tag not in ("br", "meta", "link", "hr", "input"):
            self._stack.append(tag)

    def handle_endtag(self, tag):
        if tag in self._stack:
            while self._stack.pop() != tag:
                pass

    def handle_data(self, data):
        if any(t in ("code", "pre", "style", "script") for t in self._stack):
            return
        if any(t in ("h1", "h2", "h3") for t in self._stack):
            self.headings.append(data.strip())
        self.text.append(data)


def test_the_report_page_shows_its_answers_and_every_chart(tmp_path):
    dom = _Dom()
    dom.feed(_chromium("--dump-dom", REPORT.as_uri()))
    assert "Answers" in dom.headings and "Contents" in dom.headings, dom.headings[:20]
    text = " ".join(dom.text)
    assert "How long is a round?" in text
    for literal in ("**", "](", "\n## ", "\n- "):
        assert literal not in text, f"literal Markdown {literal!r} in the rendered page"
    # every chart of report.md is in the page, embedded (the page is one file) and decoded
    charts = [i for i in dom.images if i.get("src", "").startswith("data:image/png;base64,")]
    assert len(charts) == (REPORT.parent / "report.md").read_text().count("![") > 5
    for img in charts:
        assert len(img["src"]) > 5000, "an empty chart"
        alt = img.get("alt", "")
        assert len(alt) > 40 and not alt.endswith(".png"), alt  # says what it shows


def test_the_report_page_is_not_blank(tmp_path):
    shot = tmp_path / "report.png"
    _chromium(f"--screenshot={shot}", "--window-size=1200,1600", REPORT.as_uri())
    import matplotlib.image as mpimg

    pixels = mpimg.imread(shot)[..., :3]
    assert pixels.shape[0] >= 1600 and pixels.shape[1] >= 1200
    dark = (pixels.mean(axis=2) < 0.5).mean()
    assert 0.01 < dark < 0.6, f"share of dark pixels {dark:.3f}: a blank or broken page"
    assert np.unique(pixels.reshape(-1, 3), axis=0).shape[0] > 50  # text, charts, colours


def test_a_drawn_wheel_shows_every_space(tmp_path):
    from unospin_sim.rules import parse_rules

    svg = tmp_path / "wheel.svg"
    proc = subprocess.run(
        [sys.executable, "-m", "unospin_sim", "wheel", "--edition", "spin2005", "--draw", str(svg)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    dom = _chromium("--dump-dom", svg.as_uri())
    from unospin_sim.rules import SPACES

    rules = parse_rules("spin2005(players=4)")
    for space in rules.wheel_spaces():
        assert SPACES[space].title in dom, space
    shot = tmp_path / "wheel.png"
    _chromium(f"--screenshot={shot}", "--window-size=900,1000", svg.as_uri())
    import matplotlib.image as mpimg

    assert np.unique(mpimg.imread(shot)[..., :3].reshape(-1, 3), axis=0).shape[0] > 20
