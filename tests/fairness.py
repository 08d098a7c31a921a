"""The information contract of the strategies: no decision reads what its seat cannot see.

Real rounds are played with the engine as plain Python (``NUMBA_DISABLE_JIT=1``; run this
file as a script, as tests/test_fair_bots.py does). Every question the rules ask a player
(the policy home's dispatchers, ``engine/policy/decisions.DECISIONS``, the knob questions,
and ``search.decide``, where a search seat decides its turn) is wrapped: at each call the
state is saved, the question answered on the true state, then answered again on
:data:`REDEALS` copies in which everything the deciding seat cannot see is dealt again:
the other hands (each keeping its size) and the draw pile, from the pool of those cards.
Everything public stays: the discard pile, the top card and colour, every hand's size,
what draws proved (``VOID``) and the other fields of a hand, the scalars, the random
stream. A Web Swing's eligibility (which seats hold the colour, which the rules show) is
kept too: the re-deal is drawn again until it agrees.

The re-deal is stricter than the rules ask (it need not agree with what was shown earlier
or what draws proved), which is fair to every strategy: a decision that reads only public
fields and its own hand gives the same answer on any re-deal, since those fields are kept.

An answer is the returned value and every change the call made to the state (the scalars,
the hands, the scratch lists): a decision that differs on some re-deal read a hidden card.
Calls inside a search's rollouts (``S_SEARCH_ROLL``) are not checked: they are the
search's own imagined games, not decisions at the table.

Output: one JSON object on stdout: ``checked`` (question -> strategy -> calls checked),
``violations`` (the first few, each naming the case, question, strategy and both answers).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import inspect
import json
import os
import sys

import numpy as np

#: re-deals per decision
REDEALS = 2
#: a search seat's budget in the contract cases (small: the engine runs as plain Python)
SEARCH_BOTS = "search(rollouts=4,horizon=4)"
#: (rule string, rounds per lineup, extra (lineup, rounds)): every edition, the house rules that show
#: or move cards, and the RLCard rules; the Spin editions also seat ``spin_aware`` everywhere,
#: its Spin-card values being the choices most sensitive to the other hands; classic seats
#: players who forget to call UNO and catch it, so the UNO questions are asked
CASES = (
    (
        "classic(players=4)",
        4,
        (("heuristic(forget=0.5,catch=0.5),random(forget=0.5),tuned,greedy", 3),),
    ),
    ("spin2005(players=4)", 4, (("spin_aware", 20),)),
    ("spin2025(players=4)", 4, (("spin_aware", 4),)),
    ("spiderman(players=4)", 4, ()),
    ("classic(players=4,seven_o=true,jump_in=true,special_wilds=swap_hands)", 4, ()),
    ("classic(players=4,stacking=true,partners=true)", 4, ()),
    ("spin2025(players=4,partners=true,jump_in=true)", 2, ()),
    ("spin2005(players=3,seven_o=true,stacking=true)", 4, ()),
    ("classic(players=4,rlcard=true)", 4, ()),
    # the shipped variants' wheels (examples/variants, read before the cases): a card given,
    # a chosen player, cards kept, and spin_aware valuing spaces from their steps
    ("spin2025(players=4,wheel=spin2025_plus_two)", 3, (("spin_aware", 4),)),
    ("spin2005(players=4,wheel=spin2005_more)", 3, (("spin_aware", 8),)),
)
#: the variant files the cases' wheels come from
VARIANTS = ("spin2025_plus_two.toml", "more_spaces.toml")


def lineups(strategies, players):
    """Seatings that put every strategy at the table: consecutive strategies, wrapping."""
    names = [SEARCH_BOTS if s == "search" else s for s in strategies]
    out = []
    for i in range(0, len(names), players):
        out.append(",".join(names[(i + j) % len(names)] for j in range(players)))
    return out


class Contract:
    """Wraps the questions and checks each call (module docstring)."""

    def __init__(self, redeals=REDEALS, seed=0, max_violations=20):
        from unospin_sim.engine import layout as L
        from unospin_sim.engine.bot_codes import B_STRATEGY, STRATEGIES
        from unospin_sim.rules.card_codes import KIND_COLOUR, N_KINDS

        self.L, self.N_KINDS, self.KIND_COLOUR = L, N_KINDS, np.asarray(KIND_COLOUR)
        self.B_STRATEGY, self.STRATEGIES = B_STRATEGY, STRATEGIES
        self.redeals = redeals
        self.rng = np.random.default_rng(seed)
        self.max_violations = max_violations
        self.case = ""
        self.active = False
        self.checked: dict[str, dict[str, int]] = {}
        self.unserved = 0
        self.violations: list[dict] = []
        self.n_violations = 0
        self.violated: dict[str, int] = {}

    # -- wrapping ----------------------------------------------------------------------
    def install(self):
        """Wrap every question where the dispatch finds its answer: each strategy module's
        name in ``engine/policy/dispatch.py`` becomes a proxy whose functions are checked
        (the turn holds the dispatchers themselves, captured when it was built); the knob
        questions in the policy home, which rule code looks up at each call; and
        ``search.decide``."""
        from unospin_sim.engine import policy, search
        from unospin_sim.engine.policy import decisions, dispatch

        for module, alias in decisions.STRATEGY_MODULES.values():
            setattr(dispatch, alias, _Checked(getattr(dispatch, alias), module, self))
        for name in ("bluffs", "challenges", "forgets_uno", "catches"):
            fn = getattr(policy, name)
            i = list(inspect.signature(fn).parameters).index(_seat_param(fn))
            setattr(policy, name, self.wrap(fn, name, lambda args, i=i: int(args[i]), ()))
        search.decide = self.wrap(
            search.decide, "search.decide", lambda args: int(args[0].s[self.L.S_CUR]), (1,)
        )

    def wrap(self, fn, name, seat_of, scratch):
        def checked(*args):
            st = args[0]
            if self.active or st.s[self.L.S_SEARCH_ROLL] != 0:
                return fn(*args)
            # the dispatcher calling a strategy's function holds the strategy id, and names
            # the question
            caller = sys._getframe(1)
            sid = caller.f_locals.get("sid")
            question = name
            if sid is not None:
                question = caller.f_code.co_name.removesuffix("_added")
            self.active = True
            try:
                return self.check(fn, question, seat_of(args), args, scratch, sid)
            finally:
                self.active = False

        return checked

    # -- checking ----------------------------------------------------------------------
    def check(self, fn, name, p, args, scratch, sid):
        st = args[0]
        before = _copy(st)
        saved = {i: _copy(args[i]) for i in scratch}
        answer = fn(*args)
        change = _change(before, st)
        if sid is None:
            bots = next(a for a in args if isinstance(a, np.ndarray) and a.ndim == 2)
            sid = bots[p, self.B_STRATEGY]
        strategy = self.STRATEGIES[int(sid)]
        need = self.eligibility(fn, name, st, args)
        for _ in range(self.redeals):
            alt = self.redeal(before, p, need)
            if alt is None:
                self.unserved += 1
                continue
            alt_before = _copy(alt)
            alt_args = list(args)
            alt_args[0] = alt
            for i in scratch:
                alt_args[i] = _copy(saved[i])
            alt_answer = fn(*alt_args)
            self.checked.setdefault(name, {}).setdefault(strategy, 0)
            self.checked[name][strategy] += 1
            alt_change = _change(alt_before, alt)
            if not (_same(answer, alt_answer) and _same_change(change, alt_change)):
                self.n_violations += 1
                key = f"{name}/{strategy}"
                self.violated[key] = self.violated.get(key, 0) + 1
                if self.violated[key] <= 3 and len(self.violations) < self.max_violations:
                    self.violations.append(
                        {
                            "case": self.case,
                            "question": name,
                            "strategy": strategy,
                            "seat": p,
                            "answer": _show(answer),
                            "answer_after_redeal": _show(alt_answer),
                            "changes_differ": not _same_change(change, alt_change),
                        }
                    )
        return answer

    def eligibility(self, fn, name, st, args):
        """What the rules show for this question: for a Web Swing, which seats hold colour
        c (row: seat, value: holds it); else None."""
        if name != "web_swing_target":
            return None
        c = int(args[list(inspect.signature(fn).parameters).index("c")])
        return st.hand[:, self.L.CC + c] > 0, c

    def redeal(self, st, p, need):
        """A copy of ``st`` with the other hands and the draw pile dealt again from their
        pooled cards (each hand keeping its size), or None when ``need`` (a Web Swing's
        eligibility) was not met in 200 tries."""
        L, nk = self.L, self.N_KINDS
        n_p = int(st.s[L.S_NP])
        others = [q for q in range(n_p) if q != p]
        n_draw = int(st.s[L.S_DRAW_N])
        pool = list(st.cards[L.PILE : L.PILE + n_draw])
        for q in others:
            for k in range(nk):
                pool += [k] * int(st.hand[q, k])
        pool = np.asarray(pool, dtype=np.int64)
        sizes = [int(st.hand[q, :nk].sum()) for q in others]
        for _ in range(200):
            self.rng.shuffle(pool)
            alt = _copy(st)
            at = 0
            for q, n in zip(others, sizes):
                counts = np.bincount(pool[at : at + n], minlength=nk)
                at += n
                alt.hand[q, :nk] = counts
                for c in range(5):
                    alt.hand[q, L.CC + c] = counts[self.KIND_COLOUR == c].sum()
            alt.cards[L.PILE : L.PILE + n_draw] = pool[at:]
            if need is not None:
                holds, c = need
                if not np.array_equal(alt.hand[:n_p, L.CC + c] > 0, holds[:n_p]):
                    continue
            return alt
        return None

    def report(self):
        return {
            "checked": self.checked,
            "unserved_redeals": self.unserved,
            "n_violations": self.n_violations,
            "violated": self.violated,
            "violations": self.violations,
        }


def plant_peek(strategy):
    """A mutant for the harness's own test: ``strategy``'s card choice (for ``search``, its
    searched move) draws instead whenever the next seat holds more than two red cards."""
    from unospin_sim.engine import layout as L
    from unospin_sim.engine import search
    from unospin_sim.engine.policy import decisions

    def peeks(st, p):
        return st.hand[(p + 1) % st.s[L.S_NP], L.CC] > 2

    if strategy == "search":
        decide = search.decide

        def peeking_decide(*args):
            decide(*args)
            st = args[0]
            if peeks(st, st.s[L.S_CUR]):
                st.s[L.S_SEARCH_MOVE] = -1

        search.decide = peeking_decide
        return
    module = importlib.import_module(
        "unospin_sim.engine.policy." + decisions.STRATEGY_MODULES[strategy][0]
    )
    choose = module.choose_card
    i = list(inspect.signature(choose).parameters).index("p")

    @functools.wraps(choose)
    def peeking_choose(*args):
        return -1 if peeks(args[0], args[i]) else choose(*args)

    module.choose_card = peeking_choose


def _seat_param(fn):
    params = inspect.signature(fn).parameters
    return next(x for x in ("p", "q", "v", "w") if x in params)


class _Checked:
    """A strategy module as the dispatch sees it: its functions wrapped by the contract."""

    def __init__(self, module, name, contract):
        self._module, self._name, self._contract, self._cache = module, name, contract, {}

    def __getattr__(self, attr):
        fn = getattr(self._module, attr)
        if not callable(fn):
            return fn
        if attr not in self._cache:
            i = list(inspect.signature(fn).parameters).index(_seat_param(fn))
            self._cache[attr] = self._contract.wrap(fn, attr, lambda args, i=i: int(args[i]), ())
        return self._cache[attr]


def _copy(x):
    if isinstance(x, np.ndarray):
        return x.copy()
    return type(x)(*(a.copy() for a in x))


def _change(before, after):
    """What a call changed: per array of the state (hand, cards, scalars), the positions and
    new values (the event log and spin records excluded: a decision writes neither)."""
    out = []
    for a, b in zip(before[:3], after[:3]):
        idx = np.flatnonzero(a.ravel() != b.ravel())
        out.append((idx, b.ravel()[idx]))
    return out


def _same_change(x, y):
    return all(np.array_equal(i, j) and np.array_equal(u, v) for (i, u), (j, v) in zip(x, y))


def _same(a, b):
    return bool(np.all(np.asarray(a) == np.asarray(b)))


def _show(x):
    return x.item() if hasattr(x, "item") else x


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=1, help="times each case's rounds")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--cases", default="", help="indices of CASES, comma-separated")
    ap.add_argument("--plant", default="", help="plant a peek in this strategy (plant_peek)")
    ns = ap.parse_args(argv)
    if os.environ.get("NUMBA_DISABLE_JIT") != "1":
        sys.exit("fairness.py: run with NUMBA_DISABLE_JIT=1 (the engine as plain Python)")
    import warnings

    # the random stream's 64-bit arithmetic overflows on purpose (numpy warns, numba not)
    warnings.filterwarnings("ignore", category=RuntimeWarning)
    from unospin_sim.engine.policy import IMPLEMENTED
    from unospin_sim.rules import parse_rules
    from unospin_sim.rules.variants import load_variant
    from unospin_sim.run import Execution, simulate

    examples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples")
    for name in VARIANTS:
        load_variant(os.path.join(examples, "variants", name))

    if ns.plant:
        plant_peek(ns.plant)
    contract = Contract(seed=ns.seed)
    contract.install()
    picked = [int(i) for i in ns.cases.split(",")] if ns.cases else range(len(CASES))
    for ci in picked:
        rules, rounds, extra = CASES[ci]
        players = parse_rules(rules).players
        seatings = [(bots, rounds) for bots in lineups(IMPLEMENTED, players)] + list(extra)
        for li, (bots, n) in enumerate(seatings):
            contract.case = f"{rules} bots={bots}"
            simulate(
                rules,
                bots,
                games=n * ns.scale,
                seed=ns.seed + 100 * ci + li,
                execution=Execution(threads=1),
            )
    json.dump(contract.report(), sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
