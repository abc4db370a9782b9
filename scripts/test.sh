#!/usr/bin/env bash
# Install what the tests need (into .venv, once), make sure Chromium is there, then run
# every check: ruff, mypy, the model/unit tests (2 workers), and the browser tests
# (serial, in a real Chromium). Runs every step, prints a summary, and exits non-zero
# if any step failed. CI (.ci/run) calls exactly this script.
#
# Environment: TRAININGROOM_CHROMIUM (default /usr/bin/chromium) names the browser;
# TRAININGROOM_UNIT_TIMEOUT / TRAININGROOM_BROWSER_TIMEOUT (seconds) limit each pytest run
# in quiet-machine seconds (default 1800 and 900): scripts/time_limit.py counts each wall
# second divided by the load per CPU at that moment, so a machine that grows busy during a
# step stretches its limit as it goes; 3000 and 2100 s of wall time hold whatever the load.
# TRAININGROOM_TEST_TIMEOUT caps one test (default 600 s times the scale, at most 1200 s).
# TRAININGROOM_TIMEOUT_SCALE (1 to 4; default: the load average per CPU, read again before
# each pytest step) stretches one test's limit and the browser tests' waits on a busy
# machine; set, it also fixes the rate at which the steps' limits count. A test that outlives its limit fails with its traceback and pytest goes
# on; a step that outlives its limit is stopped with SIGTERM, and the test that was running
# fails where it stood, keeps its screenshots, and pytest prints its summary (tests/conftest.py).
#
# PostgreSQL: the tabletop tests also run against a real server. This script installs
# Debian's postgresql when it is missing, starts a throwaway server on 127.0.0.1 (a free
# port, a temporary data directory, a random password), exports its URL as
# TRAININGROOM_POSTGRES_URL, and stops and deletes it on exit. (Not as DATABASE_URL: that
# would move every other test's and the app's storage onto one shared database.)
set -euo pipefail
# shellcheck source=scripts/_venv.sh
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
cd "$ROOT"
started=$SECONDS

# A browser test that cannot run is a failure here, never a skip.
export TRAININGROOM_REQUIRE_BROWSER=1
# Property tests draw the same examples on every CI run (tests/conftest.py).
export HYPOTHESIS_PROFILE="${HYPOTHESIS_PROFILE:-ci}"
# How much slower than a quiet machine to allow: the load per CPU, from 1 to 4, read again
# before each pytest step (a machine that grows busy after the start still gets its stretch;
# the scale never shrinks during a run). Set TRAININGROOM_TIMEOUT_SCALE to fix it.
SCALE_FIXED="${TRAININGROOM_TIMEOUT_SCALE:-}"
TRAININGROOM_TIMEOUT_SCALE="${SCALE_FIXED:-1.00}"
read_scale() {
    [[ -n "$SCALE_FIXED" ]] && return 0
    TRAININGROOM_TIMEOUT_SCALE="$(awk -v cpus="$(nproc)" -v was="$TRAININGROOM_TIMEOUT_SCALE" \
        '{ s = $1 / cpus; if (s < was) s = was; if (s < 1) s = 1; if (s > 4) s = 4; printf "%.2f", s }' /proc/loadavg)"
}
read_scale
export TRAININGROOM_TIMEOUT_SCALE
export TRAININGROOM_TIMEOUT_SCALE_FIXED="$SCALE_FIXED"
# scaled BASE CAP: BASE seconds times the scale, at most CAP.
scaled() { awk -v b="$1" -v c="$2" -v s="$TRAININGROOM_TIMEOUT_SCALE" \
    'BEGIN { t = b * s; if (t > c) t = c; printf "%d", t }'; }
# The limits at the scale of the moment (a limit set in the environment wins).
set_limits() {
    read_scale
    UNIT_LIMIT="${TRAININGROOM_UNIT_TIMEOUT:-1800}" UNIT_CAP=3000
    BROWSER_LIMIT="${TRAININGROOM_BROWSER_TIMEOUT:-900}" BROWSER_CAP=2100
    TEST_LIMIT="${TRAININGROOM_TEST_TIMEOUT:-$(scaled 600 1200)}"
}
set_limits
export TRAININGROOM_CHROMIUM="${TRAININGROOM_CHROMIUM:-/usr/bin/chromium}"

