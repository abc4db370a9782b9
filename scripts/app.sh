#!/usr/bin/env bash
# Install what the app needs (into .venv, once) and start the TrainingRoom app.
# Extra arguments go to `streamlit run`, e.g.: bash scripts/app.sh --server.port 8600
set -euo pipefail
# shellcheck source=scripts/_venv.sh
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
cd "$ROOT"

ensure_venv "native"
if ! build_engine; then  # the app runs the same model as Python, only slower
    printf '\033[1;33mWARNING: the engine could not be compiled (above); the app runs it as Python.\033[0m\n' >&2
fi

flags=(--browser.gatherUsageStats false --server.showEmailPrompt false --client.toolbarMode minimal)
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
    flags+=(--server.headless true)  # no screen to open a browser on
fi

# Find the port the user asked for, to print the right address.
port="${STREAMLIT_SERVER_PORT:-8501}"
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    case "${args[i]}" in
        --server.port=*) port="${args[i]#*=}" ;;
        --server.port) port="${args[i + 1]:-$port}" ;;
    esac
done
say "Starting TrainingRoom: open http://localhost:${port} in a browser (Ctrl+C stops it)"

exec "$VPY" -m streamlit run app.py "${flags[@]}" "$@"
