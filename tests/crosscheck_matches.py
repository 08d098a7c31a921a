"""Powered cross-check of whole MATCHES: the numba engine's match mode against the reference's.

    python tests/crosscheck_matches.py [--only REGEX] [--quick] [--list] [--workers W]
                                       [--out FILE.jsonl] [--resume] [--table MD]

A match is a race of rounds to a target (``match=race``, ``partners`` races, and
``match=lowest``: docs/HOUSE_RULES.md "Match mode"). The numba engine plays matches in
``engine/chunk.py`` (``play_match_chunk``); the reference engine plays them in
``unospin_sim.reference.play_match``, written again from the docs text (the deal passing one
seat a round, the scoring, the end of a match). For every configuration of :func:`configs`
this script

1. runs a pilot of the engine (``--pilot`` matches) for the variance of the number of rounds
   per match and of player 0's match win rate;
2. computes the reference sample size (matches) for which a two-sided two-sample z-test at
   level ``--alpha`` has power ``--power`` against a shift of 2% in mean rounds per match and
   of 3 points in player 0's match win rate (``ROUNDS_SHIFT``, ``WIN_SHIFT``), with
   ``--ratio`` engine matches per reference match, plus 5% for the pilot's error;
3. plays them and tests, each at level alpha:
   * z of mean rounds per match and of player 0's match win rate (the powered pair);
   * chi-square on the match winners (every player, or team under partners, and -1);
   * two-sample Kolmogorov-Smirnov on the distributions of rounds per match, of the
     winner's final score and of player 0's final score (conservative: they are discrete);
   * secondary means (turns per match, every player's final score and match win rate) by
     z at level alpha / m (Bonferroni over the m secondary statistics).
   A configuration passes when no test rejects and both powers reach ``--power``.

``--quick`` caps the reference at ``--quick-matches`` matches (a smoke run, underpowered;
``tests/test_crosscheck_matches.py`` runs it in the slow tier). ``--out`` appends one JSON line
per configuration, ``--resume`` skips those already there, ``--table`` writes the Markdown
table of an ``--out`` file. The committed run is ``reports/crosscheck/matches.jsonl`` and
``reports/crosscheck/matches.md``.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import math
import multiprocessing
import os
import re
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crosskit
from crosscheck_powered import Config, _se, achieved_power, read_results, sample_size, z_crit

from unospin_sim.run import Execution

ROUNDS_SHIFT = 0.02  # relative shift in mean rounds per match to detect
WIN_SHIFT = 0.03  # absolute shift in player 0's match win rate to detect
MIN_REF = 2_000  # reference matches at least
MARGIN = 1.05
ENGINE_CHUNK = 20_000
MIXED4 = ({"strategy": "heuristic"}, {}, {}, {})  # player 0 differs: the deal's rotation shows


def configs() -> list[Config]:
    """Every match configuration (names unique; --only selects by regex; seeds by place)."""
    return [
        Config("classic-p4-race", "classic", 4, {"match": "race", "target": 500}),
        Config("spin2005-p3-race", "spin2005", 3, {"match": "race", "target": 500}),
        Config(
            "spin2025-p4-race-heuristic0",
            "spin2025",
            4,
            {"match": "race", "target": 500},
            knobs=MIXED4,
        ),
        Config("spiderman-p2-race", "spiderman", 2, {"match": "race", "target": 500}),
        Config(
            "classic-p4-race-turn_cap=40",
            "classic",
            4,
            {"match": "race", "target": 300, "turn_cap": 40},
        ),
        Config("spin2025-p4-lowest", "spin2025", 4, {"match": "lowest", "target": 500}),
        Config(
            "classic-p5-lowest-heuristic0",
            "classic",
            5,
            {"match": "lowest", "target": 300},
            knobs=({"strategy": "heuristic"},) + ({},) * 4,
        ),
        Config(
            "classic-p4-partners-race",
            "classic",
            4,
            {"partners": True, "match": "race", "target": 500},
        ),
        Config(
            "spin2025-p6-partners-race-heuristic0",
            "spin2025",
            6,
            {"partners": True, "match": "race", "target": 500},
            knobs=({"strategy": "heuristic"},) + ({},) * 5,
        ),
        Config(
            "spin2005-p4-race-jump_in-stacking",
            "spin2005",
            4,
            {"jump_in": True, "stacking": True, "match": "race", "target": 500},
        ),
    ]


# ------------------------------------------------------------------------------ samples


def _arrays(matches: pd.DataFrame, players: int) -> dict:
    """{column: array} of one side's match table, plus the winner's final score."""
    cols = {c: matches[c].to_numpy(np.int64) for c in ("rounds", "turns", "winner")}
    scores = np.stack([matches[f"score_{i}"].to_numpy(np.int64) for i in range(players)], 1)
    for i in range(players):
        cols[f"score_{i}"] = scores[:, i]
    w = cols["winner"]
    cols["winner_score"] = np.where(w >= 0, scores[np.arange(len(w)), np.maximum(w, 0)], -1)
    return cols


def ref_job(args):
    """One picklable job: reference matches match0 .. match0 + count - 1."""
    from unospin_sim import reference

    edition, players, match0, count, seed, kw = args
    return _arrays(
        reference.play_many_matches(edition, players, count, seed, match0=match0, **kw), players
    )


def reference_sample(cfg, matches, seed, pool, workers):
    njobs = max(1, min(matches // 100, workers * 8))
    bounds = np.linspace(0, matches, njobs + 1).astype(int)
    jobs = [
        (cfg.edition, cfg.players, int(a), int(b - a), seed, cfg.ref_kwargs())
        for a, b in zip(bounds[:-1], bounds[1:])
        if b > a
    ]
    parts = list(pool.map(ref_job, jobs)) if pool is not None else [ref_job(j) for j in jobs]
    return crosskit.concat(parts)


def engine_sample(cfg, matches, seed, threads):
    from unospin_sim.run import simulate

    parts, done = [], 0
    while done < matches:
        n = min(ENGINE_CHUNK, matches - done)
        res = simulate(
            cfg.rules, cfg.bots, games=n, seed=seed + done, execution=Execution(threads=threads)
        )
        parts.append(_arrays(res.matches, cfg.players))
        done += n
    return crosskit.concat(parts)


# ------------------------------------------------------------------------------ tests


def _ks(a, b):
    if len(np.unique(np.concatenate([a, b]))) < 2:
        return 0.0, 1.0
    ks = stats.ks_2samp(a, b, method="asymp")
    return float(ks.statistic), float(ks.pvalue)


def compare(cfg, eng, ref, alpha, power, mu_rounds):
    """Every test of one configuration: a JSON-able dict with 'rejected' and 'powered'."""
    zc = z_crit(alpha)
    sides = cfg.players // 2 if cfg.options.get("partners") else cfg.players
    r = {
        "name": cfg.name,
        "rules": cfg.rules,
        "bots": cfg.bots,
        "n_ref": len(ref["rounds"]),
        "n_engine": len(eng["rounds"]),
    }
    w_e, w_r = eng["winner"] == 0, ref["winner"] == 0
    r["z_rounds"] = crosskit.z_two_sample(eng["rounds"], ref["rounds"])
    r["z_win0"] = crosskit.z_two_sample(w_e, w_r)
    r["mean_rounds_eng"], r["mean_rounds_ref"] = (
        float(eng["rounds"].mean()),
        float(ref["rounds"].mean()),
    )
    r["win0_eng"], r["win0_ref"] = float(w_e.mean()), float(w_r.mean())
    se_r, se_w = _se(eng["rounds"], ref["rounds"]), _se(w_e, w_r)
    r["power_rounds"] = achieved_power(se_r, ROUNDS_SHIFT * mu_rounds, alpha)
    r["power_win0"] = achieved_power(se_w, WIN_SHIFT, alpha)
    cats = np.arange(-1, sides)
    table = np.array([[np.sum(w == c) for c in cats] for w in (eng["winner"], ref["winner"])])
    table = table[:, table.sum(axis=0) > 0]
    if table.shape[1] < 2:
        r["chi2_winner"], r["p_chi2_winner"] = 0.0, 1.0
    else:
        chi2, p, _, _ = stats.chi2_contingency(table, correction=False)
        r["chi2_winner"], r["p_chi2_winner"] = float(chi2), float(p)
    r["ks"] = {k: _ks(eng[k], ref[k]) for k in ("rounds", "winner_score", "score_0")}
    sec = {"turns": crosskit.z_two_sample(eng["turns"], ref["turns"])}
    for i in range(cfg.players):
        sec[f"score_{i}"] = crosskit.z_two_sample(eng[f"score_{i}"], ref[f"score_{i}"])
    for t in range(1, sides):
        sec[f"win_{t}"] = crosskit.z_two_sample(eng["winner"] == t, ref["winner"] == t)
    zsec = z_crit(alpha / len(sec))
    r["z_secondary_max"] = max(sec.items(), key=lambda kv: abs(kv[1]))
    bad = [f"z_rounds={r['z_rounds']:+.2f}"] if abs(r["z_rounds"]) > zc else []
    bad += [f"z_win0={r['z_win0']:+.2f}"] if abs(r["z_win0"]) > zc else []
    bad += [f"chi2 p={r['p_chi2_winner']:.1e}"] if r["p_chi2_winner"] < alpha else []
    bad += [f"KS {k} p={p:.1e}" for k, (_, p) in r["ks"].items() if p < alpha]
    bad += [f"{k} z={z:+.2f}" for k, z in sec.items() if abs(z) > zsec]
    r["rejected"] = bad
    r["powered"] = r["power_rounds"] >= power and r["power_win0"] >= power
    return r


def results_table(results: list[dict]) -> str:
    order = {c.name: i for i, c in enumerate(configs())}
    rows = sorted(results, key=lambda r: order.get(r["name"], len(order)))
    head = (
        "| configuration | reference matches | engine matches | mean rounds per match "
        "eng / ref | z rounds (power) | player-0 match win rate eng / ref | z (power) | "
        "chi-square winners p | KS p: rounds, winner's score, player 0's score | largest "
        "secondary z | result |\n|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    out = []
    for r in rows:
        res = "PASS" if r.get("ok") else "FAIL"
        if r.get("quick"):
            res += " (quick, underpowered)"
        elif not r.get("powered"):
            res += " (underpowered)"
        if r.get("rejected"):
            res += ": " + ", ".join(r["rejected"])
        ks = ", ".join(f"{p:.3f}" for _, p in r["ks"].values())
        sec = r["z_secondary_max"]
        out.append(
            f"| {r['name']} | {r['n_ref']:,} | {r['n_engine']:,} | "
            f"{r['mean_rounds_eng']:.3f} / {r['mean_rounds_ref']:.3f} | "
            f"{r['z_rounds']:+.2f} ({r['power_rounds']:.2f}) | "
            f"{r['win0_eng']:.4f} / {r['win0_ref']:.4f} | "
            f"{r['z_win0']:+.2f} ({r['power_win0']:.2f}) | {r['p_chi2_winner']:.3f} | "
            f"{ks} | {sec[0]} {sec[1]:+.2f} | {res} |"
        )
    done = len([r for r in rows if not r.get("quick")])
    return (
        head + "\n".join(out) + f"\n\n{done} of {len(order)} match configurations have a "
        "full result. Rounds and matches as in the README: a round is one hand, a match a "
        "race of rounds to the target.\n"
    )


# ------------------------------------------------------------------------------ main


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="regex: run only configurations whose name matches")
    ap.add_argument("--list", action="store_true", help="list the configurations and exit")
    ap.add_argument("--quick", action="store_true", help="smoke run: reference capped")
    ap.add_argument("--quick-matches", type=int, default=400)
    ap.add_argument("--alpha", type=float, default=1e-4)
    ap.add_argument("--power", type=float, default=0.8)
    ap.add_argument("--ratio", type=int, default=4, help="engine matches per reference match")
    ap.add_argument("--pilot", type=int, default=20_000, help="engine pilot matches")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=2027)
    ap.add_argument("--out", help="append one JSON line per configuration to this file")
    ap.add_argument(
        "--resume",
        action="store_true",
        help="with --out: skip configurations with a full result there",
    )
    ap.add_argument("--table", metavar="MD", help="write --out's Markdown table to MD and exit")
    a = ap.parse_args(argv)
    if a.table:
        if not a.out:
            ap.error("--table needs --out (the results to tabulate)")
        Path(a.table).write_text(results_table(read_results(a.out)))
        print(f"wrote {a.table}")
        return 0
    cfgs = configs()
    index = {c.name: i for i, c in enumerate(cfgs)}
    if a.only:
        cfgs = [c for c in cfgs if re.search(a.only, c.name)]
    if a.list:
        for c in cfgs:
            print(f"{c.name:45s} {c.rules}  bots={c.bots}")
        return 0
    if a.resume:
        if not a.out:
            ap.error("--resume needs --out")
        done = {r["name"] for r in read_results(a.out) if not r.get("quick")}
        cfgs = [c for c in cfgs if c.name not in done]
        print(f"--resume: {len(done)} configurations already in {a.out}, {len(cfgs)} to go")
    if not cfgs:
        print(
            "no configuration matches" if not a.resume else "nothing left to run", file=sys.stderr
        )
        return 2 if not a.resume else 0

    from unospin_sim.run import simulate

    pool = (
        cf.ProcessPoolExecutor(a.workers, mp_context=multiprocessing.get_context("spawn"))
        if a.workers > 1
        else None
    )
    print(
        f"alpha={a.alpha:g} per test (z={z_crit(a.alpha):.3f}), power={a.power}, targets: "
        f"{ROUNDS_SHIFT:.0%} of mean rounds per match, {WIN_SHIFT * 100:g} points of player "
        f"0's match win rate; engine:reference = {a.ratio}:1 (in matches); "
        f"{len(cfgs)} configurations",
        flush=True,
    )
    failed, t_all = [], time.time()
    out = open(a.out, "a") if a.out else None
    for cfg in cfgs:
        t0 = time.time()
        seed = a.seed + 1_000_000 * index[cfg.name]
        pilot = simulate(
            cfg.rules, cfg.bots, games=a.pilot, seed=seed, execution=Execution(threads=a.threads)
        ).matches
        mu, sd = float(pilot.rounds.mean()), float(pilot.rounds.std())
        p0 = float((pilot.winner == 0).mean())
        n_r = sample_size(sd, ROUNDS_SHIFT * mu, a.alpha, a.power, a.ratio)
        n_w = sample_size(math.sqrt(p0 * (1 - p0)), WIN_SHIFT, a.alpha, a.power, a.ratio)
        n = max(MIN_REF, math.ceil(MARGIN * max(n_r, n_w)))
        if a.quick:
            n = min(n, a.quick_matches)
        print(
            f"{cfg.name}: pilot mean rounds per match {mu:.3f} sd {sd:.3f}, player-0 match "
            f"win {p0:.4f} -> reference {n:,} matches, engine {a.ratio * n:,}"
            + (" (quick)" if a.quick else ""),
            flush=True,
        )
        ref = reference_sample(cfg, n, seed + 1, pool, a.workers)
        t_ref = time.time() - t0
        eng = engine_sample(cfg, a.ratio * n, seed + 2, a.threads)
        r = compare(cfg, eng, ref, a.alpha, a.power, mu)
        r.update(
            pilot_mean_rounds=mu,
            pilot_sd_rounds=sd,
            pilot_win0=p0,
            n_needed_rounds=n_r,
            n_needed_win0=n_w,
            quick=a.quick,
            alpha=a.alpha,
            seconds=time.time() - t0,
            reference_seconds=t_ref,
        )
        r["ok"] = ok = not r["rejected"] and (r["powered"] or a.quick)
        ks = " ".join(f"{k} p={p:.3f}" for k, (_, p) in r["ks"].items())
        print(
            f"  {'PASS' if ok else 'FAIL'} z_rounds {r['z_rounds']:+.2f} (eng "
            f"{r['mean_rounds_eng']:.3f} ref {r['mean_rounds_ref']:.3f}, power "
            f"{r['power_rounds']:.3f}) | z_win0 {r['z_win0']:+.2f} (eng {r['win0_eng']:.4f} "
            f"ref {r['win0_ref']:.4f}, power {r['power_win0']:.3f}) | chi2 winners p="
            f"{r['p_chi2_winner']:.3f} | KS {ks} | max secondary "
            f"{r['z_secondary_max'][0]} z={r['z_secondary_max'][1]:+.2f} | "
            f"{r['seconds']:.0f}s (reference {t_ref:.0f}s)"
            + (f" | REJECTED: {', '.join(r['rejected'])}" if r["rejected"] else "")
            + ("" if r["powered"] else " | UNDERPOWERED"),
            flush=True,
        )
        if out:
            out.write(json.dumps(r) + "\n")
            out.flush()
        if not ok:
            failed.append(cfg.name)
    if pool is not None:
        pool.shutdown()
    print(
        f"{len(cfgs) - len(failed)}/{len(cfgs)} match configurations passed in "
        f"{time.time() - t_all:.0f}s" + (f"; FAILED: {', '.join(failed)}" if failed else "")
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
