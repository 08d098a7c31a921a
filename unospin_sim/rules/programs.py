"""Wheel spaces as programs: the vocabulary of steps, as data, and the checks of a program.

A wheel space's effect is a *program*: a list of steps, each a step kind (:data:`STEPS`)
with its parameters. A parameter names a player (:data:`PLAYERS`), a whole number in a
range, one of a few words, colours, or (``repeat``) a program of its own. The vocabulary
is documented in docs/WHEEL_PROGRAMS.md; :mod:`.variants` reads the files that use it.

Every check raises :class:`~unospin_sim.errors.RuleError` with one line naming the file,
the space and the problem.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from ..errors import RuleError

__all__ = [
    "COLOUR_WORDS",
    "MAX_REPEAT",
    "MAX_STEPS",
    "PLAYERS",
    "REQUIRED",
    "STEPS",
    "Param",
    "Player",
    "Step",
    "StepKind",
    "check_program",
]

#: raises a RuleError naming the problem
Fail = Callable[[str], NoReturn]

#: the colours a colour parameter may name; "chosen": the player names one (its bot's rule)
COLOUR_WORDS = ("red", "yellow", "green", "blue", "chosen")
#: the most times a ``repeat`` may run its steps
MAX_REPEAT = 10
#: the most steps a program may run, its repeats written out
MAX_STEPS = 100


@dataclass(frozen=True)
class Player:
    """A player selector: who a step acts on or with.

    Attributes
    ----------
    name : str
        The word a program uses.
    doc : str
        Who it is, in one line.
    many : bool
        It names several players (the step acts on each in turn order).
    target_only : bool
        It names the other party of a step (``to``, ``with``), never the actor: a choice
        the actor makes.
    """

    name: str
    doc: str
    many: bool = False
    target_only: bool = False


#: the player selectors, in the order the docs list them
PLAYERS: dict[str, Player] = {
    p.name: p
    for p in (
        Player("spinner", "the player who spins"),
        Player("next", "the next player in the direction of play"),
        Player("previous", "the previous player in the direction of play"),
        Player("others", "every player but the spinner, in turn order from the next", many=True),
        Player(
            "leader",
            "the player other than the spinner holding the fewest cards, the nearest in "
            "turn order from the spinner on ties",
        ),
        Player(
            "chosen",
            "a player other than the actor (and its partner) whom the actor chooses",
            target_only=True,
        ),
        Player(
            "other",
            "the other party of the last step that named one (nobody: the step does nothing)",
        ),
    )
}

#: a parameter without a default must be given
REQUIRED: Any = object()


@dataclass(frozen=True)
class Param:
    """One parameter of a step kind.

    Attributes
    ----------
    name : str
        Its key in a step.
    kind : str
        ``"actor"`` (the player or players a step acts on), ``"one"`` (the one player it
        acts on) or ``"target"`` (its other party): a player word; ``"int"`` (a whole number in
        ``lo..hi``), ``"word"`` (one of ``words``), ``"colours"`` (a colour word or a list
        of them), ``"wild_stops"`` (true, false or "option") or ``"steps"`` (a program).
    doc : str
        What it means, in one line.
    default : object
        Its value when left out; :data:`REQUIRED` when it must be given.
    words : tuple of str
        The values of a ``"word"`` parameter.
    lo, hi : int
        The range of an ``"int"`` parameter.
    """

    name: str
    kind: str
    doc: str
    default: object = REQUIRED
    words: tuple[str, ...] = ()
    lo: int = 0
    hi: int = 0


@dataclass(frozen=True)
class StepKind:
    """One kind of step: its name, what it does and its parameters.

    Attributes
    ----------
    name : str
        The value of a step's ``step`` key.
    doc : str
        What it does, in one line.
    params : tuple of Param
        Its parameters.
    names_other : bool
        It names another party: the spin's ``other`` and the selector ``other`` of the
        steps after it.
    """

    name: str
    doc: str
    params: tuple[Param, ...] = ()
    names_other: bool = False

    def param(self, name: str) -> Param | None:
        """The parameter called ``name``, None when the kind has none by that name."""
        return next((p for p in self.params if p.name == name), None)


_WHO = Param("who", "actor", "the player (or players) the step acts on", default="spinner")
_ONE = Param("who", "one", "the player the step acts on", default="spinner")

#: the step kinds, in the order the docs list them
STEPS: dict[str, StepKind] = {
    k.name: k
    for k in (
        StepKind(
            "draw", "each player draws n cards", (_WHO, Param("n", "int", "cards", lo=1, hi=20))
        ),
        StepKind(
            "draw_until",
            "each player draws until a card of a colour (a wild too, per wild_stops)",
            (
                _WHO,
                Param("colour", "colours", "the colour or colours that stop the draw"),
                Param(
                    "wild_stops",
                    "wild_stops",
                    "whether a wild stops it: true, false or the rule option "
                    "wild_stops_colour_draw",
                    default="option",
                ),
            ),
        ),
        StepKind(
            "discard",
            "each player discards every card of a colour or a number it names, one card "
            "of its choice, or down to keep cards (which it chooses)",
            (
                _WHO,
                Param("what", "word", "which cards", words=("colour", "number", "one", "down_to")),
                Param("keep", "int", "cards kept (what = down_to only)", default=None, lo=1, hi=20),
                Param(
                    "place",
                    "word",
                    "top: on the pile in an order the discarder chooses, the last one the "
                    "new top; under: under the pile, top and colour unchanged",
                    default="top",
                    words=("top", "under"),
                ),
            ),
        ),
        StepKind(
            "give",
            "the player gives n cards of its choice to another",
            (
                _ONE,
                Param("to", "target", "who receives them"),
                Param("n", "int", "cards", default=1, lo=1, hi=5),
            ),
            names_other=True,
        ),
        StepKind("show_hand", "each player shows its hand to all", (_WHO,)),
        StepKind(
            "swap_hands",
            "the player swaps hands with another",
            (_ONE, Param("with", "target", "the other party")),
            names_other=True,
        ),
        StepKind(
            "trade_hands",
            "every hand passes one seat",
            (
                Param(
                    "direction",
                    "word",
                    "clockwise, counterclockwise, or with or against the direction of play",
                    default="clockwise",
                    words=("clockwise", "counterclockwise", "play", "against_play"),
                ),
            ),
            names_other=True,
        ),
        StepKind(
            "skip",
            "the next players in turn lose their turn",
            (Param("players", "int", "players skipped", default=1, lo=1, hi=3),),
        ),
        StepKind("reverse", "the direction of play reverses"),
        StepKind("two_x", "up to two cards a turn until the next spin (spin2025 wheels only)"),
        StepKind(
            "war",
            "2005 War: each shows its highest number card until one is highest; it "
            "discards the cards it showed, and play continues after it",
            names_other=True,
        ),
        StepKind(
            "uno_spin_race",
            "2005 UNO Spin race: the fastest player (its reflex) wins; it is the other "
            "party, and play continues after it",
            names_other=True,
        ),
        StepKind(
            "repeat",
            "the steps, times times over",
            (
                Param("times", "int", "how many times", lo=1, hi=MAX_REPEAT),
                Param("steps", "steps", "the steps repeated"),
            ),
        ),
    )
}


@dataclass(frozen=True)
class Step:
    """One step of a program: its kind and every parameter (defaults filled in).

    Attributes
    ----------
    kind : str
        A key of :data:`STEPS`.
    params : tuple of (str, object)
        Every parameter of the kind, in the kind's order; a ``repeat``'s ``steps`` is a
        tuple of :class:`Step`.
    """

    kind: str
    params: tuple[tuple[str, Any], ...]

    def get(self, name: str) -> Any:
        """The value of the parameter ``name``."""
        return dict(self.params)[name]

    def as_dict(self) -> dict[str, Any]:
        """The step as plain data (``{"step": kind, **params}``), nested steps too: what
        the reference engine's interpreter reads."""
        out: dict[str, Any] = {"step": self.kind}
        for key, value in self.params:
            out[key] = [s.as_dict() for s in value] if key == "steps" else value
        return out


