"""The reference engine's round: :class:`Round` puts the state and its mixins together
(state <- choices <- turn flow, house rules, wheels), and :func:`play_round` plays one."""

from __future__ import annotations

from .choices import Choices
from .flow import TurnFlow
from .house import HouseRules
from .state import RoundState
from .wheel import Wheel


class Round(TurnFlow, HouseRules, Wheel, Choices, RoundState):
    """The whole state of one round and the rules acting on it."""


def play_round(edition, players, seed, options=None, bots=None, trace=None):
    """Play one round; returns a dict:

    ``first_player`` seat taking the first turn, ``winner`` (-1 if the turn cap was
    reached), ``turns``, ``winner_points`` (points left in all other hands, 0 if
    unfinished), ``cards_left`` / ``points_left`` / ``cards_drawn`` (lists per seat),
    ``failed_draws``, ``spins`` ({space: count} over the edition's wheel, {} without
    a wheel), ``spin_records`` (dicts: turn, spinner, space, hand_before,
    hand_after, cards_drawn, cards_discarded; all about the spinner's own hand) and
    ``jump_ins`` (list per seat: times it jumped in, house rule ``jump_in``; not turns).

    ``seed`` is anything ``random.Random`` accepts.  ``options``: the rule options, an
    :class:`~unospin_sim.reference.options.Options` (None: all at their defaults; the
    edition options, the turn cap and the house rules are documented there).  ``bots`` is
    one dict per seat with any of the knobs forget, catch, bluff, challenge, reflex, jump
    (defaults 0, 0.5, 0, 0, 1, 1) and ``strategy`` (``"random"``, the default,
    ``"heuristic"``, ``"hoarder"``, ``"tuned"`` with its ``w_*`` weights or ``"spin_aware"``:
    docs/BOTS.md).
    ``trace``: a list to which event strings are appended.
    """
    r = Round(edition, players, seed, options, bots, trace)
    r.setup()
    r.run()
    return r.result()
