# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The heap a rule set's own code keeps on a board: its registry line's module
# and whatever that imports, beyond games.rules and games.nim (every heap game
# is built on Nim's). Prints "bytes N" (after a collection) and "modules ..."
# (the games modules it brought).
# usage: MICROPYPATH=<compiled tree> micropython -X heapsize=256K run_rule_bytes.py SPEC
import gc
import sys

import nimatron.games.nim  # noqa: F401 - resident on every board that plays a heap game
from nimatron.games.rules import parse_rules

before = set(sys.modules)
gc.collect()
start = gc.mem_alloc()
rules = parse_rules(sys.argv[1])
gc.collect()
print("bytes %d" % (gc.mem_alloc() - start))
brought = [m[15:] for m in sys.modules if m not in before and m[:15] == "nimatron.games."]
brought.sort()
print("modules " + " ".join(brought))
print("spec " + rules.spec)
