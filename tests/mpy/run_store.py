# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The power-cut scenarios under the MicroPython unix port.
# MICROPYPATH=firmware:tests:simulator/nimatron_sim micropython -X heapsize=... tests/mpy/run_store.py
import gc
import sys

import store_scenarios

failed = 0
cuts = 0
names = [n for n in dir(store_scenarios) if n.startswith("scenario_")]
names.sort()
for name in names:
    gc.collect()
    try:
        cuts += getattr(store_scenarios, name)()
        print("ok   " + name)
    except Exception as e:  # report every scenario, then fail as a whole
        failed += 1
        print("FAIL " + name + ": " + repr(e))
        sys.print_exception(e)
print("%d scenarios, %d failed, %d power cuts tried" % (len(names), failed, cuts))
sys.exit(1 if failed else 0)
