"""The game state as a struct of arrays, and the codes the kernel writes.

Everything here is a module constant, so numba compiles it in as a literal.
A game state is a :class:`State` named tuple of NumPy arrays (see the field
comments); one state is allocated per chunk of games and reused.
"""

from collections import namedtuple

from ..rules.card_codes import FIRST_WILD, N_KINDS
from ..rules.space_codes import N_PUBLISHED, N_SPACES  # N_PUBLISHED: re-exported

MAX_PLAYERS = 10
# >= the largest deck the rule options allow: 144 (spin2025 or spiderman with 4 of each action
# per colour, 8 Wilds and 8 Wild Draw Fours; tests/test_deck_copies.py checks every edition)
MAX_CARDS = 144
HAND_SIZE = 7  # the default of rule option hand_size (R_HAND_SIZE)
# --- the kernel's float rule array ``cum`` (encode.KernelInputs.wheel_cum) ------------------
#   0 .. N_SPACES-1   cumulative wheel weights over the global space ids
CUM_MOST = N_SPACES  # CUM_MOST + h: spin_aware's expected largest colour count of a hidden
#   hand of h cards (h = 0 .. MAX_CARDS), from the run's deck (encode.most_table)
N_CUM = CUM_MOST + MAX_CARDS + 1

State = namedtuple(
    "State",
    [
        "hand",  # int64[MAX_PLAYERS, SEAT_COLUMNS]: one row per seat, columns below
        "cards",  # int64[CARDS_COLUMNS]: card lists (kinds), slices below
        "s",  # int64[N_SCALARS]: scalar fields, indices S_* below
        "log",  # int64[rows, 4]: event log (code, a, b, c) when s[S_LOG_ON]
        "spinrec",  # int64[turn_cap + 1, N_SPIN_FIELDS]: this round's spin records
    ],
)
# Few, flat arrays on purpose: every call passes the State by value, so each extra array
# costs a copy of its descriptor per call.

# --- columns of State.hand (per seat) ----------------------------------------------------
#   0 .. N_KINDS-1   copies of each card kind in the hand
CC = N_KINDS  # CC + c: cards of colour c in the hand (c = 0-3), CC + 4: wild cards
HSIZE = CC + 5  # hand size
VOID = HSIZE + 1  # what a draw proves about this hand: it drew for want of a legal card, so
#   it holds no card of colour c (bit c, c = 0-3: colour c was in play), no
#   card of face f (bit VOID_FACE + f: the top card was coloured, of face f)
#   and, but for hoarder, no wild (bit WILD_COLOUR) (set by the turn for
#   every strategy but search, which may draw by choice: turn.mark_void);
#   true of the whole hand while TAKEN == VOID_AT (piles.known_void), then
#   of at least hand size - (TAKEN - VOID_AT) of its cards (the cards held
#   then); read by search's determinization (engine/determinize.py)
VOID_AT = VOID + 1  # TAKEN when VOID was set
VOID1 = VOID + 2  # the VOID before (bits as VOID, 0 = none), moved here by mark_void
VOID1_AT = VOID + 3  #   when it sets a VOID no longer true of the whole hand; and TAKEN then
VOID2 = VOID + 4  # the VOID1 before, older still (the three are nested: the cards old
VOID2_AT = VOID + 5  #   enough for VOID2 are old enough for VOID1); and TAKEN then
TAKEN = VOID + 6  # cards this hand took (piles.add_card; moves with the hand)
LAST_PLAY = VOID + 7  # the card (kind + 1; 0 = none) this hand's seat chose last at the
#   start of a turn, recorded in search loops only (turn.note_play);
#   valid while TAKEN == LAST_TAKEN and HSIZE == LAST_HS (the hand has
#   neither taken nor given up a card since: the hand then was this
#   hand and that card); read by search knob infer=3, which replays a
#   heuristic seat's choice on its dealt hands
LAST_TOP = VOID + 8  # the top card then
LAST_COLOUR = VOID + 9  # the colour in play then
LAST_SMALL = VOID + 10  # 1 when the next seat held 2 cards or fewer then
LAST_NAMED = VOID + 11  # the colour + 1 named for it, when a wild (0: none)
LAST_TAKEN = VOID + 12  # TAKEN after the play
LAST_HS = VOID + 13  # HSIZE after the play
LAST_BOT = VOID + 14  # the strategy id of the seat that chose it (a hand may change seats)
PREV_PLAY = VOID + 15  # the choice before LAST_PLAY (kind + 1; 0 = none), kept while the hand
#   changed only by giving up LAST_PLAY's card since: the hand then was
#   this hand, that card and LAST_PLAY's
PREV_TOP = VOID + 16  # its top card, colour in play, next seat small, colour named, chooser
PREV_COLOUR = VOID + 17
PREV_SMALL = VOID + 18
PREV_NAMED = VOID + 19
PREV_BOT = VOID + 20
VOID_FACE = 8  # bit VOID_FACE + f of VOID: no card of face f (faces 0-12)
VOID_COLOURS = 15  # the colour bits of VOID (search knob infer=0 reads only these)
HAND_FIELDS = VOID + 21  # columns that move with a hand (Swap / Trade Hands)
DRAWN = HAND_FIELDS  # cards drawn into this seat's hand this round
PEND = DRAWN + 1  # times caught not calling UNO this action: draws 2 each at its end
JUMPS = PEND + 1  # jump_in: times this seat jumped in this round (not turns)
WAR = JUMPS + 1  # WAR + v: scratch, number cards of value v during a War
SEAT_COLUMNS = WAR + 10

