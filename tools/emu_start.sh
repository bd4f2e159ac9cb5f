#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# Where a board's start goes, step by step, on real CircuitPython in the
# emulated Pico: deploys this checkout as `nimatron deploy --py` does (plain .py,
# or .py compiled with MPY=CircuitPython's mpy-cross), adds a line printing
# supervisor.ticks_ms() after each step of code.py's start and of
# app.make_controller (tools/emu_start_marks.py, on the deployed copy only),
# boots it, and prints the marks and the first lit lamp. Not for CI (the
# shared circuitpython-emu tool, set up once). Figures: docs/board.md.
# usage: tools/emu_start.sh [BOARD (default pico-neopixel)]
set -u
here=$(cd "$(dirname "$0")" && pwd); repo=$(dirname "$here")
tool=$repo/../shared/tools/circuitpython-emu
CACHE=${CP_EMU_CACHE:-$HOME/.cache/nimatron-cp-emu}; export CP_EMU_CACHE=$CACHE
board=${1:-pico-neopixel}
[ -d "$CACHE/node_modules/rp2040js" ] || { echo "emu_start: not set up (run the shared tool's setup.sh)"; exit 2; }
work=$(mktemp -d); drive=$work/CIRCUITPY; mkdir -p "$drive"
printf 'Adafruit CircuitPython 9.2.8 on 2025-05-28; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n' > "$drive/boot_out.txt"
how=(--py); [ -n "${MPY:-}" ] && how=(--mpy-cross "$MPY")  # the marks are added to the .py files
"$repo/.venv/bin/nimatron" deploy --to "$drive" --board "$board" --offline "${how[@]}" > "$work/deploy.log" 2>&1 \
    || { echo "emu_start: deploy failed: $(tail -1 "$work/deploy.log")"; exit 1; }
rm -f "$drive/boot_out.txt"
"$repo/.venv/bin/python" "$here/emu_start_marks.py" "$drive" || exit 1
bash "$tool/mkfat.sh" "$drive" "$work/drive.img" >/dev/null
pm=$(find "$drive" -name "$board.json" | head -1)
NODE_PATH=$CACHE/node_modules node "$tool/game.js" --uf2 "${UF2:-$CACHE/cp9.2.8.uf2}" --img "$work/drive.img" \
    --pinmap "$pm" --out "$work/out" --boot-only 2> "$work/harness.log" > "$work/stdout.log"
grep -h -E "first NeoPixel" "$work/harness.log" | head -1
grep -h -o -E "mark [a-z_]+( [A-Za-z0-9_]+)? [0-9]{6,}" "$work/harness.log" "$work/stdout.log" 2>/dev/null | awk '!seen[$0]++' | awk '
    NR == 1 { t0 = $NF } { printf "%-10s +%5d ms  %s\n", $2, $NF - t0, ($3 != $NF ? $3 : "") }'
