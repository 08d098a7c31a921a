"""RLCard 1.2.0's UNO beside ours (``classic(players=2,rlcard=true)``): game length, seat-0 win
rate and speed, one JSON line each for RLCard, for us, and for the comparison.

    python benchmarks/rlcard_compare.py                      # 10,000 RLCard games, 1,000,000 ours
    python benchmarks/rlcard_compare.py --games 2000 --ours-games 200000

RLCard is an optional dependency (``pip install 'unospin_sim[rlcard]'``, i.e. rlcard==1.2.0);
without it the script prints a one-line note and exits 0.

Both sides use random agents, 2 players (RLCard's UNO environment is 2-player only: it
ignores ``game_num_players``).

Turns are counted the same way on both sides: one turn = one action of the player to move,
a play or a draw (a draw whose card RLCard plays at once is still one action); skipped
players take no turn and the first card's effects are not a turn. RLCard: the number of
``env.step`` calls of the game (``env.timestep`` before and after ``env.run``); ours: the
round's ``turns`` column.

Speeds are single-process / single-thread: RLCard's ``env.run`` (its documented way to play
a game with agents, state encoding included) and, for reference, RLCard's bare game object
driven by the same uniform choice over distinct legal actions (no state encoding); ours with
one thread, and with every core. Intervals are 95%: mean +- 1.96 standard errors for the
length and the loser's cards, Wilson for the win rate; ``z`` compares the two sides
(|z| < 2 in ~95% of runs when the rules agree). ``mean_loser_cards`` (cards left in the
loser's hand) is the sharpest of the three: the default classic rules give ~4.81 there
against RLCard's ~4.42, while their mean lengths differ by only ~0.2 turns.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

from harness import how

RULES = "classic(players=2,rlcard=true)"


def mean_ci(xs):
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    se = math.sqrt(var / n)
    return m, se, [round(m - 1.96 * se, 3), round(m + 1.96 * se, 3)]


def wilson(k, n, z=1.96):
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, [round(c - h, 4), round(c + h, 4)]


def summary(case, lengths, wins, left, seconds, extra):
    n = len(lengths)
    m, se, ci = mean_ci(lengths)
    p, wci = wilson(sum(wins), n)
    ml, sel, cil = mean_ci(left)
    row = {
        "case": case,
        **extra,
        "games": n,
        "mean_turns": round(m, 3),
        "mean_turns_se": round(se, 4),
        "mean_turns_ci95": ci,
        "seat0_win_rate": round(p, 4),
        "seat0_win_ci95": wci,
        "mean_loser_cards": round(ml, 4),
        "mean_loser_cards_ci95": cil,
        "seconds": round(seconds, 3),
        "games_per_s": round(n / seconds, 1),
    }
    return row, (m, se, p, ml, sel)


def run_rlcard_env(games, seed):
    """RLCard's environment with two RandomAgents (envs/env.py ``run``)."""
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    np.random.seed(seed)  # RandomAgent draws from numpy's global generator
    env = rlcard.make("uno", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    lengths, wins, left, crashed = [], [], [], 0
    t0 = time.perf_counter()
    for _ in range(games):
        start = env.timestep
        try:
            _, payoffs = env.run(is_training=False)
        except IndexError:  # pop from an empty deck: every card in the hands (never seen)
            crashed += 1
            continue
        lengths.append(env.timestep - start)
        wins.append(int(payoffs[0] > 0))
        left.append(sum(len(pl.hand) for pl in env.game.players))
    return lengths, wins, left, time.perf_counter() - t0, crashed


def run_rlcard_game(games, seed):
    """RLCard's bare UnoGame, each action uniform over the DISTINCT legal actions (what the
    environment's dict of legal action ids and RandomAgent amount to)."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    rng = np.random.RandomState(seed + 1)
    game = UnoGame()
    game.np_random = np.random.RandomState(seed)
    lengths, wins, left, crashed = [], [], [], 0
    t0 = time.perf_counter()
    for _ in range(games):
        game.init_game()
        n = 0
        try:
            while not game.is_over():
                legal = list(dict.fromkeys(game.get_legal_actions()))
                game.step(legal[rng.randint(len(legal))])
                n += 1
        except IndexError:
            crashed += 1
            continue
        lengths.append(n)
        wins.append(int(game.round.winner == [0]))
        left.append(sum(len(pl.hand) for pl in game.players))
    return lengths, wins, left, time.perf_counter() - t0, crashed


def run_ours(games, seed, threads):
    from unospin_sim.run import simulate

    simulate(RULES, "random", games=1000, seed=seed, **how(threads=threads))  # load the kernel
    t0 = time.perf_counter()
    df = simulate(RULES, "random", games=games, seed=seed, **how(threads=threads)).rounds
    sec = time.perf_counter() - t0
    left = df[[f"cards_left_{i}" for i in range(2)]].sum(axis=1)
    return (
        df.turns.tolist(),
        (df.winner == 0).astype(int).tolist(),
        left.tolist(),
        sec,
        int((df.winner < 0).sum()),
    )


def z_of(a, na, b, nb):
    """z of the differences of two summaries of na and nb games: (length z, win-rate z,
    loser-cards z)."""
    (ma, sa, pa, la, sla), (mb, sb, pb, lb, slb) = a, b
    zl = (ma - mb) / math.sqrt(sa * sa + sb * sb)
    zw = (pa - pb) / math.sqrt(pa * (1 - pa) / na + pb * (1 - pb) / nb)
    zc = (la - lb) / math.sqrt(sla * sla + slb * slb)
    return round(zl, 2), round(zw, 2), round(zc, 2)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000, help="RLCard games (each way)")
    ap.add_argument("--ours-games", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=2024)
    a = ap.parse_args(argv)
    try:
        import rlcard
    except ImportError:
        print(
            "rlcard_compare: rlcard is not installed (pip install 'unospin_sim[rlcard]' for "
            "rlcard==1.2.0); nothing to compare",
            flush=True,
        )
        return 0
    from unospin_sim.run import default_threads

    rl_version = getattr(rlcard, "__version__", "?")
    ln, wn, cl, sec, crashed = run_rlcard_env(a.games, a.seed)
    row_env, s_env = summary(
        "rlcard_env_run", ln, wn, cl, sec, {"rlcard_version": rl_version, "crashed_games": crashed}
    )
    print(json.dumps(row_env), flush=True)
    ln, wn, cl, sec, crashed = run_rlcard_game(a.games, a.seed)
    row_raw, s_raw = summary(
        "rlcard_bare_game",
        ln,
        wn,
        cl,
        sec,
        {"rlcard_version": rl_version, "crashed_games": crashed},
    )
    print(json.dumps(row_raw), flush=True)
    lo, wo, co, sec, unfinished = run_ours(a.ours_games, a.seed, 1)
    row_us, s_us = summary(
        "unospin_sim", lo, wo, co, sec, {"rules": RULES, "threads": 1, "unfinished": unfinished}
    )
    print(json.dumps(row_us), flush=True)
    threads = default_threads()
    _, _, _, sec_t, _ = run_ours(a.ours_games, a.seed, threads)
    zl, zw, zc = z_of(s_env, row_env["games"], s_us, row_us["games"])
    zl2, zw2, zc2 = z_of(s_raw, row_raw["games"], s_us, row_us["games"])
    print(
        json.dumps(
            {
                "case": "comparison",
                "turns_z_env": zl,
                "seat0_win_z_env": zw,
                "loser_cards_z_env": zc,
                "turns_z_bare_game": zl2,
                "seat0_win_z_bare_game": zw2,
                "loser_cards_z_bare_game": zc2,
                "speed_ratio_vs_env_run": round(row_us["games_per_s"] / row_env["games_per_s"], 1),
                "speed_ratio_vs_bare_game": round(
                    row_us["games_per_s"] / row_raw["games_per_s"], 1
                ),
                "ours_games_per_s_all_threads": round(a.ours_games / sec_t, 1),
                "threads": threads,
                "speed_ratio_all_threads_vs_env_run": round(
                    a.ours_games / sec_t / row_env["games_per_s"], 1
                ),
            }
        ),
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
