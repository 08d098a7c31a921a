"""``wheel --draw FILE``: the rule set's wheel drawn as SVG and PNG (``plots.plot_wheel``),
its slot layout printed. The files are checked before anything is drawn or played, so a bad
path is one line and nothing else happens."""

from __future__ import annotations

from pathlib import Path

from ..errors import UserError

__all__ = ["DRAW_FORMATS", "claim_draw_paths", "draw_wheel"]

#: the picture formats ``--draw`` writes, by file suffix
DRAW_FORMATS = (".svg", ".png")


def claim_draw_paths(text: str, overwrite: bool) -> list[Path]:
    """The files ``--draw text`` writes: ``text`` itself when it ends in ``.svg`` or
    ``.png``, else ``text.svg`` and ``text.png``; each checked to be writable (an existing
    file only with ``overwrite``).

    Raises
    ------
    UserError
        An empty name, another suffix, a directory, an existing file without
        ``overwrite``, a directory that does not exist or cannot be written to.
    """
    from ..results.store import unwritable

    if not text.strip():
        raise UserError("--draw needs a file name, got an empty string")
    path = Path(text)
    if path.is_dir():
        raise UserError(f"--draw {text} is a directory; give a file name")
    if path.suffix.lower() in DRAW_FORMATS:
        paths = [path]
    elif path.suffix:
        raise UserError(
            f"--draw {text}: the file must end in .svg or .png, or have no suffix "
            f"(then both FILE.svg and FILE.png are written)"
        )
    else:
        paths = [path.with_name(path.name + s) for s in DRAW_FORMATS]
    for p in paths:
        if p.is_dir():
            raise UserError(f"--draw {p} is a directory; give a file name")
        if p.exists() and not overwrite:
            raise UserError(
                f"--draw {p} already exists; pass --overwrite to replace it, or choose another name"
            )
        parent = p.parent
        if not parent.is_dir():
            raise UserError(f"--draw {p}: the directory {parent} does not exist")
        why = unwritable(parent)
        if why:
            raise UserError(f"--draw {p}: cannot write to {parent}: {why}")
    return paths


def draw_wheel(rules, paths: list[Path]) -> None:
    """Print the slot layout of the wheel of ``rules`` and write its picture to ``paths``
    (SVG with its labels as text, PNG at 150 dpi).

    Raises
    ------
    RuleError
        The wheel cannot be drawn (:func:`~unospin_sim.plots.wheel_segments`); raised
        before anything is printed or written.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..plots import LAYOUT_RULE, format_slots, plot_wheel, wheel_slots

    slots = wheel_slots(rules.option("wheel"))  # an undrawable wheel: one line, here
    ax = plot_wheel(rules)
    print(f"rules {rules}")
    print(format_slots(slots))
    print(f"({LAYOUT_RULE})")
    try:
        with matplotlib.rc_context({"svg.fonttype": "none"}):  # labels as text in the SVG
            for p in paths:
                svg = p.suffix.lower() == ".svg"
                ax.figure.savefig(
                    p,
                    format="svg" if svg else "png",
                    dpi=150,
                    bbox_inches="tight",
                    metadata={"Date": None} if svg else None,
                )
                print(f"written {p}")
    except OSError as e:
        raise UserError(f"cannot write {p}: {e.strerror or e}") from None
    finally:
        plt.close(ax.figure)
