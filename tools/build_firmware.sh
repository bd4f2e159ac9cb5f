#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The Nimatron's own firmware: CircuitPython built from source with the nimatron package
# (every module the board's pin maps need, the Adafruit libraries, code.py's body) frozen
# into flash, one UF2 per RP2040 board. Data files stay on CIRCUITPY (/lib/nimatron/):
# `nimatron deploy --firmware UF2` puts the UF2 and then them on the board (docs/board.md,
# "Frozen firmware"). Not for CI: it builds CircuitPython (about 100 s per board on 2 cores).
#
# usage: tools/build_firmware.sh [--stock] [BOARD_ID ...]
#   BOARD_ID  raspberry_pi_pico, adafruit_macropad_rp2040 (default: both)
#   --stock   plain CircuitPython for the board, nothing frozen (the MacroPad has no public
#             9.x UF2), no manifest
# env: MIRROR    folder of OWNER+NAME snapshots of CircuitPython and its submodules (listed at
#                the top of the shared build-circuitpython.sh; default ../.mirror)
#      CP_EMU_TOOL  the shared circuitpython-emu tool (default ../shared/tools/circuitpython-emu)
#      OUT       where the UF2s go (default build/firmware), JOBS (default 2), CP_TAG (9.2.8)
# prints: the path of each UF2; beside a frozen one, NAME.json: board, CircuitPython tag,
#         compiler, mpy-cross, git commit, the UF2's SHA-256, what is frozen and the digests of
#         the data files it expects on the drive.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
emu=${CP_EMU_TOOL:-$here/../shared/tools/circuitpython-emu}
mirror=${MIRROR:-$here/../.mirror}
out=${OUT:-$here/build/firmware}
tag=${CP_TAG:-9.2.8}
py=$here/.venv/bin/python
stock=0
boards=()
for arg in "$@"; do
  case $arg in
    --stock) stock=1 ;;
    raspberry_pi_pico|adafruit_macropad_rp2040) boards+=("$arg") ;;
    *) echo "build_firmware: unknown board or option $arg (boards: raspberry_pi_pico, adafruit_macropad_rp2040; --stock)" >&2; exit 2 ;;
  esac
done
[ ${#boards[@]} -gt 0 ] || boards=(raspberry_pi_pico adafruit_macropad_rp2040)
[ -x "$emu/build-circuitpython.sh" ] || { echo "build_firmware: no build-circuitpython.sh in $emu (set CP_EMU_TOOL)" >&2; exit 2; }
[ -d "$mirror/adafruit+circuitpython" ] || { echo "build_firmware: no CircuitPython snapshot in $mirror (set MIRROR)" >&2; exit 2; }
[ -x "$py" ] || { echo "build_firmware: no $py (run . tools/setup.sh first)" >&2; exit 2; }
mkdir -p "$out"
commit=$(git -C "$here" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
[ -z "$(git -C "$here" status --porcelain -- firmware host 2>/dev/null)" ] || commit="$commit+changes"
for board in "${boards[@]}"; do
  if [ $stock = 1 ]; then
    uf2=$(CP_TAG=$tag JOBS=${JOBS:-2} "$emu/build-circuitpython.sh" "$mirror" "$board")
    cp "$uf2" "$out/circuitpython-$tag-$board.uf2"
    echo "$out/circuitpython-$tag-$board.uf2"
    continue
  fi
  stage=$(mktemp -d)
  "$py" -m nimatron_host.frozen stage "$board" "$stage/src" >/dev/null
  uf2=$(CP_TAG=$tag JOBS=${JOBS:-2} "$emu/build-circuitpython.sh" "$mirror" "$board" "$stage")
  rm -rf "$stage"
  name=$out/circuitpython-$tag-$board-nimatron.uf2
  cp "$uf2" "$name"
  build=${CP_BUILD_DIR:-$HOME/.cache/nimatron-cp-build}/circuitpython-$tag
  compiler=$(arm-none-eabi-gcc --version | head -1)
  mpy=$("$build/mpy-cross/build/mpy-cross" --version 2>&1 | head -1)
  "$py" -m nimatron_host.frozen manifest "$board" "$name" "$tag" "$compiler" "$mpy" "$commit" >/dev/null
  echo "$name"
done
