"""The output directory of a study command (``tournament``, ``wheel``): checked before any
work, so that a long study neither ends in an error nor silently replaces results.

A run's directory has its own rules (:mod:`.rundir`); a study writes a few named files, and
:func:`claim_out_dir` refuses a directory that holds anything else, or holds the study's own
files without ``overwrite``.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import ResultsError, reason
from .rundir import RUN_FILES
from .schema import META_FILE, TABLES
from .store import unwritable

__all__ = ["claim_out_dir", "remove_stale"]


def claim_out_dir(
    out: str | os.PathLike, own, command: str, overwrite: bool = False, flag: str = "--overwrite"
) -> Path:
    """Create ``out`` if needed and check that ``command`` may write its files there.

    Parameters
    ----------
    out : path
        The output directory.
    own : sequence of str
        The names of the files ``command`` writes directly in ``out``.
    command : str
        The command's name, for the messages (``"tournament"``).
    overwrite : bool
        Whether files of an earlier ``command`` in ``out`` may be replaced.
    flag : str
        What the refusal of ``command``'s own earlier files tells to do ("--overwrite";
        "" for a command without such a flag).

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ResultsError
        One line: ``out`` is a file, cannot be created or written, holds a run's results
        or a file ``command`` does not write (hidden files aside), or holds ``command``'s
        files without ``overwrite``.

    Examples
    --------
    >>> claim_out_dir("/tmp/t8", ["summary.md"], "tournament")  # doctest: +SKIP
    PosixPath('/tmp/t8')
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ResultsError(f"--out {out} exists and is not a directory")
    if out.is_dir():
        names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
        run = [n for n in names if n in (META_FILE, *TABLES, *RUN_FILES)]
        if run:
            raise ResultsError(
                f"--out {out} holds a run's results ({run[0]}); choose "
                f"another directory for the {command}'s files"
            )
        foreign = [n for n in names if n not in own]
        if foreign:
            raise ResultsError(
                f"--out {out} holds files {command} does not write "
                f"({foreign[0]}); choose another directory"
            )
        if names and not overwrite:
            todo = f"pass {flag} to replace them, or choose" if flag else "choose"
            raise ResultsError(
                f"--out {out} already holds {command} results ({names[0]}); "
                f"{todo} another directory"
            )
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ResultsError(f"cannot write to --out {out}: {reason(e)}") from None
    why = unwritable(out)
    if why:
        raise ResultsError(f"cannot write to --out {out}: {why}")
    return out


def remove_stale(out: Path, own, written) -> None:
    """Remove the files of ``own`` in ``out`` that this write did not write (``written``):
    an earlier study's optional files must not be read as this one's."""
    for name in set(own) - set(written):
        try:
            (out / name).unlink(missing_ok=True)
        except OSError as e:
            raise ResultsError(f"cannot remove the earlier {out / name}: {reason(e)}") from None
