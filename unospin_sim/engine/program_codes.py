"""The kernel's encoding of wheel programs (docs/WHEEL_PROGRAMS.md): the codes of the step
kinds, players and words, and where a rule set's programs sit in its rule array.

``encode.program_table`` writes it from checked programs (``rules/programs.py``);
``program.run_program`` interprets it. The compiled-code cache hashes this file whole: keep
here only what the engine reads.

The table, appended to the rule array ``r`` after its ``layout.N_RULE_PARAMS`` parameters::

    r[layout.R_PROGRAMS]           T, where the table starts (0: no programs)
    r[T]                           N, the space ids the table covers (0 .. N - 1)
    r[T + 1 + space]               where the program of global space id ``space`` < N
                                   starts, 0 when that space plays its compiled effect
    r[o]                           steps of the program starting at o (``repeat`` unrolled)
    r[o + 1 + STEP_W*i + f]        field f of step i: F_OP the step kind (OP_*), F_WHO the
                                   player or players it acts on (WHO_*), F_A .. F_C its
                                   parameters, as each OP_* says
"""

#: the ints a step takes in the table, and its fields
STEP_W = 5
F_OP, F_WHO, F_A, F_B, F_C = range(5)

# the step kinds and what their fields A, B, C hold (unused fields are 0)
OP_DRAW = 0  # A: cards each player draws
OP_DRAW_UNTIL = 1  # A: bit c set: colour c stops the draw; B: 1 = the drawer names one more
#   colour first (as Wild Color Draw); C: WILD_STOPS_* (whether a wild stops it)
OP_DISCARD = 2  # A: DISCARD_*; B: cards kept (DISCARD_DOWN_TO); C: PLACE_*
OP_GIVE = 3  # A: the receiver (WHO_*); B: cards given
OP_SHOW_HAND = 4
OP_SWAP_HANDS = 5  # A: the other party (WHO_*)
OP_TRADE_HANDS = 6  # A: TRADE_*
OP_SKIP = 7  # A: players skipped
OP_REVERSE = 8
OP_TWO_X = 9
OP_WAR = 10
OP_RACE = 11  # the 2005 UNO Spin race (its discard is a step of its own)

# players (programs.PLAYERS, in its order)
WHO_SPINNER, WHO_NEXT, WHO_PREVIOUS, WHO_OTHERS, WHO_LEADER, WHO_CHOSEN, WHO_OTHER = range(7)

# a discard's cards and where they go
DISCARD_COLOUR, DISCARD_NUMBER, DISCARD_ONE, DISCARD_DOWN_TO = range(4)
PLACE_TOP, PLACE_UNDER = 0, 1
# whether a wild stops a draw_until: never, always, or as the rule option wild_stops_colour_draw
WILD_STOPS_NO, WILD_STOPS_YES, WILD_STOPS_OPTION = range(3)
# the way hands pass: clockwise, counter-clockwise, with or against the direction of play
TRADE_CW, TRADE_CCW, TRADE_PLAY, TRADE_AGAINST = range(4)
