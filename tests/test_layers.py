"""The package's rooms use each other through public names only (issue 26).

A module imports no underscore name of another module of ``unospin_sim``: a name used
across a boundary is public where it is defined. ``REMAINING`` lists the crossings not yet
moved to where the modules use each other (issue 26's list); it may only shrink: a new
crossing fails, and so does an entry that no longer occurs.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "unospin_sim"

#: (importing module, imported module, name): crossings issue 26 has still to remove
REMAINING: set = set()


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(importer: str, is_pkg: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = importer.split(".")
    base = base if is_pkg else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def private_crossings() -> set[tuple[str, str, str]]:
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        importer = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            target = _resolve(importer, path.name == "__init__.py", node)
            if not target.startswith("unospin_sim"):
                continue
            for alias in node.names:
                name = alias.name
                if name.startswith("_") and not name.startswith("__") and target != importer:
                    found.add((importer, target, name))
    return found


def test_no_new_private_crossings():
    found = private_crossings()
    new = sorted(found - REMAINING)
    assert not new, f"imports of another module's private name: {new}"


def test_remaining_list_only_shrinks():
    gone = sorted(REMAINING - private_crossings())
    assert not gone, f"no longer crossing, remove from REMAINING: {gone}"


def test_the_results_rooms_import_one_way():
    """results/: schema <- tables <- match_tables <- store <- rundir <- outdir; load reads the
    schema only;
    the package's door imports the rooms, never the other way round."""
    order = {
        "schema": 0,
        "tables": 1,
        "match_tables": 2,
        "store": 3,
        "rundir": 4,
        "outdir": 5,
        "load": 1,
    }
    for path in (PACKAGE / "results").glob("*.py"):
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        me = path.stem
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                other = (node.module or "").split(".")[0]
                assert other in order, f"results/{me} imports .{node.module}"
                assert order[other] < order[me] or (me == "load" and other == "schema"), (
                    f"results/{me} imports results/{other}: against the flow"
                )


def test_the_reference_rooms_import_one_way():
    """reference/: cards, options, program_values <- state <- choices <- flow, house, wheel <-
    round <- match, steps;
    the package's door imports the modules, never the other way round."""
    order = {
        "cards": 0,
        "options": 0,
        "program_values": 0,
        "state": 1,
        "choices": 2,
        "flow": 3,
        "house": 3,
        "wheel": 3,
        "round": 4,
        "match": 5,
        "steps": 5,
    }
    paths = [p for p in (PACKAGE / "reference").glob("*.py") if p.name != "__init__.py"]
    assert {p.stem for p in paths} == set(order)
    for path in paths:
        me = path.stem
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert node.level == 1, f"reference/{me} imports from outside reference/"
                other = (node.module or "").split(".")[0]
                assert order[other] < order[me], f"reference/{me} imports reference/{other}"


# ==================================================================== room sizes (issue 26)
MAX_MODULE_LINES = 500  # a module of the package
MAX_FUNCTION_LINES = 120  # a function, decorators and docstring included
MAX_CLASS_LINES = 400  # a class (a mixin too), decorators and docstring included
#: modules and functions over those sizes not yet split (issue 26): may only shrink
OVERSIZE: set[tuple[str, ...]] = set()


def oversize() -> set[tuple[str, ...]]:
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > MAX_MODULE_LINES:
            found.add(("module", rel))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                if node.end_lineno - first + 1 > MAX_FUNCTION_LINES:
                    found.add(("function", rel, node.name))
            elif isinstance(node, ast.ClassDef):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                if node.end_lineno - first + 1 > MAX_CLASS_LINES:
                    found.add(("class", rel, node.name))
    return found


def test_no_new_oversized_room():
    """No module over MAX_MODULE_LINES lines, no function over MAX_FUNCTION_LINES, no class
    over MAX_CLASS_LINES, but those OVERSIZE lists; an entry that is no longer over must leave the list."""
    found = oversize()
    assert not sorted(found - OVERSIZE), f"over the size limits: {sorted(found - OVERSIZE)}"
    assert not sorted(OVERSIZE - found), f"no longer over, remove: {sorted(OVERSIZE - found)}"


# ==================================================================== the layers (issue 26)
#: each room of the package (a top-level module or subpackage) and its layer: a room imports
#: only rooms of lower layers (docs/ARCHITECTURE.md: rules -> engine -> bots -> results ->
#: analysis -> run -> report/plots, with the CLI the door on top)
LAYERS = {
    "errors": 0,
    "_text": 0,
    "_moved": 0,
    "__init__": 1,
    "__version__": 0,
    "rules": 1,
    "reference": 1,
    "engine": 2,
    "bots": 3,
    "results": 4,
    "analysis": 5,
    "run": 6,
    "plots": 7,
    "studies": 8,
    "report": 9,
    "cli": 10,
    "__main__": 11,
}
#: (importing room, imported room) against the layers, still to be moved (may only shrink)
UPWARD: set[tuple[str, str]] = set()


def room_imports() -> set[tuple[str, str]]:
    """(importing room, imported room) for every import between two rooms of the package,
    at module level or inside a function."""
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        importer = _module_name(path)
        room = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                target = _resolve(importer, path.name == "__init__.py", node)
                names = [a.name for a in node.names] if target == "unospin_sim" else [None]
            elif isinstance(node, ast.Import):
                target, names = "", []
                for a in node.names:
                    if a.name.startswith("unospin_sim."):
                        target, names = a.name, [None]
            else:
                continue
            if not target.startswith("unospin_sim"):
                continue
            for name in names:
                other = name if name else target.split(".")[1]
                if other != room:
                    found.add((room, other))
    return found


def test_imports_follow_the_layers():
    found = room_imports()
    rooms = {a for a, _ in found} | {b for _, b in found}
    assert not sorted(rooms - set(LAYERS)), f"rooms without a layer: {sorted(rooms - set(LAYERS))}"
    upward = {(a, b) for a, b in found if LAYERS[b] >= LAYERS[a]}
    assert not sorted(upward - UPWARD), f"imports against the layers: {sorted(upward - UPWARD)}"
    assert not sorted(UPWARD - upward), f"no longer against the layers: {sorted(UPWARD - upward)}"


# ==================================================================== parameters
MAX_PARAMETERS = 8  # a function or method outside engine/ (self and cls not counted)


def too_many_parameters() -> list[tuple[str, str, int]]:
    """(module, function, parameters) of every function outside ``engine/`` taking more
    than :data:`MAX_PARAMETERS`; ``*args`` and ``**kw`` count one each, so a function that
    passes keywords through ``**kw`` keeps its own list short as well."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith("engine/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
                if names and names[0] in ("self", "cls"):
                    names = names[1:]
                n = len(names) + (a.vararg is not None) + (a.kwarg is not None)
                if n > MAX_PARAMETERS:
                    found.append((rel, node.name, n))
    return found


def test_no_function_outside_the_engine_takes_more_than_eight_parameters():
    """A run's inputs travel as values (run.RunSpec, run.Execution), not loose parameters."""
    assert not too_many_parameters(), too_many_parameters()
