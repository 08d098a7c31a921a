"""RLCard 1.2.0's own UNO environment played by its random agents: one picklable job for a
process pool (``tests/test_rlcard.py``'s powered comparison). Not collected by pytest."""

from __future__ import annotations


def play(args):
    """``(seed, games)`` -> (lengths, seat-0 wins, cards left in both hands) as int lists.

    A game's length is ``env.timestep`` advanced by the game: RLCard's actions, plays and
    draws, the engine's ``turns`` under ``rlcard=true``."""
    seed, games = args
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    np.random.seed(seed)  # the random agent draws from numpy's global generator
    env = rlcard.make("uno", config={"seed": seed})
    env.set_agents([RandomAgent(env.num_actions) for _ in range(2)])
    lengths, wins, left = [], [], []
    for _ in range(games):
        t0 = env.timestep
        _, payoffs = env.run(is_training=False)
        lengths.append(env.timestep - t0)
        wins.append(int(payoffs[0] > 0))
        left.append(sum(len(pl.hand) for pl in env.game.players))
    return lengths, wins, left
