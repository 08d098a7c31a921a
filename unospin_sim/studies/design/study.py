"""A design study: search the rules for the goals with optuna, play the promising designs
longer, confirm the best on fresh seeds, check them with a stronger field, write the answer.

The rooms: :mod:`.spec` (the arguments and the study's files), :mod:`.screen` (the optuna
trials), :mod:`.stages` (refine, confirm, robustness, the answer); this module runs them.

Files of a study directory ``DIR``:

- ``design.json``: the study's arguments (``design --resume DIR`` reads them back);
- ``study.db``: the optuna study (SQLite): finished trials survive a kill, several worker
  processes share it (``--workers``); with a Dask cluster (``--dask``) this process holds it
  and the cluster's workers play the trials;
- ``evaluations.jsonl``: every measurement (design, games, seed, field, metrics), so a
  resumed study never plays a measurement twice;
- ``designs.csv``, ``best.json``, ``pareto.png``, ``summary.md``: the answer;
- ``timings.json``: wall seconds of the screening and of the later stages.

Stages (noise is handled by playing more where it matters):

1. **screen**: every trial plays ``games`` (common seed); the first trial is the edition as
   published (its wheel and options; the nearest design ``--tie``/``--segments`` allow
   when they exclude it) and, with ``min:segments_moved``, the designs one segment away
   from it are the next (:func:`.constraints.first_trials`; at most half the trials, a
   sample of them seeded by the study's seed when there are more); then the sampler;
2. **refine**: the screened Pareto designs and the best by the ranking below play
   ``stages[0] * games``, the best three of those ``stages[1] * games`` (same seed);
3. **confirm**: those three play the last stage's size again on a fresh seed; a design is
   *confirmed* when every target and constraint still holds on the fresh seed;
4. **robustness**: the confirmed designs (with ``robust``, every confirmed or not) play
   the fresh seed with a field of the edition's best non-search strategy; the answer says
   whether every goal still holds with that skilled field
   (``holds_with_skilled_field``).

Ranking (the recommended design is the confirmed one ranked first): designs within every
tolerance (distance <= 1) are equal on distance, otherwise the nearer first; then each
``min:``/``max:`` objective in the order given; then the fewest wheel segments moved (summed
over spaces); then the fewest options changed from the edition's defaults. With
``robust`` (``--robust``) the designs holding every goal both on the fresh seed and with
the skilled field rank before all others, so the search's answer is ranked by both fields.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import asdict
from pathlib import Path

from ...errors import UserError
from ...results.outdir import claim_out_dir
from .constraints import first_trials
from .goals import parse_goals
from .screen import screen
from .spec import (
    DESIGN_FILES,
    FRESH_SEED_OFFSET,
    ROBUST_BOT,
    STUDY_FILES,
    DesignSpec,
    atomic_write,
    open_study,
    read_spec,
    say,
)
from .stages import refine_and_confirm, write_answer

__all__ = ["FRESH_SEED_OFFSET", "ROBUST_BOT", "DesignSpec", "resume_design", "run_design"]


def run_design(spec: DesignSpec, out, progress: bool = True, client=None) -> dict:
    """Run a new study into ``out``; returns ``best.json``'s content.

    ``client``: a ``dask.distributed.Client``: every measurement (trials and later stages)
    is a task on its cluster, one per worker thread at a time, while this process holds the
    study in ``out`` (the workers need no shared file system). ``spec.workers`` and
    ``spec.threads`` are then unused.

    Raises :class:`UserError` (one line) for bad arguments or when ``out`` already holds a
    study (resume it with :func:`resume_design`).
    """
    spec.check()
    goals = parse_goals(spec.goals)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a directory")
    if any((out / f).exists() for f in STUDY_FILES):  # before claim_out_dir: say "resume"
        raise UserError(
            f"{out} already holds a design study; resume it with "
            f"design --resume {out}, or choose another --out"
        )
    claim_out_dir(out, DESIGN_FILES, "design", flag="")
    atomic_write(out / "design.json", json.dumps(asdict(spec), indent=2) + "\n")
    study = open_study(out, spec, goals, create=True)
    _, _, knobs = spec.check()
    neighbours = any(g.op == "min" and g.metric == "segments_moved" for g in goals)
    first, *near = first_trials(spec.base, knobs, spec.wheel_plan(knobs), neighbours)
    if len(near) > spec.trials // 2:  # at most half the trials: the sampler gets the rest
        keep = set(random.Random(spec.seed).sample(range(len(near)), spec.trials // 2))
        near = [n for i, n in enumerate(near) if i in keep]
    for params in [first, *near]:
        study.enqueue_trial(params)
    return _finish(out, spec, progress, client)


def resume_design(out, progress: bool = True, client=None) -> dict:
    """Finish the study in ``out`` (killed trials run again, finished ones kept); ``client``
    as in :func:`run_design` (a study may be resumed on a cluster or off it)."""
    out = Path(out)
    spec = read_spec(out)
    spec.check()
    if not (out / "study.db").exists():
        raise UserError(f"{out} has no study.db: the study is corrupt")
    return _finish(out, spec, progress, client)


def _finish(out: Path, spec: DesignSpec, progress: bool, client=None) -> dict:
    _, goals, knobs = spec.check()
    t0 = time.perf_counter()
    screen(out, spec, goals, knobs, progress, client)
    timings = {"screening_seconds": round(time.perf_counter() - t0, 3)}
    df = refine_and_confirm(out, spec, goals, progress, timings, client)
    answer = write_answer(out, spec, goals, df)
    # wall times of this invocation (a resumed study times only what it played)
    atomic_write(out / "timings.json", json.dumps(timings, indent=2) + "\n")
    say(
        progress,
        ", ".join(f"{k.replace('_seconds', '')} {v:.1f} s" for k, v in timings.items())
        + f"; answer in {out}/best.json and {out}/summary.md",
    )
    return answer
