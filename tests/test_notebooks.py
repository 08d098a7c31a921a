"""Every notebook runs top to bottom through a real Jupyter kernel (nbclient) with a small
game count injected after its `parameters` cell (papermill style), and ends with its answer.

The key results each notebook must reach are asserted from the ``ANSWER`` dict it builds.
Executing notebooks is the slow tier; the default tier checks that the committed notebooks
are executed (their charts show when browsing the repository) and tests
:func:`unospin_sim.results.newest`, which notebook 01 opens the README's run with.
"""

import json
import math
import os
import time
from pathlib import Path

import pytest

from unospin_sim.errors import ResultsError
from unospin_sim.results import newest
from unospin_sim.run import Execution

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))
ROOT = Path(__file__).parent.parent
#: small game counts for the tests (a fresh install runs the notebooks' own defaults)
GAMES = {
    "01_quickstart": 4000,
    "02_wheel_spaces": 600,
    "03_race_to_500": 4000,
    "04_2005_vs_2025": 3000,
    "05_designer": 1000,
    "06_luck_and_skill": 2000,
    "explore": 3000,
}


def test_there_are_the_question_notebooks():
    names = {p.stem for p in NOTEBOOKS}
    assert {
        "01_quickstart",
        "02_wheel_spaces",
        "03_race_to_500",
        "04_2005_vs_2025",
        "05_designer",
        "06_luck_and_skill",
    } <= names


def _run(path, tmp_path, cwd=None):
    """Execute notebook ``path`` in directory ``cwd`` (default ``tmp_path``) with the small
    GAMES injected: ``(ANSWER, text of the answer cell, the executed notebook)``."""
    try:
        import nbclient
        import nbformat
    except ImportError:
        if os.environ.get("CI"):  # .ci/run installs .[dev]: a missing nbclient is a failure
            raise
        pytest.skip("nbclient not installed (pip install -e '.[dev]')")
    nb = nbformat.read(path, as_version=4)
    at = [i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", [])]
    assert len(at) == 1, f"{path.name}: needs exactly one cell tagged 'parameters'"
    nb.cells.insert(
        at[0] + 1,
        nbformat.v4.new_code_cell(
            f"GAMES = {GAMES[path.stem]}  # injected by tests/test_notebooks.py"
        ),
    )
    nb.cells.append(
        nbformat.v4.new_code_cell(
            "import json as _json\nprint('ANSWER=' + _json.dumps(globals().get('ANSWER'), "
            "default=str))"
        )
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["MPLBACKEND"] = "Agg"
    client = nbclient.NotebookClient(
        nb,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(cwd or tmp_path)}},
    )
    old = dict(os.environ)
    os.environ.update(env)  # the kernel inherits this environment
    try:
        client.execute()
    finally:
        os.environ.clear()
        os.environ.update(old)
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    answer = json.loads(text.split("ANSWER=", 1)[1])
    # the cell before the injected one prints the answer in words
    last = "".join(o.get("text", "") for o in nb.cells[-2].outputs)
    return answer, last, nb


