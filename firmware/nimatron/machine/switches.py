# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Stuck and dead buttons, and the operator's chord, from debounced edges.

Pinball practice: a switch closed at power-up (its press is among the
edges of the very first update: keypad scanners report a closed key at
their first scan, the gpiozero driver reports it when it opens), or held longer than
``stuck_ms``, is *stuck*: ignored until it is released, reported (a
``stuck`` event, the ``stuck_buttons`` audit (written at once), two short blinks of the MACHINE WINS
status lamp every 2 s) while the other buttons play on. A row button not
pressed in ``check_switch_games`` finished games is flagged ("Check
Switch"): it may be dead. DONE and NEW GAME held together for ``CHORD_MS``
open the operator menu (``nimatron.machine.service``); held on to ``stuck_ms`` they
are a jam, not an operator, and the menu closes again.

The controller feeds every debounced edge through ``Switches.edge`` (False: the
game must not see it) and calls ``Switches.update`` once per tick.
"""

from .. import const

CHORD = ("done", "new")
# what the operator menu loads as it opens, in order (``machine.service`` and what it
# imports): over the link, a pass each
MENU_LOADS = ("config.values", "config.settings", "machine.menu_lamps", "machine.service")
CHORD_MS = 5000  # DONE + NEW held this long: the operator menu
_SAVE_MS = const(60000)  # a stuck button is written at once, at most once a minute (a flapping
# switch must not become a stream of flash writes)


class Switches:
    def __init__(self, controller):
        self.c = controller
        self.booting = False  # during the first update: power-up
        self._powered = False
        self.down = {}  # role -> when it was pressed (debounced)
        self.stuck = {}  # role -> "power-up" or "held"
        self.chord_at = None  # when DONE and NEW were both down
        self.idle = {}  # role -> finished games since it was last pressed
        self.pressed = {}  # role -> pressed since the last finished game
        self.saved_at = None  # when a stuck button was last written at once

    def update(self, now):
        """Once per tick, before the edges: stuck timers and the chord."""
        self.booting = not self._powered
        self._powered = True
        if self.down:  # sorted() makes a list: none on an idle pass (garbage delays a press's lamp)
            limit = self.c.settings["stuck_ms"]
            for role in sorted(self.down):
                if role not in self.stuck and now - self.down[role] >= limit:
                    self._stuck(role, "held", now)
        if self.chord_at is not None and now - self.chord_at >= CHORD_MS:
            self.chord_at = None  # one menu per chord: let go and press again
            if self.c.menu is None:
                self.c.service(True, now, "buttons")

    def edge(self, role, pressed, now):
        """A debounced edge; False when the game must not see it."""
        if not pressed:
            self.down.pop(role, None)
            if role in CHORD:
                self.chord_at = None
            if role in self.stuck:
                del self.stuck[role]
                self.c.redraw()  # its double blink stops
                self.c._emit({"event": "stuck", "button": role, "released": True})
                return False
            return True
        self.down[role] = now
        if self.booting:
            self._stuck(role, "power-up", now)
            return False
        self.pressed[role] = True
        self.idle[role] = 0  # it works: no longer a check-switch suspect
        if role in CHORD and self.c.menu is None:
            other = CHORD[1] if role == CHORD[0] else CHORD[0]
            if other in self.down and other not in self.stuck:
                self.chord_at = now
                return False  # the second half of a chord is not a visitor's press
        return True

    def _stuck(self, role, why, now):
        self.stuck[role] = why
        self.c.redraw()  # a double blink of MACHINE WINS
        if role in CHORD:
            self.chord_at = None
        c = self.c
        c.audits.count("stuck_buttons")
        if self.saved_at is None or now - self.saved_at >= _SAVE_MS:  # at once: a machine jammed at
            self.saved_at = now  # power-up may never finish a game
            c.audits.save()
        c._emit({"event": "stuck", "button": role, "why": why})
        menu = c.menu
        if menu is not None and menu.chord and role in CHORD:
            c.service(False, now, "stuck")  # a jam opened the menu, not an operator

    # -- Check Switch -------------------------------------------------------
    def watched(self):
        """The buttons games need: DONE, and each row's that has lamps in a start."""
        c = self.c
        out = []
        if c.input_model == "rows":
            for r in range(len(c.layout)):
                for start in c.settings["starts"]:
                    if r < len(start) and start[r]:
                        out.append("row%d" % r)
                        break
        out.append("done")
        return out

    def finished(self):
        """A game finished: one more game for each button that sat unpressed."""
        limit = self.c.settings["check_switch_games"]
        for role in self.watched():
            if self.pressed.get(role):
                continue
            n = self.idle.get(role, 0) + 1
            self.idle[role] = n
            if limit and n == limit:
                self.c._emit({"event": "check_switch", "button": role, "games": n})
        for role in self.pressed:  # kept, not replaced: the next game's first press of a role grows no dict
            self.pressed[role] = False  # ... before its lamp

    def check_switch(self):
        """Buttons not pressed in the last ``check_switch_games`` games, in order."""
        limit = self.c.settings["check_switch_games"]
        if not limit:
            return []
        return [role for role in self.watched() if self.idle.get(role, 0) >= limit]

    def stuck_now(self):
        return sorted(self.stuck)

    def command(self, link, args, now):
        """``SERVICE [ON|OFF]`` over the host link (ON/OFF need the operator; the link checked the words)."""
        if args:
            link.operator("SERVICE")
            on = args[0].upper() == "ON"
            before = None
            if on and self.c.menu is None and link.stepping:
                # the menu's modules a pass each (``HostLink.load``): loaded in its
                # opening pass they were several passes' work in one tick; one import
                # a pass here (each a name looked up: cheap on a stock MacroPad)
                if link.step is None:
                    from ..passes import loaded

                    link.step = [None, None, None, None, None, None, loaded("config")]
                before = link.step[6]
                for name in MENU_LOADS:
                    link.load(name)
            self.c.service(on, now, "link", before)
        return self.report({})

    def report(self, out):
        """For the host link's STATE and SERVICE: the menu's screen, stuck buttons
        (at most 8 names: a jammed key matrix must not overflow a reply), Check Switch."""
        menu = self.c.menu
        stuck = self.stuck_now()
        if len(stuck) > 8:
            stuck = stuck[:8] + ["+%d more" % (len(stuck) - 8)]
        out["service"] = menu.screen if menu else None
        out["stuck"] = stuck
        out["check_switch"] = self.check_switch()
        return out
