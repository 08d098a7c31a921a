"""Mutation testing: are the rules tests and the cross-check able to see a wrong rule?

Each mutant is a copy of the ``unospin_sim`` package with ONE textual change in one file of
``unospin_sim/engine/`` (the target text must occur exactly once, so a mutant that no
longer applies after a refactor fails loudly, naming itself: ``test_every_mutant_applies``
checks it in the default tier). Against each copy, in subprocesses with ``PYTHONPATH`` at the
copy and ``NUMBA_DISABLE_JIT=1`` (the engine runs as plain Python: no compilation, so a
mutant costs seconds rather than a cold compile of minutes), the harness runs

1. the rules tests (:data:`RULES_TESTS`: the exact-state rule tests, the golden
   playthroughs and their legality replay, the house-rule tests, the policy tests), and
2. a small cross-check: :data:`XCHECK_GAMES` engine rounds per configuration of
   :data:`XCHECK_CONFIGS` against :data:`XCHECK_REF_GAMES` rounds of the independent
   reference (``unospin_sim.reference``, computed once), every per-round mean and each
   seat's win rate compared by a two-sample z-score, caught when some |z| > :data:`Z_MAX`.

A mutant is caught when either stage fails; the test for the mutant fails if neither
does. Both stages always run, and each mutant's line (printed to the terminal, also
without ``-s``) names every detector: the failing tests' node ids and the cross-check's
largest z-scores. The unmutated copy ("mutant 0") goes through the same harness and must
pass both stages, so the harness cannot pass by always failing.

Run it with ``pytest -m slow --run-expensive tests/test_mutants.py`` (the expensive tier) (about 15 minutes on 2 cores: each
mutant ~25 s of rules tests and ~50 s of plain-Python engine rounds).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))
import crosskit  # noqa: E402

from unospin_sim.run import Execution  # noqa: E402

REPO = TESTS.parent
PACKAGE = REPO / "unospin_sim"


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str  # relative to unospin_sim/
    old: str  # must occur exactly once in the file
    new: str
    what: str


MUTANTS = (
    Mutant(
        "colour_draw_wild_ignored",
        "engine/wheel.py",
        "if k >= FIRST_WILD and r[R_WILD_STOPS]:",
        "if k >= FIRST_WILD and 0:",
        "a drawn wild never stops a wheel colour draw (2005 Draw Red/Blue run on)",
    ),
    Mutant(
        "two_player_reverse_reverses",
        "engine/turn.py",
        "if np_ == 2:\n                    n_pass += 1",
        "if np_ == 0:\n                    n_pass += 1",
        "with 2 players Reverse reverses instead of acting as a Skip",
    ),
    Mutant(
        "draw_two_draws_one",
        "engine/turn.py",
        "elif f == FACE_DRAW_TWO:\n                n_draw += r[R_DRAW_TWO_N]",
        "elif f == FACE_DRAW_TWO:\n                n_draw += r[R_DRAW_TWO_N] - 1",
        "the victim of a Draw Two draws one card",
    ),
    Mutant(
        "war_tie_first_seat_wins",
        "engine/contests.py",
        "if active == 1:",
        "if active >= 1:",
        "a War tie goes to the lowest tied seat instead of showing again",
    ),
    # the turn ends before play moves on, so the seat that played the Spin card spins at
    # the next action (the spin still counts as a turn), then the next seat plays
    Mutant(
        "spin2005_spinner_is_the_player",
        "engine/turn.py",
        "s[S_SPIN_NEXT] = 1\n",
        "s[S_SPIN_NEXT] = 1\n                    return\n",
        "2005: the player of the Spin card spins, not the next player",
    ),
    Mutant(
        "wd4_ignores_colour",
        "engine/legal.py",
        "if st.hand[p, CC + st.s[S_COLOUR]] > 0:",
        "if st.hand[p, CC + st.s[S_COLOUR]] < 0:",
        "Wild Draw Four legal while holding the colour in play",
    ),
    Mutant(
        "uno_penalty_one_card",
        "engine/calls.py",
        "draw_n(st, p, r[R_UNO_PENALTY])",
        "draw_n(st, p, r[R_UNO_PENALTY] - 1)",
        "a player caught without calling UNO draws one card instead of two",
    ),
    Mutant(
        "two_x_never_set",
        "engine/wheel2025.py",
        "st.s[S_TWO_X] = 1",
        "st.s[S_TWO_X] = 0",
        "2025 2X: the next player does not play two cards",
    ),
    Mutant(
        "trade_hands_follows_direction",
        "engine/exchange.py",
        "pass_hands(st, 1)",
        "pass_hands(st, st.s[S_DIR])",
        "2005 Trade Hands passes hands in the direction of play, not clockwise",
    ),
    Mutant(
        "random_swap_target_biased",
        "engine/policy/random_bot.py",
        "if q >= p:\n            q += 1",
        "if q > p:\n            q += 1",
        "random bot's Swap Hands target: can be itself, never the seat after it",
    ),
)

#: rules tests run against every mutant (paths relative to tests/); the invariant tests of
#: test_house_rules.py play 20,000 rounds each, too many for the plain-Python engine
RULES_TESTS = (
    "test_engine_rules.py",
    "test_playthroughs.py",
    "test_golden_legality.py",
    "test_house_rules.py",
    "test_policy.py",
)
RULES_DESELECT = "not invariants"
#: rules tests that compare the engine with its own earlier output (the golden playthroughs
#: replayed by the engine): run, and required to pass on the unmutated copy, but never
#: counted as detectors (test_golden_legality.py's independent replay of the same files is)
SELF_COMPARISON = ("test_playthroughs.py",)

#: the cross-check stage: (edition, players), engine and reference rounds, threshold
XCHECK_CONFIGS = (
    ("classic", 2),
    ("classic", 4),
    ("spin2005", 2),
    ("spin2005", 4),
    ("spin2025", 2),
    ("spin2025", 4),
    ("spiderman", 4),
)
XCHECK_GAMES = 2000
XCHECK_REF_GAMES = 10_000
XCHECK_SEED = 31
XCHECK_REF_SEED = 32
Z_MAX = 5.0  # P(|z| > 5) = 6e-7 per statistic: no false alarm over the ~250 per mutant


def mutant_source(m: Mutant, root: Path = PACKAGE) -> str:
    """The mutated text of m's file; raises if m's target text is not there exactly once."""
    text = (root / m.path).read_text()
    n = text.count(m.old)
    if n != 1:
        raise AssertionError(
            f"mutant {m.name}: its target text occurs {n} times in "
            f"unospin_sim/{m.path} (must be exactly once): {m.old!r}"
        )
    return text.replace(m.old, m.new)


def build_copy(dest: Path, m: Mutant | None) -> Path:
    """A copy of the package under dest/ (without compiled caches), mutated by m."""
    pkg = dest / "unospin_sim"
    shutil.copytree(PACKAGE, pkg, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    if m is not None:
        (pkg / m.path).write_text(mutant_source(m))
    return dest


def _env(copy: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(copy)
    env["NUMBA_DISABLE_JIT"] = "1"
    env.pop("UNOSPIN_REGEN", None)
    return env


def _guarded(copy: Path, code: str) -> list[str]:
    """python -c: check that the package imported is the copy's, then run code."""
    return [
        sys.executable,
        "-W",
        "ignore::RuntimeWarning",
        "-c",
        "import sys, unospin_sim\n"
        f"assert unospin_sim.__file__.startswith({str(copy)!r}), unospin_sim.__file__\n" + code,
    ]