def _texts(nb) -> str:
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_and_answers(path, tmp_path):
    answer, last, nb = _run(path, tmp_path)
    name = path.stem
    if name == "01_quickstart":
        # no results directory in (or above) tmp_path: one line says so, then it simulates
        assert answer["results"] is None and answer["rounds"] == GAMES[name]
        said = [line for line in _texts(nb).splitlines() if "no results directory" in line]
        assert len(said) == 1 and "python -m unospin_sim run" in said[0]
        assert "simulated inline" in last
        assert 0.2 < answer["first_player_win_rate"] < 0.4
        assert answer["low"] < answer["first_player_win_rate"] < answer["high"]
        assert answer["mean_turns"] > 10
        assert "the player who acts first (after the first card's effect) wins" in last
        assert 0.2 < answer["seat0_win_rate"] < 0.4 and "seat 0, left of the dealer" in last
    elif name == "02_wheel_spaces":
        # Show Hand does nothing for random bots: exactly zero by replay, not by the swing
        assert answer["show_hand_effect"] == 0
        assert answer["show_hand_low"] == 0 and answer["show_hand_high"] == 0
        assert answer["best_2005"] in ("almost_uno", "discard_number", "discard_color")
        assert "helps the spinner most" in last
        # the catch-up index is finite (spins both behind and ahead) and in words at the end
        assert math.isfinite(answer["catch_up_2005"]) and math.isfinite(answer["catch_up_2025"])
        assert "catch-up index" in last
    elif name == "03_race_to_500":
        assert 2 < answer["rounds_per_match"] < 10 and answer["matches"] > 100
        assert answer["heuristic_round_rate"] > 0.25
        assert 0 < answer["comeback_rate"] < 1
        assert 0.25 < answer["leader_after_round_1_wins"] < 1
        assert answer["rounds_per_match_dynamics"] == answer["rounds_per_match"]
        tr = answer["target_rounds"]  # a higher target makes longer matches
        assert tr["100"] < tr["500"] < tr["1000"]
        assert "race to 500" in last
    elif name == "04_2005_vs_2025":
        assert answer["low"] < answer["turns_ratio"] < answer["high"]
        # the four colour draws sharing one space's weight shorten 2025 rounds
        assert answer["turns_ratio_draws_as_one"] < answer["turns_ratio"]
        assert "2025 rounds are" in last and "Verdicts that hold" in last
        assert set(answer["verdicts"]) >= {
            "mean_turns",
            "mean_winner_points",
            "rounds_per_match",
            "comeback_rate",
        }
    elif name == "05_designer":
        # 2025 rounds are longer than 2005's; the study's pick re-checks near the goal
        assert answer["today_turns"] > answer["goal_turns"] + 10
        assert answer["rules"].startswith("spin2025(")
        if answer["confirmed"]:
            assert abs(answer["recheck_turns"] - answer["goal_turns"]) < 2.5
            assert "A 2025 wheel with 2005's pace" in last
        else:  # the words follow the flags: an unconfirmed pick is not the answer
            assert "NOT confirmed" in last and "2005's pace:" not in last
    elif name == "06_luck_and_skill":
        # the Spin wheels deal comebacks that classic does not (24% against 35% at 10,000
        # rounds; 2,000 rounds give intervals of about +-2 points)
        for ed in ("spin2005", "spin2025"):
            assert answer["comeback_low"][ed] > answer["comeback_high"]["classic"], answer
        assert set(answer["wheel_luck"]) == {"spin2005", "spin2025"}
        assert all(v > 0 for v in answer["wheel_luck"].values())
        # never calling UNO costs the most in every edition
        assert all(top[0] == "calling UNO" for top in answer["top_skills"].values())
        assert "the winner came from behind in" in last
        # the committed skill profiles (reports/skill-profile/) are read, every edition's
        assert {k.split()[0] for k in answer["rating_spread"]} == set(answer["top_skills"])
        assert all(v > 0 for v in answer["rating_spread"].values())
        assert "skill depth" in last
    else:
        assert answer is None or isinstance(answer, dict)


@pytest.mark.slow
def test_quickstart_opens_the_newest_results_directory(tmp_path):
    """Notebook 01 runs in notebooks/ (as under `jupyter lab notebooks/`) and opens the
    newest run in ../results/ (the README's `run` then the notebook), not an inline run."""
    from unospin_sim.run import simulate

    older = tmp_path / "results" / "spin2025-p4-s1-older"
    newer = tmp_path / "results" / "spin2025-p3-s2-newer"
    simulate("spin2025(players=4)", "random", games=1000, seed=1, execution=Execution(out=older))
    run = simulate(
        "spin2025(players=3)", "random", games=2500, seed=2, execution=Execution(out=newer)
    )
    past = time.time() - 3600
    os.utime(older / "meta.json", (past, past))
    (tmp_path / "notebooks").mkdir()
    path = next(p for p in NOTEBOOKS if p.stem == "01_quickstart")
    answer, last, nb = _run(path, tmp_path, cwd=tmp_path / "notebooks")
    assert answer["results"] == str(newer.resolve())
    assert answer["rules"] == run.meta["rules"] == "spin2025(players=3)"
    assert answer["rounds"] == 2500 != GAMES["01_quickstart"]
    assert "simulated inline" not in _texts(nb)
    assert (
        "the player who acts first (after the first card's effect) wins" in last
        and os.path.join("..", "results", newer.name) in last
    )
    assert 0.2 < answer["first_player_win_rate"] < 0.5


