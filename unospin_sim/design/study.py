"""A design study: search the rules for the goals with optuna, play the promising designs
longer, confirm the best on fresh seeds, check them with a stronger field, write the answer.

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

1. **screen**: every trial plays ``games`` (common seed);
2. **refine**: the screened Pareto designs and the best by the ranking below play
   ``stages[0] * games``, the best three of those ``stages[1] * games`` (same seed);
3. **confirm**: those three play the last stage's size again on a fresh seed; a design is
   *confirmed* when every target and constraint still holds on the fresh seed;
4. **robustness**: the confirmed designs play the fresh seed with a field of the edition's
   best non-search strategy; the summary says whether each goal still holds.

Ranking (the recommended design is the confirmed one ranked first): designs within every
tolerance (distance <= 1) are equal on distance, otherwise the nearer first; then each
``min:``/``max:`` objective in the order given; then the fewest wheel segments moved (summed
over spaces); then the fewest options changed from the edition's defaults.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import RuleError, UserError
from ..rules import RuleSet, parse_rules
from .evaluate import Evaluation, measure
from .goals import METRICS, Goal, distance, parse_goals
from .space import check_goals_movable, design_rules, options_changed, parse_vary, \
    segments_moved, suggest

__all__ = ["DesignSpec", "run_design", "resume_design", "ROBUST_BOT", "FRESH_SEED_OFFSET"]

#: the best non-search strategy of each edition in the committed tournament
#: (reports/editions-4p-random, skill section): the robustness check's field
ROBUST_BOT = {"classic": "heuristic", "spiderman": "aggressor", "spin2005": "spin_aware",
              "spin2025": "spin_aware"}
#: the confirmation seed is the study's seed plus this (mod 2**63): streams disjoint from it
FRESH_SEED_OFFSET = 1_000_003
#: designs refined at the first and later stages
REFINE_FIRST, REFINE_LATER = 8, 3
_SEED_MOD = 2**63
_FILES = ("design.json", "study.db", "evaluations.jsonl")


@dataclass
class DesignSpec:
    """The arguments of a study (saved as ``design.json``)."""

    edition: str
    players: int
    goals: list[str]
    vary: list[str]
    trials: int = 40
    games: int = 10_000
    seed: int = 0
    bots: str = "random"
    stages: list[int] = field(default_factory=lambda: [10, 100])
    workers: int = 1
    threads: int = 0
    skill_bot: str = ""

    def check(self):
        """Validate; return ``(base rules, goals, knobs)``; one-line errors."""
        from ..bots import parse_bots
        base = RuleSet.build(self.edition, players=self.players)
        parse_bots(self.bots, base.players)
        if not self.skill_bot:
            self.skill_bot = ROBUST_BOT[base.edition]
        parse_bots(self.skill_bot, 1)
        goals = parse_goals(self.goals)
        if all(METRICS[g.metric].kind == "design" for g in goals):
            raise UserError("every goal is a property of the rules alone (segments_moved, "
                            "options_changed): add a goal measured by play")
        knobs = parse_vary(self.vary, base.edition)
        check_goals_movable(goals, knobs, base.edition)
        for name, v, lo in (("trials", self.trials, 1), ("games", self.games, 100),
                            ("workers", self.workers, 1), ("seed", self.seed, 0)):
            if not isinstance(v, int) or v < lo:
                raise UserError(f"--{name} must be a whole number >= {lo}, got {v!r}")
        if not self.stages or any(not isinstance(s, int) or s < 1 for s in self.stages):
            raise UserError(f"--stages must be whole multipliers >= 1, got {self.stages!r}")
        if not self.threads:
            from ..run import default_threads
            self.threads = max(1, default_threads() // self.workers)
        return base, goals, knobs

    @property
    def unit(self) -> str:
        """What ``games`` counts: ``rounds``, ``matches`` (only match metrics) or ``rounds
        and matches`` (both kinds: ``games`` of each)."""
        kinds = {"matches" if METRICS[g.metric].kind == "matches" else "rounds"
                 for g in parse_goals(self.goals) if METRICS[g.metric].kind != "design"}
        return " and ".join(k for k in ("rounds", "matches") if k in kinds)

    def games_text(self, n: int) -> str:
        """``n`` games in words: ``10,000 rounds`` or ``10,000 rounds and 10,000 matches``."""
        return " and ".join(f"{n:,} {u}" for u in self.unit.split(" and "))


# ------------------------------------------------------------------------------------------
# the study directory


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


class _Store:
    """The measurements of a study directory, appended one JSON line each."""

    def __init__(self, out: Path):
        self.path = out / "evaluations.jsonl"
        self.done: dict[tuple, Evaluation] = {}
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):  # a line cut by a kill: measured again
            data = data[:data.rfind(b"\n") + 1]
            with open(self.path, "r+b") as f:
                f.truncate(len(data))
        for i, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            if not line.strip():
                continue
            try:
                e = Evaluation.from_dict(json.loads(line))
            except (ValueError, KeyError, TypeError, AttributeError):
                raise UserError(f"{self.path}: line {i} is not a measurement; the study "
                                f"directory is corrupt") from None
            self.done[(e.rules, e.games, e.seed, e.bots)] = e

    @staticmethod
    def key(rules, games, seed, bots) -> tuple:
        from ..bots import bots_string, parse_bots
        return (str(rules), games, seed, bots_string(parse_bots(bots, rules.players)))

    def lookup(self, rules, games, seed, bots, metrics) -> Evaluation | None:
        """The stored measurement holding every one of ``metrics``, or None."""
        hit = self.done.get(self.key(rules, games, seed, bots))
        if hit is not None and all(m in hit.metrics for m in metrics):
            return hit
        return None

    def add(self, e: Evaluation) -> None:
        with open(self.path, "a") as f:
            f.write(json.dumps(e.to_dict()) + "\n")
        self.done[(e.rules, e.games, e.seed, e.bots)] = e

    def get(self, rules, games, seed, bots, metrics, skill_bot, threads) -> Evaluation:
        hit = self.lookup(rules, games, seed, bots, metrics)
        if hit is not None:
            return hit
        e = measure(rules, metrics, games, seed, self.key(rules, games, seed, bots)[3],
                    skill_bot, threads)
        self.add(e)
        return e

    def prefetch(self, jobs, client, skill_bot: str, progress: bool) -> None:
        """Measure on the Dask cluster ``client`` every ``(rules, games, seed, bots,
        metrics)`` of ``jobs`` not stored yet, all at once (one task each, a thread each);
        each lands in the store as it finishes, so the stage code that follows finds it.
        Without a client, nothing: the stage measures one design after another."""
        if client is None:
            return
        from dask.distributed import as_completed
        futures = {}
        for rules, games, seed, bots, metrics in jobs:
            key = self.key(rules, games, seed, bots)
            if key in {k for k, _ in futures.values()} or \
                    self.lookup(rules, games, seed, bots, metrics) is not None:
                continue
            f = client.submit(measure, rules, list(metrics), games, seed, key[3], skill_bot,
                              1, pure=False)
            futures[f] = (key, metrics)
        for f in as_completed(list(futures)):
            self.add(_task_result(f))


def _open_study(out: Path, spec: DesignSpec, goals: list[Goal], create: bool, worker: int = 0):
    """The study; its sampler is seeded from the study's seed, the number of trials it
    already holds and the worker's index, so that a resumed study or a second worker does
    not propose the first trials' designs again (one uninterrupted ``--workers 1`` study
    still gives the same designs for the same seed)."""
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = f"sqlite:///{out / 'study.db'}"
    sampler = optuna.samplers.TPESampler(seed=spec.seed % 2**32)
    if not create:
        try:
            done = len(optuna.load_study(storage=storage, study_name="design",
                                         sampler=sampler).trials)
        except Exception:  # noqa: BLE001 - reported below, with the file named
            done = 0
        sampler = optuna.samplers.TPESampler(
            seed=(spec.seed + 1_000_003 * done + 7_919 * worker) % 2**32)
    try:
        if create:
            return optuna.create_study(storage=storage, study_name="design", sampler=sampler,
                                       directions=_directions(goals))
        return optuna.load_study(storage=storage, study_name="design", sampler=sampler)
    except Exception as e:  # noqa: BLE001 - sqlite/optuna raise many kinds: one line
        raise UserError(f"{out / 'study.db'}: cannot open the study "
                        f"({type(e).__name__}: {' '.join(str(e).split())[:160]})") from None


def _directions(goals: list[Goal]) -> list[str]:
    targets = [g for g in goals if not g.is_objective]
    dirs = ["minimize"] * len(targets)
    dirs += ["minimize" if g.op == "min" else "maximize" for g in goals if g.is_objective]
    return dirs


def _objectives(goals: list[Goal], values: dict) -> list[float]:
    """The study's objective vector: each target's or constraint's miss, then each
    objective's value."""
    out = [min(g.miss(values[g.metric]), 1e9) for g in goals if not g.is_objective]
    for g in goals:
        if g.is_objective:
            v = values[g.metric]
            out.append(v if v == v else (1e9 if g.op == "min" else -1e9))
    return out


