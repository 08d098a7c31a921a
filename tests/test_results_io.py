"""Results directories: write, load, and every way a directory can be broken."""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd
import pytest

from unospin_sim import reference, results
from unospin_sim.errors import ResultsError, UserError
from unospin_sim.results import (
    CHECK_COLUMN,
    RESULTS_FORMAT,
    SPIN_COLUMNS,
    Results,
    ResultsWriter,
    load_results,
    prepare_out_dir,
    round_columns,
)
from unospin_sim.rules import RuleSet, parse_rules
from unospin_sim.run import Execution

RULES = RuleSet.build("spin2025", players=3)


def rounds_frame(games: range, rules=RULES) -> pd.DataFrame:
    """Random round rows (not the kernel's: see results.rounds_frame) for ``games``."""
    rng = np.random.default_rng(games.start)
    cols = round_columns(rules)
    df = pd.DataFrame({c: rng.integers(0, 50, len(games)).astype(np.int32) for c in cols})
    df["game"] = np.arange(games.start, games.stop, dtype=np.int64)
    df["winner"] = rng.integers(-1, rules.players, len(games)).astype(np.int8)
    return df


def spins_frame(games: range, rules=RULES) -> pd.DataFrame:
    """Random spin rows, two per game (not the kernel's: see results.spins_frame)."""
    n = 2 * len(games)
    rng = np.random.default_rng(games.stop)
    df = pd.DataFrame({c: rng.integers(0, 9, n).astype(np.int16) for c in SPIN_COLUMNS})
    df["game"] = np.repeat(np.arange(games.start, games.stop), 2)
    df["space"] = pd.Categorical.from_codes(
        rng.integers(0, 8, n), categories=list(rules.wheel_spaces())
    )
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
    assert sorted(p.name for p in (out / "rounds").iterdir()) == [
        "part-00000.parquet",
        "part-00001.parquet",
    ]
    assert not list(out.rglob(".*"))  # no temporary files left behind
    res = load_results(out)
    assert isinstance(res, Results)
    rounds, spins, meta = res.rounds, res.spins, res.meta
    assert res.to_df() is rounds
    expected = pd.concat(
        [rounds_frame(range(0, 40)), rounds_frame(range(40, 100))], ignore_index=True
    )
    pd.testing.assert_frame_equal(rounds, expected)
    assert len(spins) == 200 and list(spins.columns) == list(SPIN_COLUMNS)
    assert isinstance(spins["space"].dtype, pd.CategoricalDtype)
    assert list(spins["space"].cat.categories) == list(RULES.wheel_spaces())
    assert meta["games"] == 100 and meta["parts"] == {"rounds": 2, "spins": 2}
    assert meta["results_format"] == RESULTS_FORMAT == 3 and "version" in meta
    assert "variant" not in meta  # a published rule set's run keeps no variant file
    assert "schema_version" not in meta  # one format version
    # the plain pandas route of the results contract
    assert len(pd.read_parquet(out / "rounds")) == 100


def test_out_of_order_parts_are_sorted(tmp_path):
    write_run(tmp_path / "r", chunks=((50, 100), (0, 50)))
    res = load_results(tmp_path / "r")
    rounds, spins = res.rounds, res.spins
    assert rounds["game"].tolist() == list(range(100))
    assert spins["game"].is_monotonic_increasing


def test_classic_without_spins(tmp_path):
    rules = RuleSet.build("classic", players=2)
    w = ResultsWriter(tmp_path / "c")
    w.write_rounds(rounds_frame(range(0, 10), rules))
    assert w.write_spins(pd.DataFrame({c: [] for c in SPIN_COLUMNS})) is None
    w.finish({"rules": str(rules), "games": 10})
    res = Results.load(tmp_path / "c")
    rounds, spins, meta = res.rounds, res.spins, res.meta
    assert len(rounds) == 10 and len(spins) == 0
    assert list(spins.columns) == list(SPIN_COLUMNS)
    assert meta["parts"] == {"rounds": 1, "spins": 0}