# --- slices of State.cards ------------------------------------------------------------------
PILE = 0  # draw pile: kinds in PILE .. PILE + s[S_DRAW_N] - 1, UNORDERED: a draw
#   takes a uniformly random slot (same law as the top of a shuffled pile)
DISC = MAX_CARDS  # discard pile UNDER the top card, unordered, DISC .. DISC + s[S_DISC_N] - 1
TMP = 2 * MAX_CARDS  # scratch list of kinds (wheel discards, set-aside first cards, War)
CARDS_COLUMNS = 3 * MAX_CARDS

# --- scalar fields of State.s --------------------------------------------------------
S_NP = 0  # number of players
S_DRAW_N = 1  # cards in the draw pile
S_DISC_N = 2  # cards in the discard pile under the top card
S_TOP = 3  # kind of the top discard
S_COLOUR = 4  # colour in play (0-3): the top card's, or the one named for a wild
S_CUR = 5  # seat to act next
S_DIR = 6  # +1 clockwise (increasing seat), -1 counter-clockwise
S_TURNS = 7  # turns taken (RULINGS "What a result counts")
S_WINNER = 8  # seat that emptied its hand, -1 while playing / unfinished
S_TWO_X = 9  # 1 while the 2025 wheel's 2X is in force
S_SPIN_NEXT = 10  # 1: the seat to act spins the 2005 wheel instead of its turn
S_FAILED = 11  # draws that found no card
S_FIRST = 12  # seat that took the first turn
S_LOG_N = 13  # events written to State.log
S_LOG_ON = 14  # 1 = write events
S_NSPIN = 15  # spin records written to State.spinrec
S_DISCARDED = 16  # scratch: cards the current spinner discarded by the wheel
S_SPINNER = 17  # seat spinning the wheel now
S_VIOLATIONS = 18  # invariant violations found (check mode only)
S_PENDING = 19  # 1 when some seat's UNO penalty (State.hand[:, PEND]) is pending
S_RNG = 20  # SplitMix64 state of this game's stream (uint64 bits)
S_TOP_OUT = 21  # rlcard only: 1 when the top card went into the draw pile at a reshuffle
#   (S_TOP / S_COLOUR still say what to match; the card is not on the table)
# stacking (docs/HOUSE_RULES.md): the pending penalty on the seat to act (S_CUR)
S_PEN_N = 22  # cards pending; 0 = no pending penalty (always 0 without stacking)
S_PEN_KIND = 23  # what stacks on it: WILD_DRAW_FOUR, or the Draw Two face (12) for any colour
S_PEN_BY = 24  # seat that played the last card of the penalty (the challenged one)
S_PEN_ILLEGAL = 25  # 1 when that last card is a Wild Draw Four played illegally (a bluff)
S_PEN_PASS = 26  # seats passed over when the penalty is taken (the victim first)
# jump_in (docs/HOUSE_RULES.md): always 0 without the house rule
S_JUMP_KIND = 27  # kind + 1 of the card just played that others may jump in on; 0 = none
S_JUMP_BY = 28  # seat that played it
S_JUMP_PLAY = 29  # kind + 1 the acting seat plays out of turn (a jump-in in progress); 0 = none
S_JUMPED = 30  # bit q set: seat q jumped in since turn S_JUMP_TURN (once between two turns)
S_JUMP_TURN = 31  # the turn count S_JUMPED belongs to
# partners (docs/HOUSE_RULES.md): seat p's partner is (p + S_TEAMS) % players
S_TEAMS = 32  # number of teams (players / 2) under partners; 0 = no teams
# search (engine/search.py, docs/BOTS.md): the decision of a search seat for one turn
S_SEARCH_ROLL = 33  # in a rollout's scratch state, the turn count (S_TURNS) at which the rollout is
# cut off (1 << 60: never; knob horizon); no seat asks for a search there
# (never yields); 0 = not a rollout
S_SEARCH_TURN = 34  # the turn number (S_TURNS, counted when the turn starts) the decision is for
S_SEARCH_MOVE = 35  # the decided first card of that turn (a kind), or -1: draw
S_SEARCH_HS = 36  # the seat's hand size when it decided (its 2X second card is not searched)
S_SEARCH_COLOUR = 37  # colour + 1 the seat names for the decided card when it is a wild (knob
# colours); 0 = the colour heuristic names
# the scratch state of search's rollouts has this many event-log rows (never a log there):
# decide's work area, W_DIF = N_KINDS + 2 + 3 * N_WILD_KINDS rows of candidates (a card kind,
# drawing, and a wild kind with each colour heuristic would not name), as many of paired
# differences (their column 2: the candidate's colour + 1, 0 = heuristic's; column 3: the
# rollouts the candidate ran), then the unseen
# cards from row W_POOL, four a row, then from row W_DEAL a rollout's deal (the dealt hands'
# HAND_FIELDS columns, seat by seat, the draw pile left, its size and the stream's state:
# determinize.save_deal), four values a row
W_DIF = N_KINDS + 2 + 3 * (N_KINDS - FIRST_WILD)
W_POOL = 2 * W_DIF
W_DEAL = W_POOL + MAX_CARDS // 4
SEARCH_WORK_ROWS = W_DEAL + (MAX_PLAYERS * HAND_FIELDS + MAX_CARDS + 2 + 3) // 4
S_SPIN_NONE = 38  # spins forced to the replay control NONE_SPACE this round (= S_SPIN0 - 1,
#   so that S_SPIN0 + NONE_SPACE counts them without a branch)
S_SPIN0 = 39  # S_SPIN0 + space: spins landing on each global wheel space this round
# paired replays (chunk.replay_spins; docs/ARCHITECTURE.md "Paired replays"): these two are
# the LAST scalars, which deal() does not reset, so a replay sets them once per round.
# 0 in S_FORCE_AT (a fresh or hand-built state) means no forcing.
S_FORCE_AT = S_SPIN0 + N_SPACES  # k + 1: the k-th spin of the round (from 0) is forced
S_FORCE_SPACE = S_FORCE_AT + 1  # ... to this global space id, or NONE_SPACE
# play --explain (trace_game's ``explain``; not reset by deal()): 1 = a search seat's
# decision also writes its candidates' values to the event log (EV_SEARCH, EV_CANDIDATE)
S_EXPLAIN = S_FORCE_SPACE + 1
N_SCALARS = S_EXPLAIN + 1
N_RESET_SCALARS = S_FORCE_AT  # deal() zeroes s[:N_RESET_SCALARS]
NONE_SPACE = -1  # the replay control: the spin happens (counted, 2X ends) but does nothing