def _start(argv, cwd, env, log: Path) -> subprocess.Popen:
    """Start a stage's subprocess, its stdout and stderr into log (a file: no pipe to fill)."""
    with open(log, "w") as out:
        return subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, text=True
        )


def _finish(proc: subprocess.Popen, log: Path, timeout: float) -> tuple[int, str]:
    try:
        rc = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise
    return rc, log.read_text()


def start_rules_tests(copy: Path, tmp: Path) -> subprocess.Popen:
    args = [
        "-q",
        "-p",
        "no:cacheprovider",
        "-W",
        "ignore::RuntimeWarning",
        "-rfE",
        "--tb=no",
        "-k",
        RULES_DESELECT,
        *RULES_TESTS,
    ]
    return _start(
        _guarded(copy, f"import pytest\nsys.exit(pytest.main({args!r}))"),
        TESTS,
        _env(copy),
        tmp / "rules.log",
    )


def finish_rules_tests(proc, tmp: Path) -> tuple[int, list[str], str]:
    """Return code, failing node ids ("FAILED ..."/"ERROR ..." lines) and the output tail."""
    rc, out = _finish(proc, tmp / "rules.log", 1800)
    failed = [
        line.split(" - ")[0] for line in out.splitlines() if line.startswith(("FAILED ", "ERROR "))
    ]
    return rc, failed, out[-3000:]