def _value(param: Param, value: object, fail: Fail) -> Any:
    """``value`` checked for ``param``; ``fail(problem)`` raises."""
    if param.kind in ("actor", "one", "target"):
        if not isinstance(value, str) or value not in PLAYERS:
            fail(f"unknown player {value!r} for {param.name}; expected one of {tuple(PLAYERS)}")
        player = PLAYERS[value]
        if param.kind != "target" and player.target_only:
            fail(f"{param.name} = {value!r}: {value!r} names only the other party of a step")
        if param.kind == "target" and player.many:
            fail(f"{param.name} = {value!r}: the other party is one player")
        if param.kind == "one" and player.many:
            fail(f"{param.name} = {value!r}: this step acts on one player")
        return value
    if param.kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            fail(f"{param.name} must be a whole number, got {value!r}")
        if not param.lo <= value <= param.hi:
            fail(f"{param.name} must be {param.lo}..{param.hi}, got {value!r}")
        return value
    if param.kind == "word":
        if value not in param.words:
            fail(f"{param.name} must be one of {param.words}, got {value!r}")
        return value
    if param.kind == "wild_stops":
        if not (isinstance(value, bool) or value == "option"):
            fail(f"{param.name} must be true, false or 'option', got {value!r}")
        return value
    if param.kind == "colours":
        words = [value] if isinstance(value, str) else value
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            fail(f"{param.name} must be a colour or a list of colours, got {value!r}")
        bad = [w for w in words if w not in COLOUR_WORDS]
        if bad:
            fail(f"unknown colour {bad[0]!r}; expected one of {COLOUR_WORDS}")
        return tuple(dict.fromkeys(words))
    raise AssertionError(param.kind)