# --- rule parameters (int64 array built by encode.py) --------------------------------
R_NP = 0  # players
R_TURN_CAP = 1  # turn cap
R_WILD_MATCHES = 2  # wild_matches_colour
R_WILD_STOPS = 3  # wild_stops_colour_draw
R_WHEEL = 4  # spaces.WHEEL_NONE / WHEEL_2005 / WHEEL_2025
R_FIRST_RULE = 5  # FIRST_ACTION_EFFECTS / FIRST_NUMBERS_ONLY
R_DECK_N = 6  # cards in the deck
R_CHECK = 7  # 1 = verify the invariants after every action (tests; slower)
R_RLCARD = 8  # 1 = RLCard 1.2.0's UNO rules (rule option rlcard, classic only)
R_STACKING = 9  # house rule stacking (docs/HOUSE_RULES.md)
R_DRAW_UNTIL = 10  # house rule draw_until_playable
R_SEVEN_O = 11  # house rule seven_o
R_HOUSE = 12  # 1 when any house rule is on: rounds run round.play_round_house;
#   derived by encode.py from rules/options.py's house flags, never
#   listed by hand (special_wilds has no parameter of its own: its kinds
#   are in the deck or not)
R_FORCE_PLAY = 13  # house rule force_play
R_MATCH = 14  # match mode: 0 single, 1 race, 2 lowest (options.py's domain order)
R_TARGET = 15  # match target (points)
R_JUMP_IN = 16  # house rule jump_in
R_PARTNERS = 17  # house rule partners
R_STACKED_WD4 = 18  # with stacking: 0 checked (a stacked WD4 follows the WD4 rule), 1 free
R_JUMP_WILDS = 19  # with jump_in: 1 = a wild may be jumped on with the identical wild
R_DRAW_TWO_N = 20  # cards a Draw Two makes draw (rule option draw_two_draws)
R_WD4_N = 21  # cards a Wild Draw Four makes draw (wd4_draws); a caught bluff: this many
R_UNO_PENALTY = 22  # cards drawn per caught UNO forgetting (uno_penalty)
R_HAND_SIZE = 23  # cards dealt to each player (hand_size)
R_PROGRAMS = 24  # where the wheel programs' table starts in r, 0 = none (program_codes.py)
N_RULE_PARAMS = 25
# every option of rules/options.py with a kernel parameter names its R_* index there
# (encode.py fills them from the table); R_WHEEL, R_FIRST_RULE, R_DECK_N, R_CHECK and R_HOUSE
# are derived from the edition, the deck or the run.
MATCH_SINGLE = 0
MATCH_RACE = 1
MATCH_LOWEST = 2

