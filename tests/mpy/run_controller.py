# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# Scenario modules under the MicroPython unix port, with a fake driver.
# MICROPYPATH=firmware:tests micropython -X heapsize=... tests/mpy/run_controller.py [MODULE]
# (MODULE: controller_scenarios by default, or service_scenarios)
import gc
import sys

module = __import__(sys.argv[1] if len(sys.argv) > 1 else "controller_scenarios")

failed = 0
names = [n for n in dir(module) if n.startswith("scenario_")]
names.sort()
for name in names:
    gc.collect()
    try:
        getattr(module, name)()
        print("ok   " + name)
    except Exception as e:  # report every scenario, then fail as a whole
        failed += 1
        print("FAIL " + name + ": " + repr(e))
        sys.print_exception(e)
print("%d scenarios, %d failed" % (len(names), failed))
sys.exit(1 if failed else 0)
