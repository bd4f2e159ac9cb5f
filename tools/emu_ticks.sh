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
here=$(cd "$(dirname "$0")/.." && pwd)
emu=${CP_EMU_TOOL:-$here/../shared/tools/circuitpython-emu}
CACHE=${CP_EMU_CACHE:-$HOME/.cache/nimatron-cp-emu}; export CP_EMU_CACHE=$CACHE
uf2=$CACHE/${1:-cp9.2.8.uf2}; shift || true
presets=${*:-nimatron grundy nim2d graph graph/misere candy candy/misere building}
[ -s "$uf2" ] && [ -d "$CACHE/node_modules/rp2040js" ] || { echo "emu_ticks: the emulator is not set up ($emu/setup.sh)"; exit 2; }
work=$(mktemp -d); drive=$work/CIRCUITPY; mkdir -p "$drive"
printf 'Adafruit CircuitPython 9.2.8 on 2025-05-28; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n' > "$drive/boot_out.txt"
"$here/.venv/bin/nimatron" deploy --to "$drive" --board pico-grid --offline > "$work/deploy.log"
rm -f "$drive/boot_out.txt"
cp "$here/tests/mpy/bench_ticks.py" "$here/tests/fake_io.py" "$drive/"
cp "$here"/firmware/nimatron/config/pinmaps/*.json "$drive/lib/nimatron/config/pinmaps/"  # PRESET@BOARD
bash "$emu/mkfat.sh" "$drive" "$work/drive.img" >/dev/null
list=$(printf '"%s", ' $presets)
printf "import bench_ticks\nbench_ticks.engine(${UNITS:-None})\nbench_ticks.main((%s))\n" "$list" > "$work/cmds.txt"
NODE_PATH=$CACHE/node_modules node "$emu/repl.js" --uf2 "$uf2" --img "$work/drive.img" \
    --pinmap "$drive/lib/nimatron/config/pinmaps/pico-grid.json" --cmds "$work/cmds.txt" \
    --settle 9000 --timeout 3000000 --out "$work/out" > "$work/repl.log" 2>&1 || true
grep -E "^circuitpython |Error|Traceback|harness\]" "$work/repl.log" | tr -d '\r'