FIRST_ACTION_EFFECTS = 0  # classic, spin2005: WD4 back in, other actions act on the first player
FIRST_NUMBERS_ONLY = 1  # spin2025, spiderman: turn until a number card

# --- bot parameters (float64[players, N_BOT_COLUMNS], bot_codes.bots_array) ----------------------
# (the column layout belongs to bot_codes.bots_array; the strategy ids are bot_codes.STRATEGIES
# indices, and engine/policy/ dispatches on them)
from .bot_codes import (
    B_BLUFF,
    B_CATCH,
    B_CHALLENGE,
    B_COLOURS,
    B_EXTEND,
    B_FORGET,
    B_HORIZON,
    B_INFER,
    B_JUMP,
    B_PEEK,
    B_REFLEX,
    B_ROLLOUTS,
    B_STRATEGY,
    N_BOT_COLUMNS,
)

# --- per-round output row (int64[games, N_OUT_FIXED + N_SEAT_BLOCKS*players + N_SPACES]) ---
# fmt: off
(O_FIRST, O_WINNER, O_TURNS, O_WINNER_POINTS, O_CARDS_DRAWN, O_FAILED, O_SPINS, O_VIOLATIONS,
 O_JUMP_INS) = range(9)
# fmt: on
N_OUT_FIXED = 9
# then the per-seat blocks cards_drawn_<i>, cards_left_<i>, points_left_<i>, jump_ins_<i>
# (players columns each), then spins_<space> (global space ids)
N_SEAT_BLOCKS = 4


def n_out_columns(players: int) -> int:
    return N_OUT_FIXED + N_SEAT_BLOCKS * players + N_SPACES


# --- spin records ---------------------------------------------------------------------
# fmt: off
(P_GAME, P_TURN, P_SPINNER, P_SPACE, P_HAND_BEFORE, P_HAND_AFTER, P_DRAWN, P_DISCARDED, P_OTHER,
 P_DIR, P_LEADER) = range(11)
# fmt: on
# P_OTHER: the space's other party (2025 Swap Hands target, 2005 Trade Hands: the seat that
#   receives the spinner's hand, War winner, UNO Spin race winner), -1 if none;
# P_DIR: direction of play at the spin (+1 clockwise);
# P_LEADER: the seat holding strictly the fewest cards when the spin begins, -1 on a tie
N_SPIN_FIELDS = 11

# --- paired replays (chunk.replay_spins): one row per (sampled spin, forced space) -------
# fmt: off
(Q_WINNER, Q_WINNER_POINTS, Q_TURNS, Q_FOUND, Q_SPIN_TURN, Q_SPINNER, Q_SPACE, Q_DIR, Q_OTHER,
 Q_HAND_BEFORE, Q_HAND_AFTER) = range(11)
