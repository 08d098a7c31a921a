"""Screening: the optuna trials of a study, each design measured at ``--games`` on the
study's seed (common random numbers), in this process, in ``--workers`` processes sharing
``study.db``, or as tasks on a Dask cluster (this process asks and tells).
"""

from __future__ import annotations

from pathlib import Path

from ...errors import RuleError, UserError
from .constraints import propose
from .evaluate import Evaluation, measure
from .goals import distance, fmt_metrics, objectives, unique_metrics
from .space import design_rules
from .spec import DesignSpec, MeasurementStore, open_study, read_spec, say, task_result

__all__ = ["finished_trials", "optimize", "screen"]


def _objective_fn(out: Path, spec: DesignSpec, goals, knobs, progress: bool):
    import optuna

    store = MeasurementStore(out)
    metrics = [g.metric for g in unique_metrics(goals)]
    plan = spec.wheel_plan(knobs)

    def objective(trial):
        values = propose(trial, knobs, plan)
        try:
            rules = design_rules(spec.base, spec.players, values)
        except RuleError as err:
            trial.set_user_attr("refused", str(err))
            say(progress, f"trial {trial.number + 1} of {spec.trials}: refused ({err})")
            raise optuna.TrialPruned() from None
        e = store.get(
            rules, spec.games, spec.seed, spec.bots, metrics, spec.skill_bot, spec.threads
        )
        trial.set_user_attr("rules", str(rules))
        vals = {k: v[0] for k, v in e.metrics.items()}
        d = distance(goals, vals)
        say(
            progress,
            f"trial {trial.number + 1} of {spec.trials}: {rules} | "
            f"{fmt_metrics(goals, e.metrics)} | distance {d:.2f} "
            f"({spec.games_text(spec.games)}, {e.seconds:.1f} s)",
        )
        return objectives(goals, vals)

    return objective


def finished_trials(study) -> int:
    from optuna.trial import TrialState

    return sum(t.state in (TrialState.COMPLETE, TrialState.PRUNED) for t in study.trials)


def _screen_worker(out: str, trials: int, worker: int, progress: bool) -> None:
    """Worker process of ``--workers K``: run trials of the shared study until the study
    holds ``trials`` finished ones."""
    spec = read_spec(Path(out))
    _, goals, knobs = spec.check()
    optimize(Path(out), spec, goals, knobs, trials, progress=progress, worker=worker)


def optimize(out: Path, spec, goals, knobs, trials: int, progress: bool, worker: int = 0) -> None:
    from optuna.study import MaxTrialsCallback
    from optuna.trial import TrialState

    study = open_study(out, spec, goals, create=False, worker=worker)
    left = trials - finished_trials(study)
    if left <= 0:
        return
    study.optimize(
        _objective_fn(out, spec, goals, knobs, progress),
        n_trials=left,
        callbacks=[MaxTrialsCallback(trials, states=(TrialState.COMPLETE, TrialState.PRUNED))],
    )


def _optimize_dask(
    out: Path, spec: DesignSpec, goals, knobs, trials: int, client, progress: bool
) -> None:
    """Screening on a Dask cluster: this process holds the study (ask and tell) and keeps
    one trial per worker thread on the cluster; each trial's measurement lands in the
    store as it finishes. Designs differ from a ``--workers 1`` study of the same seed
    (the sampler proposes while trials are pending), measurements do not."""
    from dask.distributed import wait
    from optuna.trial import TrialState

    study = open_study(out, spec, goals, create=False)
    store = MeasurementStore(out)
    metrics = [g.metric for g in unique_metrics(goals)]
    slots = max(1, sum(client.nthreads().values()))
    plan = spec.wheel_plan(knobs)
    pending: dict = {}  # future -> [(trial, rules), ...]: trials proposing one design share it
    by_key: dict = {}  # measurement key -> its future
    while pending or finished_trials(study) + _count(pending) < trials:
        while len(pending) < slots and finished_trials(study) + _count(pending) < trials:
            trial = study.ask()
            try:
                rules = design_rules(spec.base, spec.players, propose(trial, knobs, plan))
            except RuleError as err:
                trial.set_user_attr("refused", str(err))
                study.tell(trial, state=TrialState.PRUNED)
                say(progress, f"trial {trial.number + 1} of {spec.trials}: refused ({err})")
                continue
            trial.set_user_attr("rules", str(rules))
            hit = store.lookup(rules, spec.games, spec.seed, spec.bots, metrics, spec.skill_bot)
            if hit is not None:
                _tell(study, trial, rules, hit, spec, goals, progress)
                continue
            key = MeasurementStore.key(rules, spec.games, spec.seed, spec.bots)
            if key in by_key:
                pending[by_key[key]].append((trial, rules))
                continue
            f = client.submit(
                measure,
                rules,
                metrics,
                spec.games,
                spec.seed,
                key[3],
                spec.skill_bot,
                1,
                pure=False,
            )
            pending[f], by_key[key] = [(trial, rules)], f
        if not pending:
            continue
        done, _ = wait(list(pending), return_when="FIRST_COMPLETED")
        for f in done:
            e = task_result(f)
            store.add(e)
            del by_key[(e.rules, e.games, e.seed, e.bots)]
            for trial, rules in pending.pop(f):
                _tell(study, trial, rules, e, spec, goals, progress)


def _count(pending: dict) -> int:
    return sum(len(v) for v in pending.values())


def _tell(study, trial, rules, e: Evaluation, spec: DesignSpec, goals, progress: bool) -> None:
    vals = {k: v[0] for k, v in e.metrics.items()}
    say(
        progress,
        f"trial {trial.number + 1} of {spec.trials}: {rules} | "
        f"{fmt_metrics(goals, e.metrics)} | distance {distance(goals, vals):.2f} "
        f"({spec.games_text(spec.games)}, {e.seconds:.1f} s)",
    )
    study.tell(trial, objectives(goals, vals))


def screen(out: Path, spec: DesignSpec, goals, knobs, progress: bool, client=None) -> None:
    from optuna.trial import TrialState

    study = open_study(out, spec, goals, create=False)
    for t in study.trials:  # a trial killed while running is failed and run again
        if t.state == TrialState.RUNNING:
            study.tell(t.number, state=TrialState.FAIL)
            study.enqueue_trial(t.params)
    if client is not None:
        _optimize_dask(out, spec, goals, knobs, spec.trials, client, progress)
        return
    if spec.workers == 1:
        optimize(out, spec, goals, knobs, spec.trials, progress)
        return
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    procs = [
        ctx.Process(target=_screen_worker, args=(str(out), spec.trials, i, progress))
        for i in range(spec.workers)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    if any(p.exitcode for p in procs):
        raise UserError(
            f"a design worker process failed (exit codes "
            f"{[p.exitcode for p in procs]}); resume with design --resume {out}"
        )
