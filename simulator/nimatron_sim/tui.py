# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron sim``: the machine's face in a terminal (and, served, a browser).

A Textual front end on a ``Face`` (``nimatron_sim.face``), which runs the
unchanged firmware and drivers on mocked pins. Keys press the simulated
buttons; the lamps are read back from the pins; a timer drives the virtual
clock at real speed, so the machine's pause and its blinking move are seen
as on the real thing.

Keys: 1-9 press a row's button, Enter is DONE, N is NEW GAME; on grid boards
the arrows move a cursor and Space selects the lamp under it (or click the
lamps). T shows how the machine thinks, S opens the settings, O the operator
menu (holds DONE and NEW GAME 5 s), M mutes the terminal bell, Q (or
Ctrl-C) quits.

Boards with a speaker show each sound as it plays (``♪ relay chatter``
under the buttons) and ring the terminal's bell for the fanfares and a
refusal (``BELL_SOUNDS``; M or the settings mute it). A board with a
display (the MacroPad's OLED) shows its pixels as displayio drew them, in
braille (2x4 pixels a character: 64x16 for 128x64) when the face has the
room (``OLED_COLUMNS``), else the five lines its driver wrote, beside the log.

    app = NimatronApp(Face("pico-neopixel", {"preset": "nimrod"}))
    app.run()
"""

import re
import textwrap
import time

from nimatron.config import boards, settings as nsettings
from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Footer, Header, Label, RichLog, Select, Static

from .engine import playable_rules
from .face import KINDS, STATUS_ROLES, Face, row_label
from .oled_mock import braille
from .wallclock import WallClock
from .words import rules_words

SIDE_WIDTH = 36  # the thinking panel, move log and audits (at least; a wide terminal gives it more)
ROOMY = (150, 45)  # a terminal this large (a 200x60 one) gets wide lamps and a wide side panel
ROOMY_LAMP = 5  # columns per lamp then: "  ●  "
TICK_S = 0.03  # the virtual clock follows the wall clock every 30 ms
MAX_STEP_MS = 1000  # after a stall (a suspended laptop), do not race ahead
BELL_SOUNDS = ("champ", "machine_wins", "buzz")  # the bell rings for these (a click each lamp would nag)
OLED_COLUMNS = 68  # the face's width that shows the display's pixels (64 braille + border + padding)

LOG_STYLES = {
    "game": "bold",
    "visitor": "",
    "machine": "bold",
    "why": "dim italic",
    "refused": "#ff66cc",
    "hint": "#33dd66",
    "win": "bold #33dd66",
    "loss": "bold #ffaa3c",
    "note": "dim",
    "settings": "dim",
}

CSS = (
    """
Screen { background: #101418; }
#body { height: 1fr; }
#face { width: 1fr; padding: 0 1; scrollbar-gutter: stable; scrollbar-size-vertical: 1; }
#side { width: %d; border-left: solid #3a4a55; }
#status-lamps { height: 2; grid-size: 2 2; grid-columns: 18 20; }
.status-lamp { width: auto; color: #8a8a8a; }
.status-lamp.on { color: #101418; background: #f0f0f0; text-style: bold; }
#rules-line { color: #9fb0bb; height: auto; margin: 1 0 0 0; }
#lamps { height: auto; margin: 1 0 0 0; }
.lamp-row { height: 1; }
#lamps.spaced .lamp-row { margin: 0 0 1 0; }
#lamps.spaced .lamp-row:last-child { margin: 0; }
#lamps.roomy .lamp-row { margin: 0 0 2 0; }
#lamps.roomy .lamp-row:last-child { margin: 0; }
#face.tight #rules-line, #face.tight #lamps, #face.tight #controls, #face.tight #message, #face.tight #legend { margin: 0; }
#face.tight #message { min-height: 1; }
.row-label { width: 3; color: #c8d3da; text-style: bold; }
.row-count { width: 4; color: #9fb0bb; }
LampWidget { width: 3; height: 1; }
.row-button { height: 1; min-width: 10; border: none; margin: 0 0 0 1; background: #2c3e4a; color: #f0f0f0; text-style: bold; }
.row-button:hover { background: #47657a; }
#controls { height: 1; margin: 1 0 0 0; }
#controls Button { height: 1; border: none; min-width: 10; margin: 0 1 0 0; background: #2c3e4a; color: #f0f0f0; text-style: bold; }
#controls Button:hover { background: #47657a; }
#controls #done { background: #7a5a12; }
#controls #new { background: #1f5a35; }
#sound { height: 1; color: #ffd27a; text-style: bold; margin: 0 0 0 2; }
#oled-pixels { width: auto; height: auto; margin: 1 0 0 0; border: round #3a4a55; color: #78c8ff;
               border-title-color: #c8d3da; background: #000000; }
#oled-text { height: auto; padding: 0 1; border: round #3a4a55; color: #78c8ff; border-title-color: #c8d3da;
             background: #000000; }
#message { height: auto; min-height: 2; color: #f0f0f0; text-style: bold; margin: 1 0 0 0; }
#legend { height: auto; color: #9fb0bb; margin: 1 0 0 0; }
#thinking-box { height: auto; max-height: 60%%; overflow-y: auto; scrollbar-size-vertical: 1; border: round #3a4a55;
                border-title-color: #c8d3da; scrollbar-background: #101418; scrollbar-color: #3a4a55; }
#thinking { height: auto; padding: 0 1; }
#log { height: 1fr; min-height: 4; border: round #3a4a55; border-title-color: #c8d3da; background: #101418;
       scrollbar-size-vertical: 1; scrollbar-background: #101418; scrollbar-color: #3a4a55; }
#audits { height: auto; padding: 0 1; border: round #3a4a55; border-title-color: #c8d3da; }
#too-small { display: none; width: 1fr; height: 1fr; content-align: center middle; text-align: center; color: #f0f0f0; text-style: bold; }
SettingsScreen { align: center middle; }
#settings-box { width: 78; height: auto; border: thick #47657a; background: #16202a; padding: 0 1; }
#settings-grid { grid-size: 2; grid-columns: 17 1fr; grid-rows: 1; grid-gutter: 1 0; height: auto; margin: 1 0; }
#settings-grid Label { color: #c8d3da; }
#settings-title { text-style: bold; }
#settings-error { color: #ff66cc; height: auto; }
#settings-buttons { height: 3; }
#settings-buttons Button { margin: 0 2 0 0; }
"""
    % SIDE_WIDTH
)


LONG_ROW = 11  # beside a row's TAKE button, a row longer than this at 2 columns a lamp passes 80 columns


def lamp_width(layout, row_buttons=False):
    """Columns per lamp: " ● " (3), " ●" (2) for long rows such as the ring's 16,
    or "●" (1) for a long row with its TAKE button beside it (Dr. NIM's 15, the
    count to 21 on one row), so that the face fits 80x24."""
    longest = max(layout)
    if longest <= 8:
        return 3
    return 1 if row_buttons and longest > LONG_ROW else 2


class LampWidget(Widget):
    """One round lamp: its glyph says what it is, its colour repeats it.

    The grid cursor is drawn as brackets, [●] (or ▸● in a narrow cell)."""

    can_focus = False

    def __init__(self, r, i, width=3):
        super().__init__(id="lamp-%d-%d" % (r, i))
        self.r = r
        self.i = i
        self.styles.width = width
        self.lamp = None
        self.cursor = False

    def show(self, lamp, cursor):
        if lamp != self.lamp or cursor != self.cursor:
            self.lamp = lamp
            self.cursor = cursor
            self.refresh()

    def render(self):
        lamp = self.lamp
        glyph = lamp.glyph if lamp else KINDS["dark"]
        style = (lamp.colour if lamp else "#5c5c5c") + (" bold" if lamp and lamp.on else "")
        text = Text()
        width = int(self.styles.width.value)
        if width == 1:  # a long row of lamps side by side: the cursor, where there is one, in reverse
            text.append(glyph, style=style + (" reverse" if self.cursor else ""))
            return text
        if width == 2:
            text.append("▸" if self.cursor else " ", style="bold #f0f0f0")
            text.append(glyph, style=style)
            return text
        inside = " " * ((width - 3) // 2)  # "[●]", "[ ● ]": the glyph in the middle of its cell
        text.append("[" + inside if self.cursor else " " + inside, style="bold #f0f0f0")
        text.append(glyph, style=style)
        text.append(inside + "]" if self.cursor else inside + " ", style="bold #f0f0f0")
        return text

    def on_click(self, event):
        event.stop()
        self.app.lamp_clicked(self.r, self.i)


def _lines(text, width):
    """How many lines ``text`` takes wrapped at ``width`` columns (its own line breaks kept)."""
    return sum(max(1, len(textwrap.wrap(line, width))) for line in text.split("\n"))


POSITION = re.compile(r"\d+(?:(?: | / )\d+)+")  # "3 4 5 7", 2-D Nim's "1011 / 1011": one piece, never broken


def wrap_log(text, width):
    """A log line wrapped at ``width`` columns, a position never broken
    mid-way ("→ 0 0 4 4" stays on one line, unless it is longer than a line:
    then it breaks between its numbers); continuation lines indented."""
    room = max(8, width) - 2  # a continuation line's indent
    kept = POSITION.sub(lambda m: m.group(0).replace(" ", "\0") if len(m.group(0)) <= room else m.group(0), text)
    lines = textwrap.wrap(kept, max(8, width), subsequent_indent="  ", break_on_hyphens=False) or [""]
    return [line.replace("\0", " ") for line in lines]  # the log's own indent ("  why ...") kept


HEADER_ROOM = (
    8 + 10 + len("NIMATRON — ")
)  # the header's icon and right margin (measured at 80), the title before the subtitle


def title(face, width=None):
    """The window's subtitle: the board and the game in words ("Pico: a strip of 32 lamps, row buttons · Nimatron, 1940");
    where that is too long for the header at ``width`` columns, the board by its short name ("Pico · The game of 21")."""
    board, game = face.words.board(face.board), face.words.preset(face.settings["preset"])
    whole = "%s · %s" % (board, game)
    if width is None or cell_len(whole) <= width - HEADER_ROOM:
        return whole
    return "%s · %s" % (board.split(":")[0], game)


def board_choices(words):
    """Settings' boards: (words, value), each by its name in words."""
    return [(words.board(n), n) for n in boards.names()]


def preset_choices(board, words):
    """Settings' presets: (words, value), each by its name, first the board's own, said which."""
    own = words.preset(boards.board(board)["preset"])
    return [(words.t("settings.own", preset=own), "")] + [(words.preset(n), n) for n in nsettings.PRESETS]


def difficulty_choices(words):
    """Settings' difficulties, each said what it does: "teaching — shows you a winning move when you wait"."""
    return [
        (words.t("difficulty.choice", name=words.t("difficulty." + d), about=words.t("difficulty.about." + d)), d)
        for d in nsettings.DIFFICULTIES
    ]


CHOICE_WIDTH = 55  # a Settings choice at 80 columns (the list's room, its arrow kept)


def _short(text, width=CHOICE_WIDTH):
    return text if len(text) <= width else text[: width - 1] + "…"


class SettingsScreen(ModalScreen):
    """Board, preset, rules, misère, difficulty, who starts: Apply restarts."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, board, overrides, muted=False, words=None):
        super().__init__()
        self.words = words
        self.board = board
        self.overrides = dict(overrides)
        self.muted = muted

    def compose(self) -> ComposeResult:
        o = self.overrides
        t = self.words.t
        misere = o.get("misere")
        keep = (t("settings.keep"), "")
        fields = [
            (t("settings.board"), "board", board_choices(self.words), self.board),
            (t("settings.preset"), "preset", preset_choices(self.board, self.words), o.get("preset", "")),
            (t("settings.rules"), "rules", self.rules_for(self.board), o.get("rules", "")),
            (
                t("settings.goal"),
                "misere",
                [keep, (t("settings.normal"), "off"), (t("settings.misere"), "on")],
                "" if misere is None else ("on" if misere else "off"),
            ),
            (t("settings.difficulty"), "difficulty", [keep] + difficulty_choices(self.words), o.get("difficulty", "")),
            (
                t("settings.first"),
                "first",
                [keep] + [(t("first." + f), f) for f in nsettings.FIRST],
                o.get("first", ""),
            ),
            (
                t("sim.settings.volume"),
                "volume",
                [keep] + [(t("sim.settings.mute") if v == 0 else str(v), str(v)) for v in range(11)],
                str(o["volume"]) if "volume" in o else "",
            ),
            (
                t("sim.settings.bell"),
                "bell",
                [(t("sim.settings.bell_on"), "on"), (t("sim.settings.bell_off"), "off")],
                "off" if self.muted else "on",
            ),
        ]
        with Vertical(id="settings-box"):
            yield Static(t("sim.settings.title"), id="settings-title")
            with Grid(id="settings-grid"):
                for words, key, choices, value in fields:
                    yield Label(words)
                    yield Select(choices, value=value, allow_blank=False, compact=True, id="set-" + key)
            yield Static("", id="settings-error")
            with Horizontal(id="settings-buttons"):
                yield Button(t("sim.settings.apply"), id="apply", variant="primary")
                yield Button(t("sim.settings.cancel"), id="cancel")

    def rules_for(self, board):
        """The rule sets a machine on ``board`` plays with the other settings
        (``engine.playable_rules``: the one registry, filtered), the current one kept."""
        self.rules_board = board
        others = dict(self.overrides)
        current = others.pop("rules", None)
        rules = playable_rules(board, others)
        if current and current not in rules:
            rules.append(current)
        return [(self.words.t("settings.keep"), "")] + [
            (_short(rules_words(r, self.words)), r) for r in rules
        ]  # in words, not ids

    def on_select_changed(self, event):
        if event.select.id == "set-board" and event.value != self.rules_board:  # another board, other rule sets
            self.query_one("#set-rules", Select).set_options(self.rules_for(event.value))
            preset = self.query_one("#set-preset", Select)
            chosen = preset.value
            preset.set_options(preset_choices(event.value, self.words))
            preset.value = chosen

    def on_mount(self):
        for button in self.query(Button):
            button.active_effect_duration = 0  # Apply answers every click, at once

    def chosen(self):
        """(board, overrides) as set on the screen; other overrides are kept."""
        out = dict(self.overrides)
        for key in ("preset", "rules", "difficulty", "first", "misere", "volume"):
            value = self.query_one("#set-" + key, Select).value
            out.pop(key, None)
            if value:
                out[key] = (value == "on") if key == "misere" else int(value) if key == "volume" else value
        return self.query_one("#set-board", Select).value, out

    def on_button_pressed(self, event):
        event.stop()
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        board, overrides = self.chosen()
        error = self.app.restart(board, overrides)
        if error:
            self.query_one("#settings-error", Static).update(self.words.refused(error))
        else:
            self.app.muted = self.query_one("#set-bell", Select).value == "off"
            self.dismiss(None)

    def action_cancel(self):
        self.dismiss(None)


class NimatronApp(App):
    """The Nimatron's face: lamps, buttons, status lamps, its working, a log."""

    TITLE = "NIMATRON"
    ENABLE_COMMAND_PALETTE = False
    AUTO_FOCUS = None  # nothing takes the keys: they all go to the machine
    CSS = CSS
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
        Binding("enter", "press('done')", "DONE"),
        Binding("n", "press('new')", "New game"),
        Binding("t", "toggle_thinking", "How it thinks"),
        Binding("s", "settings", "Settings"),
        Binding("o", "operator", "Operator menu"),
        Binding("m", "mute", "Mute bell"),
        Binding("space", "select", "Select", show=False),
        Binding("up", "cursor(-1, 0)", show=False),
        Binding("down", "cursor(1, 0)", show=False),
        Binding("left", "cursor(0, -1)", show=False),
        Binding("right", "cursor(0, 1)", show=False),
        # boards with their buttons built in (MacroPad, Circuit Playground)
        Binding("a", "press('a')", show=False),
        Binding("b", "press('b')", show=False),
        Binding("w", "press('slide')", show=False),
        Binding("left_square_bracket", "press('ccw')", show=False),
        Binding("right_square_bracket", "press('cw')", show=False),
        *[Binding(str(k + 1), "row(%d)" % k, show=False) for k in range(9)],
    ]

    GAME_ACTIONS = ("press", "row", "select", "cursor", "toggle_thinking", "settings", "operator", "mute")

    def __init__(self, face, *, realtime=True, thinking=None, clock=time.monotonic):
        """``face``: a Face; ``realtime``: drive the virtual clock from a
        timer (False: tests call ``advance``); ``thinking``: show the
        panel (default: when the preset explains itself, as Nimrod);
        ``clock``: seconds, the wall clock the virtual one follows."""
        super().__init__()
        self._worded = self.worded_bindings(face.words)
        self._bindings = BindingsMap(self._worded)
        self.face = face
        self.realtime = realtime
        self.clock = clock
        self.show_thinking = face.settings["explain"] if thinking is None else thinking
        self.cursor = (0, 0)
        self._logged = 0
        self._wall = None  # a WallClock while the clock runs in real time
        self._squeeze = 0  # 1: rows of lamps closed up, 2: no blank lines either (``_fit``)
        self._roomy = False  # a large terminal: wide lamps, a wide side panel (``_use_room``)
        self._small = False  # "the terminal is too small" shows: only Q acts
        self._shown = {}
        self.muted = False  # the terminal bell (M, the settings): the ♪ words show either way
        self._heard = face.sounds
        self.bells = 0  # bells rung (tests)

    def worded_bindings(self, words):
        """The keys, their footer words in the visitor's language ("sim.key.quit"...)."""
        return [
            Binding(
                b.key,
                b.action,
                words.t("sim.key." + b.description.lower().replace(" ", "_")) if b.description else "",
                show=b.show,
                priority=b.priority,
            )
            for b in self.BINDINGS
        ]

    @property
    def t(self):
        return self.face.t

    # -- layout -------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header(icon="●")
        with Horizontal(id="body"):
            with VerticalScroll(id="face", can_focus=False):
                with Grid(id="status-lamps"):
                    for role in STATUS_ROLES:
                        yield Static(self.t("status." + role), id="status-" + role, classes="status-lamp")
                yield Static("", id="rules-line")
                yield Vertical(id="lamps")
                with Horizontal(id="controls"):
                    yield Button("⏎ " + self.t("done"), id="done")
                    yield Button("N " + self.t("new"), id="new")
                yield Static("", id="sound", markup=False)
                yield Static("", id="oled-pixels", markup=False)
                yield Static("", id="message")
                yield Static("", id="legend", markup=False)
            with Vertical(id="side"):
                with VerticalScroll(id="thinking-box", can_focus=False):  # a long panel scrolls, with a bar
                    yield Static("", id="thinking")
                yield Static("", id="oled-text", markup=False)
                yield RichLog(id="log", wrap=True, markup=False, max_lines=500, min_width=20)
                yield Static("", id="audits")
        yield Static("", id="too-small")
        yield Footer(compact=True)

    def lamp_cell(self):
        """Columns per lamp on screen: ``lamp_width``, or ROOMY_LAMP in a roomy terminal."""
        return ROOMY_LAMP if self._roomy else lamp_width(self.face.layout, self.face.input_model == "rows")

    def _lamp_rows(self):
        face = self.face
        rows = []
        for r, n in enumerate(face.layout):
            children = [Static(row_label(r), classes="row-label")]
            width = self.lamp_cell()
            children += [LampWidget(r, i, width) for i in range(n)]
            if n < max(face.layout):  # short rows (1-3-5-7): counts and buttons stay in a column
                spacer = Static("", classes="row-spacer")
                spacer.styles.width = width * (max(face.layout) - n)
                children.append(spacer)
            children.append(Static("", id="count-%d" % r, classes="row-count"))
            if face.input_model == "rows" and "row%d" % r in face.roles:
                key = str(r + 1) if r < 9 else " "
                children.append(Button("%s %s" % (key, self.t("take")), id="row-%d" % r, classes="row-button"))
            rows.append(Horizontal(*children, classes="lamp-row"))
        return rows

    async def on_mount(self):
        for button in self.query(Button):
            button.can_focus = False  # every key goes to the machine, never to a focused button
            button.active_effect_duration = 0  # a quick second click is a second press
        self.query_one("#log", RichLog).can_focus = False
        t = self.t
        self.query_one("#thinking-box").border_title = t("sim.title.thinking")
        self.query_one("#log", RichLog).border_title = t("log.title")
        self.query_one("#audits", Static).border_title = t("sim.title.session")
        self.query_one("#oled-pixels", Static).border_title = t("sim.title.oled_pixels")
        self.query_one("#oled-text", Static).border_title = t("sim.title.oled_text")
        await self._build_lamps()
        if self.realtime:
            self._wall = WallClock(self.clock, MAX_STEP_MS)
            self.set_interval(TICK_S, self._tick)
        self.refresh_face()
        self._check_size()

    async def _build_lamps(self):
        container = self.query_one("#lamps", Vertical)
        await container.remove_children()
        await container.mount(*self._lamp_rows())
        self._squeeze = 0
        container.set_class(len(self.face.layout) <= 4, "spaced")
        container.set_class(self._roomy and len(self.face.layout) <= 4, "roomy")
        self.query_one("#face").set_class(False, "tight")
        for button in container.query(Button):
            button.can_focus = False
            button.active_effect_duration = 0
        self._lamp_widgets = {(w.r, w.i): w for w in self.query(LampWidget)}
        self.cursor = (0, 0)
        self._shown = {}
        self.sub_title = title(self.face, self.size.width)
        self.query_one("#legend", Static).update(self._legend())
        self.query_one("#thinking-box").display = self.show_thinking
        self._heard = self.face.sounds

    def _legend(self):
        t = self.t
        kinds = ["lit", "taken", "selected", "hint", "taking", "refused", "dark"]
        keys = ""
        if not self.face.controller.rules.removes:  # Grundy's game moves lamps: none is ever taken
            kinds.remove("taken")
        if self.face.input_model == "rows":
            kinds.remove("selected")
        else:
            keys = "\n" + t("sim.legend.grid", cursor="▸" if self.lamp_cell() == 2 else "[ ]")
        for line in self.face.rows_words():  # rows that are not heaps: Candy Nim's tallies, Building Nim's supply
            keys += "\n" + line
        if self.face.sim.spec["lamps"].get("shape") == "ring" and not self.face.settings.get("counter"):
            keys += "\n" + t("sim.legend.ring")
        spec = self.face.sim.spec
        if spec.get("cursor"):
            keys = "\n" + t("sim.legend.cursor")
        elif spec.get("encoder"):
            keys += "\n" + t("sim.legend.encoder")
        if self.face.has_speaker():
            keys += "\n" + t("sim.legend.sound")
        counter = self.face.counter_words()
        if counter:
            keys += "\n" + counter
            kinds.remove("taken")
        return "  ".join("%s %s" % (KINDS[k], t("kind." + k)) for k in kinds) + keys

    # -- size ---------------------------------------------------------------------
    def needed_size(self):
        """(columns, lines) the face, its side panel and the key bar (whole) need:
        the face closed up (``_fit``), its words wrapped as they will be."""
        face = self.face
        layout = face.layout
        lamps = (
            3
            + lamp_width(layout, face.input_model == "rows") * max(layout)
            + 4
            + (11 if face.input_model == "rows" else 0)
        )
        width = max(max(38, lamps) + 2 + SIDE_WIDTH + 1, self.key_bar_width())
        room = width - SIDE_WIDTH - 2 - 1  # the face's text: inside its padding and its scrollbar's gutter
        words = [face.rules_line(), self._legend()]
        # the words under the lamps: as long as the visitor's turn (not what shows now:
        # the size asked must not change with the game, or "too small" would come and go)
        lines = 1 + 2 + len(layout) + 1 + (1 if face.has_speaker() else 0) + 1  # title, status, lamps, buttons, ♪, keys
        lines += sum(_lines(text, room) for text in words) + max(2, _lines(self._turn_words(), room))
        return width, lines

    def _turn_words(self):
        """The longest words under the lamps in a game: the visitor's turn (with a hint, when it teaches)."""
        face, t = self.face, self.t
        if face.input_model == "rows":
            text = t("sim.say.rows", keys="1-%d" % len(face.layout))
        else:
            text = t("sim.say.cursor" if face.sim.spec.get("cursor") else "sim.say.grid")
        return text + (" " + t("sim.say.hint") if face.settings["difficulty"] == "teach" else "")

    def key_bar_width(self):
        """Columns the key bar needs to show every key and its words, compact: "q Quit ⏎ DONE ..."."""
        shown = [b for b in self._worded if b.show and b.description]
        return sum(cell_len(self.get_key_display(b)) + 1 + cell_len(b.description) + 1 for b in shown) - 1

    def _use_room(self, size):
        """A large terminal (ROOMY: a 200x60 one) gets wide lamps, rows further
        apart and a side panel a third of the width (a longer log, longer lines)."""
        width, height = size
        roomy = width >= ROOMY[0] and height >= ROOMY[1]
        self.query_one("#side").styles.width = max(SIDE_WIDTH, width // 3) if roomy else SIDE_WIDTH
        if roomy != self._roomy:
            self._roomy = roomy
            self.call_later(self._rebuilt)

    def on_resize(self, event):
        self._use_room(event.size)
        self._check_size(event.size)
        if getattr(self, "_squeeze", 0):  # more room: start from the roomy face again
            self._squeeze = 0
            self.query_one("#lamps").set_class(len(self.face.layout) <= 4, "spaced")
            self.query_one("#face").set_class(False, "tight")
        self.call_after_refresh(self._fit)

    def _fit(self):
        """Longer words (Spanish, Russian) or a long legend (the Circuit
        Playground's) must not push the face into a scroll: first the rows
        of lamps close up, then the blank lines between the parts go."""
        face = self.query_one("#face")
        if face.max_scroll_y <= 0 or self._squeeze >= 2:
            return
        self._squeeze += 1
        if self._squeeze == 1 and self.query_one("#lamps").has_class("spaced"):
            self.query_one("#lamps").set_class(False, "spaced")
        else:
            self._squeeze = 2
            face.set_class(True, "tight")
        self.call_after_refresh(self._fit)

    def _check_size(self, size=None):
        width, height = size or self.size
        need_w, need_h = self.needed_size()
        small = width < need_w or height < need_h
        note = self.query_one("#too-small", Static)
        if small:
            note.update(self.t("sim.too_small", w=width, h=height, need_w=need_w, need_h=need_h))
        note.display = small
        self.query_one("#body").display = not small
        if small != self._small:
            self._small = small
            self.refresh_bindings()  # the key bar shows only Q while the face is hidden

    # -- the clock ------------------------------------------------------------------
    def _tick(self):
        whole = self._wall.due()
        if whole:
            self.face.advance(whole)
        self.refresh_face()

    def advance(self, ms):
        """Run the machine ``ms`` virtual milliseconds and redraw (tests, screenshots)."""
        self.face.advance(ms)
        self.refresh_face()

    def tap(self, role):
        """Press one of the machine's buttons through the simulator."""
        spent = self.face.tap(role)
        if self._wall is not None:
            self._wall.spent(spent)
        self.refresh_face()

    # -- actions: keys and clicks -----------------------------------------------------
    def check_action(self, action, parameters):
        # the settings screen has the keys; a hidden face takes none (Q still quits)
        return not (action in self.GAME_ACTIONS and (isinstance(self.screen, ModalScreen) or self._small))

    def action_press(self, role):
        self.tap(role)

    def action_operator(self):
        """DONE and NEW GAME held together 5 s: the operator menu."""
        spent = self.face.chord()
        if self._wall is not None:
            self._wall.spent(spent)
        self.refresh_face()

    def action_row(self, row):
        role = "row%d" % row
        if self.face.input_model == "rows" and role in self.face.roles:
            self.tap(role)

    def action_cursor(self, dr, di):
        if self.face.input_model != "grid":
            return
        layout = self.face.layout
        r = (self.cursor[0] + dr) % len(layout)
        i = min(max(0, self.cursor[1] + di), layout[r] - 1)
        self.cursor = (r, i)
        self.refresh_face()

    def action_select(self):
        if self.face.input_model == "grid":
            self.tap("key %d %d" % self.cursor)

    def lamp_clicked(self, r, i):
        if isinstance(self.screen, ModalScreen) or self._small:
            return
        if self.face.input_model == "grid":
            self.cursor = (r, i)
            self.tap("key %d %d" % (r, i))

    def on_button_pressed(self, event):
        button = event.button.id or ""
        if button in ("done", "new"):
            self.tap(button)
        elif button.startswith("row-"):
            self.action_row(int(button[4:]))

    def action_toggle_thinking(self):
        self.show_thinking = not self.show_thinking
        self.query_one("#thinking-box").display = self.show_thinking
        self._shown.pop("thinking", None)
        self.refresh_face()
        self._check_size()

    def action_settings(self):
        self.push_screen(SettingsScreen(self.face.board, self.face.overrides, self.muted, self.face.words))

    def action_mute(self):
        self.muted = not self.muted
        self.face._note = (self.face.now + 2000, self.t("sim.bell_muted" if self.muted else "sim.bell_on"))
        self.refresh_face()

    def restart(self, board, overrides):
        """A new simulator with these settings; the error in words, or None."""
        try:
            face = Face(board, overrides, audits=self.face.audits(), lang=self.face.words.lang)
        except ValueError as e:  # BoardError, SettingsError, PanelError, DriverError
            return str(e).split("\n")[0]
        old, self.face = self.face, face
        old.close()
        self._lamp_widgets = {}  # the old board's lamps: never drawn with the new layout
        self._logged = 0
        self.query_one("#log", RichLog).write(
            Text(
                self.t(
                    "sim.log.settings", board=face.words.board(board), preset=face.words.preset(face.settings["preset"])
                ),
                style="dim",
            )
        )
        if face.settings["explain"]:
            self.show_thinking = True
        self.call_later(self._rebuilt)
        return None

    async def _rebuilt(self):
        await self._build_lamps()
        self.refresh_face()
        self._check_size()

    # -- drawing ------------------------------------------------------------------
    def _set(self, key, widget_id, content):
        if self._shown.get(key) != content:
            self._shown[key] = content
            self.query_one(widget_id, Static).update(content)
            if widget_id in ("#message", "#sound") and self._squeeze < 2:  # a longer line: does the face still fit?
                self.call_after_refresh(self._fit)

    def refresh_face(self):
        face = self.face
        named = title(face, self.size.width)
        if self.sub_title != named:  # the operator menu, or SET over the link, changed the preset
            self.sub_title = named
        lamps = face.lamps()
        widgets = getattr(self, "_lamp_widgets", {})
        grid = face.input_model == "grid"
        panel = face.controller.panel
        presses = getattr(face.controller.io, "presses", None)
        if presses is not None and presses.move:  # the board's own cursor, as its pixels blink
            self.cursor = presses.shown(face.sim.now) or (-1, -1)
        for r, row in enumerate(lamps):
            for i, lamp in enumerate(row):
                widget = widgets.get((r, i))
                if widget is not None:
                    widget.show(lamp, grid and self.cursor == (r, i))
            if (r, 0) in widgets:  # lamps still in play, in figures (a counter: the count)
                shown = "%3d" % sum(panel.lit[r]) if panel else ""
                if face.counter() is not None:  # beside the row of its first bit alone
                    shown = " =%2d" % panel.count if r == panel.bit_lamps[0][0] else ""
                self._set("count-%d" % r, "#count-%d" % r, shown)
        status = face.status()
        for role in STATUS_ROLES:
            on = status[role]
            if self._shown.get("status-" + role) != on:
                self._shown["status-" + role] = on
                widget = self.query_one("#status-" + role, Static)
                widget.update(("■ " if on else "□ ") + self.t("status." + role))
                widget.set_class(on, "on")
        self._set("rules", "#rules-line", face.rules_line())
        self._set("message", "#message", face.message())
        self._speaker(face)
        self._board_display(face)
        if self.show_thinking:
            self._set("thinking", "#thinking", "\n".join(face.reasoning()))
        audits = face.audits()
        self._set("audits", "#audits", self.t("sim.audits", **audits))
        if self._logged < len(face.log):
            log = self.query_one("#log", RichLog)
            width = log.scrollable_content_region.width - 1  # the scrollbar's column kept free
            for style, line in face.log[self._logged :]:
                shown = "\n".join(wrap_log(line, width)) if width > 8 else line
                log.write(Text(shown, style=LOG_STYLES.get(style, "")))
            self._logged = len(face.log)

    def _speaker(self, face):
        """The ♪ words beside the buttons; the bell for new fanfares and refusals."""
        words = face.sound_words()
        if words is not None and self.muted and words.startswith("♪ ") and self.face.settings.get("volume", 1):
            words += " " + self.t("sim.bell_muted_note")
        self._set("sound", "#sound", words or "")
        self._show_widget("#sound", words is not None)
        if face.sounds != self._heard:
            self._heard = face.sounds
            if face.sound and face.sound[1] in BELL_SOUNDS and not self.muted:
                self.bells += 1
                self.bell()

    def _board_display(self, face):
        """The board's display: its pixels in braille where the face has room, else its text."""
        shown = face.display_text() is not None
        wide = shown and self.query_one("#face").size.width >= OLED_COLUMNS
        self._show_widget("#oled-pixels", wide)
        self._show_widget("#oled-text", shown and not wide)
        if not shown:
            return
        if wide:
            # displayio redraws only when the driver's text changes: convert the pixels then
            key = tuple(face.display_text() or ())
            if self._shown.get("oled-drawn") != key:
                self._shown["oled-drawn"] = key
                self._set("oled-pixels", "#oled-pixels", "\n".join(braille(face.display_pixels())))
        else:
            self._set("oled-text", "#oled-text", "\n".join(face.display_text() or []))

    def _show_widget(self, widget_id, on):
        if self._shown.get("show" + widget_id) != on:
            self._shown["show" + widget_id] = on
            self.query_one(widget_id).display = on

    def on_unmount(self):
        self.face.close()


def open_face(args):
    """The Face for the command line, or UsageError in one line."""
    from nimatron_pc.errors import UsageError

    from .options import overrides

    try:
        return Face(args.board, overrides(args), args.seed, lang=getattr(args, "lang", None) or "en")
    except ValueError as e:  # BoardError, SettingsError, PanelError, DriverError
        raise UsageError(str(e).split("\n")[0]) from e


async def _screenshot(app, size):
    async with app.run_test(size=size) as pilot:
        app.tap("new")
        for role in _screenshot_move(app.face):
            app.tap(role)
        app.advance(app.face.settings["think_ms"] + 100)  # the machine shows its move: ✕ lamps, lit
        await pilot.pause()
        return app.export_screenshot(title="nimatron sim")


def _screenshot_move(face):
    """The visitor's presses for the picture: two lamps from row D, or on a
    board without row buttons the last lamp (by its key, or the cursor)."""
    if "row3" in face.roles:
        return ("row3", "row3", "done")
    cursor = face.sim.spec.get("cursor")
    if cursor:
        return (cursor["select"], "done")
    lit = face.controller.panel.lit
    r = max(k for k in range(len(lit)) if any(lit[k]))
    return ("key %d %d" % (r, max(i for i in range(len(lit[r])) if lit[r][i])), "done")


def with_display(svg, png_bytes, scale=2):
    """The SVG with the board's display (a PNG) added below the terminal."""
    import base64
    import re

    found = re.search(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"', svg)
    if not found:
        return svg
    width, height = float(found.group(1)), float(found.group(2))
    extra = 64 * scale + 40
    svg = svg.replace(found.group(0), 'viewBox="0 0 %g %g"' % (width, height + extra), 1)
    picture = (
        '<rect x="0" y="%g" width="%g" height="%g" fill="#101418"/>'
        '<text x="20" y="%g" fill="#c0c0c0" font-family="monospace" font-size="14">the board\'s OLED, as displayio drew it</text>'
        '<image x="20" y="%g" width="%d" height="%d" href="data:image/png;base64,%s"/>'
        % (
            height,
            width,
            extra,
            height + 22,
            height + 30,
            128 * scale,
            64 * scale,
            base64.b64encode(png_bytes).decode("ascii"),
        )
    )
    cut = svg.rfind("</svg>")
    return svg[:cut] + picture + svg[cut:]


def screenshot(args):
    """Save an SVG of the face mid-game (``nimatron sim --screenshot PATH``):
    the visitor has taken two lamps from row D, the machine shows its reply.
    A board with a display (the MacroPad's OLED) adds its pixels below;
    ``PATH.png`` saves only the display's pixels."""
    import asyncio
    import os

    from nimatron_pc.errors import UsageError

    face = open_face(args)
    path = args.screenshot
    if path.lower().endswith(".png") and face.display_pixels() is None:
        face.close()
        raise UsageError("a .png screenshot saves a board's display; board %s has none (use .svg)" % face.board)
    app = NimatronApp(face, realtime=False, thinking=True)
    width, height = app.needed_size()
    svg = asyncio.run(_screenshot(app, (max(100, width), max(30, height))))
    pixels = face.display_pixels()
    data = svg.encode("utf-8")
    if pixels is not None:
        from .oled_mock import png

        data = png(pixels) if path.lower().endswith(".png") else with_display(svg, png(pixels)).encode("utf-8")
    folder = os.path.dirname(path)
    if folder and not os.path.isdir(folder):
        raise UsageError("cannot write %s: the folder %s does not exist" % (path, folder))
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as e:
        raise UsageError("cannot write %s: %s" % (path, e.strerror or e)) from e
    print(path)
    return 0


def run(args):
    """The interactive simulator in this terminal (the non-headless branch)."""
    import os
    import sys

    from nimatron_pc.errors import UsageError

    if getattr(args, "screenshot", None):
        return screenshot(args)
    face = open_face(args)
    if not os.environ.get("TEXTUAL_DRIVER") and not (sys.stdin.isatty() and sys.stdout.isatty()):
        face.close()
        raise UsageError("the interactive simulator needs a terminal; use --headless --script FILE, or --web")
    app = NimatronApp(face, thinking=True if getattr(args, "thinking", False) else None)
    app.run()
    return app.return_code or 0
