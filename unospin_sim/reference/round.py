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


def play_round(
    edition,
    players,
    seed,
    *,
    wild_matches_colour=None,
    wild_stops_colour_draw=None,
    wild_spin_cards=4,
    wheel=None,
    bots=None,
    turn_cap=10000,
    trace=None,
    stacking=False,
    draw_until_playable=False,
    seven_o=False,
    special_wilds="none",
    jump_in=False,
    partners=False,
    stacked_wd4="checked",
    force_play=False,
    jump_in_wilds=False,
    spin_cards=5,
):
    """Play one round; returns a dict:

    ``first_player`` seat taking the first turn, ``winner`` (-1 if the turn cap was
    reached), ``turns``, ``winner_points`` (points left in all other hands, 0 if
    unfinished), ``cards_left`` / ``points_left`` / ``cards_drawn`` (lists per seat),
    ``failed_draws``, ``spins`` ({space: count} over the edition's wheel, {} without
    a wheel), ``spin_records`` (dicts: turn, spinner, space, hand_before,
    hand_after, cards_drawn, cards_discarded; all about the spinner's own hand) and
    ``jump_ins`` (list per seat: times it jumped in, house rule ``jump_in``; not turns).

    ``seed`` is anything ``random.Random`` accepts.  ``wheel`` maps space names to
    weights (unlisted spaces weigh 0; default: equal weights).  ``bots`` is one dict
    per seat with any of the knobs forget, catch, bluff, challenge, reflex, jump
    (defaults 0, 0.5, 0, 0, 1, 1) and ``strategy`` (``"random"``, the default,
    ``"heuristic"``, ``"hoarder"`` or ``"tuned"`` with its ``w_*`` weights: docs/BOTS.md).
    ``trace``: a list to which event strings are appended.

    House rules (``docs/HOUSE_RULES.md``, all off by default, combinable):
    ``stacking``, ``draw_until_playable``, ``seven_o`` (bools) and
    ``special_wilds`` (``"none"``, ``"swap_hands"`` or ``"shuffle_hands"``; classic only),
    ``jump_in`` and ``partners`` (bools; partners: 4, 6, 8 or 10 players),
    ``stacked_wd4`` (``"checked"``: a stacked Wild Draw Four follows the Wild Draw Four
    rule and may be challenged, the default; ``"free"``: always legal; stacking only),
    ``force_play`` (bool: a seat whose strategy would draw while it holds a playable card
    plays the playable card first in :func:`card_order` instead; only ``hoarder`` ever
    draws so), ``jump_in_wilds`` (bool, with ``jump_in``: a wild that does not spin the
    wheel may be jumped on with the identical wild, a Wild Draw Four only when legal for
    the jumper, who names a colour anew). Deck option ``spin_cards`` (Spin editions, 0-9,
    default 5): the numbers 1..k carry the Spin mark on one copy each.
    """
    r = Round(
        edition,
        players,
        seed,
        wild_matches_colour=wild_matches_colour,
        wild_stops_colour_draw=wild_stops_colour_draw,
        wild_spin_cards=wild_spin_cards,
        wheel=wheel,
        bots=bots,
        turn_cap=turn_cap,
        trace=trace,
        stacking=stacking,
        draw_until_playable=draw_until_playable,
        seven_o=seven_o,
        special_wilds=special_wilds,
        jump_in=jump_in,
        partners=partners,
        stacked_wd4=stacked_wd4,
        force_play=force_play,
        jump_in_wilds=jump_in_wilds,
        spin_cards=spin_cards,
    )
    r.setup()
    r.run()
    return r.result()
