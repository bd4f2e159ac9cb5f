# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
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
(``nimrod``, through ``nimatron.games.strategy`` and ``nimatron.games.explain``). The
words are in the visitor's language (``words``: one file per language,
shared with the web page); the firmware's sentences go through its phrase
table.
"""

from nimatron.games import explain, strategy
from nimatron.machine.controller import ATTRACT, OVER, SERVICE, SHOWING, THINKING, VISITOR
from nimatron.machine.ports import COLOURS, LIT, OFF

from .engine import Simulator
from .words import Words

# kind -> glyph: the shape carries the meaning, the colour repeats it (words: "kind.lit"...)
KINDS = {
    "lit": "●",
    "taken": "○",
    "selected": "◉",
    "hint": "◆",
    "taking": "✕",
    "refused": "✗",
    "dark": "·",
}
STATUS_ROLES = ("visitor", "machine", "champ", "machine_wins")  # words: "status.visitor"...
MESSAGE_MS = 3000  # a refusal's reason stays on the face this long
SOUND_MS = 700  # a sound's name stays on the face at least this long
SOUNDS = ("click", "chatter", "champ", "machine_wins", "buzz")  # ``nimatron.machine.sound``'s; words: "sound.click"...


def _hex(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


# What a glowing lamp looks like: the firmware's NeoPixel palette by frame state.
GLOW = {state: _hex(rgb) for state, rgb in COLOURS.items() if state != OFF}
GLOW[OFF] = _hex(COLOURS[LIT])  # a lamp lit by a display effect (attract, NIM CHAMP)
DIM = {"taken": "#8a8a8a", "dark": "#5c5c5c"}
DIM_STATE = "#6e6e6e"  # a meaningful lamp in the dark half of its blink


class Lamp:  # noqa: PLW1641 - compared, never a key: no __hash__
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
        return KINDS[self.kind]

    def __eq__(self, other):
        return isinstance(other, Lamp) and (self.kind, self.on, self.colour) == (other.kind, other.on, other.colour)

    def __repr__(self):
        return "<Lamp %s %s>" % (self.kind, "on" if self.on else "off")


def row_label(r):
    return explain.label(r)


class Face:
    """A simulator and everything its front end needs to show about it."""

    def __init__(self, board, overrides=None, seed=None, *, audits=None, lang="en"):
        self.words = Words(lang)  # first: a bad --lang is refused before a simulator starts
        self.t = self.words.t
        self.board = board
        self.overrides = dict(overrides or {})
        self.sim = Simulator(board, self.overrides, seed)
        self.sim.listeners.append(self._event)
        self.log = []  # (style, text), append-only
        self._retired = dict(audits or {})
        self._played = set()  # lamps lit at some point of this game
        self._ring = False  # the position is still an unbroken circle
        self._note = None  # (until_ms, text): a refusal's reason
        self.sounds = 0  # sounds heard so far (a front end rings its bell on new ones)
        self.sound = None  # (t, name) of the latest sound

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
        from nimatron.machine.switches import CHORD_MS

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
            t = self.t
            self._add(
                "game",
                t(
                    "sim.log.game",
                    n=controller.audits["games"] + self._retired.get("games", 0),
                    position=self.words.phrase(
                        controller.rules.position_words(event["position"], bool(event.get("ring")))
                    ),
                    misere=t("sim.log.misere") if event["misere"] else "",
                    first=t("sim.log.first." + ("visitor" if event["first"] == "visitor" else "machine")),
                ),
            )
        elif kind == "move":
            self._move(event)
        elif kind == "refused":
            reason = self.words.phrase(event["reason"])
            self._note = (self.sim.now + MESSAGE_MS, self.t("say.refused", reason=reason))
            self._add("refused", self.t("sim.log.refused", reason=reason))
        elif kind == "hint":
            self._add("hint", self.t("sim.log.hint"))
        elif kind == "game_over":
            winner = event["winner"]
            if winner == "visitor":
                self._add("win", self.t("log.win"))
            elif winner == "machine":
                self._add("loss", self.t("log.loss"))
            elif event.get("counted", True):
                self._add("note", self.t("log.abandoned"))
            else:  # NEW (or the operator menu) before any move: not a game, and the counters agree
                self._add("note", self.t("log.withdrawn"))
        elif kind == "still_playing":
            self._add(
                "note",
                self.t("sim.log.still_yes") if event.get("answer") else self.t("sim.log.still", s=event["seconds"]),
            )
        else:
            from .operator_words import log_line

            line = log_line(event, self.words)
            if line is not None:
                self._add("note", line)
        if controller.panel is not None:
            self._mark_played()

    def counter(self):
        """The binary counter on show (``nimatron.panels.counter``), or None."""
        panel = self.sim.controller.panel
        return panel if getattr(panel, "bit_lamps", None) is not None else None

    def counter_words(self):
        """A line saying how to read the counter's lamps, or "" without one."""
        s = self.settings
        if not s.get("counter"):
            return ""
        from nimatron.panels.counter import CounterPanel

        panel = self.counter() or CounterPanel(self.controller.rules, self.sim.layout, s["starts"][0])
        bits = ["%d" % (1 << (len(panel.bit_lamps) - 1 - k)) for k in range(len(panel.bit_lamps))]
        first = len(panel.bit_lamps) + 1
        return self.t(
            "sim.counter", last=first - 1, bits=" ".join(bits), first=first, end=first + len(panel.choice_lamps) - 1
        )

    def rows_words(self):
        """What the rows that are not heaps show (Candy Nim's tallies, Building
        Nim's supply), in the visitor's words: the panel says, before a game too."""
        panel = self.controller.panel
        if panel is None:  # attract mode: the first game's panel, as the controller will make it
            from nimatron.panels import make_panel

            s = self.settings
            panel = make_panel(self.controller.rules, self.sim.layout, s["starts"][0], None, s.get("counter", False))
        return [self.words.phrase(line) for line in getattr(panel, "rows_words", list)()]

    def _mark_played(self):
        if self.counter() is not None or not self.sim.controller.rules.removes:
            return  # a counter's dark lamps are zeros; Grundy's game moves lamps, never takes them
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
        t = self.t
        words = self.words.phrase(
            explain.describe_move(before, after, rules.ordered, ring, getattr(controller.panel, "unlettered", None))
        )
        by = "visitor" if event["by"] == "visitor" else "machine"
        counter = self.counter()
        if counter is not None:
            total = counter.total
            self._add(event["by"], t("sim.log.count." + by, n=before[0] - after[0], count=total - after[0]))
            if event["by"] == "machine":
                won = strategy.solve(rules, before, controller.misere)["outcome"] == "win"
                self._add("why", t("sim.log.why", why=t("sim.why.count", n=after[0]) if won else t("sim.why.no_count")))
            return
        self._add(
            event["by"], t("sim.log.move." + by, move=words, position=self.words.phrase(rules.position_words(after)))
        )
        if event["by"] != "machine":
            return
        why = event.get("why")
        try:
            was = strategy.solve(rules, before, controller.misere, ring)
            now = strategy.solve(rules, after, controller.misere, False) if rules.has_move(after) else None
        except ValueError:
            was = now = None
        if was is not None and was["outcome"] == "win" and now is not None and now["outcome"] == "win":
            why = t("sim.why.slip", difficulty=t("difficulty." + controller.settings["difficulty"]))
        else:
            if why is None and was is not None:
                why = controller.explain(before, ring)
            if why:  # the firmware's reasoning, "nim-sum 11 (binary) = 3; winning move: ...", part by part
                why = "; ".join(self.words.phrase(part) for part in why.split("; "))
        if why:
            self._add("why", t("sim.log.why", why=why))

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
                if on and kind in ("taken", "dark") and panel is None:
                    kind = "lit"  # lit by the attract wave; in a game's light show a lamp keeps its meaning (its count)
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
            return "♪ " + self.t("sound.muted")
        if self.sound is None:
            return ""
        t, name = self.sound
        scheduler = self.sim.controller.io.sound
        if self.sim.now - t < SOUND_MS or scheduler.busy():
            return "♪ " + (self.t("sound." + name) if name in SOUNDS else name)
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
        return {role: bool(read.get(role)) for role in STATUS_ROLES}

    def heaps(self):
        """The position in play as (heaps, ring), or None in attract mode."""
        return self.sim.controller.position()

    def rules_line(self):
        s = self.settings
        t = self.t
        controller = self.sim.controller
        goal = t("goal.loses" if controller.misere else "goal.wins")
        about = controller.rules.about or controller.rules.spec
        more = t("sim.rules.more", difficulty=t("difficulty." + s["difficulty"]), first=t("first." + s["first"]))
        if s.get("counter"):  # the game of 21: the count said, in binary
            return t("sim.rules.counter", k=controller.rules.k or 0, n=s["starts"][0][0], goal=goal) + "\n" + more
        if controller.rules.k is not None:
            about = about.replace(" k ", " %d " % controller.rules.k)  # "take 1 to 3 from one heap"
        return (
            t(
                "rules.line",
                about=self.words.phrase(about),
                last=self.words.phrase(controller.rules.last_move),
                goal=goal,
            )
            + "\n"
            + more
        )

    def message(self):
        """The words under the lamps: what is happening, and what to do."""
        controller = self.sim.controller
        state = controller.state
        now = self.sim.now
        t = self.t
        if state == SERVICE:
            from .operator_words import screen

            return screen(controller, self.sim.roles, self.words)
        if state == VISITOR and controller.asking is not None:
            left = (controller.settings["walkaway_ms"] - (now - controller.last_input) + 999) // 1000
            return t("say.still", s=max(0, left))
        if self._note is not None:
            if now < self._note[0] and state == VISITOR:
                return self._note[1]
            self._note = None
        if state == ATTRACT:
            return t("sim.say.attract")
        if state == VISITOR and controller._building():
            heaps = controller.position()[0]
            text = t("sim.say.building", n=heaps[-1], row=row_label(len(heaps) - 1), last=row_label(len(heaps) - 2))
            return text + (" " + t("sim.say.hint_place") if controller.hint else "")
        if state == VISITOR:
            if controller.input_model == "rows":
                if controller.taken:
                    return t("sim.say.rows_more", n=len(controller.taken), row=row_label(controller.turn_row))
                keys = "1" if len(self.sim.layout) == 1 else "1-%d" % len(self.sim.layout)
                text = t("sim.say.rows", keys=keys)
            else:
                if controller.selected:  # Grundy's game moves the lamps, never takes them
                    return t(
                        "sim.say.selected" if controller.rules.removes else "sim.say.selected.split",
                        n=len(controller.selected),
                    )
                text = t("sim.say.grid")
                if self.sim.spec.get("cursor"):
                    text = t("sim.say.cursor")
            if controller.hint:
                text += " " + t("sim.say.hint")
            return text
        if state == THINKING:
            return t("say.thinking")
        if state == SHOWING and self.counter() is not None:
            return t("sim.say.adds", n=len(controller.machine_out))
        if state == SHOWING:
            heaps, ring = controller.position()
            move = self.words.phrase(
                explain.describe_move(
                    heaps,
                    controller.machine_after,
                    controller.rules.ordered,
                    ring,
                    getattr(controller.panel, "unlettered", None),
                )
            )
            return t("sim.say.places" if controller._building() else "sim.say.showing", move=move)
        if state == OVER:
            return t("sim.say.win" if controller.winner == "visitor" else "sim.say.loss")
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
        """Lines for the "how the machine thinks" panel, for the position in
        play: Nimrod's panel (``nimrod``, shared with the web pages) as text."""
        from .nimrod import nimrod
        from .thinking import lines

        return lines(nimrod(self.sim.controller), self.words)
