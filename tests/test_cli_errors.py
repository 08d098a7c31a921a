"""Bad command-line input: one line naming the problem on stderr, exit 2, no traceback.

Every case here fails while the flags are validated, before any simulation starts, so these
tests need no engine.
"""

from __future__ import annotations

import re

import pytest

from unospin_sim.cli import main, parse_games

CASES = [
    (["run", "--games", "-5"], "games"),
    (["run", "--games", "1.5"], "games"),
    (["run", "--games", "lots"], "games"),
    (["run", "--games", "0"], "games"),
    (["run", "--games", "1e400"], "games"),
    (["run", "--games", "nan"], "games"),
    (["run", "--players", "11"], "players"),
    (["run", "--players", "1"], "players"),
    (["run", "--players", "x"], "players"),
    (["run", "--edition", "nope"], "edition"),
    (["run", "--bots", "nope"], "nope"),
    (["run", "--bots", "random,random"], "bots"),
    (["run", "--bots", "heuristic(forget=2)"], "forget"),
    (["run", "--bots", "search(rollouts=0)"], "rollouts"),
    (["run", "--bots", "search(rollouts=2.5)"], "rollouts"),
    (["run", "--bots", "search(depth=3)"], "depth"),
    (["run", "--bots", "heuristic(rollouts=8)"], "only to strategy 'search'"),
    (["run", "--bots", "heuristic(jump=0.5)"], "jump_in"),
    (["tournament", "--strategies", "heuristic(jump=0),greedy"], "jump_in"),
    (["run", "--out", "/proc/nope"], "/proc/nope"),
    (["run", "--wheel", "war=1"], "wheel"),
    (["run", "--wheel", "two_x=-1"], "negative"),
    (["run", "--wheel", "two_x=0"], "zero"),
    (["run", "--wheel", "nope=1"], "nope"),
    (["run", "--wheel", "two_x=lots"], "number"),
    (["run", "--edition", "classic", "--wheel", "war=1"], "no wheel"),
    (["run", "--edition", "spin2005", "--wheel", "two_x=1"], "spin2025 wheel"),
    (
        ["run", "--players", "3", "--option", "partners=true"],
        "partners=true cannot be combined with players=3",
    ),
    (
        ["run", "--option", "partners=true", "--option", "match=lowest"],
        "partners=true cannot be combined with match=lowest",
    ),
    (["run", "--option", "foo=1"], "foo"),
    (["run", "--option", "novalue"], "key=value"),
    (["run", "--edition", "classic", "--option", "wild_spin_cards=2"], "wild_spin_cards"),
    (["run", "--option", "draw_two_draws=0"], "draw_two_draws"),
    (["run", "--option", "wd4_draws=21"], "wd4_draws"),
    (["run", "--rules", "classic(players=4,uno_penalty=11)"], "uno_penalty"),
    (["run", "--rules", "classic(players=4,rlcard=true,wd4_draws=6)"], "rlcard"),
    (["run", "--rules", "classic(players=10,hand_size=11)"], "hand_size"),
    (["run", "--option", "skip_cards=5"], "skip_cards"),
    (
        ["run", "--rules", "classic(players=10,hand_size=9,skip_cards=0,reverse_cards=0)"],
        "skip_cards=0",
    ),
    (["run", "--option", "points={wild_spin:10}", "--edition", "classic"], "wild_spin"),
    (["run", "--option", "points={skip:-1}"], "points.skip"),
    (["run", "--rules", "classic(players=3)", "--edition", "spin2025"], "contradicts"),
    (["run", "--rules", "classic(players=3)", "--players", "4"], "--players"),
    (["run", "--rules", "spin2025(players=4"], "malformed"),
    (["run", "--rules", "nope"], "edition"),
    (["run", "--threads", "0"], "threads"),
    (["run", "--seed", "-1"], "seed"),
    (["run", "--turn-cap", "0"], "turn cap"),
    (["run", "--chunk-size", "0"], "chunk size"),
    (["run", "--frobnicate"], "unrecognized"),
    (["bogus"], "bogus"),
    ([], "COMMAND"),
    (["play", "--players", "11"], "players"),
    (["play", "--edition", "nope"], "edition"),
    (["play", "--bots", "nope"], "nope"),
    (["play", "--game", "-1"], "game"),
    (["run", "--bots", "heuristic(w_void=1)"], "only to strategy 'tuned'"),
    (["run", "--bots", "tuned(w_void=5000)"], "w_void"),
    (["tune", "--edition", "nope"], "edition"),
    (["tune", "--trials", "0"], "trials"),
    (["tune", "--games", "50"], "games"),
    (["tune", "--eval-games", "5"], "eval-games"),
    (["tune", "--out", ""], "--out"),
    (["tune", "--objective", "matches"], "objective"),
    # tables: rounds are what a run is summarised and reported from; one flag chooses them
    (["run", "--tables", "spins"], "leave out rounds"),
    (["run", "--summary-only", "--no-spins"], "--no-spins and --summary-only both choose"),
    (["run", "--no-spins", "--tables", "rounds,spins"], "--tables and --no-spins both"),
    (["run", "--resume", "x", "--no-spins"], "--no-spins cannot be given"),
    # --pool plays nothing: a flag choosing what is played would be ignored
    (["tournament", "--pool", "a", "--games", "500"], "--games cannot be given with it"),
    (["tournament", "--pool", "a", "--seed", "3"], "--seed cannot be given with it"),
    (["tournament", "--overwrite"], "give --out DIR"),
    (["tune", "--overwrite"], "give --out FILE"),
    (["tune", "--out", "no-such-dir/t.json"], "the directory no-such-dir does not exist"),
    (
        [
            "design",
            "--edition",
            "classic",
            "--goal",
            "skill>=0.05",
            "--vary",
            "stacking",
            "--skill-bot",
            "random",
            "--out",
            "d",
        ],
        "--skill-bot random",
    ),
    (
        [
            "design",
            "--edition",
            "classic",
            "--goal",
            "mean_turns=50",
            "--vary",
            "stacking",
            "--skill-bot",
            "greedy",
            "--out",
            "d",
        ],
        "give a skill goal, or drop --skill-bot",
    ),
    (
        [
            "design",
            "--edition",
            "classic",
            "--goal",
            "mean_turns=50",
            "--vary",
            "stacking",
            "--stages",
            "2,1",
            "--out",
            "d",
        ],
        "--stages must grow",
    ),
    (
        [
            "design",
            "--edition",
            "classic",
            "--goal",
            "mean_turns=50",
            "--vary",
            "stacking",
            "--stages",
            "",
            "--out",
            "d",
        ],
        "--stages",
    ),
    # an empty value is an error, never the default; 0 is a value
    (["run", "--tables", ""], "got an empty string"),
    (["run", "--tables", "", "--no-spins"], "--tables and --no-spins both"),
    (["tournament", "--edition", ""], "edition"),
    (["tournament", "--pool", "a", "--seed", "0"], "--seed cannot be given with it"),
    (["wheel", "--edition", "spin2005", "--option", "match=race", "--out", "w"], "drop match=race"),
    # wheel --draw: the picture's file and the wheel checked before anything is drawn
    (["wheel"], "--draw FILE"),
    (["wheel", "--draw", "/nonexistent-dir/w.svg"], "does not exist"),
    (["wheel", "--draw", "w.pdf"], "must end in .svg or .png"),
    (["wheel", "--draw", ""], "needs a file name"),
    (["wheel", "--draw", "."], "is a directory"),
    (["wheel", "--edition", "classic", "--draw", "w.svg"], "no wheel"),
    (["wheel", "--wheel", "two_x=1,swap_hands=0.013", "--draw", "w.svg"], "cannot draw the wheel"),
]


