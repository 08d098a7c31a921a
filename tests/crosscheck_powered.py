"""Powered cross-check of the numba engine against the independent reference engine.

    python tests/crosscheck_powered.py [--only REGEX] [--quick] [--plan] [--list]
                                       [--alpha A] [--power P] [--ratio K] [--workers W]
                                       [--out FILE.jsonl]

For every configuration of :func:`configs` (every edition at 2, 4 and 10 players, every
other player count, every value of every rule option the reference implements, every
house rule, bot knobs, the strategies the reference plays) it

1. runs a pilot of the engine (``--pilot`` rounds) for the variance of the number of turns
   and seat 0's win rate;
2. computes the reference sample size n for which a two-sided two-sample z-test at level
   ``--alpha`` has power ``--power`` against a shift of 1% in mean turns (delta = 0.01 x mean)
   and of 0.5 points in seat 0's win rate (delta = 0.005), with ``--ratio`` K engine
   rounds per reference round:  n = (1 + 1/K) ((z_{1-alpha/2} + z_power) sigma / delta)^2,
   plus 5% for the pilot's error (the larger of the two, at least ``MIN_REF`` rounds);
3. plays n reference rounds (``unospin_sim.reference``, in ``--workers`` processes) and
   K n engine rounds, and tests
   * the powered means: z of mean turns and of seat 0's win rate (level alpha), and the
     power each actually had, from the two samples' own variances;
   * the distributions: chi-square on the winners (every seat, plus unfinished rounds),
     two-sample Kolmogorov-Smirnov on the turns (level alpha; conservative for the
     discrete turn counts);
   * secondary means (winner points, cards drawn, failed draws, spins, spins per space,
     per-seat cards left and drawn, every seat's win rate): z at level alpha / m
     (Bonferroni over the configuration's m secondary statistics).
   A configuration passes when no test rejects and both powers reach ``--power``.

The family-wise false-alarm rate is about 5 alpha per configuration (printed at the end).
``--quick`` caps the reference at ``--quick-games`` rounds (default 3,000): a smoke run,
underpowered (its power is printed, not required). Exit status 1 when a configuration
fails. The full run takes hours on 2 cores (``--plan`` prints every sample size and an
estimate of the time without playing the big samples).

Rule options NOT covered, and why: ``rlcard`` (the reference does not implement RLCard's
rules; ``tests/test_rlcard.py`` compares that mode with RLCard itself). The option list
is checked against ``unospin_sim.rules`` by ``tests/test_crosscheck_plan.py``.
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
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crosskit

from unospin_sim.run import Execution

TURN_SHIFT = 0.01  # relative shift in mean turns to detect
WIN_SHIFT = 0.005  # absolute shift in seat 0's win rate to detect
MIN_REF = 10_000  # reference rounds at least (chi-square and KS need some data)
MARGIN = 1.05  # on the computed n: the pilot's variance is an estimate
ENGINE_CHUNK = 100_000
SPACES = {
    "spin2005": (
        "almost_uno",
        "discard_number",
        "discard_color",
        "draw_red",
        "draw_blue",
        "show_hand",
        "war",
        "uno_spin",
        "trade_hands",
    ),
    "spin2025": (
        "color_draw_red",
        "color_draw_yellow",
        "color_draw_green",
        "color_draw_blue",
        "wild_color_draw",
        "color_discard",
        "swap_hands",
        "two_x",
    ),
}
EDITIONS = ("classic", "spin2005", "spin2025", "spiderman")
#: the shipped variant files, each a cell (examples/variants/)
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "variants"
VARIANT_EXAMPLES = ("everyone_draws_one", "give_away", "spin2025_plus_two", "more_spaces")
KNOBS = dict(forget=0.3, catch=0.6, challenge=0.4, bluff=0.3)
HOARDER = dict(strategy="hoarder")  # it draws instead of playing a kept wild
HEURISTIC = dict(strategy="heuristic")
#: spin_aware against heuristic: seat 0's win rate weighs its Spin card choices
SPIN_AWARE = (dict(strategy="spin_aware"), dict(strategy="heuristic")) * 2


@dataclass(frozen=True)
class Config:
    name: str
    edition: str
    players: int
    options: dict = field(default_factory=dict)  # rule options (reference keyword names)
    knobs: tuple = ()  # per-seat bot knob dicts ((): defaults)
    variant: str = ""  # a shipped example (examples/variants/NAME.toml): its one wheel

    def variant_file(self):
        """The example's checked variant file (read, so its wheel's name parses)."""
        from unospin_sim.rules.variants import load_variant

        return load_variant(EXAMPLES / f"{self.variant}.toml")

    @property
    def rules(self) -> str:
        parts = [f"players={self.players}"]
        if self.variant:
            (wheel,) = self.variant_file().wheels
            parts.append(f"wheel={wheel.name}")
        for k, v in self.options.items():
            if isinstance(v, bool):
                v = "true" if v else "false"
            elif isinstance(v, dict):
                v = "{" + ",".join(f"{s}:{w}" for s, w in v.items()) + "}"
            parts.append(f"{k}={v}")
        return f"{self.edition}({','.join(parts)})"

    @property
    def bots(self) -> str:
        if not self.knobs:
            return "random"
        out = []
        for kn in self.knobs:  # a knob dict's "strategy" names the strategy (default random)
            kn = dict(kn)
            name = kn.pop("strategy", "random")
            out.append(
                name + ("(" + ",".join(f"{k}={v}" for k, v in kn.items()) + ")" if kn else "")
            )
        return ",".join(out)

    def ref_kwargs(self) -> dict:
        """The keywords of the reference's functions: ``options`` (a ``reference.Options``),
        ``bots`` (with knobs) and ``match`` (a ``reference.MatchOptions``, with the match
        options ``match`` and ``target``)."""
        from unospin_sim import reference

        opts = dict(self.options)
        match = {k: opts.pop(k) for k in ("match", "target") if k in opts}
        kw = {"options": reference.Options(**opts)}
        if match:
            kw["match"] = reference.MatchOptions(**match)
        if self.knobs:
            kw["bots"] = [dict(kn) for kn in self.knobs]
        if self.variant:  # the reference's own interpreter reads the same file's steps
            v = self.variant_file()
            kw["programs"] = {s.name: s.as_dicts() for s in v.spaces}
            kw["wheel"] = dict(v.wheels[0].weights)
        return kw


def configs() -> list[Config]:
    """Every configuration of the full run (names are unique; --only selects by regex)."""
    out = []
    for e in EDITIONS:  # editions x 2, 4, 10 players
        for p in (2, 4, 10):
            out.append(Config(f"{e}-p{p}", e, p))
    for p, e in zip((3, 5, 6, 7, 8, 9), EDITIONS + EDITIONS):  # every other player count
        out.append(Config(f"{e}-p{p}", e, p))
    for e in EDITIONS:  # non-default wild_matches_colour
        v = e == "classic"
        out.append(
            Config(f"{e}-p4-wild_matches_colour={str(v).lower()}", e, 4, {"wild_matches_colour": v})
        )
    for e in ("spin2005", "spin2025"):  # non-default wild_stops_colour_draw
        v = e == "spin2025"
        out.append(
            Config(
                f"{e}-p4-wild_stops_colour_draw={str(v).lower()}",
                e,
                4,
                {"wild_stops_colour_draw": v},
            )
        )
    for n in (0, 1, 2, 3):  # wild_spin_cards (4 = default)
        out.append(
            Config(f"spin2025-p4-wild_spin_cards={n}", "spin2025", 4, {"wild_spin_cards": n})
        )
    for e, spaces in SPACES.items():  # the wheel: each space alone
        for s in spaces:
            out.append(Config(f"{e}-p4-wheel={s}", e, 4, {"wheel": {s: 1}}))
    out.append(
        Config(
            "spin2025-p4-wheel=mixed",
            "spin2025",
            4,
            {"wheel": {"two_x": 3, "swap_hands": 2, "color_draw_red": 1}},
        )
    )
    for name in VARIANT_EXAMPLES:  # the shipped variant files' wheels, programs in both engines
        (wheel,) = Config("", "spin2005", 4, variant=name).variant_file().wheels
        out.append(Config(f"{wheel.edition}-p4-variant={name}", wheel.edition, 4, variant=name))
    for e in ("classic", "spin2025"):  # binding turn caps
        for cap in (1, 40):
            out.append(Config(f"{e}-p4-turn_cap={cap}", e, 4, {"turn_cap": cap}))
    for e in EDITIONS:  # house rules, each alone
        for h in ("stacking", "draw_until_playable", "seven_o", "jump_in", "partners"):
            out.append(Config(f"{e}-p4-{h}", e, 4, {h: True}))
    for h in ("stacking", "draw_until_playable", "seven_o", "jump_in"):
        out.append(Config(f"classic-p2-{h}", "classic", 2, {h: True}))
    out.append(Config("classic-p6-partners", "classic", 6, {"partners": True}))
    for e in EDITIONS:  # jump_in_wilds (needs jump_in)
        out.append(
            Config(f"{e}-p4-jump_in-jump_in_wilds", e, 4, {"jump_in": True, "jump_in_wilds": True})
        )
    for e in EDITIONS:  # stacked Wild Draw Fours judged (checked) or not
        for v in ("checked", "free"):  # (free); bluffs and challenges make them matter
            out.append(
                Config(
                    f"{e}-p4-stacking-stacked_wd4={v}-knobs",
                    e,
                    4,
                    {"stacking": True, "stacked_wd4": v},
                    knobs=(KNOBS,) * 4,
                )
            )
    for v in ("swap_hands", "shuffle_hands"):
        out.append(Config(f"classic-p4-special_wilds={v}", "classic", 4, {"special_wilds": v}))
    out.append(
        Config(
            "classic-p3-all_house",
            "classic",
            3,
            dict(
                stacking=True, draw_until_playable=True, seven_o=True, special_wilds="shuffle_hands"
            ),
        )
    )
    out.append(
        Config(
            "spin2025-p4-all_house",
            "spin2025",
            4,
            dict(stacking=True, draw_until_playable=True, seven_o=True),
        )
    )
    out.append(Config("classic-p4-hoarder", "classic", 4, knobs=(HOARDER,) * 4))
    for e in EDITIONS:  # force_play: hoarder is the strategy it acts on
        out.append(
            Config(f"{e}-p4-force_play-hoarder", e, 4, {"force_play": True}, knobs=(HOARDER,) * 4)
        )
    out.append(Config("classic-p4-knobs", "classic", 4, knobs=(KNOBS,) * 4))
    out.append(
        Config(
            "spin2005-p4-knobs_reflex", "spin2005", 4, knobs=(dict(KNOBS, reflex=3),) + (KNOBS,) * 3
        )
    )
    # partners with jump_in (who may jump in without taking the partner's turn: issue 29);
    # appended last so that every configuration above keeps its seed
    out.append(
        Config("classic-p4-partners-jump_in", "classic", 4, {"partners": True, "jump_in": True})
    )
    out.append(
        Config("spin2025-p6-partners-jump_in", "spin2025", 6, {"partners": True, "jump_in": True})
    )
    for e in ("spin2005", "spin2025"):  # deck option spin_cards (issue 27), appended last too
        for k in (0, 2):
            out.append(Config(f"{e}-p4-spin_cards={k}", e, 4, {"spin_cards": k}))
    for e in ("spin2005", "spin2025"):  # spin_cards 6-9 (Spin 6-9 kinds, 2026-12-04): last
        out.append(Config(f"{e}-p4-spin_cards=9", e, 4, {"spin_cards": 9}))
    for e in ("spin2005", "spin2025"):  # spin_aware in the reference (issue 47): last
        out.append(Config(f"{e}-p4-spin_aware", e, 4, knobs=SPIN_AWARE))
    # the deck's numbers (issue 48), appended last: the penalties with the knobs that make the
    # challenge and the UNO call matter, and a smaller deal
    out.append(Config("classic-p4-draw_two_draws=3", "classic", 4, {"draw_two_draws": 3}))
    out.append(
        Config("classic-p4-wd4_draws=6-knobs", "classic", 4, {"wd4_draws": 6}, knobs=(KNOBS,) * 4)
    )
    out.append(
        Config(
            "classic-p4-uno_penalty=4-knobs", "classic", 4, {"uno_penalty": 4}, knobs=(KNOBS,) * 4
        )
    )
    out.append(Config("spin2005-p4-hand_size=5", "spin2005", 4, {"hand_size": 5}))
    # the deck's copies and the card points (issue 48), appended last; heuristic plays its
    # highest-scoring card first, so the points change its play
    out.append(Config("classic-p4-skip_cards=4", "classic", 4, {"skip_cards": 4}))
    out.append(Config("classic-p4-reverse_cards=0", "classic", 4, {"reverse_cards": 0}))
    out.append(Config("classic-p4-draw_two_cards=4", "classic", 4, {"draw_two_cards": 4}))
    out.append(Config("classic-p3-wild_cards=8", "classic", 3, {"wild_cards": 8}))
    out.append(
        Config("classic-p4-wd4_cards=8-knobs", "classic", 4, {"wd4_cards": 8}, knobs=(KNOBS,) * 4)
    )
    out.append(
        Config(
            "classic-p4-points-heuristic",
            "classic",
            4,
            {"points": {"skip": 5, "draw_two": 50, "wild": 10}},
            knobs=(HEURISTIC,) * 4,
        )
    )
    # the bots on the variants' own spaces (issue 51): spin_aware values them from their
    # steps, and every heuristic seat gives its card_to_give, in both engines
    for name in ("spin2025_plus_two", "more_spaces"):
        (wheel,) = Config("", "spin2005", 4, variant=name).variant_file().wheels
        out.append(
            Config(
                f"{wheel.edition}-p4-variant={name}-spin_aware",
                wheel.edition,
                4,
                knobs=SPIN_AWARE,
                variant=name,
            )
        )
    return out


# ------------------------------------------------------------------------------ power


def z_crit(alpha):
    return float(stats.norm.ppf(1 - alpha / 2))


def sample_size(sigma, delta, alpha, power, ratio):
    """Reference rounds n (engine: ratio * n) for a two-sided two-sample z-test at level
    alpha to reach ``power`` against a shift ``delta`` of a mean with s.d. ``sigma``."""
    if sigma == 0:
        return 0
    z = z_crit(alpha) + float(stats.norm.ppf(power))
    return math.ceil((1 + 1 / ratio) * (z * sigma / delta) ** 2)


def achieved_power(se, delta, alpha):
    """Power of the two-sided z-test with standard error se against a shift delta."""
    if se == 0:
        return 1.0
    zc = z_crit(alpha)
    return float(stats.norm.cdf(delta / se - zc) + stats.norm.cdf(-delta / se - zc))


def _se(a, b):
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    return float(np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b)))


# ------------------------------------------------------------------------------ samples


def engine_sample(cfg, games, seed, threads):
    from unospin_sim.run import simulate

    parts = []
    done = 0
    while done < games:
        n = min(ENGINE_CHUNK, games - done)
        res = simulate(
            cfg.rules, cfg.bots, games=n, seed=seed + done, execution=Execution(threads=threads)
        )
        parts.append(crosskit.engine_arrays(res.rounds, cfg.players))
        done += n
    return crosskit.concat(parts)


def reference_sample(cfg, games, seed, pool, workers):
    njobs = max(1, min(games // 500, workers * 8))
    bounds = np.linspace(0, games, njobs + 1).astype(int)
    jobs = [
        (cfg.edition, cfg.players, int(a), int(b - a), seed, cfg.ref_kwargs())
        for a, b in zip(bounds[:-1], bounds[1:])
        if b > a
    ]
    if pool is None:
        return crosskit.concat([crosskit.ref_arrays_job(j) for j in jobs])
    return crosskit.concat(list(pool.map(crosskit.ref_arrays_job, jobs)))


# ------------------------------------------------------------------------------ tests


def winner_chi2(eng_w, ref_w, players):
    """Chi-square test of homogeneity of the winner (seats and -1 = unfinished)."""
    cats = np.arange(-1, players)
    table = np.array([[np.sum(w == c) for c in cats] for w in (eng_w, ref_w)])
    table = table[:, table.sum(axis=0) > 0]
    if table.shape[1] < 2:
        return 0.0, 1.0
    chi2, p, _, _ = stats.chi2_contingency(table, correction=False)
    return float(chi2), float(p)


def compare(cfg, eng, ref, alpha, power, mu_turns):
    """Every test of one configuration: a dict (JSON-able) with 'ok'."""
    zc = z_crit(alpha)
    r = {
        "name": cfg.name,
        "rules": cfg.rules,
        "bots": cfg.bots,
        "n_ref": len(ref["turns"]),
        "n_engine": len(eng["turns"]),
    }
    d_turns = TURN_SHIFT * mu_turns
    w_e, w_r = eng["winner"] == 0, ref["winner"] == 0
    r["z_turns"] = crosskit.z_two_sample(eng["turns"], ref["turns"])
    r["z_win0"] = crosskit.z_two_sample(w_e, w_r)
    r["mean_turns_eng"], r["mean_turns_ref"] = (
        float(eng["turns"].mean()),
        float(ref["turns"].mean()),
    )
    r["win0_eng"], r["win0_ref"] = float(w_e.mean()), float(w_r.mean())
    se_t, se_w = _se(eng["turns"], ref["turns"]), _se(w_e, w_r)
    r["power_turns"] = achieved_power(se_t, d_turns, alpha)
    r["power_win0"] = achieved_power(se_w, WIN_SHIFT, alpha)
    r["mde_turns_pct"] = 100 * (zc + stats.norm.ppf(power)) * se_t / mu_turns if mu_turns else 0.0
    r["mde_win0_pts"] = 100 * (zc + stats.norm.ppf(power)) * se_w
    r["chi2_winner"], r["p_chi2_winner"] = winner_chi2(eng["winner"], ref["winner"], cfg.players)
    if eng["turns"].min() == eng["turns"].max() == ref["turns"].min() == ref["turns"].max():
        r["ks_turns"], r["p_ks_turns"] = 0.0, 1.0
    else:
        ks = stats.ks_2samp(eng["turns"], ref["turns"], method="asymp")
        r["ks_turns"], r["p_ks_turns"] = float(ks.statistic), float(ks.pvalue)
    sec = {
        k: z
        for k, z in crosskit.zscores(eng, ref, cfg.players).items()
        if k not in ("turns", "win_0")
    }
    zsec = z_crit(alpha / max(1, len(sec)))
    r["z_secondary_max"] = max(sec.items(), key=lambda kv: abs(kv[1]), default=("-", 0.0))
    bad = [f"z_turns={r['z_turns']:+.2f}"] if abs(r["z_turns"]) > zc else []
    bad += [f"z_win0={r['z_win0']:+.2f}"] if abs(r["z_win0"]) > zc else []
    bad += [f"chi2 p={r['p_chi2_winner']:.1e}"] if r["p_chi2_winner"] < alpha else []
    bad += [f"KS p={r['p_ks_turns']:.1e}"] if r["p_ks_turns"] < alpha else []
    bad += [f"{k} z={z:+.2f}" for k, z in sec.items() if abs(z) > zsec]
    r["rejected"] = bad
    r["powered"] = r["power_turns"] >= power and r["power_win0"] >= power
    return r


# ------------------------------------------------------------------------------ results


def read_results(path) -> list[dict]:
    """The JSON lines of an --out file (the last line per configuration wins)."""
    p = Path(path)
    if not p.exists():
        return []
    by_name = {}
    for line in p.read_text().splitlines():
        if line.strip():
            r = json.loads(line)
            by_name[r["name"]] = r
    return list(by_name.values())


def results_table(results: list[dict]) -> str:
    """A Markdown table of powered results, one row per configuration, in configs() order."""
    order = {c.name: i for i, c in enumerate(configs())}
    rows = sorted(results, key=lambda r: order.get(r["name"], len(order)))
    head = (
        "| configuration | reference rounds | engine rounds | z mean turns (power) | "
        "z seat-0 win rate (power) | chi-square winners p | KS turns p | largest "
        "secondary z | result |\n|---|---|---|---|---|---|---|---|---|\n"
    )
    out = []
    for r in rows:
        sec = r.get("z_secondary_max") or ["-", 0.0]
        res = "PASS" if r.get("ok") else "FAIL"
        if r.get("quick"):
            res += " (quick, underpowered)"
        elif not r.get("powered"):
            res += " (underpowered)"
        if r.get("rejected"):
            res += ": " + ", ".join(r["rejected"])
        out.append(
            f"| {r['name']} | {r['n_ref']:,} | {r['n_engine']:,} | "
            f"{r['z_turns']:+.2f} ({r['power_turns']:.2f}) | "
            f"{r['z_win0']:+.2f} ({r['power_win0']:.2f}) | {r['p_chi2_winner']:.3f} | "
            f"{r['p_ks_turns']:.3f} | {sec[0]} {sec[1]:+.2f} | {res} |"
        )
    done = len([r for r in rows if not r.get("quick")])
    return (
        head + "\n".join(out) + f"\n\n{done} of {len(order)} configurations have a full result.\n"
    )


# ------------------------------------------------------------------------------ main


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="regex: run only configurations whose name matches")
    ap.add_argument("--list", action="store_true", help="list the configurations and exit")
    ap.add_argument(
        "--plan", action="store_true", help="pilots and sample sizes only (no reference rounds)"
    )
    ap.add_argument("--quick", action="store_true", help="smoke run: reference capped")
    ap.add_argument("--quick-games", type=int, default=3000)
    ap.add_argument(
        "--alpha", type=float, default=1e-4, help="level of each primary test (default 1e-4)"
    )
    ap.add_argument("--power", type=float, default=0.8)
    ap.add_argument("--ratio", type=int, default=4, help="engine rounds per reference round")
    ap.add_argument("--pilot", type=int, default=100_000, help="engine pilot rounds")
    ap.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="reference processes (default: every core)",
    )
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="engine threads")
    ap.add_argument(
        "--ref-rate",
        type=float,
        default=70_000.0,
        help="reference turns/s per process, for --plan's time estimate "
        "(measured: ~55,000-105,000 on this 2-core machine)",
    )
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument(
        "--margin",
        type=float,
        default=MARGIN,
        help=f"factor on the computed sample size (default {MARGIN}: the pilot's "
        "variance is an estimate; raise it to re-run an underpowered one)",
    )
    ap.add_argument("--out", help="append one JSON line per configuration to this file")
    ap.add_argument(
        "--resume",
        action="store_true",
        help="with --out: skip the configurations that file already holds a full "
        "(not --quick) result for, so a long run goes in parts",
    )
    ap.add_argument(
        "--max-minutes",
        type=float,
        default=None,
        help="start no new configuration after this many minutes (a part of a "
        "long run; resume it with --resume)",
    )
    ap.add_argument(
        "--table", metavar="MD", help="write the Markdown table of --out's results to MD and exit"
    )
    a = ap.parse_args(argv)
    if a.table:
        if not a.out:
            ap.error("--table needs --out (the results to tabulate)")
        Path(a.table).write_text(results_table(read_results(a.out)))
        print(f"wrote {a.table}")
        return 0

    cfgs = configs()
    index = {c.name: i for i, c in enumerate(cfgs)}  # seeds by place in the FULL list
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

    pool = None
    if a.workers > 1 and not a.plan:
        pool = cf.ProcessPoolExecutor(a.workers, mp_context=multiprocessing.get_context("spawn"))
    print(
        f"alpha={a.alpha:g} per test (z={z_crit(a.alpha):.3f}), power={a.power}, "
        f"targets: {TURN_SHIFT:.0%} of mean turns, {WIN_SHIFT * 100:g} points of seat 0's "
        f"win rate; engine:reference = {a.ratio}:1; {len(cfgs)} configurations",
        flush=True,
    )
    failed, total_ref, total_turns, t_all = [], 0, 0.0, time.time()
    out = open(a.out, "a") if a.out else None
    for cfg in cfgs:
        if a.max_minutes is not None and time.time() - t_all > 60 * a.max_minutes:
            print(
                f"--max-minutes {a.max_minutes:g} reached: stopping before {cfg.name} "
                f"(resume with --resume)",
                flush=True,
            )
            cfgs = cfgs[: cfgs.index(cfg)]
            break
        t0 = time.time()
        seed = a.seed + 1_000_000 * index[cfg.name]  # the same samples with or without --only
        pilot = simulate(
            cfg.rules, cfg.bots, games=a.pilot, seed=seed, execution=Execution(threads=a.threads)
        ).rounds
        mu, sd = float(pilot.turns.mean()), float(pilot.turns.std())
        p0 = float((pilot.winner == 0).mean())
        n_t = sample_size(sd, TURN_SHIFT * mu, a.alpha, a.power, a.ratio)
        n_w = sample_size(math.sqrt(p0 * (1 - p0)), WIN_SHIFT, a.alpha, a.power, a.ratio)
        n = max(MIN_REF, math.ceil(a.margin * max(n_t, n_w)))
        plan = (
            f"{cfg.name}: pilot mean turns {mu:.2f} sd {sd:.2f}, seat-0 win {p0:.4f} -> "
            f"n(turns) {n_t:,}, n(win0) {n_w:,}, reference n = {n:,}, engine {a.ratio * n:,}"
        )
        if a.plan:
            total_ref += n
            total_turns += n * mu
            print(plan, flush=True)
            continue
        if a.quick:
            n = min(n, a.quick_games)
        print(plan + (f" (quick: reference {n:,})" if a.quick else ""), flush=True)
        ref = reference_sample(cfg, n, seed + 1, pool, a.workers)
        t_ref = time.time() - t0
        eng = engine_sample(cfg, a.ratio * n, seed + 2, a.threads)
        r = compare(cfg, eng, ref, a.alpha, a.power, mu)
        r.update(
            pilot_mean_turns=mu,
            pilot_sd_turns=sd,
            pilot_win0=p0,
            n_needed_turns=n_t,
            n_needed_win0=n_w,
            quick=a.quick,
            alpha=a.alpha,
            margin=a.margin,
            seconds=time.time() - t0,
            reference_seconds=t_ref,
        )
        ok = not r["rejected"] and (r["powered"] or a.quick)
        r["ok"] = ok
        print(
            f"  {'PASS' if ok else 'FAIL'} z_turns {r['z_turns']:+.2f} "
            f"(eng {r['mean_turns_eng']:.3f} ref {r['mean_turns_ref']:.3f}, "
            f"power {r['power_turns']:.3f}, MDE {r['mde_turns_pct']:.2f}%) | "
            f"z_win0 {r['z_win0']:+.2f} (eng {r['win0_eng']:.4f} ref {r['win0_ref']:.4f}, "
            f"power {r['power_win0']:.3f}, MDE {r['mde_win0_pts']:.2f} pts) | "
            f"chi2 winners {r['chi2_winner']:.1f} p={r['p_chi2_winner']:.3f} | "
            f"KS turns D={r['ks_turns']:.4f} p={r['p_ks_turns']:.3f} | "
            f"max secondary {r['z_secondary_max'][0]} z={r['z_secondary_max'][1]:+.2f} | "
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
    if a.plan:
        print(
            f"total reference rounds {total_ref:,} ({total_turns:,.0f} turns): about "
            f"{total_turns / (a.ref_rate * a.workers) / 3600:.1f} h with {a.workers} "
            f"processes at {a.ref_rate:,.0f} turns/s each (engine time extra, minor)"
        )
        return 0
    print(
        f"{len(cfgs) - len(failed)}/{len(cfgs)} configurations passed in "
        f"{time.time() - t_all:.0f}s; expected false alarms over this run ~ "
        f"{5 * a.alpha * len(cfgs):.3f} (about 5 alpha per configuration)"
        + (f"; FAILED: {', '.join(failed)}" if failed else "")
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
