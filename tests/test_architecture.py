"""The layering of docs/architecture.md holds: the import-linter contracts in pyproject.toml pass,
they cover every module of the three apps, the document lists the same modules per layer, and no
module hides an import of the project inside a function (the way cycles used to be dodged); and
ruff and mypy (settings in pyproject.toml) find nothing, mypy strict on the pure core."""

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("tournament", "scoring", "walls")


def contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    return {c["id"]: c for c in config["contracts"]}


def contract_layers() -> list[set[str]]:
    """The layers contract, top first, each layer as its set of modules."""
    return [{m.strip() for m in re.split(r"[:|]", layer)} for layer in contracts()["layers"]["layers"]]


def app_modules() -> set[str]:
    """Every module and sub-package directly inside the three apps (``walls.printing`` counts as
    one), which a layer must name."""
    found = set()
    for app in APPS:
        for path in (ROOT / app).iterdir():
            if path.name.startswith(("_", ".")) or path.name in ("data", "fonts", "locale"):
                continue
            if path.suffix == ".py":
                found.add(f"{app}.{path.stem}")
            elif path.is_dir() and (path / "__init__.py").exists():
                found.add(f"{app}.{path.name}")
    return found


def documented_layers() -> list[set[str]]:
    """The modules of each row of the layer table in docs/architecture.md, top first."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if re.match(r"^\|\s*\d+", line)]
    return [set(re.findall(r"`((?:tournament|scoring|walls)\.[\w.]+)`", row)) for row in rows]


def test_the_import_contracts_hold():
    linter = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(linter), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "broken" not in result.stdout.split("Contracts:")[-1].replace("0 broken", "")


def _tool(name: str) -> Path:
    """The console script ``name`` of this interpreter's environment; skips the test when the
    environment lacks it (install the test extra: ``pip install -e '.[test]'``)."""
    path = Path(sys.executable).with_name(name)
    if not path.exists():
        pytest.skip(f"{name} is not installed in {path.parent}; install the test extra")
    return path


def test_ruff_finds_nothing():
    """``ruff check .`` with the rules of ``[tool.ruff]`` in pyproject.toml."""
    result = subprocess.run([str(_tool("ruff")), "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def test_mypy_finds_nothing():
    """``mypy`` with ``[tool.mypy]`` in pyproject.toml: the three apps, the pure core strict."""
    result = subprocess.run([str(_tool("mypy"))], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


#: the hot path of result entry and the cache: strict but for what Django without stubs refuses
HOT_STRICT = {"tournament.cache", "scoring.actions.entry", "scoring.actions.confirmation", "scoring.actions.rescoring",
              "scoring.table_views"}


def test_mypy_is_strict_on_the_pure_core_and_the_hot_modules():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    strict = [o for o in config["overrides"] if o.get("disallow_untyped_defs")]
    assert len(strict) == 2
    pure, hot = sorted(strict, key=lambda o: -len(o["module"]))
    assert {m.removesuffix(".*") for m in pure["module"]} == set(contracts()["pure-core"]["source_modules"])
    assert set(hot["module"]) == HOT_STRICT
    assert hot["check_untyped_defs"] and hot["disallow_any_generics"] and hot["strict_equality"]
    lenient = {m for o in config["overrides"] if o.get("ignore_errors") for m in o["module"]}
    assert not lenient & {*pure["module"], *hot["module"]}


def test_the_contracts_ignore_no_import():
    for contract in contracts().values():
        assert not contract.get("ignore_imports"), contract["id"]


def test_every_module_of_the_apps_is_in_exactly_one_layer():
    layers = contract_layers()
    named = [m for layer in layers for m in layer]
    assert len(named) == len(set(named)), "a module is named in two layers"
    assert set(named) == app_modules()


def test_the_pure_core_is_the_bottom_layer_and_imports_no_django():
    forbidden = contracts()["pure-core"]
    assert set(forbidden["source_modules"]) == contract_layers()[-1]
    assert {"django", "rest_framework", "celery"} <= set(forbidden["forbidden_modules"])


def test_docs_architecture_draws_the_layers_of_the_contract():
    assert documented_layers() == contract_layers()


def test_no_module_imports_the_project_inside_a_function():
    hidden = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for function in ast.walk(tree):
                if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for node in ast.walk(function):
                    if isinstance(node, ast.ImportFrom) and node.module:
                        names = [node.module] if node.level == 0 else [f"{app} (relative)"]
                    elif isinstance(node, ast.Import):
                        names = [alias.name for alias in node.names]
                    else:
                        continue
                    hidden += [f"{path.relative_to(ROOT)}:{node.lineno} {name}" for name in names
                               if name.split(".")[0] in APPS or name.endswith("(relative)")]
    assert hidden == []
