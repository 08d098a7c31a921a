"""Every notebook's code runs top to bottom (with few games), so notebooks cannot rot."""

import json
from pathlib import Path

import matplotlib
import pytest

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


def test_there_is_a_notebook():
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, monkeypatch):
    matplotlib.use("Agg")
    nb = json.loads(path.read_text())
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    env = {}
    for i, src in enumerate(code):
        src = src.replace("GAMES = 50_000", "GAMES = 3_000")
        exec(compile(src, f"{path.name}[cell {i}]", "exec"), env)
    import matplotlib.pyplot as plt
    plt.close("all")
