# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The games' check (panels/playable.check_engine) per preset and start, on a
# board's interpreter: what a SET's apply step costs (issue 27: SET preset
# graph, one 903.6 ms pass on the emulated pico-grid). For every preset, in
# normal and misere play, each start's check is timed from cold caches and
# its search work counted (games.budget units, unlimited budget): a check that
# spends a unit searched. Prints "preset play start ms units".
#   cd tests; MICROPYPATH=<compiled tree> micropython -X heapsize=256K mpy/bench_checks.py [PRESET...]
# (tests/mpy_runner.compiled_tree makes the tree; CPython: PYTHONPATH=../firmware python3 mpy/bench_checks.py)
import gc
import sys
import time

from nimatron.config.settings import SettingsError, presets, resolve
from nimatron.games import budget
from nimatron.games.rules import parse_rules
from nimatron.link.hostlink import forget_searches
from nimatron.panels import playable

try:
    clock = time.monotonic_ns

    def us():
        return clock() // 1000
except AttributeError:  # MicroPython's unix port
    us = time.ticks_us


def check(rules, misere, start):
    forget_searches()
    gc.collect()
    budget.start(1 << 30)
    t0 = us()
    try:
        playable.check_engine(rules, misere, start)
        said = "ok"
    except SettingsError:
        said = "refused"
    ms = (us() - t0) / 1000
    units = budget.spent()
    budget.stop()
    return ms, units, said


def main(names):
    worst = 0
    for name in names or sorted(presets()):
        s = resolve(preset=name)
        rules = parse_rules(s["rules"])
        for misere in (False, True):
            for start in s["starts"]:
                ms, units, said = check(rules, misere, start)
                worst = max(worst, ms)
                print(
                    "%-13s %-6s %-22s %8.1f ms %7d units %s"
                    % (name, "misere" if misere else "normal", str(start).replace(" ", ""), ms, units, said)
                )
    print("worst %.1f ms" % worst)


main(sys.argv[1:])
