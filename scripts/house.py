"""Draw the house: modules per layer, the largest functions, and the import arrows between sub-packages.

    python scripts/house.py            # markdown, as docs/development.md shows it

Reads the package's source (ast) and its import graph (grimp, which import-linter uses): every import counts,
those inside functions and under TYPE_CHECKING included, as the layers contracts count them.
"""

from __future__ import annotations

import ast
import os
import sys
from collections import Counter

import grimp

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "multidebate")
LAYERS = ("cli", "run", "views", "turns", "skill", "sync", "analysis", "state", "protocol")


def _sub(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in LAYERS) else "(top)"


def _functions() -> list[tuple[int, str]]:
    found = []
    for folder, _dirs, files in os.walk(ROOT):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, os.path.dirname(ROOT))[:-3].replace(os.sep, ".")
            tree = ast.parse(open(path, encoding="utf-8").read())
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    size = (node.end_lineno or node.lineno) - node.lineno + 1
                    found.append((size, f"{rel.removeprefix('multidebate.')}.{node.name}"
                                  + ("" if isinstance(node, ast.ClassDef) else "()")))
    return sorted(found, reverse=True)


def _cycles(graph: grimp.ImportGraph) -> list[str]:
    """Pairs of sibling modules that import each other, directly or through siblings, in each sub-package."""
    out = []
    for layer in LAYERS:
        package = f"multidebate.{layer}"
        children = sorted(graph.find_children(package))
        for i, a in enumerate(children):
            for b in children[i + 1:]:
                if graph.chain_exists(a, b, as_packages=True) and graph.chain_exists(b, a, as_packages=True):
                    out.append(f"{a.removeprefix('multidebate.')} <-> {b.removeprefix('multidebate.')}")
    return out


def main() -> None:
    graph = grimp.build_graph("multidebate", cache_dir=None)
    modules = [m for m in graph.modules if m.startswith("multidebate.")]
    per_layer = Counter(_sub(m) for m in modules if not graph.find_children(m))
    print("| layer | modules |\n|---|---|")
    for layer in (*LAYERS, "(top)"):
        print(f"| {layer} | {per_layer[layer]} |")
    found = _functions()
    print("\nLargest functions (lines):\n")
    print(", ".join(f"`{name}` {size}" for size, name in [f for f in found if f[1].endswith("()")][:10]))
    print("\nLargest classes (lines):\n")
    print(", ".join(f"`{name}` {size}" for size, name in [f for f in found if not f[1].endswith("()")][:6]))
    arrows: Counter[tuple[str, str]] = Counter()
    for importer in modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            a, b = _sub(importer), _sub(imported)
            if a != b and imported.startswith("multidebate"):
                arrows[(a, b)] += 1
    print("\nImport arrows between sub-packages (importing module -> imported module pairs):\n")
    for layer in LAYERS:
        out = [f"{b} {n}" for (a, b), n in sorted(arrows.items(), key=lambda kv: LAYERS.index(kv[0][1])
                                                  if kv[0][1] in LAYERS else 99) if a == layer]
        print(f"- {layer} -> {', '.join(out) or 'nothing'}")
    cycles = _cycles(graph)
    print("\nCycles between sibling modules: " + ("; ".join(cycles) if cycles else "none"))


if __name__ == "__main__":
    sys.exit(main())
