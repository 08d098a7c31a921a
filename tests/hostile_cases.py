"""A catalogue of hostile input, as data: ``tests/test_hostile.py`` walks it.

Each :class:`Case` is a command line for ``python -m unospin_sim`` that must fail with exit
status 2 and exactly one line ``unospin_sim: error: ...`` on stderr naming the problem
(it contains every word of ``expect``), without a traceback and without touching anything
on disk: the test compares the whole working directory (where ``run`` would write
``results/``) and any prepared results directory byte for byte before and after.

``argv`` may hold ``{dir}``: the path of a directory ``DIR`` in the test's temporary
directory.  ``setup(DIR)``, when given, prepares it (a finished run, a damaged run, a file,
another tool's directory, ...); without a setup ``DIR`` does not exist.

Cases cover the flags of ``run`` and ``play`` (``CLI``), rule strings (``RULES``), wheel
strings (``WHEEL``), bot strings (``BOTS``), output directories (``OUT``) and results
directories read by ``summary`` (``SUMMARY``).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from unospin_sim.run import Execution

__all__ = ["CASES", "GROUPS", "Case", "good_run"]


@dataclass(frozen=True)
class Case:
    """One hostile command line.

    Attributes
    ----------
    id : str
        Unique, used as the test id.
    group : str
        One of :data:`GROUPS`.
    argv : tuple of str
        Arguments after ``python -m unospin_sim``; ``{dir}`` is replaced by ``DIR``.
    expect : tuple of str
        Words the error line must contain.
    setup : callable, optional
        ``setup(DIR)`` prepares ``DIR`` before the command runs.
    """

    id: str
    group: str
    argv: tuple[str, ...]
    expect: tuple[str, ...]
    setup: Callable[[Path], None] | None = field(default=None, compare=False)


GROUPS = ("CLI", "RULES", "WHEEL", "BOTS", "OUT", "SUMMARY")

#: appended to ``run`` cases that do not set them: should validation ever miss a case, the
#: command plays a handful of games quietly instead of a million with a progress bar
_RUN_TAIL = (("--games", "20"), ("--threads", "1"), ("--quiet",))


def _run(*args: str) -> tuple[str, ...]:
    """``run ARGS`` plus whichever flags of :data:`_RUN_TAIL` ARGS does not set."""
    tail = [word for flag in _RUN_TAIL if flag[0] not in args for word in flag]
    return ("run", *args, *tail)


# ------------------------------------------------------------------------------------------
# results directories


def good_run(
    d: Path, rules: str = "spin2025(players=3)", games: int = 300, chunk_size: int = 100
) -> None:
    """Write a real, complete results directory (3 parts per table by default)."""
    from unospin_sim.run import simulate

    simulate(
        rules,
        "random",
        games=games,
        seed=7,
        execution=Execution(threads=1, chunk_size=chunk_size, out=d),
    )


def _edit_meta(**changes) -> Callable[[Path], None]:
    def setup(d: Path) -> None:
        good_run(d)
        meta = json.loads((d / "meta.json").read_text())
        meta.update(changes)
        (d / "meta.json").write_text(json.dumps(meta))

    return setup


def _meta_text(text: str | bytes) -> Callable[[Path], None]:
    def setup(d: Path) -> None:
        good_run(d)
        if isinstance(text, bytes):
            (d / "meta.json").write_bytes(text)
        else:
            (d / "meta.json").write_text(text)

    return setup


def _unfinished(d: Path) -> None:
    good_run(d)
    (d / "meta.json").unlink()


def _truncated(d: Path) -> None:
    good_run(d)
    part = d / "rounds" / "part-00001.parquet"
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])


def _empty_part(d: Path) -> None:
    good_run(d)
    (d / "rounds" / "part-00002.parquet").write_bytes(b"")


def _junk_part(d: Path) -> None:
    good_run(d)
    (d / "spins" / "part-00000.parquet").write_bytes(b"PAR1" + bytes(range(256)) * 3 + b"PAR1")


def _foreign_table(d: Path) -> None:
    """A valid Parquet file of another table in place of one part."""
    import pandas as pd

    good_run(d)
    pd.DataFrame({"id": range(100), "price": [1.5] * 100}).to_parquet(
        d / "rounds" / "part-00001.parquet", index=False
    )


def _foreign_tables(d: Path) -> None:
    """Every round part replaced by another tool's table with the same number of rows."""
    import pandas as pd

    good_run(d)
    for f in sorted((d / "rounds").glob("part-*.parquet")):
        pd.DataFrame({"id": range(100), "price": [1.5] * 100}).to_parquet(f, index=False)


