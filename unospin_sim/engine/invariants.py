"""The invariant check (rule option ``check``, tests): every card in exactly one place."""

from ..rules.card_codes import KIND_COLOUR, N_KINDS
from .jit import hot
from .layout import (
    CC,
    DISC,
    HSIZE,
    PILE,
    R_DECK_N,
    S_COLOUR,
    S_DISC_N,
    S_DRAW_N,
    S_NP,
    S_PEN_N,
    S_TOP,
    S_TOP_OUT,
    S_VIOLATIONS,
    TMP,
)


@hot
def check_invariants(st, r, deck):
    """Count a violation unless every card of the deck is in exactly one place (hands, draw
    pile, discards, the top card unless ``S_TOP_OUT`` says it went into the draw pile),
    every seat's colour counts and size agree with its cards, no count is negative, the
    colour in play is a colour and no penalty is negative."""
    s = st.s
    np_ = s[S_NP]
    bad = 0
    # per-kind totals: deck minus (hands + draw pile + discards + top) must be all zero;
    # TMP is free between actions, use it as the tally
    t = st.cards
    for k in range(N_KINDS):
        t[TMP + k] = 0
    for i in range(r[R_DECK_N]):
        t[TMP + deck[i]] += 1
    for i in range(s[S_DRAW_N]):
        t[TMP + t[PILE + i]] -= 1
    for i in range(s[S_DISC_N]):
        t[TMP + t[DISC + i]] -= 1
    if s[S_TOP_OUT] == 0:
        t[TMP + s[S_TOP]] -= 1
    for p in range(np_):
        size = 0
        for c in range(5):
            n = 0
            for k in range(N_KINDS):
                if KIND_COLOUR[k] == c:
                    n += st.hand[p, k]
            if n != st.hand[p, CC + c]:
                bad += 1
            size += n
        if size != st.hand[p, HSIZE]:
            bad += 1
        for k in range(N_KINDS):
            if st.hand[p, k] < 0:
                bad += 1
            t[TMP + k] -= st.hand[p, k]
    for k in range(N_KINDS):
        if t[TMP + k] != 0:
            bad += 1
    if s[S_COLOUR] < 0 or s[S_COLOUR] > 3:
        bad += 1
    if s[S_PEN_N] < 0:
        bad += 1
    s[S_VIOLATIONS] += bad
