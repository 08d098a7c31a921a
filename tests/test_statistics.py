"""Statistics with fixed seeds and stated tolerances, and run-level invariants."""

import numpy as np
import pandas as pd
import pytest

from unospin_sim.runner import simulate, trace
from unospin_sim.engine import layout as L

EDITIONS = ("classic", "spin2005", "spin2025", "spiderman")

# chi-square critical values at p = 0.001 (tables), by degrees of freedom
CHI2_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32, 8: 26.12}


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 4, 7])
def test_invariants_hold_after_every_action(edition, players):
    """Every card in exactly one place after every action, every round ends or is
    recorded unfinished: 100,000 rounds per edition over the player counts."""
    games = {2: 30_000, 4: 40_000, 7: 30_000}[players]
    res = simulate(f"{edition}(players={players})", "random", games=games, seed=17,
                   threads=2, check=True)
    df = res.rounds
    assert len(df) == games
    assert df.invariant_failures.sum() == 0
    finished = df.winner >= 0
    assert (df.loc[finished, "cards_left_0"].ge(0)).all()
    # the winner holds no card; an unfinished round reached the cap
    for i in range(players):
        won = df.winner == i
        assert (df.loc[won, f"cards_left_{i}"] == 0).all()
    assert (df.loc[~finished, "turns"] == 10_000).all()
    # winner points = the points left in the other hands
    pts = sum(df[f"points_left_{i}"] for i in range(players))
    assert (df.loc[finished, "winner_points"] == pts[finished]).all()
    assert (df.cards_drawn == sum(df[f"cards_drawn_{i}"] for i in range(players))).all()


def test_turn_cap_records_unfinished_rounds():
    res = simulate("classic(players=4,turn_cap=5)", "random", games=2000, seed=3, threads=1)
    df = res.rounds
    assert (df.turns <= 5).all()
    unfinished = df.winner == -1
    assert unfinished.sum() > 1900  # a round of 5 turns almost never ends
    assert (df.loc[unfinished, "turns"] == 5).all()
    assert (df.loc[unfinished, "winner_points"] == 0).all()


@pytest.mark.parametrize("rules", ["classic(players=4)", "spin2025(players=3)",
                                   "spin2005(players=5)"])
def test_results_identical_for_any_threads_and_chunking(rules):
    a = simulate(rules, "random", games=3000, seed=99, threads=1, chunk_size=3000)
    b = simulate(rules, "random", games=3000, seed=99, threads=2, chunk_size=257)
    pd.testing.assert_frame_equal(a.rounds, b.rounds)
    pd.testing.assert_frame_equal(a.spins, b.spins)
    c = simulate(rules, "random", games=3000, seed=100, threads=2)
    assert not a.rounds.turns.equals(c.rounds.turns)


def test_seat_win_rates_identical_random_bots():
    """Identical bots: each seat wins 1/4 of the rounds up to the first-player advantage.
    Tolerance: |rate - 0.25| < 0.03 (the advantage is ~1 point) and, with 200,000 rounds
    (sd 0.001), the seat rates sum to 1."""
    df = simulate("classic(players=4)", "random", games=200_000, seed=5, threads=2).rounds
    rates = df.winner.value_counts(normalize=True).sort_index()
    assert list(rates.index) == [0, 1, 2, 3]
    assert np.all(np.abs(rates.values - 0.25) < 0.03)
    # the first player moves first: seat 0 beats the dealer's seat 3 (z > 3 here)
    n = len(df)
    z = (rates[0] - rates[3]) / np.sqrt((rates[0] + rates[3]) / n)
    assert z > 3


def _chi2(observed, expected):
    return float(((observed - expected) ** 2 / expected).sum())


@pytest.mark.parametrize("rules,weights", [
    ("spin2005(players=4)", None),
    ("spin2025(players=4)", None),
    ("spin2025(players=4,wheel={color_discard:1,swap_hands:1,two_x:2})",
     {"color_discard": 1, "swap_hands": 1, "two_x": 2}),
])
def test_spin_frequencies_match_wheel_weights(rules, weights):
    res = simulate(rules, "random", games=20_000, seed=8, threads=2)
    spins = res.spins
    spaces = list(spins.space.cat.categories)
    counts = spins.space.value_counts().reindex(spaces).to_numpy(float)
    w = np.array([1.0 if weights is None else weights.get(s, 0.0) for s in spaces])
    on = w > 0
    assert counts[~on].sum() == 0
    expected = counts.sum() * w[on] / w[on].sum()
    stat = _chi2(counts[on], expected)
    assert stat < CHI2_999[int(on.sum()) - 1], (stat, dict(zip(spaces, counts)))
    # the per-round counts agree with the spin table
    total = sum(res.rounds[f"spins_{s}"].sum() for s in spaces)
    assert total == len(spins) == res.rounds.spins.sum()


def test_custom_wheel_only_two_x():
    """A wheel of only 2X: spins move no card, and after a spin players play two cards."""
    rules = "spin2025(players=4,wheel={two_x:1})"
    res = simulate(rules, "random", games=3000, seed=4, threads=2)
    sp = res.spins
    assert (sp.space == "two_x").all()
    assert (sp.hand_before == sp.hand_after).all()
    assert (sp.cards_drawn == 0).all() and (sp.cards_discarded == 0).all()
    # in a traced game: between a 2X spin and the next spin some turn plays two cards,
    # and no turn outside 2X plays two
    doubles_in, doubles_out = 0, 0
    for g in range(30):
        events, _, _, _ = trace(rules, "random", seed=4, game=g)
        two_x, plays = False, 0
        for code, a, b, c in events.tolist():
            if code in (L.EV_TURN, L.EV_WIN, L.EV_CAP):
                if plays == 2:
                    if two_x:
                        doubles_in += 1
                    else:
                        doubles_out += 1
                plays = 0
            if code == L.EV_TWO_X:
                two_x = bool(a)
            elif code == L.EV_PLAY:
                plays += 1
    assert doubles_in > 50
    assert doubles_out == 0
