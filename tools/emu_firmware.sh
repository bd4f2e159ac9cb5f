#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# One board and firmware in the emulator (the shared circuitpython-emu tool, set up once; not for
# CI): deploys this checkout as `nimatron deploy` does (stock: the carried .mpy, .py with PY=1, or .mpy with MPY_CROSS=...;
# frozen: `deploy --firmware UF2`, the UF2 from tools/build_firmware.sh) with the first preset,
# wraps code.py to print the live heap (gc.collect, then gc.mem_free, after a tick, every 200 ms)
# whenever it has fallen by more than 256 bytes, boots, answers HELLO, then chooses every preset over the host link (SET preset, NEW,
# EXPLAIN, STATE: tools/emu_firmware.js) and plays GAMES whole games (greedy, then perfect visitor)
# where the harness presses the board's buttons: the MacroPad's keys (emu_firmware.js) and, in a
# second boot, row buttons (the shared game.js); a key-matrix board (pico-grid, pico-ring) gets
# the presets only. Prints one line per run: first lit lamp, HELLO, least heap free, presets
# answered, games, watchdog.
# usage: tools/emu_firmware.sh BOARD PRESET[,PRESET...] stock|frozen UF2 [GAMES, default 2]
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
emu=${CP_EMU_TOOL:-$here/../shared/tools/circuitpython-emu}; export CP_EMU_TOOL=$emu
CACHE=${CP_EMU_CACHE:-$HOME/.cache/nimatron-cp-emu}; export CP_EMU_CACHE=$CACHE
usage="usage: tools/emu_firmware.sh BOARD PRESET stock|frozen UF2 [GAMES]"
board=${1:?$usage}; presets=${2:?$usage}; preset=${presets%%,*}; mode=${3:?$usage}; uf2=${4:?$usage}; games=${5:-2}
[ -s "$uf2" ] || { echo "emu_firmware: no UF2 $uf2"; exit 2; }
[ -d "$CACHE/node_modules/rp2040js" ] || { echo "emu_firmware: the emulator is not set up ($emu/setup.sh)"; exit 2; }
nim=$here/.venv/bin/nimatron
work=$(mktemp -d); drive=$work/CIRCUITPY; mkdir -p "$drive"
case $board in
  macropad) boot_out='Adafruit CircuitPython 9.2.8 on 2025-05-28; Adafruit Macropad RP2040 with rp2040\nBoard ID:adafruit_macropad_rp2040\n' ;;
  *) boot_out='Adafruit CircuitPython 9.2.8 on 2025-05-28; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n' ;;
esac
printf "$boot_out" > "$drive/boot_out.txt"
case $mode in
  stock) extra=(); [ -n "${PY:-}" ] && extra=(--py); [ -n "${MPY_CROSS:-}" ] && extra=(--mpy-cross "$MPY_CROSS"); module=nimcode ;;
  frozen) extra=(--firmware "$uf2"); module=nimatron_code ;;
  *) echo "$usage"; exit 2 ;;
esac
"$nim" deploy --to "$drive" --board "$board" --preset "$preset" --offline "${extra[@]}" > "$work/deploy.log" 2>&1 ||
  { echo "emu_firmware: deploy failed: $(tail -1 "$work/deploy.log")"; exit 1; }
rm -f "$drive/boot_out.txt"
[ "$mode" = stock ] && mv "$drive/code.py" "$drive/nimcode.py"
cat > "$drive/code.py" <<EOF
# measuring wrapper (tools/emu_firmware.sh): the live heap (after a collection) every 200 ms, after a tick
import time
print("code.py started at %d ms" % int(time.monotonic() * 1000))  # CircuitPython's clock, from its start
import gc
from nimatron.machine import startup
_tick = startup.Machine.tick
_low = [1 << 30, -1000]
def _measured(self, now):
    _tick(self, now)
    if now - _low[1] >= 200:
        _low[1] = now
        gc.collect()
        free = gc.mem_free()
        if free + 256 < _low[0]:
            _low[0] = free
            print("heap-low %d at %d ms" % (free, now))
startup.Machine.tick = _measured
from $module import main
main()
EOF
bash "$emu/mkfat.sh" "$drive" "$work/drive.img" >/dev/null
pm=$here/firmware/nimatron/config/pinmaps/$board.json
input=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['input'])" "$pm")
summary() { # report folder, games asked for
python3 - "$1" "$board" "$presets" "$mode" "$uf2" "$2" <<'PY'
import json, os, re, sys

out, board, presets, mode, uf2, games = sys.argv[1:]
try:
    r = json.load(open(os.path.join(out, "report.json")))
    console = open(os.path.join(out, "console.txt"), errors="replace").read()
except OSError as e:
    print("%s %s %s: no report (%s)" % (board, presets, mode, e)); sys.exit(1)
lows = [int(x) for x in re.findall(r"heap-low (\d+) at", console)]
started = re.findall(r"code.py started at (\d+) ms", console)
hello = (r.get("hello") or {}).get("reply") or "no answer"
over = [g for g in r.get("games", []) if (g.get("game_over") or {}).get("winner") in ("visitor", "machine")]
sweep = r.get("presets") or []
failed = ["%s: %s" % (p["preset"], p[k]) for p in sweep for k in ("set", "new", "explain")
          if not (p.get(k) or "").startswith("OK")]
bad = re.findall(r"(Traceback|MemoryError[^\r\n]*|cannot start[^\r\n]*)", console)
print("%s %s (%s): code.py started at %s ms (time.monotonic), first lit lamp %s ms, HELLO %s, least heap free %s, %s%d of %s games to the end, watchdog %s%s%s" % (
    board, mode, os.path.basename(uf2), started[0] if started else "?", r.get("first_lit_frame_ms"),
    "answered" if hello.startswith("OK") else hello[:60],
    ("%.1f KB" % (min(lows) / 1024)) if lows else "not seen",
    ("%d of %d presets set, started and explained, " % (len(sweep) - len({f.split(":")[0] for f in failed}), len(sweep)))
    if sweep else "", len(over), games,
    "fired" if r.get("watchdog_fired") else "never fired",
    ("; failed: " + "; ".join(failed[:4])) if failed else "", ("; console: " + "; ".join(bad[:3])) if bad else ""))
PY
}
run_games=0; [ "$board" = macropad ] && run_games=$games
NODE_PATH=$CACHE/node_modules node "$here/tools/emu_firmware.js" --uf2 "$uf2" --img "$work/drive.img" --pinmap "$pm" \
  --out "$work/out" --presets "$presets" --games "$run_games" 2> "$work/harness.log"
summary "$work/out" "$run_games"
if [ "$input" = rows ] && [ "$games" != 0 ]; then
  bash "$emu/mkfat.sh" "$drive" "$work/drive.img" >/dev/null   # a fresh drive: the store starts empty again
  NODE_PATH=$CACHE/node_modules node "$emu/game.js" --uf2 "$uf2" --img "$work/drive.img" --pinmap "$pm" --out "$work/games" \
    --quiet --games "$games" --strategy greedy,perfect 2> "$work/games.log"
  presets=$preset summary "$work/games" "$games"
fi
echo "  (work: $work)"