@pytest.mark.parametrize("args,word", CASES, ids=[" ".join(a) or "none" for a, _ in CASES])
def test_bad_input(any_cli, tmp_path, args, word):
    proc = any_cli(*args, cwd=tmp_path, timeout=60)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("unospin_sim: error: ")
    assert word in lines[0]
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
    assert not (tmp_path / "results").exists()  # nothing written for bad input


def test_out_under_a_file(any_cli, tmp_path):
    (tmp_path / "file").write_text("x")
    proc = any_cli("run", "--out", str(tmp_path / "file" / "out"), timeout=60)
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1
    assert "cannot create results directory" in proc.stderr


def test_out_already_holds_results(any_cli, tmp_path):
    out = tmp_path / "r"
    (out / "rounds").mkdir(parents=True)
    (out / "meta.json").write_text("{}")
    proc = any_cli("run", "--out", str(out), timeout=60)
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1
    assert "already holds results" in proc.stderr
    assert (out / "meta.json").read_text() == "{}"


@pytest.mark.parametrize(
    "args", [["run", "--games", "-5"], ["run", "--edition", "nope"], ["play", "--bots", "nope"]]
)
def test_bad_input_in_process(capsys, args):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("unospin_sim: error: ")


@pytest.mark.parametrize(
    "text,value",
    [
        ("1e6", 10**6),
        ("1000000", 10**6),
        ("1_000", 1000),
        ("1E3", 1000),
        (" 7 ", 7),
        ("2.5e3", 2500),
    ],
)
def test_parse_games_accepts(text, value):
    assert parse_games(text) == value


@pytest.mark.parametrize("text", ["-5", "1.5", "lots", "0", "", "inf", "nan", "1e-3", "-1e6"])
def test_parse_games_rejects(text):
    import argparse

    with pytest.raises(argparse.ArgumentTypeError, match="games"):
        parse_games(text)


def test_help_works(any_cli):
    for args in (["--help"], ["run", "--help"], ["play", "--help"]):
        proc = any_cli(*args, timeout=60)
        assert proc.returncode == 0 and "usage" in proc.stdout


def _helps() -> dict[str, str]:
    """Every subcommand's --help text."""
    import argparse

    from unospin_sim.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {name: p.format_help() for name, p in sub.choices.items()}


def test_every_help_lists_what_it_promises():
    """A help promising every rule option lists them; a help taking wheel weights lists
    every edition's wheel spaces with their effects (both from the rule data)."""
    from unospin_sim.rules import EDITIONS, OPTION_ORDER, SPACES

    helps = _helps()
    flat = {n: " ".join(h.split()) for n, h in helps.items()}  # help text is wrapped
    promised = [n for n, h in flat.items() if "listed at the end of this help" in h]
    assert {"run", "play", "wheel"} <= set(promised)
    for name in promised:
        for option in OPTION_ORDER:
            assert f"  {option}=" in helps[name], (name, option)
    wheel_takers = [n for n, h in flat.items() if "--wheel " in h or "wheel=SPACE" in h]
    assert {"run", "play", "wheel", "design"} <= set(wheel_takers)
    for name in wheel_takers:
        for ed in EDITIONS.values():
            for s in ed.wheel_spaces:
                line = f"{s}  {SPACES[s].title}: {SPACES[s].effect}"
                assert re.search(
                    rf"^ +{re.escape(s)} +{re.escape(line[len(s) + 2 :])}$", helps[name], re.M
                ), (name, s)


def test_version(cli):
    proc = cli("--version", timeout=60)
    assert proc.returncode == 0 and "0.2.0" in proc.stdout
