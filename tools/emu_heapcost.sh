#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# What a heap operation costs on real CircuitPython in the emulated Pico,
# fresh and with the exhibit's modules loaded (tests/mpy/bench_heapcost.py):
# why a module load costs four times as much in the running exhibit as at a
# fresh REPL. Deploys pico-grid as `nimatron deploy --mpy-cross` does, boots,
# Ctrl-C, then runs the bench. Not for CI (the shared
# circuitpython-emu tool, set up once). Figures: docs/board.md.
# usage: tools/emu_heapcost.sh [UF2 name in the cache, default cp9.2.8.uf2]
set -eu
. "$(dirname "$0")/emu_lib.sh"
emu_bench emu_heapcost "$CACHE/${1:-cp9.2.8.uf2}" bench_heapcost "bench_heapcost.main()"
sed -n '/^>>> import bench_heapcost/,$p' "$work/repl.log" | tr -d '\r' | grep -E "^(fresh|loaded|modules) |Error|Traceback"
