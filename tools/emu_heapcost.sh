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
here=$(cd "$(dirname "$0")/.." && pwd)
emu=${CP_EMU_TOOL:-$here/../shared/tools/circuitpython-emu}
CACHE=${CP_EMU_CACHE:-$HOME/.cache/nimatron-cp-emu}; export CP_EMU_CACHE=$CACHE
uf2=$CACHE/${1:-cp9.2.8.uf2}
cross=$CACHE/mpy-cross-9.2.8
[ -s "$uf2" ] && [ -x "$cross" ] && [ -d "$CACHE/node_modules/rp2040js" ] \
    || { echo "emu_heapcost: the emulator or its mpy-cross is not set up ($emu/setup.sh, build-mpy-cross.sh)"; exit 2; }
work=$(mktemp -d); drive=$work/CIRCUITPY; mkdir -p "$drive"
printf 'Adafruit CircuitPython 9.2.8 on 2025-05-28; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n' > "$drive/boot_out.txt"
"$here/.venv/bin/nimatron" deploy --to "$drive" --board pico-grid --offline --mpy-cross "$cross" > "$work/deploy.log"
rm -f "$drive/boot_out.txt"
cp "$here/tests/mpy/bench_heapcost.py" "$drive/"
bash "$emu/mkfat.sh" "$drive" "$work/drive.img" >/dev/null
printf "import bench_heapcost\nbench_heapcost.main()\n" > "$work/cmds.txt"
NODE_PATH=$CACHE/node_modules node "$emu/repl.js" --uf2 "$uf2" --img "$work/drive.img" \
    --pinmap "$drive/lib/nimatron/config/pinmaps/pico-grid.json" --cmds "$work/cmds.txt" \
    --settle 6000 --timeout 600000 --out "$work/out" > "$work/repl.log" 2>&1 || true
sed -n '/^>>> import bench_heapcost/,$p' "$work/repl.log" | tr -d '\r' | grep -E "^(fresh|loaded|modules) |Error|Traceback"