def _rank_key(goals: list[Goal], values: dict, rules: RuleSet) -> tuple:
    d = distance(goals, values)
    key = [0.0 if d <= 1.0 else d]
    for g in goals:
        if g.is_objective:
            v = values[g.metric]
            v = v if v == v else math.inf * (1 if g.op == "min" else -1)
            key.append(v if g.op == "min" else -v)
    return (*key, segments_moved(rules), options_changed(rules))


def _say(progress: bool, text: str) -> None:
    if progress:
        print(text, file=sys.stderr, flush=True)


def _fmt_metrics(goals: list[Goal], m: dict) -> str:
    return "; ".join(f"{g.metric} {m[g.metric][0]:.3g} [{m[g.metric][1]:.3g}, "
                     f"{m[g.metric][2]:.3g}]" for g in _unique_metrics(goals))


def _unique_metrics(goals):
    seen, out = set(), []
    for g in goals:
        if g.metric not in seen:
            seen.add(g.metric)
            out.append(g)
    return out


# ------------------------------------------------------------------------------------------
# screening: the optuna trials


def _objective_fn(out: Path, spec: DesignSpec, goals, knobs, progress: bool):
    import optuna
    store = _Store(out)
    metrics = [g.metric for g in _unique_metrics(goals)]

    def objective(trial):
        values = suggest(trial, knobs)
        try:
            rules = design_rules(spec.edition, spec.players, values)
        except RuleError as e:
            trial.set_user_attr("refused", str(e))
            _say(progress, f"trial {trial.number + 1} of {spec.trials}: refused ({e})")
            raise optuna.TrialPruned() from None
        e = store.get(rules, spec.games, spec.seed, spec.bots, metrics, spec.skill_bot,
                      spec.threads)
        trial.set_user_attr("rules", str(rules))
        vals = {k: v[0] for k, v in e.metrics.items()}
        d = distance(goals, vals)
        _say(progress, f"trial {trial.number + 1} of {spec.trials}: {rules} | "
                       f"{_fmt_metrics(goals, e.metrics)} | distance {d:.2f} "
                       f"({spec.games_text(spec.games)}, {e.seconds:.1f} s)")
        return _objectives(goals, vals)

    return objective


