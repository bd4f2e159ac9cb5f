# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# A long run's heap: half of it free, but only in holes of GRAIN bytes (the
# rest held by what the run keeps). Saving must go on all the same: SAVES
# audits records of growing size into a 4 KB nvm sector, so the sector is
# compacted (erased and rewritten whole) again and again. Then the heap is
# let go and the sector read back as the next start would.
# Prints "ok ERASES WRITES" or what failed.
# MICROPYPATH=<compiled tree> micropython -X heapsize=H run_store_fragmented.py GRAIN SAVES
import gc
import sys

from nimatron.machine.store import Store

grain = int(sys.argv[1])
saves = int(sys.argv[2])
nvm = bytearray(b"\xff" * 4096)
store = Store(nvm=nvm)
store.load()
store.save_settings({"set": {"preset": "graph"}})
counts = {}
for k in range(12):
    counts["p%d" % k] = [0, 0, 0]  # a record that grows, as per-preset counts do (the dict made now)
held = [None] * 4096
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
