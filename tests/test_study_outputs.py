"""What the study commands write, and when they check it: an output directory or file is
claimed before any work (so a long study never ends in an error, and never silently replaces
results), ``report`` reads every input before writing, and the "Reproduce" lines name every
option that shaped the output."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import time
from pathlib import Path

import pandas as pd
import pytest

from unospin_sim.cli import main
from unospin_sim.errors import UserError
from unospin_sim.results import claim_out_dir, newest
from unospin_sim.run import Execution

OWN = ("a.csv", "b.json")


def _err(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("unospin_sim: error: ") and "\n" not in err, err
    return err


# -- claim_out_dir: by hand ----------------------------------------------------------------


def test_claim_creates_and_refuses_what_is_not_its_own(tmp_path):
    assert claim_out_dir(tmp_path / "new" / "deep", OWN, "study") == tmp_path / "new" / "deep"
    assert (tmp_path / "new" / "deep").is_dir()
    (tmp_path / "file").write_text("x")
    with pytest.raises(UserError, match="exists and is not a directory"):
        claim_out_dir(tmp_path / "file", OWN, "study")
    run = tmp_path / "run"
    (run / "rounds").mkdir(parents=True)
    (run / "meta.json").write_text("{}")
    for overwrite in (False, True):  # a run's results are never the study's to replace
        with pytest.raises(UserError, match=r"holds a run's results \(meta.json\)"):
            claim_out_dir(run, OWN, "study", overwrite=overwrite)
    assert (run / "meta.json").read_text() == "{}"
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match=r"files study does not write \(notes.txt\)"):
        claim_out_dir(other, OWN, "study", overwrite=True)


def test_claim_own_files_need_overwrite(tmp_path):
    d = tmp_path / "d"
    d.mkdir()
    (d / ".hidden").write_text("")  # hidden files aside
    assert claim_out_dir(d, OWN, "study") == d
    (d / "a.csv").write_text("old")
    with pytest.raises(
        UserError,
        match=r"already holds study results \(a.csv\); pass "
        r"--overwrite",
    ):
        claim_out_dir(d, OWN, "study")
    assert claim_out_dir(d, OWN, "study", overwrite=True) == d
    assert (d / "a.csv").read_text() == "old"  # claimed, not yet replaced


def test_claim_unwritable():
    with pytest.raises(UserError, match="cannot write to --out /proc/nope"):
        claim_out_dir("/proc/nope", OWN, "study")


# -- tournament ----------------------------------------------------------------------------

TOURNAMENT = [
    "tournament",
    "--games",
    "200",
    "--strategies",
    "greedy",
    "--seed",
    "1",
    "--threads",
    "1",
    "--quiet",
    "--no-head-to-head",
]


def test_tournament_out_refuses_before_playing_and_overwrites_on_request(tmp_path, capsys):
    run = tmp_path / "run"
    run.mkdir()
    (run / "meta.json").write_text('{"games": 7}')
    t0 = time.perf_counter()
    err = _err(capsys, TOURNAMENT + ["--out", str(run)])
    assert "holds a run's results" in err
    assert (run / "meta.json").read_text() == '{"games": 7}'
    out = tmp_path / "t"
    assert main(TOURNAMENT + ["--out", str(out)]) == 0
    first = (out / "pairings.parquet").read_bytes()
    capsys.readouterr()
    err = _err(capsys, TOURNAMENT[:-4] + ["--seed", "2", "--out", str(out)])
    assert "already holds tournament results" in err and "--overwrite" in err
    assert (out / "pairings.parquet").read_bytes() == first
    assert time.perf_counter() - t0 < 60  # the refusals played nothing
    assert main(TOURNAMENT + ["--seed", "2", "--out", str(out), "--overwrite"]) == 0
    assert json.loads((out / "tournament.json").read_text())["seed"] == 2


def test_tournament_save_removes_an_earlier_tournaments_optional_files(tmp_path):
    from unospin_sim.studies.tournament import load_skill, run_tournament

    t = run_tournament(
        "classic",
        2,
        games=200,
        strategies="greedy,tuned",
        seed=1,
        head_to_head=False,
        execution=Execution(threads=1),
    )
    out = t.save(tmp_path / "t")
    assert (out / "won_vs_random.parquet").is_file() and (out / "ladder.parquet").is_file()
    assert list(load_skill(out)["ladder"]["step_test"]) == ["fair share", "paired"]
    with pytest.raises(UserError, match="already holds tournament results"):
        t.save(out)
    bare = dataclasses.replace(t, won=None, ladder=None)
    bare.save(out, overwrite=True)
    assert not (out / "won_vs_random.parquet").exists()
    assert not (out / "ladder.parquet").exists()
    # no stale round-by-round file: the step is of independent samples
    assert list(load_skill(out)["ladder"]["step_test"]) == ["fair share", "independent"]


def test_load_skill_names_the_missing_file(tmp_path):
    from unospin_sim.studies.tournament import load_skill, run_tournament

    out = run_tournament(
        "classic",
        2,
        games=200,
        strategies="greedy",
        seed=1,
        head_to_head=False,
        execution=Execution(threads=1),
    ).save(tmp_path / "t")
    (out / "pairings.parquet").unlink()
    with pytest.raises(UserError, match=r"not a tournament directory \(no pairings.parquet;"):
        load_skill(out)


# -- wheel and tune ------------------------------------------------------------------------


def test_wheel_out_refuses_before_replaying(tmp_path, capsys):
    out = tmp_path / "w"
    out.mkdir()
    (out / "space_effects.csv").write_text("old")
    argv = [
        "wheel",
        "--edition",
        "spin2005",
        "--players",
        "3",
        "--games",
        "50",
        "--seed",
        "4",
        "--threads",
        "1",
        "--out",
        str(out),
    ]
    err = _err(capsys, argv)
    assert "already holds wheel results (space_effects.csv)" in err and "--overwrite" in err
    assert (out / "space_effects.csv").read_text() == "old"
    assert main(argv + ["--overwrite"]) == 0
    assert pd.read_csv(out / "space_effects.csv")["space"].nunique() == 9


def test_tune_out_refuses_an_existing_file_before_the_study(tmp_path, capsys):
    f = tmp_path / "tuned.json"
    f.write_text("{}")
    t0 = time.perf_counter()
    err = _err(capsys, ["tune", "--trials", "50", "--games", "100000", "--out", str(f)])
    assert time.perf_counter() - t0 < 10  # refused before 50 trials of 100,000 rounds
    assert "already exists; pass --overwrite" in err and f.read_text() == "{}"


# -- report --------------------------------------------------------------------------------


def test_report_checks_skill_dirs_before_writing(tmp_path, capsys):
    not_t = tmp_path / "not-a-tournament"
    not_t.mkdir()
    (not_t / "tournament.json").write_text('{"rules": "classic(players=2)"}')
    err = _err(
        capsys,
        [
            "report",
            str(tmp_path / "any-run"),
            "--out",
            str(tmp_path / "rep"),
            "--skill",
            str(not_t),
        ],
    )
    assert "no pairings.parquet" in err
    assert not (tmp_path / "rep").exists()


def test_report_reproduce_line_names_every_option(tmp_path):
    from unospin_sim.report import build_report
    from unospin_sim.run import simulate
    from unospin_sim.studies.tournament import run_tournament

    simulate(
        "classic(players=2)", "random", games=300, seed=1, execution=Execution(out=tmp_path / "r")
    )
    t = run_tournament(
        "classic",
        2,
        games=200,
        strategies="greedy",
        seed=1,
        head_to_head=False,
        execution=Execution(threads=1),
    ).save(tmp_path / "t")
    md = build_report(
        [tmp_path / "r"], tmp_path / "rep", target=300, wheel_games=100, threads=1, skill_dirs=[t]
    ).read_text()
    cmd = md.split("by `", 1)[1].split("`", 1)[0]
    assert cmd == (
        f"python -m unospin_sim report {tmp_path / 'r'} --out {tmp_path / 'rep'} "
        f"--target 300 --wheel-games 100 --threads 1 --skill {t}"
    )


def _fake_run(d: Path, tables, age: float) -> Path:
    d.mkdir(parents=True)
    meta = {"rules": "classic(players=4)", "games": 0}
    if tables is not None:
        meta["tables"] = tables
    (d / "meta.json").write_text(json.dumps(meta))
    t = time.time() - age
    os.utime(d / "meta.json", (t, t))
    return d


def test_newest_skips_runs_without_a_round_table(tmp_path):
    root = tmp_path / "results"
    _fake_run(root / "old-format", None, age=300)  # no "tables": written before the key
    with_rounds = _fake_run(root / "no-spins", ["rounds"], age=200)
    _fake_run(root / "summary-only", [], age=100)
    assert newest(root) == with_rounds
    _fake_run(root / "spins-only", ["spins"], age=10)
    assert newest(root) == with_rounds
    for d in ("old-format", "no-spins"):
        (root / d / "meta.json").unlink()
    with pytest.raises(UserError, match="no results directory with a round table"):
        newest(root)


# -- design --------------------------------------------------------------------------------


def test_design_store_keys_by_saved_strings(tmp_path):
    """A measurement stored under a strategy's canonical name (as before 2026-12-05) is
    measured again, since that strategy's defaults may have changed since; a skill figure is
    reused only when measured with the same skill bot."""
    from unospin_sim.rules import RuleSet
    from unospin_sim.studies.design.evaluate import Evaluation, saved_field
    from unospin_sim.studies.design.spec import MeasurementStore

    rules = RuleSet.build("classic", players=2)
    field = saved_field("search", 2)
    assert field.startswith("search(rollouts=") and "extend=" in field
    store = MeasurementStore(tmp_path)
    m = {"mean_turns": (40.0, 39.0, 41.0), "skill": (0.1, 0.05, 0.15)}
    store.add(Evaluation(str(rules), 500, 1, "search,search", m, 1.0, ""))
    assert store.lookup(rules, 500, 1, "search", ["mean_turns"]) is None  # an old key
    store.add(Evaluation(str(rules), 500, 1, field, m, 1.0, saved_field("heuristic", 1)))
    again = MeasurementStore(tmp_path)  # read back from evaluations.jsonl
    assert again.lookup(rules, 500, 1, "search", ["mean_turns"]).bots == field
    assert again.lookup(rules, 500, 1, "search", ["skill"], "heuristic") is not None
    assert again.lookup(rules, 500, 1, "search", ["skill"], "greedy") is None


def test_design_command_names_the_skill_bot():
    from unospin_sim.studies.design.spec import DesignSpec
    from unospin_sim.studies.design.stages import _argv

    spec = DesignSpec("classic", 4, ["skill>=0.05"], ["stacking"], skill_bot="greedy")
    spec.check()
    assert _argv(spec, Path("my designs"))[-4:] == [
        "--skill-bot",
        "'greedy'",
        "--out",
        "'my designs'",
    ]
    spec = DesignSpec("classic", 4, ["mean_turns=50"], ["stacking"])
    spec.check()
    assert "--skill-bot" not in _argv(spec)


def test_design_out_refuses_other_results_before_the_study(tmp_path, capsys):
    t = tmp_path / "t"
    t.mkdir()
    (t / "summary.md").write_text("# Tournament")
    (t / "tournament.json").write_text("{}")
    err = _err(
        capsys,
        [
            "design",
            "--edition",
            "classic",
            "--goal",
            "mean_turns=50",
            "--vary",
            "stacking",
            "--trials",
            "2",
            "--games",
            "300",
            "--out",
            str(t),
            "--quiet",
        ],
    )
    assert "holds files design does not write (tournament.json)" in err
    assert (t / "summary.md").read_text() == "# Tournament"
    assert sorted(p.name for p in t.iterdir()) == ["summary.md", "tournament.json"]


def test_tune_overwrite_replaces_only_a_tune_result(tmp_path, capsys):
    meta = tmp_path / "meta.json"
    meta.write_text('{"rules": "classic(players=2)"}')
    err = _err(
        capsys,
        [
            "tune",
            "--trials",
            "2",
            "--games",
            "200",
            "--eval-games",
            "0",
            "--out",
            str(meta),
            "--overwrite",
        ],
    )
    assert "is not an earlier tune result" in err
    assert meta.read_text() == '{"rules": "classic(players=2)"}'


def test_run_out_refuses_a_directory_holding_other_files(tmp_path, capsys):
    d = tmp_path / "mine"
    d.mkdir()
    (d / "notes.txt").write_text("keep")
    err = _err(capsys, ["run", "--games", "100", "--out", str(d), "--quiet"])
    assert "holds files this tool did not write (notes.txt)" in err
    assert sorted(p.name for p in d.iterdir()) == ["notes.txt"]


def test_wheel_without_spins_is_an_error(tmp_path, capsys):
    err = _err(
        capsys,
        [
            "wheel",
            "--edition",
            "spin2025",
            "--players",
            "3",
            "--games",
            "50",
            "--option",
            "spin_cards=0",
            "--option",
            "wild_spin_cards=0",
            "--threads",
            "1",
            "--out",
            str(tmp_path / "w"),
        ],
    )
    assert "no spin in 50 rounds" in err
    assert not (tmp_path / "w" / "space_effects.csv").exists()


def test_summary_of_a_summary_only_match_run_is_what_run_printed(tmp_path, capsys):
    out = tmp_path / "m"
    assert (
        main(
            [
                "run",
                "--match",
                "race",
                "--matches",
                "6",
                "--summary-only",
                "--out",
                str(out),
                "--quiet",
                "--threads",
                "1",
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert main(["summary", str(out)]) == 0
    summary = capsys.readouterr().out
    keep = ("player", "   ", "matches", "rounds per match", "mean turns")
    assert [x for x in summary.splitlines() if x.startswith(keep)] == [
        x for x in printed.splitlines() if x.startswith(keep)
    ]
    assert "match win rate" in summary


def test_report_out_replaces_only_an_earlier_report(tmp_path):
    """report --out: a run's directory or foreign files are refused before anything is
    written; an earlier report's charts and tables that the new one does not make are
    removed. Two runs of the same rules and bots are told apart by their seed, and a
    change's interval keeps its sign. A run of matches gets no paired replays (they are of
    single rounds), and says so."""
    from unospin_sim.report import build_report
    from unospin_sim.run import simulate

    simulate(
        "spin2005(players=2)", "random", games=300, seed=1, execution=Execution(out=tmp_path / "a")
    )
    simulate(
        "spin2005(players=2)", "random", games=300, seed=2, execution=Execution(out=tmp_path / "b")
    )
    simulate(
        "spin2025(players=2,match=race)",
        "random",
        games=4,
        seed=1,
        execution=Execution(out=tmp_path / "m"),
    )
    before = sorted(p.name for p in (tmp_path / "a").iterdir())
    with pytest.raises(
        UserError, match=r"holds files a report does not write \(manifest.jsonl: a run's"
    ):
        build_report([tmp_path / "b"], tmp_path / "a", wheel_games=0)
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == before
    rep = tmp_path / "rep"
    (rep / "tables").mkdir(parents=True)
    (rep / "report.md").write_text("old")
    (rep / "wheel_9.png").write_bytes(b"old")
    (rep / "tables" / "wheel_9.csv").write_text("old")
    md = build_report(
        [tmp_path / "a", tmp_path / "b", tmp_path / "m"], rep, wheel_games=50, threads=1
    ).read_text()
    assert not (rep / "wheel_9.png").exists() and not (rep / "tables" / "wheel_9.csv").exists()
    assert (rep / "balance.png").is_file() and (rep / "tables" / "balance.csv").is_file()
    assert "`spin2005(players=2) random seed 2`" in md
    change = re.search(
        r"change in mean turns per round ([+-]\d+)% \[([+-]\d+)%, "
        r"([+-]\d+)%\]",
        md,
    )
    assert change and int(change.group(2)) <= int(change.group(1)) <= int(change.group(3))
    assert "No paired replays: this run played matches" in md
    (rep / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match=r"\(notes.txt"):
        build_report([tmp_path / "a"], rep, wheel_games=0)