def _step(raw: object, where: str, fail: Fail, named: bool) -> tuple[Step, bool]:
    """One raw step checked; ``named``: a step before it names another party. Returns the
    step and whether another party is named after it."""
    if not isinstance(raw, dict):
        fail(f"{where}: a step must be a table, got {raw!r}")
    step = raw.get("step")
    if step is None:
        fail(f"{where}: missing field 'step'")
    if step not in STEPS:
        fail(f"{where}: unknown step {step!r}; expected one of {tuple(STEPS)}")
    kind = STEPS[step]
    where = f"{where} ({step})"
    extra = [k for k in raw if k != "step" and kind.param(k) is None]
    if extra:
        fail(f"{where}: unknown parameter {extra[0]!r}")
    if kind.name == "repeat" and "times" not in raw:
        fail(f"{where}: could loop forever: a repeat needs a bound, times = 1..{MAX_REPEAT}")
    params: list[tuple[str, Any]] = []
    for p in kind.params:
        if p.name not in raw:
            if p.default is REQUIRED:
                fail(f"{where}: missing field {p.name!r}")
            params.append((p.name, p.default))
            continue
        value = raw[p.name]
        if p.kind == "steps":
            value, named = _program(value, f"{where} steps", fail, named)
        else:

            def located(problem: str) -> NoReturn:
                fail(f"{where}: {problem}")

            value = _value(p, value, located)
        params.append((p.name, value))
    out = Step(step, tuple(params))
    _combined(out, where, fail, named)
    return out, named or kind.names_other


def _combined(step: Step, where: str, fail: Fail, named: bool) -> None:
    """The checks of a step's parameters together."""
    values = dict(step.params)
    for key in ("who", "to", "with"):
        if values.get(key) == "other" and not named:
            fail(f"{where}: {key} = 'other' before any step names another party")
    if step.kind == "discard":
        if (values["what"] == "down_to") != (values["keep"] is not None):
            fail(f"{where}: keep is given with what = 'down_to', and only then")
    if step.kind in ("swap_hands", "give"):
        target = values["with" if step.kind == "swap_hands" else "to"]
        if target == values["who"] and target != "other":
            fail(f"{where}: the player and the other party are the same player")
    if step.kind == "draw_until":
        # the draw must be able to stop by its own rule whatever the rule options say
        if not values["colour"] and values["wild_stops"] is not True:
            fail(f"{where}: could loop forever: no colour stops the draw")


def _program(
    raw: object, where: str, fail: Fail, named: bool = False
) -> tuple[tuple[Step, ...], bool]:
    if not isinstance(raw, list) or not raw:
        fail(f"{where}: a program must be a non-empty list of steps")
    steps = []
    for k, item in enumerate(raw, 1):
        step, named = _step(item, f"{where} step {k}", fail, named)
        steps.append(step)
    return tuple(steps), named


def check_program(raw: object, file: str, space: str) -> tuple[Step, ...]:
    """A space's program checked, every default filled in.

    Parameters
    ----------
    raw : object
        The ``program`` value read from the file: a list of tables.
    file, space : str
        The file and the space, for the message.

    Returns
    -------
    tuple of Step

    Raises
    ------
    RuleError
        One line: ``FILE: space 'NAME': <where>: <problem>``.
    """

    def fail(problem: str) -> NoReturn:
        raise RuleError(f"{file}: space {space!r}: {problem}")

    steps, _ = _program(raw, "program", fail)
    runs = steps_run(steps)
    if runs > MAX_STEPS:
        fail(f"program: runs {runs} steps once its repeats are written out; at most {MAX_STEPS}")
    return steps


def steps_run(steps: tuple[Step, ...]) -> int:
    """The steps a program runs, its repeats written out."""
    return sum(
        s.get("times") * steps_run(s.get("steps")) if s.kind == "repeat" else 1 for s in steps
    )
