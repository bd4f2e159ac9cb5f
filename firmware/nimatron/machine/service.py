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

from ..config import STATUS
from ..config.settings import DIFFICULTIES, FIRST, preset_names
from . import menu_lamps
from ..passes import collect, forget_new, loaded
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
        self.work = None     # the choices' checks, or a save, under way: a step a pass
        self.saving = False
        self.before = ()     # the settings' modules resident when it opened (``Controller.service``)
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
        if self.saving:
            return  # a save under way: its passes finish it, then the list of settings shows
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
            key = self.key = self.adjustable()[self.index]
            current = self.c.settings[key]
            self.choices = [current]  # the others offered once checked, one a pass (``update``)
            self.index = 0
            self.work = [self.c.settings, None, 0, 0, None, None, None]  # the values: next pass
            self._open("adjust_value", now, keep=True)
        elif screen == "adjust_value":
            if self.choices[self.index] == self.c.settings[self.key]:
                self._save(now)  # nothing changes: confirmed at once
            else:  # applied, the old rules dropped and saved over the next passes (``_save_step``)
                self.work = [self.c.settings, self.choices[self.index], 0, None, None]
                self.saving = True
        elif screen == "confirm":
            if self.yes:
                self._do(self.action, now)
            self._open("menu", now)

    def back(self, now):
        screen = self.screen
        if screen == "menu":
            self.c.service(False, now, "back")
        elif screen == "adjust_value":
            self._leave_value(now)
        else:
            self._open("menu", now)

    def update(self, now):
        """Once per tick: the button test's way out, burn-in, the idle exit,
        and a step of the choices' checks or of a save."""
        screen = self.screen
        if screen == "adjust_value" and self.work is not None:
            if self.saving:
                self._save_step(now)
            else:
                self._check_step()
        elif screen == "button_test":
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

    def _values(self, key):
        """The values the menu may offer for ``key``, before this board's checks."""
        if key == "preset":
            return preset_names()
        if key == "rules":
            from ..games.registry import menu_specs

            return menu_specs()  # every registered rule set; those this board cannot play are left out
        return CHOICES[key]

    def _choices(self, key):
        """The values of ``key`` this board can play, the current one included,
        worked out at once (tests, tools) by the steps the menu takes a pass
        at a time (``_check_step``)."""
        self.key = key
        self.choices = [self.c.settings[key]]
        self.index = 0
        self.work = [self.c.settings, None, 0, 0, None, None, None]
        while self.work is not None:
            self._check_step()
        return self.choices

    def _check_step(self):
        """One pass's share of working out the choices of ``self.key``: for a
        preset or a rule set, a collection, then the value's settings (its
        rule set's module loaded), then each start's game checked
        (``Controller.check_settings``, ``settings.check_start``), a pass
        each, then the modules it loaded forgotten (collected) in a pass of
        their own. Opening the preset list checked every preset in one
        press's pass: 92-677 ms under MicroPython on a PC.

        ``work``: [settings checked against, values (None: listed in the
        next pass, not the press's), next value, phase (-1: checked, its
        modules to forget), its settings, its rules, the games modules
        resident before]."""
        c = self.c
        work = self.work
        key = self.key
        base, values, at, phase = work[0], work[1], work[2], work[3]
        if values is None:  # the presets' names: the whole presets file parsed (2.5 ms of MicroPython on a PC)
            work[1] = self._values(key)
            return
        if _load_config():
            return
        if base is not c.settings:  # changed under the menu (SET over the link): checked afresh
            self.choices = [c.settings[key]]
            self.index = 0
            work[0], work[2], work[3] = c.settings, 0, 0
            return
        if at == len(values):
            self.work = None
            return
        value = values[at]
        games = key in ("preset", "rules")  # values that load a rule set's module
        if phase == 0 and work[6] is None:
            work[6] = loaded("games")
        if value == base[key]:
            work[2] = at + 1  # the current value: always offered
            return
        if phase < 0:  # the value checked: the modules it loaded leave, in a pass of their own
            work[2], work[3], work[4], work[5] = at + 1, 0, None, None
            forget_new("games", work[6])  # collects
            return
        if phase == 0 and games:
            work[3] = 1
            collect()  # its garbage left behind before the value's module loads
            return
        try:
            if phase < 2:
                new = work[4] = _config().changed(base, key, value, None, False)
                if c.games_change(new):
                    from ..games.rules import parse_rules

                    work[5] = parse_rules(new["rules"])
                    work[3] = 2
                    return
                c.check_settings(new)  # the power budget; the games are those checked before
            else:
                new = work[4]
                k = phase - 2
                _config().check_start(work[5], new["starts"][k])
                one = dict(new)
                one["starts"] = new["starts"][k:k + 1]
                c.check_settings(one)
                if k + 1 < len(new["starts"]):
                    work[3] = phase + 1
                    return
            self._offer(value)
        except Exception:  # refused (ValueError), or a rule set that cannot say: not offered
            pass
        if games:
            work[3] = -1
        else:
            work[2], work[3], work[4], work[5] = at + 1, 0, None, None

    def _offer(self, value):
        """``value`` checked: offered among the choices, in the values' order."""
        shown = self.choices[self.index]
        good = self.choices
        good.append(value)
        self.choices = [v for v in self.work[1] if v in good]
        if shown not in self.choices:
            self.choices.insert(0, shown)  # a current value no longer listed (an old preset)
        self.index = self.choices.index(shown)

    def _leave_value(self, now):
        """Back from a value to the list of settings (checks left unfinished)."""
        work = self.work
        if work is not None and not self.saving and work[6] is not None:
            forget_new("games", work[6])  # collects
        self.work = None
        self.saving = False
        self.index = self.adjustable().index(self.key)
        self._open("adjust", now, keep=True)

    def _save(self, now):
        """DONE on a value: saved at once (``_save_step`` until done)."""
        self.work = [self.c.settings, self.choices[self.index], 0, None, None]
        self.saving = True
        while self.saving:
            self._save_step(now)

    def _save_step(self, now):
        """One pass's share of saving the value chosen, as a SET over the link
        does it (``link.setting``, the same controller calls): its settings
        worked out (the games checked already, while the choices were), a
        collection, the settings applied, the rules left behind dropped,
        each in a pass of its own when the games change, then written.

        ``work``: [settings before, value, phase, new settings, rules left]."""
        c = self.c
        work = self.work
        key = self.key
        value = work[1]
        event = {"event": "adjusted", "key": key, "value": value}
        phase = work[2]
        if _load_config():
            return
        try:
            if phase == 0:
                checked = c.settings is work[0]  # else checked afresh, whole
                new = work[3] = _config().changed(c.settings, key, value, None, not checked)
                work[0] = checked
                if c.games_change(new):
                    work[2] = 1
                    collect()  # before the applying pass, not inside it
                    return
            if work[2] < 2:
                work[4] = c.apply_settings(work[3], False, work[0])
                work[2] = 2
                if work[4] is not None:
                    return  # the old rules' modules dropped in a pass of their own
        except ValueError as e:  # SettingsError, PanelError: nothing changed
            event["error"] = str(e)
            self._emit(event)
            self._leave_value(now)
            return
        if work[4] is not None:
            left, work[4] = work[4], None
            c.rules_changed(left)
            return
        new = work[3]
        _saved(event, _save(c, new))
        event["applies"] = "next game" if key in ("preset", "rules", "misere") else "now"
        self._emit(event)
        self._leave_value(now)

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


def _load_config():
    """True if this pass loaded ``config.values`` or ``config.settings``, one
    a pass: a board's start forgot them (``app.PLAY_FREE``), and checking a
    preset loaded both, with its rule set, in one pass."""
    import sys

    for name in ("nimatron.config.values", "nimatron.config.settings"):
        if name not in sys.modules:
            __import__(name)
            return True
    return False


def _config():
    """``config.settings`` as loaded now (``_load_config``)."""
    import sys

    return sys.modules["nimatron.config.settings"]


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
