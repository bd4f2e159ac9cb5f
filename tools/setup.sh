# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# Sourced by run.sh and test.sh: make .venv and install the project once,
# again only when pyproject.toml changes. Needs only python3 (3.11+) and pip.
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    echo "setting up .venv (first run only, a minute or two)..." >&2
    "$PY" -m venv .venv
fi
if [ ! -f .venv/.installed ] || [ pyproject.toml -nt .venv/.installed ]; then
    if ! .venv/bin/python -m pip install --disable-pip-version-check -e ".[test]" >.venv/install.log 2>&1; then
        cat .venv/install.log >&2
        echo "install failed (log above, also in .venv/install.log)" >&2
        exit 1
    fi
    touch .venv/.installed
fi
