# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The game flow: attract, the visitor's turn, the machine thinking, its move
shown, game over; polled from one main loop with the time passed in.

    controller = Controller(io, settings.resolve(), layout=[7, 7, 7, 7])
    while True:
        controller.update(now_ms())

No sleeps and no threads: every timer is a difference of ``now_ms`` values,
so tests run a simulated minute in milliseconds. ``io`` is the port of
``nimatron.machine.ports``; ``listener`` (optional) receives each game event as a
dict (``move``, ``refused``, ``hint``, ``new_game``, ``game_over``).

Read-only attributes front ends may rely on (the simulator's face, the
serial link): ``state``, ``rules``, ``misere``, ``settings``, ``layout``,
``audits``, ``panel`` (``panel.lit``: the lamps in play), ``taken`` and
``turn_row`` (this turn's presses on a row board), ``selected`` (grid
selection), ``hint`` (lamps of the teaching hint), ``machine_after`` and
``machine_out`` (the machine's chosen position and the lamps it takes),
``refused`` and ``refused_at`` (the last refusal's lamps and time).
``alarm`` (set by ``nimatron.machine.startup``): ``"settings"`` (started on
fallback settings, or something stored was lost), ``"store"`` (saves are
failing; until one succeeds) or ``"fault"`` (rebuilt after an unexpected
exception, until the next game): a double blink of a status lamp in
attract mode (MACHINE for a fault, MACHINE WINS for the others).
"""

from ..games.rules import parse_rules
from ..panels.panel import make_panel
from ..panels.playable import check_games
from .audits import Audits
from .debounce import Debouncer
from .ports import (ATTRACT, attract_lamps, blinks_on, double_blink, HINT, LIT, OFF, OVER, QUICK_MS, REFUSED,
                    SECOND_MS, SELECTED, SERVICE, SHOWING, SLOW_MS, TAKE_MS, TAKING, THINKING, VISITOR)
from .switches import Switches
from .turns import MachineTurn, Rng, VisitorTurn, check_input, prepare

OVER_GUARD_MS = 1500  # a winner's stray press does not wipe NIM CHAMP at once
UNSHOWN = -1          # no lamp state: the first frame always differs from what was "shown"


class Controller(VisitorTurn, MachineTurn):
    """The game flow and its lamps; the two players' turns are in ``turns``.

    Every attribute is born in ``__init__`` (tests/test_controller_state.py
    checks it, for the turns' methods too): read it to know the whole state."""

    def __init__(self, io, settings, layout, input_model="rows", listener=None, now_ms=0, audits=None, limit=None):
        # -- the machine and its settings --
        self.io = io
        self.limit = limit  # f(settings) -> lamp brightness, or PowerError (app.make_controller)
        self.settings = settings
        self.layout = list(layout)
        self.input_model = input_model
        self.listener = listener
        self.rules = parse_rules(settings["rules"])
        self.misere = settings["misere"]
        check_input(input_model, self.rules, settings)
        check_games(self.rules, self.misere, self.layout, settings["starts"],
                    settings.get("counter", False))  # or ValueError now
        prepare(self.rules, settings)
        self._pending = None       # (rules, misere) chosen mid-game: from the next game
        self.debouncer = Debouncer(settings["debounce_ms"])
        self.rng = Rng(settings["seed"])
        self.audits = audits if audits is not None else Audits()  # nimatron.machine.audits: saved per game
        # A driver that must follow the game (a cursor over the lamps, sound,
        # a display) has ``io.watch(controller, now_ms)``, called every loop.
        self._watch = getattr(io, "watch", None)
        self.switches = Switches(self)  # stuck buttons, Check Switch, the operator's chord
        self.alarm = None          # set by nimatron.machine.startup (module docstring)
        self.menu = None           # the operator menu while it is open
        self.save = None           # settings -> True once durable (the operator menu's adjustments)
        # -- the game --
        self.state = ATTRACT
        self.since = now_ms        # when ``state`` began
        self.now = now_ms          # the last update's time
        self.games = 0             # games begun since power-up (which start, who plays first)
        self.panel = None          # the lamps in play (nimatron.panels), None in attract mode
        self.winner = None
        self.last_move = None      # (by, before, after)
        self.equalized = False     # the equalizer's one gentle move made this game
        # -- this turn (``_reset_turn`` begins each one afresh) --
        self.turn_start = None     # (heaps, ring) when the turn began
        self.turn_row = None       # the row a row board's presses take from
        self.taken = []            # lamps taken this turn, row board
        self.selected = []         # lamps selected, grid board
        self.refused = []          # the last refusal's lamps ...
        self.refused_at = None     # ... and when (they flash until refuse_ms after)
        self.hint = None           # lamps of the teaching hint ([]: no winning move to show)
        self.last_input = now_ms
        self.asking = None         # "still playing?" shown since this time
        # -- the machine's move (``turns.MachineTurn``) --
        self.machine_after = None  # the position it chose; None while it searches
        self.machine_out = []      # the lamps it takes ...
        self.machine_light = []    # ... and lights (Building Nim: where the stone lands)
        self._slip = None          # fallible: this turn's draw, True for a random move
        # -- the lamps: one frame filled in place each pass, copied to the shown one
        # when it differs. No garbage per pass: a collection delays a press's lamp (issue 27).
        self._lamps = [[OFF] * n for n in self.layout]
        self._status = {"visitor": 0, "machine": 0, "champ": 0, "machine_wins": 0}
        self._shown_lamps = [[UNSHOWN] * n for n in self.layout]  # what io.show was last given
        self._shown_status = {"visitor": UNSHOWN, "machine": UNSHOWN, "champ": UNSHOWN, "machine_wins": UNSHOWN}
        self._count = 0            # lamps on the board (NIM CHAMP's running lamp)
        for n in self.layout:
            self._count += n

    def apply_settings(self, settings):
        """Adopt new checked settings (``settings.resolve``) from the operator.

        Timings and difficulty apply at once; rules, starts and misère play
        from the next game. Raises PanelError (and changes nothing) if the
        new games would not fit this board's lamps or buttons.
        """
        rules = self.check_settings(settings)
        level = self.limit(settings) if self.limit else None  # over the power budget: refused here
        prepare(rules, settings)
        if level is not None and hasattr(self.io, "set_brightness"):
            self.io.set_brightness(level)
        if self.state in (ATTRACT, OVER) or self.panel is None:
            self.rules = rules
            self.misere = settings["misere"]
        else:
            self._pending = (rules, settings["misere"])
        self.settings = settings
        self.debouncer.ms = settings["debounce_ms"]

    def check_settings(self, settings):
        """The new rules, or PanelError if the games would not fit this board."""
        rules = parse_rules(settings["rules"])
        check_input(self.input_model, rules, settings)
        check_games(rules, settings["misere"], self.layout, settings["starts"], settings.get("counter", False))
        if self.limit:
            self.limit(settings)  # over the power budget: refused
        return rules

    # -- the main loop ------------------------------------------------------
    def update(self, now_ms):
        """Poll inputs, run timers, refresh the lamps. Never blocks."""
        self.now = now_ms
        if self._watch is not None:
            self._watch(self, now_ms)
        for role, pressed in self.io.events():
            self.debouncer.feed(role, pressed, now_ms)
        self.switches.update(now_ms)
        for role, pressed in self.debouncer.update(now_ms):
            if not self.switches.edge(role, pressed, now_ms):
                continue  # a stuck button, or a chord forming
            if self.menu is not None:
                self.menu.edge(role, pressed, now_ms)
            elif pressed:
                self.press(role, now_ms)
        self._timers(now_ms)
        self._render(now_ms)

    def service(self, on, now, by="link"):
        """Open (``on``) or close the operator menu; ``by`` says who or why."""
        if on and self.menu is None:
            from .service import Menu

            self._abandon()
            self.panel = None
            self.menu = Menu(self, now, by)
            self._enter(SERVICE, now)
            self._emit({"event": "service", "open": True, "by": by})
        elif not on and self.menu is not None:
            self.menu = None
            self._enter(ATTRACT, now)
            self._emit({"event": "service", "open": False, "by": by})

    def press(self, role, now):
        """One debounced press of a button or key."""
        if self.menu is not None:
            self.menu.tap(role, now)
        elif self.state == VISITOR and self.asking is not None:
            self.asking = None  # "still playing?" answered: this press only says yes
            self.last_input = now
            self._emit({"event": "still_playing", "answer": "yes"})
        elif role == "new":
            self.new_game(now)
        elif self.state == ATTRACT:
            self.new_game(now)
        elif self.state == OVER:
            if now - self.since >= OVER_GUARD_MS:
                self.new_game(now)
        elif self.state == VISITOR:
            self.last_input = now
            self.hint = None
            if role == "done":
                self._done(now)
            elif role[:3] == "row" and self.input_model == "rows":
                self._row(role, now)
            elif role[:4] == "key " and self.input_model == "grid":
                self._key(role, now)
        # THINKING, SHOWING: ignored, never queued into the next turn.

    # -- game flow ------------------------------------------------------------
    def new_game(self, now):
        if self.menu is not None:
            self.service(False, now, "new game")
        self._abandon(replaced=True)
        if self._pending:
            self.rules, self.misere = self._pending
            self._pending = None
        starts = self.settings["starts"]
        start = starts[self.games % len(starts)]
        self.panel = make_panel(self.rules, self.layout, start, None, self.settings.get("counter", False))
        self.games += 1
        self.audits.game_started(self.settings["preset"])
        if self.alarm == "fault":
            self.alarm = None  # shown until someone plays again
        self.equalized = False
        self.winner = None
        self.last_move = None
        first = self.settings["first"]
        if first == "alternate":
            first = "visitor" if self.games % 2 else "machine"
        heaps, ring = self.panel.position()
        self._emit({"event": "new_game", "position": heaps, "ring": ring, "first": first,
                    "rules": self.rules.spec, "misere": self.misere})
        self._reset_turn(now)
        if first == "machine":
            self._think(now)
        else:
            self._enter(VISITOR, now)

    def _abandon(self, replaced=False):
        if self.state in (VISITOR, THINKING, SHOWING) and self.panel is not None:
            if replaced and self.last_move is None and not self.taken and not self.selected:
                # NEW again before anyone touched a lamp: not a game, and no write
                # (1,000 NEWs over the link once wrote 999 abandoned games to flash)
                self.audits.game_withdrawn()
                self._emit({"event": "game_over", "winner": "abandoned", "counted": False})
                return
            self.audits.game_ended("abandoned")  # counted (and saved) before anyone hears of it
            self._emit({"event": "game_over", "winner": "abandoned"})

    def position(self):
        """(heaps, ring) of the game in play, or None in attract mode."""
        return self.panel.position() if self.panel else None

    def _enter(self, state, now):
        self.state = state
        self.since = now

    def _reset_turn(self, now):
        self.turn_start = self.panel.position() if self.panel else None
        self.turn_row = None
        self.taken = []
        self.selected = []
        self.refused = []
        self.refused_at = None
        self.hint = None
        self.last_input = now
        self.asking = None  # "still playing?" shown since this time

    def _refuse(self, reason, lamps, now):
        self.refused = lamps
        self.refused_at = now
        self._emit({"event": "refused", "reason": reason})

    def _commit(self, now):
        before = self.turn_start[0]
        after = self.panel.position()[0]
        self._tell_panel("visitor", before, after)
        self._emit({"event": "move", "by": "visitor", "before": before, "after": after})
        self.last_move = ("visitor", before, after)
        if not self.rules.has_move(after, False):
            self._finish("visitor", now)
        else:
            self._think(now)

    def _tell_panel(self, by, before, after):
        """A panel that keeps score (Candy Nim's tallies) hears who moved."""
        moved = getattr(self.panel, "moved", None)
        if moved is not None:
            moved(by, before, after)

    def _finish(self, last, now):
        other = "machine" if last == "visitor" else "visitor"
        self.winner = other if self.misere else last
        if last == "visitor":
            self._render(now)  # the visitor's last lamp goes out before the audits' write (a flash sector)
        self.audits.game_ended(self.winner)  # counted (and saved) before anyone hears of it
        self.switches.finished()
        self._emit({"event": "game_over", "winner": self.winner})
        self._enter(OVER, now)

    def _timers(self, now):
        if self.menu is not None:
            self.menu.update(now)
            return
        s = self.settings
        if self.refused_at is not None and now - self.refused_at >= s["refuse_ms"]:
            self.refused_at = None
            self.refused = []
        elapsed = now - self.since
        if self.state == THINKING:
            if self._decide() and elapsed >= s["think_ms"]:  # a long search thinks longer, tick by tick
                self._enter(SHOWING, now)
        elif self.state == SHOWING and elapsed >= s["show_ms"]:
            self._machine_moved(now)
        elif self.state == OVER and elapsed >= s["over_ms"]:
            self.panel = None
            self._enter(ATTRACT, now)
        elif self.state == VISITOR:
            self._visitor_idle(now)

    def _visitor_idle(self, now):
        """A visitor who stops pressing: the teaching hint, "still playing?", then walked away."""
        s = self.settings
        idle = now - self.last_input
        ask = min(s["still_ms"], s["walkaway_ms"] // 2)
        if idle >= s["walkaway_ms"]:
            self._abandon()
            self.panel = None
            self._enter(ATTRACT, now)
        elif ask and self.asking is None and idle >= s["walkaway_ms"] - ask:
            self.asking = now
            self._emit({"event": "still_playing", "seconds": self._seconds_left(now)})
        elif (s["difficulty"] == "teach" and self.hint is None and not self.taken
              and not self.selected and idle >= s["hint_ms"]):
            self._hint()

    # -- lamps ------------------------------------------------------------
    def frame(self, now):
        """(lamps, status) as they should look at ``now``: new lists and a new
        dict, the caller's to keep; what the lamps show is not changed."""
        self._fill(now)
        return [row[:] for row in self._lamps], dict(self._status)

    def _render(self, now):
        self._fill(now)
        if self._publish():
            self.io.show(self._shown_lamps, self._shown_status)

    def _publish(self):
        """Copy this pass's frame into the shown one; True if any lamp changed.
        The shown frame changes only here, just before io.show is given it."""
        changed = False
        lamps, shown = self._lamps, self._shown_lamps
        for r in range(len(lamps)):
            row, old = lamps[r], shown[r]
            for i in range(len(row)):
                if old[i] != row[i]:
                    old[i] = row[i]
                    changed = True
        status, old = self._status, self._shown_status
        for role in status:
            if old[role] != status[role]:
                old[role] = status[role]
                changed = True
        return changed

    def _fill(self, now):
        """This pass's frame, written into ``_lamps`` and ``_status``."""
        if self.menu is not None:
            self._copy_in(self.menu.frame(now))
            return
        if self.state == ATTRACT or self.panel is None:
            attract_lamps(self._lamps, self._status, now)
            if self.alarm:  # "settings", "store" or "fault": a double blink
                self._status["machine" if self.alarm == "fault" else "machine_wins"] = double_blink(now)
        else:
            self._fill_game(now)
        if self.switches.stuck and self.state != OVER:
            self._status["machine_wins"] = double_blink(now)

    def _copy_in(self, frame):
        """A frame made elsewhere (the operator menu's) into this pass's."""
        lamps, status = frame
        for r in range(len(lamps)):
            row, into = lamps[r], self._lamps[r]
            for i in range(len(row)):
                into[i] = row[i]
        for role in status:
            self._status[role] = status[role]

    def _fill_game(self, now):
        lamps, status = self._lamps, self._status
        lit = self.panel.lit
        for r in range(len(lamps)):
            row = lamps[r]
            for i in range(len(row)):
                row[i] = LIT if lit[r][i] else OFF
        status["visitor"] = status["machine"] = status["champ"] = status["machine_wins"] = 0
        state = self.state
        if state == VISITOR:
            self._visitor_lamps(lamps, status, now)
        elif state == THINKING:
            status["machine"] = 1 if blinks_on(now, QUICK_MS) else 0
        elif state == SHOWING:
            self._showing_lamps(lamps, status, now)
        elif state == OVER:
            self._over_lamps(lamps, status, now)
        if self.refused_at is not None:
            self._refused_lamps(lamps, status, now)

    def _visitor_lamps(self, lamps, status, now):
        """The visitor's turn: a selection blinks quickly, the teaching hint slowly."""
        status["visitor"] = 1
        quick = blinks_on(now, QUICK_MS)
        for r, i in self.selected:
            lamps[r][i] = SELECTED if quick else OFF
        if self.hint:
            slow = blinks_on(now, SLOW_MS)
            lit = self.panel.lit
            for r, i in self.hint:
                lamps[r][i] = HINT if slow else (LIT if lit[r][i] else OFF)
        if self.asking is not None:
            self._countdown(lamps, status, now)

    def _countdown(self, lamps, status, now):
        """"Still playing?": one lit lamp blinks per second left (1 flash a second)."""
        left = self._seconds_left(now)
        on = blinks_on(now - self.asking, SLOW_MS)
        status["visitor"] = 1 if on else 0
        for r in range(len(lamps)):
            for i in range(len(lamps[r])):
                if lamps[r][i] != OFF and left > 0:
                    left -= 1
                    if not on:
                        lamps[r][i] = OFF

    def _seconds_left(self, now):
        """Whole seconds, rounded up, before an idle visitor's game is abandoned."""
        return (self.settings["walkaway_ms"] - (now - self.last_input) + SECOND_MS - 1) // SECOND_MS

    def _showing_lamps(self, lamps, status, now):
        """The machine's move: the lamps it takes blink (TAKE_MS), then go out."""
        status["machine"] = 1
        on = blinks_on(now - self.since, TAKE_MS)
        for r, i in self.machine_out:
            lamps[r][i] = TAKING if on else OFF
        if self.rules.panel == "supply":  # where the stone lands blinks too
            for r, i in self.machine_light:
                lamps[r][i] = LIT if on else OFF

    def _over_lamps(self, lamps, status, now):
        """NIM CHAMP: one lamp runs through every lamp, row by row; MACHINE
        WINS: the last position blinks slowly."""
        if self.winner == "visitor":
            status["champ"] = 1
            k = (now // QUICK_MS) % self._count
            for row in lamps:
                for i in range(len(row)):
                    row[i] = LIT if k == 0 else OFF
                    k -= 1
        else:
            status["machine_wins"] = 1
            if not blinks_on(now, SLOW_MS):
                for row in lamps:
                    for i in range(len(row)):
                        row[i] = OFF

    def _refused_lamps(self, lamps, status, now):
        """A refusal: its lamps (and the visitor's lamp) go dark, then flash."""
        dark = now - self.refused_at < self.settings["refuse_ms"] // 2
        if dark:
            status["visitor"] = 0
        for r, i in self.refused:
            lamps[r][i] = OFF if dark else REFUSED

    def _emit(self, event):
        if self.listener is not None:
            self.listener(event)
