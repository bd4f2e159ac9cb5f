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

from ..config.boards import STATUS
from .ports import HINT, LIT, OFF, REFUSED, SELECTED, TAKING
from ..config.settings import DIFFICULTIES, FIRST, changed, preset_names

ITEMS = ("lamp_test", "button_test", "audits", "adjust", "check_switch", "burn_in",
         "clear_audits", "factory_reset")
IDLE_MS = 60000       # untouched this long: the menu leaves itself
BACK_HOLD_MS = 1000   # button test: NEW held this long goes back...
TWICE_MS = 2000       # ... or pressed twice within this
INDEX_MS = 1000       # audits: which counter, shown this long after a step
STEP_MS = 500         # lamp test: each lamp this long, one at a time
COLOUR_MS = 1000      # lamp test: every lamp in each colour this long
COLOURS = (LIT, SELECTED, HINT, TAKING, REFUSED)
AUDITS = ("games", "finished", "visitor_wins", "machine_wins", "abandoned", "stuck_buttons")
RULES = ("nim", "subtract:2", "subtract:3", "greedy", "moore:2", "allheaps", "grundy", "circular")
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
            cycles = (now - self.since) // self._cycle_ms()
            if cycles > self.cycles:
                self.cycles = cycles
                self._emit({"event": "burn_in", "cycles": cycles, "lamps": self._lamp_count() + len(STATUS)})
        elif now - self.touched >= IDLE_MS:
            self.c.service(False, now, "idle")

    # -- what the lamps show ------------------------------------------------------
    def frame(self, now):
        """(lamps, status) for the screen shown at ``now``."""
        layout = self.c.layout
        lamps = [[OFF] * n for n in layout]
        status = {"visitor": 0, "machine": 0, "champ": 1, "machine_wins": 0}
        screen = self.screen
        t = now - self.since
        slow = (t // 500) % 2 == 0  # 1 flash a second
        if screen == "menu":
            self._bar(lamps, self.item + 1)
            status["machine"] = 1
        elif screen == "lamp_test":
            self._lamp_test(lamps, status, t, self.one_by_one)
        elif screen == "burn_in":
            t = t % self._cycle_ms()
            colours = COLOUR_MS * len(COLOURS)
            if t < colours:
                self._lamp_test(lamps, status, t, False)
            else:
                self._lamp_test(lamps, status, t - colours, True)
        elif screen == "button_test":
            shown = list(self.held) if self.held else ([self.last] if self.last else [])
            self._buttons(lamps, status, shown, True)
        elif screen == "audits":
            if t < INDEX_MS:
                self._bar(lamps, self.index + 1)
                status["machine"] = 1
            else:
                self._binary(lamps, self._counter(AUDITS[self.index]))
        elif screen == "adjust":
            self._bar(lamps, self.index + 1)
            status["machine"] = 1
        elif screen == "adjust_value":
            self._bar(lamps, self.index + 1)
            status["visitor"] = 1
        elif screen == "check_switch":
            watch = self.c.switches
            self._buttons(lamps, status, watch.check_switch(), True)
            self._buttons(lamps, status, watch.stuck_now(), slow)
        elif screen == "confirm":
            status["machine_wins"] = 1 if slow else 0
            if self.yes:
                if slow:
                    self._bar(lamps, self._lamp_count())
            else:
                self._bar(lamps, 1)
        return lamps, status

    def _lamp_test(self, lamps, status, t, one_by_one):
        if not one_by_one:
            colour = COLOURS[(t // COLOUR_MS) % len(COLOURS)]
            for row in lamps:
                for i in range(len(row)):
                    row[i] = colour
            for role in STATUS:
                status[role] = 1
            return
        for role in STATUS:
            status[role] = 0
        n = self._lamp_count()
        k = (t // STEP_MS) % (n + len(STATUS))
        if k < n:
            self._bar(lamps, k + 1, k)
        else:
            status[STATUS[k - n]] = 1

    def _buttons(self, lamps, status, roles, on):
        """Light what stands for each button: its row, its key's lamp, or a status lamp."""
        if not on:
            return
        for role in roles:
            if role == "done":
                status["visitor"] = 1
            elif role == "new":
                status["machine"] = 1
            elif role[:3] == "row":
                r = int(role[3:])
                if r < len(lamps):
                    for i in range(len(lamps[r])):
                        lamps[r][i] = LIT
            elif role[:4] == "key ":
                parts = role.split()
                r, i = int(parts[1]), int(parts[2])
                if r < len(lamps) and i < len(lamps[r]):
                    lamps[r][i] = LIT

    def _bar(self, lamps, n, start=0):
        """Light lamps start..n-1, counted in reading order (row A first)."""
        k = 0
        for row in lamps:
            for i in range(len(row)):
                if start <= k < n:
                    row[i] = LIT
                k += 1

    def _binary(self, lamps, value):
        """``value`` in binary, its last digit on the last lamp (all lit: too big)."""
        flat = []
        for r in range(len(lamps)):
            for i in range(len(lamps[r])):
                flat.append((r, i))
        if value >> len(flat):
            value = (1 << len(flat)) - 1
        k = len(flat) - 1
        while value and k >= 0:
            if value & 1:
                r, i = flat[k]
                lamps[r][i] = LIT
            value >>= 1
            k -= 1

    def _lamp_count(self):
        n = 0
        for row in self.c.layout:
            n += row
        return n

    def _cycle_ms(self):
        return COLOUR_MS * len(COLOURS) + STEP_MS * (self._lamp_count() + len(STATUS))

    # -- audits and adjustments -------------------------------------------------------
    def _counter(self, key):
        return self.c.audits.get(key, 0)

    def _show_counter(self):
        key = AUDITS[self.index]
        self._emit({"event": "service", "screen": "audits", "counter": key, "value": self._counter(key)})

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
            values = RULES
        else:
            values = CHOICES[key]
        out = []
        for value in values:
            if value == current or self._fits(key, value):
                out.append(value)
        if current not in out:
            out.insert(0, current)
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
        event["saved"] = _save(c, new)
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
        self._emit({"event": "factory_reset", "preset": new["preset"], "applied": applied,
                    "saved": _save(c, new)})

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
    """``controller.save(settings)``: True once durable; False with no store, or if it failed."""
    if c.save is None:
        return False
    try:
        return bool(c.save(settings))
    except Exception:  # a failing store must not stop the menu
        return False
