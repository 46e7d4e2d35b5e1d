"""Rules the package's code keeps, checked on its source: they are easy to break without noticing."""

from __future__ import annotations

import ast
from pathlib import Path

import multidebate

PACKAGE = Path(multidebate.__file__).parent
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _trees() -> list[tuple[str, ast.Module]]:
    return [(str(p.relative_to(PACKAGE)), ast.parse(p.read_text(encoding="utf-8"))) for p in MODULES]


def test_the_walk_sees_every_sub_package() -> None:
    found = {p.relative_to(PACKAGE).parts[0] for p in MODULES if len(p.relative_to(PACKAGE).parts) > 1}
    assert found == {"analysis", "cli", "mcp", "protocol", "run", "skill", "state", "sync", "turns", "views"}


def test_no_assert_in_the_package() -> None:
    """`python -O` drops asserts: a check written as one vanishes (a damaged cache record is then accepted)."""
    found = [f"{name}:{node.lineno}" for name, tree in _trees() for node in ast.walk(tree)
             if isinstance(node, ast.Assert)
             or isinstance(node, ast.Name) and node.id == "AssertionError"]
    assert found == []


def test_no_module_writes_an_objects_dict() -> None:
    """Values are built whole (Entry is a NamedTuple): no module fills another's slots through `__dict__`."""
    found = [f"{name}:{node.lineno}" for name, tree in _trees() for node in ast.walk(tree)
             if isinstance(node, ast.Attribute) and node.attr == "__dict__"]
    assert found == []


def test_every_package_folder_is_a_package() -> None:
    """A folder of modules without `__init__.py` would be left out of the wheel and of the layers contract
    (schemas/ holds only data, shipped as package data)."""
    folders = {p.parent for p in MODULES}
    missing = [str(f.relative_to(PACKAGE)) for f in folders if not (f / "__init__.py").exists()]
    assert missing == []


def test_no_two_modules_of_a_sub_package_import_each_other() -> None:
    """#38: `decision_brief` <-> `review_summary` and `briefing` <-> `review_briefing` each hid a circle behind
    an import inside a function.  Every import counts here, as it does for the layers contracts: inside a
    function, under TYPE_CHECKING, directly or through sibling modules."""
    import grimp

    graph = grimp.build_graph("multidebate", cache_dir=None)
    circles = []
    for package in sorted(m for m in graph.modules if m.count(".") == 1 and graph.find_children(m)):
        children = sorted(graph.find_children(package))
        circles += [f"{a} <-> {b}" for i, a in enumerate(children) for b in children[i + 1:]
                    if graph.chain_exists(a, b, as_packages=True) and graph.chain_exists(b, a, as_packages=True)]
    assert circles == []
