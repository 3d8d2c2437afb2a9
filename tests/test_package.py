"""The package as a whole: its shape, what importing it loads, and that it installs."""

from __future__ import annotations

import ast
import os
import site
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "resolver"
MAX_FUNCTION_LINES = 60
HEAVY = ("onnxruntime", "cv2", "rapidocr", "playwright", "dask", "distributed", "websockets",
         "mcp", "starlette", "uvicorn")  # fmt: skip


def _functions() -> list[tuple[str, int]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                where = f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
                found.append((where, length))
    return found


def test_no_function_is_longer_than_sixty_lines() -> None:
    functions = _functions()
    assert len(functions) > 300  # the walk found the package
    long = [(where, n) for where, n in functions if n > MAX_FUNCTION_LINES]
    assert long == []


def test_import_resolver_loads_no_heavy_dependency() -> None:
    code = (
        "import sys, resolver\n"
        "from resolver import Observation, resolve\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_every_test_module_mirrors_a_package_module() -> None:
    # tests/<path>/test_<name>.py tests resolver/<path>/<name>.py (or _<name>.py, or the
    # package __init__ as test_init.py); the few cross-cutting suites are listed here by name.
    cross_cutting = {"test_cross_platform", "test_doctests", "test_readme", "test_robustness",
                     "test_package", "test_browser_capture", "test_public_api",
                     "test_security", "test_determinism", "test_fuzz", "cli/test_bounded_output",
                     "cli/test_exit_codes", "cli/test_limits"}  # fmt: skip
    orphans = []
    for test in sorted((ROOT / "tests").rglob("test_*.py")):
        rel = test.relative_to(ROOT / "tests")
        name = test.stem.removeprefix("test_")
        if test.stem in cross_cutting or rel.with_suffix("").as_posix() in cross_cutting:
            continue
        folder = PACKAGE / rel.parent
        candidates = [folder / f"{name}.py", folder / f"_{name}.py", folder / name / "__init__.py"]
        if name == "init":
            candidates.append(folder / "__init__.py")
        if not any(path.exists() for path in candidates):
            orphans.append(str(rel))
    assert orphans == []


@pytest.mark.timeout(600)
def test_demo_runs_from_a_wheel_in_a_fresh_venv(tmp_path: Path) -> None:
    wheels = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(wheels), str(ROOT)],
        check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = wheels.glob("resolver-*.whl")
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True, capture_output=True,
    )  # fmt: skip
    # The dependencies (numpy, lxml, ...) come from this interpreter's site-packages, put on
    # the path as a plain directory: its .pth files (an editable install of this checkout)
    # are not processed, so resolver itself can only come from the wheel.
    deps = {**os.environ, "PYTHONPATH": os.pathsep.join(site.getsitepackages())}
    run = subprocess.run(
        [str(python), "-m", "resolver", "demo", "--sources", "a11y"],
        capture_output=True, text=True, cwd=tmp_path, env=deps,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "wrong answers 0.0% of answers" in run.stdout
    where = subprocess.run(
        [str(python), "-c", "import resolver; print(resolver.__file__)"],
        capture_output=True, text=True, cwd=tmp_path, check=True, env=deps,
    )  # fmt: skip
    assert str(env_dir) in where.stdout and str(ROOT) not in where.stdout
