"""The import graph of games/praga, from the top-level imports of each module's AST
(``if TYPE_CHECKING:`` blocks left out): cycles and function-local imports."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = "meeplehall.games.praga"
ROOT = Path(__file__).resolve().parents[3] / "src" / "meeplehall" / "games" / "praga"


def _target(node: ast.ImportFrom | ast.Import) -> set[str]:
    """The praga modules an import statement names."""
    out: set[str] = set()
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        if node.module == PACKAGE:
            out |= {a.name for a in node.names}
        elif node.module.startswith(PACKAGE + "."):
            out.add(node.module.split(".")[3])
    elif isinstance(node, ast.Import):
        out |= {a.name.split(".")[3] for a in node.names if a.name.startswith(PACKAGE + ".")}
    return out


def _type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def module_graph(root: Path) -> tuple[dict[str, set[str]], set[tuple[str, str]]]:
    """Top-level import edges per module, and (module, imported) pairs of imports made
    inside functions."""
    graph: dict[str, set[str]] = {}
    local: set[tuple[str, str]] = set()
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        name = path.stem
        graph[name] = set()
        for node in tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                graph[name] |= _target(node)
            elif not _type_checking(node):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Import | ast.ImportFrom):
                        local |= {(name, t) for t in _target(inner)}
    return graph, local


def on_cycles(graph: dict[str, set[str]]) -> set[str]:
    """The modules that can reach themselves (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[str] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                found.update(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_cycles() -> None:
    assert on_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {"a", "b", "c"}
    assert on_cycles({"a": {"a"}}) == {"a"}
    assert on_cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == set()


def test_the_function_local_import_finder(tmp_path: Path) -> None:
    (tmp_path / "x.py").write_text(
        "from meeplehall.games.praga import y\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from meeplehall.games.praga.z import Z\n"
        "def f():\n    from meeplehall.games.praga.w import g\n", encoding="utf-8")
    graph, local = module_graph(tmp_path)
    assert graph == {"x": {"y"}} and local == {("x", "w")}


def test_games_praga_has_no_import_cycle_and_no_function_local_import() -> None:
    """Imports inside games/praga go one way: the step modules push decisions through
    links.py, which decisions.py and final.py bind (no module imports one above it)."""
    graph, local = module_graph(ROOT)
    assert {"state", "components", "decisions", "links", "rules", "game"} <= set(graph)
    assert on_cycles(graph) == set()
    assert local == set()
    assert not graph["links"] - {"state", "components"}
