"""Results directories: write, load, and every way a directory can be broken."""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd
import pytest

from unospin_sim.errors import ResultsError, UserError
from unospin_sim.results import (SPIN_COLUMNS, ResultsWriter, load_results, prepare_out_dir,
                                 round_columns)
from unospin_sim.rules import RuleSet

RULES = RuleSet.build("spin2025", players=3)


def rounds_frame(games: range, rules=RULES) -> pd.DataFrame:
    rng = np.random.default_rng(games.start)
    cols = round_columns(rules)
    df = pd.DataFrame({c: rng.integers(0, 50, len(games)).astype(np.int32) for c in cols})
    df["game"] = np.arange(games.start, games.stop, dtype=np.int64)
    df["winner"] = rng.integers(-1, rules.players, len(games)).astype(np.int8)
    return df


def spins_frame(games: range, rules=RULES) -> pd.DataFrame:
    n = 2 * len(games)
    rng = np.random.default_rng(games.stop)
    df = pd.DataFrame({c: rng.integers(0, 9, n).astype(np.int16) for c in SPIN_COLUMNS})
    df["game"] = np.repeat(np.arange(games.start, games.stop), 2)
    df["space"] = pd.Categorical.from_codes(rng.integers(0, 8, n),
                                            categories=list(rules.wheel_spaces()))
    return df


def write_run(out, chunks=((0, 40), (40, 100)), rules=RULES, meta_extra=None):
    w = ResultsWriter(out)
    for a, b in chunks:
        w.write_rounds(rounds_frame(range(a, b), rules))
        w.write_spins(spins_frame(range(a, b), rules))
    games = sum(b - a for a, b in chunks)
    meta = {"rules": str(rules), "games": games, "seed": 0, "bots": ["random"] * rules.players}
    meta.update(meta_extra or {})
    w.finish(meta)
    return w


def one_line(err: pytest.ExceptionInfo) -> str:
    msg = str(err.value)
    assert isinstance(err.value, UserError)
    assert msg and "\n" not in msg
    return msg


def test_round_trip(tmp_path):
    out = tmp_path / "run"
    write_run(out)
    assert sorted(p.name for p in (out / "rounds").iterdir()) == ["part-00000.parquet",
                                                                  "part-00001.parquet"]
    assert not list(out.rglob(".*"))  # no temporary files left behind
    rounds, spins, meta = load_results(out)
    expected = pd.concat([rounds_frame(range(0, 40)), rounds_frame(range(40, 100))],
                         ignore_index=True)
    pd.testing.assert_frame_equal(rounds, expected)
    assert len(spins) == 200 and list(spins.columns) == list(SPIN_COLUMNS)
    assert isinstance(spins["space"].dtype, pd.CategoricalDtype)
    assert list(spins["space"].cat.categories) == list(RULES.wheel_spaces())
    assert meta["games"] == 100 and meta["parts"] == {"rounds": 2, "spins": 2}
    assert meta["results_format"] == 1 and "version" in meta
    # the plain pandas route of the results contract
    assert len(pd.read_parquet(out / "rounds")) == 100


def test_out_of_order_parts_are_sorted(tmp_path):
    write_run(tmp_path / "r", chunks=((50, 100), (0, 50)))
    rounds, spins, _ = load_results(tmp_path / "r")
    assert rounds["game"].tolist() == list(range(100))
    assert spins["game"].is_monotonic_increasing


def test_classic_without_spins(tmp_path):
    rules = RuleSet.build("classic", players=2)
    w = ResultsWriter(tmp_path / "c")
    w.write_rounds(rounds_frame(range(0, 10), rules))
    assert w.write_spins(pd.DataFrame({c: [] for c in SPIN_COLUMNS})) is None
    w.finish({"rules": str(rules), "games": 10})
    rounds, spins, meta = load_results(tmp_path / "c")
    assert len(rounds) == 10 and len(spins) == 0
    assert list(spins.columns) == list(SPIN_COLUMNS)
    assert meta["parts"] == {"rounds": 1, "spins": 0}


