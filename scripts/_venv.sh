# shellcheck shell=bash
# Shared by scripts/app.sh and scripts/test.sh (sourced, not run).
#
# ensure_venv EXTRAS  -- create .venv if needed and install the project into it.
#   EXTRAS is "" for the app alone, or a comma list such as "dev,dask".
#   The install is skipped when pyproject.toml has not changed since the last
#   install of the same (or a larger) set of extras: a stamp file inside .venv
#   holds a hash of pyproject.toml, so repeat runs take a second, not minutes.
#
# Environment: PYTHON (default python3) picks the interpreter that creates .venv.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
VPY="$VENV/bin/python"
MIN_PYTHON="3.11"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf '\033[1;31mERROR: %s\033[0m\n' "$*" >&2; exit 1; }

_python_ok() {  # true when "$1" runs and is Python >= MIN_PYTHON
    "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null
}

_create_venv() {
    local py="${PYTHON:-python3}"
    command -v "$py" >/dev/null 2>&1 \
        || die "'$py' not found. Install Python $MIN_PYTHON or newer (Debian/Ubuntu: apt-get install python3 python3-venv), or set PYTHON=/path/to/python3.11."
    _python_ok "$py" \
        || die "TrainingRoom needs Python $MIN_PYTHON or newer; '$py' is $("$py" -c 'import platform; print(platform.python_version())' 2>/dev/null || echo unknown). Install a newer Python or set PYTHON=/path/to/python3.11."
    say "Creating .venv with $("$py" -c 'import sys; print(sys.executable, sys.version.split()[0])')"
    rm -rf "$VENV"
    if ! "$py" -m venv "$VENV"; then
        rm -rf "$VENV"
        die "'$py -m venv' failed. On Debian/Ubuntu install the venv module: apt-get install python3-venv"
    fi
}

STAMP="$VENV/.trainingroom-install"

_stamp_hash() {  # what decides the install: pyproject.toml and the interpreter
    { cat "$ROOT/pyproject.toml"; "$VPY" -c 'import sys; print(sys.version)'; } | sha256sum | cut -d' ' -f1
}

# True when the stamp says: same hash, and every requested extra was installed.
_install_current() {
    local extras="$1" hash="$2" stamp_hash stamp_extras extra
    [[ -f "$STAMP" ]] || return 1
    { read -r stamp_hash; read -r stamp_extras; } <"$STAMP" || true
    [[ "$stamp_hash" == "$hash" ]] || return 1
    for extra in ${extras//,/ }; do
        [[ ",${stamp_extras}," == *",${extra},"* ]] || return 1
    done
    return 0
}

ensure_venv() {
    local extras="${1:-}"
    if [[ ! -x "$VPY" ]] || ! _python_ok "$VPY"; then
        _create_venv
    fi
    local hash
    hash="$(_stamp_hash)"
    if _install_current "$extras" "$hash"; then
        say "Dependencies up to date (.venv, extras: ${extras:-none})"
        return 0
    fi
    local target="."
    [[ -n "$extras" ]] && target=".[${extras}]"
    say "Installing TrainingRoom into .venv (extras: ${extras:-none}); the first time takes a few minutes"
    export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_PROGRESS_BAR=off
    rm -f "$STAMP"
    "$VPY" -m pip install --quiet --upgrade pip \
        || die "could not upgrade pip in .venv (is PyPI reachable?)"
    (cd "$ROOT" && "$VPY" -m pip install -e "$target") \
        || die "pip install -e '$target' failed; see the messages above"
    printf '%s\n%s\n' "$hash" "$extras" >"$STAMP"
}

# ensure_compiler -- a C compiler and Python's headers, which mypyc needs to compile the
#   engine (sim/native.py). Installs Debian's gcc and python3-dev as root (or with sudo)
#   when either is missing; returns non-zero, with the command to run, when it cannot.
ensure_compiler() {
    local include
    include="$("$VPY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
    if command -v cc >/dev/null 2>&1 && [[ -f "$include/Python.h" ]]; then
        return 0
    fi
    local how="install a C compiler and Python's headers as root: apt-get install -y gcc python3-dev"
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "No C compiler or no Python.h ($include), and no apt-get: $how" >&2
        return 1
    fi
    local sudo=()
    if [[ $EUID -ne 0 ]]; then
        command -v sudo >/dev/null 2>&1 || { echo "We are not root and have no sudo: $how" >&2; return 1; }
        sudo=(sudo)
    fi
    say "Installing gcc and python3-dev with apt-get (to compile the engine)"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update \
        && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y gcc python3-dev \
        || { echo "apt-get could not install gcc python3-dev: $how" >&2; return 1; }
    command -v cc >/dev/null 2>&1 && [[ -f "$include/Python.h" ]] \
        || { echo "apt-get ran, but the compiler or $include/Python.h is still missing: $how" >&2; return 1; }
}

# build_engine -- compile the engine with mypyc when the sources changed since the last
#   build (a few minutes the first time; a second otherwise). See sim/native.py.
build_engine() {
    ensure_compiler || return 1
    (cd "$ROOT" && "$VPY" -m sim.native build)
}
