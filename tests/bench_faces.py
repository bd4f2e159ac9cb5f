# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The slowest answer of the faces, per preset (prints figures, asserts nothing).

    .venv/bin/python tests/bench_faces.py [PRESET ...]

For each preset (the heavy ones by default) a fresh server process's
machine is played to the end through the page's API (``nimatron sim
--web``'s handlers, in this process): a random visitor pressing the lamps'
keys, the page's poll in between. Printed: the slowest NEW GAME, press and
poll, and the slowest Nimrod panel (what the terminal's T shows, worked out
after every move). A fresh process per preset: the first time is the one a
visitor waits for. Figures: docs/benchmarks.md.
"""

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PRESETS = ("nim2d", "graph", "candy", "building", "grundy", "nimrod")

ONE = r"""
import json, random, sys, time
sys.path.insert(0, %(here)r)
from devtools import Served, call
from nimatron_sim.nimrod import nimrod
preset = %(preset)r
board = "pico-neopixel" if preset == "nimrod" else "pico-grid"
worst = {"new": 0, "press": 0, "poll": 0, "panel": 0}
rng = random.Random(1)
def timed(kind, *a):
    t = time.perf_counter(); out = call(*a); worst[kind] = max(worst[kind], time.perf_counter() - t); return out
with Served(board, {"preset": preset, "think_ms": 300, "show_ms": 200, "first": "visitor"}) as s:
    _, state = call(s.url + "/api/machines", {})
    press = s.url + "/api/machines/%%s/press" %% state["machine"]
    _, state = timed("new", press, {"press": "new"})
    machine = s.machines.get(state["machine"])
    end = time.monotonic() + 120
    while state["state"] != "over" and time.monotonic() < end:
        if state["state"] == "visitor":
            t = time.perf_counter(); nimrod(machine.face.controller); worst["panel"] = max(worst["panel"], time.perf_counter() - t)
            lit = [(r, i) for r, row in enumerate(state["lamps"]) for i, lamp in enumerate(row) if lamp[0] == "lit"]
            if "row0" in state["buttons"]:
                r = rng.choice(sorted(set(r for r, _ in lit)))
                _, state = timed("press", press, {"press": "row%%d" %% r})
            else:
                r, i = rng.choice(lit)
                _, state = timed("press", press, {"press": "key %%d %%d" %% (r, i)})
            _, state = timed("press", press, {"press": "done"})
        else:
            time.sleep(0.05)
            _, state = timed("poll", s.url + "/api/machines/" + state["machine"])
print(json.dumps(worst))
"""


def main(presets):
    print(
        "slowest answers, ms (a fresh process per preset; %s, %d cores)" % (time.strftime("%Y-%m-%d"), os.cpu_count())
    )
    print("%-10s %8s %8s %8s %8s" % ("preset", "NEW", "press", "poll", "panel"))
    for preset in presets:
        done = subprocess.run(
            [sys.executable, "-c", ONE % {"here": HERE, "preset": preset}], capture_output=True, text=True, timeout=600
        )
        try:
            worst = json.loads(done.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            print("%-10s failed: %s" % (preset, (done.stderr.strip().splitlines() or ["?"])[-1]))
            continue
        print(
            "%-10s %8.1f %8.1f %8.1f %8.1f"
            % (preset, worst["new"] * 1000, worst["press"] * 1000, worst["poll"] * 1000, worst["panel"] * 1000)
        )


if __name__ == "__main__":
    main(sys.argv[1:] or PRESETS)
