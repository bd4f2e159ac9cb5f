# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# What each firmware module keeps resident once imported (bytecode, constants,
# its globals). Precompiled .mpy files load their bytecode into the heap on
# this port, as they do on CircuitPython unless frozen into flash.
# usage: micropython -X heapsize=512K -m resident MODULE...
#   imports each MODULE in the order given, collecting between them, and
#   prints "module bytes"; give them leaves first, so that each figure is the
#   module's own (a module importing one not yet loaded is charged for it).
# usage: micropython -m resident --needs MODULE
#   prints the firmware modules importing MODULE loads (itself included).
import gc
import sys

if sys.argv[1] == "--needs":
    __import__(sys.argv[2])
    print(" ".join([m for m in sys.modules if m.startswith("nimatron")]))
else:
    gc.collect()
    before = gc.mem_alloc()
    for name in sys.argv[1:]:
        __import__(name)
        gc.collect()
        after = gc.mem_alloc()
        print(name, after - before)
        before = after
