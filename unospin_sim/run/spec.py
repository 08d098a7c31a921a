"""A run as two values: what it plays (:class:`RunSpec`) and how it is executed
(:class:`Execution`).

A :class:`RunSpec` is checked once, where it is built (:meth:`RunSpec.build` from user input,
:meth:`RunSpec.from_params` from a results directory's ``run.json``); from then on it is
trusted: chunks on local threads and Dask workers receive the value itself (it pickles) and
encode it for the kernel once per process (:func:`kernel_inputs`), without parsing or
checking it again.

>>> from unospin_sim.run import RunSpec, Execution, simulate
>>> spec = RunSpec.build("classic(players=4)", "random", games=1000, seed=1)
>>> res = simulate(spec, execution=Execution(threads=2))      # doctest: +SKIP
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..errors import UserError
from ..results.schema import VARIANT_KEY
from ..rules import RuleSet, parse_rules
from ..rules.variants import variant_record
from .inputs import MAX_SEED, TABLES, as_bots, as_rules, check_int, check_tables, default_threads

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.encode import KernelInputs

__all__ = ["Execution", "RunSpec", "kernel_inputs"]

#: the most threads a run may ask for
MAX_THREADS = 1024


@dataclass(frozen=True)
class RunSpec:
    """What a run plays; its results depend on these fields and nothing else.

    Attributes
    ----------
    rules : RuleSet
        The rule set (its turn cap is its rule option ``turn_cap``).
    bots : tuple of BotSpec
        One bot per seat (per player, with ``rotate_bots`` or in a match).
    games : int
        Rounds; under a match mode (rule option ``match=race|lowest``) whole matches.
    seed : int
        Run seed: game ``g`` draws from a stream seeded by ``(seed, g)`` only.
    rotate_bots : bool
        The deal passes one seat clockwise from game to game (seat ``s`` of game ``g`` holds
        player ``(s + g) mod N``), so consecutive rounds form matches for any mix of bots.
    check : bool
        The kernel verifies its invariants after every action (adds the column
        ``invariant_failures``; slower).
    tables : tuple of str
        Tables written to a results directory: ``("rounds", "spins")``, ``("rounds",)`` or
        ``()``.
    """

    rules: RuleSet
    bots: tuple
    games: int
    seed: int = 0
    rotate_bots: bool = False
    check: bool = False
    tables: tuple[str, ...] = TABLES

    @classmethod
    def build(
        cls,
        rules,
        bots="random",
        games: int = 1000,
        seed: int = 0,
        *,
        rotate_bots: bool = False,
        check: bool = False,
        tables=TABLES,
    ) -> RunSpec:
        """A checked run spec from user input: a rule set or rule string, a bot string or
        specs, whole numbers; every problem one :class:`~unospin_sim.errors.UserError` line."""
        rules = as_rules(rules)
        spec = cls(
            rules,
            tuple(as_bots(bots, rules.players)),
            check_int("games", games, 1),
            check_int("seed", seed, 0, MAX_SEED),
            bool(rotate_bots),
            bool(check),
            check_tables(tables),
        )
        if rules.plays_matches and spec.rotate_bots:
            raise UserError(
                f"rotate_bots cannot be combined with match={rules.option('match')}: "
                f"a match passes the deal itself"
            )
        kernel_inputs(spec)  # the encoder's checks of bots against rules, before any output
        return spec

    @classmethod
    def from_params(cls, params: dict) -> RunSpec:
        """The run spec a results directory's ``run.json`` records (:meth:`params`), checked
        as user input: the file may have been edited or damaged."""
        from ..bots import saved_bots
        from ..results.load import learn_variant

        learn_variant(params, "run.json")
        bots = params["bots"]
        if not (isinstance(bots, list) and all(isinstance(b, str) for b in bots)):
            raise UserError(f"bots must be a list of bot strings, got {bots!r:.60}")
        return cls.build(
            parse_rules(params["rules"]),
            saved_bots(bots),
            params["games"],
            params["seed"],
            rotate_bots=bool(params.get("rotate_bots", False)),
            check=bool(params.get("check", False)),
            tables=params.get("tables", TABLES),
        )

    def params(self) -> dict:
        """The fields as ``run.json`` stores them (canonical strings; saved bots name the
        knobs whose defaults may change)."""
        from ..bots import saved_bot_string

        out = {
            "rules": str(self.rules),
            "bots": [saved_bot_string(b) for b in self.bots],
            "seed": self.seed,
            "games": self.games,
            "rotate_bots": self.rotate_bots,
            "check": self.check,
            "tables": list(self.tables),
        }
        if self.rules.variant is not None:
            out[VARIANT_KEY] = variant_record(self.rules.variant)
        return out

    @property
    def searching(self) -> bool:
        """Whether a seat plays ``search`` (rounds about a thousand times dearer)."""
        return any(b.strategy == "search" for b in self.bots)

    @property
    def key(self) -> tuple:
        """What the kernel's inputs depend on: canonical rule and bot strings, ``check``."""
        from ..bots import bots_string

        return str(self.rules), bots_string(self.bots), self.check


