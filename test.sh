#!/bin/sh
# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The whole test suite (sets itself up on first run). Extra arguments go to pytest.
set -e
cd "$(dirname "$0")"
. tools/setup.sh
# The browser and terminal tests drive Debian's chromium and tmux; the hardware
# package renders its PNGs with rsvg-convert (librsvg2-bin) and simulates its supply
# faults with ngspice. Install them
# where this shell can (root with apt-get); elsewhere those tests skip, saying why.
for tool in chromium tmux rsvg-convert:librsvg2-bin ngspice; do
    package=${tool#*:}
    tool=${tool%%:*}
    if ! command -v "$tool" >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing $package for the browser/terminal/hardware tests..." >&2
        { apt-get install -y -q "$package" || { apt-get update -q && apt-get install -y -q "$package"; }; } >/dev/null 2>&1 \
            || echo "could not install $package: its tests will skip" >&2
    fi
done
# Bytecode is cached (__pycache__, ignored by git): a shell that sets PYTHONDONTWRITEBYTECODE
# makes every worker and every command a test starts compile its modules again.
unset PYTHONDONTWRITEBYTECODE
# Two workers a core: a quarter of the suite's time is spent waiting on the programs its
# tests drive (tmux, chromium, ngspice, micropython), and a second worker fills it
# (docs/benchmarks.md: 9 min 1 s with one a core, 7 min with two, on two cores).
cores=$(nproc 2>/dev/null || echo 2)
exec .venv/bin/python -m pytest -n $((cores * 2)) --dist worksteal -q "$@"