ensure_chromium() {
    [[ -x "$TRAININGROOM_CHROMIUM" ]] && return 0
    [[ "$TRAININGROOM_CHROMIUM" == /usr/bin/chromium ]] \
        || die "TRAININGROOM_CHROMIUM=$TRAININGROOM_CHROMIUM is not an executable file."
    local how="install Debian's Chromium as root: apt-get update && apt-get install -y chromium"
    command -v apt-get >/dev/null 2>&1 \
        || die "Chromium is missing at /usr/bin/chromium and apt-get is not available. Install Chromium and set TRAININGROOM_CHROMIUM=/path/to/chromium. (Playwright cannot download browsers here.)"
    local sudo=()
    if [[ $EUID -ne 0 ]]; then
        command -v sudo >/dev/null 2>&1 \
            || die "Chromium is missing at /usr/bin/chromium, and we are not root and have no sudo: $how"
        sudo=(sudo)
    fi
    say "Installing Chromium with apt-get (needed by the browser tests)"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update \
        && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium \
        || die "apt-get could not install chromium: $how"
    [[ -x /usr/bin/chromium ]] || die "apt-get ran but /usr/bin/chromium is still missing: $how"
}

# The tests run the compiled engine (built below); tests/test_native.py fails otherwise.
export TRAININGROOM_REQUIRE_NATIVE=1
# A PostgreSQL test that cannot reach its server is a failure here, never a skip.
export TRAININGROOM_REQUIRE_POSTGRES=1
PG_DIR="" PG_BIN="" PG_AS=()

pg_bindir() { # the newest installed PostgreSQL server's bin directory, or nothing
    # (the client packages alone leave a bin directory too, without initdb and pg_ctl)
    local dir
    while read -r dir; do
        [[ -x "$dir/initdb" && -x "$dir/pg_ctl" && -x "$dir/postgres" ]] && { echo "$dir"; return 0; }
    done < <(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin -type d 2>/dev/null | sort -V -r)
    return 0
}

ensure_postgres() {
    [[ -n "$(pg_bindir)" ]] && return 0
    local how="install Debian's PostgreSQL as root: apt-get update && apt-get install -y postgresql"
    command -v apt-get >/dev/null 2>&1 \
        || die "PostgreSQL is missing and apt-get is not available: install PostgreSQL (initdb, pg_ctl) under /usr/lib/postgresql."
    local sudo=()
    if [[ $EUID -ne 0 ]]; then
        command -v sudo >/dev/null 2>&1 || die "PostgreSQL is missing, and we are not root and have no sudo: $how"
        sudo=(sudo)
    fi
    say "Installing PostgreSQL with apt-get (needed by the tabletop tests)"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update \
        && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql \
        || die "apt-get could not install postgresql: $how"
    [[ -n "$(pg_bindir)" ]] || die "apt-get ran but no PostgreSQL is under /usr/lib/postgresql: $how"
}

