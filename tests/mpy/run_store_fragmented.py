# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# A long run's heap: half of it free, but only in holes of GRAIN bytes (the
# rest held by what the run keeps).
# With SAVES: saving must go on all the same: SAVES audits records of growing
# size into a 4 KB nvm sector, so the sector is compacted (erased and
# rewritten whole) again and again. Then the heap is let go and the sector
# read back as the next start would. Prints "ok ERASES WRITES" or what failed.
# With "probe": MEMORY's largest free block (link.commands.probe). Prints
# "FREE BLOCK FITS OVER ENABLED": the heap's free bytes, the block answered,
# whether a block that large can be allocated now (it must), whether one
# twice as large could (it must not), the collector on again after.
# MICROPYPATH=<compiled tree> micropython -X heapsize=H run_store_fragmented.py GRAIN SAVES|probe
import gc
import sys

from nimatron.machine.store import Store

grain = int(sys.argv[1])
saves = 0 if sys.argv[2] == "probe" else int(sys.argv[2])
if not saves:
    from nimatron.link.commands import probe  # loaded while the heap is whole
nvm = bytearray(b"\xff" * 4096)
store = Store(nvm=nvm)
store.load()
store.save_settings({"set": {"preset": "graph"}})
counts = {}
for k in range(12):
    counts["p%d" % k] = [0, 0, 0]  # a record that grows, as per-preset counts do (the dict made now)
held = [None] * 1024
gc.collect()
n = 0
try:
    while n < len(held):
        held[n] = bytearray(grain)
        n += 1
except MemoryError:
    pass
for i in range(0, n, 2):
    held[i] = None
gc.collect()
if not saves:
    free = gc.mem_free()
    block = probe(free)
    enabled = gc.isenabled()
    gc.collect()  # the probe's own garbage
    gc.disable()
    try:
        bytearray(block)
        fits = True
    except MemoryError:
        fits = False
    gc.collect()
    try:
        bytearray(2 * block + 64)
        over = True
    except MemoryError:
        over = False
    gc.enable()
    print(free, block, fits, over, enabled)
    sys.exit(0)
failed = None
for k in range(saves):
    counts["p%d" % (k % 12)] = [k, k // 2, k // 3]
    if store.save_audits({"l": [k, k], "p": counts}) is not True:
        failed = "save %d of %d failed: %s" % (k + 1, saves, store.failing)
        break
    if k % 7 == 3 and store.save_settings({"set": {"preset": "p%d" % k}}) is not True:
        failed = "settings save %d failed: %s" % (k + 1, store.failing)
        break
held = None
counts = None
gc.collect()
found = Store(nvm=nvm).load()
if failed:
    print(failed)
elif found["audits"]["l"] != [saves - 1, saves - 1] or found["problems"]:
    print("read back %r, problems %r" % (found["audits"], found["problems"]))
else:
    print("ok %d %d" % (store.erases, store.writes))
