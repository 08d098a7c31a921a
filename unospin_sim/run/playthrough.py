"""Render one game's event log as text: `python -m unospin_sim play` and the golden files.

The text is rebuilt from the kernel's event log alone: the hands printed before every turn
are tracked here from the deal, draws, plays, discards and hand moves, and checked at the
end against the kernel's final state, so a playthrough is also a consistency check.
"""

from __future__ import annotations

import numpy as np

from ..engine import layout as L
from ..rules.card_codes import FIRST_WILD
from ..rules.cards import COLOURS, N_KINDS, kind_name


def _hand_text(counts: np.ndarray) -> str:
    names = []
    for k in np.nonzero(counts)[0]:
        names += [kind_name(int(k))] * int(counts[k])
    return ", ".join(names) if names else "(empty)"


def _seat(p):
    return f"seat {p}"


#: event code -> its line, for the events that only say something (a, b, c: the event's
#: fields, layout.EV_*); the events that move cards or read hands are in :func:`render`
_TEXT = {
    L.EV_SET_ASIDE: lambda a, b, c: (
        f"first card {kind_name(a)} is set aside and goes back into the pile"
    ),
    L.EV_FIRST: lambda a, b, c: f"first card: {kind_name(a)}",
    L.EV_COLOUR: lambda a, b, c: f"  {_seat(a)} names {COLOURS[b]}",
    L.EV_DRAW_FAIL: lambda a, b, c: f"  {_seat(a)} cannot draw: no card left",
    # rlcard (b set): the top card goes too (it still sets what to match)
    L.EV_RESHUFFLE: lambda a, b, c: (
        f"  the discard pile ({a} cards, the top card included) becomes the draw pile"
        if b
        else f"  the discard pile ({a} cards under the top) becomes the draw pile"
    ),
    L.EV_SKIPPED: lambda a, b, c: f"  {_seat(a)} is skipped",
    L.EV_REVERSE: lambda a, b, c: (
        "  direction is now " + ("clockwise" if a > 0 else "counter-clockwise")
    ),
    L.EV_UNO: lambda a, b, c: f"  {_seat(a)} calls UNO",
    L.EV_FORGET: lambda a, b, c: f"  {_seat(a)} forgets to call UNO",
    L.EV_CAUGHT: lambda a, b, c: f"  {_seat(b)} catches {_seat(a)}",
    L.EV_BLUFF: lambda a, b, c: f"  {_seat(a)} bluffs a Wild Draw Four",
    L.EV_WAR_SHOW: lambda a, b, c: f"  war: {_seat(a)} shows a {b}",
    L.EV_WAR_WIN: lambda a, b, c: "  war: nobody wins" if a < 0 else f"  war: {_seat(a)} wins",
    L.EV_RACE_WIN: lambda a, b, c: f"  {_seat(a)} wins the UNO Spin race",
    L.EV_TWO_X: lambda a, b, c: "  2X is on: two cards a turn" if a else "  2X ends",
    L.EV_WEB_SWING: lambda a, b, c: (
        f"  web swing: nobody else holds {COLOURS[b]}"
        if c < 0
        else f"  web swing to {_seat(c)}: play continues after them"
    ),
    L.EV_NAME: lambda a, b, c: f"  {_seat(a)} names " + (COLOURS[c] if b == 0 else f"number {c}"),
    L.EV_PENALTY_ON: lambda a, b, c: f"  {_seat(a)} faces a penalty of {b} cards: stack or take it",
    L.EV_PENALTY_TAKE: lambda a, b, c: f"  {_seat(a)} takes the penalty: draws {b}",
    L.EV_STACK_CHALLENGE: lambda a, b, c: (
        f"  {_seat(a)} challenges the Wild Draw Four of {_seat(b)}: "
        + (
            "illegal: the player draws 4"
            if c
            else "legal: the challenger draws the penalty and 2 more"
        )
    ),
}