# start_postgres: initdb + pg_ctl in a temporary directory, as the postgres user when we are
# root (the server refuses to run as root); listens on 127.0.0.1 only.
start_postgres() {
    PG_BIN="$(pg_bindir)"
    PG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/trainingroom-pg.XXXXXX")"
    trap stop_postgres EXIT
    if [[ $EUID -eq 0 ]]; then
        id postgres >/dev/null 2>&1 || { echo "no 'postgres' OS user to run the server as" >&2; return 1; }
        chown postgres "$PG_DIR"
        PG_AS=(runuser -u postgres --)
    fi
    local port password
    port="$("$VPY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    password="$("$VPY" -c 'import secrets; print(secrets.token_urlsafe(18))')"
    (umask 077 && printf '%s\n' "$password" >"$PG_DIR/pwfile")
    [[ $EUID -eq 0 ]] && chown postgres "$PG_DIR/pwfile"
    (cd "$PG_DIR" && "${PG_AS[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres -E UTF8 \
        --auth=scram-sha-256 --pwfile="$PG_DIR/pwfile" --no-sync >"$PG_DIR/initdb.log" 2>&1) \
        || { tail -n 20 "$PG_DIR/initdb.log" >&2; return 1; }
    (cd "$PG_DIR" && "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$PG_DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        start >/dev/null) || { tail -n 20 "$PG_DIR/server.log" >&2; return 1; }
    export TRAININGROOM_POSTGRES_URL="postgresql+psycopg://postgres:${password}@127.0.0.1:${port}/postgres"
    say "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (data in $PG_DIR)"
}

stop_postgres() {
    [[ -n "$PG_DIR" && -d "$PG_DIR" ]] || return 0
    if [[ -f "$PG_DIR/data/postmaster.pid" ]]; then
        (cd "$PG_DIR" && "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1) || true
    fi
    rm -rf "$PG_DIR"
}

failures=()

# step NAME COMMAND...: run a check, time it, and remember a failure instead of stopping.
step() {
    local name="$1" t0=$SECONDS rc=0
    shift
    say "$name"
    "$@" || rc=$?
    if ((rc == 0)); then
        say "$name: passed ($((SECONDS - t0)) s)"
    else
        printf '\033[1;31m==> %s: FAILED (exit %d, %d s)\033[0m\n' "$name" "$rc" "$((SECONDS - t0))" >&2
        failures+=("$name (exit $rc)")
    fi
}

# run_pytest EMPTY_OK LIMIT CAP ARGS...: pytest under a time limit (LIMIT quiet-machine
# seconds, CAP wall seconds; scripts/time_limit.py). Exit 5 (no tests collected) passes
# only when EMPTY_OK is "yes"; 124 or 137 means the time limit struck.
run_pytest() {
    local empty_ok="$1" limit="$2" cap="$3" rc=0
    shift 3
    # At a terminal pytest stays in the foreground so Ctrl+C reaches it; otherwise (CI) it
    # runs in its own process group, so a time-out also stops the app and the browser.
    # SIGTERM at the limit; pytest reports the test it stopped and prints its summary, and
    # gets 60 s for that before SIGKILL.
    "$VPY" scripts/time_limit.py "$limit" "$cap" "$VPY" -m pytest "$@" || rc=$?
    if ((rc == 5)); then
        if [[ "$empty_ok" == yes ]]; then
            say "pytest collected no tests here (exit 5); nothing to run"
            return 0
        fi
        printf '\033[1;31mpytest collected no tests (exit 5), and these must run.\033[0m\n' >&2
    elif ((rc == 124 || rc == 137)); then
        printf '\033[1;31mpytest did not finish within its limit (%s s counted at the load, at most %s s) and was stopped.\033[0m\n' "$limit" "$cap" >&2
    fi
    return "$rc"
}

ensure_venv "dev,dask,native"
ensure_chromium
ensure_postgres

lint_paths=()
for p in sim tests app.py ui benchmarks; do
    [[ -e "$p" ]] && lint_paths+=("$p")
done

step "PostgreSQL server for the tabletop tests" start_postgres
step "compile the engine (mypyc; tests/test_native.py checks it is used)" build_engine
step "ruff check ${lint_paths[*]}" "$VENV/bin/ruff" check "${lint_paths[@]}"
step "mypy sim" "$VENV/bin/mypy" sim
step "mypy ui app.py" "$VENV/bin/mypy" ui app.py
set_limits
say "Time limits: unit step ${UNIT_LIMIT} s counted at the load (at most ${UNIT_CAP} s); one test ${TEST_LIMIT} s (scale ${TRAININGROOM_TIMEOUT_SCALE})"
step "pytest (everything but the browser tests, 2 workers)" \
    run_pytest yes "$UNIT_LIMIT" "$UNIT_CAP" -m "not browser" -n 2 --dist loadgroup --timeout "$TEST_LIMIT"
set_limits
say "Time limits: browser step ${BROWSER_LIMIT} s counted at the load (at most ${BROWSER_CAP} s); one test ${TEST_LIMIT} s (scale ${TRAININGROOM_TIMEOUT_SCALE})"
step "pytest (browser tests in Chromium, serial)" \
    run_pytest no "$BROWSER_LIMIT" "$BROWSER_CAP" -m browser -p no:xdist --timeout "$TEST_LIMIT" \
    --screenshot only-on-failure --output test-artifacts/playwright

elapsed=$((SECONDS - started))
if ((${#failures[@]})); then
    printf '\033[1;31m==> FAILED after %d s:\033[0m\n' "$elapsed" >&2
    printf '      %s\n' "${failures[@]}" >&2
    exit 1
fi
say "All checks passed in ${elapsed} s (screenshots in test-artifacts/screenshots/)"