def engine_sample(out: str) -> None:
    """(Subprocess side) XCHECK_GAMES engine rounds per configuration into out (.npz)."""
    from unospin_sim.run import simulate

    arrays = {}
    for edition, players in XCHECK_CONFIGS:
        res = simulate(
            f"{edition}(players={players})",
            "random",
            games=XCHECK_GAMES,
            seed=XCHECK_SEED,
            execution=Execution(threads=1),
        )
        for k, v in crosskit.engine_arrays(res.rounds, players).items():
            arrays[f"{edition}|{players}|{k}"] = v
    np.savez(out, **arrays)


def start_crosscheck(copy: Path, tmp: Path) -> subprocess.Popen:
    code = (
        f"sys.path.insert(0, {str(TESTS)!r})\nimport test_mutants\n"
        f"test_mutants.engine_sample({str(tmp / 'engine.npz')!r})"
    )
    return _start(_guarded(copy, code), tmp, _env(copy), tmp / "engine.log")


def finish_crosscheck(proc, ref: dict, tmp: Path) -> list[str]:
    """Detectors of the cross-check stage: 'crosscheck[config] stat z=...' for |z| > Z_MAX,
    largest first (all of them, so the caller can show the top few)."""
    rc, log = _finish(proc, tmp / "engine.log", 3600)
    if rc != 0:
        raise RuntimeError(f"engine sample failed:\n{log[-3000:]}")
    data = np.load(tmp / "engine.npz")
    hits = []
    for edition, players in XCHECK_CONFIGS:
        prefix = f"{edition}|{players}|"
        eng = {k[len(prefix) :]: data[k] for k in data.files if k.startswith(prefix)}
        for stat, z in crosskit.zscores(eng, ref[edition, players], players).items():
            if abs(z) > Z_MAX:
                hits.append((abs(z), f"crosscheck[{edition}(players={players})] {stat} z={z:+.1f}"))
    return [h for _, h in sorted(hits, reverse=True)]


@pytest.fixture(scope="module")
def reference_sample():
    return {
        (e, p): crosskit.ref_arrays(e, p, 0, XCHECK_REF_GAMES, XCHECK_REF_SEED)
        for e, p in XCHECK_CONFIGS
    }


# ------------------------------------------------------------------------------- tests


def test_every_mutant_applies():
    """Default tier: every mutant's target text is still in the engine exactly once (a
    refactor that moves it makes the mutant fail here, by name), and there are >= 6."""
    assert len(MUTANTS) >= 6
    assert len({m.name for m in MUTANTS}) == len(MUTANTS)
    for m in MUTANTS:
        assert m.path.startswith("engine/") and m.old != m.new
        assert mutant_source(m) != (PACKAGE / m.path).read_text()


