# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The operator menu on the machine's own buttons, pinball style.

Opened by DONE + NEW GAME held together for 5 s (``nimatron.machine.switches``) or
``SERVICE ON`` over the host link; the game in play is abandoned and the
lamps show the menu. The first row button (or a key of the top row) steps
forward, any other row button or key steps back, DONE opens or confirms,
NEW goes back (from the top: leaves). Untouched for a minute it leaves by
itself (except during burn-in) and the machine returns to attract.

Screens (``ITEMS``; the top menu shows item k as a bar of k lamps):
lamp test (every lamp in each colour, then one lamp at a time), button test
(each press shows which; NEW held 1 s, or pressed twice, goes back), audits (which counter,
then its value in binary), adjustments (which setting, then its value's
place in the list of choices; DONE saves it through the one checking path:
``settings.changed`` -> ``Controller.apply_settings`` -> the store), check
switch, burn-in (the lamp tests in a loop, for hours), clear audits and
factory reset (each asks: a row button toggles NO/YES, DONE confirms).

Status lamps in the menu: CHAMP lit throughout; MACHINE lit while a choice
(item, counter, setting) is shown; YOUR TURN lit while a value is edited;
MACHINE WINS blinking while a YES/NO question waits. Every step is also a
``service`` event for the host link. No lamp flashes faster than 2 a second.
"""

import sys

from ..config.boards import STATUS
from ..config.settings import DIFFICULTIES, FIRST, changed, preset_names
from . import menu_lamps
from .. import forget
from .menu_lamps import COLOURS, cycle_ms, lamp_count  # noqa: F401 - COLOURS: the lamp test's, for the tests

ITEMS = ("lamp_test", "button_test", "audits", "adjust", "check_switch", "burn_in",
         "clear_audits", "factory_reset")
IDLE_MS = 60000       # untouched this long: the menu leaves itself
BACK_HOLD_MS = 1000   # button test: NEW held this long goes back...
TWICE_MS = 2000       # ... or pressed twice within this
AUDITS = ("games", "finished", "visitor_wins", "machine_wins", "abandoned", "stuck_buttons")
CHOICES = {
    "misere": (False, True),
    "difficulty": DIFFICULTIES,
    "first": FIRST,
    "walkaway_ms": (30000, 60000, 120000, 300000),
    "over_ms": (5000, 15000, 30000, 60000),
    "still_ms": (0, 5000, 10000, 20000),
    "stuck_ms": (10000, 20000, 30000, 60000),
    "check_switch_games": (0, 10, 30, 100),
    "brightness": (0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0),
}
ADJUST = ("preset", "rules", "misere", "difficulty", "first", "walkaway_ms", "over_ms", "still_ms",
          "stuck_ms", "check_switch_games", "brightness")


class Menu:
    def __init__(self, controller, now, by):
        self.c = controller
        self.chord = by == "buttons"  # its two buttons are still held from the chord
        self.down = {}  # buttons pressed since the menu opened, still down
        self.touched = now
        self.item = 0
        self.cycles = 0
        self._open("menu", now)

    # -- what the operator pressed --------------------------------------------
    def edge(self, role, pressed, now):
        """A debounced edge (releases matter to the button test only)."""
        self.touched = now
        if not pressed:
            self.down.pop(role, None)
        elif role == "done" and "new" in self.down:
            return  # the chord's half: a one-button board's long press holds DONE under NEW
        else:
            self.down[role] = now
        if self.screen == "button_test":
            self._emit({"event": "switch", "button": role, "pressed": pressed})
            if not pressed:
                self.held.pop(role, None)
            elif role == "new" and self.last == "new" and now - self.last_at < TWICE_MS:
                self._open("menu", now)  # NEW twice: back (boards whose NEW is a long press)
            else:
                self.held[role] = now
                self.last = role
                self.last_at = now
            return
        if not pressed:
            if role in ("done", "new"):
                self.chord = False
            return
        if role == "new":
            self.back(now)
        elif role == "done":
            self.select(now)
        else:
            self.step(_direction(role), now)

    def tap(self, role, now):
        """A press and its release at once (``PLAY PRESS`` over the link)."""
        self.edge(role, True, now)
        if self.c.menu is self:
            self.edge(role, False, now)

    def step(self, d, now):
        screen = self.screen
        if screen == "menu":
            self.item = (self.item + d) % len(ITEMS)
            self._emit({"event": "service", "item": ITEMS[self.item]})
        elif screen == "lamp_test":
            self.select(now)
        elif screen == "audits":
            self.index = (self.index + d) % len(AUDITS)
            self.since = now
            self._show_counter()
        elif screen == "adjust":
            keys = self.adjustable()
            self.index = (self.index + d) % len(keys)
            key = keys[self.index]
            self._emit({"event": "service", "screen": "adjust", "key": key, "value": self.c.settings[key]})
        elif screen == "adjust_value":
            self.index = (self.index + d) % len(self.choices)
            self._emit({"event": "service", "screen": "adjust", "key": self.key,
                        "value": self.choices[self.index], "saved": False})
        elif screen == "confirm":
            self.yes = not self.yes
            self._emit({"event": "service", "screen": self.action, "answer": "yes" if self.yes else "no"})

    def select(self, now):
        screen = self.screen
        if screen == "menu":
            item = ITEMS[self.item]
            if item in ("clear_audits", "factory_reset"):
                self._open("confirm", now)
                self.action = item
                self._emit({"event": "service", "screen": item, "answer": "no"})
            else:
                self._open(item, now)
                self._emit({"event": "service", "screen": item})
                if item == "audits":
                    self._show_counter()
                elif item == "check_switch":
                    self._emit({"event": "check_switch", "buttons": self.c.switches.check_switch(),
                                "stuck": self.c.switches.stuck_now()})
        elif screen == "lamp_test":
            self.one_by_one = not self.one_by_one
            self.since = now
        elif screen == "adjust":
            self.key = self.adjustable()[self.index]
            self.choices = self._choices(self.key)
            self.index = self.choices.index(self.c.settings[self.key])
            self._open("adjust_value", now, keep=True)
        elif screen == "adjust_value":
            self._save(now)
        elif screen == "confirm":
            if self.yes:
                self._do(self.action, now)
            self._open("menu", now)

    def back(self, now):
        screen = self.screen
        if screen == "menu":
            self.c.service(False, now, "back")
        elif screen == "adjust_value":
            self.index = self.adjustable().index(self.key)
            self._open("adjust", now, keep=True)
        else:
            self._open("menu", now)

    def update(self, now):
        """Once per tick: the button test's way out, burn-in, and the idle exit."""
        screen = self.screen
        if screen == "button_test":
            since = self.held.get("new")
            if since is not None and now - since >= BACK_HOLD_MS:
                self._open("menu", now)
            elif now - self.touched >= IDLE_MS:
                self.c.service(False, now, "idle")
        elif screen == "burn_in":
            cycles = (now - self.since) // cycle_ms(self.c.layout)
            if cycles > self.cycles:
                self.cycles = cycles
                self._emit({"event": "burn_in", "cycles": cycles, "lamps": lamp_count(self.c.layout) + len(STATUS)})
        elif now - self.touched >= IDLE_MS:
            self.c.service(False, now, "idle")

    def frame(self, now):
        """(lamps, status) for the screen shown at ``now`` (``menu_lamps``)."""
        return menu_lamps.frame(self, now)

    # -- audits and adjustments -------------------------------------------------------
    def counter(self):
        """The value of the audit counter on show."""
        return self.c.audits.get(AUDITS[self.index], 0)

    def _show_counter(self):
        self._emit({"event": "service", "screen": "audits", "counter": AUDITS[self.index], "value": self.counter()})

    def adjustable(self):
        """The settings this machine has that the menu can change, in menu order."""
        settings = self.c.settings
        return [key for key in ADJUST if key in settings]

    def _choices(self, key):
        """The values of ``key`` this board can play, the current one included."""
        c = self.c
        current = c.settings[key]
        if key == "preset":
            values = preset_names()
        elif key == "rules":
            from ..games.registry import menu_specs

            values = menu_specs()  # every registered rule set; those this board cannot play are left out below
        else:
            values = CHOICES[key]
        loaded = list(sys.modules)
        out = []
        for value in values:
            if value == current or self._fits(key, value):
                out.append(value)
        if current not in out:
            out.insert(0, current)
        # checking each rule set imported its module: on a board, let go of those not in play
        forget([m[9:] for m in sys.modules if m[:15] == "nimatron.games." and m not in loaded])
        return out

    def _fits(self, key, value):
        try:
            self.c.check_settings(changed(self.c.settings, key, value))
            return True
        except Exception:  # refused (ValueError), or a rule set that cannot say: not offered
            return False

    def _save(self, now):
        c = self.c
        key = self.key
        value = self.choices[self.index]
        event = {"event": "adjusted", "key": key, "value": value}
        try:
            new = changed(c.settings, key, value)
            c.apply_settings(new)
        except ValueError as e:  # SettingsError, PanelError: nothing changed
            event["error"] = str(e)
            self._emit(event)
            return
        _saved(event, _save(c, new))
        event["applies"] = "next game" if key in ("preset", "rules", "misere") else "now"
        self._emit(event)
        self.index = self.adjustable().index(key)
        self._open("adjust", now, keep=True)

    def _do(self, action, now):
        c = self.c
        if action == "clear_audits":
            self._emit({"event": "audits_cleared", "saved": c.audits.clear_service()})
            return
        from ..config.settings import KEEP_ON_PRESET, resolve

        keep = {}
        for key in KEEP_ON_PRESET:
            keep[key] = c.settings[key]
        new = resolve(keep, getattr(c, "factory_preset", None))
        applied = True
        try:
            c.apply_settings(new)
        except ValueError:  # the factory game needs another layout: from the next start
            applied = False
        self._emit(_saved({"event": "factory_reset", "preset": new["preset"], "applied": applied},
                          _save(c, new)))

    # -- screens -------------------------------------------------------------------
    def _open(self, screen, now, keep=False):
        self.screen = screen
        self.since = now
        self.cycles = 0
        if not keep:
            self.index = 0
        self.one_by_one = False
        self.held = {}
        self.last = None
        self.last_at = 0
        self.yes = False

    def _emit(self, event):
        self.c._emit(event)


def _direction(role):
    """+1 for the first row's button or a key of the top row, -1 for any other."""
    if role == "row0" or role[:6] == "key 0 ":
        return 1
    return -1


def _save(c, settings):
    """``controller.save(settings)``: True once durable; False with no store, or
    if it failed; else the milliseconds until the (coalesced) write."""
    if c.save is None:
        return False
    try:
        return c.save(settings)
    except Exception:  # a failing store must not stop the menu
        return False


def _saved(event, result):
    """``event`` with ``saved`` (durable now) and ``saving_in_ms`` (durable soon)."""
    event["saved"] = result is True
    if result is not True and result:
        event["saving_in_ms"] = int(result)
    return event
