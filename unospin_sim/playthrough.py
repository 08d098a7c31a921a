"""Render one game's event log as text: `python -m unospin_sim play` and the golden files.

The text is rebuilt from the kernel's event log alone: the hands printed before every turn
are tracked here from the deal, draws, plays, discards and hand moves, and checked at the
end against the kernel's final state, so a playthrough is also a consistency check.
"""

from __future__ import annotations

import numpy as np

from .engine import layout as L
from .rules.cards import COLOURS, N_KINDS, kind_name
from .rules.spaces import SPACE_NAMES


def _hand_text(counts: np.ndarray) -> str:
    names = []
    for k in np.nonzero(counts)[0]:
        names += [kind_name(int(k))] * int(counts[k])
    return ", ".join(names) if names else "(empty)"


def render(events: np.ndarray, state, rules, bots) -> str:
    """Text of one game from its event log (see :func:`unospin_sim.run.trace`)."""
    np_ = rules.players
    hands = np.zeros((np_, N_KINDS), np.int64)
    lines = [f"rules: {rules}", "bots: " + ", ".join(f"seat {i}={b}" for i, b in enumerate(bots))]
    deal_done = False

    def seat(p):
        return f"seat {p}"

    for code, a, b, c in events.tolist():
        if code == L.EV_DEAL:
            hands[a, b] += 1
            continue
        if not deal_done:
            deal_done = True
            lines.append(f"dealer: seat {np_ - 1}; dealt {L.HAND_SIZE} cards each")
        if code == L.EV_SET_ASIDE:
            lines.append(f"first card {kind_name(a)} is set aside and goes back into the pile")
        elif code == L.EV_FIRST:
            lines.append(f"first card: {kind_name(a)}")
        elif code == L.EV_TURN:
            lines.append("")
            lines.append(f"turn {b}: {seat(a)} holds [{_hand_text(hands[a])}]")
        elif code == L.EV_PLAY:
            hands[a, b] -= 1
            lines.append(f"  {seat(a)} plays {kind_name(b)}")
        elif code == L.EV_COLOUR:
            lines.append(f"  {seat(a)} names {COLOURS[b]}")
        elif code == L.EV_DRAW:
            hands[a, b] += 1
            lines.append(f"  {seat(a)} draws {kind_name(b)}")
        elif code == L.EV_DRAW_FAIL:
            lines.append(f"  {seat(a)} cannot draw: no card left")
        elif code == L.EV_RESHUFFLE:
            if b:  # rlcard: the top card goes too (it still sets what to match)
                lines.append(f"  the discard pile ({a} cards, the top card included) becomes "
                             f"the draw pile")
            else:
                lines.append(f"  the discard pile ({a} cards under the top) becomes the draw "
                             f"pile")
        elif code == L.EV_SKIPPED:
            lines.append(f"  {seat(a)} is skipped")
        elif code == L.EV_REVERSE:
            lines.append("  direction is now " + ("clockwise" if a > 0 else "counter-clockwise"))
        elif code == L.EV_UNO:
            lines.append(f"  {seat(a)} calls UNO")
        elif code == L.EV_FORGET:
            lines.append(f"  {seat(a)} forgets to call UNO")
        elif code == L.EV_CAUGHT:
            lines.append(f"  {seat(b)} catches {seat(a)}")
        elif code == L.EV_PENALTY:
            lines.append(f"  {seat(a)} draws 2 for not calling UNO")
        elif code == L.EV_CHALLENGE:
            verdict = "illegal: the player draws 4" if c else "legal: the challenger draws 6"
            lines.append(f"  {seat(a)} challenges the Wild Draw Four of {seat(b)}: {verdict}")
        elif code == L.EV_BLUFF:
            lines.append(f"  {seat(a)} bluffs a Wild Draw Four")
        elif code == L.EV_SPIN:
            lines.append(f"  {seat(a)} spins the wheel: {SPACE_NAMES[b]}")
        elif code == L.EV_WHEEL_DISCARD:
            hands[a, b] -= 1
            where = "under the discard pile" if c else "onto the discard pile"
            lines.append(f"  {seat(a)} discards {kind_name(b)} {where}")
        elif code == L.EV_SHOW_HAND:
            lines.append(f"  {seat(a)} shows [{_hand_text(hands[a])}]")
        elif code == L.EV_WAR_SHOW:
            lines.append(f"  war: {seat(a)} shows a {b}")
        elif code == L.EV_WAR_WIN:
            lines.append("  war: nobody wins" if a < 0 else f"  war: {seat(a)} wins")
        elif code == L.EV_RACE_WIN:
            lines.append(f"  {seat(a)} wins the UNO Spin race")
        elif code == L.EV_TRADE:
            hands[:] = np.roll(hands, 1, axis=0)
            lines.append("  every hand passes one seat clockwise")
        elif code == L.EV_SWAP:
            hands[[a, b]] = hands[[b, a]]
            lines.append(f"  {seat(a)} swaps hands with {seat(b)}")
        elif code == L.EV_TWO_X:
            lines.append("  2X is on: two cards a turn" if a else "  2X ends")
        elif code == L.EV_WEB_SWING:
            if c < 0:
                lines.append(f"  web swing: nobody else holds {COLOURS[b]}")
            else:
                lines.append(f"  web swing to {seat(c)}: play continues after them")
        elif code == L.EV_NAME:
            what = COLOURS[c] if b == 0 else f"number {c}"
            lines.append(f"  {seat(a)} names {what}")
        elif code == L.EV_PENALTY_ON:
            lines.append(f"  {seat(a)} faces a penalty of {b} cards: stack or take it")
        elif code == L.EV_PENALTY_TAKE:
            lines.append(f"  {seat(a)} takes the penalty: draws {b}")
        elif code == L.EV_STACK_CHALLENGE:
            verdict = ("illegal: the player draws 4" if c else
                       "legal: the challenger draws the penalty and 2 more")
            lines.append(f"  {seat(a)} challenges the Wild Draw Four of {seat(b)}: {verdict}")
        elif code == L.EV_ZERO_PASS:
            hands[:] = np.roll(hands, 1 if a > 0 else -1, axis=0)
            way = "clockwise" if a > 0 else "counter-clockwise"
            lines.append(f"  every hand passes one seat {way}")
        elif code == L.EV_SHUFFLE:
            hands[:] = 0
            lines.append(f"  every hand is collected, shuffled and dealt again from {seat(b)}")
        elif code == L.EV_REDEAL:
            hands[a, b] += 1
        elif code == L.EV_JUMP_IN:
            lines.append("")
            lines.append(f"jump-in: {seat(a)} holds [{_hand_text(hands[a])}] and plays "
                         f"{kind_name(b)} out of turn")
        elif code == L.EV_WIN:
            lines.append("")
            lines.append(f"{seat(a)} wins the round and scores {b} points")
            if rules.partners:
                teams = np_ // 2
                pts = rules.points()
                opp = sum(int(hands[q] @ pts) for q in range(np_) if q % teams != a % teams)
                lines.append(f"team {a % teams} (seats {a % teams} and {a % teams + teams}) "
                             f"scores the opponents' cards: {opp} points")
        elif code == L.EV_CAP:
            lines.append("")
            lines.append("turn cap reached: the round is unfinished")
        else:  # pragma: no cover - a new event code without text
            raise ValueError(f"unknown event code {code}")
    lines.append("final hands:")
    for p in range(np_):
        n = int(hands[p].sum())
        lines.append(f"  {seat(p)}: {n} card{'' if n == 1 else 's'} [{_hand_text(hands[p])}]")
    if not np.array_equal(hands, state.hand[:np_, :N_KINDS]):
        raise AssertionError("event log and final state disagree about the hands")
    return "\n".join(lines) + "\n"


