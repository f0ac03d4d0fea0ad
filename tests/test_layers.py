"""The layering of DESIGN.md, enforced: imports point downward only (interfaces → app → ports → core).

Every module under src/mnemon is parsed (not imported, so nothing runs) and every import, including relative and
function-local ones, is resolved to an absolute module name.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "src" / "mnemon"

# layer → (forbidden mnemon layers, forbidden third-party/stdlib top-level modules)
# (urllib.parse is pure string handling and allowed; the network half of urllib is not)
RULES: dict[str, tuple[set[str], set[str]]] = {
    "core": ({"ports", "app", "interfaces"},
             {"sqlite3", "urllib.request", "urllib.error", "urllib.response", "http", "socket", "ssl", "subprocess",
              "numpy", "click", "requests", "httpx", "psycopg", "pgvector"}),
    "ports": ({"app", "interfaces"}, {"click"}),
    "app": ({"interfaces"}, {"click"}),
}


def _module_name(path: Path, pkg: Path = PKG) -> str:
    rel = path.relative_to(pkg.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, pkg: Path = PKG) -> list[tuple[int, str]]:
    """(line, absolute module) for every import statement in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    mod = _module_name(path, pkg)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append((node.lineno, target))
            # `from .. import app` names a sub-module, not an attribute
            out.extend((node.lineno, f"{target}.{a.name}") for a in node.names)
    return out


def _modules() -> list[Path]:
    return sorted(p for p in PKG.rglob("*.py") if "__pycache__" not in p.parts)


def test_the_package_has_every_layer() -> None:
    layers = {p.relative_to(PKG).parts[0] for p in _modules() if len(p.relative_to(PKG).parts) > 1}
    assert {"core", "ports", "app", "interfaces"} <= layers


@pytest.mark.parametrize("layer", sorted(RULES))
def test_layer_imports_point_downward(layer: str) -> None:
    forbidden_layers, forbidden_libs = RULES[layer]
    violations: list[str] = []
    files = [p for p in _modules() if p.relative_to(PKG).parts[0] == layer]
    assert files, f"no modules found in mnemon.{layer}"
    for path in files:
        for line, target in _imports(path):
            parts = target.split(".")
            if parts[0] == "mnemon" and len(parts) > 1 and parts[1] in forbidden_layers:
                violations.append(f"{path.relative_to(PKG)}:{line} imports {target}")
            elif parts[0] in forbidden_libs or ".".join(parts[:2]) in forbidden_libs:
                violations.append(f"{path.relative_to(PKG)}:{line} imports {target}")
    assert not violations, "layering violations:\n" + "\n".join(violations)


def test_relative_and_local_imports_are_resolved(tmp_path: Path) -> None:
    """The checker must see `from ...app import x` inside a function in core, or the rule above proves nothing."""
    pkg = tmp_path / "mnemon"
    mod = pkg / "core" / "world" / "sneaky.py"
    mod.parent.mkdir(parents=True)
    mod.write_text("def f():\n    from ...app import memory\n    from ..text import tokens\n    import numpy\n")
    targets = {t for _, t in _imports(mod, pkg)}
    assert {"mnemon.app", "mnemon.app.memory", "mnemon.core.text", "numpy"} <= targets


# Pure third-party parsers core may use (declared in pyproject); anything else third-party in core is a violation.
CORE_PURE_THIRD_PARTY = {"yaml", "snowballstemmer", "regex"}  # (regex: grapheme clusters, \\X)


def test_core_imports_only_stdlib_and_declared_pure_libraries() -> None:
    allowed = set(sys.stdlib_module_names) | CORE_PURE_THIRD_PARTY | {"mnemon", "__future__"}
    violations = [f"{p.relative_to(PKG)}:{line} imports {t}"
                  for p in _modules() if p.relative_to(PKG).parts[0] == "core"
                  for line, t in _imports(p) if t and t.split(".")[0] not in allowed]
    assert not violations, "core must stay pure:\n" + "\n".join(violations)
