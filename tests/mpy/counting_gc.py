# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# ``gc`` as the firmware imports it (``import gc`` finds sys.modules first),
# counting collections and reads of the heap's figures: a runner calls
# ``install()`` before it imports the firmware, then reads and resets
# ``counts`` around each pass.
import gc
import sys

counts = {"collect": 0, "reads": 0}


class CountingGC:
    def collect(self):
        counts["collect"] += 1
        gc.collect()

    def mem_free(self):
        counts["reads"] += 1
        return gc.mem_free()

    def mem_alloc(self):
        counts["reads"] += 1
        return gc.mem_alloc()

    def __getattr__(self, name):
        return getattr(gc, name)


def install():
    sys.modules["gc"] = CountingGC()
