#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The longest main-loop tick and the heap free per preset on real CircuitPython
# in the emulated Pico (the shared circuitpython-emu tool, set up once with its
# setup.sh; not for CI). Deploys pico-grid as `nimatron deploy` does, adds the
# benchmark (tests/mpy/bench_ticks.py) and a fake driver, boots, then types
#   import bench_ticks; bench_ticks.main(PRESETS)
# into the REPL. Figures: docs/board.md.
# usage: tools/emu_ticks.sh [UF2 name in the cache, default cp9.2.8.uf2] [PRESET[/misere][@BOARD] ...]
set -eu
. "$(dirname "$0")/emu_lib.sh"
uf2=$CACHE/${1:-cp9.2.8.uf2}; shift || true
presets=${*:-nimatron grundy nim2d graph graph/misere candy candy/misere building}
[ -s "$uf2" ] && [ -d "$CACHE/node_modules/rp2040js" ] || { echo "emu_ticks: the emulator is not set up ($emu/setup.sh)"; exit 2; }
emu_drive
cp "$here/tests/mpy/bench_ticks.py" "$here/tests/fake_io.py" "$drive/"
cp "$here"/firmware/nimatron/config/pinmaps/*.json "$drive/lib/nimatron/config/pinmaps/"  # PRESET@BOARD
list=$(printf '"%s", ' $presets)
emu_repl "$uf2" 9000 3000000 "import bench_ticks" "bench_ticks.engine(${UNITS:-None})" "bench_ticks.main(($list))"
grep -E "^circuitpython |Error|Traceback|harness\]" "$work/repl.log" | tr -d '\r'
