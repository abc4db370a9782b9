"""The engine compiled to C by mypyc, used only when built from the very sources on disk.

The engine's modules (``sim/engine/*.py``) are plain, typed Python; mypyc (the compiler
mypy ships, as black and mypy itself are built) turns them into C extensions that run the
same code with the same numbers, about 1.4 to 1.6 times faster (docs/model.md, "Engine 20,
compiled"). The compiled modules live outside the source tree, in
``<sys.prefix>/trainingroom-native/<digest>/``, where ``digest`` hashes every engine
source file and the interpreter: a build is found only for the exact sources it was made
from, so an edited engine runs as Python until it is built again, never as a stale
extension. ``sim/engine/__init__.py`` calls :func:`attach` before any engine module is
imported; with a current build the package's search path starts at the build.

``python -m sim.native build`` builds it (the README's commands run it once per change of
the engine); ``python -m sim.native status`` says which engine a process would run.
``TRAININGROOM_NATIVE=0`` runs the Python sources whatever is built.

This module imports nothing of the package: the engine imports it first.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

#: Set to "0" (or false, no, off) to run the engine's Python sources even when a current
#: build exists.
ENV_VAR = "TRAININGROOM_NATIVE"
#: The package's root (``sim/``) and the engine's folder.
PACKAGE = Path(__file__).resolve().parent
ENGINE = PACKAGE / "engine"
#: Builds live under the running environment's prefix (the project's .venv).
BUILDS = Path(sys.prefix) / "trainingroom-native"
#: The file name ending of a compiled module on this interpreter.
SUFFIX = str(sysconfig.get_config_var("EXT_SUFFIX"))
#: Written last into a build's folder: a folder without it is an interrupted build.
DONE = "BUILT"

#: The build this process attached, if any.
_attached: Path | None = None


#: Engine modules left as Python: entry points people call with values of their own
#: (``sim.estimate(params, tokens, gpus=...)``), where compiled code would answer a
#: NumPy integer or a fractional GPU count with a bare TypeError instead of the
#: ValueError naming the field; none of them is on a replication's hot path.
PYTHON_ONLY = frozenset({"__init__.py", "compute.py"})


def engine_sources() -> list[Path]:
    """The engine modules mypyc compiles: all but :data:`PYTHON_ONLY`."""
    return sorted(p for p in ENGINE.glob("*.py") if p.name not in PYTHON_ONLY)


def digest() -> str:
    """A hash of every engine source and of the interpreter (its version and ABI).

    The modules left as Python count too: compiled code keeps the ``Final`` constants it
    imported from them.
    """
    h = hashlib.sha256()
    h.update(sys.version.encode())
    h.update(SUFFIX.encode())
    for path in sorted(ENGINE.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:20]


def build_dir() -> Path:
    """Where the build of the sources on disk lives (whether or not it exists)."""
    return BUILDS / digest()


#: Values of :data:`ENV_VAR` that turn the compiled engine off (any case).
OFF = frozenset({"0", "false", "no", "off"})


def wanted() -> bool:
    """Whether this process may use a compiled engine (:data:`ENV_VAR` not in :data:`OFF`)."""
    return os.environ.get(ENV_VAR, "1").strip().lower() not in OFF


def attach(engine_path: list[str]) -> Path | None:
    """Put a current build first on the engine package's search path; the build or None.

    ``engine_path`` is ``sim.engine.__path__``. The build's shared library (mypyc puts
    the modules' code in one top-level module) goes on ``sys.path``.
    """
    global _attached
    if not wanted():
        return None
    try:
        target = build_dir()
    except OSError:
        return None  # a source unreadable: Python will say which when it imports it
    if not (target / DONE).is_file():
        return None
    missing = _missing_files(target)
    if missing:
        sys.stderr.write(
            f"warning: the compiled engine at {target} lacks {', '.join(missing[:3])}; "
            "the engine runs as Python (python -m sim.native build --force rebuilds it)\n"
        )
        return None
    modules = str(target / "sim" / "engine")
    if modules not in engine_path:
        engine_path.insert(0, modules)
    if str(target) not in sys.path:
        sys.path.append(str(target))
    _attached = target
    return target


def _missing_files(target: Path) -> list[str]:
    """The files a whole build holds that ``target`` lacks (its marker lists them).

    A build missing one module would mix compiled and Python modules of the engine, whose
    classes are not interchangeable: it is not used at all.
    """
    try:
        listed = (target / DONE).read_text().splitlines()[1:]
    except OSError:
        return [DONE]
    names = set(listed) | {f"sim/engine/{p.stem}{SUFFIX}" for p in engine_sources()}
    return sorted(n for n in names if not (target / n).is_file())


def attached() -> Path | None:
    """The build this process runs, or None when the engine runs as Python."""
    return _attached


def engine_origin() -> Path:
    """The file the engine's modules load from in this process (a source or an extension).

    Finding the module imports its package, ``sim.engine``, which attaches a build first.
    """
    spec = importlib.util.find_spec("sim.engine.model")
    if spec is None or spec.origin is None:
        raise ImportError("sim.engine.model cannot be found")
    return Path(spec.origin)


def running_compiled() -> bool:
    """Whether the engine's modules in this process are mypyc's extensions."""
    return engine_origin().suffix != ".py"


class BuildError(RuntimeError):
    """mypyc or the C compiler failed; the message holds their last lines."""


def build(force: bool = False, quiet: bool = False) -> Path:
    """Compile the engine into :func:`build_dir` (nothing to do when it is there already).

    The sources are copied to a temporary folder with the rest of the package (mypyc
    type-checks the engine against it) and the project's mypy settings, compiled there,
    and only the extensions are kept. Older builds of this environment are removed.
    """
    target = build_dir()
    if (target / DONE).is_file() and not force:
        return target
    started = time.monotonic()
    if not quiet:
        sys.stdout.write(
            f"Compiling the engine ({len(engine_sources())} modules) with mypyc: about two "
            "minutes on two cores, once per change of sim/engine/ ...\n"
        )
        sys.stdout.flush()
    with tempfile.TemporaryDirectory(prefix="trainingroom-native-") as tmp:
        work = Path(tmp)
        shutil.copytree(PACKAGE, work / "sim", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        pyproject = PACKAGE.parent / "pyproject.toml"
        if pyproject.is_file():
            shutil.copy(pyproject, work / "pyproject.toml")
        files = [str(Path("sim", "engine", p.name)) for p in engine_sources()]
        command = [sys.executable, "-m", "mypyc", *files]
        # No debug symbols: a third less compiling, the same code.
        env = {**os.environ, "MYPYC_DEBUG_LEVEL": "0"}
        done = subprocess.run(
            command, cwd=work, env=env, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-25:])
            raise BuildError(f"mypyc failed (exit {done.returncode}):\n{tail}")
        shared = list(work.glob(f"*{SUFFIX}"))
        modules = list((work / "sim" / "engine").glob(f"*{SUFFIX}"))
        if len(modules) != len(files):
            raise BuildError(f"mypyc built {len(modules)} of {len(files)} engine modules")
        # Assembled under a name of its own, then renamed into place: a process that
        # looks meanwhile finds no build or a whole one, and two builds at once do not mix.
        BUILDS.mkdir(parents=True, exist_ok=True)
        partial = Path(tempfile.mkdtemp(prefix=f"{target.name}.partial-", dir=BUILDS))
        (partial / "sim" / "engine").mkdir(parents=True)
        kept = [lib.name for lib in shared]
        for lib in shared:
            shutil.copy2(lib, partial / lib.name)
        for module in modules:
            shutil.copy2(module, partial / "sim" / "engine" / module.name)
            kept.append(f"sim/engine/{module.name}")
        seconds = time.monotonic() - started
        (partial / DONE).write_text(f"built in {seconds:.0f} s\n" + "\n".join(kept) + "\n")
        if force:
            shutil.rmtree(target, ignore_errors=True)
        try:
            partial.rename(target)
        except OSError:  # another build of the same sources finished first: keep it
            shutil.rmtree(partial, ignore_errors=True)
    for old in BUILDS.iterdir():  # whole builds of other sources, and builds left to die
        stale = ".partial-" in old.name and time.time() - old.stat().st_mtime > 3600
        if old != target and ((old / DONE).is_file() or stale):
            shutil.rmtree(old, ignore_errors=True)
    if not quiet:
        sys.stdout.write(f"Compiled the engine ({len(files)} modules) into {target}\n")
    return target


def status() -> str:
    """One line: which engine this process runs, and whether a current build exists."""
    current = (build_dir() / DONE).is_file()
    if running_compiled():
        return f"compiled engine ({engine_origin().parents[2]})"
    if not wanted():
        there = "exists" if current else "does not exist"
        return f"Python engine ({ENV_VAR}=0); a current build {there}"
    return "Python engine: no build of these sources (python -m sim.native build)"


def main(argv: list[str] | None = None) -> int:
    """``build [--force]`` or ``status``; exit 1 when the build fails (its message said why)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["build"]:
        try:
            build(force="--force" in args)
        except (BuildError, OSError) as err:
            sys.stderr.write(
                f"error: the engine could not be compiled; it runs as Python.\n{err}\n"
            )
            return 1
        return 0
    if args[:1] == ["status"]:
        sys.stdout.write(status() + "\n")
        return 0
    sys.stderr.write("usage: python -m sim.native build [--force] | status\n")
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
