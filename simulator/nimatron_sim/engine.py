# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The simulator: the unchanged firmware on mocked pins, on a virtual clock.

    sim = Simulator("pico-neopixel", {"preset": "nim"})
    sim.tap("row3"); sim.tap("done"); sim.advance(5000)
    sim.read_lamps()      # read back from the NeoPixel bytes, not the game

``nimatron.machine.app.make_controller`` builds the controller exactly as on a
board; it opens the real driver (``nimatron.drivers``) on the bench's mocked
pins. Time is virtual: ``advance(ms)`` runs the main loop every ``tick_ms``
(and the keypad scanners every 20 ms) without sleeping, so a minute of play
takes milliseconds. Listeners receive controller events and lamp changes,
each stamped with the virtual time ``t``: the headless CLI, a Textual front
end and a serial link all sit on this one class.

``nvm``: the board's non-volatile memory (``flash.FlashNvm``; ``--nvm
FILE``): audits and ``SET`` changes kept there as on a board, started by
``nimatron.machine.startup.Machine`` as code.py starts a board; ``sim.machine.boot``
is the boot event (what survived, who the machine is). ``store``: a
ready ``nimatron.machine.store.Store`` instead (the soak's nvm plus a file).
"""

import heapq
import random

from nimatron.config import boards
from nimatron.machine import app

from .bench import make_bench

# bounce patterns: ms after the edge at which the contact flips again; the
# contact always ends where it was headed (an even count of flips)
BOUNCES = ((1, 2), (1, 3, 4, 6), (2, 3), (1, 2, 3, 5), (1, 4, 5, 7))


class _Unwired:
    """No pins at all: a controller built only to learn whether it can be."""

    def close(self):
        pass


def playable_rules(board, overrides=None):
    """The registered rule sets (``nimatron.games.registry.menu_specs``) a machine
    on ``board`` plays with these other settings, in registry order: what the
    faces' settings offer. Each is built as Apply builds it
    (``make_controller``: the preset's starts, else the largest that fits);
    one refused (PanelError, SettingsError, RulesError...) is left out."""
    from nimatron.games.registry import menu_specs
    from nimatron.games.rules import REGISTRY

    out = []
    for spec in menu_specs(REGISTRY):
        try:
            app.make_controller(board, dict(overrides or {}, rules=spec), io=_Unwired())
        except ValueError:
            continue
        out.append(spec)
    return out


def playable_presets(board):
    """The presets a machine on ``board`` starts with: the pin map's own list,
    else every preset a controller can be built for there (as a start builds it)."""
    from nimatron.config.settings import presets

    spec = boards.board(board)
    if spec.get("presets"):
        return list(spec["presets"])
    out = []
    for name in presets():
        try:
            app.make_controller(board, {"preset": name}, io=_Unwired())
        except ValueError:
            continue
        out.append(name)
    return out


class Simulator:
    tick_ms = 5  # the main loop: controller.update() every 5 virtual ms
    hold_ms = 60  # a press: the button held down this long...
    gap_ms = 40  # ...then up this long before the next action (a hand's pace)

    def __init__(
        self, board, overrides=None, seed=None, *, tick_ms=None, start_ms=0, bounce=False, nvm=None, store=None
    ):
        self.board = board
        self.spec = boards.board(board)
        overrides = dict(overrides or {})
        if seed is not None:
            overrides["seed"] = seed
        self.overrides = overrides
        if tick_ms is not None:
            self.tick_ms = tick_ms
        self.now = start_ms
        self.bounce = bounce
        self.rng = random.Random(overrides.get("seed", 0))
        self.listeners = []  # f(dict) for controller events, "t" added
        self.output_listeners = []  # f(t, lamps, status) when the read-back changes
        self._schedule = []  # (t, n, role, closed): switch changes to come
        self._n = 0
        self._pressed = {}
        self._seen = -1
        self._shown = None
        self._next_update = start_ms
        self.powered = False  # the first tick (power-up) has run
        self.bench = make_bench(self.spec)
        from nimatron.machine.startup import Machine, overrides_source
        from nimatron.machine.store import Store

        self.nvm = nvm
        bench = self.bench

        def make(board, overrides, listener, now_ms, audits):
            return bench.open(
                lambda: app.make_controller(board, overrides, listener=listener, now_ms=now_ms, audits=audits)
            )

        try:
            if store is None and nvm is not None:
                store = Store(nvm=nvm)
            self.machine = Machine(
                board,
                overrides_source(overrides),
                store,
                now_ms=start_ms,
                reset_reason="power_on",
                listener=self._event,
                make=make,
                log=lambda line: None,
                strict=True,
            )
            self.controller = self.machine.controller
        except Exception:
            self.bench.close()
            raise
        sound = getattr(self.controller.io, "sound", None)
        if sound is not None:  # the board's sounds, as events: {"event": "sound", "name": ...}
            sound.on_sound = lambda name: self._event({"event": "sound", "name": name})
        self.bench.layout = list(self.controller.layout)
        self.layout = self.bench.layout
        self.roles = list(self.bench.roles)
        self._roles = set(self.roles)

    # -- buttons -------------------------------------------------------------
    def press(self, role):
        """Close a button's contact now (chattering first, if bounce is on)."""
        self._edge(role, True)

    def release(self, role):
        self._edge(role, False)

    def tap(self, role, hold_ms=None, gap_ms=None):
        """Press, hold, release, pause: one press by a visitor's hand."""
        self.press(role)
        self.advance(self.hold_ms if hold_ms is None else hold_ms)
        self.release(role)
        self.advance(self.gap_ms if gap_ms is None else gap_ms)

    def press_for(self, press):
        """(button, hold ms) that gives the core's ``press`` (``done``,
        ``new``) on this board: the button itself, or a chord or switch
        standing for it, or one held down for it (``hold ms`` then > 0)."""
        if press in self._roles:
            return press, None
        spec = self.spec
        for name, target in sorted(spec.get("presses", {}).items()):
            if target == press and name in self._roles and name not in spec.get("switches", {}):
                return name, None
        for name, target in sorted(spec.get("holds", {}).items()):
            if target == press and name in self._roles:
                from nimatron.drivers.presses import HOLD_MS

                return name, HOLD_MS + 100
        raise KeyError("board %s has no way to press %s" % (self.board, press))

    def tap_for(self, press):
        """One press of the core's ``press`` (``done``, ``new``) the way this board gives it."""
        role, hold = self.press_for(press)
        self.tap(role, hold_ms=hold)

    def chord(self, roles, hold_ms):
        """Press several buttons together, hold them, let go, pause."""
        for role in roles:
            self.press(role)
        self.advance(hold_ms)
        for role in roles:
            self.release(role)
        self.advance(self.gap_ms)

    def hold_at_power_up(self, role):
        """Close a switch before the machine's first tick: stuck at power-up."""
        if self.powered:
            raise RuntimeError("the machine is already running")
        self._check(role)
        self._set(role, True)

    def _check(self, role):
        if role not in self._roles:
            raise KeyError("board %s has no button %r" % (self.board, role))

    def _edge(self, role, closed):
        self._check(role)
        if not self.powered:
            self.advance(0)  # a visitor's press comes after power-up
        self._schedule = [item for item in self._schedule if item[2] != role]
        heapq.heapify(self._schedule)
        self._set(role, closed)
        if self.bounce:
            level = closed
            for dt in self.rng.choice(BOUNCES):
                level = not level
                self._n += 1
                heapq.heappush(self._schedule, (self.now + dt, self._n, role, level))

    def _set(self, role, closed):
        if self._pressed.get(role, False) != closed:
            self._pressed[role] = closed
            self.bench.set_switch(role, closed)

    # -- time ------------------------------------------------------------------
    def advance(self, ms):
        """Run the machine for ``ms`` virtual milliseconds."""
        self.powered = True
        end = self.now + ms
        schedule = self._schedule
        bench = self.bench
        while True:
            t = self._next_update
            if schedule and schedule[0][0] < t:
                t = schedule[0][0]
            scan = bench.next_scan()
            if scan is not None and scan < t:
                t = scan
            if t > end:
                break
            self.now = t
            while schedule and schedule[0][0] <= t:
                _, _, role, closed = heapq.heappop(schedule)
                self._set(role, closed)
            if scan is not None and scan <= t:
                bench.scan(t)
            if t >= self._next_update:
                self._next_update = t + self.tick_ms
                self.machine.keep(t)  # the main loop's own time, and any settings write it owes
                self.controller.update(t)
                if bench.version != self._seen:
                    self._seen = bench.version
                    self._outputs(t)
        self.now = end

    def _outputs(self, t):
        frame = (self.bench.read_lamps(), self.bench.read_status())
        if frame != self._shown:
            self._shown = frame
            for listener in self.output_listeners:
                listener(t, frame[0], frame[1])

    def _event(self, event):
        stamped = {"t": self.now}
        stamped.update(event)
        for listener in self.listeners:
            listener(stamped)

    # -- read-back: from the pins, never from the game --------------------------
    def read_lamps(self):
        """[[0|1, ...], ...]: each lamp lit or dark, as its pin or pixel shows."""
        return self.bench.read_lamps()

    def read_status(self):
        return self.bench.read_status()

    def read_colours(self):
        """(r, g, b) per lamp as sent to the strip (brightness-scaled)."""
        return self.bench.read_colours()

    def close(self):
        controller = getattr(self, "controller", None)
        if controller is not None:
            controller.io.close()
        self.bench.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
