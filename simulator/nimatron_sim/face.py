"""The machine's face, read off a running Simulator: what a front end shows.

No Textual here: this is the part of the interactive simulator that can be
tested without a screen. A ``Face`` owns one ``Simulator`` (the unchanged
firmware and real drivers on mocked pins) and answers, at any moment:

- ``lamps()``: per lamp, whether it glows (read back from the pin or the
  NeoPixel bytes), its colour (the controller's frame state, through the
  firmware's own palette) and its *kind*, a meaning that never rests on
  colour: lit ●, taken ○, selected ◉, hint ◆, being taken ✕, refused ✗,
  not in play ·;
- ``status()``: the four status lamps, from their pins;
- ``message()``: the line of words under the lamps;
- ``reasoning()``: "how the machine thinks", after the Ferranti Nimrod;
- ``log``: the moves and results, as lines;
- ``audits()``: the session's counters, carried across restarts.

    face = Face("pico-neopixel", {"preset": "nimrod"})
    face.tap("new"); face.tap("row3"); face.tap("done"); face.advance(4000)
    [lamp.glyph for lamp in face.lamps()[3]]   # ['●', '●', '●', '●', '●', '○', '○']

Buttons are pressed only through the simulator's switches; nothing here
decides a move. The reasoning panel asks the firmware's own engine
(``nimatron.strategy``, ``nimatron.explain``).
"""

from nimatron import explain, strategy
from nimatron.controller import ATTRACT, OVER, SERVICE, SHOWING, THINKING, VISITOR
from nimatron.ports import COLOURS, LIT, OFF

from .engine import Simulator

# kind -> (glyph, word): the shape carries the meaning, the colour repeats it
KINDS = {
    "lit": ("●", "lit"),
    "taken": ("○", "taken"),
    "selected": ("◉", "selected"),
    "hint": ("◆", "hint"),
    "taking": ("✕", "machine taking"),
    "refused": ("✗", "refused"),
    "dark": ("·", "not in play"),
}
STATUS_WORDS = (
    ("visitor", "YOUR TURN"),
    ("machine", "MACHINE THINKING"),
    ("champ", "NIM CHAMP"),
    ("machine_wins", "MACHINE WINS"),
)
MESSAGE_MS = 3000  # a refusal's reason stays on the face this long
SOUND_MS = 700     # a sound's name stays on the face at least this long
# sound name (``nimatron.sound``) -> what the face says while it plays
SOUND_WORDS = {
    "click": "click",
    "chatter": "relay chatter",
    "champ": "fanfare: NIM CHAMP",
    "machine_wins": "fanfare: the machine wins",
    "buzz": "buzz: refused",
}