def test_numpy_values_in_meta(tmp_path):
    w = ResultsWriter(tmp_path / "n")
    w.write_rounds(rounds_frame(range(0, 5)))
    w.finish(
        {
            "rules": str(RULES),
            "games": np.int64(5),
            "wall_seconds": np.float64(1.5),
            "path": tmp_path,
        }
    )
    meta = load_results(tmp_path / "n").meta
    assert meta["games"] == 5 and meta["wall_seconds"] == 1.5


def test_refuses_existing_results(tmp_path):
    write_run(tmp_path / "r")
    with pytest.raises(ResultsError) as info:
        ResultsWriter(tmp_path / "r")
    assert "already holds results" in one_line(info)
    assert len(load_results(tmp_path / "r").rounds) == 100  # nothing lost


def test_overwrite_replaces_only_own_files(tmp_path):
    out = tmp_path / "r"
    write_run(out, chunks=((0, 10), (10, 20), (20, 30)))
    (out / "notes.txt").write_text("mine")
    write_run_over = ResultsWriter(out, overwrite=True)
    write_run_over.write_rounds(rounds_frame(range(0, 5)))
    write_run_over.finish({"rules": str(RULES), "games": 5})
    res = load_results(out)
    assert len(res.rounds) == 5 and len(res.spins) == 0
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


