"""spin_aware's value of a variant's own wheel space, read from its program's steps
(docs/BOTS.md, ``spin_aware``): plain Python over step dicts and hand sizes, written again
from the docs' text, not from the kernel's ``spin_aware.program_change``."""

from __future__ import annotations


def fewest_other(sizes, p, direction):
    """The seat other than p with the fewest cards (``sizes``: every hand's), the nearest
    to p in turn order on ties."""
    n = len(sizes)
    best = None
    for k in range(1, n):
        q = (p + k * direction) % n
        if best is None or sizes[q] < sizes[best]:
            best = q
    return best


def program_estimate(steps, q, sizes, direction, most, draw_until):
    """spin_aware's estimate of the change of seat q's hand size when q spins a variant's
    space running ``steps`` (step dicts, as :mod:`~unospin_sim.reference.steps` runs them),
    from the cards each step moves to or from q's hand, each read from the hands as they
    are at the spin (``sizes``; ``most`` q's most held colour, as ``spin_value`` has it),
    summed in order: a draw of n +n; a draw until a colour ``draw_until``; a discard of a
    colour -most, of a number -h/6, of one card -1, down to k cards -(h - k) when h > k;
    giving n cards -min(n, h), receiving them +n; a swap: the other hand's cards - h (a
    ``chosen`` seat: the chooser's fewest other hand, which q, choosing, takes only when it
    is smaller); a trade: the cards of the hand q receives - h; a War or a race
    -1/players; anything else, or a step on other seats, 0."""
    n = len(sizes)
    h = float(sizes[q])
    state = {"d": direction, "other": None, "acc": 0.0}

    def seat_of(word):
        d = state["d"]
        if word == "spinner":
            return q
        if word == "next":
            return (q + d) % n
        if word == "previous":
            return (q - d) % n
        if word == "leader":
            return fewest_other(sizes, q, d)
        if word == "other":
            return state["other"]
        return None  # others, chosen

    def walk(block):
        for step in block:
            kind = step["step"]
            if kind == "repeat":
                for _ in range(step["times"]):
                    walk(step["steps"])
            elif kind == "reverse":
                state["d"] = -state["d"]
            elif kind in ("war", "uno_spin_race"):
                state["acc"] -= 1.0 / n
                state["other"] = None
            elif kind == "trade_hands":
                d = state["d"]
                way = {"clockwise": 1, "counterclockwise": -1, "play": d}
                w = way.get(step["direction"], -d)  # against_play
                state["acc"] += sizes[(q - w) % n] - h
                state["other"] = (q + w) % n
            elif kind in ("give", "swap_hands"):
                a = seat_of(step["who"])
                word = step["to"] if kind == "give" else step["with"]
                if a is None:
                    continue
                t = fewest_other(sizes, a, state["d"]) if word == "chosen" else seat_of(word)
                if t is None or t == a:
                    continue
                if kind == "give":
                    if a == q:
                        state["acc"] -= min(step["n"], h)
                    elif t == q:
                        state["acc"] += step["n"]
                elif a == q:
                    got = float(sizes[t])
                    if word == "chosen":
                        got = min(got, h)
                    state["acc"] += got - h
                elif t == q:
                    state["acc"] += sizes[a] - h
                state["other"] = t
            elif seat_of(step.get("who")) == q:
                if kind == "draw":
                    state["acc"] += step["n"]
                elif kind == "draw_until":
                    state["acc"] += draw_until
                elif kind == "discard":
                    what = step["what"]
                    if what == "colour":
                        state["acc"] -= most
                    elif what == "number":
                        state["acc"] -= h / 6.0
                    elif what == "one":
                        state["acc"] -= 1.0
                    elif what == "down_to" and h > step["keep"]:
                        state["acc"] -= h - step["keep"]

    walk(steps)
    return state["acc"]
