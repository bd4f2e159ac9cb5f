# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The operator menu under MicroPython, driven by presses: opened over the
# link, adjustments, KEY (preset or rules), DONE, polled until the list of
# choices is worked out, then the menu left; REPS times. Each poll's time is
# the least it took over the repetitions (a shared PC's preemption filtered
# out). Prints the longest such poll (us) and where it fell, the polls the
# list took, its length, the least heap free; then VALUE (or the next
# choice) saved through the menu, the same way; the most firmware modules a
# poll loaded, after each.
# "live": a collection after each poll (times then include none), so least free is what
# the polls kept, not their garbage.
# MICROPYPATH=<compiled tree> micropython -X heapsize=N bench_menu.py BOARD PRESET KEY REPS [VALUE] [live]
import gc
import sys
import time

from fake_io import FakeIO
from nimatron.machine.app import make_controller
from nimatron.machine.service import ITEMS

board, preset, key, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
live = "live" in sys.argv[5:]  # a collection after each poll: least free is what the polls kept
target = ([a for a in sys.argv[5:] if a != "live"] or [None])[0]
c = make_controller(board, {"preset": preset}, FakeIO())
c.save = lambda settings: True
now = 0
least = [gc.mem_free()]
most = [0]  # the most firmware modules a poll loaded (a rule set with the game modules it imports: one)


def loaded():
    return [name for name in sys.modules if name.startswith("nimatron")]


def poll(times, where):
    global now
    now += 10
    work = getattr(c.menu, "work", None) if c.menu else None
    if work is not None and len(work) == 7 and work[1] is not None:  # (the value being checked, its phase)
        where.append((work[1][work[2]] if work[2] < len(work[1]) else None, work[3]))
    else:
        where.append(None)
    before = loaded()
    t = time.ticks_us()
    c.update(now)
    times.append(time.ticks_diff(time.ticks_us(), t))
    new = [name for name in loaded() if name not in before]
    games = [name for name in new if name.startswith("nimatron.games.")]
    steps = len(new) - len(games) + (1 if games else 0)
    if steps > most[0]:
        most[0] = steps
    if live:
        gc.collect()
    free = gc.mem_free()
    if free < least[0]:
        least[0] = free


def tap(role, times, where):
    for pressed in (True, False):
        c.io.queue.append((role, pressed))
        for _ in range(6):
            poll(times, where)


def to_value_list(times, where):
    c.service(True, now, "link")
    menu = c.menu
    while ITEMS[menu.item] != "adjust":
        tap("row0", times, where)
    tap("done", times, where)
    while menu.adjustable()[menu.index] != key:
        tap("row0", times, where)
    gc.collect()
    del times[:]
    del where[:]
    least[0] = gc.mem_free()
    tap("done", times, where)  # the list opened...
    while getattr(menu, "work", None) is not None and len(times) < 5000:  # ... worked out, a value a pass
        poll(times, where)
    return menu


def longest(runs):
    best = runs[0][0]
    for times, _ in runs[1:]:
        best = [min(a, b) for a, b in zip(best, times)]
    order = sorted(range(len(best)), key=lambda k: -best[k])
    print("longest polls (us, value and phase):", [(best[k], runs[0][1][k]) for k in order[:4]])
    k = order[0]
    return best[k], runs[0][1][k], len(best)


for _ in range(10):
    poll([], [])
runs = []
for _ in range(reps):
    times, where = [], []
    menu = to_value_list(times, where)
    runs.append((times, where))
    choices = list(menu.choices)
    if len(runs) == 1:
        first = least[0]  # the first time: later ones keep the bench's lists of times too
    if len(runs) < reps:
        c.service(False, now, "bench")
        gc.collect()
        print("free after the menu left", gc.mem_free())
worst, at, polls = longest(runs)
print(
    "open %s list: longest poll %d us at %s, %d polls, %d choices, least free %d"
    % (key, worst, at, polls, len(choices), first)
)
print("choices", choices)
print("most modules loaded in a poll", most[0])
runs = []
times, where = [], []
tap("row0", times, where)
while target and menu.choices[menu.index] != target:
    tap("row0", times, where)
value = menu.choices[menu.index]
gc.collect()
least[0] = gc.mem_free()
del times[:]
tap("done", times, where)
while menu.screen != "adjust" and len(times) < 100:
    poll(times, where)
print(
    "save %s %s: longest poll %d us, %d polls, least free %d, now %s"
    % (key, value, max(times), len(times), least[0], c.settings[key])
)
assert c.settings[key] == value
print("most modules loaded in a poll", most[0])
print("ok")
