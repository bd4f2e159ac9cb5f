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

from .. import const
from ..config import STATUS
from ..passes import busy, collect_next, load
from .menu_lamps import COLOURS, cycle_ms, frame, lamp_count  # noqa: F401 - COLOURS: the lamp test's, for the tests

ITEMS = ("lamp_test", "button_test", "audits", "adjust", "check_switch", "burn_in", "clear_audits", "factory_reset")
_IDLE_MS = const(60000)  # untouched this long: the menu leaves itself
_BACK_HOLD_MS = const(1000)  # button test: NEW held this long goes back...
_TWICE_MS = const(2000)  # ... or pressed twice within this
AUDITS = ("games", "finished", "visitor_wins", "machine_wins", "abandoned", "stuck_buttons")
ADJUST = (
    "preset",
    "rules",
    "misere",
    "difficulty",
    "first",
    "walkaway_ms",
    "over_ms",
    "still_ms",
    "stuck_ms",
    "check_switch_games",
    "brightness",
)


class Menu:
    def __init__(self, controller, now, by):
        self.c = controller
        self.chord = by == "buttons"  # its two buttons are still held from the chord
        self.down = {}  # buttons pressed since the menu opened, still down
        self.touched = now
        self.item = 0
        self.cycles = 0
        self.work = None  # the choices' checks, or a save, under way: a step a pass
        self.saving = False
        self.unchecked = False  # the values shown are the deploy's (``adjust.deployed``): one is checked when chosen
        self.before = ()  # the settings' modules resident when it opened (``Controller.service``)
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
            elif role == "new" and self.last == "new" and now - self.last_at < _TWICE_MS:
                self._open("menu", now)  # NEW twice: back (boards whose NEW is a long press)
            else:
                self.held[role] = now
                self.last = role  # type: str | None  # (the fields a screen opens with: _open)
                self.last_at = now  # type: int
            return
        if not pressed:
            if role in ("done", "new"):
                self.chord = False
            return
        if self.saving or (self.unchecked and self.work is not None):
            return  # a save under way, or the value chosen being checked: its passes finish it
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
            self.index = (self.index + d) % len(AUDITS)  # type: int
            self.since = now
            self._show_counter()
        elif screen in ("adjust", "adjust_value"):
            _adjust().step(self, d)
        elif screen == "confirm":
            self.yes = not self.yes  # type: bool
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
                    self._emit(
                        {
                            "event": "check_switch",
                            "buttons": self.c.switches.check_switch(),
                            "stuck": self.c.switches.stuck_now(),
                        }
                    )
        elif screen == "lamp_test":
            self.one_by_one = not self.one_by_one  # type: bool
            self.since = now
        elif screen in ("adjust", "adjust_value"):
            _adjust().select(self, now)
        elif screen == "confirm":
            if self.yes:
                _adjust().do(self, self.action, now)
            self._open("menu", now)

    def back(self, now):
        screen = self.screen
        if screen == "menu":
            self.c.service(False, now, "back")
        elif screen == "adjust_value":
            _adjust().leave_value(self, now)
        else:
            self._open("menu", now)

    def update(self, now):
        """Once per tick: the button test's way out, burn-in, the idle exit,
        and a step of the choices' checks or of a save."""
        screen = self.screen
        if screen in ("adjust", "adjust_value", "confirm") and self._load_config():
            return  # the adjustments' modules, a pass each, before a press needs them
        if screen == "adjust_value" and self.work is not None:
            if self.saving:
                _adjust().save_step(self, now)
            else:
                from .deployed import check_step

                check_step(self)
        elif screen == "button_test":
            since = self.held.get("new")
            if since is not None and now - since >= _BACK_HOLD_MS:
                self._open("menu", now)
            elif now - self.touched >= _IDLE_MS:
                self.c.service(False, now, "idle")
        elif screen == "burn_in":
            cycles = (now - self.since) // cycle_ms(self.c.layout)
            if cycles > self.cycles:
                self.cycles = cycles
                self._emit({"event": "burn_in", "cycles": cycles, "lamps": lamp_count(self.c.layout) + len(STATUS)})
        elif now - self.touched >= _IDLE_MS:
            self.c.service(False, now, "idle")

    def close(self):
        """The menu closes (``Controller.service``): what a list's checks
        had loaded leaves with it, as leaving the list drops it."""
        if self.work is not None and not self.saving:  # set by ``machine.adjust`` alone: it is loaded
            _adjust()._stop_checks(self)

    def frame(self, now):
        """(lamps, status) for the screen shown at ``now`` (``menu_lamps``)."""
        return frame(self, now)

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

    # -- screens -------------------------------------------------------------------
    def _open(self, screen, now, keep=False):
        self.screen = screen
        self.since = now
        self.cycles = 0
        if not keep:
            self.index = 0
        self.one_by_one = False
        self.held = {}  # type: dict[str, int]
        self.last = None
        self.last_at = 0
        self.yes = False

    def _emit(self, event):
        self.c._emit(event)

    def _load_config(self):
        """True if this pass loaded ``config.values``, ``config.settings``,
        ``machine.adjust`` or ``machine.deployed``, one a pass: a board's start
        forgot the first two (``app.PLAY_FREE``), and checking a preset loaded
        both, with its rule set, in one pass. The last after a collection in a
        pass of its own: by then the menu's garbage left its load no room (a
        collection inside its pass overran it on pico-grid); the first
        three come at once, as a quick DONE needs them."""
        global _loading
        for name in ("config.values", "config.settings", "machine.adjust"):
            if "nimatron." + name not in sys.modules:
                load(name)
                return True
        if "nimatron.machine.deployed" in sys.modules:
            return False
        if not _loading:
            _loading = True
            collect_next()  # first in the next pass; the load in the pass after it
        elif not busy():
            _loading = False
            load("machine.deployed")
        return True


def _direction(role):
    """+1 for the first row's button or a key of the top row, -1 for any other."""
    if role == "row0" or role[:6] == "key 0 ":
        return 1
    return -1


_loading = False  # ``Menu._load_config`` has asked a collection for ``machine.deployed``


def _adjust():
    """``machine.adjust``, once ``update`` has loaded it (a pass of its own),
    else now (a caller outside the main loop: tests, tools)."""
    from . import adjust

    return adjust
