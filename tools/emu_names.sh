#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# What the exhibit's modules leave in the heap after they are dropped, on
# real CircuitPython in the emulated Pico (tests/mpy/bench_names.py): the
# interned names no module's drop gives back. Deploys pico-grid as
# `nimatron deploy --mpy-cross` does, boots, Ctrl-C, then runs the bench at
# the REPL. Not for CI (the shared circuitpython-emu tool, set up once).
# Figures: docs/board.md.
# usage: tools/emu_names.sh [UF2 name in the cache, default cp9.2.8.uf2]
set -eu
. "$(dirname "$0")/emu_lib.sh"
emu_bench emu_names "$CACHE/${1:-cp9.2.8.uf2}" bench_names "bench_names.main()" "bench_names.pools()" "bench_names.everything()"
tr -d '\r' < "$work/repl.log" | grep -E "^names |Error" || true
