"""The engine compiled by mypyc (sim/native.py): used when current, the same numbers as Python.

scripts/test.sh compiles the engine before the tests and sets TRAININGROOM_REQUIRE_NATIVE=1,
so there the compiled engine must be the one running: a build that silently fell back to
Python would leave every other test checking the sources only.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sim import native

ROOT = Path(__file__).resolve().parents[1]

#: Hashes a few replications of every shipped scenario, policy and two seeds, bit for bit
#: (benchmarks/fingerprint.py: outcome rows, traces, ledgers, loss curves, decisions,
#: phase spans and SimPy event counts).
FINGERPRINT = (
    "import sys, json; sys.path.insert(0, 'benchmarks');"
    "from fingerprint import fingerprint; from sim import native;"
    "print(json.dumps({'compiled': native.running_compiled(), 'digests': fingerprint(4, True)}))"
)


def _fingerprint(native_on: bool) -> dict[str, object]:
    env = {**os.environ, native.ENV_VAR: "1" if native_on else "0", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", FINGERPRINT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_test_run_uses_the_compiled_engine_when_required() -> None:
    if os.environ.get("TRAININGROOM_REQUIRE_NATIVE") != "1":
        # Outside scripts/test.sh: whichever engine runs, the process must say so truly.
        assert native.running_compiled() == (native.attached() is not None)
        return
    assert native.wanted(), f"{native.ENV_VAR}=0 was set, yet the run requires the compiled engine"
    assert native.attached() is not None, (
        "no current build of the engine: `python -m sim.native build` (scripts/test.sh runs it)"
    )
    assert native.running_compiled()


def test_compiled_and_python_engines_give_the_same_numbers_bit_for_bit() -> None:
    if native.attached() is None:
        pytest.fail("no compiled engine to compare: run `python -m sim.native build` first")
    compiled = _fingerprint(native_on=True)
    python = _fingerprint(native_on=False)
    assert compiled["compiled"] is True
    assert python["compiled"] is False
    assert compiled["digests"] == python["digests"]


def _copy_engine(tmp_path: Path) -> Path:
    engine = tmp_path / "engine"
    shutil.copytree(native.ENGINE, engine, ignore=shutil.ignore_patterns("__pycache__"))
    return engine


def _fake_build(built: Path, leave_out: str = "") -> None:
    """A build's files (empty: only their presence is read before an import)."""
    suffix = native.SUFFIX
    (built / "sim" / "engine").mkdir(parents=True)
    names = [f"sim/engine/{p.stem}{suffix}" for p in native.engine_sources()]
    names.append(f"shared__mypyc{suffix}")
    for name in names:
        if name != leave_out:
            (built / name).write_bytes(b"")
    (built / native.DONE).write_text("built in 1 s\n" + "\n".join(names) + "\n")


def test_a_build_is_found_only_for_the_exact_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = _copy_engine(tmp_path)
    monkeypatch.setattr(native, "ENGINE", engine)
    monkeypatch.setattr(native, "BUILDS", tmp_path / "builds")
    monkeypatch.setattr(native, "_attached", None)
    built = native.build_dir()
    _fake_build(built)
    path: list[str] = []
    assert native.attach(path) == built
    assert path == [str(built / "sim" / "engine")]
    sys.path.remove(str(built))

    # One byte of one engine module changed: another digest, no build, the sources run.
    budget = engine / "budget.py"
    budget.write_bytes(budget.read_bytes() + b"\n")
    assert native.build_dir() != built
    path = []
    assert native.attach(path) is None
    assert path == []


def test_an_interrupted_build_or_the_switch_off_runs_the_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(native, "_attached", native.attached())  # restored after
    monkeypatch.setattr(native, "ENGINE", _copy_engine(tmp_path))
    monkeypatch.setattr(native, "BUILDS", tmp_path / "builds")
    built = native.build_dir()
    (built / "sim" / "engine").mkdir(parents=True)  # no BUILT marker: the build stopped
    path: list[str] = []
    assert native.attach(path) is None and path == []

    shutil.rmtree(built)
    _fake_build(built)
    for off in ("0", "false", "No", " OFF "):
        monkeypatch.setenv(native.ENV_VAR, off)
        assert native.attach(path) is None and path == [], off
    monkeypatch.setenv(native.ENV_VAR, "1")
    assert native.attach(path) == built
    sys.path.remove(str(built))


def test_a_build_missing_a_module_is_not_used_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Half compiled, half Python would mix classes that are not interchangeable."""
    monkeypatch.setattr(native, "ENGINE", _copy_engine(tmp_path))
    monkeypatch.setattr(native, "BUILDS", tmp_path / "builds")
    suffix = native.SUFFIX
    for gone in (f"sim/engine/budget{suffix}", f"shared__mypyc{suffix}"):
        built = native.build_dir()
        shutil.rmtree(built, ignore_errors=True)
        _fake_build(built, leave_out=gone)
        path: list[str] = []
        assert native.attach(path) is None and path == []
        assert gone in capsys.readouterr().err


def test_native_imports_nothing_of_the_package() -> None:
    """sim.engine imports sim.native first; it must not import the engine back."""
    tree = ast.parse((ROOT / "sim" / "native.py").read_text())
    top_level = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    names = [
        (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
        for node in top_level
        for alias in node.names
    ]
    assert not [n for n in names if n == "sim" or n.startswith("sim.")], names


def test_the_public_api_takes_numpy_integers_and_names_a_bad_count() -> None:
    """Compiled classes take Python ints only; the engine's entry points convert or say why."""
    import numpy as np

    import sim

    scenario = sim.load_scenario("assistant_7b")
    python_seed = sim.Game(scenario, seed=3).play_to_end()["schedule_days"]
    numpy_seed = np.int64(3)  # what a sweep over np.arange hands on
    game = sim.Game(scenario, seed=numpy_seed)  # type: ignore[arg-type]
    assert game.play_to_end()["schedule_days"] == python_seed
    table = sim.run_replications(scenario, np.int64(3), seed=np.int64(1))  # type: ignore[arg-type]
    assert len(table) == 3
    numpy_gpus = sim.estimate(7e9, 1e12, np.int64(64))  # type: ignore[arg-type]
    assert numpy_gpus.ideal_days == sim.estimate(7e9, 1e12, 64).ideal_days
    with pytest.raises(ValueError, match="gpus must be a whole number"):
        sim.estimate(7e9, 1e12, 8.5)  # type: ignore[arg-type]
