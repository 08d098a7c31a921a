"""Identity: a refactor changes no result. Hash what the engine plays, on the tree before
and after a change; the TOTALs must be equal::

    PYTHONPATH=/path/to/old/tree python benchmarks/identity.py kernel > before.txt
    PYTHONPATH=/path/to/new/tree python benchmarks/identity.py kernel > after.txt
    diff before.txt after.txt

Workloads (one line per case, then a TOTAL):

- ``kernel [ROUNDS]``: the kernel's raw output rows, game seeds and spin records of
  ``play_chunk`` (with and without the invariant check) and one traced round's event log per
  case of :data:`CASES` (default 3000 rounds a case). The event log is hashed with each card
  named by colour, face and Spin mark, so a renumbering of the card kinds that keeps every
  round the same keeps the TOTAL. ``--strategies a,b``: instead of the cases' own bots, play
  each case once per named strategy, every seat that strategy (the cases' knobs kept), e.g.
  ``--strategies spin_aware,aggressor,colour_keeper,greedy,hoarder,heuristic``.
  TOTALs on 2026-12-04: ``3222c27c…`` and, with those six strategies, ``956fc7ca…``.
- ``matches [ROUNDS]``: whole matches of ``play_match_chunk`` (round rows, seeds, the match
  table, spin records) for :data:`MATCH_CASES` (race, lowest, partners races; ROUNDS / 10
  matches each). TOTAL on 2026-12-04: ``e860399f…``.
- ``search [FACTOR]``: the tables (rounds, spins, matches; CSV text) of ``simulate`` runs
  with ``search`` seats, :data:`SEARCH_CASES`, seed 7, one thread; FACTOR scales every
  case's rounds. ``--knobs K`` adds knobs to every search seat that does not set them
  itself, e.g. ``--knobs horizon=0,rollouts=64`` (the defaults before 2026-12-01; with the
  knobs of 2026-12-02 add ``colours=0,infer=0``; ``--knobs colours=0,infer=0`` alone gives
  the TOTAL of the defaults of 2026-12-01, ``e5e728d2…``). Renewed on purpose on 2026-12-02
  (issue 29: the partners jump-in fix changed the one case
  ``classic(players=4,jump_in=true,partners=true)``): ``ae45f64f…`` -> ``17f33099…``.
  Renewed on purpose on 2026-12-04 (issue 28: the default ``infer=3``): ``ec43d8eb…``;
  ``--knobs infer=1`` gave the TOTAL before it, ``17f33099…``. Renewed on purpose on
  2026-12-05 (issue 28: knob ``extend``, default 2): ``65edc305…``; ``--knobs extend=1``
  gives the TOTAL before it, ``ec43d8eb…``, and ``--knobs infer=1,extend=1`` gives
  ``17f33099…`` (each older setting adds ``extend=1`` to its knobs). Renewed on purpose
  (issue 47: the unseen pool in kind order, so deals depend on public facts only; every
  case but ``search(peek=1)`` moves): ``c4d4bd72…``. No knob gives the TOTALs before it
  (the older ones above were measured on the tree before it); the partners race rollout
  value of the same issue enters no case here (no partners race among the cases).
- ``reference [FACTOR]``: the tables of the plain-Python reference engine
  (``unospin_sim.reference``: ``play_many``, ``play_many_spins``, ``play_many_matches``;
  CSV text) and the trace of its first rounds, for :data:`REFERENCE_CASES` (each edition at
  2 and 4 players, the house rules, the deck and wheel options, matches), seed 11; FACTOR
  scales every case's rounds (about a minute at 1). No kernel runs. The hashes at FACTOR 1
  and 0.05 are pinned in ``tests/pins/reference_identity.json`` and checked by
  ``tests/test_reference_identity.py``.
"""

import argparse
import hashlib
import re

import numpy as np
from harness import digest, dispatch, how

from unospin_sim._text import split_top_level
from unospin_sim.bots import parse_bots
from unospin_sim.engine import kernel
from unospin_sim.engine import layout as L
from unospin_sim.engine.encode import encode
from unospin_sim.rules import cards, parse_rules

