"""No import circle in pysolver/: every module's imports, function-level ones included."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pysolver"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(path: Path, name: str, known: set[str]) -> set[str]:
    """The pysolver modules one module imports anywhere in it (functions, TYPE_CHECKING
    blocks). ``from a import b`` is an edge to ``a.b`` when that is a module, else to ``a``;
    the parent packages Python initialises first are not edges (a package's ``__init__`` may
    re-export its submodules without making a circle of every import below it)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                targets.add(submodule if submodule in known else base)
    return {target for target in targets if target in known and target != name}


def import_graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imported(path, name, known) for name, path in found.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of ``graph`` as the modules along it (first repeated last), or None."""
    state: dict[str, str] = {}  # "open" while on the current path, "done" after
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = "open"
        path.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == "open":
                return [*path[path.index(target) :], target]
            if target not in state and (cycle := visit(target)) is not None:
                return cycle
        path.pop()
        state[name] = "done"
        return None

    for name in sorted(graph):
        if name not in state and (cycle := visit(name)) is not None:
            return cycle
    return None


def test_the_graph_sees_function_level_and_relative_imports():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    # The midend imports the parallel package only inside a function; the graph still sees it.
    assert "pysolver.parallel" in import_graph()["pysolver.midend.requests"]


def test_no_import_circle_in_pysolver():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_parallel_search_imports_neither_the_api_nor_the_kinds():
    graph = import_graph()
    parallel = [name for name in graph if name.split(".")[:2] == ["pysolver", "parallel"]]
    assert len(parallel) > 1  # a package of modules
    forbidden = ("pysolver.api", "pysolver.kinds", "pysolver.midend")
    for name in parallel:
        wrong = [t for t in graph[name] if t.startswith(forbidden)]
        assert not wrong, f"{name} imports {wrong}"
