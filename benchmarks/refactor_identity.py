"""A refactor changes no result: hash the kernel's raw outputs for many rule sets and bots.

Prints one line per case (the hash of play_chunk's output rows, game seeds and spin records
with and without the invariant check, and of one traced game's event log) and a TOTAL. Run it
on the tree before and after an engine change; the TOTALs must be equal::

    PYTHONPATH=/path/to/old/tree python benchmarks/refactor_identity.py > before.txt
    PYTHONPATH=/path/to/new/tree python benchmarks/refactor_identity.py > after.txt
    diff before.txt after.txt

Optional argument: rounds per case (default 3000). ``--matches``: instead, hash whole
matches (``play_match_chunk``: round rows, seeds, the match table, spin records) for
:data:`MATCH_CASES` (race, lowest, partners races; rounds per case / 10 matches each).
``--strategies a,b``: instead of the cases'
own bots, play each case once per named strategy, every seat that strategy (the cases' knobs
kept), e.g. ``--strategies spin_aware,aggressor,colour_keeper`` for the added strategies.
"""
import argparse, hashlib, re
import numpy as np
from unospin_sim.bots import parse_bots
from unospin_sim.rules import cards, parse_rules
from unospin_sim.engine.encode import encode
from unospin_sim.engine import kernel, layout as L

CASES = [
    ("classic(players=4)", "random", 0), ("classic(players=2)", "heuristic", 0),
    ("classic(players=10)", "random,heuristic", 0),
    ("spin2005(players=4)", "random", 0), ("spin2005(players=3)", "heuristic", 0),
    ("spin2005(players=4)", "heuristic(forget=0.3,catch=0.7,bluff=0.3,challenge=0.5,reflex=2),random", 1),
    ("spin2025(players=4)", "random", 0), ("spin2025(players=2)", "heuristic", 0),
    ("spin2025(players=5)", "heuristic(forget=0.2,bluff=0.5,challenge=0.4),random(challenge=0.3,bluff=0.2)", 1),
    ("spiderman(players=4)", "random,heuristic", 0), ("spiderman(players=2)", "heuristic", 0),
    ("classic(players=4,stacking=true)", "random(challenge=0.5,bluff=0.3),heuristic", 0),
    ("spin2025(players=4,stacking=true)", "heuristic(challenge=0.5,bluff=0.5,forget=0.2)", 0),
    ("classic(players=4,draw_until_playable=true)", "random,heuristic", 0),
    ("spin2005(players=4,seven_o=true)", "heuristic,random", 0),
    ("classic(players=3,special_wilds=swap_hands)", "heuristic", 0),
    ("classic(players=4,special_wilds=shuffle_hands,seven_o=true,stacking=true,draw_until_playable=true)", "random(forget=0.3),heuristic", 1),
    ("classic(players=4,rlcard=true)", "random", 0), ("classic(players=2,rlcard=true)", "heuristic,random", 0),
    ("spin2025(players=4,wild_matches_colour=false,wild_stops_colour_draw=true,wild_spin_cards=2)", "random", 0),
    ("spin2005(players=4,wild_stops_colour_draw=false)", "heuristic", 0),
    ("spin2025(players=4,spin_cards=2)", "random(challenge=0.3,bluff=0.2)", 0),
    ("spin2005(players=3,spin_cards=0)", "heuristic", 0),
]
#: (rule set, bots) played as whole matches by ``--matches``
MATCH_CASES = [
    ("classic(players=4,match=race)", "random"),
    ("classic(players=3,match=race,target=200)", "heuristic,random,random"),
    ("spin2005(players=4,match=lowest)", "heuristic,random,random,random"),
    ("spin2025(players=2,match=lowest,target=300)", "random"),
    ("classic(players=4,match=race,partners=true)", "random,heuristic,random,heuristic"),
    ("spin2025(players=6,match=race,partners=true,jump_in=true)", "random"),
    ("spiderman(players=4,match=race,stacking=true)", "heuristic"),
]
#: event code -> the log column (1 = a, 2 = b) holding a card kind
KIND_FIELD = {L.EV_DEAL: 2, L.EV_FIRST: 1, L.EV_SET_ASIDE: 1, L.EV_PLAY: 2, L.EV_DRAW: 2,
              L.EV_WHEEL_DISCARD: 2, L.EV_REDEAL: 2, L.EV_JUMP_IN: 2}


