# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Buttons that stand for the core's presses on boards with few of them.

The controller knows ``key R I``, ``done`` and ``new``. A board with its
buttons built in has fewer: the Circuit Playground has two buttons and a
slide switch for ten lamps, the MacroPad one encoder switch for DONE and
NEW. ``Presses`` turns the raw edges of the board's own buttons into the
core's presses, as the pin map says (``boards``):

- ``presses``: a chord (``"a+b": "done"``, both down together) or a switch
  (``"slide": "done"``, each flip one press) standing for a core press;
- ``holds``: a button or chord held ``HOLD_MS`` gives another press
  (``{"done": "new"}``: a long press of DONE is NEW GAME); released sooner,
  it is its own press. Where a chord's short press is DONE and its long one
  NEW GAME (the Circuit Playground's A+B), the long press holds both down,
  as the operator's chord does on boards with those two buttons: kept
  ``switches.CHORD_MS`` longer (6.5 s in all), it opens the operator menu.
  A single button held (the MacroPad's encoder switch) never does: a child
  holds one button that long, rarely two;
- ``cursor``: ``{"move": "a", "select": "b"}`` (``cursor.py``): *move* steps a cursor to the
  next lamp in play, *select* presses the key under it. The cursor shows
  only on the visitor's turn, by blinking slowly (``CURSOR_MS`` on, the
  same off: under one flash a second) in a dim, cooler light than a lamp,
  so neither colour nor brightness alone carries it. Out of the visitor's
  turn either button is a plain press (a new game from attract mode).

Buttons that are part of a chord, a hold or the cursor act when released,
so a chord never also moves or selects. Pure logic with the time passed in:
any future board with few buttons reuses it, and it runs unchanged on
MicroPython. The driver calls ``feed`` with raw edges, ``watch`` every loop
(it reads the controller's documented attributes: ``state``, ``panel``) and
``update`` for the core's edges.
"""

from ..machine.debounce import Debouncer, edge

HOLD_MS = 1500
CURSOR_COLOUR = (30, 60, 110)  # dim and cool beside the lamps' warm white


class Presses:
    hold_ms = HOLD_MS

    def __init__(self, spec, debounce_ms=30):
        self.presses = dict(spec.get("presses", {}))
        self.holds = dict(spec.get("holds", {}))
        self.switches = list(spec.get("switches", {}))
        cursor = spec.get("cursor") or {}
        self.move = cursor.get("move")
        self.select = cursor.get("select")
        self.chords = []  # type: list[tuple[str, list[str]]]  # (name, parts)
        for name in sorted(list(self.presses) + list(self.holds)):
            if "+" in name and name not in [c[0] for c in self.chords]:
                self.chords.append((name, name.split("+")))
        self.deferred = []  # buttons that act on release
        for _name, parts in self.chords:
            self.deferred.extend(parts)
        self.deferred.extend(list(self.holds) + [self.move, self.select])
        self.debouncer = Debouncer(debounce_ms)
        self.down = {}  # button -> when pressed
        self.spent = []  # buttons whose release does nothing (used by a chord or a hold)
        self.chord = None  # [name, since, fired] while a chord is held
        self.held = None  # [button, fired] while a hold-button is down (``_hold_at``, reused)
        self._hold_at = [None, False]
        self.out = []
        self._spare = []  # the list the last update returned: emptied and reused (no list a press)
        self._edges = {}  # role -> its two edges, made at its first press (``debounce.edge``)
        self.now = 0
        self.cursor = None  # the cursor's lamp and blink (``cursor.Cursor``): its module only where the pin map has one
        if self.move is not None:
            from .cursor import Cursor

            self.cursor = Cursor(self)

    # -- raw edges in ---------------------------------------------------------
    def feed(self, role, pressed, now):
        self.now = now
        self.debouncer.feed(role, pressed, now)

    def update(self, now):
        """The core's edges since the last call: ``[(role, pressed)]``."""
        self.now = now
        for role, pressed in self.debouncer.update(now):
            if role in self.switches:
                self._press(self.presses.get(role))  # a flip either way
            elif pressed:
                self._down(role, now)
            else:
                self._up(role)
        self._timers(now)
        out = self.out
        if not out:
            return ()  # a quiet pass makes no garbage
        spare = self._spare
        spare.clear()
        self._spare = out
        self.out = spare
        return out

    def _edge(self, role, pressed):
        self.out.append(edge(self._edges, role, pressed))

    def _press(self, role):
        if role:
            self._edge(role, True)
            self._edge(role, False)

    def _down(self, role, now):
        self.down[role] = now
        for name, parts in self.chords:
            if self.chord is None and all(p in self.down for p in parts):
                self.chord = [name, now, False]
                self.held = None
                for p in parts:
                    if p not in self.spent:
                        self.spent.append(p)
                return
        if role not in self.deferred:
            self._edge(role, True)  # a plain key: at once
        elif role in self.holds and self.chord is None:
            held = self.held = self._hold_at  # its list made once: no list a press
            held[0], held[1] = role, False

    def _up(self, role):
        self.down.pop(role, None)
        chord = self.chord
        if chord is not None and role in chord[0].split("+"):
            self.chord = None
            if chord[2]:
                self._hold(chord[0], False)
            else:
                self._press(self.presses.get(chord[0]))
        if role in self.spent:
            self.spent.remove(role)
            return
        held = self.held
        if held is not None and held[0] == role:
            self.held = None
            if held[1]:
                self._hold(role, False)
                return
        cursor = self.cursor
        if cursor is not None and role == self.move:
            cursor.move()
        elif cursor is not None and role == self.select:
            cursor.select()
        elif role in self.deferred:
            self._press(role)
        else:
            self._edge(role, False)

    def _timers(self, now):
        chord = self.chord
        if chord is not None and not chord[2] and chord[0] in self.holds and now - chord[1] >= self.hold_ms:
            chord[2] = True
            self._hold(chord[0], True)
        held = self.held
        if held is not None and not held[1] and now - self.down.get(held[0], now) >= self.hold_ms:
            held[1] = True
            self._hold(held[0], True)

    def _hold(self, name, pressed):
        """A long press of ``name`` begins or ends (NEW GAME with DONE: the chord)."""
        role = self.holds[name]
        self._edge(role, pressed)
        if role == "new" and "+" in name and self.presses.get(name) == "done":
            self._edge("done", pressed)

    # -- the cursor (``cursor.Cursor``; none on the MacroPad) ------------------------
    @property
    def at(self):
        """The cursor's lamp, or None."""
        return None if self.cursor is None else self.cursor.at

    def watch(self, controller, now):
        """Follow the game for the cursor (a board without one, the MacroPad,
        skips it and makes no list of lamps a pass)."""
        self.now = now
        if self.cursor is not None:
            self.cursor.watch(controller, now)

    def shown(self, now):
        """The cursor's lamp if it shows at ``now`` (the on half of its blink), else None."""
        return None if self.cursor is None else self.cursor.shown(now)

    def overlay(self, lamps, now):
        """The lamp states with the cursor drawn in (a new list)."""
        return lamps if self.cursor is None else self.cursor.overlay(lamps, now)
