"""Turn a :class:`~unospin_sim.rules.RuleSet` and bot specs into the kernel's arrays."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from ..errors import BotError
from ..rules.card_codes import KIND_COLOUR, N_COLOURS, WILD_COLOUR
from ..rules.options import OPTIONS
from ..rules.programs import MAX_STEPS, PLAYERS
from . import layout as L
from . import program_codes as P
from .bot_codes import bots_array
from .policy import IMPLEMENTED
from .policy.spin_aware import expected_most

_FIRST_RULES = {"action_effects": L.FIRST_ACTION_EFFECTS, "numbers_only": L.FIRST_NUMBERS_ONLY}


@dataclass(frozen=True)
class KernelInputs:
    """Everything the kernel needs to know about a rule set and its bots."""

    rules: np.ndarray  # int64[N_RULE_PARAMS], indices layout.R_*; then any program table
    deck: np.ndarray  # int64[deck size]: one kind per card
    points: np.ndarray  # int64[N_KINDS]
    wheel_cum: np.ndarray  # float64[N_CUM]: cumulative wheel weights over the global space
    #   ids, then spin_aware's table of the run's deck (layout.CUM_MOST, most_table)
    bots: np.ndarray  # float64[players, N_BOT_COLUMNS], columns layout.B_*

    def args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The kernel entry points' first five arguments, in their order."""
        return self.rules, self.deck, self.points, self.wheel_cum, self.bots


@cache
def _most_of(per_colour: int, wilds: int) -> np.ndarray:
    table = expected_most(per_colour, wilds, L.MAX_CARDS)
    table.flags.writeable = False
    return table


def most_table(rules) -> np.ndarray:
    """spin_aware's estimate of a hidden hand's most held colour, from the rule set's deck.

    The deck's composition is public (every seat knows the rule set), so reading it keeps
    the information contract (tests/test_fair_bots.py). The published classic and 2005
    decks (25 cards a colour, 8 wilds) give the table the strategy always had. The 2025 and
    Spider-Man decks hold 12 wilds (their Wild Spin / Web Swing cards), so their table
    differs from that model's; the kernel reads it only when the next player spins instead
    of a turn, under the 2005 wheel (spin_aware.spin_bonus), so no published result moves.

    Parameters
    ----------
    rules : RuleSet
        The rule set; its ``deck_counts()`` are read.

    Returns
    -------
    numpy.ndarray
        float64[MAX_CARDS + 1] (read-only, shared between rule sets of the same deck):
        entry h is :func:`~unospin_sim.engine.policy.spin_aware.expected_most` of a hand
        of h cards dealt from four colours of the deck's cards a colour and its wilds.
    """
    counts = rules.deck_counts()
    colour = np.asarray(KIND_COLOUR)
    per = {int(counts[colour == c].sum()) for c in range(N_COLOURS)}
    if len(per) != 1:  # pragma: no cover - every deck repeats its colours (editions.toml)
        raise AssertionError(f"the colours of {rules} hold unequal counts {sorted(per)}")
    return _most_of(per.pop(), int(counts[colour == WILD_COLOUR].sum()))


def check_rlcard_bots(bots) -> None:
    """RLCard has no UNO calls and no Wild Draw Four challenges: under ``rlcard=true`` the bot
    knobs forget, bluff and challenge must stay 0 (catch and reflex are never used)."""
    for seat, spec in enumerate(bots):
        for knob in ("forget", "bluff", "challenge"):
            if getattr(spec, knob) != 0:
                raise BotError(
                    f"bot {spec} of seat {seat}: {knob} must be 0 under rlcard=true "
                    f"(RLCard has no UNO calls, bluffs or challenges)"
                )


def check_implemented(bots) -> None:
    """Raise a one-line BotError when a bot's strategy has no implementation in the engine's
    policy home (a strategy registered in bot_codes.STRATEGIES but not in policy.IMPLEMENTED)."""
    for seat, spec in enumerate(bots):
        if spec.strategy not in IMPLEMENTED:
            raise BotError(
                f"bot {spec} of seat {seat}: strategy {spec.strategy!r} has no "
                f"implementation in engine/policy (implemented: "
                f"{', '.join(IMPLEMENTED)})"
            )


def check_bots_for_rules(rules, bots) -> None:
    """Raise a one-line BotError when ``bots`` cannot play ``rules`` (seat count, strategy
    without an implementation, rlcard, a knob ``jump`` without the house rule ``jump_in``,
    where it would change nothing)."""
    if len(bots) != rules.players:
        raise BotError(f"{len(bots)} bots for {rules.players} players")
    check_implemented(bots)
    if rules.option("rlcard", False):
        check_rlcard_bots(bots)
    if not rules.option("jump_in", False):
        odd = list(dict.fromkeys(str(b) for b in bots if b.jump != 1.0))
        if odd:
            raise BotError(
                f"bot knob 'jump' is the chance of jumping in under the house rule "
                f"jump_in, which {rules} does not have: {', '.join(odd)} "
                f"(add jump_in=true or drop the knob)"
            )


_WHO = {name: i for i, name in enumerate(PLAYERS)}
_COLOUR_BIT = {"red": 1, "yellow": 2, "green": 4, "blue": 8}
_DISCARD = {"colour": P.DISCARD_COLOUR, "number": P.DISCARD_NUMBER, "one": P.DISCARD_ONE}
_DISCARD["down_to"] = P.DISCARD_DOWN_TO
_TRADE = {"clockwise": P.TRADE_CW, "counterclockwise": P.TRADE_CCW, "play": P.TRADE_PLAY}
_TRADE["against_play"] = P.TRADE_AGAINST
_STOPS = {False: P.WILD_STOPS_NO, True: P.WILD_STOPS_YES, "option": P.WILD_STOPS_OPTION}