def test_unwritable_dir(tmp_path, monkeypatch):
    """An existing directory the writer cannot create files in: refused before any output.

    Directory permissions do not stop root, so the refusal is provoked in ways that hold for
    every user: /proc (no new files there, even for root), and a probe file that cannot be
    created."""
    with pytest.raises(ResultsError) as info:
        ResultsWriter("/proc")
    assert "/proc is not writable" in one_line(info)

    import errno
    import tempfile

    def denied(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    (tmp_path / "ro").mkdir()
    monkeypatch.setattr(tempfile, "mkstemp", denied)
    with pytest.raises(ResultsError) as info:
        ResultsWriter(tmp_path / "ro")
    msg = one_line(info)
    assert "is not writable" in msg and "Permission denied" in msg
    assert list((tmp_path / "ro").iterdir()) == []


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


@pytest.mark.parametrize(
    "content,word",
    [
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
    ],
)
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


# --- the Results class ------------------------------------------------------------------


def test_results_save_load_round_trip(tmp_path):
    rounds = pd.concat(
        [rounds_frame(range(0, 40)), rounds_frame(range(40, 100))], ignore_index=True
    )
    spins = spins_frame(range(0, 100))
    res = Results(rounds, spins, {"rules": str(RULES), "games": 100, "seed": 3})
    meta_path = res.save(tmp_path / "s")
    assert meta_path == tmp_path / "s" / "meta.json"
    back = Results.load(tmp_path / "s")
    pd.testing.assert_frame_equal(back.rounds, rounds)
    pd.testing.assert_frame_equal(back.spins, spins)
    assert back.meta["seed"] == 3 and back.meta["parts"] == {"rounds": 1, "spins": 1}
    assert "Results(rules='spin2025(players=3)', rounds=100 rows" in repr(back)
    # saving what was loaded gives the same directory contents again
    with pytest.raises(ResultsError) as info:
        back.save(tmp_path / "s")
    assert "already holds results" in one_line(info)
    back.save(tmp_path / "s", overwrite=True)
    again = load_results(tmp_path / "s")
    pd.testing.assert_frame_equal(again.rounds, rounds)
    pd.testing.assert_frame_equal(again.spins, spins)


def test_results_save_without_spins(tmp_path):
    rules = RuleSet.build("classic", players=2)
    empty = pd.DataFrame({c: pd.Series(dtype="int64") for c in SPIN_COLUMNS})
    Results(rounds_frame(range(0, 7), rules), empty, {"rules": str(rules), "games": 7}).save(
        tmp_path / "c"
    )
    back = load_results(tmp_path / "c")
    assert len(back.rounds) == 7 and len(back.spins) == 0
    assert back.meta["parts"] == {"rounds": 1, "spins": 0}


@pytest.mark.parametrize(
    "meta,rounds,word",
    [
        ({"games": 10}, 10, "meta lacks rules"),
        ({"rules": str(RULES)}, 10, "meta lacks games"),
        ({"rules": "nope(players=3)", "games": 10}, 10, "bad rule string"),
        ({"rules": str(RULES), "games": 11}, 10, "11 games"),
        ({"rules": str(RULES), "games": 0}, 0, "empty"),
        ({"rules": "spin2025(players=5)", "games": 10}, 10, "cards_drawn_3"),
    ],
)
def test_results_save_refuses_bad_results(tmp_path, meta, rounds, word):
    res = Results(rounds_frame(range(0, rounds)), spins_frame(range(0, rounds)), meta)
    with pytest.raises(ResultsError) as info:
        res.save(tmp_path / "bad")
    assert word in one_line(info)
    assert not (tmp_path / "bad").exists()  # nothing written


def test_results_save_refuses_summary_only(tmp_path):
    summary = rounds_frame(range(0, 10))[["game", "first_player", "winner", "turns"]]
    res = Results(summary, spins_frame(range(0, 0)), {"rules": str(RULES), "games": 10})
    with pytest.raises(ResultsError) as info:
        res.save(tmp_path / "s")
    assert "keep='summary'" in one_line(info)


def test_unpacking_is_deprecated(tmp_path):
    write_run(tmp_path / "r")
    res = load_results(tmp_path / "r")
    with pytest.warns(DeprecationWarning, match="use .rounds"):
        rounds, spins, meta = res
    assert rounds is res.rounds and spins is res.spins and meta is res.meta


def test_top_level_reexports_results():
    from unospin_sim import Results as top

    assert top is Results


# --- columns: built once, from the kernel's layout ---------------------------------------


class _Rules:
    """Stand-in rule set: a wheel whose spaces have neither consecutive nor rising ids."""

    edition = "test"
    players = 2

    @staticmethod
    def wheel_spaces():
        return ("two_x", "war", "almost_uno")

    @staticmethod
    def space_id(name):
        from unospin_sim.rules.spaces import SPACE_ID

        return SPACE_ID[name]


def test_rounds_frame_maps_the_output_row():
    from unospin_sim.engine import layout as L
    from unospin_sim.rules.spaces import SPACE_ID

    rules, n = _Rules(), 2
    ncols = L.n_out_columns(rules.players)
    assert n * ncols <= 128  # every cell distinct and within int8
    out = np.arange(ncols)[None, :] + ncols * np.arange(n)[:, None]
    seeds = np.array([2**63, 2**64 - 1], dtype=np.uint64)
    df = results.rounds_frame(rules, 10, out.astype(np.int64), seeds, check=True)
    assert list(df.columns) == round_columns(rules, check=True)
    assert round_columns(rules, check=True)[-1] == CHECK_COLUMN
    assert df["game"].tolist() == [10, 11] and df["seed"].dtype == np.int64
    assert df["seed"].to_numpy().view(np.uint64).tolist() == seeds.tolist()
    p, base = rules.players, L.N_OUT_FIXED
    expected = {
        "first_player": L.O_FIRST,
        "winner": L.O_WINNER,
        "turns": L.O_TURNS,
        "winner_points": L.O_WINNER_POINTS,
        "cards_drawn": L.O_CARDS_DRAWN,
        "failed_draws": L.O_FAILED,
        "spins": L.O_SPINS,
        CHECK_COLUMN: L.O_VIOLATIONS,
        "cards_drawn_1": base + 1,
        "cards_left_0": base + p,
        "points_left_1": base + 2 * p + 1,
        "spins_two_x": base + 4 * p + SPACE_ID["two_x"],
        "spins_war": base + 4 * p + SPACE_ID["war"],
        "spins_almost_uno": base + 4 * p + SPACE_ID["almost_uno"],
    }
    for col, k in expected.items():
        assert df[col].tolist() == out[:, k].tolist(), col
    assert df["winner"].dtype == np.int8 and df["spins_war"].dtype == np.int32
    assert not any(c.startswith("jump_ins") for c in df.columns)
    # house rule jump_in: the count per round and the fourth per-seat block
    jr = _JumpRules()
    df = results.rounds_frame(jr, 10, out.astype(np.int64), seeds)
    assert list(df.columns) == round_columns(jr)
    for col, k in {
        "jump_ins": L.O_JUMP_INS,
        "jump_ins_0": base + 3 * p,
        "jump_ins_1": base + 3 * p + 1,
        "spins_war": base + 4 * p + SPACE_ID["war"],
    }.items():
        assert df[col].tolist() == out[:, k].tolist(), col


class _JumpRules(_Rules):
    @staticmethod
    def option(name, default=None):
        return {"jump_in": True, "match": "single"}.get(name, default)


def test_spins_frame_maps_global_space_ids():
    from unospin_sim.engine import layout as L
    from unospin_sim.rules.spaces import SPACE_ID

    names = ["war", "two_x", "almost_uno", "war"]
    rec = np.zeros((len(names), L.N_SPIN_FIELDS), np.int64)
    rec[:, L.P_SPACE] = [SPACE_ID[s] for s in names]
    rec[:, L.P_GAME] = [0, 0, 1, 2]
    rec[:, L.P_DISCARDED] = [1, 2, 3, 4]
    df = results.spins_frame(_Rules(), rec)
    assert list(df.columns) == list(SPIN_COLUMNS)
    assert df["space"].tolist() == names
    assert list(df["space"].cat.categories) == list(_Rules.wheel_spaces())
    assert df["cards_discarded"].tolist() == [1, 2, 3, 4]
    rec[0, L.P_SPACE] = SPACE_ID["two_x"] - 1  # a space of no wheel of this rule set
    with pytest.raises(ValueError, match="not on the test wheel"):
        results.spins_frame(_Rules(), rec)


@pytest.mark.parametrize(
    "rules,kw",
    [
        ("classic(players=2)", {}),
        ("spin2005(players=3)", {}),
        ("spin2025(players=4)", {}),
        ("spiderman(players=5)", {}),
        ("spin2025(players=3,wheel={two_x:1})", {"wheel": {"two_x": 1}}),
        ("classic(players=4,stacking=true)", {"stacking": True}),
    ],
)
def test_reference_columns_match(rules, kw):
    """The reference engine writes its column names out again: they must be ours."""
    r = parse_rules(rules)
    rounds, spins = reference.play_many_spins(r.edition, r.players, 2, 1, reference.Options(**kw))
    assert list(rounds.columns) == round_columns(r)
    assert list(spins.columns) == list(SPIN_COLUMNS)


# --- match mode: match columns and the match table ---------------------------------------

MATCH_RULES = parse_rules("spin2005(players=3,match=race,target=200)")


def test_match_columns_are_built_in_the_one_place():
    from unospin_sim.results import MATCH_COLUMNS, MATCH_ROUND_COLUMNS

    cols = round_columns(MATCH_RULES, check=True)
    single = round_columns(RuleSet.build("spin2005", players=3))
    assert cols[: len(single)] == single and cols[-1] == CHECK_COLUMN
    assert cols[len(single) : -1] == [*MATCH_ROUND_COLUMNS, "score_0", "score_1", "score_2"]
    assert MATCH_COLUMNS(3) == [
        "match",
        "rounds",
        "turns",
        "score_0",
        "score_1",
        "score_2",
        "winner",
    ]
    assert not any(c in single for c in ("match", "round", "score_0"))


def test_match_frames_turn_seats_into_players():
    """Round j of a match: player i sits at seat (i - j) mod N; the kernel reports seats."""
    from unospin_sim.engine import layout as L
    from unospin_sim.results import MATCH_COLUMNS, match_frames
    from unospin_sim.rules.spaces import SPACE_ID

    r, p = MATCH_RULES, 3
    base = L.n_out_columns(p)
    rnd = np.array([0, 1, 2, 0])
    rows = np.zeros((4, base + 2 + p), np.int64)
    rows[:, L.O_WINNER] = [0, 0, 2, -1]
    rows[:, L.O_FIRST] = [1, 2, 0, 0]
    for s in range(p):  # cards_left of seat s: 10 * seat + round
        rows[:, L.N_OUT_FIXED + p + s] = 10 * s + rnd
    rows[:, base] = [0, 0, 0, 1]
    rows[:, base + 1] = rnd
    rows[:, base + 2 :] = [[5, 0, 0], [5, 7, 0], [5, 7, 9], [0, 0, 0]]
    seeds = np.arange(4, dtype=np.uint64)
    mrows = np.array([[0, 3, 99, 2, 5, 7, 9], [1, 1, 12, -1, 0, 0, 0]], np.int64)
    rec = np.zeros((2, L.N_SPIN_FIELDS), np.int64)
    rec[:, L.P_GAME] = [1, 2]
    rec[:, L.P_SPINNER] = [2, 2]
    rec[:, L.P_SPACE] = SPACE_ID[r.wheel_spaces()[0]]
    rounds, spins, matches = match_frames(r, rows, seeds, mrows, rec, check=True)
    assert list(rounds.columns) == round_columns(r, check=True)
    assert rounds["winner"].tolist() == [0, 1, 1, -1]  # (seat + round) mod 3
    assert rounds["first_player"].tolist() == [1, 0, 2, 0]
    for i in range(p):  # seat (i - round) mod 3
        assert rounds[f"cards_left_{i}"].tolist() == [10 * ((i - j) % p) + j for j in rnd]
    assert rounds["match"].tolist() == [0, 0, 0, 1] and rounds["round"].tolist() == [0, 1, 2, 0]
    assert rounds["score_2"].tolist() == [0, 0, 9, 0]
    assert spins["spinner"].tolist() == [0, 1]
    assert list(matches.columns) == MATCH_COLUMNS(p)
    assert matches["winner"].tolist() == [2, -1] and matches["score_1"].tolist() == [7, 0]
    assert matches["winner"].dtype == np.int8 and matches["rounds"].dtype == np.int32


def _match_results(n_matches=3, rounds_each=2):
    games = n_matches * rounds_each
    rounds = rounds_frame(range(0, games), MATCH_RULES)
    rounds["match"] = np.repeat(np.arange(n_matches), rounds_each).astype(np.int64)
    rounds["round"] = np.tile(np.arange(rounds_each), n_matches).astype(np.int32)
    from unospin_sim.results import empty_frames, match_round_game, matches_frame

    rounds["game"] = match_round_game(rounds["match"], rounds["round"])

    mrows = np.zeros((n_matches, 4 + MATCH_RULES.players), np.int64)
    mrows[:, 0] = np.arange(n_matches)
    mrows[:, 1] = rounds_each
    mrows[:, 3] = 1
    meta = {"rules": str(MATCH_RULES), "games": games, "matches": n_matches}
    return Results(rounds, empty_frames(MATCH_RULES)[1], meta, matches_frame(MATCH_RULES, mrows))


def test_match_results_save_load_round_trip(tmp_path):
    from unospin_sim.results import load_matches

    res = _match_results()
    res.save(tmp_path / "m")
    meta = json.loads((tmp_path / "m" / "meta.json").read_text())
    assert meta["parts"] == {"rounds": 1, "spins": 0, "matches": 1}
    back = Results.load(tmp_path / "m")
    pd.testing.assert_frame_equal(back.rounds, res.rounds)
    pd.testing.assert_frame_equal(back.matches, res.matches)
    pd.testing.assert_frame_equal(load_matches(tmp_path / "m"), res.matches)
    assert "matches=3 rows" in repr(back)
    # single rounds: no match table, and meta.json's parts do not mention one
    write_run(tmp_path / "s")
    assert load_results(tmp_path / "s").matches is None and load_matches(tmp_path / "s") is None
    assert "matches" not in json.loads((tmp_path / "s" / "meta.json").read_text())["parts"]


@pytest.mark.parametrize(
    "change,word",
    [
        (lambda res: setattr(res, "matches", None), "no match table"),
        (lambda res: res.meta.update(matches=4), "3 matches but meta says 4"),
        (
            lambda res: setattr(res, "matches", res.matches.drop(columns="winner")),
            "match table lacks columns winner",
        ),
    ],
)
def test_match_results_save_refuses_bad_results(tmp_path, change, word):
    res = _match_results()
    change(res)
    with pytest.raises(ResultsError) as info:
        res.save(tmp_path / "bad")
    assert word in one_line(info)
    assert not (tmp_path / "bad").exists()


def test_match_results_load_refuses_broken_match_tables(tmp_path):
    res = _match_results()
    res.save(tmp_path / "a")
    (tmp_path / "a" / "matches" / "part-00000.parquet").unlink()
    with pytest.raises(ResultsError) as info:
        load_results(tmp_path / "a")
    assert "0 part files but meta.json lists 1" in one_line(info)
    res = _match_results()
    res.matches["match"] = [0, 0, 2]
    res.save(tmp_path / "b")
    with pytest.raises(ResultsError) as info:
        load_results(tmp_path / "b")
    assert "matches 0..2 once each" in one_line(info)
    res = _match_results()
    res.matches["rounds"] = np.int32(1)
    res.save(tmp_path / "c")
    with pytest.raises(ResultsError) as info:
        load_results(tmp_path / "c")
    assert "3 rounds but" in one_line(info)


@pytest.mark.parametrize(
    "rules_text", ["spin2025(players=4)", "classic(players=3)", "spin2005(players=4,partners=true)"]
)
def test_chunk_columns_in_batches_equal_the_whole_chunk(rules_text):
    """A chunk played in kernel batches (as `run` does, to bound memory) gives the tables of
    the chunk played in one kernel call, and its parts read back as those tables."""
    import io

    import pyarrow.parquet as pq

    from unospin_sim.run import RunSpec
    from unospin_sim.run.work import _play

    spec = RunSpec.build(rules_text, "random", games=1, seed=9, check=True)
    rules = spec.rules
    game0, n = 1000, 2500
    out, seeds, rec = _play(spec, game0, n)
    cols = results.ChunkColumns(rules, n, check=True)
    for a in range(0, n, 700):
        b = min(700, n - a)
        cols.add(game0 + a, *_play(spec, game0 + a, b))
    pd.testing.assert_frame_equal(
        cols.rounds_frame(), results.rounds_frame(rules, game0, out, seeds, check=True)
    )
    pd.testing.assert_frame_equal(cols.spins_frame(), results.spins_frame(rules, rec))
    for tab, want in (
        (cols.rounds_arrow(), results.rounds_arrow(rules, game0, out, seeds, check=True)),
        (cols.spins_arrow(), results.spins_arrow(rules, rec)),
    ):
        assert tab.equals(want)
        buf = io.BytesIO()
        pq.write_table(tab, buf, **results.part_write_options(tab))
        assert pq.read_table(io.BytesIO(buf.getvalue())).equals(want)


def test_a_jump_in_run_written_before_the_jump_in_columns_still_loads(tmp_path):
    """Runs of the house rule jump_in written before 2026-12-02 have no jump-in columns: they
    load (without them), summarise and keep every other column."""
    import pyarrow.parquet as pq

    from unospin_sim.analysis.summary import summarize
    from unospin_sim.run import simulate

    out = tmp_path / "old"
    res = simulate(
        "classic(players=4,jump_in=true)",
        "random",
        games=120,
        seed=2,
        execution=Execution(out=out, chunk_size=60),
    )
    assert "jump_ins_3" in res.rounds.columns
    for part in sorted((out / "rounds").iterdir()):  # rewrite the parts as the old version did
        tab = pq.read_table(part)
        keep = [c for c in tab.column_names if not c.startswith("jump_ins")]
        pq.write_table(tab.select(keep), part)
    old = load_results(out)
    assert not any(c.startswith("jump_ins") for c in old.rounds.columns)
    pd.testing.assert_frame_equal(
        old.rounds,
        res.rounds.drop(columns=[c for c in res.rounds.columns if c.startswith("jump_ins")]),
    )
    assert "mean_jump_ins" not in set(summarize(old.rounds, players=4).statistic)
