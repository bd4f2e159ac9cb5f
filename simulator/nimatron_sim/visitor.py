# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Robot visitors: they read the lamps, choose a move and press buttons.

A robot sees what a visitor sees: the lamps (read back from the pins) and
whose turn it is (the game events, as the status lamps tell a person). It
never looks inside the controller, so a robot's game exercises the whole
chain: pins, driver, controller, engine and back.

    sim = Simulator("pico-neopixel", {"think_ms": 0, "show_ms": 0})
    robot = Visitor(sim, skill="perfect", seed=1)
    result = robot.play_game()     # {"winner": "machine", "moves": [...], ...}

``skill``: ``random`` (any legal move) or ``perfect`` (the engine's winning
move when one exists, else any legal move).
"""

import random

from nimatron.games import strategy
from nimatron.games.rules import parse_rules
from nimatron.panels.circle import circle_cells, lit_runs


class Visitor:
    def __init__(self, sim, skill="random", seed=0, hold_ms=None, gap_ms=None):
        if skill not in ("random", "perfect"):
            raise ValueError("skill must be random or perfect")
        self.sim = sim
        self.skill = skill
        self.rng = random.Random(seed)
        self.hold_ms = hold_ms
        self.gap_ms = gap_ms
        self.turn = None
        self.winner = None
        self.moves = []  # move events of the game in play
        self.game = None  # its new_game event
        self.ring = False
        self.counter = None  # a binary counter's lamps (nimatron.panels.counter), when the preset shows one
        sim.listeners.append(self._event)

    def _event(self, event):
        kind = event["event"]
        if kind == "new_game":
            self.game = event
            self.rules = parse_rules(event["rules"])
            self.misere = event["misere"]
            self.start = list(event["position"])
            self.ring = event["ring"]
            self.counter = None
            if self.sim.controller.settings.get("counter"):  # the preset's documented lamps
                from nimatron.panels.counter import CounterPanel

                self.counter = CounterPanel(self.rules, self.sim.layout, self.start)
            self.turn = event["first"]
            self.winner = None
            self.moves = []
        elif kind == "move":
            self.moves.append(event)
            self.ring = False
            self.turn = "machine" if event["by"] == "visitor" else "visitor"
        elif kind == "game_over":
            self.turn = None
            self.winner = event["winner"]

    # -- looking at the lamps ----------------------------------------------------
    def position(self):
        """The heaps as the lamps show them (the visitor's own count)."""
        lamps = self.sim.read_lamps()
        if self.counter is not None:  # the count, read in binary: the heap is what is left to say
            count = 0
            for r, i in self.counter.bit_lamps:
                count = count * 2 + (1 if lamps[r][i] else 0)
            return [self.start[0] - count]
        kind = self.rules.panel
        if kind == "ring":
            return [len(run) for run in self._runs(lamps)] if not self.ring else [self.start[0]]
        if kind == "cells":  # the board of cells, from the top-left lamp
            rows, cols = len(self.start), len(self.start[0])
            return [[lamps[r][c] for c in range(cols)] for r in range(rows)]
        if kind == "splits":
            if len(lamps) == 1:  # a ring: each heap an arc
                return [len(run) for run in lit_runs(lamps[0]) if lamps[0][run[0]]]
            return [sum(row) for row in lamps if sum(row)]
        return [sum(lamps[r]) for r in range(len(self.start))]

    def _cells(self):
        """The circle's lamps in order round it, as the board draws them."""
        return circle_cells(self.sim.layout, self.start[0], self.sim.spec["lamps"].get("shape", "grid"))

    def _runs(self, lamps):
        return lit_runs([lamps[r][i] for r, i in self._cells()])

    # -- choosing ------------------------------------------------------------------
    def choose(self, heaps):
        if self.skill == "perfect":
            result = strategy.solve(self.rules, heaps, self.misere, self.ring)
            if result["outcome"] == "win":
                return result["after"]
        moves = list(self.rules.moves(heaps, self.ring))
        return moves[self.rng.randrange(len(moves))]

    def selection(self, heaps, after):
        """The lamps to select (grid boards) for the move ``heaps`` -> ``after``."""
        lamps = self.sim.read_lamps()
        kind = self.rules.panel
        if self.counter is not None:
            return self.counter.choice_lamps[: heaps[0] - after[0]]
        if kind == "ring":
            return self._ring_selection(lamps, after)
        if kind == "cells":
            return [(r, c) for r in range(len(after)) for c in range(len(after[r])) if lamps[r][c] and not after[r][c]]
        if kind == "splits" and len(lamps) == 1:
            return self._arc_selection(lamps[0], after)
        if kind == "splits":
            target = sorted(h for h in after if h)
            for r, row in enumerate(lamps):
                h = sum(row)
                rest = [sum(x) for x in lamps if sum(x)]
                rest.remove(h)
                for a in range(1, (h + 1) // 2):
                    if sorted(rest + [h - a, a]) == target:
                        lit = [i for i in range(len(row)) if row[i]]
                        return [(r, i) for i in lit[h - a :]]
            raise AssertionError("no split of %s gives %s" % (heaps, after))
        out = []
        for r in range(len(heaps)):
            lit = [i for i in range(len(lamps[r])) if lamps[r][i]]
            out.extend((r, i) for i in lit[after[r] :])
        return out

    def _arc_selection(self, row, after):
        """Grundy's game on a ring: the lamps at the far end of one arc."""
        target = sorted(h for h in after if h)
        runs = [run for run in lit_runs(row) if row[run[0]]]
        sizes = [len(run) for run in runs]
        for run in runs:
            h = len(run)
            rest = list(sizes)
            rest.remove(h)
            for a in range(1, (h + 1) // 2):
                if sorted(rest + [h - a, a]) == target:
                    return [(0, i) for i in run[h - a :]]
        raise AssertionError("no split of the arcs %s gives %s" % (sizes, after))

    def _ring_selection(self, lamps, after):
        target = sorted(h for h in after if h)
        n = self.start[0]
        cells = self._cells()
        row = [lamps[r][i] for r, i in cells]
        for run in self._runs(lamps):
            for t in (1, 2, 3):
                starts = range(len(run)) if self.ring else range(len(run) - t + 1)
                for s in starts:
                    take = [run[(s + j) % len(run)] for j in range(t)]
                    if len(set(take)) < t:
                        continue
                    rest = [bool(row[i]) and i not in take for i in range(n)]
                    runs = [len(x) for x in lit_runs(rest)] if any(rest) else []
                    if sorted(runs) == target:
                        return [cells[i] for i in take]
        raise AssertionError("no run of the ring gives %s" % (after,))

    # -- pressing ---------------------------------------------------------------------
    def tap(self, role):
        self.sim.tap(role, self.hold_ms, self.gap_ms)

    def tap_for(self, press):
        """``done`` or ``new``, however this board gives it (a chord, a hold)."""
        role, hold = self.sim.press_for(press)
        self.sim.tap(role, hold if hold is not None else self.hold_ms, self.gap_ms)

    def cursor(self, wait_ms=1500):
        """The lamp the blinking cursor shows (read from the pixels' colours), or None."""
        sim = self.sim
        spec = sim.spec
        from nimatron.drivers.presses import CURSOR_COLOUR

        level = spec.get("brightness", 1.0)
        colour = tuple(int(c * level) for c in CURSOR_COLOUR)
        end = sim.now + wait_ms
        while True:
            for r, row in enumerate(sim.read_colours()):
                for i, rgb in enumerate(row):
                    if tuple(rgb) == colour:
                        return (r, i)
            if sim.now >= end:
                return None
            sim.advance(sim.tick_ms * 4)

    def select(self, lamp):
        """Select a lamp: with its key, or by moving the cursor onto it first."""
        cursor = self.sim.spec.get("cursor")
        if not cursor:
            self.tap("key %d %d" % lamp)
            return
        for _ in range(sum(self.sim.layout) + 1):
            if self.cursor() == tuple(lamp):
                self.tap(cursor["select"])
                return
            self.tap(cursor["move"])
        raise AssertionError("the cursor never reached lamp %s" % (lamp,))

    def move(self):
        """Make one move on the visitor's turn; returns (before, after)."""
        heaps = self.position()
        after = self.choose(heaps)
        grew = [i for i in range(len(heaps)) if after[i] > heaps[i]] if self.rules.ordered else []
        if grew:  # Building Nim: one press on a heap's row places a stone, no DONE
            if self.sim.spec["input"] == "rows":
                self.tap("row%d" % grew[0])
            else:
                self.select((grew[0], 0))
        elif self.sim.spec["input"] == "rows":
            r = [i for i in range(len(heaps)) if heaps[i] != after[i]][0]
            for _ in range(heaps[r] - after[r]):
                self.tap("row%d" % r)
            if self.turn == "visitor":  # the last lamp commits at once; else DONE
                self.tap_for("done")
        else:
            for lamp in self.selection(heaps, after):
                self.select(lamp)
            self.tap_for("done")
        return heaps, after

    def play_game(self, limit_ms=600000):
        """Press NEW and play one game to the end; returns a summary dict."""
        sim = self.sim
        self.turn = None
        self.tap_for("new")
        end = sim.now + limit_ms
        while self.winner is None and sim.now < end:
            if self.turn == "visitor":
                self.move()
            else:
                sim.advance(sim.tick_ms)
        return {"winner": self.winner, "start": self.start, "moves": list(self.moves), "game": self.game}
