"""jump_in and partners (docs/HOUSE_RULES.md) in the plain-Python reference engine: the same
hand-built situations as tests/test_jump_partners.py, exact state after one action; bulk runs
for invariants (cards conserved). Cross-checks against the kernel: tests/test_crosscheck.py.
"""

import pytest
from refkit import BLUE, DT, GREEN, RED, RV, SK, SP, WD4, WEB, WSPIN, YELLOW, N, W, make

from unospin_sim import reference as R

FILL = [N(GREEN, 4), N(GREEN, 5), N(GREEN, 6), N(GREEN, 7)]


def action(r, seat=None):
    """Run the main loop for exactly one action (a turn, or a jump-in, which is not a turn)
    from ``seat`` (default: where play is)."""
    if seat is not None:
        r.cur = seat

    class Stop(Exception):
        pass

    calls = []
    real = r.end_action

    def end_action(nxt):
        real(nxt)
        calls.append(nxt)
        raise Stop

    r.end_action = end_action
    try:
        r.run()
    except Stop:
        pass
    finally:
        r.end_action = real
    return r


def jumped(trace):
    return [line for line in trace if "jumps in" in line]


def test_options_and_validation():
    with pytest.raises(ValueError, match="partners"):
        R.play_round("classic", 3, 0, R.Options(partners=True))
    with pytest.raises(ValueError):
        R.play_round("classic", 4, 0, R.Options(jump_in="yes"))
    with pytest.raises(ValueError, match="jump"):
        R.play_round("classic", 4, 0, bots=[dict(jump=2)] * 4)
    for n in (4, 6, 8, 10):
        R.play_round("spiderman", n, 1, R.Options(partners=True, jump_in=True))


def test_jump_in_on_a_number_play_continues_from_the_jumper():
    tr = []
    r = make(
        "classic",
        [
            [N(RED, 5), N(BLUE, 9)],
            [N(RED, 5), N(GREEN, 1)],
            [N(YELLOW, 3)],
            [N(RED, 5), N(GREEN, 2)],
        ],
        N(RED, 2),
        jump_in=True,
        trace=tr,
    )
    action(r, 0)
    assert r.cur == 1 and r.turns == 1 and r.jump_window() == (N(RED, 5), 0)
    action(r)
    assert r.hands[3] == [N(GREEN, 2)] and r.hands[1] == [N(RED, 5), N(GREEN, 1)]
    assert r.cur == 0 and r.turns == 1 and r.top() == N(RED, 5)
    assert jumped(tr) == ["[turn 1] seat 3 jumps in"]
    action(r)  # on seat 3's card: seat 1 jumps in (seat 0 is to act)
    assert r.hands[1] == [N(GREEN, 1)] and r.cur == 2 and r.turns == 1
    action(r)  # nobody else holds a red 5: seat 2 takes its turn
    assert r.turns == 2 and len(jumped(tr)) == 2


def test_jump_in_skip_draw_two_reverse():
    r = make(
        "classic",
        [[SK(RED), N(BLUE, 9)], [SK(RED), N(GREEN, 1)], [N(YELLOW, 3)], [N(GREEN, 2)]],
        N(RED, 2),
        jump_in=True,
    )
    action(r, 0)
    assert r.cur == 2
    action(r)
    assert r.hands[1] == [N(GREEN, 1)] and r.cur == 3
    r = make(
        "classic",
        [[DT(RED), N(BLUE, 9)], [N(GREEN, 1)], [N(YELLOW, 3)], [DT(RED), N(GREEN, 2)]],
        N(RED, 2),
        draw=FILL,
        jump_in=True,
    )
    action(r, 0)
    action(r)
    assert r.hands[3] == [N(GREEN, 2)] and r.cur == 1 and r.draw_pile == []
    assert r.cards_drawn == [2, 2, 0, 0] and len(r.hands[0]) == 3
    r = make(
        "classic",
        [[RV(RED), N(BLUE, 9)], [N(GREEN, 1)], [RV(RED), N(YELLOW, 3)], [N(GREEN, 2)]],
        N(RED, 2),
        jump_in=True,
    )
    action(r, 0)
    assert r.cur == 3 and r.direction == -1
    action(r)
    assert r.hands[2] == [N(YELLOW, 3)] and r.cur == 3 and r.direction == 1