CASES = [
    ("classic(players=4)", "random", 0),
    ("classic(players=2)", "heuristic", 0),
    ("classic(players=10)", "random,heuristic", 0),
    ("spin2005(players=4)", "random", 0),
    ("spin2005(players=3)", "heuristic", 0),
    (
        "spin2005(players=4)",
        "heuristic(forget=0.3,catch=0.7,bluff=0.3,challenge=0.5,reflex=2),random",
        1,
    ),
    ("spin2025(players=4)", "random", 0),
    ("spin2025(players=2)", "heuristic", 0),
    (
        "spin2025(players=5)",
        "heuristic(forget=0.2,bluff=0.5,challenge=0.4),random(challenge=0.3,bluff=0.2)",
        1,
    ),
    ("spiderman(players=4)", "random,heuristic", 0),
    ("spiderman(players=2)", "heuristic", 0),
    ("classic(players=4,stacking=true)", "random(challenge=0.5,bluff=0.3),heuristic", 0),
    ("spin2025(players=4,stacking=true)", "heuristic(challenge=0.5,bluff=0.5,forget=0.2)", 0),
    ("classic(players=4,draw_until_playable=true)", "random,heuristic", 0),
    ("spin2005(players=4,seven_o=true)", "heuristic,random", 0),
    ("classic(players=3,special_wilds=swap_hands)", "heuristic", 0),
    (
        "classic(players=4,special_wilds=shuffle_hands,seven_o=true,stacking=true,draw_until_playable=true)",
        "random(forget=0.3),heuristic",
        1,
    ),
    ("classic(players=4,rlcard=true)", "random", 0),
    ("classic(players=2,rlcard=true)", "heuristic,random", 0),
    (
        "spin2025(players=4,wild_matches_colour=false,wild_stops_colour_draw=true,wild_spin_cards=2)",
        "random",
        0,
    ),
    ("spin2005(players=4,wild_stops_colour_draw=false)", "heuristic", 0),
    ("spin2025(players=4,spin_cards=2)", "random(challenge=0.3,bluff=0.2)", 0),
    ("spin2005(players=3,spin_cards=0)", "heuristic", 0),
]
MATCH_CASES = [
    ("classic(players=4,match=race)", "random"),
    ("classic(players=3,match=race,target=200)", "heuristic,random,random"),
    ("spin2005(players=4,match=lowest)", "heuristic,random,random,random"),
    ("spin2025(players=2,match=lowest,target=300)", "random"),
    ("classic(players=4,match=race,partners=true)", "random,heuristic,random,heuristic"),
    ("spin2025(players=6,match=race,partners=true,jump_in=true)", "random"),
    ("spiderman(players=4,match=race,stacking=true)", "heuristic"),
]
SEARCH_CASES = [
    ("classic(players=2)", "search,random", 200),
    ("classic(players=4)", "search", 100),
    ("spin2025(players=2)", "search,heuristic", 200),
    ("spin2005(players=3)", "search,random,heuristic", 150),
    ("classic(players=2)", "search(peek=1),heuristic", 200),
    ("spin2025(players=4,stacking=true)", "search(rollouts=16),random", 150),
    ("spiderman(players=3)", "search,heuristic", 100),
    ("classic(players=4,jump_in=true,partners=true)", "search(rollouts=16),heuristic", 100),
    ("spin2005(players=2,match=race,target=200)", "search(rollouts=16),heuristic", 10),
    (
        "classic(players=3,match=lowest,target=200,force_play=true)",
        "search(rollouts=16),random,heuristic",
        10,
    ),
]