def test_numpy_values_in_meta(tmp_path):
    w = ResultsWriter(tmp_path / "n")
    w.write_rounds(rounds_frame(range(0, 5)))
    w.finish({"rules": str(RULES), "games": np.int64(5), "wall_seconds": np.float64(1.5),
              "path": tmp_path})
    meta = load_results(tmp_path / "n")[2]
    assert meta["games"] == 5 and meta["wall_seconds"] == 1.5


def test_refuses_existing_results(tmp_path):
    write_run(tmp_path / "r")
    with pytest.raises(ResultsError) as info:
        ResultsWriter(tmp_path / "r")
    assert "already holds results" in one_line(info)
    assert len(load_results(tmp_path / "r")[0]) == 100  # nothing lost


def test_overwrite_replaces_only_own_files(tmp_path):
    out = tmp_path / "r"
    write_run(out, chunks=((0, 10), (10, 20), (20, 30)))
    (out / "notes.txt").write_text("mine")
    write_run_over = ResultsWriter(out, overwrite=True)
    write_run_over.write_rounds(rounds_frame(range(0, 5)))
    write_run_over.finish({"rules": str(RULES), "games": 5})
    rounds, spins, meta = load_results(out)
    assert len(rounds) == 5 and len(spins) == 0
    assert (out / "notes.txt").read_text() == "mine"


def test_overwrite_refuses_foreign_files(tmp_path):
    out = tmp_path / "r"
    write_run(out)
    (out / "rounds" / "extra.csv").write_text("x")
    with pytest.raises(ResultsError) as info:
        ResultsWriter(out, overwrite=True)
    assert "did not write" in one_line(info)
    assert (out / "meta.json").exists() and (out / "rounds" / "extra.csv").exists()


def test_existing_empty_dir_is_fine(tmp_path):
    (tmp_path / "e").mkdir()
    (tmp_path / "e" / "README").write_text("keep")
    ResultsWriter(tmp_path / "e")
    assert (tmp_path / "e" / "README").read_text() == "keep"


@pytest.mark.parametrize("path", ["/proc/nope/results", "/proc/nope"])
def test_unwritable_proc(path):
    with pytest.raises(ResultsError) as info:
        ResultsWriter(path)
    assert "cannot create results directory" in one_line(info)


