#!/bin/sh
# The whole test suite (sets itself up on first run). Extra arguments go to pytest.
set -e
cd "$(dirname "$0")"
. tools/setup.sh
exec .venv/bin/python -m pytest -n auto -q "$@"