def _stringly_typed(d: Path) -> None:
    """Same column names, but ``winner`` written as text in every part."""
    import pandas as pd

    good_run(d)
    for f in sorted((d / "rounds").glob("part-*.parquet")):
        df = pd.read_parquet(f)
        df["winner"] = df["winner"].astype(str)
        df.to_parquet(f, index=False)


def _float_with_gaps(d: Path) -> None:
    """``turns`` written as floats with a missing value (e.g. by a spreadsheet round trip)."""
    import pandas as pd

    good_run(d)
    f = d / "rounds" / "part-00000.parquet"
    df = pd.read_parquet(f)
    df["turns"] = df["turns"].astype("float64")
    df.loc[3, "turns"] = float("nan")
    df.to_parquet(f, index=False)


def _part_copied_twice(d: Path) -> None:
    good_run(d)
    shutil.copyfile(d / "rounds" / "part-00000.parquet", d / "rounds" / "part-00001.parquet")


def _part_removed(d: Path) -> None:
    good_run(d)
    (d / "rounds" / "part-00002.parquet").unlink()


def _part_is_dir(d: Path) -> None:
    good_run(d)
    part = d / "rounds" / "part-00001.parquet"
    part.unlink()
    part.mkdir()
    good_run(d.parent / "other")
    shutil.copyfile(d.parent / "other" / "rounds" / "part-00001.parquet", part / "x.parquet")


def _rounds_is_file(d: Path) -> None:
    good_run(d)
    shutil.rmtree(d / "rounds")
    (d / "rounds").write_text("not a directory\n")


def _bad_space_names(d: Path) -> None:
    import pandas as pd

    good_run(d)
    f = d / "spins" / "part-00000.parquet"
    df = pd.read_parquet(f)
    df["space"] = df["space"].astype(str).str.upper()
    df.to_parquet(f, index=False)


def _other_tool(d: Path) -> None:
    (d / "src").mkdir(parents=True)
    (d / "src" / "main.c").write_text("int main(void) { return 0; }\n")
    (d / "README.md").write_text("# another project\n")
    (d / "data.csv").write_text("a,b\n1,2\n")


def _other_tool_with_meta(d: Path) -> None:
    _other_tool(d)
    (d / "meta.json").write_text('{"name": "other-tool", "version": "2.0", "files": 3}\n')


def _a_file(d: Path) -> None:
    d.parent.mkdir(parents=True, exist_ok=True)
    d.write_text("just a file\n")


def _meta_is_dir(d: Path) -> None:
    good_run(d)
    (d / "meta.json").unlink()
    (d / "meta.json").mkdir()


def _good_plus_foreign(d: Path) -> None:
    good_run(d)
    (d / "rounds" / "notes.txt").write_text("my notes\n")


# ------------------------------------------------------------------------------------------
# the catalogue

_BIG = "9" * 30

