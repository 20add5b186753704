"""No two modules of `tui/` import each other, directly or around a loop — counting the imports made
inside functions to dodge a cycle at load time (only `if TYPE_CHECKING:` imports are left out)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "tui"


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _typing_only(tree: ast.AST) -> set[ast.AST]:
    """The import statements under `if TYPE_CHECKING:` (never run)."""
    return {
        node
        for test in ast.walk(tree)
        if isinstance(test, ast.If) and "TYPE_CHECKING" in ast.unparse(test.test)
        for node in ast.walk(test)
        if isinstance(node, (ast.Import, ast.ImportFrom))
    }


def _imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _typing_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if node in skip:
            continue
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            out.add(module)
            out.update(f"{module}.{a.name}" for a in node.names)  # `from . import outcome` names a module
    # a module's own package (and its parents) are loaded before it: not an edge of a loop
    return {m for m in out if m in modules and m != name and not name.startswith(m + ".")}


def _loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    loops = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    top = stack.pop()
                    on.discard(top)
                    group.append(top)
                    if top == node:
                        break
                if len(group) > 1:
                    loops.append(sorted(group))
    return loops


def test_no_module_of_the_console_imports_itself_round_a_loop():
    modules = _modules()
    graph = {name: _imported(name, path, modules) for name, path in modules.items()}
    assert sum(len(v) for v in graph.values()) > 500  # the imports were read (a broken reader finds none)
    assert _loops(graph) == []


def test_a_loop_of_any_length_is_found_and_what_only_leads_into_it_is_not():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _loops(graph) == [["a", "b", "c"]]
