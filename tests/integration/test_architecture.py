"""The house rules of docs/design.md, "Layout and layers", checked rather than hoped for: the import contract of
pyproject.toml (layers, no Textual below the app, forbidden imports, no cycles), the linters (ruff over the
repository, mypy over engine, kgstore and rules, both configured in pyproject.toml), modules under 600 lines, no
class of the app spread over several modules, and every stage of the pipeline found in `engine/stages/` under its
own name."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("cli", "harness", "engine", "kgstore", "rules", "tui", "models")


def test_the_import_contract_holds():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_ruff_finds_nothing():
    ruff = Path(sys.executable).with_name("ruff")
    done = subprocess.run([str(ruff), "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_mypy_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", "/dev/null"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_no_module_outside_data_and_tests_is_over_600_lines():
    long = {str(p.relative_to(ROOT)): n for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert not long, long


def test_the_pipeline_runs_every_stage_module_in_order_and_each_is_named_as_its_module():
    from engine.pipeline import STAGES, stage_name

    stage_dir = ROOT / "engine" / "stages"
    modules = {p.stem if p.is_file() else p.name for p in stage_dir.iterdir()
               if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").exists()}
    assert [stage_name(run) for run in STAGES] == [
        "observe", "reason", "rewrite", "plan", "candidates", "verbalize", "score", "route", "retrieve",
        "answer", "generate", "check", "refine", "answer"]
    assert modules == {stage_name(run) for run in STAGES}
    for run in STAGES:
        module = importlib.import_module(f"engine.stages.{stage_name(run)}")
        assert getattr(module, run.__name__) is run



def test_every_class_of_the_app_reads_in_one_file():
    """A class of tui/ builds on Textual, Rich or the standard library, or on a class of its own
    module: none is spread over several modules of the app (mixins)."""
    import inspect
    import pkgutil

    import tui

    spread = []
    for info in pkgutil.walk_packages(tui.__path__, "tui."):
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if inspect.isclass(cls) and cls.__module__ == module.__name__:
                spread += [f"{cls.__qualname__} ({module.__name__}) on {base.__module__}.{base.__qualname__}"
                           for base in cls.__bases__
                           if base.__module__.split(".")[0] == "tui" and base.__module__ != module.__name__]
    assert not spread, spread