# fmt: on
# Q_FOUND: 1 when the round reached the spin (0: the game has fewer spins; the rest is -1)
# Q_SPIN_TURN .. Q_HAND_AFTER: that spin's record (P_TURN, P_SPINNER, ... of the replay)
N_REPLAY_FIELDS = 11

# --- event codes (State.log rows: code, a, b, c) ---------------------------------------
EV_DEAL = 1  # a=seat, b=kind
EV_FIRST = 2  # a=kind turned as the first discard
EV_SET_ASIDE = 3  # a=kind turned first and put back into the draw pile
EV_TURN = 4  # a=seat, b=turn number
EV_PLAY = 5  # a=seat, b=kind
EV_COLOUR = 6  # a=seat, b=colour named
EV_DRAW = 7  # a=seat, b=kind
EV_DRAW_FAIL = 8  # a=seat
EV_RESHUFFLE = 9  # a=cards moved from the discard pile to the draw pile, b=1 when the top
#   card went too (rlcard)
EV_SKIPPED = 10  # a=seat passed over
EV_REVERSE = 11  # a=new direction
EV_UNO = 12  # a=seat calls UNO
EV_FORGET = 13  # a=seat forgets UNO
EV_CAUGHT = 14  # a=forgetter, b=catcher
EV_PENALTY = 15  # a=seat draws the UNO penalty
EV_CHALLENGE = 16  # a=challenger, b=player of the WD4, c=1 if the WD4 was illegal
EV_BLUFF = 17  # a=seat plays WD4 illegally
EV_SPIN = 18  # a=spinner, b=space id
EV_WHEEL_DISCARD = 19  # a=seat, b=kind, c=1 to the bottom of the discard pile, 0 onto the top
EV_SHOW_HAND = 20  # a=seat
EV_WAR_SHOW = 21  # a=seat, b=number shown
EV_WAR_WIN = 22  # a=seat (-1: nobody)
EV_RACE_WIN = 23  # a=seat
EV_TRADE = 24  # every hand passed one seat: a=0 clockwise, -1 counter-clockwise
EV_SWAP = 25  # a=seat, b=seat
EV_TWO_X = 26  # a=1 on, 0 off
EV_WEB_SWING = 27  # a=seat, b=colour, c=target seat (-1 none)
EV_WIN = 28  # a=seat, b=points
EV_CAP = 29  # turn cap reached
EV_NAME = 30  # a=seat, b=0 colour/1 number, c=value named for a wheel space
EV_PENALTY_ON = 33  # stacking: a=victim seat, b=cards pending (started or stacked)
EV_PENALTY_TAKE = 34  # stacking: a=seat takes the pending penalty, b=cards it draws
EV_STACK_CHALLENGE = 35  # stacking: a=challenger, b=player of the WD4, c=1 if it was illegal
EV_ZERO_PASS = 36  # seven_o: a 0 passes every hand one seat, a=direction (+1 clockwise)
EV_SHUFFLE = 37  # Wild Shuffle Hands: a=player, b=seat dealt first; every hand is emptied
EV_REDEAL = 38  # Wild Shuffle Hands: a=seat, b=kind dealt to it
EV_JUMP_IN = 39  # jump_in: a=seat jumps in out of turn, b=kind (the card it plays)
EV_GIVE = 42  # a wheel program's give: a=giver, b=kind, c=receiver
# play --explain only (S_EXPLAIN): a search seat's decision, then one row per candidate
EV_SEARCH = 40  # a=seat, b=what a result is (SEARCH_VALUE_*), c=candidates that follow
EV_CANDIDATE = 41  # a=first card (kind, -1 = draw), b=colour + 1 named (0: heuristic's)
#   + 8 * (1 if chosen) + 16 * rollouts it ran, c=sum of its rollouts' results
# EV_SEARCH's b: a rollout's result is a round won (1) or not (0), every rollout played to
# the end; a cut-off rollout's hand-size score scaled by search.SEARCH_SCALE (won rounds
# score SEARCH_SCALE); a race match's points won; a lowest match's minus points kept
SEARCH_VALUE_WIN = 0
SEARCH_VALUE_CUTOFF = 1
SEARCH_VALUE_RACE = 2
SEARCH_VALUE_LOWEST = 3

LOG_ROWS_TRACE = 400_000

__all__ = [n for n in dir() if n.isupper()] + ["State", "n_out_columns"]
