"""``play --explain``: a search seat's decision written to the event log.

Only a traced game with ``explain`` on (``s[S_EXPLAIN]``) writes these rows; runs, replays
and the golden playthroughs never do, so their results and logs are unchanged.
"""

from .events import ev
from .jit import hot
from .layout import EV_CANDIDATE, EV_SEARCH, S_EXPLAIN, W_DIF


@hot
def explain_decision(st, w, n_c, p, best, best_col, mode):
    """Write seat p's decision from ``decide``'s work area ``w`` (``n_c`` candidates): one
    EV_SEARCH row (``mode``: layout.SEARCH_VALUE_*), then per candidate its first card,
    colour, whether it is the move chosen (``best``, ``best_col``), the rollouts it ran and
    the sum of their results (layout.EV_CANDIDATE)."""
    if st.s[S_EXPLAIN] == 0:
        return
    ev(st, EV_SEARCH, p, mode, n_c)
    chosen_done = False
    for c in range(n_c):
        chosen = 0
        if not chosen_done and w[c, 1] != 0 and w[c, 0] == best and w[W_DIF + c, 2] == best_col:
            chosen = 1
            chosen_done = True
        ev(st, EV_CANDIDATE, w[c, 0], w[W_DIF + c, 2] + 8 * chosen + 16 * w[W_DIF + c, 3], w[c, 2])