# ---- the committed notebooks are executed (default tier, no kernel) ----------------------


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_notebook_is_executed(path):
    """Committed with outputs, so the charts show when browsing the repository
    (bash reports/regenerate.sh re-executes them)."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    counts = [c.get("execution_count") for c in code]
    assert counts == list(range(1, len(code) + 1)), (
        f"{path.name}: not executed top to bottom in one kernel (execution counts {counts})"
    )
    for c in code:
        assert not any(o.output_type == "error" for o in c.outputs), f"{path.name}: an error"
        if "parameters" not in c.metadata.get("tags", []):
            assert c.outputs, f"{path.name}: a code cell without output:\n{c.source[:200]}"
    plots = any("plt." in c.source or "plot_" in c.source for c in code)
    pngs = sum("image/png" in o.get("data", {}) for c in code for o in c.outputs)
    assert pngs >= 1 or not plots, f"{path.name} plots but holds no PNG output"
    assert path.stat().st_size < 2_000_000, f"{path.name}: keep committed outputs small"
    if path.stem == "01_quickstart":  # executed against a results directory of `run`
        assert "Source: the run in" in _texts(nb) and "simulated inline" not in _texts(nb)


# ---- unospin_sim.results.newest: how notebook 01 finds the README's run -------------------


def _fake_run(d: Path, age: float = 0.0, match: str | None = None) -> Path:
    d.mkdir(parents=True)
    meta = {"rules": "spin2025(players=4)", "games": 0}
    if match is not None:
        meta["match"] = match
    (d / "meta.json").write_text(json.dumps(meta))
    t = time.time() - age
    os.utime(d / "meta.json", (t, t))
    return d


def test_newest_is_the_run_written_last(tmp_path):
    _fake_run(tmp_path / "results" / "b-older", age=100)
    new = _fake_run(tmp_path / "results" / "a-newer", age=10)
    (tmp_path / "results" / "c-unfinished").mkdir()  # no meta.json: never chosen
    assert newest(tmp_path / "results") == tmp_path / "results" / "a-newer"
    assert newest(tmp_path / "results").resolve() == new.resolve()


def test_newest_of_a_kind_skips_the_other_kind(tmp_path):
    """Notebook 01 opens the newest run of single rounds, not a match race run after it."""
    rounds = _fake_run(tmp_path / "results" / "rounds", age=100)
    race = _fake_run(tmp_path / "results" / "race", age=10, match="race")
    _fake_run(tmp_path / "results" / "single", age=200, match="single")
    assert newest(tmp_path / "results") == race
    assert newest(tmp_path / "results", matches=False) == rounds
    assert newest(tmp_path / "results", matches=True) == race
    with pytest.raises(ResultsError, match="no results directory of matches"):
        newest(tmp_path / "results" / "rounds", matches=True)


def test_newest_searches_results_of_the_cwd_and_its_parents(tmp_path, monkeypatch):
    run = _fake_run(tmp_path / "results" / "spin2025-p4-s0-20260101-000000")
    (tmp_path / "notebooks" / "deeper").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "notebooks" / "deeper")
    assert newest() == run.resolve()
    # the nearest results/ holding a run wins over one further up
    near = _fake_run(tmp_path / "notebooks" / "results" / "x", age=1000)
    assert newest() == near.resolve()


def test_newest_says_in_one_line_to_run_first(tmp_path, monkeypatch):
    (tmp_path / "results" / "unfinished").mkdir(parents=True)
    with pytest.raises(ResultsError) as e:
        newest(tmp_path / "results")
    msg = str(e.value)
    assert "\n" not in msg and "no results directory" in msg
    assert "python -m unospin_sim run" in msg
    if not any((p / "results").is_dir() for p in tmp_path.parents):
        monkeypatch.chdir(tmp_path / "results")
        with pytest.raises(ResultsError, match="python -m unospin_sim run"):
            newest()
