"""The questions the rules ask a player, and the strategy modules that answer them.

Every strategy module (:data:`STRATEGY_MODULES`) exports one function per question of
:data:`DECISIONS`, under the question's name and with the question's parameters: its own
answer, or an alias of another module's function where it makes the same choice (``greedy``:
``choose_colour = H.choose_colour``), and a number per fact of :data:`FACTS` (``DRAW_SHOWS``:
what its draw shows, ``reveals.py``). So one file says what a strategy does. A function that
reads its seat's knobs takes ``bots`` before the seat as well (``tuned``'s weights;
:func:`takes_bots`), and the dispatch passes it.

The dispatch from a seat's strategy id to its module's function is mechanical, and written by
this module: ``engine/policy/dispatch.py`` is generated from the exports (run ``python -m
unospin_sim.engine.policy`` after changing a strategy's exports; ``--check`` only checks; a
test fails while the file is not what the exports say). Strategies whose exports are one and
the same function share one branch, so a function shared by six strategies is compiled once
per question, not six times. Unknown ids get the question's sentinel, never another
strategy's answer.

How it compiles: each dispatcher is the question itself (the policy home, ``policy/__init__.py``,
re-exports it, taking ``bots`` and the seat as rule code asks): ``inl`` for the questions the
turn asks on most turns, ``hot`` (compiled once, called) for the rest. A question marked
``split`` keeps random's and heuristic's answers inline and calls every other strategy's
through one ``hot`` function (``<question>_added``), compiled once, so the default bots' turn
does not grow with the number of strategies. Each level of ``inl`` calls is compiled again
at every call site (docs/PERFORMANCE.md), so a strategy's answer to an inlined question is
best its own function, not a wrapper.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path
from typing import NamedTuple

from .. import bot_codes as _codes


class Decision(NamedTuple):
    """One question: its name (the strategy modules' function), the parameters every
    strategy's function takes, the seat that answers (one of them), the answer to an unknown
    strategy id (None: the question answers by writing scratch, no value), how its dispatcher
    compiles (``inl`` or ``hot``), ``split`` (random and heuristic inline, the rest in one
    called function), what it asks (the dispatcher's docstring), and the dispatcher's name
    when it is not the question's (the policy home wraps it)."""

    name: str
    params: str
    seat: str
    sentinel: str | None
    deco: str
    doc: str
    split: bool = False
    dispatcher: str | None = None

    @property
    def function(self) -> str:
        """The generated dispatcher's name."""
        return self.dispatcher or self.name

    @property
    def question_params(self) -> str:
        """The dispatcher's parameters: the strategy's, with ``bots`` before the seat."""
        ps = self.params.split(", ")
        i = ps.index(self.seat)
        return ", ".join(ps[:i] + ["bots"] + ps[i:])


#: every question, in the order of the policy home
DECISIONS = (
    Decision(
        "choose_card",
        "st, r, pts, cum, p, wd4_ok",
        "p",
        "-1",
        "inl",
        """
        The card kind seat p plays from its hand now, or -1 to draw instead. ``wd4_ok``: a
        Wild Draw Four counts as playable (legal, or a bluff the bot decided on). -1 while a
        card is legal is a choice too (``hoarder`` draws instead of playing a wild it keeps;
        the official rules allow it).""",
        split=True,
    ),
    Decision(
        "choose_card_rl",
        "st, pts, p",
        "p",
        "-1",
        "hot",
        """
        Rule option rlcard, a strategy playing its own card choice (``rl_action`` -1): the
        card kind, never a Wild Draw Four (RLCard offers it only when nothing else is legal,
        ``rlcard.choose_rl`` handles that) and never a draw while a card is legal (RLCard
        offers the draw only when nothing is). rlcard is classic only: no wheel.""",
    ),
    Decision(
        "choose_colour",
        "st, p",
        "p",
        "-1",
        "inl",
        """
        The colour (0-3) seat p names for a wild it played.""",
        split=True,
    ),
    Decision(
        "colour_to_discard",
        "st, pts, p",
        "p",
        "-1",
        "hot",
        """
        The colour seat p names for a wheel discard by colour (2005 Discard Color, 2025
        Color Discard).""",
    ),
    Decision(
        "colour_to_draw",
        "st, p",
        "p",
        "-1",
        "hot",
        """
        The colour seat p names for the 2025 Wild Color Draw (it draws until that
        colour).""",
    ),
    Decision(
        "number_to_discard",
        "st, p",
        "p",
        "-1",
        "hot",
        """
        The number (0-9) seat p names for the 2005 Discard Number.""",
    ),
    Decision(
        "almost_uno_keep",
        "st, pts, p, n, keep",
        "p",
        None,
        "hot",
        """
        2005 Almost UNO (keep = 2) and a wheel program's discard down to keep cards:
        st.cards[TMP:TMP+n] lists seat p's hand; reorder it so that the ``keep`` cards p
        keeps are the last ones (the rest are discarded). Writes only that scratch.""",
    ),
    Decision(
        "race_discard",
        "st, pts, w",
        "w",
        "-1",
        "hot",
        """
        The card seat w, the winner of the 2005 UNO Spin race, discards.""",
    ),
    Decision(
        "card_to_give",
        "st, pts, p, t",
        "p",
        "-1",
        "hot",
        """
        The card seat p gives to seat t by a wheel program's ``give`` step (one card; a
        step giving n cards asks n times).""",
    ),
    Decision(
        "draw_two_to_stack",
        "st, p, n",
        "p",
        "-1",
        "hot",
        """
        Stacking: which of its n Draw Two instances seat p stacks (it always stacks when it
        can).""",
    ),
    Decision(
        "swap_target",
        "st, p",
        "p",
        "-1",
        "hot",
        """
        The seat p swaps hands with (2025 Swap Hands, a 7 under seven_o, Wild Swap Hands).
        Under partners never the partner (every strategy).""",
    ),
    Decision(
        "web_swing_target",
        "st, p, c, n, lim",
        "p",
        "-1",
        "hot",
        """
        Wild Web Swing: the seat among the n others holding colour c less than ``lim``
        seats away in turn order that play jumps to (``lim``: players, or under partners
        the partner's distance when such a target exists, so that the swing does not pass
        over the partner).""",
    ),
    Decision(
        "jumps_in",
        "st, q, k",
        "q",
        "False",
        "inl",
        """
        jump_in: whether seat q's strategy plays kind k, identical to the card just played,
        out of turn now (never past the partner's turn under partners); the policy home's
        ``jumps_in`` then applies the knob ``jump``.""",
        dispatcher="strategy_jumps_in",
    ),
    Decision(
        "rl_action",
        "st, p, n",
        "p",
        "-1",
        "hot",
        """
        Rule option rlcard: the index of seat p's action among RLCard's n legal action ids,
        or -1 when the strategy plays its own card choice instead (``choose_card_rl``).""",
    ),
)

#: facts every strategy module declares (a number each, data not code), gathered per strategy
#: id into a tuple of the dispatch: name -> what it says
FACTS = {"DRAW_SHOWS": "what a draw at its turn shows about its hand (reveals.py flags)"}

#: strategy name (bot_codes.STRATEGIES) -> (its module in this package, the alias the dispatch uses)
STRATEGY_MODULES = {
    "random": ("random_bot", "R"),
    "heuristic": ("heuristic", "H"),
    "greedy": ("greedy", "G"),
    "hoarder": ("hoarder", "HO"),
    "colour_keeper": ("colour_keeper", "CK"),
    "aggressor": ("aggressor", "AG"),
    "spin_aware": ("spin_aware", "SA"),
    "search": ("search_bot", "SE"),
    "tuned": ("tuned", "TU"),
}
#: modules of shared answers no strategy owns, and their aliases in the dispatch
SHARED_MODULES = {"reveals": "RV"}
#: the strategies kept inline by a ``split`` question
INLINE = ("random", "heuristic")

#: strategies (names in bot_codes.STRATEGIES) that every question answers
IMPLEMENTED = tuple(STRATEGY_MODULES)

DISPATCH_FILE = Path(__file__).with_name("dispatch.py")


def _module(name: str):
    """The module ``name`` of this package."""
    return importlib.import_module(f"{__package__}.{name}")


def _owner(fn) -> tuple[str, str]:
    """(alias of the module defining ``fn``, its name there), for the generated call."""
    py = getattr(fn, "py_func", fn)
    mod = py.__module__.rsplit(".", 1)[-1]
    aliases = {m: a for m, a in STRATEGY_MODULES.values()} | SHARED_MODULES
    if mod not in aliases or getattr(_module(mod), py.__name__, None) is not fn:
        raise ValueError(f"{py.__module__}.{py.__name__}: not a function of a policy module")
    return aliases[mod], py.__name__


def _const(name: str) -> str:
    """The bots constant of strategy ``name``."""
    return "STRATEGY_" + name.upper()


def _condition(names: list[str]) -> str:
    """``sid == STRATEGY_X or A <= sid <= B ...`` for these strategies (runs of three or more
    consecutive ids as a range)."""
    ids = sorted(_codes.STRATEGIES.index(n) for n in names)
    parts, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(
                f"{_const(_codes.STRATEGIES[ids[i]])} <= sid <= {_const(_codes.STRATEGIES[ids[j]])}"
            )
        else:
            parts += [f"sid == {_const(_codes.STRATEGIES[k])}" for k in ids[i : j + 1]]
        i = j + 1
    return " or ".join(parts)


def takes_bots(fn) -> bool:
    """Whether strategy function ``fn`` reads its seat's knobs: it takes the question's
    parameters with ``bots`` before the seat (:attr:`Decision.question_params`), not the
    question's own (``tuned`` reads its weights so)."""
    return "bots" in inspect.signature(getattr(fn, "py_func", fn)).parameters


def _groups(d: Decision, names) -> list[tuple[list[str], str, str, bool]]:
    """[(strategies, module alias, function name, whether it takes ``bots``)]: the
    strategies sharing one function, in the order of their first strategy."""
    out: dict[int, tuple[list[str], str, str, bool]] = {}
    for name in names:
        mod = _module(STRATEGY_MODULES[name][0])
        fn = getattr(mod, d.name, None)
        if fn is None:
            raise ValueError(f"strategy {name!r} ({mod.__name__}) exports no {d.name!r}")
        key = id(getattr(fn, "py_func", fn))
        if key not in out:
            out[key] = ([], *_owner(fn), takes_bots(fn))
        out[key][0].append(name)
    return list(out.values())


def _if(cond: str, body: str) -> list[str]:
    """``if cond:`` and its body, the condition wrapped at 99 columns."""
    line = f"    if {cond}:"
    if len(line) <= 99:
        return [line, body]
    words, lines, cur = cond.split(" or "), [], "    if ("
    for k, w in enumerate(words):
        piece = w + (" or" if k < len(words) - 1 else "):")
        if len(cur) + len(piece) + 1 > 99:
            lines.append(cur.rstrip())
            cur = "            "
        cur += piece + " "
    lines.append(cur.rstrip())
    return lines + [body]


def _function(d: Decision, deco: str, fname: str, names, tail: str | None) -> list[str]:
    """The source of one dispatcher over ``names``; ``tail``: its last line (a call of the
    added function) instead of the sentinel."""
    ret = "return " if d.sentinel is not None else ""
    groups = _groups(d, names)
    doc = [ln.strip() for ln in d.doc.strip().split("\n")]
    answers = _wrap_doc(
        "Answers: " + "; ".join(f"{', '.join(g[0])}: {g[1]}.{g[2]}" for g in groups) + "."
    )
    lines = ["", "", f"@{deco}", f"def {fname}({d.question_params}):", f'    """{doc[0]}'] + [
        f"    {ln}" for ln in doc[1:]
    ]
    if tail is None or deco == "inl":
        lines += [""] + answers
    lines[-1] += '"""'
    lines.append(f"    sid = bots[{d.seat}, B_STRATEGY]")
    for i, (who, alias, fn, with_bots) in enumerate(groups):
        args = d.question_params if with_bots else d.params
        branch = _if(_condition(who), f"        {ret}{alias}.{fn}({args})")
        if i and d.sentinel is None:  # no return to end a branch: elif
            branch[0] = branch[0].replace("    if ", "    elif ", 1)
        lines += branch
    if tail is not None:
        lines.append(f"    {ret}{tail}")
    elif d.sentinel is not None:
        lines.append(f"    return {d.sentinel}")
    return lines


def _wrap_doc(line: str) -> list[str]:
    """A paragraph of a docstring, indented four spaces, wrapped at 96 columns."""
    out, cur = [], "   "
    for w in line.strip().split(" "):
        if len(cur) + 1 + len(w) > 96:
            out.append(cur)
            cur = "   "
        cur += " " + w
    return out + [cur]


def render() -> str:
    """The source of ``dispatch.py`` from the strategy modules' exports."""
    names = list(STRATEGY_MODULES)
    body: list[str] = []
    for d in DECISIONS:
        if d.split:
            inline = [n for n in names if n in INLINE]
            added = [n for n in names if n not in INLINE]
            body += _function(
                d, d.deco, d.function, inline, f"{d.function}_added({d.question_params})"
            )
            body += _function(d, "hot", f"{d.function}_added", added, None)
        else:
            body += _function(d, d.deco, d.function, names, None)
    used = sorted({a for line in body for a in _aliases_in(line)})
    consts = sorted(
        {c for c in (_const(n) for n in names) if any(c in ln for ln in body)},
        key=lambda c: _codes.STRATEGIES.index(c[len("STRATEGY_") :].lower()),
    )
    mods = {a: m for m, a in STRATEGY_MODULES.values()} | {a: m for m, a in SHARED_MODULES.items()}
    head = [
        '"""Strategy id -> the strategy module\'s answer, one dispatcher per question.',
        "",
        "GENERATED by ``python -m unospin_sim.engine.policy`` from the strategy modules'",
        "exports (policy/decisions.py says how); do not edit. tests/test_policy.py fails",
        'while this file is not what the exports say."""',
        "",
        "from ..bot_codes import (" + ", ".join(["B_STRATEGY"] + consts) + ")",
        "from ..jit import hot, inl",
    ]
    head += [f"from . import {mods[a]} as {a}" for a in sorted(used, key=lambda a: mods[a])]
    funcs = sorted([d.function for d in DECISIONS] + list(FACTS))
    implemented = [
        "",
        "#: strategies (names in bot_codes.STRATEGIES) that every question answers",
        "IMPLEMENTED = (" + ", ".join(f'"{n}"' for n in names) + ")",
    ]
    for fact, what in FACTS.items():
        values = [int(getattr(_module(STRATEGY_MODULES[n][0]), fact)) for n in names]
        implemented += [
            f"#: per strategy id: {what}",
            f"{fact} = (" + ", ".join(map(str, values)) + ")",
        ]
    implemented += [
        "#: the questions and facts (the policy home re-exports them)",
        "__all__ = [" + ", ".join(f'"{f}"' for f in funcs) + "]",
    ]
    return _wrap_lists("\n".join(head + implemented + body) + "\n")


def _aliases_in(line: str):
    """The module alias a generated call line uses, if any."""
    aliases = {a for _, a in STRATEGY_MODULES.values()} | set(SHARED_MODULES.values())
    s = line.strip()
    if s.startswith("return "):
        s = s[len("return ") :]
    head = s.split(".", 1)[0]
    if head in aliases and "(" in s:
        yield head


def _wrap_lists(src: str) -> str:
    """Wrap the bots import and the IMPLEMENTED and __all__ lines at 99 columns, each
    continuation line aligned under its opening bracket."""
    lines = src.split("\n")
    for head in ("from ..bot_codes import (", "IMPLEMENTED = (", "__all__ = ["):
        for i, ln in enumerate(lines):
            if ln.startswith(head) and len(ln) > 99:
                names, out, cur = ln[len(head) : -1].split(", "), [], head
                for k, n in enumerate(names):
                    piece = n + (", " if k < len(names) - 1 else ln[-1])
                    if len(cur) + len(piece.rstrip()) > 99:
                        out.append(cur.rstrip())
                        cur = " " * len(head)
                    cur += piece
                lines[i : i + 1] = out + [cur]
                break
    return "\n".join(lines)


def main(argv=None) -> int:
    """Write dispatch.py (``--check``: only say whether it is current; exit 1 if not)."""
    argv = sys.argv[1:] if argv is None else argv
    src = render()
    current = DISPATCH_FILE.exists() and DISPATCH_FILE.read_text() == src
    if "--check" in argv:
        print("dispatch.py is current" if current else "dispatch.py is out of date")
        return 0 if current else 1
    if not current:
        DISPATCH_FILE.write_text(src)
    print(f"wrote {DISPATCH_FILE}" if not current else "dispatch.py is current")
    return 0