def test_parent_is_a_file(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(ResultsError) as info:
        prepare_out_dir(tmp_path / "f" / "out")
    assert "cannot create" in one_line(info)
    with pytest.raises(ResultsError) as info:
        prepare_out_dir(tmp_path / "f")
    assert "not a directory" in one_line(info)


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_read_only_dir(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(ResultsError) as info:
            ResultsWriter(ro / "out")
        assert "results directory" in one_line(info)
    finally:
        ro.chmod(0o700)


# --- broken directories -----------------------------------------------------------------


def test_missing_dir(tmp_path):
    with pytest.raises(ResultsError) as info:
        load_results(tmp_path / "nothing")
    assert "no results directory" in one_line(info)


def test_missing_meta(tmp_path):
    w = ResultsWriter(tmp_path / "r")
    w.write_rounds(rounds_frame(range(0, 5)))  # an interrupted run: no finish()
    with pytest.raises(ResultsError) as info:
        load_results(tmp_path / "r")
    assert "meta.json" in one_line(info)


@pytest.mark.parametrize("content,word", [
    ("{not json", "not valid JSON"),
    ("", "not valid JSON"),
    ("\x00\xff garbage", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    ('{"games": 100}', "lacks required keys: rules"),
    ('{"rules": "spin2025(players=3)"}', "games"),
    ('{"rules": "spin2025(players=3)", "games": "many"}', "games"),
    ('{"rules": "nope(players=3)", "games": 100}', "unknown edition"),
    ('{"rules": 5, "games": 100}', "rule string"),
    ('{"rules": "spin2025(players=3)", "games": 100, "parts": {"rounds": "x"}}', "parts"),
])
def test_bad_meta(tmp_path, content, word):
    out = tmp_path / "r"
    write_run(out)
    (out / "meta.json").write_text(content, encoding="utf-8", errors="surrogateescape")
    with pytest.raises(ResultsError) as info:
        load_results(out)
    assert word in one_line(info)


def test_truncated_parquet(tmp_path):
    out = tmp_path / "r"
    write_run(out)
    part = out / "rounds" / "part-00001.parquet"
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])
    with pytest.raises(ResultsError) as info:
        load_results(out)
    msg = one_line(info)
    assert "part-00001.parquet" in msg and "truncated or corrupt" in msg


def test_corrupt_parquet(tmp_path):
    out = tmp_path / "r"
    write_run(out)
    (out / "spins" / "part-00000.parquet").write_bytes(b"PAR1" + os.urandom(300) + b"PAR1")
    with pytest.raises(ResultsError) as info:
        load_results(out)
    assert "part-00000.parquet" in one_line(info)


def test_missing_columns(tmp_path):
    out = tmp_path / "r"
    w = ResultsWriter(out)
    w.write_rounds(rounds_frame(range(0, 10)).drop(columns=["turns", "cards_left_2"]))
    w.finish({"rules": str(RULES), "games": 10})
    with pytest.raises(ResultsError) as info:
        load_results(out)
    msg = one_line(info)
    assert "lacks columns" in msg and "turns" in msg and "cards_left_2" in msg


def test_other_schema(tmp_path):
    """Results written for 3 players, meta claiming 5: the per-seat columns are missing."""
    out = tmp_path / "r"
    write_run(out)
    meta = json.loads((out / "meta.json").read_text())
    meta["rules"] = "spin2025(players=5)"
    (out / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(ResultsError) as info:
        load_results(out)
    assert "cards_drawn_3" in one_line(info)


def test_parts_with_different_columns(tmp_path):
    out = tmp_path / "r"
    w = ResultsWriter(out)
    w.write_rounds(rounds_frame(range(0, 10)))
    w.write_rounds(rounds_frame(range(10, 20)).assign(extra=1))
    w.finish({"rules": str(RULES), "games": 20})
    with pytest.raises(ResultsError) as info:
        load_results(out)
    assert "other columns" in one_line(info)


def test_missing_part(tmp_path):
    out = tmp_path / "r"
    write_run(out)
    (out / "rounds" / "part-00001.parquet").unlink()
    with pytest.raises(ResultsError) as info:
        load_results(out)
    assert "missing or extra" in one_line(info)


def test_row_count_mismatch(tmp_path):
    out = tmp_path / "r"
    write_run(out)
    meta = json.loads((out / "meta.json").read_text())
    meta["games"] = 101
    (out / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(ResultsError) as info:
        load_results(out)
    assert "101 games" in one_line(info)


def test_no_rounds(tmp_path):
    out = tmp_path / "r"
    ResultsWriter(out).finish({"rules": str(RULES), "games": 0})
    with pytest.raises(ResultsError) as info:
        load_results(out)
    assert "no rounds part files" in one_line(info)


def test_unknown_space_names(tmp_path):
    out = tmp_path / "r"
    w = ResultsWriter(out)
    w.write_rounds(rounds_frame(range(0, 3)))
    spins = spins_frame(range(0, 3))
    spins["space"] = "war"  # a 2005 space in a 2025 run
    w.write_spins(spins)
    w.finish({"rules": str(RULES), "games": 3})
    with pytest.raises(ResultsError) as info:
        load_results(out)
    assert "space" in one_line(info)


def test_finish_requires_meta_keys(tmp_path):
    with pytest.raises(ValueError, match="rules"):
        ResultsWriter(tmp_path / "r").finish({"games": 1})
