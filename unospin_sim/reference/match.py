"""The reference engine's runs: many rounds (``play_many``, ``play_many_spins``) and
matches (``play_match``, ``play_many_matches``; docs/HOUSE_RULES.md "Match mode")."""

from __future__ import annotations

import hashlib
import operator

from .cards import WHEELS
from .options import MatchOptions, Options
from .round import play_round


def round_seed(seed, game):
    """The integer seed of game ``game`` of a run with seed ``seed``."""
    digest = hashlib.sha256(f"unospin_sim.reference:{seed}:{game}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def _rows(edition, players, games, seed, options, bots):
    if options is None:
        options = Options()
    spaces = WHEELS.get(edition, ())
    rounds, spins = [], []
    for g in range(games):
        s = round_seed(seed, g)
        res = play_round(edition, players, s, options, bots)
        row = {
            "game": g,
            "seed": s,
            "first_player": res["first_player"],
            "winner": res["winner"],
            "turns": res["turns"],
            "winner_points": res["winner_points"],
            "cards_drawn": sum(res["cards_drawn"]),
            "failed_draws": res["failed_draws"],
            "spins": sum(res["spins"].values()),
        }
        for key in ("cards_drawn", "cards_left", "points_left"):
            for i in range(players):
                row[f"{key}_{i}"] = res[key][i]
        for sp in spaces:
            row[f"spins_{sp}"] = res["spins"][sp]
        if options.jump_in:
            row["jump_ins"] = sum(res["jump_ins"])
            for i in range(players):
                row[f"jump_ins_{i}"] = res["jump_ins"][i]
        if options.partners:
            teams = players // 2
            w = res["winner"]
            row["team_winner"] = w % teams if w >= 0 else -1
            row["team_points"] = (
                sum(pt for i, pt in enumerate(res["points_left"]) if i % teams != w % teams)
                if w >= 0
                else 0
            )
        rounds.append(row)
        for rec in res["spin_records"]:
            spins.append(dict(game=g, **rec))
    return rounds, spins


def play_many(edition, players, games, seed, options=None, bots=None):
    """Play ``games`` independent rounds; game g uses ``round_seed(seed, g)``.

    Returns a DataFrame with one row per round: game, seed, first_player, winner,
    turns, winner_points, cards_drawn (total), failed_draws, spins (total), then
    cards_drawn_<i>, cards_left_<i>, points_left_<i> for every seat and
    spins_<space> for every space of the edition's wheel; under ``jump_in`` then
    jump_ins and jump_ins_<i>; under ``partners`` then team_winner and team_points.
    ``options`` and ``bots`` as :func:`play_round`'s.
    """
    import pandas as pd

    rounds, _ = _rows(edition, players, games, seed, options, bots)
    return pd.DataFrame(rounds)


#: the match modes this module plays (docs/HOUSE_RULES.md "Match mode")
MATCH_MODES = ("race", "lowest")


def match_seed(seed, match):
    """The integer seed of match ``match`` of a run with seed ``seed``; round j of that match
    plays ``round_seed(match_seed(seed, match), j)``."""
    digest = hashlib.sha256(f"unospin_sim.reference.match:{seed}:{match}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def play_match(edition, players, seed, match=None, options=None, bots=None):
    """Play one match (docs/HOUSE_RULES.md "Match mode"); returns a dict.

    The deal passes one seat clockwise each round: in round j (from 0) player i (the i-th
    bot of ``bots``) sits at seat (i - j) mod N, so player j mod N sits at seat 0, the seat
    that takes a round's first turn (before first-card effects). ``match``: a
    :class:`~unospin_sim.reference.options.MatchOptions` (None: a race to 500) with the
    fields ``match``, ``target`` and ``max_rounds``. ``match="race"``: the
    round's winner scores the points left in the other hands and the first player to reach
    ``target`` (or more) wins. ``match="lowest"``: every player adds the points left in
    their own hand, and when some total passes ``target`` (is more than it) the lowest
    total wins, the lowest player number on ties. A round cut off by the turn cap scores
    nothing. A match still running after ``max_rounds`` rounds ends with winner -1.
    Under ``partners=True`` (races only) players t and t + N/2 are team t: the winning team
    scores the points left in the two opponents' hands, both partners carry the team's
    score and the match's ``winner`` is the team number t.

    Returns ``rounds`` (rounds played), ``turns`` (over all rounds), ``winner`` (a player,
    a team under partners, or -1), ``scores`` (per player) and ``round_results`` (one dict
    per round: ``winner`` and ``first_player`` as PLAYERS, ``points_left`` per player,
    ``turns`` and ``scores`` after the round). ``options``: the rounds' rule options, as
    :func:`play_round`'s.
    """
    spec = MatchOptions() if match is None else match
    if not isinstance(spec, MatchOptions):
        raise TypeError(f"match must be a reference MatchOptions, got {spec!r}")
    options = Options() if options is None else options
    if not isinstance(options, Options):
        raise TypeError(f"options must be a reference Options, got {options!r}")
    match, target, max_rounds = spec.match, spec.target, spec.max_rounds
    if match not in MATCH_MODES:
        raise ValueError(f"match must be one of {MATCH_MODES}, got {match!r}")
    target, max_rounds = operator.index(target), operator.index(max_rounds)
    if target < 1 or max_rounds < 1:
        raise ValueError("target and max_rounds must be >= 1")
    partners = bool(options.partners)
    if partners and match != "race":
        raise ValueError("partners matches are races (a lowest match for teams is not defined)")
    n = players
    if bots is None:
        bots = [{}] * n
    bots = list(bots)
    if len(bots) != n:
        raise ValueError(f"need {n} bots, got {len(bots)}")
    half = n // 2
    scores = [0] * n
    turns = 0
    winner = -1
    history = []
    for j in range(max_rounds):
        # seat s holds player (s + j) mod N
        seated = [bots[(s + j) % n] for s in range(n)]
        res = play_round(edition, n, round_seed(seed, j), options, seated)
        turns += res["turns"]
        player_of = [(s + j) % n for s in range(n)]
        points = [0] * n
        for s in range(n):
            points[player_of[s]] = res["points_left"][s]
        w = player_of[res["winner"]] if res["winner"] >= 0 else -1
        if w >= 0:
            if match == "lowest":
                for i in range(n):
                    scores[i] += points[i]
            elif partners:
                team = w % half
                won = sum(points[i] for i in range(n) if i % half != team)
                scores[team] += won
                scores[team + half] += won
            else:
                scores[w] += sum(points) - points[w]
        history.append(
            {
                "winner": w,
                "first_player": player_of[res["first_player"]],
                "points_left": points,
                "turns": res["turns"],
                "scores": list(scores),
            }
        )
        if match == "lowest":
            if max(scores) > target:
                winner = min(range(n), key=lambda i: (scores[i], i))
                break
        elif max(scores) >= target:
            winner = scores.index(max(scores))  # team t: the lower of the pair
            break
    return {
        "rounds": len(history),
        "turns": turns,
        "winner": winner,
        "scores": list(scores),
        "round_results": history,
    }


def play_many_matches(
    edition, players, matches, seed, match=None, options=None, bots=None, match0=0
):
    """Play matches ``match0 .. match0 + matches - 1``; match m plays
    ``play_match(..., match_seed(seed, m), ...)``. Returns a DataFrame with one row per
    match: match, rounds, turns, winner, score_<i> for every player (the engine's
    ``Results.matches`` columns). ``match``, ``options`` and ``bots``: as
    :func:`play_match`'s."""
    import pandas as pd

    rows = []
    for m in range(match0, match0 + matches):
        res = play_match(edition, players, match_seed(seed, m), match, options, bots)
        row = {"match": m, "rounds": res["rounds"], "turns": res["turns"], "winner": res["winner"]}
        for i in range(players):
            row[f"score_{i}"] = res["scores"][i]
        rows.append(row)
    return pd.DataFrame(
        rows,
        columns=["match", "rounds", "turns", "winner"] + [f"score_{i}" for i in range(players)],
    )


def play_many_spins(edition, players, games, seed, options=None, bots=None):
    """Like :func:`play_many` (same rounds for the same arguments) but returns
    ``(rounds, spins)``: ``spins`` has one row per wheel spin with columns game,
    turn, spinner, space, hand_before, hand_after, cards_drawn, cards_discarded, other,
    direction, leader."""
    import pandas as pd

    rounds, spins = _rows(edition, players, games, seed, options, bots)
    cols = [
        "game",
        "turn",
        "spinner",
        "space",
        "hand_before",
        "hand_after",
        "cards_drawn",
        "cards_discarded",
        "other",
        "direction",
        "leader",
    ]
    return pd.DataFrame(rounds), pd.DataFrame(spins, columns=cols)