#: the reference engine's cases: (label, function, edition, players, rounds, keywords);
#: function "many" is play_many, "spins" play_many_spins, "matches" play_many_matches
#: (rounds / 20 matches); the keywords are ``bots``, ``match`` and ``target`` (a
#: ``MatchOptions``) and the fields of an ``Options``
_H = {"strategy": "heuristic"}
_HO = {"strategy": "hoarder"}
_T = {"strategy": "tuned"}
_T2 = {"strategy": "tuned", "w_colour": 3.0, "w_void": 40.0, "w_name_void": 2.0, "w_wd4": -50.0}
_RB = {"bluff": 0.3, "challenge": 0.5, "forget": 0.3, "catch": 0.7}
REFERENCE_CASES = [
    ("classic 2", "many", "classic", 2, 3000, {"bots": [_H, _RB]}),
    ("classic 4", "many", "classic", 4, 2500, {"bots": [{}, _RB, _HO, _T2]}),
    ("spin2005 2", "spins", "spin2005", 2, 1500, {"bots": [_H, {**_HO, "reflex": 3.0}]}),
    ("spin2005 4", "spins", "spin2005", 4, 1500, {"bots": [_RB, _T, _H, {"reflex": 0.5}]}),
    ("spin2025 2", "spins", "spin2025", 2, 1500, {"bots": [_T2, _RB]}),
    ("spin2025 4", "spins", "spin2025", 4, 1500, {"bots": [{}, _H, _HO, _RB]}),
    ("spiderman 2", "many", "spiderman", 2, 2500, {"bots": [_H, {}]}),
    ("spiderman 4", "many", "spiderman", 4, 2000, {"bots": [{}, _HO, _T, _H]}),
    ("stacking classic", "many", "classic", 4, 2000, {"stacking": True, "bots": [_RB, _H] * 2}),
    (
        "stacking free spin2025",
        "spins",
        "spin2025",
        4,
        1250,
        {"stacking": True, "stacked_wd4": "free", "bots": [_RB, _T, _HO, {}]},
    ),
    ("seven_o spin2005", "spins", "spin2005", 4, 1250, {"seven_o": True, "bots": [_H, _RB] * 2}),
    (
        "seven_o classic",
        "many",
        "classic",
        5,
        1500,
        {"seven_o": True, "bots": [_RB, _H, {}, _T, _HO]},
    ),
    (
        "jump_in classic",
        "many",
        "classic",
        4,
        2000,
        {"jump_in": True, "bots": [{"jump": 0.5}, _H, _RB, {**_T, "jump": 0.3}]},
    ),
    (
        "jump_in_wilds partners",
        "many",
        "classic",
        4,
        1500,
        {"jump_in": True, "jump_in_wilds": True, "partners": True, "bots": [_H, _RB] * 2},
    ),
    (
        "draw_until_playable",
        "many",
        "classic",
        4,
        2000,
        {"draw_until_playable": True, "bots": [_RB, _H, _HO, {}]},
    ),
    ("partners spiderman", "many", "spiderman", 4, 1500, {"partners": True, "bots": [{}, _H] * 2}),
    (
        "partners spin2025 6",
        "spins",
        "spin2025",
        6,
        750,
        {"partners": True, "jump_in": True, "stacking": True, "bots": [_RB, _H, _T] * 2},
    ),
    (
        "special_wilds swap",
        "many",
        "classic",
        3,
        2000,
        {"special_wilds": "swap_hands", "bots": [_H, _RB, _T2]},
    ),
    (
        "special_wilds shuffle",
        "many",
        "classic",
        4,
        1500,
        {
            "special_wilds": "shuffle_hands",
            "seven_o": True,
            "stacking": True,
            "bots": [_RB, _H] * 2,
        },
    ),
    ("force_play", "many", "classic", 4, 2000, {"force_play": True, "bots": [_HO, _RB, _HO, _H]}),
    (
        "spin2025 options",
        "spins",
        "spin2025",
        4,
        1250,
        {
            "wild_matches_colour": False,
            "wild_stops_colour_draw": True,
            "wild_spin_cards": 2,
            "spin_cards": 8,
            "wheel": {
                "two_x": 3.0,
                "swap_hands": 2.0,
                "color_discard": 1.0,
                "wild_color_draw": 1.0,
            },
            "bots": [_RB, _H, _T, {}],
        },
    ),
    (
        "spin2005 options",
        "spins",
        "spin2005",
        3,
        1250,
        {
            "wild_stops_colour_draw": False,
            "spin_cards": 9,
            "wheel": {"war": 3.0, "uno_spin": 2.0, "trade_hands": 2.0, "almost_uno": 1.0},
            "bots": [_H, {"reflex": 2.0}, _HO],
        },
    ),
    ("turn cap", "many", "classic", 3, 1500, {"turn_cap": 25, "bots": [_HO, _RB, _H]}),
    ("race classic 4", "matches", "classic", 4, 2000, {"match": "race", "bots": [_RB, _H] * 2}),
    (
        "race partners",
        "matches",
        "spin2025",
        4,
        1000,
        {"match": "race", "target": 300, "partners": True, "bots": [_H, _RB, _T, {}]},
    ),
    (
        "lowest spin2005 3",
        "matches",
        "spin2005",
        3,
        1000,
        {"match": "lowest", "target": 200, "bots": [_HO, _RB, _H]},
    ),
]