def _report(capsys, request, line):
    """Show the mutant's line on the terminal even without -s, and keep it in the junit
    report's properties."""
    request.node.user_properties.append(("detectors", line))
    with capsys.disabled():
        print("\n" + line, flush=True)


@pytest.mark.slow
@pytest.mark.expensive
@pytest.mark.parametrize(
    "mutant", (None,) + MUTANTS, ids=["mutant0_unmutated"] + [m.name for m in MUTANTS]
)
def test_mutant_is_caught(mutant, reference_sample, tmp_path, request, capsys):
    copy = build_copy(tmp_path / "copy", mutant)
    # the two stages are independent single-threaded processes: run them side by side
    rules = start_rules_tests(copy, tmp_path)
    xcheck = start_crosscheck(copy, tmp_path)
    try:
        rc, failed, tail = finish_rules_tests(rules, tmp_path)
        xhits = finish_crosscheck(xcheck, reference_sample, tmp_path)
    finally:
        for proc in (rules, xcheck):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert rc in (0, 1), f"rules tests did not run (exit {rc}):\n{tail}"
    assert (rc == 1) == bool(failed), tail
    name = "mutant0_unmutated" if mutant is None else mutant.name
    own = [f for f in failed if f.split(" ", 1)[1].startswith(SELF_COMPARISON)]
    counted = [f for f in failed if f not in own]
    detectors = [f.split(" ", 1)[1] for f in counted] + xhits
    shown = (
        "; ".join(f[len("FAILED ") :] if f.startswith("FAILED ") else f for f in counted[:4]) or "-"
    )
    more = f" (+{len(counted) - 4} more)" if len(counted) > 4 else ""
    xshown = "; ".join(xhits[:3]) or "-"
    xmore = f" (+{len(xhits) - 3} more)" if len(xhits) > 3 else ""
    _report(
        capsys,
        request,
        f"MUTANT {name}: rules tests failed {len(counted)}: {shown}{more}"
        f" (golden-vs-itself, not counted: {len(own)}) | "
        f"cross-check |z|>{Z_MAX:g}: {len(xhits)}: {xshown}{xmore}",
    )
    table = request.config.getoption("--mutant-table")
    if table:
        _table_row(
            Path(table),
            name,
            "-" if mutant is None else mutant.what,
            counted,
            own,
            xhits,
            caught="no (as it must)"
            if mutant is None and not detectors
            else "yes"
            if detectors
            else "NO",
        )
    if mutant is None:
        assert not detectors and not own, (
            f"the unmutated copy must pass both stages: {detectors + own}"
        )
    else:
        assert detectors, f"mutant {mutant.name} ({mutant.what}) was NOT caught"


def _table_row(path: Path, name, what, counted, own, xhits, caught):
    """Append the mutant's row to the Markdown table at path (the header first)."""
    files = sorted({f.split(" ", 1)[1].split("::")[0] for f in counted})
    if not path.exists() or not path.read_text().strip():
        path.write_text(
            "| mutant | the wrong rule | caught | rules tests failing (by file) | "
            "golden-vs-itself failing (not counted) | cross-check statistics with "
            f"\\|z\\| > {Z_MAX:g} (largest) |\n|---|---|---|---|---|---|\n"
        )
    by_file = (
        ", ".join(
            f"{f} ({sum(1 for c in counted if c.split(' ', 1)[1].startswith(f))})" for f in files
        )
        or "-"
    )
    x = "; ".join(
        h.split("] ", 1)[0].split("[", 1)[1] + " " + h.split("] ", 1)[1] for h in xhits[:2]
    ) + (f" (+{len(xhits) - 2} more)" if len(xhits) > 2 else "")
    with path.open("a") as f:
        f.write(f"| {name} | {what} | {caught} | {by_file} | {len(own)} | {x or '-'} |\n")