def test_no_window():
    r = make("classic", [[W, N(BLUE, 9)], [N(GREEN, 1)], [W], [W]], N(RED, 2), jump_in=True)
    action(r, 0)
    assert r.jump_window() is None
    r = make(
        "classic",
        [[N(RED, 5), N(RED, 5), N(BLUE, 9)], [N(GREEN, 1)], [N(YELLOW, 3)], [N(GREEN, 2)]],
        N(RED, 2),
        jump_in=True,
    )
    action(r, 0)
    assert r.jumper(*r.jump_window()) is None
    r = make(
        "spin2025",
        [[SP(RED, 3), N(BLUE, 9)], [N(GREEN, 1)], [SP(RED, 3)], [SP(RED, 3)]],
        N(RED, 2),
        jump_in=True,
        wheel={"two_x": 1},
    )
    action(r, 0)
    assert r.two_x and r.jump_window() is None
    r = make(
        "classic",
        [[DT(RED), N(BLUE, 9)], [N(GREEN, 1)], [N(YELLOW, 3)], [DT(RED)]],
        N(RED, 2),
        jump_in=True,
        stacking=True,
    )
    action(r, 0)
    assert r.penalty == 2 and r.jump_window() is None
    r = make(
        "classic", [[N(RED, 5), N(BLUE, 9)], [N(GREEN, 1)], [N(YELLOW, 3)], [N(RED, 5)]], N(RED, 2)
    )
    action(r, 0)
    assert r.jump_window() is None


def test_jump_knob_and_order():
    hands = [
        [N(RED, 5), N(BLUE, 9)],
        [N(GREEN, 1)],
        [N(RED, 5), N(GREEN, 1)],
        [N(RED, 5), N(GREEN, 2)],
    ]
    bots = [{}, {}, dict(jump=0), {}]
    r = make("classic", hands, N(RED, 2), jump_in=True, bots=bots)
    action(r, 0)
    assert r.jumper(*r.jump_window()) == 3
    r = make("classic", hands, N(RED, 2), jump_in=True)
    action(r, 0)
    assert r.jumper(*r.jump_window()) == 2
    seen = set()
    for seed in range(40):
        r = make("classic", hands, N(RED, 2), jump_in=True, bots=[dict(jump=0.5)] * 4, seed=seed)
        action(r, 0)
        seen.add(r.jumper(*r.jump_window()))
    assert seen == {None, 2, 3}


def test_once_per_seat_between_two_turns():
    """The endless Draw Two (the pile empty, each victim draws back the other copy): a seat
    jumps in at most once between two turns."""
    r = make("classic", [[DT(RED), N(BLUE, 9)], [N(GREEN, 1)]], N(RED, 2), jump_in=True)
    r.discard = [DT(RED), N(RED, 2)]  # the other Draw Two under the top card
    action(r, 0)
    assert sorted(map(repr, r.hands[1])) == sorted(map(repr, [N(GREEN, 1), N(RED, 2), DT(RED)]))
    action(r)  # seat 1 jumps in
    assert r.hands[0] == [N(BLUE, 9), DT(RED)] and r.cur == 1
    action(r)  # seat 0 jumps in
    assert r.hands[0] == [N(BLUE, 9)] and r.cur == 0 and r.turns == 1
    assert r.jumper(*r.jump_window()) is None and r.jumped == {0, 1}
    action(r)  # the seat to act takes its turn
    assert r.turns == 2


def test_partners_choices():
    hands = [[N(RED, 5), N(BLUE, 9)], [N(GREEN, 1)], [N(YELLOW, 3)], [N(RED, 5), N(GREEN, 2)]]
    r = make("classic", hands, N(RED, 2), jump_in=True, partners=True)
    action(r, 0)
    assert r.jumper(*r.jump_window()) is None  # seat 3 would pass over its partner, seat 1
    hands[2] = [N(RED, 5), N(YELLOW, 3)]
    r = make("classic", hands, N(RED, 2), jump_in=True, partners=True)
    action(r, 0)
    assert r.jumper(*r.jump_window()) == 2
    # Swap Hands (a 7 under seven_o): only opponents
    seen = set()
    for seed in range(30):
        tr = []
        r = make(
            "classic",
            [[N(RED, 7), N(BLUE, 9)], [N(GREEN, 1)], [N(GREEN, 2)], [N(GREEN, 3)]],
            N(RED, 2),
            seven_o=True,
            partners=True,
            seed=seed,
            trace=tr,
        )
        action(r, 0)
        seen |= {line.split()[-1] for line in tr if "swaps hands" in line}
    assert seen == {"1", "3"}
    # UNO: the partner never catches
    bots = [dict(forget=1, catch=0), dict(catch=0), dict(catch=1), dict(catch=0)]
    for partners, size in ((True, 1), (False, 3)):
        r = make(
            "classic",
            [[N(RED, 5), N(BLUE, 9)], [N(GREEN, 1)], [N(GREEN, 2)], [N(GREEN, 3)]],
            N(RED, 2),
            draw=FILL,
            bots=bots,
            partners=partners,
        )
        action(r, 0)
        assert len(r.hands[0]) == size
    # Web Swing: short of the partner
    for seed in range(20):
        r = make(
            "spiderman",
            [[WEB, N(RED, 1), N(RED, 2)], [N(RED, 4), N(GREEN, 1)], [N(RED, 5)], [N(RED, 6)]],
            N(BLUE, 3),
            partners=True,
            seed=seed,
        )
        r.name_colour = lambda: RED
        action(r, 0)
        assert r.cur == 2


