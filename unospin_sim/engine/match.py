"""Match scoring: what one round adds to a match's running scores, and when a match is won.

The one home of the rule (rule options ``match``, ``target`` and ``partners``), written in
the subset of Python numba compiles: the compiled match loop (``chunk.play_match_chunk``)
calls them compiled (``chunk.py`` applies ``jit.hot``), and the race analysis, which
assembles matches from single rounds (``analysis/race.py``), and the text of a whole match
(``playthrough.match_text``) call the same functions as plain Python, without importing
numba.

Scores are kept per player. In round ``j`` of a match the deal has passed ``j`` seats: seat
``s`` holds player ``(s + shift) mod N`` with ``shift = j`` (an analysis of rotated single
rounds passes the round's game number instead).

- ``race``: the round's winner scores the points left in the other hands; the first player
  to reach the target wins the match (two at once: the higher score, then the lower player
  number).
- ``lowest``: every player adds the points left in their own hand; once someone passes the
  target (more than it), the lowest total wins (ties: the lower player number).
- ``partners`` (race only): players ``t`` and ``t + N/2`` are team ``t``; the winning team
  scores the points left in the opponents' hands and both partners carry the team's score,
  so the match's winner is the team's lower player number ``t``.

An unfinished round (turn cap) scores nothing.
"""


def add_round(score, lowest, teams, shift, winner, left, winner_points):
    """Add one round to the running scores, in place.

    Parameters
    ----------
    score : int64[N]
        Running scores by player.
    lowest : bool
        Match mode ``lowest`` (else ``race``).
    teams : int
        ``N // 2`` under ``partners``, else 0.
    shift : int
        Seat ``s`` holds player ``(s + shift) mod N``.
    winner : int
        The winning seat, -1 for an unfinished round (which scores nothing).
    left : int64[N]
        Points left in each seat's hand after the round.
    winner_points : int
        The points the winner scores in a race: the cards left in the other hands.
    """
    n = score.shape[0]
    if winner < 0:
        return
    if lowest:
        for q in range(n):
            score[(q + shift) % n] += left[q]
    elif teams > 0:
        got = 0
        for q in range(n):
            if q % teams != winner % teams:
                got += left[q]
        for q in range((winner + shift) % n % teams, n, teams):
            score[q] += got
    else:
        score[(winner + shift) % n] += winner_points


def match_winner(score, lowest, target):
    """The player who has won the match on ``score`` (int64[N]), or -1 while it goes on."""
    n = score.shape[0]
    best = 0
    for q in range(1, n):
        if score[q] > score[best]:
            best = q
    if lowest:
        if score[best] > target:
            low = 0
            for q in range(1, n):
                if score[q] < score[low]:
                    low = q
            return low
        return -1
    if score[best] >= target:
        return best
    return -1