def _finished(study) -> int:
    from optuna.trial import TrialState
    return sum(t.state in (TrialState.COMPLETE, TrialState.PRUNED) for t in study.trials)


def _screen_worker(out: str, trials: int, worker: int, progress: bool) -> None:
    """Worker process of ``--workers K``: run trials of the shared study until the study
    holds ``trials`` finished ones."""
    spec = _read_spec(Path(out))
    _, goals, knobs = spec.check()
    _optimize(Path(out), spec, goals, knobs, trials, progress=progress, worker=worker)


def _optimize(out: Path, spec, goals, knobs, trials: int, progress: bool,
              worker: int = 0) -> None:
    from optuna.study import MaxTrialsCallback
    from optuna.trial import TrialState
    study = _open_study(out, spec, goals, create=False, worker=worker)
    left = trials - _finished(study)
    if left <= 0:
        return
    study.optimize(_objective_fn(out, spec, goals, knobs, progress), n_trials=left,
                   callbacks=[MaxTrialsCallback(trials, states=(TrialState.COMPLETE,
                                                                TrialState.PRUNED))])


def _task_result(future):
    """A Dask task's result; a failed task raises one line."""
    try:
        return future.result()
    except (RuleError, UserError):
        raise
    except Exception as e:  # noqa: BLE001 - a worker's failure of any kind: one line
        raise UserError(f"a Dask task failed ({type(e).__name__}: "
                        f"{' '.join(str(e).split())[:160]})") from None