def _step_fields(step) -> list[int]:
    """The table fields (program_codes.F_*) of one step other than ``repeat``."""
    v = dict(step.params)
    kind = step.kind
    who = _WHO.get(v.get("who", "spinner"))
    if kind == "draw":
        return [P.OP_DRAW, who, v["n"], 0, 0]
    if kind == "draw_until":
        mask = sum(_COLOUR_BIT.get(c, 0) for c in v["colour"])
        return [P.OP_DRAW_UNTIL, who, mask, int("chosen" in v["colour"]), _STOPS[v["wild_stops"]]]
    if kind == "discard":
        place = P.PLACE_TOP if v["place"] == "top" else P.PLACE_UNDER
        return [P.OP_DISCARD, who, _DISCARD[v["what"]], v["keep"] or 0, place]
    if kind == "give":
        return [P.OP_GIVE, who, _WHO[v["to"]], v["n"], 0]
    if kind == "swap_hands":
        return [P.OP_SWAP_HANDS, who, _WHO[v["with"]], 0, 0]
    if kind == "trade_hands":
        return [P.OP_TRADE_HANDS, 0, _TRADE[v["direction"]], 0, 0]
    if kind == "skip":
        return [P.OP_SKIP, 0, v["players"], 0, 0]
    simple = {"show_hand": P.OP_SHOW_HAND, "reverse": P.OP_REVERSE, "two_x": P.OP_TWO_X}
    simple.update(war=P.OP_WAR, uno_spin_race=P.OP_RACE)
    return [simple[kind], who if kind == "show_hand" else 0, 0, 0, 0]


def _unrolled(steps) -> list:
    """The steps with every ``repeat`` written out."""
    out = []
    for step in steps:
        if step.kind == "repeat":
            out += _unrolled(step.get("steps")) * step.get("times")
        else:
            out.append(step)
    return out


def program_table(programs) -> np.ndarray:
    """The program table (``program_codes``) of ``programs``, without its position.

    Parameters
    ----------
    programs : mapping of int to sequence of Step
        Global space id -> its checked program (``rules.programs.check_program``).

    Returns
    -------
    numpy.ndarray
        int64: the table as it follows the rule parameters, its offsets counted from the
        start of the rule array (``r[L.N_RULE_PARAMS]`` is its first entry).

    """
    top = max(programs) + 1
    table = [top] + [0] * top
    for space, steps in programs.items():
        flat = _unrolled(steps)
        if len(flat) > MAX_STEPS:  # pragma: no cover - check_program refuses it
            raise AssertionError(f"space {space}: {len(flat)} steps > MAX_STEPS")
        table[1 + space] = L.N_RULE_PARAMS + len(table)
        table.append(len(flat))
        for step in flat:
            table += _step_fields(step)
    return np.asarray(table, np.int64)


def encode(rules, bots, check: bool = False, programs=None) -> KernelInputs:
    """Kernel arrays for rule set ``rules`` and the per-seat bot specs ``bots``.

    ``check=True`` makes the kernel verify its invariants after every action.
    ``programs`` (global space id -> checked program, see :func:`program_table`): those
    wheel spaces run their program instead of their compiled effect; a variant's own
    spaces (``rules.programs()``) always run theirs.
    """
    programs = {**rules.programs(), **(programs or {})}
    r = np.zeros(L.N_RULE_PARAMS, np.int64)
    counts = rules.deck_counts()
    deck = np.repeat(np.arange(counts.shape[0], dtype=np.int64), counts)
    if deck.shape[0] > L.MAX_CARDS:  # pragma: no cover - the options' largest deck fits
        raise AssertionError(f"a deck of {deck.shape[0]} cards exceeds MAX_CARDS={L.MAX_CARDS}")
    ed = rules.edition_data
    house = False
    for opt in OPTIONS:  # the one table of rule options
        if opt.name not in ed.defaults:
            continue  # not valid for the edition: its parameter stays 0 (off)
        value = rules.option(opt.name)
        if opt.param is not None:
            r[getattr(L, opt.param)] = opt.encode(value)
        if opt.house and value != ed.defaults[opt.name]:
            house = True
    r[L.R_WHEEL] = rules.wheel_family
    r[L.R_FIRST_RULE] = _FIRST_RULES[rules.first_card]
    r[L.R_DECK_N] = deck.shape[0]
    r[L.R_CHECK] = int(check)
    r[L.R_HOUSE] = int(house)
    cum = np.empty(L.N_CUM, np.float64)
    cum[: L.CUM_MOST] = np.cumsum(rules.wheel_weights())
    if cum[L.CUM_MOST - 1] <= 0:  # no wheel: never sampled, but keep the array well formed
        cum[: L.CUM_MOST] = 1.0
    cum[L.CUM_MOST :] = most_table(rules)
    if programs:
        r[L.R_PROGRAMS] = L.N_RULE_PARAMS
        r = np.concatenate([r, program_table(programs)])
    check_bots_for_rules(rules, bots)
    b = bots_array(bots)
    return KernelInputs(
        r, deck, rules.points().astype(np.int64), cum, np.ascontiguousarray(b, dtype=np.float64)
    )
