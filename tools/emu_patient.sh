#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The shared circuitpython-emu tool's play.sh, with its emulated USB host as
# patient as a real one. The tool's host retries an unanswered request every
# 50 ms and gives up after 20 retries summed over the whole enumeration (1 s);
# Linux waits 5 s for each control transfer (USB_CTRL_GET_TIMEOUT) and then
# resets the port and tries again. CircuitPython 9.0.0 answers slowly while
# code.py's imports compile (47 retries, 2.5 s, measured: docs/board.md), so
# the stock tool reports "USB never enumerated" where a PC would connect.
# usage: tools/emu_patient.sh CHECKOUT [GAMES] [UF2]   (as play.sh)
set -eu
src=${CP_EMU_TOOL:-$(cd "$(dirname "$0")/../.." && pwd)/shared/tools/circuitpython-emu}
[ -f "$src/emu.js" ] || { echo "emu_patient: no circuitpython-emu tool at $src (set CP_EMU_TOOL)"; exit 2; }
tool=$(mktemp -d)/circuitpython-emu
cp -r "$src" "$tool"
sed -i 's/this\.retries >= 20) return;/this.retries >= 200) return;/' "$tool/emu.js"
grep -q 'this.retries >= 200) return;' "$tool/emu.js" || { echo "emu_patient: the tool's USB host changed; patch it by hand"; exit 2; }
exec "$tool/play.sh" "$@"
