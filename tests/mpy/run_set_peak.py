# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# A SET's presets read on a fragmented heap: after the heap is filled and
# every other block of HOLE bytes freed (then any larger free run plugged),
# no free block is over HOLE bytes; each preset must still be read
# (config.settings.load_preset, as a SET's pass reads it). The whole 5 KB
# file read at once (its text grown to 3.8-4.9 KB) was the block a board's
# heap, fragmented by the modules a SET loads, could not give.
# Prints "free N largest-hole H", one "PRESET ok" a preset, then "ok";
# "FAIL PRESET: error" and exit 1 if one cannot be read.
# MICROPYPATH=<compiled tree> micropython -X heapsize=96K run_set_peak.py HOLE
import gc
import sys

from nimatron.config.settings import load_preset, presets

HOLE = int(sys.argv[1])
WORDS = HOLE // 8 - 2  # a tuple of this many items is one block of about HOLE bytes (64-bit)
names = sorted(presets())  # the whole file parsed while the heap is empty: the names only


def fragment(held, plugs):
    """Fill the heap, free every other HOLE-sized block, plug any larger
    free run: in a function, so its names take no room in a full heap."""
    gc.collect()
    n = 0
    size = WORDS
    while n < len(held) and size:
        try:
            held[n] = (None,) * size
            n += 1
        except MemoryError:
            size //= 2  # plug the smaller gaps too
    if n == len(held):
        return False
    i = 0
    while i < n:
        if len(held[i]) == WORDS:
            held[i] = None
        i += 2
    gc.collect()
    p = 0
    while p < len(plugs):  # a free run larger than a hole (two side by side) is taken
        try:
            plugs[p] = (None,) * (WORDS + 2)
            p += 1
        except MemoryError:
            break
    gc.collect()
    return True


held = [None] * 2048
plugs = [None] * 256
if not fragment(held, plugs):
    print("FAIL the heap was not filled: give a smaller heap")
    sys.exit(2)
print("free %d largest-hole %d" % (gc.mem_free(), HOLE))
failed = 0
for name in names:
    try:
        found = load_preset(name)
        print("%s ok %d" % (name, len(found)))
    except MemoryError as e:
        print("FAIL %s: MemoryError %s" % (name, e))
        failed += 1
    found = None
    gc.collect()
print("ok" if not failed else "%d failed" % failed)
sys.exit(1 if failed else 0)