def _hex(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


# What a glowing lamp looks like: the firmware's NeoPixel palette by frame state.
GLOW = {state: _hex(rgb) for state, rgb in COLOURS.items() if state != OFF}
GLOW[OFF] = _hex(COLOURS[LIT])  # a lamp lit by a display effect (attract, NIM CHAMP)
DIM = {"taken": "#8a8a8a", "dark": "#5c5c5c"}
DIM_STATE = "#6e6e6e"  # a meaningful lamp in the dark half of its blink


class Lamp:
    """One lamp as shown: ``kind`` (see KINDS), ``on`` (its pin), ``colour``."""

    __slots__ = ("kind", "on", "state", "colour")

    def __init__(self, kind, on, state):
        self.kind = kind
        self.on = on
        self.state = state
        if on:
            self.colour = GLOW.get(state, GLOW[LIT])
        else:
            self.colour = DIM.get(kind, DIM_STATE)

    @property
    def glyph(self):
        return KINDS[self.kind][0]

    @property
    def word(self):
        return KINDS[self.kind][1]

    def __eq__(self, other):
        return isinstance(other, Lamp) and (self.kind, self.on, self.colour) == (other.kind, other.on, other.colour)

    def __repr__(self):
        return "<Lamp %s %s>" % (self.kind, "on" if self.on else "off")


def row_label(r):
    return explain.label(r)


def position_text(heaps):
    if heaps and isinstance(heaps[0], list):  # two-dimensional Nim: rows of cells
        return "/".join("".join(str(x) for x in row) for row in heaps)
    return " ".join(str(h) for h in heaps) if heaps else "nothing"


class Face:
    """A simulator and everything its front end needs to show about it."""

    def __init__(self, board, overrides=None, seed=None, *, audits=None):
        self.board = board
        self.overrides = dict(overrides or {})
        self.sim = Simulator(board, self.overrides, seed)
        self.sim.listeners.append(self._event)
        self.log = []              # (style, text), append-only
        self._retired = dict(audits or {})
        self._played = set()       # lamps lit at some point of this game
        self._ring = False         # the position is still an unbroken circle
        self._note = None          # (until_ms, text): a refusal's reason
        self._reasons = {}         # position -> reasoning lines (cache)
        self.sounds = 0            # sounds heard so far (a front end rings its bell on new ones)
        self.sound = None          # (t, name) of the latest sound

    # -- the simulator ---------------------------------------------------------
    @property
    def controller(self):
        return self.sim.controller

    @property
    def settings(self):
        return self.sim.controller.settings

    @property
    def layout(self):
        return self.sim.layout

    @property
    def now(self):
        return self.sim.now

    @property
    def input_model(self):
        return self.sim.controller.input_model

    @property
    def roles(self):
        return self.sim.roles

    def tap(self, role):
        """One press of a button (or a key of the grid) by a visitor's hand.

        Returns the virtual milliseconds it took (hold and release).
        """
        before = self.sim.now
        if role in self.sim.roles:
            self.sim.tap(role)
        elif role in ("done", "new"):  # a chord or a long press on boards without the button
            try:
                self.sim.tap_for(role)
            except KeyError:
                return 0
        return self.sim.now - before

    def chord(self):
        """DONE and NEW GAME held together for 5 s: the operator menu. Boards
        without both buttons open it as ``SERVICE ON`` over the link would.
        Returns the virtual milliseconds it took."""
        from nimatron.switches import CHORD_MS

        before = self.sim.now
        if "done" in self.sim.roles and "new" in self.sim.roles:
            self.sim.chord(["done", "new"], CHORD_MS + 200)
        else:
            self.sim.controller.service(True, self.sim.now, "link")
        return self.sim.now - before

    def advance(self, ms):
        if ms > 0:
            self.sim.advance(int(ms))

    def close(self):
        self.sim.close()

    # -- events ------------------------------------------------------------------
    def _event(self, event):
        kind = event.get("event")
        controller = self.sim.controller
        if kind == "sound":  # the speaker starts a sound (the board's sound scheduler)
            self.sounds += 1
            self.sound = (event["t"], event["name"])
            return
        if kind == "new_game":
            self._played = set()
            self._ring = bool(event.get("ring"))
            self._note = None
            first = "you move first" if event["first"] == "visitor" else "the machine moves first"
            self._add("game", "Game %d: %s  (%s%s; %s)" % (
                controller.audits["games"] + self._retired.get("games", 0), position_text(event["position"]),
                event["rules"], ", misère" if event["misere"] else "", first))
        elif kind == "move":
            self._move(event)
        elif kind == "refused":
            self._note = (self.sim.now + MESSAGE_MS, "Not allowed: " + event["reason"])
            self._add("refused", "  refused: " + event["reason"])
        elif kind == "hint":
            self._add("hint", "  hint: the ◆ lamps show a winning move")
        elif kind == "game_over":
            winner = event["winner"]
            if winner == "visitor":
                self._add("win", "You win: NIM CHAMP!")
            elif winner == "machine":
                self._add("loss", "The machine wins.")
            else:
                self._add("note", "Game abandoned.")
        elif kind in OPERATOR:
            self._add("note", OPERATOR[kind](event))
        if controller.panel is not None:
            self._mark_played()

    def counter(self):
        """The binary counter on show (``nimatron.counter``), or None."""
        panel = self.sim.controller.panel
        return panel if getattr(panel, "bit_lamps", None) is not None else None

    def counter_words(self):
        """A line saying how to read the counter's lamps, or "" without one."""
        s = self.settings
        if not s.get("counter"):
            return ""
        from nimatron.counter import CounterPanel

        panel = self.counter() or CounterPanel(self.controller.rules, self.sim.layout, s["starts"][0])
        bits = ["%d" % (1 << (len(panel.bit_lamps) - 1 - k)) for k in range(len(panel.bit_lamps))]
        first = len(panel.bit_lamps) + 1
        return ("Counter: lamps 1-%d are the count so far in binary (%s); lamps %d-%d choose how many "
                "to add (select that many)." % (first - 1, " ".join(bits), first, first + len(panel.choice_lamps) - 1))

    def _mark_played(self):
        if self.counter() is not None:
            return  # a counter's dark lamps are zeros, never taken objects
        lit = self.sim.controller.panel.lit
        for r in range(len(lit)):
            for i in range(len(lit[r])):
                if lit[r][i]:
                    self._played.add((r, i))

    def _move(self, event):
        controller = self.sim.controller
        rules = controller.rules
        before, after = event["before"], event["after"]
        ring = self._ring
        self._ring = False
        words = explain.describe_move(before, after, rules.ordered, ring)
        who = "You" if event["by"] == "visitor" else "Machine"
        counter = self.counter()
        if counter is not None:
            total = counter.total
            self._add(event["by"], "%s: %d more → count %d" % (who, before[0] - after[0], total - after[0]))
            if event["by"] == "machine":
                won = strategy.solve(rules, before, controller.misere)["outcome"] == "win"
                self._add("why", "  why: " + ("a winning count: %d left to say is lost for you" % after[0] if won
                                              else "no winning count; it plays for time"))
            return
        self._add(event["by"], "%s: %s  → %s" % (who, words, position_text([h for h in after if h] if not rules.ordered else after)))
        if event["by"] != "machine":
            return
        why = event.get("why")
        try:
            was = strategy.solve(rules, before, controller.misere, ring)
            now = strategy.solve(rules, after, controller.misere, False) if rules.has_move(after) else None
        except ValueError:
            was = now = None
        if was is not None and was["outcome"] == "win" and now is not None and now["outcome"] == "win":
            why = "a deliberate slip (difficulty %s): a winning move is open to you" % controller.settings["difficulty"]
        elif why is None and was is not None:
            why = controller.explain(before, ring)
        if why:
            self._add("why", "  why: " + why)

    def _add(self, style, text):
        self.log.append((style, text))

    # -- what the face shows -------------------------------------------------------
    def lamps(self):
        """Rows of Lamp, in the game's layout."""
        controller = self.sim.controller
        glowing = self.sim.read_lamps()
        states = controller.frame(self.sim.now)[0]
        panel = controller.panel
        state = controller.state
        marks = {}
        if panel is not None:
            for lamp in self._played:
                marks[lamp] = "taken"
            for r in range(len(panel.lit)):
                for i in range(len(panel.lit[r])):
                    if panel.lit[r][i]:
                        marks[(r, i)] = "lit"
            if controller.refused_at is not None:
                for lamp in controller.refused:
                    marks[lamp] = "refused"
            if state == VISITOR:
                for lamp in controller.hint or ():
                    marks[lamp] = "hint"
                for lamp in controller.selected:
                    marks[lamp] = "selected"
            elif state == SHOWING:
                for lamp in controller.machine_out:
                    marks[lamp] = "taking"
        rows = []
        for r, n in enumerate(self.sim.layout):
            row = []
            for i in range(n):
                on = bool(glowing[r][i]) if r < len(glowing) and i < len(glowing[r]) else False
                kind = marks.get((r, i), "dark")
                if on and kind in ("taken", "dark"):
                    kind = "lit"  # lit by a display effect: the attract wave, NIM CHAMP's chase
                frame_state = states[r][i] if r < len(states) and i < len(states[r]) else OFF
                row.append(Lamp(kind, on, frame_state))
            rows.append(row)
        return rows

    def has_speaker(self):
        return getattr(self.sim.controller.io, "sound", None) is not None

    def sound_words(self):
        """The sound playing, in words ("♪ relay chatter"), "" when quiet, None
        on a board without a speaker. A sound shows while the board's
        scheduler still works through its notes, and at least SOUND_MS."""
        if not self.has_speaker():
            return None
        if not self.settings.get("volume", 1):
            return "♪ muted (volume 0)"
        if self.sound is None:
            return ""
        t, name = self.sound
        scheduler = self.sim.controller.io.sound
        if self.sim.now - t < SOUND_MS or scheduler.busy():
            return "♪ " + SOUND_WORDS.get(name, name)
        return ""

    def display_pixels(self):
        """The board's display (rows of 0/1) as displayio drew it, or None."""
        read = getattr(self.sim.bench, "read_display", None)  # gpiozero benches have no display
        return read() if read is not None else None

    def display_text(self):
        """The lines the firmware's display driver last put on its display, or None."""
        oled = getattr(self.sim.controller.io, "oled", None)
        return list(oled.text) if oled is not None else None

    def status(self):
        """The four status lamps, read back from their pins: role -> bool."""
        read = self.sim.read_status()
        return {role: bool(read.get(role)) for role, _ in STATUS_WORDS}

    def heaps(self):
        """The position in play as (heaps, ring), or None in attract mode."""
        return self.sim.controller.position()

    def rules_line(self):
        s = self.settings
        controller = self.sim.controller
        goal = "loses" if controller.misere else "wins"
        about = controller.rules.about or controller.rules.spec
        if s.get("counter"):  # the game of 21: the count said, in binary
            most = controller.rules.k or 0
            total = s["starts"][0][0]
            return "Rules: add 1 to %d to the count; whoever says %d %s.\nDifficulty %s · first: %s" % (
                most, total, goal, s["difficulty"], s["first"])
        if controller.rules.k is not None:
            about = about.replace(" k ", " %d " % controller.rules.k)  # "take 1 to 3 from one heap"
        return "Rules: %s; whoever takes the last lamp %s.\nDifficulty %s · first: %s" % (
            about, goal, s["difficulty"], s["first"])

    def message(self):
        """The words under the lamps: what is happening, and what to do."""
        controller = self.sim.controller
        state = controller.state
        now = self.sim.now
        if state == SERVICE:
            return operator_text(controller, self.sim.roles)
        if state == VISITOR and controller.asking is not None:
            left = (controller.settings["walkaway_ms"] - (now - controller.last_input) + 999) // 1000
            return "Still playing? Press any button within %d s, or the game ends." % max(0, left)
        if self._note is not None:
            if now < self._note[0] and state == VISITOR:
                return self._note[1]
            self._note = None
        if state == ATTRACT:
            return "Press N for a new game (or any of the machine's buttons)."
        if state == VISITOR and controller._building():
            heaps = controller.position()[0]
            text = ("Building: %d stone%s still to place (lit in row %s). Press a row A-%s to place one "
                    "there; Nim starts when all are placed." % (
                        heaps[-1], "" if heaps[-1] == 1 else "s", row_label(len(heaps) - 1),
                        row_label(len(heaps) - 2)))
            return text + (" Hint: ◆ shows a winning placement." if controller.hint else "")
        if state == VISITOR:
            if controller.input_model == "rows":
                if controller.taken:
                    return ("You have put out %d from row %s. Press its button again for more, or DONE (Enter)."
                            % (len(controller.taken), row_label(controller.turn_row)))
                keys = "1" if len(self.sim.layout) == 1 else "1-%d" % len(self.sim.layout)
                text = "Your turn: press a row's button (%s) to put out its last lamp; then DONE (Enter)." % keys
            else:
                if controller.selected:
                    return ("%d selected (◉). DONE (Enter) takes them; select a lamp again to put it back."
                            % len(controller.selected))
                text = "Your turn: choose lamps with the arrows and Space, or click them; then DONE (Enter)."
                if self.sim.spec.get("cursor"):
                    text = ("Your turn: A moves the blinking cursor, B selects the lamp under it; "
                            "then DONE: A+B (Enter) or the slide switch (W).")
            if controller.hint:
                text += " Hint: ◆ shows a winning move."
            return text
        if state == THINKING:
            return "The machine is thinking..."
        if state == SHOWING and self.counter() is not None:
            return "The machine adds %d (✕)." % len(controller.machine_out)
        if state == SHOWING:
            heaps, ring = controller.position()
            if controller.machine_light and controller.rules.name == "building":
                return "The machine places a stone: %s." % explain.describe_move(heaps, controller.machine_after)
            return "The machine takes (✕): %s." % explain.describe_move(
                heaps, controller.machine_after, controller.rules.ordered, ring)
        if state == OVER:
            if controller.winner == "visitor":
                return "You win: NIM CHAMP! Press N to play again."
            return "The machine wins. Press N to play again."
        return ""

    def audits(self):
        """The session's counters: every simulator this front end has run."""
        own = self.sim.controller.audits
        out = {}
        for key in ("games", "visitor_wins", "machine_wins", "abandoned"):
            out[key] = own.get(key, 0) + self._retired.get(key, 0)
        return out

    # -- how the machine thinks ------------------------------------------------------
    def reasoning(self):
        """Lines for the "how the machine thinks" panel, for the position in play."""
        controller = self.sim.controller
        position = controller.position()
        if position is None:
            return ["No game in play.", "", "Press N: the machine will show its working here."]
        heaps, ring = position
        mover = "the machine" if controller.state in (THINKING, SHOWING) else "you"
        if controller.state == OVER:
            mover = None
        key = (controller.rules.spec, controller.misere, position_text(heaps), ring, mover)  # rows of cells too
        lines = self._reasons.get(key)
        if lines is None:
            if len(self._reasons) > 64:
                self._reasons = {}
            try:
                lines = reasoning(controller.rules, controller.misere, heaps, ring, mover)
            except ValueError as e:  # SizeError: too large to work out on this machine
                lines = ["Position %s" % position_text(heaps), str(e)]
            self._reasons[key] = lines
        return lines


def _service_open(e):
    if e.get("open") is True:
        return "Operator menu opened (%s)." % ("DONE + NEW held 5 s" if e["by"] == "buttons" else e["by"])
    if e.get("open") is False:
        return "Operator menu closed (%s)." % e["by"]
    if "item" in e:
        return "  menu: %s" % ITEM_WORDS[e["item"]]
    if "counter" in e:
        return "  audits: %s = %d" % (e["counter"], e["value"])
    if "key" in e:
        return "  adjust: %s = %s" % (e["key"], e["value"])
    if "answer" in e:
        return "  %s? %s" % (ITEM_WORDS[e["screen"]], e["answer"].upper())
    return "  screen: %s" % ITEM_WORDS.get(e.get("screen"), e.get("screen"))


def _stuck(e):
    if e.get("released"):
        return "Button %s released: it works again." % e["button"]
    return "Button %s is stuck (%s): ignored until released." % (e["button"], e["why"])


def _still(e):
    if e.get("answer"):
        return "  still playing: yes"
    return "  still playing? the game ends in %d s without a press" % e["seconds"]


def _adjusted(e):
    if "error" in e:
        return "  not changed: %s" % e["error"]
    return "  %s set to %s (%s%s)" % (e["key"], e["value"], "saved" if e["saved"] else "until restart",
                                     ", next game" if e["applies"] == "next game" else "")


# event kind -> one line for the log
OPERATOR = {
    "service": _service_open,
    "stuck": _stuck,
    "still_playing": _still,
    "check_switch": lambda e: ("Check switch: %s not pressed in %d games." % (e["button"], e["games"])
                               if "button" in e else "  check switch: %s; stuck: %s" % (
                                   ", ".join(e["buttons"]) or "none", ", ".join(e["stuck"]) or "none")),
    "switch": lambda e: "  switch %s %s" % (e["button"], "down" if e["pressed"] else "up"),
    "adjusted": _adjusted,
    "burn_in": lambda e: "  burn-in: cycle %d" % e["cycles"],
    "audits_cleared": lambda e: "  audits cleared",
    "factory_reset": lambda e: "  factory settings: preset %s%s" % (
        e["preset"], "" if e["applied"] else " (from the next start)"),
}
ITEM_WORDS = {
    "lamp_test": "1 lamp test", "button_test": "2 button test", "audits": "3 audits",
    "adjust": "4 adjustments", "check_switch": "5 check switch", "burn_in": "6 burn-in",
    "clear_audits": "7 clear audits", "factory_reset": "8 factory reset",
}


def operator_text(controller, roles):
    """What the operator menu's screen shows, and which keys do what."""
    menu = controller.menu
    screen = menu.screen
    if "row0" in roles:
        step = "1 next, 2 previous" if "row1" in roles else "1 next"
    else:
        step = "a top-row lamp (Space) next, any other previous"
    if screen == "menu":
        from nimatron.service import ITEMS

        return "OPERATOR MENU: %s (a bar of lamps). %s; Enter opens; N leaves." % (
            ITEM_WORDS[ITEMS[menu.item]], step)
    if screen == "lamp_test":
        what = "one lamp at a time" if menu.one_by_one else "every lamp in each colour"
        return "Lamp test: %s. Enter: %s. N: back." % (
            what, "every lamp" if menu.one_by_one else "one at a time")
    if screen == "button_test":
        last = menu.last or "nothing yet"
        return ("Button test: press any button (a row lights its lamps, DONE the YOUR TURN lamp, "
                "NEW the MACHINE lamp). Last: %s. N twice (or held 1 s): back." % last)
    if screen == "audits":
        from nimatron.service import AUDITS

        key = AUDITS[menu.index]
        return "Audits: %s = %d, in binary (last digit on the last lamp). %s: another. N: back." % (
            key, controller.audits.get(key, 0), step)
    if screen == "adjust":
        key = menu.adjustable()[menu.index]
        return "Adjust: %s = %s. %s; Enter: change it; N: back." % (key, controller.settings[key], step)
    if screen == "adjust_value":
        return "Adjust %s: %s (not saved yet). %s; Enter saves; N cancels." % (
            menu.key, menu.choices[menu.index], step)
    if screen == "check_switch":
        switches = controller.switches
        return "Check switch: %s not pressed lately; stuck: %s. N: back." % (
            ", ".join(switches.check_switch()) or "nothing", ", ".join(switches.stuck_now()) or "nothing")
    if screen == "burn_in":
        return "Burn-in: the lamp tests in a loop (cycle %d). N stops." % (menu.cycles + 1)
    if screen == "confirm":
        return "%s? %s. %s toggles YES/NO; Enter confirms; N: back." % (
            ITEM_WORDS[menu.action][2:].capitalize(), "YES" if menu.yes else "NO", step.split(",")[0])
    return "Operator menu."


def _table(values, names):
    """Binary rows over a common width, the column counts, and their nim-sum."""
    x = 0
    for v in values:
        x ^= v
    width = 1
    for v in list(values) + [x]:
        width = max(width, len(explain.binary(v, 1)))
    lines = []
    if width <= 4:  # the column values, 8 4 2 1, over the digits
        lines.append("  " + " ".join(str(1 << c) for c in range(width - 1, -1, -1)))
    for v, name in zip(values, names):
        lines.append("  " + " ".join(explain.binary(v, width)) + "  %3d  %s" % (v, name))
    lines.append("  " + "-" * (2 * width - 1))
    counts = explain.column_parities(list(values) + [0]) if values else []
    while len(counts) < width:
        counts = [0] + counts
    lines.append("  " + " ".join(str(c % 10) for c in counts) + "        ones")
    lines.append("  " + " ".join(explain.binary(x, width)) + "  %3d  nim-sum" % x)
    return lines, x


def reasoning(rules, misere, heaps, ring, mover):
    """The working, as Nimrod showed it: for nim, each heap in binary, the
    column counts and the nim-sum; for games that are sums of heaps, each
    heap's nim-value the same way; then the move and the reason for it."""
    rules_name = rules.name
    lines = []
    result = strategy.solve(rules, heaps, misere, ring)
    after = result["after"]
    labels = ["heap %s" % explain.label(i) for i in range(len(heaps))]
    if rules_name == "building":
        stones = heaps[-1]
        labels = labels[:-1]
        if stones:
            lines.append("Building: heaps %s; %d stone%s still to place (row %s)." % (
                " ".join(str(h) for h in heaps[:-1]), stones, "" if stones == 1 else "s",
                explain.label(len(heaps) - 1)))
            lines.append("Then Nim, which Bouton's nim-sum decides: the machine searched every way "
                         "to place the rest with that in view.")
        else:
            lines.append("All stones placed: Nim on the heaps.")
            heaps = heaps[:-1]
            if result["after"] is not None:
                result = dict(result, after=result["after"][:-1])
            after = result["after"]
            rules_name = "nim"
    if rules_name in ("nim", "candy"):
        table, x = _table(heaps, labels)
        lines.extend(table)
        if misere:
            lines.append("Misère: play as in normal Nim until only heaps of 1 would be left; "
                         "then leave an odd number of them.")
        elif x:
            lines.append("Nim-sum not 0: the player to move wins by making it 0.")
        else:
            lines.append("Nim-sum 0: every move makes it non-zero; a perfect opponent wins.")
        for note in rules.notes(heaps, misere) if rules.name == "candy" else ():
            lines.append("Candies: %s; %s, the machine takes the one that leaves it the most "
                         "at the end." % (note, "among the winning moves" if result["outcome"] == "win"
                                          else "with no winning move, among all moves"))
    elif rules_name == "graph" and not misere:
        groups = rules.groups(heaps)
        lines.append("Each group of touching lamps is a game of its own; its nim-value:")
        table, x = _table([v for _, v in groups], ["group %d (%d lamp%s)" % (i + 1, n, "" if n == 1 else "s")
                                                  for i, (n, _) in enumerate(groups)])
        lines.extend(table)
        lines.append("Nim-values add like Nim heaps (XOR): the player to move wins if the sum is not 0.")
    elif rules_name in ("subtract", "grundy", "circular") and not misere and not ring:
        values = []
        for h in heaps:
            values.append(strategy.solve(rules, [h], False)["nimber"] or 0)
        how = {"subtract": "heap mod %d" % (rules.k + 1) if rules.k else "",
               "grundy": "Grundy values", "circular": "values of rows"}[rules_name]
        lines.append("Each heap's nim-value (%s):" % how)
        table, x = _table(values, ["%s (%d)" % (labels[i], heaps[i]) for i in range(len(heaps))])
        lines.extend(table)
        lines.append("Nim-values add like Nim heaps (XOR): the player to move wins if the sum is not 0.")
    elif rules_name == "moore" and not misere:
        table, _ = _table(heaps, labels)
        lines.extend(table[:-1])
        lines.append("Moore: a loss for the player to move when every column count is a multiple of %d."
                     % (rules.k + 1))
    else:
        lines.append("Position %s%s" % (position_text(heaps), " (a circle)" if ring else ""))
        lines.append("Rules: %s%s." % (rules.about or rules.spec, ", misère" if misere else ""))
        if result["nimber"] is not None:
            lines.append("Nim-value of the whole position: %d." % result["nimber"])
        lines.append("The machine knows the theory, or searched every line of play from here.")
    lines.append("")
    who = mover or "the next player"
    if after is None:
        lines.append("No move left: the game is over.")
    elif result["outcome"] == "win":
        lines.append("Winning move for %s: %s, leaving %s." % (
            who, explain.describe_move(heaps, after, rules.ordered, ring), position_text(after)))
    else:
        lines.append("No winning move for %s; play for time: %s." % (
            who, explain.describe_move(heaps, after, rules.ordered, ring)))
    return lines