CASES: list[Case] = [
    # --- CLI flags -----------------------------------------------------------------------
    Case("games-negative", "CLI", _run("--games", "-5"), ("games", "-5")),
    Case("games-fraction", "CLI", _run("--games", "1.5"), ("games", "1.5")),
    Case("games-word", "CLI", _run("--games", "lots"), ("games", "lots")),
    Case("games-zero", "CLI", _run("--games", "0"), ("games",)),
    Case("games-1e99", "CLI", _run("--games", "1e99"), ("games", "at most")),
    Case("games-nan", "CLI", _run("--games", "nan"), ("games",)),
    Case("players-11", "CLI", _run("--players", "11"), ("players", "11")),
    Case("players-1", "CLI", _run("--players", "1"), ("players",)),
    Case("players-word", "CLI", _run("--players", "two"), ("players", "two")),
    Case("edition-unknown", "CLI", _run("--edition", "nope"), ("edition", "nope")),
    Case("edition-empty", "CLI", _run("--edition", ""), ("edition",)),
    Case("threads-0", "CLI", _run("--threads", "0"), ("threads",)),
    Case("threads-5000", "CLI", _run("--threads", "5000"), ("threads", "5000")),
    Case("seed-negative", "CLI", _run("--seed", "-1"), ("seed", "-1")),
    Case("seed-huge", "CLI", _run("--seed", str(2**63)), ("seed",)),
    Case("turn-cap-0", "CLI", _run("--turn-cap", "0"), ("turn cap",)),
    Case("turn-cap-huge", "CLI", _run("--turn-cap", str(10**13)), ("turn_cap",)),
    Case("chunk-size-0", "CLI", _run("--chunk-size", "0"), ("chunk size",)),
    Case("option-unknown", "CLI", _run("--option", "unknown=1"), ("unknown",)),
    Case(
        "option-partners-odd",
        "CLI",
        _run("--players", "3", "--option", "partners=true"),
        ("partners=true", "players=3"),
    ),
    Case("option-malformed", "CLI", _run("--option", "novalue"), ("key=value",)),
    Case(
        "option-bad-bool",
        "CLI",
        _run("--option", "wild_matches_colour=maybe"),
        ("wild_matches_colour", "true or false"),
    ),
    Case("option-turn-cap-huge", "CLI", _run("--option", f"turn_cap={_BIG}"), ("turn_cap",)),
    Case(
        "option-and-flag",
        "CLI",
        _run("--option", "players=3", "--players", "3"),
        ("players", "both"),
    ),
    Case(
        "wild-spin-classic",
        "CLI",
        _run("--edition", "classic", "--option", "wild_spin_cards=2"),
        ("wild_spin_cards", "classic"),
    ),
    Case("subcommand-unknown", "CLI", ("bogus",), ("bogus",)),
    Case("no-subcommand", "CLI", (), ("COMMAND",)),
    Case("flag-unknown", "CLI", _run("--frobnicate"), ("frobnicate",)),
    Case("play-game-negative", "CLI", ("play", "--game", "-1"), ("game",)),
    Case("play-turn-cap-huge", "CLI", ("play", "--turn-cap", str(10**17)), ("turn_cap",)),
    Case("play-players-11", "CLI", ("play", "--players", "11"), ("players",)),
    # --- rule strings --------------------------------------------------------------------
    Case(
        "rules-vs-edition",
        "RULES",
        _run("--rules", "classic(players=3)", "--edition", "spin2025"),
        ("--edition", "contradicts"),
    ),
    Case(
        "rules-vs-players",
        "RULES",
        _run("--rules", "classic(players=3)", "--players", "4"),
        ("--players", "contradicts"),
    ),
    Case(
        "rules-vs-wheel",
        "RULES",
        _run("--rules", "spin2025(wheel={two_x:1})", "--wheel", "swap_hands=1"),
        ("--wheel", "contradicts"),
    ),
    Case("rules-malformed", "RULES", _run("--rules", "spin2025(players=4"), ("malformed",)),
    Case("rules-trailing-junk", "RULES", _run("--rules", "spin2025(players=3)(x)"), ("malformed",)),
    Case("rules-unknown-edition", "RULES", _run("--rules", "nope(players=2)"), ("edition", "nope")),
    Case("rules-empty", "RULES", _run("--rules", ""), ("empty rule string",)),
    Case(
        "rules-wild-spin-classic",
        "RULES",
        _run("--rules", "classic(wild_spin_cards=2)"),
        ("wild_spin_cards", "classic"),
    ),
    Case(
        "rules-wild-spin-range",
        "RULES",
        _run("--rules", "spin2025(wild_spin_cards=5)"),
        ("wild_spin_cards",),
    ),
    Case(
        "rules-option-twice", "RULES", _run("--rules", "classic(players=3,players=3)"), ("twice",)
    ),
    Case(
        "rules-partners-odd",
        "RULES",
        _run("--rules", "classic(players=5,partners=true)"),
        ("partners=true", "players=5"),
    ),
    Case("rules-bad-wheel", "RULES", _run("--rules", "spin2025(wheel={two_x:-1})"), ("negative",)),
    # --- wheel strings -------------------------------------------------------------------
    Case(
        "wheel-2005-space-on-2025",
        "WHEEL",
        _run("--edition", "spin2025", "--wheel", "war=1"),
        ("war", "spin2005"),
    ),
    Case(
        "wheel-2025-space-on-2005",
        "WHEEL",
        _run("--edition", "spin2005", "--wheel", "two_x=1"),
        ("two_x", "spin2025"),
    ),
    Case("wheel-negative", "WHEEL", _run("--wheel", "two_x=-1"), ("negative",)),
    Case("wheel-all-zero", "WHEEL", _run("--wheel", "two_x=0,swap_hands=0"), ("zero",)),
    Case("wheel-non-numeric", "WHEEL", _run("--wheel", "two_x=lots"), ("number", "lots")),
    Case("wheel-infinite", "WHEEL", _run("--wheel", "two_x=inf"), ("finite",)),
    Case(
        "wheel-sum-overflows",
        "WHEEL",
        _run("--wheel", "two_x=1e308,swap_hands=1e308"),
        ("too large",),
    ),
    Case(
        "wheel-on-classic", "WHEEL", _run("--edition", "classic", "--wheel", "war=1"), ("no wheel",)
    ),
    Case("wheel-space-twice", "WHEEL", _run("--wheel", "two_x=1,two_x=2"), ("twice",)),
    Case("wheel-empty", "WHEEL", _run("--wheel", ""), ("empty wheel",)),
    Case("wheel-unknown-space", "WHEEL", _run("--wheel", "jackpot=1"), ("jackpot",)),
    # --- bot strings ---------------------------------------------------------------------
    Case("bots-unknown", "BOTS", _run("--bots", "nope"), ("nope", "strategy")),
    Case("bots-wrong-count", "BOTS", _run("--bots", "random,heuristic"), ("2 bots", "4 players")),
    Case("bots-unknown-knob", "BOTS", _run("--bots", "heuristic(sneaky=1)"), ("sneaky",)),
    Case("bots-knob-out-of-range", "BOTS", _run("--bots", "heuristic(forget=1.5)"), ("forget",)),
    Case("bots-knob-nan", "BOTS", _run("--bots", "heuristic(catch=nan)"), ("catch",)),
    Case("bots-reflex-zero", "BOTS", _run("--bots", "random(reflex=0)"), ("reflex",)),
    Case(
        "bots-reflex-sum-overflows",
        "BOTS",
        _run("--edition", "spin2005", "--bots", "random(reflex=1e308)"),
        ("reflex", "too large"),
    ),
    Case("bots-malformed", "BOTS", _run("--bots", "heuristic(forget=0.1"), ("malformed",)),
    Case(
        "bots-knob-twice", "BOTS", _run("--bots", "random(bluff=0.1,bluff=0.2)"), ("bluff", "twice")
    ),
    # --- output directories --------------------------------------------------------------
    Case("out-unwritable", "OUT", _run("--out", "/proc/unospin-nope"), ("/proc/unospin-nope",)),
    Case("out-under-a-file", "OUT", _run("--out", "{dir}/sub"), ("cannot create",), setup=_a_file),
    Case("out-is-a-file", "OUT", _run("--out", "{dir}"), ("not a directory",), setup=_a_file),
    Case("out-empty", "OUT", _run("--out", ""), ("--out",)),
    Case(
        "out-holds-results",
        "OUT",
        _run("--out", "{dir}"),
        ("already holds results",),
        setup=good_run,
    ),
    Case(
        "out-holds-unfinished-run",
        "OUT",
        _run("--out", "{dir}"),
        ("holds an unfinished run", "--resume"),
        setup=_unfinished,
    ),
    Case(
        "out-overwrite-foreign-file",
        "OUT",
        _run("--out", "{dir}", "--overwrite"),
        ("did not write", "notes.txt"),
        setup=_good_plus_foreign,
    ),
    Case(
        "out-overwrite-but-bad-bots",
        "OUT",
        _run("--out", "{dir}", "--overwrite", "--bots", "nope"),
        ("nope",),
        setup=good_run,
    ),
    Case(
        "out-overwrite-but-bad-rules",
        "OUT",
        _run("--out", "{dir}", "--overwrite", "--rules", "spin2025(players=99)"),
        ("players",),
        setup=good_run,
    ),
    # --- results directories (summary) ---------------------------------------------------
    Case("summary-missing-dir", "SUMMARY", ("summary", "{dir}"), ("no results directory",)),
    Case("summary-no-dir-argument", "SUMMARY", ("summary",), ("DIR",)),
    Case("summary-empty-argument", "SUMMARY", ("summary", ""), ("empty",)),
    Case(
        "summary-dir-is-file", "SUMMARY", ("summary", "{dir}"), ("not a directory",), setup=_a_file
    ),
    Case(
        "summary-missing-meta",
        "SUMMARY",
        ("summary", "{dir}"),
        ("meta.json", "finish"),
        setup=_unfinished,
    ),
    Case(
        "summary-meta-is-dir", "SUMMARY", ("summary", "{dir}"), ("meta.json",), setup=_meta_is_dir
    ),
    Case(
        "summary-garbage-meta",
        "SUMMARY",
        ("summary", "{dir}"),
        ("meta.json", "JSON"),
        setup=_meta_text("{this is not json"),
    ),
    Case(
        "summary-empty-meta",
        "SUMMARY",
        ("summary", "{dir}"),
        ("meta.json", "JSON"),
        setup=_meta_text(""),
    ),
    Case(
        "summary-binary-meta",
        "SUMMARY",
        ("summary", "{dir}"),
        ("meta.json", "JSON"),
        setup=_meta_text(bytes(range(256))),
    ),
    Case(
        "summary-deeply-nested-meta",
        "SUMMARY",
        ("summary", "{dir}"),
        ("meta.json", "JSON"),
        setup=_meta_text("[" * 100_000 + "]" * 100_000),
    ),
    Case(
        "summary-meta-huge-integer",
        "SUMMARY",
        ("summary", "{dir}"),
        ("meta.json", "JSON"),
        setup=_meta_text('{"rules": "classic", "games": ' + "9" * 5000 + "}"),
    ),
    Case(
        "summary-meta-not-object",
        "SUMMARY",
        ("summary", "{dir}"),
        ("JSON object",),
        setup=_meta_text("[1, 2, 3]"),
    ),
    Case(
        "summary-meta-bad-rules",
        "SUMMARY",
        ("summary", "{dir}"),
        ("bad rule string",),
        setup=_edit_meta(rules="spin2025(players=3,partners=true)"),
    ),
    Case(
        "summary-meta-bad-games",
        "SUMMARY",
        ("summary", "{dir}"),
        ("games",),
        setup=_edit_meta(games="lots"),
    ),
    Case(
        "summary-meta-games-mismatch",
        "SUMMARY",
        ("summary", "{dir}"),
        ("300 rounds", "301 games"),
        setup=_edit_meta(games=301),
    ),
    Case(
        "summary-meta-parts-mismatch",
        "SUMMARY",
        ("summary", "{dir}"),
        ("part files", "meta.json lists"),
        setup=_edit_meta(parts={"rounds": 4, "spins": 3}),
    ),
    Case(
        "summary-part-missing",
        "SUMMARY",
        ("summary", "{dir}"),
        ("missing or extra",),
        setup=_part_removed,
    ),
    Case(
        "summary-truncated-part",
        "SUMMARY",
        ("summary", "{dir}"),
        ("part-00001.parquet", "truncated or corrupt"),
        setup=_truncated,
    ),
    Case(
        "summary-empty-part",
        "SUMMARY",
        ("summary", "{dir}"),
        ("part-00002.parquet", "truncated or corrupt"),
        setup=_empty_part,
    ),
    Case(
        "summary-junk-part",
        "SUMMARY",
        ("summary", "{dir}"),
        ("part-00000.parquet", "truncated or corrupt"),
        setup=_junk_part,
    ),
    Case(
        "summary-part-of-another-schema",
        "SUMMARY",
        ("summary", "{dir}"),
        ("part-00001.parquet", "other columns"),
        setup=_foreign_table,
    ),
    Case(
        "summary-parts-of-another-tool",
        "SUMMARY",
        ("summary", "{dir}"),
        ("lacks columns", "game"),
        setup=_foreign_tables,
    ),
    Case(
        "summary-column-of-another-type",
        "SUMMARY",
        ("summary", "{dir}"),
        ("winner", "whole numbers"),
        setup=_stringly_typed,
    ),
    Case(
        "summary-column-with-gaps",
        "SUMMARY",
        ("summary", "{dir}"),
        ("turns", "whole numbers"),
        setup=_float_with_gaps,
    ),
    Case(
        "summary-part-copied-twice",
        "SUMMARY",
        ("summary", "{dir}"),
        ("game", "once each"),
        setup=_part_copied_twice,
    ),
    Case(
        "summary-part-is-a-directory",
        "SUMMARY",
        ("summary", "{dir}"),
        ("part-00001.parquet", "not a file"),
        setup=_part_is_dir,
    ),
    Case(
        "summary-rounds-is-a-file",
        "SUMMARY",
        ("summary", "{dir}"),
        ("part files",),
        setup=_rounds_is_file,
    ),
    Case(
        "summary-meta-fewer-players",
        "SUMMARY",
        ("summary", "{dir}"),
        ("players",),
        setup=_edit_meta(rules="spin2025(players=2)"),
    ),
    Case(
        "summary-meta-more-players",
        "SUMMARY",
        ("summary", "{dir}"),
        ("lacks columns", "cards_drawn_3"),
        setup=_edit_meta(rules="spin2025(players=6)"),
    ),
    Case(
        "summary-meta-other-edition",
        "SUMMARY",
        ("summary", "{dir}"),
        ("space", "classic"),
        setup=_edit_meta(rules="classic(players=3)"),
    ),
    Case(
        "summary-bad-space-names",
        "SUMMARY",
        ("summary", "{dir}"),
        ("space", "spin2025"),
        setup=_bad_space_names,
    ),
    Case(
        "summary-another-tools-dir",
        "SUMMARY",
        ("summary", "{dir}"),
        ("meta.json", "not a results directory"),
        setup=_other_tool,
    ),
    Case(
        "summary-another-tools-meta",
        "SUMMARY",
        ("summary", "{dir}"),
        ("lacks required keys", "rules"),
        setup=_other_tool_with_meta,
    ),
]