def _optimize_dask(out: Path, spec: DesignSpec, goals, knobs, trials: int, client,
                   progress: bool) -> None:
    """Screening on a Dask cluster: this process holds the study (ask and tell) and keeps
    one trial per worker thread on the cluster; each trial's measurement lands in the
    store as it finishes. Designs differ from a ``--workers 1`` study of the same seed
    (the sampler proposes while trials are pending), measurements do not."""
    from dask.distributed import wait
    from optuna.trial import TrialState
    study = _open_study(out, spec, goals, create=False)
    store = _Store(out)
    metrics = [g.metric for g in _unique_metrics(goals)]
    slots = max(1, sum(client.nthreads().values()))
    pending: dict = {}  # future -> [(trial, rules), ...]: trials proposing one design share it
    by_key: dict = {}  # measurement key -> its future
    while pending or _finished(study) + _count(pending) < trials:
        while len(pending) < slots and _finished(study) + _count(pending) < trials:
            trial = study.ask()
            try:
                rules = design_rules(spec.edition, spec.players, suggest(trial, knobs))
            except RuleError as e:
                trial.set_user_attr("refused", str(e))
                study.tell(trial, state=TrialState.PRUNED)
                _say(progress, f"trial {trial.number + 1} of {spec.trials}: refused ({e})")
                continue
            trial.set_user_attr("rules", str(rules))
            hit = store.lookup(rules, spec.games, spec.seed, spec.bots, metrics)
            if hit is not None:
                _tell(study, trial, rules, hit, spec, goals, progress)
                continue
            key = _Store.key(rules, spec.games, spec.seed, spec.bots)
            if key in by_key:
                pending[by_key[key]].append((trial, rules))
                continue
            f = client.submit(measure, rules, metrics, spec.games, spec.seed, key[3],
                              spec.skill_bot, 1, pure=False)
            pending[f], by_key[key] = [(trial, rules)], f
        if not pending:
            continue
        done, _ = wait(list(pending), return_when="FIRST_COMPLETED")
        for f in done:
            e = _task_result(f)
            store.add(e)
            del by_key[(e.rules, e.games, e.seed, e.bots)]
            for trial, rules in pending.pop(f):
                _tell(study, trial, rules, e, spec, goals, progress)


def _count(pending: dict) -> int:
    return sum(len(v) for v in pending.values())


def _tell(study, trial, rules, e: Evaluation, spec: DesignSpec, goals, progress: bool) -> None:
    vals = {k: v[0] for k, v in e.metrics.items()}
    _say(progress, f"trial {trial.number + 1} of {spec.trials}: {rules} | "
                   f"{_fmt_metrics(goals, e.metrics)} | distance {distance(goals, vals):.2f} "
                   f"({spec.games_text(spec.games)}, {e.seconds:.1f} s)")
    study.tell(trial, _objectives(goals, vals))


def _screen(out: Path, spec: DesignSpec, goals, knobs, progress: bool, client=None) -> None:
    from optuna.trial import TrialState
    study = _open_study(out, spec, goals, create=False)
    for t in study.trials:  # a trial killed while running is failed and run again
        if t.state == TrialState.RUNNING:
            study.tell(t.number, state=TrialState.FAIL)
            study.enqueue_trial(t.params)
    if client is not None:
        _optimize_dask(out, spec, goals, knobs, spec.trials, client, progress)
        return
    if spec.workers == 1:
        _optimize(out, spec, goals, knobs, spec.trials, progress)
        return
    import multiprocessing as mp
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_screen_worker, args=(str(out), spec.trials, i, progress))
             for i in range(spec.workers)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    if any(p.exitcode for p in procs):
        raise UserError(f"a design worker process failed (exit codes "
                        f"{[p.exitcode for p in procs]}); resume with design --resume {out}")


