#!/usr/bin/env bash
# The Python test of .ci/run: the package under python/ installed with pip into a fresh
# virtual environment, then its pytest suite (python/tests, which also runs the examples of
# docs/python.md).
#
# Run it locally (needs python3 with the venv module, the Rust toolchain, and PyPI):
#
#     bash tests/python/run.sh
#
# Installs maturin (the build backend), pytest, pandas, matplotlib (docs/python.md plots a
# league's standings), open_spiel (python/tests/test_open_spiel.py plays OpenSpiel's games) and
# nbclient, nbformat and ipykernel (python/tests/test_notebook.py executes docs/portfolio.ipynb)
# from PyPI, then `pip install ./python`, which compiles the library in release mode. The
# OpenSpiel tests also run the evomcts binary on an OpenSpiel run folder: the one given as the
# first argument, else target/release/evomcts when built. Any failed test fails the script, and so does finding no tests (pytest's
# exit status 5).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
# A machine whose python3 lacks the venv module (Debian's python3 without python3-venv) gets
# Debian's packages first.
if ! command -v python3 >/dev/null || ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    bash tests/apt-install.sh python3 python3-venv python3-pip
fi
W=$(mktemp -d /tmp/evomcts-python-test.XXXXXX)
echo "python test: virtual environment in $W/venv"
python3 -m venv "$W/venv"
PY="$W/venv/bin/python"
"$PY" -m pip install --quiet --upgrade pip
"$PY" -m pip install --quiet maturin pytest pandas matplotlib open_spiel nbclient nbformat ipykernel
"$PY" -m pip install --quiet "$ROOT/python"
BIN=${1:-$ROOT/${CARGO_TARGET_DIR:-target}/release/evomcts}
if [ -x "$BIN" ]; then
    EVOMCTS_BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
    export EVOMCTS_BIN
fi
# The oracle of python/tests/test_native_oracle.py: the native games' traces, compared there with
# OpenSpiel's games move for move.
(cd "$ROOT" && cargo build --quiet --release -p evomcts-twins --features oracle --example oracle_trace)
EVOMCTS_ORACLE=${CARGO_TARGET_DIR:-$ROOT/target}/release/examples/oracle_trace
export EVOMCTS_ORACLE
# From outside the repository, so `import evomcts` finds the installed package, not python/.
cd "$W"
status=0
"$PY" -m pytest -q -p no:cacheprovider "$ROOT/python/tests" || status=$?
if [ "$status" -eq 5 ]; then
    echo "python test: pytest collected no tests" >&2
    exit 1
fi
exit "$status"