def test_team_columns_and_invariants():
    for edition, n, kw in [
        ("classic", 4, dict(jump_in=True, partners=True)),
        ("spin2005", 4, dict(jump_in=True)),
        ("spin2025", 6, dict(jump_in=True, partners=True, seven_o=True, stacking=True)),
        ("spiderman", 4, dict(partners=True, jump_in=True)),
    ]:
        for seed in range(60):
            r = R.Round(edition, n, seed, R.Options(**kw), [dict(forget=0.3)] * n)
            r.setup()
            deck = sorted(map(repr, r.all_cards()))
            r.run()
            assert sorted(map(repr, r.all_cards())) == deck  # cards conserved
        df = R.play_many(edition, n, 50, 1, R.Options(**kw))
        if kw.get("partners"):
            teams = n // 2
            done = df.winner >= 0
            assert (df.team_winner[done] == df.winner[done] % teams).all()
            opp = sum(
                ((i % teams) != (df.winner % teams)) * df[f"points_left_{i}"] for i in range(n)
            )
            assert (df.team_points[done] == opp[done]).all()
        else:
            assert "team_winner" not in df


# The partners guard (issue 29), the same rows as tests/test_jump_partners.py: a jump-in is
# forbidden only when a seat that actually loses its turn is the jumper's partner; a seat
# passed over by a Skip or a Draw Two takes nobody's turn. (players, seat 0's card, {seat:
# extra cards}, the expected jumper or None, the seat to act after it, the direction after it.)
PARTNER_JUMPS = [
    ("skip, the victim jumps", 4, SK(RED), {1: [SK(RED)]}, 1, 3, 1),
    ("skip, past an opponent", 4, SK(RED), {3: [SK(RED)]}, 3, 1, 1),
    ("number, past the partner", 4, N(RED, 5), {3: [N(RED, 5)]}, None, None, None),
    ("draw two, the victim jumps", 4, DT(RED), {1: [DT(RED)]}, 1, 3, 1),
    ("number, past an opponent", 4, N(RED, 5), {2: [N(RED, 5)]}, 2, 3, 1),
    ("reverse, past the partner", 4, RV(RED), {1: [RV(RED)]}, None, None, None),
    ("reverse, past an opponent", 4, RV(RED), {2: [RV(RED)]}, 2, 3, 1),
    ("6p skip, the victim jumps", 6, SK(RED), {1: [SK(RED)]}, 1, 3, 1),
    ("6p skip, past opponents", 6, SK(RED), {4: [SK(RED)]}, 4, 0, 1),
    ("6p skip, past the partner", 6, SK(RED), {5: [SK(RED)]}, None, None, None),
    ("6p number, past the partner", 6, N(RED, 5), {4: [N(RED, 5)]}, None, None, None),
    ("6p number, past opponents", 6, N(RED, 5), {3: [N(RED, 5)]}, 3, 4, 1),
    ("6p reverse, past an opponent", 6, RV(RED), {4: [RV(RED)]}, 4, 5, 1),
    ("6p reverse, past opponents", 6, RV(RED), {3: [RV(RED)]}, 3, 4, 1),
    ("6p reverse, past the partner", 6, RV(RED), {2: [RV(RED)]}, None, None, None),
]


@pytest.mark.parametrize(
    "name, n, card, extra, jumper, cur, direction", PARTNER_JUMPS, ids=[c[0] for c in PARTNER_JUMPS]
)
def test_partners_jump_in_only_when_no_partner_loses_a_turn(
    name, n, card, extra, jumper, cur, direction
):
    def deal(partners):
        hands = [list(extra.get(s, [])) + [N(GREEN, s + 1)] for s in range(n)]
        hands[0].append(card)
        r = make(
            "classic", hands, N(RED, 2), draw=[N(YELLOW, 4)] * 4, jump_in=True, partners=partners
        )
        action(r, 0)
        return r

    r = deal(True)
    assert r.jumper(*r.jump_window()) == jumper
    if jumper is not None:
        action(r)
        assert N(GREEN, jumper + 1) in r.hands[jumper] and card not in r.hands[jumper]
        assert r.top() == card and r.cur == cur and r.direction == direction and r.turns == 1
        if card == DT(RED):
            assert r.cards_drawn == [0, 2, 2, 0]
    r = deal(False)  # without partners every one of these seats may jump in
    assert r.jumper(*r.jump_window()) == next(iter(extra))