# ------------------------------------------------------------------------------------------
# refine, confirm, robustness, the answer


def _pareto(points: np.ndarray, dirs: list[str]) -> np.ndarray:
    """Non-dominated rows of ``points`` (every column turned to 'smaller is better')."""
    x = points * np.array([1.0 if d == "minimize" else -1.0 for d in dirs])
    n = len(x)
    keep = np.ones(n, bool)
    for i in range(n):
        dominated = np.all(x <= x[i], axis=1) & np.any(x < x[i], axis=1)
        keep[i] = not dominated.any()
    return keep


def _refine_and_confirm(out: Path, spec: DesignSpec, goals, progress: bool,
                        timings: dict, client=None) -> pd.DataFrame:
    from optuna.trial import TrialState
    study = _open_study(out, spec, goals, create=False)
    store = _Store(out)
    metrics = [g.metric for g in _unique_metrics(goals)]
    designs: dict[str, int] = {}  # rules -> first trial that proposed it
    for t in study.trials:
        if t.state == TrialState.COMPLETE and t.user_attrs.get("rules") not in designs:
            designs[t.user_attrs["rules"]] = t.number
    if not designs:
        raise UserError("no trial finished with a design the rules allow: widen --vary")
    rows = []

    def record(stage, rules_text, e, trial):
        vals = {k: v[0] for k, v in e.metrics.items()}
        rules = parse_rules(rules_text)
        row = {"trial": trial, "stage": stage, "games": e.games, "unit": spec.unit,
               "seed": e.seed, "bots": e.bots, "rules": rules_text,
               "segments_moved": segments_moved(rules), "options_changed": options_changed(rules)}
        for m in metrics:
            row[m], row[f"{m}_low"], row[f"{m}_high"] = e.metrics[m]
        row["distance"] = distance(goals, vals)
        row["holds"] = all(g.holds(vals[g.metric]) for g in goals)
        rows.append(row)
        return vals

    def play(stage, rules_text, games, seed, bots=spec.bots):
        e = store.get(parse_rules(rules_text), games, seed, bots, metrics, spec.skill_bot,
                      spec.threads)
        if stage != "screen":
            _say(progress, f"{stage}: {rules_text} | {_fmt_metrics(goals, e.metrics)} "
                           f"({spec.games_text(games)}, seed {seed}, {e.seconds:.1f} s)")
        return record(stage, rules_text, e, designs[rules_text])

    def prefetch(rules_texts, games, seed, bots=spec.bots, ms=metrics):
        store.prefetch([(parse_rules(r), games, seed, bots, ms) for r in rules_texts],
                       client, spec.skill_bot, progress)

    prefetch(designs, spec.games, spec.seed)
    screened = {r: play("screen", r, spec.games, spec.seed) for r in designs}
    dirs = _directions(goals)
    pts = np.array([_objectives(goals, v) for v in screened.values()], float)
    front = dict(zip(screened, _pareto(pts, dirs)))
    # screening is the noisiest stage: its candidates are ranked by the unbucketed distance
    # (a design whose noisy figure fell just inside a tolerance is not "tied" with one at
    # the goal); later stages rank as the final pick does
    ranked = sorted(screened, key=lambda r: (distance(goals, screened[r]),
                                             *_rank_key(goals, screened[r], parse_rules(r))))
    pool = list(dict.fromkeys([r for r in ranked if front[r]][:REFINE_FIRST]
                              + ranked[:REFINE_FIRST]))[:REFINE_FIRST]
    seed = spec.seed
    t0 = time.perf_counter()
    for i, mult in enumerate(spec.stages):
        games = spec.games * mult
        prefetch(pool, games, seed)
        res = {r: play(f"refine x{mult}", r, games, seed) for r in pool}
        pool = sorted(res, key=lambda r: _rank_key(goals, res[r], parse_rules(r)))
        pool = pool[:REFINE_LATER]
    fresh = (spec.seed + FRESH_SEED_OFFSET) % _SEED_MOD
    games = spec.games * spec.stages[-1]
    t1 = time.perf_counter()
    # the edition as published, on the same fresh seed: the figures a design is compared with
    base = str(design_rules(spec.edition, spec.players, {}))
    prefetch(list(pool) + [base], games, fresh)
    for r in pool:
        play("confirm", r, games, fresh)
    designs.setdefault(base, -1)
    play("baseline", base, games, fresh)
    t2 = time.perf_counter()
    robust = ROBUST_BOT[spec.edition]
    robust_metrics = [g.metric for g in _unique_metrics(goals) if g.metric != "skill"]
    if robust_metrics:
        rbots = ",".join([robust] * spec.players)
        confirmed = [r["rules"] for r in rows if r["stage"] == "confirm" and r["holds"]]
        prefetch(confirmed, games, fresh, rbots, robust_metrics)
        for r in confirmed:
            e = store.get(parse_rules(r), games, fresh, rbots, robust_metrics, spec.skill_bot,
                          spec.threads)
            e.metrics.update({m: (math.nan,) * 3 for m in metrics if m not in e.metrics})
            _say(progress, f"robustness ({robust} field): {r} | "
                           f"{_fmt_metrics([g for g in goals if g.metric != 'skill'], e.metrics)}")
            record("robustness", r, e, designs[r])
    timings.update(refine_seconds=round(t1 - t0, 3), confirm_seconds=round(t2 - t1, 3),
                   robustness_seconds=round(time.perf_counter() - t2, 3))
    df = pd.DataFrame(rows)
    df["pareto"] = df["rules"].map(front).fillna(False).astype(bool)
    ok = set(df.loc[(df["stage"] == "confirm") & df["holds"], "rules"])
    df["confirmed"] = df["rules"].isin(ok)
    return df


