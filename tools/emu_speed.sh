#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# How fast the board answers, on real CircuitPython in the emulated Pico: runs the
# shared tool's play.sh (GAMES whole games, 0 = boot and HELLO only) on this
# checkout, then prints from its report the first lit lamp, the boot line, HELLO,
# and press to lamp (median and max over every press). Figures: docs/board.md
# ("At full speed"). Not for CI (the shared circuitpython-emu tool, set up once).
# usage: tools/emu_speed.sh [GAMES, default 2] [UF2 name in the cache, default cp9.2.8.uf2]
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
emu=${CP_EMU_TOOL:-$here/../shared/tools/circuitpython-emu}
keep=$(mktemp -d)
TMPDIR=$keep "$emu/play.sh" "$here" "${1:-2}" "${2:-cp9.2.8.uf2}"
report=$(ls "$keep"/*/out/report.json 2>/dev/null | head -1)
[ -n "$report" ] || { echo "emu_speed: no report under $keep"; exit 1; }
python3 - "$report" <<'PY'
import json, sys

r = json.load(open(sys.argv[1]))
hello = r.get("hello") or {}
print("first NeoPixel frame %.0f ms, first lit lamp %.0f ms, boot line %.0f ms after power-on" % (
    r.get("first_frame_ms") or -1, r.get("first_lit_frame_ms") or -1, r.get("boot_line_ms") or -1))
if hello.get("t") is not None:
    print("HELLO sent at %.0f ms, answered %.0f ms later" % (hello["t"], hello.get("latency_ms") or -1))
lat = sorted(p["lamp_latency_ms"] for p in r.get("presses", ()) if p.get("lamp_latency_ms") is not None)
if lat:
    mid = len(lat) // 2
    median = lat[mid] if len(lat) % 2 else (lat[mid - 1] + lat[mid]) / 2
    print("press to lamp: median %.1f ms, max %.1f ms over %d presses (%d without a lamp change)" % (
        median, lat[-1], len(lat), len(r["presses"]) - len(lat)))
    print("  every press, ms: " + " ".join("%.1f" % x for x in lat))
PY
echo "report: $report"