def test_jump_ins_are_counted_per_seat():
    r = make(
        "classic",
        [
            [N(RED, 5), N(BLUE, 9)],
            [N(RED, 5), N(GREEN, 1)],
            [N(YELLOW, 3)],
            [N(RED, 5), N(GREEN, 2)],
        ],
        N(RED, 2),
        jump_in=True,
    )
    action(r, 0)
    action(r)  # seat 3 jumps in
    action(r)  # seat 1 jumps in on seat 3's card
    assert r.jump_ins == [0, 1, 0, 1] and r.turns == 1
    assert r.result()["jump_ins"] == [0, 1, 0, 1]
    df = R.play_many("classic", 4, 200, 3, R.Options(jump_in=True))
    assert (df.jump_ins == sum(df[f"jump_ins_{i}"] for i in range(4))).all()
    assert df.jump_ins.sum() > 0
    assert "jump_ins" not in R.play_many("classic", 4, 5, 3).columns


# ============================================================================ jump_in_wilds
def test_jump_in_wilds_a_wild_on_a_wild_names_a_colour_anew():
    H = dict(strategy="heuristic")
    r = make(
        "classic",
        [[W, N(BLUE, 9)], [N(GREEN, 1)], [W, N(YELLOW, 3), N(YELLOW, 4)], [N(GREEN, 2)]],
        N(RED, 2),
        jump_in=True,
        jump_in_wilds=True,
        bots=[H] * 4,
    )
    action(r, 0)
    assert r.top() == W and r.colour == BLUE and r.cur == 1
    assert r.jump_window() == (W, 0)
    action(r)  # seat 2 jumps in with the other wild and names yellow
    assert r.hands[2] == [N(YELLOW, 3), N(YELLOW, 4)] and r.colour == YELLOW and r.cur == 3
    assert r.turns == 1 and r.jump_ins == [0, 0, 1, 0]
    r = make(
        "classic",
        [[W, N(BLUE, 9)], [N(GREEN, 1)], [W, N(YELLOW, 3)], [N(GREEN, 2)]],
        N(RED, 2),
        jump_in=True,
        bots=[H] * 4,
    )
    action(r, 0)
    assert r.jump_window() is None


def test_jump_in_wilds_a_wild_draw_four_only_when_legal():
    H = dict(strategy="heuristic")
    for extra, jumper in (([], 1), ([N(BLUE, 5)], None)):
        r = make(
            "classic",
            [[WD4, N(BLUE, 9)], [N(GREEN, 1)], [N(YELLOW, 3)], [N(GREEN, 2), N(GREEN, 3)]],
            N(RED, 2),
            draw=[N(YELLOW, 4)] * 8,
            jump_in=True,
            jump_in_wilds=True,
            bots=[H] * 4,
        )
        action(r, 0)
        assert r.colour == BLUE and r.cur == 2 and r.cards_drawn == [0, 4, 0, 0]
        r.hands[1] += [WD4] + extra
        assert r.jumper(*r.jump_window()) == jumper
        if jumper is not None:
            action(r)
            assert r.cur == 3 and r.cards_drawn == [0, 4, 4, 0] and r.colour == YELLOW
            assert r.hands[2] == [N(YELLOW, 3)] + [N(YELLOW, 4)] * 4


def test_jump_in_wilds_never_on_a_wild_spin_and_needs_jump_in():
    r = make(
        "spin2025",
        [[WSPIN, N(BLUE, 9)], [N(GREEN, 1)], [WSPIN, N(YELLOW, 3)], [N(GREEN, 2)]],
        N(RED, 2),
        draw=[N(YELLOW, 4)] * 4,
        jump_in=True,
        jump_in_wilds=True,
        wheel={"two_x": 1},
        bots=[dict(strategy="heuristic")] * 4,
    )
    action(r, 0)
    assert r.top() == WSPIN and r.jump_window() is None
    with pytest.raises(ValueError, match="jump_in_wilds"):
        R.play_round("classic", 4, 0, R.Options(jump_in_wilds=True))