def _best(df: pd.DataFrame, goals: list[Goal]) -> pd.Series | None:
    conf = df[df["stage"] == "confirm"]
    if conf.empty:
        return None
    keyed = sorted(conf.itertuples(index=False), key=lambda r: _rank_key(
        goals, {g.metric: getattr(r, g.metric) for g in goals}, parse_rules(r.rules)))
    top = pd.Series(keyed[0]._asdict())
    return top


def _write_answer(out: Path, spec: DesignSpec, goals: list[Goal], df: pd.DataFrame) -> dict:
    tmp = out / ".designs.csv.tmp"
    df.to_csv(tmp, index=False)
    os.replace(tmp, out / "designs.csv")
    best = _best(df, goals)
    answer = {"rules": None, "confirmed": False, "metrics": {}, "games": None,
              "unit": spec.unit}
    if best is not None:
        answer = {"rules": best["rules"], "confirmed": bool(best["holds"]),
                  "games": int(best["games"]), "unit": spec.unit, "seed": int(best["seed"]),
                  "distance": float(best["distance"]),
                  "segments_moved": int(best["segments_moved"]),
                  "options_changed": int(best["options_changed"]),
                  "metrics": {g.metric: {"value": float(best[g.metric]),
                                         "low": float(best[f"{g.metric}_low"]),
                                         "high": float(best[f"{g.metric}_high"])}
                              for g in _unique_metrics(goals)}}
        bl = df[df["stage"] == "baseline"]
        if not bl.empty:
            b = bl.iloc[0]
            answer["baseline"] = {"rules": b["rules"], "metrics": {
                g.metric: {"value": float(b[g.metric]), "low": float(b[f"{g.metric}_low"]),
                           "high": float(b[f"{g.metric}_high"])}
                for g in _unique_metrics(goals)}}
        rob = df[(df["stage"] == "robustness") & (df["rules"] == best["rules"])]
        if not rob.empty:
            r = rob.iloc[0]
            answer["robustness"] = {
                "bots": r["bots"],
                "metrics": {g.metric: {"value": float(r[g.metric]),
                                       "low": float(r[f"{g.metric}_low"]),
                                       "high": float(r[f"{g.metric}_high"])}
                            for g in _unique_metrics(goals) if r[g.metric] == r[g.metric]},
                "holds": {g.text: (bool(g.holds(r[g.metric])) if r[g.metric] == r[g.metric]
                                   else None) for g in goals if not g.is_objective}}
    _atomic_write(out / "best.json", json.dumps(_finite(answer), indent=2, allow_nan=False)
                  + "\n")
    _pareto_chart(out, goals, df)
    _atomic_write(out / "summary.md", _summary(spec, goals, df, answer))
    return answer


