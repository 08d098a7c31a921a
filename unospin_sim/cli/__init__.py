"""The command line: ``python -m unospin_sim {run,play,summary,report,...} ...``.

A thin layer: it parses and validates every flag (so bad input fails before any
simulation starts), builds the :class:`~unospin_sim.rules.RuleSet` and bot specs, and calls
:func:`unospin_sim.runner.simulate` or :func:`unospin_sim.run.playthrough.play_text`.

Every user error prints one line ``unospin_sim: error: <message>`` on stderr and exits with
status 2; an interrupt (Ctrl-C) exits with 130, keeping the result parts already written.

The rooms: ``flags`` (argument types, the rule and bot flags, the RuleSet and bot specs they
make), ``commands`` (run, play, summary, report, compile), ``compare``, ``drama``, ``studies`` (wheel, tournament, tune), ``skill``, ``design``
design); this door builds the parser and runs a command. New subcommands register
themselves in :data:`COMMANDS` (a function adding the subparser).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading

from .. import __version__
from ..errors import UserError
from .commands import (
    add_compile,
    add_play,
    add_report,
    add_run,
    add_summary,
    cmd_compile,
    cmd_play,
    cmd_report,
    cmd_run,
    cmd_summary,
)
from .compare import add_compare, cmd_compare
from .design import add_design, cmd_design
from .drama import add_drama, cmd_drama
from .flags import (
    DEFAULT_BOTS,
    DEFAULT_EDITION,
    MAX_GAMES,
    MAX_SEED,
    MAX_THREADS,
    PROG,
    Parser,
    parse_games,
    resolve_bots,
    resolve_rules,
    resume_command,
)
from .skill import add_skill, cmd_skill
from .studies import add_tournament, add_tune, add_wheel, cmd_tournament, cmd_tune, cmd_wheel
from .worth import add_worth, cmd_worth

__all__ = [
    "COMMANDS",
    "DEFAULT_BOTS",
    "DEFAULT_EDITION",
    "MAX_GAMES",
    "MAX_SEED",
    "MAX_THREADS",
    "PROG",
    "build_parser",
    "cmd_compare",
    "cmd_compile",
    "cmd_design",
    "cmd_drama",
    "cmd_play",
    "cmd_report",
    "cmd_run",
    "cmd_skill",
    "cmd_summary",
    "cmd_tournament",
    "cmd_tune",
    "cmd_wheel",
    "cmd_worth",
    "main",
    "parse_games",
    "resolve_bots",
    "resolve_rules",
]


COMMANDS = [
    add_run,
    add_play,
    add_summary,
    add_report,
    add_compare,
    add_drama,
    add_wheel,
    add_tournament,
    add_tune,
    add_skill,
    add_worth,
    add_design,
    add_compile,
]


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every subcommand of :data:`COMMANDS`."""
    parser = Parser(
        prog=PROG, description="Monte Carlo simulation of UNO Spin and classic UNO (see README.md)."
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=Parser
    )
    for add in COMMANDS:
        add(sub)
    return parser


def _error_line(message: str) -> None:
    print(f"{PROG}: error: {' '.join(str(message).split())}", file=sys.stderr, flush=True)


class _Terminated(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl-C (exit status 143)."""


def _terminate(signum, frame):
    raise _Terminated()


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, 2 on a user error, 130 on Ctrl-C).

    Parameters
    ----------
    argv : list of str, optional
        Arguments without the program name (default ``sys.argv[1:]``).
    """
    state: dict = {"argv": list(sys.argv[1:] if argv is None else argv)}
    old_term = None
    if threading.current_thread() is threading.main_thread():
        old_term = signal.signal(signal.SIGTERM, _terminate)
    try:
        args = build_parser().parse_args(argv)
        return args.func(args, state)
    except UserError as e:
        _error_line(str(e))
        return 2
    except KeyboardInterrupt as e:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not interrupt exit
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        store = state.get("store")
        where = ""
        if store is not None:
            where = (
                f"; {len(store.done)} of {store.nchunks} chunks are saved in "
                f"{store.path}; finish with: {resume_command(store.path)}"
            )
        print(
            f"\n{PROG}: {'terminated' if isinstance(e, _Terminated) else 'interrupted'}{where}",
            file=sys.stderr,
            flush=True,
        )
        return 143 if isinstance(e, _Terminated) else 130
    except BrokenPipeError:  # e.g. `play | head`: not an error
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
