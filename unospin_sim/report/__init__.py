"""The balance report: written findings, charts and tables from one or more results
directories.

    python -m unospin_sim report                       # the newest directory under results/
    python -m unospin_sim report results/a results/b   # several runs side by side
    python -m unospin_sim report DIR --out reports/mine

Writes ``report.md`` and a self-contained ``report.html`` (the charts embedded), both opening
with its answers (one headline per question: round length, seat, wheel, race, skill, 2005
against 2025) and the findings, generated from the numbers (never typed by hand), then every
table with its
95% intervals and every figure with the command that reproduces it; PNG charts and the
tables as CSV beside them. A *round* is one deal played out; a *match* is a race of rounds
to the target score.
"""

from __future__ import annotations

import datetime as _dt
import shlex
from pathlib import Path

from ..errors import UserError
from .balance import balance_section, runs_section, seats_section
from .compare import editions_section, side_by_side_section, verdict_section
from .context import Context, bots_label, headline
from .doc import Doc, format_p, ratio_interval
from .luck import drama_section
from .profile import load_profiles, load_worths, profile_section, split_skill_inputs, worth_section
from .race import race_section
from .render import rerender
from .skill import load_skill_dirs, skill_section
from .wheel import wheel_section

__all__ = ["build_report", "format_p", "ratio_interval"]


def build_report(
    dirs,
    out=None,
    target: int = 500,
    log=None,
    wheel_games: int = 3000,
    threads: int | None = None,
    skill_dirs=(),
    drama_games: int | None = None,
) -> Path:
    """Write the balance report for the results directories ``dirs`` into ``out``.

    Parameters
    ----------
    dirs : sequence of path-like
        Results directories written by ``run`` / :func:`unospin_sim.simulate`.
    out : path-like, optional
        Report directory (default ``reports/report-<timestamp>``); created if needed.
    target : int
        Points of the match analysis (race to ``target``).
    log : callable, optional
        Called with a short progress message before each step (the CLI prints them).
    wheel_games : int
        Rounds (of each run with a wheel, same rules, bots and seed) whose spins are
        replayed for the absolute space effects (``unospin_sim.run.replay_spins``);
        0 leaves that section out.
    threads : int, optional
        Threads for the replays (default every core).
    skill_dirs : sequence of path-like
        What measured skill, each told by its content: tournament directories (``python -m
        unospin_sim tournament --out DIR``: a section compares their best strategies
        against random fields), skill profile directories (``skill --out DIR``, holding
        ``skill.json``: each variant's skill depth, rating spread and traces) and worth
        tables (``worth --out FILE.csv``: what each skill is worth, pooled over the seeds).
    drama_games : int, optional
        Rounds of each run (its first) replayed for its drama (``run.drama``): how often the
        winner came from behind, and the lead changes (default ``wheel_games``); 0 leaves
        that section out.

    Returns
    -------
    pathlib.Path
        The written ``report.md`` (``report.html`` beside it).
    """
    import matplotlib

    matplotlib.use("Agg")

    if not dirs:
        raise UserError("no results directory given")
    log = log or (lambda message: None)
    # every input read and checked before writing
    tournaments, profile_dirs, worth_files = split_skill_inputs(skill_dirs)
    skills = load_skill_dirs(tournaments)
    profiles = load_profiles(profile_dirs)
    worths = load_worths(worth_files)
    runs, played = _read_runs(dirs, log)
    if out is None:
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        out = Path("reports") / f"report-{stamp}"
    out = claim_report_dir(out)
    earlier = {f: f.stat().st_mtime_ns for f in _own_files(out)}  # an earlier report's
    cmd = " ".join(
        [
            "python -m unospin_sim report",
            *(shlex.quote(str(v[3])) for v in runs.values()),
            "--out",
            shlex.quote(str(out)),
            *(["--target", str(target)] if target != 500 else []),
            *(["--wheel-games", str(wheel_games)] if wheel_games != 3000 else []),
            *(["--threads", str(threads)] if threads is not None else []),
            *(["--skill", *(shlex.quote(str(d)) for d in skill_dirs)] if skill_dirs else []),
            *(["--drama-games", str(drama_games)] if drama_games is not None else []),
        ]
    )

    ctx = Context(
        runs=runs,
        played=played,
        out=out,
        cmd=cmd,
        target=target,
        log=log,
        wheel_games=wheel_games,
        threads=threads,
        body=Doc(out),
    )
    for section in (
        runs_section,
        balance_section,
        verdict_section,
        side_by_side_section,
        editions_section,
        seats_section,
        wheel_section,
        race_section,
    ):
        section(ctx)
    drama_section(ctx, wheel_games if drama_games is None else drama_games)
    if tournaments:  # the best strategy against random fields, per tournament
        skill_section(ctx.body, ctx.findings, tournaments, skills, out, cmd, answer=ctx.answer)
    profile_section(ctx, profiles)
    worth_section(ctx, worths)
    path = _write(ctx)
    for f, mtime in earlier.items():  # an earlier report's charts and tables not made again
        if f.exists() and f.stat().st_mtime_ns == mtime:
            f.unlink()
    return path