def _finite(obj):
    """``obj`` with every non-finite float as None (strict JSON)."""
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_finite(v) for v in obj]
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


def _pareto_chart(out: Path, goals: list[Goal], df: pd.DataFrame) -> None:
    from matplotlib.figure import Figure  # no pyplot: the caller's backend is untouched

    from ..plots import plot_design_front
    fig = Figure(figsize=(6, 4.5))
    ax = fig.subplots()
    plot_design_front(df[df["stage"] == "screen"], [g.metric for g in _unique_metrics(goals)],
                      ax=ax, goals=goals)
    fig.tight_layout()
    fig.savefig(out / "pareto.png", dpi=110)


def _summary(spec: DesignSpec, goals: list[Goal], df: pd.DataFrame, answer: dict) -> str:
    screened = df[df["stage"] == "screen"]
    lines = [f"# Design study: {spec.edition}, {spec.players} players", "",
             "Command: `python -m unospin_sim design " + " ".join(_argv(spec)) + "`", "",
             f"Goals: {', '.join(g.text for g in goals)}. Varied: {', '.join(spec.vary)}. "
             f"Field: {spec.bots}. {spec.trials} trials screened at "
             f"{spec.games_text(spec.games)} each ({len(screened)} distinct designs), the "
             f"best refined at {', then '.join(spec.games_text(spec.games * m) for m in spec.stages)}, "
             f"the top {REFINE_LATER} confirmed on a fresh seed.", ""]
    if answer["rules"] is None:
        lines.append("No design reached the confirmation stage.")
        return "\n".join(lines) + "\n"
    verdict = ("confirmed" if answer["confirmed"] else
               "NOT confirmed: no design held every goal on the fresh seed")
    lines += [f"## Recommended: `{answer['rules']}` ({verdict})", "",
              f"On a fresh seed, {spec.games_text(answer['games'])}; "
              f"{answer['segments_moved']} wheel segment(s) moved, "
              f"{answer['options_changed']} option(s) changed from the edition's defaults.", "",
              "| goal | value | 95% interval | holds | whole interval holds | "
              "the edition as published |",
              "|---|---|---|---|---|---|"]
    base = answer.get("baseline", {}).get("metrics", {})
    for g in goals:
        m = answer["metrics"][g.metric]
        sure = g.sure(m["low"], m["high"])
        b = base.get(g.metric)
        bt = f"{b['value']:.3f} [{b['low']:.3f}, {b['high']:.3f}]" if b else ""
        lines.append(f"| `{g.text}` | {m['value']:.3f} | [{m['low']:.3f}, {m['high']:.3f}] | "
                     f"{'yes' if g.holds(m['value']) else 'no'} | "
                     f"{'yes' if sure else 'no'} | {bt} |")
    if "robustness" in answer:
        rb = answer["robustness"]
        held = "; ".join(
            f"`{g.text}` {'holds' if rb['holds'][g.text] else 'fails'} "
            f"({rb['metrics'][g.metric]['value']:.3f} [{rb['metrics'][g.metric]['low']:.3f}, "
            f"{rb['metrics'][g.metric]['high']:.3f}])" for g in goals
            if g.text in rb["holds"] and rb["holds"][g.text] is not None)
        lines += ["", f"Robustness, the same design and fresh seed with every seat "
                      f"`{rb['bots'].split(',')[0]}`: {held or 'no goal measurable'}."]
    front = screened[screened["pareto"]]
    if len(_directions(goals)) > 1 and len(front):
        ms = [g.metric for g in _unique_metrics(goals)]
        lines += ["", f"### The Pareto front of the screened designs ({len(front)} of "
                      f"{len(screened)}; screening figures, {spec.games_text(spec.games)})", "",
                  "| design | " + " | ".join(ms) + " |", "|---|" + "---|" * len(ms)]
        for _, r in front.sort_values(ms[0]).head(20).iterrows():
            lines.append(f"| `{r['rules']}` | " + " | ".join(
                f"{r[m]:.3g} [{r[f'{m}_low']:.3g}, {r[f'{m}_high']:.3g}]" for m in ms) + " |")
    missed = [g.text for g in goals if not g.is_objective
              and not screened.apply(lambda r, g=g: g.holds(r[g.metric]), axis=1).any()]
    if missed:
        lines += ["", f"No design reached at the screening stage: "
                      f"{', '.join(f'`{t}`' for t in missed)}."]
    lines += ["", "Every measured design: `designs.csv`; the screened designs: `pareto.png`."]
    return "\n".join(lines) + "\n"


