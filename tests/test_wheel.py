"""The installed wheel works outside the checkout.

Builds the wheel from a copy of the sources (so the checkout gets no build/ or egg-info),
installs it with ``--no-deps`` into a fresh venv that sees no system site-packages and
takes its dependencies from this test environment's site-packages (a ``.pth`` line), and
runs commands from a directory outside the checkout. About a minute.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from typing import Any

import pytest

from sim.interview.plan import plan_json
from tests.interview_plans import strong

ROOT = Path(__file__).resolve().parent.parent
#: One worker builds the wheel once for the four tests (scripts/test.sh runs --dist loadgroup).
pytestmark = [pytest.mark.install, pytest.mark.xdist_group("wheel")]


def _run(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float = 600) -> str:
    done = subprocess.run(
        cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], Path]:
    """(the venv's python, its environment, a working directory outside the checkout)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "sim", src / "sim", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    dist = tmp / "dist"
    _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "-w", str(dist), str(src)],
        tmp, env,
    )  # fmt: skip
    (wheel,) = dist.glob("trainingroom-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "sim/py.typed" in names and "sim/scenario/shipped/assistant_7b.yaml" in names
    assert not [n for n in names if n.startswith(("tests/", "ui/", "scenarios/"))]

    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp, env)
    python = venv / "bin" / "python"
    site = Path(
        _run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
             tmp, env).strip()
    )  # fmt: skip
    # Dependencies come from this environment; the package itself only from the wheel.
    (site / "test-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    _run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--target",
         str(site), str(wheel)],
        tmp, env,
    )  # fmt: skip
    work = tmp / "elsewhere"
    work.mkdir()
    return python, env, work


def _json(installed: tuple[Path, dict[str, str], Path], *args: str) -> Any:
    python, env, work = installed
    return json.loads(_run([str(python), "-m", "sim", *args, "--json"], work, env))


def test_the_package_comes_from_the_wheel(installed: tuple[Path, dict[str, str], Path]) -> None:
    python, env, work = installed
    where = _run([str(python), "-c", "import sim; print(sim.__file__)"], work, env).strip()
    assert where.startswith(str(python.parent.parent)), where
    assert not where.startswith(str(ROOT)), where


def test_run_a_shipped_scenario_by_name(installed: tuple[Path, dict[str, str], Path]) -> None:
    out = _json(installed, "run", "assistant_7b", "--reps", "2")
    assert out["reps"] == 2 and out["seed"] == 0
    days = out["schedule_days"]
    assert days["p10"] <= days["mean"] <= days["p90"]
    assert out["cost_usd"]["mean"] > 0
    assert 0.0 <= out["p_success"] <= 1.0
    assert out["training_run"]["effective_training_time"]["mean"] > 0.5


def test_validate_a_shipped_scenario(installed: tuple[Path, dict[str, str], Path]) -> None:
    python, env, work = installed
    _run([str(python), "-m", "sim", "validate", "frontier_405b"], work, env)


def test_judge_an_interview_plan(installed: tuple[Path, dict[str, str], Path]) -> None:
    _, _, work = installed
    plan = work / "plan.json"
    plan.write_text(plan_json(strong()), encoding="utf-8")
    report = _json(installed, "rubric", str(plan), "--reps", "2")
    assert 0.0 < report["score"] <= 1.0
    assert report["items"] and all(i["status"] for i in report["items"])