#: EV_SEARCH's b (layout.SEARCH_VALUE_*) -> what a candidate's value is, said once per decision
_VALUE_TEXT = {
    L.SEARCH_VALUE_WIN: "value: share of rollouts won",
    L.SEARCH_VALUE_CUTOFF: "value: rollouts won, or the hand-size score where cut off",
    L.SEARCH_VALUE_RACE: "value: mean points won (race match)",
    L.SEARCH_VALUE_LOWEST: "value: minus the mean points kept (lowest match)",
}


def _candidate_text(mode: int, a: int, b: int, c: int) -> str:
    """One line of ``play --explain``: candidate first move ``a`` (-1: draw), its colour,
    chosen flag and rollouts packed in ``b``, and the sum of its results ``c``
    (layout.EV_CANDIDATE)."""
    from ..engine.search import SEARCH_SCALE

    colour, chosen, n = b % 8, (b // 8) % 2, b // 16
    move = "draw" if a < 0 else f"play {kind_name(a)}"
    if a >= FIRST_WILD:
        move += f" naming {COLOURS[colour - 1]}" if colour else " (heuristic's colour)"
    if n == 0:
        value = "not rolled out"
    else:
        mean = c / n / (SEARCH_SCALE if mode == L.SEARCH_VALUE_CUTOFF else 1)
        fmt = ".3f" if mode in (L.SEARCH_VALUE_WIN, L.SEARCH_VALUE_CUTOFF) else ".1f"
        value = f"{mean:{fmt}} over {n} rollout{'' if n == 1 else 's'}"
    return f"    {move}: {value}" + ("  <- chosen" if chosen else "")


def render(events: np.ndarray, state, rules, bots) -> str:
    """Text of one game from its event log (see :func:`unospin_sim.run.trace`)."""
    np_ = rules.players
    hands = np.zeros((np_, N_KINDS), np.int64)
    lines = [f"rules: {rules}", "bots: " + ", ".join(f"seat {i}={b}" for i, b in enumerate(bots))]
    deal_done = False
    seat = _seat
    penalty, wd4 = rules.option("uno_penalty"), rules.option("wd4_draws")
    space_names = {rules.space_id(s): s for s in rules.wheel_spaces()}
    mode = L.SEARCH_VALUE_WIN  # the last EV_SEARCH's value kind (play --explain)
    explained: list[str] = []  # its lines, printed under the next turn's line

    for code, a, b, c in events.tolist():
        if code == L.EV_DEAL:
            hands[a, b] += 1
            continue
        if not deal_done:
            deal_done = True
            lines.append(f"dealer: seat {np_ - 1}; dealt {int(hands.sum()) // np_} cards each")
        if code in _TEXT:
            lines.append(_TEXT[code](a, b, c))
        elif code == L.EV_SPIN:  # a variant's space by the rule set's name
            lines.append(f"  {seat(a)} spins the wheel: {space_names.get(b, b)}")
        elif code == L.EV_PENALTY:  # the rule options' numbers (uno_penalty, wd4_draws)
            lines.append(f"  {seat(a)} draws {penalty} for not calling UNO")
        elif code == L.EV_CHALLENGE:
            lines.append(
                f"  {seat(a)} challenges the Wild Draw Four of {seat(b)}: "
                + (
                    f"illegal: the player draws {wd4}"
                    if c
                    else f"legal: the challenger draws {wd4 + 2}"
                )
            )
        elif code == L.EV_TURN:
            lines.append("")
            lines.append(f"turn {b}: {seat(a)} holds [{_hand_text(hands[a])}]")
            lines += explained  # the search decision made for this turn (play --explain)
            explained = []
        elif code == L.EV_PLAY:
            hands[a, b] -= 1
            lines.append(f"  {seat(a)} plays {kind_name(b)}")
        elif code == L.EV_DRAW:
            hands[a, b] += 1
            lines.append(f"  {seat(a)} draws {kind_name(b)}")
        elif code == L.EV_WHEEL_DISCARD:
            hands[a, b] -= 1
            where = "under the discard pile" if c else "onto the discard pile"
            lines.append(f"  {seat(a)} discards {kind_name(b)} {where}")
        elif code == L.EV_SHOW_HAND:
            lines.append(f"  {seat(a)} shows [{_hand_text(hands[a])}]")
        elif code == L.EV_TRADE:
            hands[:] = np.roll(hands, 1 if a == 0 else -1, axis=0)
            way = "clockwise" if a == 0 else "counter-clockwise"
            lines.append(f"  every hand passes one seat {way}")
        elif code == L.EV_GIVE:
            hands[a, b] -= 1
            hands[c, b] += 1
            lines.append(f"  {seat(a)} gives {kind_name(b)} to {seat(c)}")
        elif code == L.EV_SWAP:
            hands[[a, b]] = hands[[b, a]]
            lines.append(f"  {seat(a)} swaps hands with {seat(b)}")
        elif code == L.EV_ZERO_PASS:
            hands[:] = np.roll(hands, 1 if a > 0 else -1, axis=0)
            way = "clockwise" if a > 0 else "counter-clockwise"
            lines.append(f"  every hand passes one seat {way}")
        elif code == L.EV_SHUFFLE:
            hands[:] = 0
            lines.append(f"  every hand is collected, shuffled and dealt again from {seat(b)}")
        elif code == L.EV_REDEAL:
            hands[a, b] += 1
        elif code == L.EV_SEARCH:  # decided before its turn's line: printed after it
            mode = b
            explained.append(f"  {seat(a)} (search) weighs {c} first moves ({_VALUE_TEXT[b]}):")
        elif code == L.EV_CANDIDATE:
            explained.append(_candidate_text(mode, a, b, c))
        elif code == L.EV_JUMP_IN:
            lines.append("")
            lines.append(
                f"jump-in: {seat(a)} holds [{_hand_text(hands[a])}] and plays "
                f"{kind_name(b)} out of turn"
            )
        elif code == L.EV_WIN:
            lines.append("")
            if rules.option("match") == "lowest":  # no points to the winner
                lines.append(
                    f"{seat(a)} wins the round: under match=lowest every player adds the "
                    f"points left in their own hand, the winner none"
                )
            else:
                lines.append(f"{seat(a)} wins the round and scores {b} points")
            if rules.partners:
                teams = np_ // 2
                pts = rules.points()
                opp = sum(int(hands[q] @ pts) for q in range(np_) if q % teams != a % teams)
                lines.append(
                    f"team {a % teams} (seats {a % teams} and {a % teams + teams}) "
                    f"scores the opponents' cards: {opp} points"
                )
        elif code == L.EV_CAP:
            lines.append("")
            lines.append("turn cap reached: the round is unfinished")
        else:  # pragma: no cover - a new event code without text
            raise ValueError(f"unknown event code {code}")
    lines += explained
    lines.append("final hands:")
    for p in range(np_):
        n = int(hands[p].sum())
        lines.append(f"  {seat(p)}: {n} card{'' if n == 1 else 's'} [{_hand_text(hands[p])}]")
    if not np.array_equal(hands, state.hand[:np_, :N_KINDS]):
        raise AssertionError("event log and final state disagree about the hands")
    return "\n".join(lines) + "\n"


def play_text(
    rules,
    bots="random",
    seed: int = 0,
    game: int = 0,
    rotate_bots: bool = False,
    explain: bool = False,
) -> str:
    """One game, turn by turn, as text.

    Parameters
    ----------
    rules : RuleSet or str
    bots : str or sequence of BotSpec
    seed, game : int
        The run seed and the game index: the same game as row ``game`` of
        ``simulate(rules, bots, games > game, seed)``.
    rotate_bots : bool
        As in :func:`unospin_sim.simulate`: seat ``s`` holds player ``(s + game) mod N``.
    explain : bool
        Also print, at each decision of a ``search`` seat, every candidate first move's
        estimated value and the rollouts it ran (the game played is the same).
    """
    from ..errors import UserError
    from . import trace

    events, state, rules, specs = trace(
        rules, bots, seed, game, rotate_bots=rotate_bots, explain=explain
    )
    if len(events) >= L.LOG_ROWS_TRACE:
        raise UserError(
            f"round {game} is too long to print (over {L.LOG_ROWS_TRACE:,} events): "
            f"lower the turn cap"
        )
    n = len(specs)
    seated = [specs[(s + game) % n] for s in range(n)] if rotate_bots else list(specs)
    return render(events, state, rules, seated)


def match_text(rules, bots="random", seed: int = 0, match: int = 0, explain: bool = False) -> str:
    """One whole match (rule option ``match=race`` or ``lowest``), round by round, as text:
    every round turn by turn as :func:`play_text` prints it, then each player's running score.

    The same match as row ``match`` of ``simulate(rules, bots, games > match, seed).matches``:
    its round ``j`` is played from the stream of (stream of (seed, match), j) with the deal
    passed ``j`` seats (seat ``s`` holds player ``(s + j) mod N``), as ``play_match_chunk``
    plays it; here every round is traced on its own and scored by ``engine.match`` (the
    scoring the engine's match loop compiles) from the round's traced final hands, so the
    text is a second account of the engine's match table. Under the house rule
    ``partners`` players ``t`` and ``t + N/2`` are team ``t``: the round's winning team
    scores the opponents' cards (as the round's text says) and both partners carry the
    team's score.
    """
    from ..engine import kernel
    from ..engine.encode import encode
    from ..engine.match import add_round, match_winner
    from ..engine.rng import game_seed
    from ..errors import UserError
    from ..results import MAX_MATCH_ROUNDS
    from .inputs import as_bots, as_rules, check_int

    rules = as_rules(rules)
    if rules.option("match") not in ("race", "lowest"):
        raise UserError(f"match_text needs rules with match=race or match=lowest, got {rules}")
    lowest = rules.option("match") == "lowest"
    specs = as_bots(bots, rules.players)
    seed = check_int("seed", seed, 0)
    match = check_int("match", match, 0)
    n, target = rules.players, rules.option("target")
    teams = rules.teams or 0
    ki = encode(rules, specs)
    # the match's stream, as the kernel's int64 argument (same 64 bits)
    mseed = int(np.uint64(game_seed(np.uint64(seed), np.uint64(match))).view(np.int64))
    score = np.zeros(n, np.int64)
    pts = np.asarray(rules.points(), np.int64)
    lines = [
        f"match {match} of run seed {seed}: {rules}",
        f"bots: {', '.join(map(str, specs))}",
        "",
    ]
    for j in range(MAX_MATCH_ROUNDS):
        events, state = kernel.trace_game(*ki.args(), mseed, j, L.LOG_ROWS_TRACE, True, explain)
        seated = [specs[(s + j) % n] for s in range(n)]
        lines.append(f"=== round {j}: seat s holds player (s + {j}) mod {n}")
        text = render(events, state, rules, seated).rstrip("\n")
        lines.append(text)
        won = -1
        for code, a, b, _ in events:
            if code == L.EV_WIN:
                won, got = int(a), int(b)
        left = state.hand[:n, :N_KINDS] @ pts
        add_round(score, lowest, teams, j, won, left, got if won >= 0 else 0)
        lines.append(
            "scores after round "
            + str(j)
            + ": "
            + ", ".join(f"player {i} {score[i]}" for i in range(n))
        )
        lines.append("")
        best = match_winner(score, lowest, target)
        if best >= 0:
            who = f"team {best} (players {best} and {best + teams})" if teams else f"player {best}"
            total = "the lowest total, " if lowest else ""
            lines.append(
                f"{who} wins the match with {total}{score[best]} points after {j + 1} rounds"
            )
            return "\n".join(lines) + "\n"
    raise UserError(f"match {match} did not end within {MAX_MATCH_ROUNDS} rounds")