def _argv(spec: DesignSpec) -> list[str]:
    a = ["--edition", spec.edition, "--players", str(spec.players)]
    for g in spec.goals:
        a += ["--goal", f"'{g}'"]
    for v in spec.vary:
        a += ["--vary", v]
    a += ["--trials", str(spec.trials), "--games", str(spec.games), "--seed", str(spec.seed)]
    if spec.bots != "random":
        a += ["--bots", spec.bots]
    if spec.stages != [10, 100]:
        a += ["--stages", ",".join(map(str, spec.stages))]
    return a + ["--out", "DIR"]


#: design.json's fields and their types
_SPEC_TYPES = {"edition": str, "players": int, "goals": list, "vary": list, "trials": int,
               "games": int, "seed": int, "bots": str, "stages": list, "workers": int,
               "threads": int, "skill_bot": str}


def _read_spec(out: Path) -> DesignSpec:
    f = out / "design.json"
    if not f.exists():
        raise UserError(f"{out} holds no design study (no design.json)")
    try:
        d = json.loads(f.read_text())
        if not isinstance(d, dict) or set(d) != set(_SPEC_TYPES):
            raise ValueError(f"expected the fields {', '.join(_SPEC_TYPES)}")
        for k, t in _SPEC_TYPES.items():
            v = d[k]
            if not isinstance(v, t) or isinstance(v, bool):
                raise ValueError(f"{k} must be a {t.__name__}, got {v!r}")
            if t is list and not all(isinstance(x, int if k == "stages" else str)
                                     and not isinstance(x, bool) for x in v):
                raise ValueError(f"{k} holds a value of the wrong type: {v!r}")
        return DesignSpec(**d)
    except (ValueError, TypeError, OSError) as e:
        raise UserError(f"{f} is corrupt: {' '.join(str(e).split())[:120]}") from None


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
    if any((out / f).exists() for f in _FILES):
        raise UserError(f"{out} already holds a design study; resume it with "
                        f"design --resume {out}, or choose another --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot create {out}: {e.strerror}") from None
    _atomic_write(out / "design.json", json.dumps(asdict(spec), indent=2) + "\n")
    _open_study(out, spec, goals, create=True)
    return _finish(out, spec, progress, client)


def resume_design(out, progress: bool = True, client=None) -> dict:
    """Finish the study in ``out`` (killed trials run again, finished ones kept); ``client``
    as in :func:`run_design` (a study may be resumed on a cluster or off it)."""
    out = Path(out)
    spec = _read_spec(out)
    spec.check()
    if not (out / "study.db").exists():
        raise UserError(f"{out} has no study.db: the study is corrupt")
    return _finish(out, spec, progress, client)


def _finish(out: Path, spec: DesignSpec, progress: bool, client=None) -> dict:
    _, goals, knobs = spec.check()
    t0 = time.perf_counter()
    _screen(out, spec, goals, knobs, progress, client)
    timings = {"screening_seconds": round(time.perf_counter() - t0, 3)}
    df = _refine_and_confirm(out, spec, goals, progress, timings, client)
    answer = _write_answer(out, spec, goals, df)
    # wall times of this invocation (a resumed study times only what it played)
    _atomic_write(out / "timings.json", json.dumps(timings, indent=2) + "\n")
    _say(progress, ", ".join(f"{k.replace('_seconds', '')} {v:.1f} s"
                             for k, v in timings.items())
         + f"; answer in {out}/best.json and {out}/summary.md")
    return answer