def _read_runs(dirs, log) -> tuple[dict, dict]:
    """Every results directory read: label -> ``(rounds, spins, meta, directory)``, and label
    -> its match table (matches played in the engine) or None."""
    from ..results import load_results, run_label

    runs: dict = {}
    played: dict = {}
    for d in dirs:
        res = load_results(d)
        rounds, spins, meta = res.rounds, res.spins, res.meta
        log(f"read {d}: {len(rounds):,} rounds")  # after loading: an error stays one line
        # its label (run --label) when it has one, else its rule string and bots
        label = run_label(meta, f"{meta['rules']} {bots_label(meta)}".strip())
        if label in runs:  # the same name again: told apart by the seed
            label += f" seed {meta.get('seed')}"
        while label in runs:
            label += "'"
        runs[label] = (rounds, spins, meta, Path(d))
        played[label] = res.matches  # matches played in the engine (match mode), else None
    return runs, played


def _own_files(out: Path) -> list[Path]:
    """The files of a report in ``out``: report.md/.html, charts, tables/*.csv."""
    return [
        *(
            f
            for f in out.iterdir()
            if f.is_file()
            and not f.name.startswith(".")
            and (f.suffix == ".png" or f.name in ("report.md", "report.html"))
        ),
        *(out / "tables").glob("*.csv"),
    ]


def claim_report_dir(out) -> Path:
    """Create the report directory ``out`` if needed and check, before anything is written,
    that it holds nothing but an earlier report (which the new one replaces): one-line
    :class:`UserError` for a file, or a directory holding a run's, a tournament's or a
    design study's results, or any other file a report does not write."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a directory")
    if out.is_dir():
        own = {f.name for f in _own_files(out)} | {"tables"}
        tables = out / "tables"
        other = sorted(
            p.name for p in out.iterdir() if not p.name.startswith(".") and p.name not in own
        )
        other += sorted(
            f"tables/{p.name}"
            for p in (tables.iterdir() if tables.is_dir() else ())
            if p.suffix != ".csv"
        )
        if other:
            raise UserError(
                f"--out {out} holds files a report does not write ({other[0]}: "
                f"a run's, tournament's or study's results?); choose another "
                f"directory for the report"
            )
    try:
        (out / "tables").mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot create report directory {out}: {e.strerror or e}") from None
    return out


def _write(ctx: Context) -> Path:
    """The report: title, findings first, then every section; ``report.md`` and
    ``report.html``."""
    doc = Doc(ctx.out)
    doc.h(1, "unospin_sim balance report")
    doc.p(
        f"Generated {_dt.datetime.now().isoformat(timespec='seconds')} by `{ctx.cmd}`. A "
        "round is one deal played out; a match is a race of rounds to "
        f"{ctx.target} points. Every interval is 95%."
    )
    if any(
        v[2].get("edition") == "spin2025" or str(v[2].get("rules", "")).startswith("spin2025")
        for v in ctx.runs.values()
    ):
        doc.p(
            "Caution: the 2025 wheel layout (eight equal spaces) is an assumption "
            "(docs/RULINGS.md: the physical layout was not found); every 2025 figure "
            "depends on it."
        )
    doc.h(2, "Answers")
    doc.p(
        "One line per question: the largest effect whose 95% interval excludes no effect "
        "(the details are under Findings and in each section)."
    )
    doc.ul(headline(ctx.answers))
    doc.h(2, "Findings")
    doc.ul(ctx.findings or ["No finding: too few rounds."])
    doc.blocks += ctx.body.blocks
    path = ctx.out / "report.md"
    path.write_text(doc.markdown())  # the HTML is rendered from this Markdown (rerender)
    rerender(ctx.out)
    return path
