"""Strategy ``search`` decides the same after a speed change: hash the tables of runs with
search seats.

For each case below (rule set, bots; a list shorter than the players
repeats around the table), ``runner.simulate`` plays a fixed number of rounds
(matches under a match mode) with seed 7 on one thread, and the script prints the sha256
(first 16 hex digits) of the rounds table, of the spins table (``-`` when it has no rows)
and of the matches table (``-`` when there is none), each hashed as its CSV text, plus a
TOTAL over every case. Any decision of a search seat that changes changes the games that
follow it, hence the hashes. Run it on the tree before and after the change::

    PYTHONPATH=/path/to/old/tree python benchmarks/search_identity.py > before.txt
    PYTHONPATH=/path/to/new/tree python benchmarks/search_identity.py > after.txt
    diff before.txt after.txt

Optional argument: a factor on every case's number of rounds (default 1). ``--knobs K``
adds knobs to every search seat that does not set them itself, e.g. ``--knobs
horizon=0,rollouts=64`` (the defaults before 2026-12-01: 64 rollouts played to the end of
the round; its TOTAL must equal the old tree's)::

    PYTHONPATH=/path/to/new/tree python benchmarks/search_identity.py --knobs horizon=0,rollouts=64

(with the knobs of 2026-12-02 add ``colours=0,infer=0``; ``--knobs colours=0,infer=0`` alone
gives the TOTAL of the defaults of 2026-12-01, ``e5e728d2…``).

Renewed on purpose on 2026-12-02 (issue 29): the partners jump-in fix (a seat passed over
by a Skip or a Draw Two may jump in) and the jump-in columns changed the one case
``classic(players=4,jump_in=true,partners=true)``; every other case's hash is unchanged
(diffed line by line against the tree before). TOTAL ``ae45f64f…`` -> ``17f33099…``.
"""
import argparse
import hashlib
import re

from unospin_sim._text import split_top_level
from unospin_sim.rules import parse_rules
from unospin_sim.runner import simulate

CASES = [
    ("classic(players=2)", "search,random", 200),
    ("classic(players=4)", "search", 100),
    ("spin2025(players=2)", "search,heuristic", 200),
    ("spin2005(players=3)", "search,random,heuristic", 150),
    ("classic(players=2)", "search(peek=1),heuristic", 200),
    ("spin2025(players=4,stacking=true)", "search(rollouts=16),random", 150),
    ("spiderman(players=3)", "search,heuristic", 100),
    ("classic(players=4,jump_in=true,partners=true)", "search(rollouts=16),heuristic", 100),
    ("spin2005(players=2,match=race,target=200)", "search(rollouts=16),heuristic", 10),
    ("classic(players=3,match=lowest,target=200,force_play=true)", "search(rollouts=16),random,heuristic", 10),
]


def h(df):
    if df is None:
        return "-"
    if len(df) == 0:
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("factor", nargs="?", type=float, default=1.0)
    ap.add_argument("--knobs", default="", help="knobs added to every search seat")
    a = ap.parse_args()
    f = a.factor
    total = hashlib.sha256()
    for rules, bots, n in CASES:
        bots = with_knobs(bots, a.knobs)
        parts = split_top_level(bots, ValueError, "bots")  # a short list repeats around
        players = parse_rules(rules).players
        seats = ",".join((parts * players)[:players])
        res = simulate(rules, seats, games=max(1, int(n * f)), seed=7, threads=1)
        line = f"{h(res.rounds)} {h(res.spins)} {h(getattr(res, 'matches', None))}"
        total.update(line.encode())
        print(f"{rules:60s} {bots:40s} {line}", flush=True)
    print("TOTAL", total.hexdigest())


if __name__ == "__main__":
    main()
