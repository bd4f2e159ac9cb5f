# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The longest main-loop tick, per preset, on the board's own interpreter:
# MicroPython's unix port (cd tests; MICROPYPATH=../firmware:.:mpy micropython mpy/bench_ticks.py) or real CircuitPython
# in the emulated Pico (tools/emu_ticks.sh types "import bench_ticks" into its
# REPL: import bench_ticks; bench_ticks.main()). The real controller on a fake driver plays GAMES games a preset
# against a random visitor pressing the grid's keys, a 10 ms tick; prints per
# preset: the longest update() in ms, the decisions that took more than one
# tick, and the least heap free during the games. "PRESET@BOARD" plays a
# preset on another board's layout (grid boards: the fake driver has no pins).
import gc
import sys
import time

from fake_io import FakeIO
from nimatron.machine.app import make_controller

PRESETS = ("nimatron", "grundy", "nim2d", "graph", "graph/misere", "candy", "candy/misere", "building")
GAMES = 1

try:
    clock = time.monotonic_ns

    def us():
        return clock() // 1000
except AttributeError:  # MicroPython's unix port
    us = time.ticks_us


def play(preset, board="pico-grid", games=GAMES, seed=12345):
    io = FakeIO()
    over = [0]

    def listen(event):
        if event["event"] == "game_over":
            over[0] += 1

    preset, _, on = preset.partition("@")  # "drnim@pico-ring": a preset of another board
    board = on or board
    name, _, misere = preset.partition("/")
    c = make_controller(
        board,
        {
            "preset": name,
            "think_ms": 300,
            "show_ms": 400,
            "over_ms": 1000,
            "first": "alternate",
            "misere": bool(misere),
        },
        io,
        listen,
    )
    gc.collect()
    now = 0
    ticks = 0
    worst = 0
    least = gc.mem_free()
    plan = []
    long_turns = 0
    thinking_ticks = 0
    while over[0] < games and ticks < 200000:
        now += 10
        ticks += 1
        if c.state == "visitor" and not plan and ticks % 7 == 0:
            heaps, ring = c.position()
            moves = []
            for after in c.rules.moves(heaps, ring):
                moves.append(after)
                if len(moves) >= 40:
                    break
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            after = moves[(seed >> 8) % len(moves)]
            out, light = c.panel.lamps_for(after)
            keys = []
            for r, i in out:
                keys.append("key %d %d" % (r, i))
            for r, i in light:  # Building Nim: the stone's place
                keys.append("key %d %d" % (r, i))
            plan = keys + ["done"]
        elif plan and ticks % 7 == 0:
            role = plan.pop(0)
            io.queue.append((role, True))
            io.queue.append((role, False))
        elif c.state == "attract" and ticks % 50 == 0:
            io.queue.append(("new", True))
            io.queue.append(("new", False))
        if c.state == "thinking" and c.machine_after is None:
            thinking_ticks += 1
        elif thinking_ticks:
            long_turns += 1  # still searching after the tick that began the turn
            thinking_ticks = 0
        t0 = us()
        c.update(now)
        dt = us() - t0
        if dt > worst:
            worst = dt
        if ticks % 200 == 0:  # what stays in use (a collection first), outside the timed update
            gc.collect()
            free = gc.mem_free()
            if free < least:
                least = free
    c.io.close()
    return worst, long_turns, least, over[0]


def main(presets=PRESETS):
    impl = sys.implementation.name
    for preset in presets:
        gc.collect()
        try:
            worst, long_turns, least, done = play(preset)
            print(
                "%s %s: longest tick %.1f ms, %d decisions over several ticks, least heap free %d KB, %d game(s)"
                % (impl, preset, worst / 1000, long_turns, least // 1024, done)
            )
        except Exception as e:  # say which preset, go on with the next
            print("%s %s: %r" % (impl, preset, e))


if __name__ == "__main__":
    main(sys.argv[1:] or PRESETS)


# The heaviest decisions a board accepts, asked as the machine's turn asks
# them: ``units`` of work a call until the answer (``games.budget``). Prints
# per position the longest call in ms, the calls, and the whole search.
HEAVY = (
    ("graph:2", ((1, 1, 1, 1), (1, 1, 1, 1), (1, 1, 1, 1)), True),  # 12 lamps searched whole: a board's most
    ("graph:2", ((1, 1, 1, 1), (1, 1, 1, 1)), False),  # a group of 8, a board's largest
    ("candy", (5, 6, 7, 7), True),
    ("candy", (7, 7, 7, 7), False),
)


def engine(units=None):
    from nimatron.games import budget, candy, graph, nim2d, strategy

    if units is None:
        from nimatron.machine.turns import SEARCH_UNITS as units
    impl = sys.implementation.name
    for spec, rows, misere in HEAVY:
        position = [list(r) if isinstance(r, tuple) else r for r in rows]
        candy.forget()  # its table emptied in place
        nim2d._memo.clear()
        graph._table[0] = None
        gc.collect()
        calls = 0
        longest = 0
        total = 0
        while True:
            calls += 1
            budget.start(units)
            t0 = us()
            try:
                strategy.solve(spec, position, misere)
                done = True
            except budget.Later:
                done = False
            except Exception as e:  # say so, and go on with the next position
                print("%s %s %s: %r" % (impl, spec, rows, e))
                break
            finally:
                budget.stop()
            dt = us() - t0
            total += dt
            if dt > longest:
                longest = dt
            if done:
                break
        print(
            "%s %s %s%s: %d units a call, longest call %.1f ms, %d calls, %.0f ms in all"
            % (impl, spec, rows, " misere" if misere else "", units, longest / 1000, calls, total / 1000)
        )