def play_text(rules, bots="random", seed: int = 0, game: int = 0,
              rotate_bots: bool = False) -> str:
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
    """
    from .errors import UserError
    from .run import trace
    events, state, rules, specs = trace(rules, bots, seed, game, rotate_bots=rotate_bots)
    if len(events) >= L.LOG_ROWS_TRACE:
        raise UserError(f"round {game} is too long to print (over {L.LOG_ROWS_TRACE:,} events): "
                        f"lower the turn cap")
    n = len(specs)
    seated = [specs[(s + game) % n] for s in range(n)] if rotate_bots else list(specs)
    return render(events, state, rules, seated)


def match_text(rules, bots="random", seed: int = 0, match: int = 0) -> str:
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
    from .engine import kernel
    from .engine.encode import encode
    from .engine.match import add_round, match_winner
    from .engine.rng import game_seed
    from .errors import UserError
    from .results import MAX_MATCH_ROUNDS
    from .run.inputs import as_bots, as_rules, check_int

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
    lines = [f"match {match} of run seed {seed}: {rules}", f"bots: {', '.join(map(str, specs))}",
             ""]
    for j in range(MAX_MATCH_ROUNDS):
        events, state = kernel.trace_game(*ki.args(), mseed, j, L.LOG_ROWS_TRACE, True)
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
        lines.append("scores after round " + str(j) + ": "
                     + ", ".join(f"player {i} {score[i]}" for i in range(n)))
        lines.append("")
        best = match_winner(score, lowest, target)
        if best >= 0:
            who = (f"team {best} (players {best} and {best + teams})" if teams else
                   f"player {best}")
            lines.append(f"{who} wins the match with {score[best]} points "
                         f"after {j + 1} rounds")
            return "\n".join(lines) + "\n"
    raise UserError(f"match {match} did not end within {MAX_MATCH_ROUNDS} rounds")