@dataclass(frozen=True)
class Execution:
    """How a run is executed; its results never depend on these.

    Attributes
    ----------
    threads : int, optional
        Worker threads (default every core this process may use); ignored with ``client``.
    chunk_size : int, optional
        Games per task, and rows per Parquet part (default: about 16 chunks a thread,
        1,024 to 65,536 games; 8 or more with a ``search`` seat).
    out : path-like, optional
        Results directory to write (``rounds/``, ``spins/``, ``meta.json``, ``run.json``,
        ``manifest.jsonl``).
    overwrite : bool
        ``out`` may hold an earlier run; the new one is built beside it and replaces it once
        finished.
    progress : bool
        A progress bar on stderr.
    keep : bool or "summary"
        Keep the tables in memory; ``"summary"`` only the round columns ``game``,
        ``first_player``, ``winner`` and ``turns``; ``False`` nothing (both need ``out``).
    client : dask.distributed.Client, optional
        Play the chunks on a Dask cluster; the workers write their parts into ``out``.
    on_start : callable, optional
        Called with the :class:`~unospin_sim.results.rundir.RunStore` once its directory
        exists, before any game is played.
    label : str, optional
        The run's name (``run --label``): stored in ``meta.json`` (and ``run.json``, so that
        a resumed run keeps it) and used for the run in tables, charts and verdicts
        (:func:`~unospin_sim.results.run_label`); one line, at most 80 characters.
    """

    threads: int | None = None
    chunk_size: int | None = None
    out: Any = None
    overwrite: bool = False
    progress: bool = False
    keep: bool | str = True
    client: Any = None
    on_start: Callable | None = None
    label: str | None = None

    def resolved(self, spec: RunSpec | None = None) -> Execution:
        """These settings checked, with the defaults filled in (``chunk_size`` from
        ``spec``'s games and bots; left ``None`` without a spec)."""
        threads = default_threads() if self.threads is None else self.threads
        threads = check_int("threads", threads, 1, MAX_THREADS)
        chunk_size = self.chunk_size
        if chunk_size is None and spec is not None:
            # search plays ~1000x slower rounds: small chunks so that every thread gets work
            least = 8 if spec.searching else 1024
            chunk_size = int(min(65536, max(least, spec.games // (threads * 16) + 1)))
        if chunk_size is not None:
            chunk_size = check_int("chunk_size", chunk_size, 1)
        if self.keep not in (True, False, "summary"):
            raise UserError(f"keep must be True, False or 'summary', got {self.keep!r}")
        if self.keep is not True and self.out is None:
            raise UserError(f"keep={self.keep!r} needs an output directory (out)")
        label = self.label
        if label is not None:
            from ..results import check_label

            try:
                label = check_label(label)
            except ValueError as e:
                raise UserError(str(e)) from None
        return replace(self, threads=threads, chunk_size=chunk_size, label=label)

    @property
    def workers(self) -> int:
        """The threads of resolved settings (:meth:`resolved` fills them in)."""
        if self.threads is None:
            raise ValueError("Execution.workers of unresolved settings: call resolved() first")
        return self.threads

    @property
    def chunk(self) -> int:
        """The chunk size of resolved settings (:meth:`resolved` fills it in for a run)."""
        if self.chunk_size is None:
            raise ValueError("Execution.chunk of unresolved settings: call resolved(spec)")
        return self.chunk_size


_INPUTS: dict[tuple, KernelInputs] = {}
_INPUTS_LOCK = threading.Lock()


def kernel_inputs(spec: RunSpec) -> KernelInputs:
    """The kernel's arrays for ``spec`` (:func:`~unospin_sim.engine.encode.encode`), built
    once per process: threads and Dask workers encode a run once, not per chunk."""
    from ..engine.encode import encode

    with _INPUTS_LOCK:
        hit = _INPUTS.get(spec.key)
    if hit is None:
        hit = encode(spec.rules, spec.bots, spec.check)
        with _INPUTS_LOCK:
            _INPUTS[spec.key] = hit
    return hit