def canonical_log(log):
    """The event log with each card kind written as colour*64 + face*2 + spins, which names
    the card whatever the kind numbering (the numbering grew with spin_cards 6-9, 2026-12-04)."""
    code = cards.KIND_COLOUR * 64 + cards.KIND_FACE * 2 + cards.KIND_SPINS
    log = np.array(log, copy=True)
    for ev, col in KIND_FIELD.items():
        rows = log[:, 0] == ev
        log[rows, col] = code[log[rows, col]]
    return log


ap = argparse.ArgumentParser()
ap.add_argument("rounds", nargs="?", type=int, default=3000)
ap.add_argument("--strategies", default="")
ap.add_argument("--matches", action="store_true")
a = ap.parse_args()
N = a.rounds
if a.matches:
    total = hashlib.sha256()
    for rules_s, bots_s in MATCH_CASES:
        rules = parse_rules(rules_s)
        ki = encode(rules, parse_bots(bots_s, rules.players))
        got = kernel.play_match_chunk(*ki.args(), 12345, 7, max(N // 10, 1), 10_000)
        h = hashlib.sha256(b"".join(np.ascontiguousarray(x).tobytes() for x in got)).hexdigest()[:16]
        total.update(h.encode())
        print(f"{rules_s:70s} {bots_s[:40]:40s} {len(got[0]):7d} rounds {h}")
    print("TOTAL", total.hexdigest())
    raise SystemExit(0)
if a.strategies:
    CASES = [(r, re.sub(r"\b(random|heuristic)\b", s, b), rot)
             for s in a.strategies.split(",") for r, b, rot in CASES]
total = hashlib.sha256()
for rules_s, bots_s, rot in CASES:
    rules = parse_rules(rules_s)
    from unospin_sim._text import split_top_level
    parts = split_top_level(bots_s, ValueError, "bots")
    if len(parts) > 1:
        bots_s = ",".join((parts * rules.players)[:rules.players])
    for check in (False, True):
        ki = encode(rules, parse_bots(bots_s, rules.players), check=check)
        n = N if not check else 300
        out = np.zeros((n, L.n_out_columns(rules.players)), np.int64)
        seeds = np.zeros(n, np.uint64)
        rec = kernel.play_chunk(*ki.args(), 12345, 7, out, seeds, bool(rot))
        if hasattr(L, "O_JUMP_INS"):
            # the jump-in counts (2026-12-02) are zero without jump_in (no case plays it) and
            # left out of the hash, so that the TOTAL compares with trees before them
            p = rules.players
            jump = [L.O_JUMP_INS] + list(range(L.N_OUT_FIXED + 3 * p, L.N_OUT_FIXED + 4 * p))
            assert not rules.option("jump_in") and not out[:, jump].any(), rules_s
            out = np.ascontiguousarray(np.delete(out, jump, axis=1))
        h = hashlib.sha256(out.tobytes() + seeds.tobytes() + np.ascontiguousarray(rec).tobytes()).hexdigest()[:16]
        total.update(h.encode())
        if check:
            assert out[:, L.O_VIOLATIONS].sum() == 0, rules_s
    log, st = kernel.trace_game(*encode(rules, parse_bots(bots_s, rules.players)).args(), 99, 3, L.LOG_ROWS_TRACE, bool(rot))
    h2 = hashlib.sha256(np.ascontiguousarray(canonical_log(log)).tobytes()).hexdigest()[:16]
    total.update(h2.encode())
    print(f"{rules_s:90s} {bots_s[:40]:40s} {h} {h2}")
print("TOTAL", total.hexdigest())
