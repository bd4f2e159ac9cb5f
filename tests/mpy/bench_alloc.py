# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# Heap the controller's main loop allocates per pass, in the states a machine
# sits in for seconds or minutes: attract mode, a game waiting for the
# visitor, and the blinks (the machine thinking and showing its move, a
# selection, the teaching hint, "still playing?", NIM CHAMP, MACHINE WINS, an
# alarm). No presses during the measured passes: the steady state.
# Garbage is what brings collections, and a collection in the pass that
# sees a press delays that press's lamp (issue 27).
# usage: MICROPYPATH=<compiled tree with fake_io> micropython -X heapsize=1M -m bench_alloc
# prints per state "STATE BYTES PASSES SHOWN": gc.mem_alloc() grown over PASSES
# passes (the collector off while they run) and the frames shown meanwhile
# (blinks really turned over); CPython has no gc.mem_alloc: it says so.
import gc

from controller_kit import TICK, Rig

PASSES = 200  # 2 s of 10 ms ticks: every blink of a state turns over at least twice


class Run(Rig):
    """A controller on a board's layout with a fake driver and a virtual clock."""

    def lit_lamp(self):
        lit = self.c.panel.lit
        for r in range(len(lit)):
            for i in range(len(lit[r])):
                if lit[r][i]:
                    return r, i

    def measure(self):
        """(bytes allocated over PASSES passes, frames shown meanwhile), after
        a few passes' warm-up."""
        self.run(5 * TICK)
        c = self.c
        t = self.t
        shows = self.io.shows
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        for _ in range(PASSES):
            t += TICK
            c.update(t)
        used = gc.mem_alloc() - before
        gc.enable()
        self.t = t
        return used, self.io.shows - shows


def attract():
    return Run()


def alarm():
    run = Run()
    run.c.alarm = "fault"
    return run


def waiting():
    run = Run(first="visitor")
    run.press("new")
    run.until("visitor")
    return run


def thinking():
    run = Run(first="machine", think_ms=60000)
    run.press("new")
    while run.c.machine_after is None:  # the search done: only the blink goes on
        run.run(TICK)
    return run


def showing():
    run = Run(first="machine", think_ms=0, show_ms=60000)
    run.press("new")
    run.until("showing")
    return run


def selection():
    run = Run("pico-grid", first="visitor")
    run.press("new")
    run.until("visitor")
    r, i = run.lit_lamp()
    run.press("key %d %d" % (r, i))
    assert run.c.selected, "no lamp selected"
    return run


def hint():
    run = Run(first="visitor", difficulty="teach", hint_ms=1000, starts=[[3, 4, 5]])
    run.press("new")
    run.until("visitor")
    run.run(1500)
    assert run.c.hint, "no hint shown"
    return run


def still_playing():
    run = Run(first="visitor", walkaway_ms=60000, still_ms=20000)
    run.press("new")
    run.until("visitor")
    run.run(45000)
    assert run.c.asking is not None, "not asking"
    return run


def over(misere):
    """One lamp left, the visitor takes it: NIM CHAMP (normal) or MACHINE WINS (misère)."""
    run = Run(first="visitor", preset="nim", starts=[[1]], misere=misere, over_ms=60000)
    run.press("new")
    run.until("visitor")
    run.press("row%d" % run.lit_lamp()[0])
    run.until("over")
    return run


def champ():
    return over(False)


def machine_wins():
    return over(True)


STATES = (attract, alarm, waiting, thinking, showing, selection, hint, still_playing, champ, machine_wins)


def main():
    if not hasattr(gc, "mem_alloc"):
        print("no gc.mem_alloc: run this under MicroPython")
        return
    for make in STATES:
        run = make()
        gc.collect()
        try:
            used, shown = run.measure()
        except MemoryError:  # the collector was off: more garbage than the heap holds
            gc.enable()
            print(make.__name__, "heap-full", PASSES, "-")
            continue
        print(make.__name__, used, PASSES, shown)


main()