def reference_lines(factor=1.0):
    """One line per case of :data:`REFERENCE_CASES` (label, rows, table hashes, the trace
    hash of its first three rounds), then the TOTAL line."""
    from unospin_sim import reference as ref

    total = hashlib.sha256()
    lines = []
    for label, fn, edition, players, rounds, kw in REFERENCE_CASES:
        n = max(1, int(rounds * factor))
        kw = dict(kw)
        bots = kw.pop("bots", None)
        match = {k: kw.pop(k) for k in ("match", "target") if k in kw}
        options = ref.Options(**kw)
        if fn == "matches":
            n = max(1, n // 20)
            spec = ref.MatchOptions(**match)
            tables = [ref.play_many_matches(edition, players, n, 11, spec, options, bots)]
        elif fn == "spins":
            tables = list(ref.play_many_spins(edition, players, n, 11, options, bots))
        else:
            tables = [ref.play_many(edition, players, n, 11, options, bots)]
        trace = []
        for g in range(3):
            trace.append(f"round {g}")
            ref.play_round(edition, players, ref.round_seed(11, g), options, bots, trace)
        h = hashlib.sha256("\n".join(trace).encode()).hexdigest()[:16]
        line = f"{label:24s} {n:5d} " + " ".join(_csv_hash(t) for t in tables) + f" {h}"
        total.update(line.encode())
        lines.append(line)
    lines.append(f"TOTAL {total.hexdigest()}")
    return lines


def reference_identity(argv):
    ap = argparse.ArgumentParser(prog="identity.py reference")
    ap.add_argument("factor", nargs="?", type=float, default=1.0)
    a = ap.parse_args(argv)
    for line in reference_lines(a.factor):
        print(line, flush=True)


#: event code -> the log column (1 = a, 2 = b) holding a card kind
KIND_FIELD = {
    L.EV_DEAL: 2,
    L.EV_FIRST: 1,
    L.EV_SET_ASIDE: 1,
    L.EV_PLAY: 2,
    L.EV_DRAW: 2,
    L.EV_WHEEL_DISCARD: 2,
    L.EV_REDEAL: 2,
    L.EV_JUMP_IN: 2,
}


def canonical_log(log):
    """The event log with each card kind written as colour*64 + face*2 + spins, which names
    the card whatever the kind numbering (the numbering grew with spin_cards 6-9, 2026-12-04)."""
    code = cards.KIND_COLOUR * 64 + cards.KIND_FACE * 2 + cards.KIND_SPINS
    log = np.array(log, copy=True)
    for ev, col in KIND_FIELD.items():
        rows = log[:, 0] == ev
        log[rows, col] = code[log[rows, col]]
    return log


def _seats(bots_s, players):
    """A bot list shorter than the players repeats around the table."""
    parts = split_top_level(bots_s, ValueError, "bots")
    return ",".join((parts * players)[:players])


def kernel_identity(argv):
    ap = argparse.ArgumentParser(prog="identity.py kernel")
    ap.add_argument("rounds", nargs="?", type=int, default=3000)
    ap.add_argument("--strategies", default="")
    a = ap.parse_args(argv)
    cases = CASES
    if a.strategies:
        cases = [
            (r, re.sub(r"\b(random|heuristic)\b", s, b), rot)
            for s in a.strategies.split(",")
            for r, b, rot in CASES
        ]
    total = hashlib.sha256()
    for rules_s, bots_s, rot in cases:
        rules = parse_rules(rules_s)
        if len(split_top_level(bots_s, ValueError, "bots")) > 1:
            bots_s = _seats(bots_s, rules.players)
        for check in (False, True):
            ki = encode(rules, parse_bots(bots_s, rules.players), check=check)
            n = a.rounds if not check else 300
            out = np.zeros((n, L.n_out_columns(rules.players)), np.int64)
            seeds = np.zeros(n, np.uint64)
            rec = kernel.play_chunk(*ki.args(), 12345, 7, out, seeds, bool(rot))
            out = _published_only(out, rules.players)
            if hasattr(L, "O_JUMP_INS"):
                # the jump-in counts (2026-12-02) are zero without jump_in (no case plays it)
                # and left out of the hash, so that the TOTAL compares with trees before them
                p = rules.players
                jump = [L.O_JUMP_INS] + list(range(L.N_OUT_FIXED + 3 * p, L.N_OUT_FIXED + 4 * p))
                assert not rules.option("jump_in") and not out[:, jump].any(), rules_s
                out = np.ascontiguousarray(np.delete(out, jump, axis=1))
            h = digest(out, seeds, rec)
            total.update(h.encode())
            if check:
                assert out[:, L.O_VIOLATIONS].sum() == 0, rules_s
        log, st = kernel.trace_game(
            *encode(rules, parse_bots(bots_s, rules.players)).args(),
            99,
            3,
            L.LOG_ROWS_TRACE,
            bool(rot),
        )
        h2 = digest(canonical_log(log))
        total.update(h2.encode())
        print(f"{rules_s:90s} {bots_s[:40]:40s} {h} {h2}", flush=True)
    print("TOTAL", total.hexdigest())


def _published_only(out, players):
    """``out`` without the spin counts of a variant's own spaces (kernel ids from
    ``N_PUBLISHED``; zero in every case here), so that the TOTAL compares with trees
    before those ids existed."""
    n_published = getattr(L, "N_PUBLISHED", L.N_SPACES)
    first = L.N_OUT_FIXED + L.N_SEAT_BLOCKS * players + n_published
    extra = list(range(first, first + L.N_SPACES - n_published))
    if not extra:
        return out
    assert not out[:, extra].any()
    return np.ascontiguousarray(np.delete(out, extra, axis=1))


def match_identity(argv):
    ap = argparse.ArgumentParser(prog="identity.py matches")
    ap.add_argument("rounds", nargs="?", type=int, default=3000)
    a = ap.parse_args(argv)
    total = hashlib.sha256()
    for rules_s, bots_s in MATCH_CASES:
        rules = parse_rules(rules_s)
        ki = encode(rules, parse_bots(bots_s, rules.players))
        got = kernel.play_match_chunk(*ki.args(), 12345, 7, max(a.rounds // 10, 1), 10_000)
        h = digest(_published_only(got[0], rules.players), *got[1:])
        total.update(h.encode())
        print(f"{rules_s:70s} {bots_s[:40]:40s} {len(got[0]):7d} rounds {h}", flush=True)
    print("TOTAL", total.hexdigest())


def _csv_hash(df):
    if df is None or len(df) == 0:
        return "-"
    return hashlib.sha256(df.to_csv(index=False).encode()).hexdigest()[:16]


def with_knobs(bots, knobs):
    """``bots`` with ``knobs`` (``"k=v,k=v"``) added to every search seat; a knob the case
    sets itself keeps the case's value."""
    if not knobs:
        return bots

    def add(m):
        own = [k for k in (m.group(1) or "").split(",") if k]
        names = {k.split("=")[0] for k in own}
        extra = [k for k in knobs.split(",") if k.split("=")[0] not in names]
        return f"search({','.join(own + extra)})"

    return re.sub(r"search(?:\(([^)]*)\))?", add, bots)


def search_identity(argv):
    from unospin_sim.run import simulate

    ap = argparse.ArgumentParser(prog="identity.py search")
    ap.add_argument("factor", nargs="?", type=float, default=1.0)
    ap.add_argument("--knobs", default="", help="knobs added to every search seat")
    a = ap.parse_args(argv)
    total = hashlib.sha256()
    for rules, bots, n in SEARCH_CASES:
        bots = with_knobs(bots, a.knobs)
        seats = _seats(bots, parse_rules(rules).players)
        res = simulate(rules, seats, games=max(1, int(n * a.factor)), seed=7, **how(threads=1))
        line = (
            f"{_csv_hash(res.rounds)} {_csv_hash(res.spins)} "
            f"{_csv_hash(getattr(res, 'matches', None))}"
        )
        total.update(line.encode())
        print(f"{rules:60s} {bots:40s} {line}", flush=True)
    print("TOTAL", total.hexdigest())


WORKLOADS = {
    "kernel": kernel_identity,
    "matches": match_identity,
    "search": search_identity,
    "reference": reference_identity,
}


def main(argv=None):
    dispatch("identity.py", __doc__, WORKLOADS, argv)


if __name__ == "__main__":
    main()
