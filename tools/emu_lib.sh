# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# Sourced by tools/emu_ticks.sh, emu_heapcost.sh and emu_names.sh: a pico-grid drive
# as `nimatron deploy` makes it, with a benchmark put beside code.py, booted
# in the shared circuitpython-emu tool's emulated Pico and driven from its REPL.
here=$(cd "$(dirname "$0")/.." && pwd)
emu=${CP_EMU_TOOL:-$here/../shared/tools/circuitpython-emu}
CACHE=${CP_EMU_CACHE:-$HOME/.cache/nimatron-cp-emu}; export CP_EMU_CACHE=$CACHE

# emu_drive [deploy option...]: a new $work with the deployed drive in $drive
emu_drive() {
    work=$(mktemp -d); drive=$work/CIRCUITPY; mkdir -p "$drive"
    printf 'Adafruit CircuitPython 9.2.8 on 2025-05-28; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n' > "$drive/boot_out.txt"
    "$here/.venv/bin/nimatron" deploy --to "$drive" --board pico-grid --offline "$@" > "$work/deploy.log"
    rm -f "$drive/boot_out.txt"
}

# emu_repl UF2 SETTLE_MS TIMEOUT_MS LINE...: boot $drive as it is now, Ctrl-C after
# SETTLE_MS, type each LINE into the REPL; everything said lands in $work/repl.log
emu_repl() {
    local uf2=$1 settle=$2 timeout=$3
    shift 3
    printf '%s\n' "$@" > "$work/cmds.txt"
    bash "$emu/mkfat.sh" "$drive" "$work/drive.img" >/dev/null
    NODE_PATH=$CACHE/node_modules node "$emu/repl.js" --uf2 "$uf2" --img "$work/drive.img" \
        --pinmap "$drive/lib/nimatron/config/pinmaps/pico-grid.json" --cmds "$work/cmds.txt" \
        --settle "$settle" --timeout "$timeout" --out "$work/out" > "$work/repl.log" 2>&1 || true
}

# emu_bench TOOL UF2 BENCH LINE...: a drive deployed with CircuitPython's own
# mpy-cross, tests/mpy/BENCH.py beside code.py, each LINE typed at the REPL
# (exit 2 with a message when the emulator is not set up)
emu_bench() {
    local tool=$1 uf2=$2 bench=$3 cross=$CACHE/mpy-cross-9.2.8
    shift 3
    [ -s "$uf2" ] && [ -x "$cross" ] && [ -d "$CACHE/node_modules/rp2040js" ] \
        || { echo "$tool: the emulator or its mpy-cross is not set up ($emu/setup.sh, build-mpy-cross.sh)"; exit 2; }
    emu_drive --mpy-cross "$cross"
    cp "$here/tests/mpy/$bench.py" "$drive/"
    emu_repl "$uf2" 6000 600000 "import $bench" "$@"
}
