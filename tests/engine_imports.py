"""The import graph of `engine/`, read from the source with `ast` (nothing is imported).

Used by tests/test_engine_structure.py; runnable alone (`python -m tests.engine_imports`) to
print the figures.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine"
EXPANSION = "engine.galaxy.strikeback"
# The core Galaxy rules: every module of engine/galaxy outside the expansion package, except
# the package's __init__, which composes the shipped game (core + expansion) and so names both.
CORE = "engine.galaxy"


@dataclass
class ModuleImports:
    name: str
    path: Path
    top: set[str] = field(default_factory=set)  # engine modules imported when it loads
    nested: list[tuple[int, str]] = field(default_factory=list)  # (line, target) in functions
    typing_only: set[str] = field(default_factory=set)  # under `if TYPE_CHECKING:`

    @property
    def nested_statements(self) -> int:
        """Import statements written inside a function (one may load several modules)."""
        return len({line for line, _ in self.nested})


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(ENGINE.rglob("*.py"))}


def _targets(
    node: ast.Import | ast.ImportFrom, here: str, is_package: bool, known: set[str]
) -> set[str]:
    """The engine modules one import statement loads (a `from pkg import sub` names the sub)."""
    found: set[str] = set()
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in known:
                found.add(alias.name)
        return found
    if node.level:
        base = here.split(".") if is_package else here.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        module = ".".join(base + ([node.module] if node.module else []))
    else:
        module = node.module or ""
    if not module.startswith("engine"):
        return found
    for alias in node.names:
        sub = f"{module}.{alias.name}"
        if sub in known:
            found.add(sub)
        elif module in known:
            found.add(module)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _visit(
    node: ast.AST, info: ModuleImports, known: set[str], in_function: bool, typing_only: bool
) -> None:
    is_package = info.path.name == "__init__.py"
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            targets = _targets(child, info.name, is_package, known)
            if in_function:
                # Imports from outside the engine count too: the rule is "none".
                outside = ["(outside engine)"]
                info.nested.extend((child.lineno, t) for t in sorted(targets) or outside)
            elif typing_only:
                info.typing_only |= targets
            else:
                info.top |= targets
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            _visit(child, info, known, True, typing_only)
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for stmt in child.body:
                _visit(ast.Module(body=[stmt], type_ignores=[]), info, known, in_function, True)
            for stmt in child.orelse:
                wrapped = ast.Module(body=[stmt], type_ignores=[])
                _visit(wrapped, info, known, in_function, typing_only)
        else:
            _visit(child, info, known, in_function, typing_only)


def read_imports() -> dict[str, ModuleImports]:
    modules = all_modules()
    known = set(modules)
    graph: dict[str, ModuleImports] = {}
    for name, path in modules.items():
        info = ModuleImports(name, path)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        _visit(tree, info, known, False, False)
        graph[name] = info
    return graph


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (or a self-import), Tarjan."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def strong(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in edges.get(v, ()):
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    return found


def all_edges(graph: dict[str, ModuleImports]) -> dict[str, set[str]]:
    """Every import that runs, at load or in a function (type-only imports never run)."""
    return {
        name: (info.top | {t for _, t in info.nested if t in graph}) - {name}
        for name, info in graph.items()
    }


def is_core_galaxy(name: str) -> bool:
    return name.startswith(CORE + ".") and not (
        name == EXPANSION or name.startswith(EXPANSION + ".")
    )


def expansion_references(graph: dict[str, ModuleImports]) -> dict[str, list[str]]:
    """Where a core Galaxy module names the expansion: an import of it, or the word in code."""
    found: dict[str, list[str]] = {}
    for name, info in graph.items():
        if not is_core_galaxy(name):
            continue
        hits = [
            f"imports {t}"
            for t in sorted(info.top | info.typing_only | {t for _, t in info.nested})
            if t == EXPANSION or t.startswith(EXPANSION + ".")
        ]
        tree = ast.parse(info.path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "strikeback":
                hits.append(f"line {node.lineno}: .strikeback")
        if hits:
            found[name] = hits
    return found


def main() -> None:
    graph = read_imports()
    nested = sum(info.nested_statements for info in graph.values())
    found = cycles(all_edges(graph))
    refs = expansion_references(graph)
    print(f"modules {len(graph)}; function-level imports {nested}")
    for prefix in ("engine.galaxy.strikeback.mission_rules", "engine.galaxy.strikeback"):
        inside = sum(i.nested_statements for n, i in graph.items() if n.startswith(prefix))
        print(f"  in {prefix}: {inside}")
    print(f"cycles {len(found)}: sizes {[len(c) for c in found]}")
    print(f"core references to the expansion {sum(len(v) for v in refs.values())}")
    for name, hits in sorted(refs.items()):
        print(f"  {name}: {len(hits)}")


if __name__ == "__main__":
    main()
