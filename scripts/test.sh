#!/usr/bin/env bash
# The one test command: make a local virtualenv with the project and its test extras, then run the whole suite.
# Works on a fresh machine with Python >= 3.11 and access to PyPI. LoCoMo tests skip when ../shared/data is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test,cards]'
bash scripts/browser.sh
bash scripts/graphviz.sh
# one worker per core (pytest-xdist): each worker has its own temp dirs, embedded PostgreSQL and browser, and a test
# never shares a store, a port or a socket with another; MNEMON_TEST_WORKERS=0 runs everything in this process
exec .venv/bin/python -m pytest tests --doctest-modules src/mnemon/core -p no:cacheprovider \
  -n "${MNEMON_TEST_WORKERS:-auto}" "$@"
