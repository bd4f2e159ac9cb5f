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

The lamps' frame is computed only in a pass where it can differ from the
last: after a change of the game's state (every method that makes one calls
``redraw``), or once time alone turns a blink (``game_lamps.fill`` says
when). Anything outside that changes what the lamps show calls
``redraw()``.
"""

from .. import const
from .. import forget
from ..games.rules import parse_rules
from ..panels import make_panel
from ..panels.panel import check_input
from .audits import Audits
from .debounce import Debouncer
from . import game_lamps
from .. import passes
from .game_lamps import SECOND_MS  # "still playing?" counts whole seconds
from .ports import ATTRACT, OFF, OVER, SERVICE, SHOWING, THINKING, VISITOR
from .switches import Switches
from .turns import MachineTurn, Rng, VisitorTurn, prepare, roomy

_OVER_GUARD_MS = const(1500)  # a winner's stray press does not wipe NIM CHAMP at once
_UNSHOWN = const(-1)  # no lamp state: the first frame always differs from what was "shown"
MENU_ONLY = (
    "machine.service",
    "machine.adjust",
    "machine.deployed",
    "machine.menu_lamps",
    "config.settings",
    "config.values",
)  # imported again on opening


GAME_KEYS = ("rules", "misere", "starts", "counter", "layout")  # what check_games reads: the games themselves


def check_games(rules, misere, layout, starts, counter=False):
    """``panels.playable.check_games``, compiled only while settings change:
    on a board its bytecode would otherwise stay beside the search.
    Dropped here only if loaded here: a ``SET`` over the link loads it in a
    pass of its own and drops it with its reply (a drop collects the garbage,
    most of a pass on a Pico: not in the pass that applies the settings)."""
    import sys

    held = __name__[: __name__.rfind(".machine.")] + ".panels.playable" in sys.modules
    from ..panels import playable

    try:
        playable.check_games(rules, misere, layout, starts, counter)
    finally:
        if not held:
            forget(("panels.playable",))


class Controller(VisitorTurn, MachineTurn):
    """The game flow and its state; the two players' turns are in ``turns``,
    what the lamps show in ``game_lamps``.

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
        check_games(
            self.rules, self.misere, self.layout, settings["starts"], settings.get("counter", False)
        )  # or ValueError now
        prepare(self.rules, settings)
        self._pending = None  # (rules, misere) chosen mid-game: from the next game
        self.debouncer = Debouncer(settings["debounce_ms"])
        self.rng = Rng(settings["seed"])
        self.audits = audits if audits is not None else Audits()  # nimatron.machine.audits: saved per game
        # A driver that must follow the game (a cursor over the lamps, sound,
        # a display) has ``io.watch(controller, now_ms)``, called every loop.
        self._watch = getattr(io, "watch", None)
        self.switches = Switches(self)  # stuck buttons, Check Switch, the operator's chord
        self._alarm = None  # ``alarm``: set by nimatron.machine.startup (module docstring)
        self.menu = None  # the operator menu while it is open
        self.save = None  # settings -> True once durable (the operator menu's adjustments)
        # -- the game --
        self.state = ATTRACT
        self.since = now_ms  # when ``state`` began
        self.now = now_ms  # the last update's time
        self.games = 0  # games begun since power-up (which start, who plays first)
        self.panel = None  # the lamps in play (nimatron.panels), None in attract mode
        self.winner = None
        self.last_move = None  # (by, before, after)
        self.equalized = False  # the equalizer's one gentle move made this game
        # -- this turn (``_reset_turn`` begins each one afresh) --
        self.turn_start = None  # (heaps, ring) when the turn began
        self.turn_row = None  # the row a row board's presses take from
        self.taken = roomy()  # lamps taken this turn, row board (with room: a press grows no list)
        self.selected = roomy()  # lamps selected, grid board (the same)
        self.refused = []  # the last refusal's lamps ...
        self.refused_at = None  # ... and when (they flash until refuse_ms after)
        self.hint = None  # lamps of the teaching hint ([]: no winning move to show)
        self._begun = None  # (rules left, who plays first) of a game begun this pass: told once its lamps show
        self._left = None  # the rules a new game left: their modules leave in a pass of their own (``update``)
        self.moved = False  # the visitor's move taken this pass: committed once its lamps show (``_after_lamps``)
        self._checked = None  # made once the lamps showed: a grid selection's [selection, after, legal], a row board's ``_check_rows``
        self.last_input = now_ms
        self.asking = None  # "still playing?" shown since this time
        # -- the machine's move (``turns.MachineTurn``) --
        self.machine_after = None  # the position it chose; None while it searches
        self.machine_out = []  # the lamps it takes ...
        self.machine_light = []  # ... and lights (Building Nim: where the stone lands)
        self._slip = None  # fallible: this turn's draw, True for a random move
        self._tidied = False  # the last pass collected the garbage (``turns._tidy``)
        self._swept = None  # the heap free after the last collection (``turns._tidy``, ``_room``;
        #                            None: none yet, collect if low; -1: just collected, read it next time)
        self._room_at = 0  # when ``turns._room`` next looks at the heap
        self.solved = None  # (rules, misere, heaps, ring, result) of its last search (``solution``)
        # -- the lamps: one frame filled in place each pass, copied to the shown one
        # when it differs. No garbage per pass: a collection delays a press's lamp (issue 27).
        self._lamps = []  # this pass's frame (game_lamps.fill) ...
        self._status = {"visitor": 0, "machine": 0, "champ": 0, "machine_wins": 0}
        self._shown_lamps = []  # ... and what io.show was last given (game_lamps.publish)
        self._shown_status = {"visitor": _UNSHOWN, "machine": _UNSHOWN, "champ": _UNSHOWN, "machine_wins": _UNSHOWN}
        self._dirty = True  # the state changed since the last frame (``redraw``) ...
        self._redraw_at = None  # ... or time alone changes it then (None: never; game_lamps.fill)
        for n in self.layout:
            self._lamps.append([OFF] * n)
            self._shown_lamps.append([_UNSHOWN] * n)

    @property
    def alarm(self):
        return self._alarm

    @alarm.setter
    def alarm(self, why):
        self._alarm = why
        self._dirty = True

    def redraw(self):
        """Something the lamps show changed: the next pass computes the frame."""
        self._dirty = True

    def apply_settings(self, settings, drop=True, checked=False):
        """Adopt new checked settings (``settings.resolve``) from the operator.
        Returns the rules replaced now (None: none, or from the next game);
        with ``drop=False`` their modules stay until the caller passes them
        to ``rules_changed`` (a SET over the link: in a pass of its own, as
        dropping them collects the garbage, most of a pass on a Pico). ``checked``:
        the caller checked the games already (a SET over the link, a start
        a pass: ``link.setting``).

        Timings and difficulty apply at once; rules, starts and misère play
        from the next game (at once in attract mode, where no game is shown). Raises PanelError (and changes nothing) if the
        new games would not fit this board's lamps or buttons.
        """
        rules = self.check_settings(settings, checked)
        level = self.limit(settings) if self.limit else None  # over the power budget: refused here
        prepare(rules, settings)
        if level is not None and hasattr(self.io, "set_brightness"):
            self.io.set_brightness(level)
        left = None
        if self.state == ATTRACT or self.panel is None:
            left = self.rules
            self.rules = rules
            self.misere = settings["misere"]
            self._pending = None  # a change chosen mid-game and this one: this one
        else:  # mid-game, and the game-over screen (it shows the ended game, drawn by its own rules)
            self._pending = (rules, settings["misere"])
        self.settings = settings
        self.debouncer.ms = settings["debounce_ms"]
        self._dirty = True
        if drop:
            self.rules_changed(left)
        return left

    def rules_changed(self, left):
        """On a board, the modules the rules ``left`` used and these do not
        leave the heap (``unload``); the drawing these rules' games will need
        stays (a SET loaded it to check them: dropped, the next NEW loaded it
        again in its press's pass, most of a pass on pico-grid). Their
        garbage is collected first thing in the next pass: the drop and the
        collection in one pass overran it (a SET's, a menu change's, the NEW
        that begins a game of new rules). Returns the modules dropped."""
        if left is not None and left.spec != self.rules.spec:
            from ..panels.panel import panel_module
            from .unload import drop_unused

            shape = panel_module(self.rules, self.settings.get("counter"))
            gone = drop_unused([self.rules], self.panel, self.misere, shape, False)
            if gone:
                passes.collect_next()  # their garbage: first thing in the next pass
            return gone
        return None

    def games_change(self, settings):
        """True if ``settings`` change the games themselves (``GAME_KEYS``)."""
        old = self.settings
        return old is None or any(settings.get(k) != old.get(k) for k in GAME_KEYS)

    def check_settings(self, settings, checked=False):
        """The new rules, or PanelError if the games would not fit this board.
        The games are checked again only if what they are changed: building
        each start's lamps (and, before the check stopped searching, Graph
        Nim's four whole searches: 0.9 s on a Pico) is no work for a tick
        that only changes the difficulty."""
        rules = parse_rules(settings["rules"])
        if not checked and self.games_change(settings):
            check_input(self.input_model, rules, settings)
            check_games(rules, settings["misere"], self.layout, settings["starts"], settings.get("counter", False))
        if self.limit:
            self.limit(settings)  # over the power budget: refused
        return rules

    # -- the main loop ------------------------------------------------------
    def update(self, now_ms):
        """Poll inputs, run timers, refresh the lamps. Never blocks."""
        passes.begin()  # the main loop's pass begins here: nothing has collected in it yet
        if self._left is not None and not passes.busy():
            self._drop_left()
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
                self._press(role, now_ms)
        self._timers(now_ms)
        self._render(now_ms)
        self._after_lamps(now_ms)

    def _drop_left(self):
        """The modules of the rules a new game left, dropped first thing in a
        pass after the NEW's: the load of ``machine.unload`` that drops them
        collects the heap (py/builtinimport.c), and inside the NEW's pass it
        overran that pass (docs/board.md, "A long run"). Nothing else heavy
        in this pass: a search waits for the next (``passes.mark``)."""
        left, self._left = self._left, None
        if self.rules_changed(left):  # dropped (on a board: machine.unload loaded and dropped too)
            passes.mark()

    def _after_lamps(self, now):
        """What a press's pass does once its lamps show. The visitor's move
        taken (DONE, a row's last lamp, a stone) is committed: its event, the
        game's end or the machine's turn (whose lamps show the next pass); a
        grid's new selection is checked, so DONE finds its answer made.
        Before, that work came between the press and its lamp, and a
        collection it brought delayed the lamp past its goal (press to lamp,
        docs/board.md)."""
        if self._begun is not None:
            self._tell_new()
        if self.moved:
            self.moved = False
            self._commit(now)
        elif self.state == VISITOR and self._checked is None and self.panel is not None:
            if self.input_model == "grid":
                if self.selected:
                    self._checked = self._check_selection()
            elif not self._building():
                self._checked = self._check_rows()  # a row's next press finds its answer made

    def service(self, on, now, by="link", before=None):
        """Open (``on``) or close the operator menu; ``by`` says who or why;
        ``before``: the settings' modules resident before its own were loaded
        (the link loads them a pass each), else now."""
        if on and self.menu is None:
            # the settings' modules it brings leave with it (config.boards came with the
            # menu's own and stayed in a stock MacroPad's heap after a visit)
            if before is None:
                before = passes.loaded("config")
            from .service import Menu

            self._abandon()  # the chord's own NEW began a game nobody touched: not a game
            self.panel = None
            self.menu = Menu(self, now, by)
            self.menu.before = before
            self._enter(SERVICE, now)
            self._emit({"event": "service", "open": True, "by": by})
        elif not on and self.menu is not None:
            before = self.menu.before
            self.menu.close()  # a list half checked: its modules go too
            self.menu = None
            forget(MENU_ONLY, collect=False)  # a board's heap is for searches while games play
            forget(passes.loaded("config", before), False)
            passes.collect_next()  # collected first in the next pass, not late in this one
            self._enter(ATTRACT, now)
            self._emit({"event": "service", "open": False, "by": by})

    def press(self, role, now):
        """One debounced press of a button or key, from outside the main
        loop's pass (``PLAY PRESS`` over the link, tests): a move it takes is
        committed before it returns."""
        self._press(role, now)
        self._tell_new()
        if self.moved:
            self.moved = False
            self._commit(now)

    def _press(self, role, now):
        """A press inside ``update``: a move it takes is committed once its lamps show."""
        self._dirty = True
        self._tell_new()  # a second press in the pass that began a game or took a move: it meets them told, as before
        if self.moved:
            self.moved = False
            self._commit(now)
        if self.menu is not None:
            self.menu.tap(role, now)
        elif self.state == VISITOR and self.asking is not None:
            self.asking = None  # "still playing?" answered: this press only says yes
            self.last_input = now
            self._emit({"event": "still_playing", "answer": "yes"})
        elif role == "new" or self.state == ATTRACT:
            self._new_game(now)
        elif self.state == OVER:
            if now - self.since >= _OVER_GUARD_MS:
                self._new_game(now)
        elif self.state == VISITOR:
            self.last_input = now
            self.hint = None
            if role == "done":
                self._done(now)
            elif role.startswith("row") and self.input_model == "rows":  # no slice: no str made before its lamp
                self._row(role, now)
            elif role.startswith("key ") and self.input_model == "grid":
                self._key(role, now)
        # THINKING, SHOWING: ignored, never queued into the next turn.

    # -- game flow ------------------------------------------------------------
    def new_game(self, now):
        """A new game, told (its event, its audits) before this returns:
        NEW over the link, the operator menu, tests."""
        self._new_game(now)
        self._tell_new()

    def _new_game(self, now):
        """A new game's lamps: its panel, its first turn; what it tells (the
        old rules' modules dropped, the audits, its event: garbage and a module
        drop on pico-grid) waits until they show (``_tell_new``)."""
        if self.menu is not None:
            self.service(False, now, "new game")
        self._abandon()
        left = self.rules
        if self._pending:
            self.rules, self.misere = self._pending
            self._pending = None
        starts = self.settings["starts"]
        start = starts[self.games % len(starts)]
        self.panel = make_panel(self.rules, self.layout, start, None, self.settings.get("counter", False))
        self.games += 1
        if self.alarm == "fault":
            self._alarm = None  # shown until someone plays again (the new game redraws)
        self.equalized = False
        self.winner = None
        self.last_move = None
        first = self.settings["first"]
        if first == "alternate":
            first = "visitor" if self.games % 2 else "machine"
        self._reset_turn(now)
        self._begun = (left, first)
        if first == "machine":
            self._think(now)
        else:
            self._enter(VISITOR, now)

    def _tell_new(self):
        """What a new game tells, once its lamps show: the old rules leave,
        the audits count it, its event."""
        begun = self._begun
        if begun is None:
            return
        self._begun = None
        left, first = begun
        if left is not None:
            self._left = left  # dropped in a pass of its own (``_drop_left``)
        self.audits.game_started(self.settings["preset"])
        heaps, ring = self.panel.position()
        self._emit(
            {
                "event": "new_game",
                "position": heaps,
                "ring": ring,
                "first": first,
                "rules": self.rules.spec,
                "misere": self.misere,
            }
        )

    def _abandon(self):
        """End the game in play unfinished: counted, unless nobody touched a lamp."""
        if self.state in (VISITOR, THINKING, SHOWING) and self.panel is not None:
            if self.last_move is None and not self.taken and not self.selected:
                # NEW again, the operator menu or a walk-away before anyone touched a lamp: not a game, and no write
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
        self._dirty = True

    def _reset_turn(self, now):
        self.turn_start = self.panel.position() if self.panel else None
        self.turn_row = None
        del self.taken[:]  # its room kept: a row's fifth press grew a new list (``clear`` gives the room back)
        self.selected = roomy()  # DONE's ``clear`` gave its room back
        self.refused = []
        self.refused_at = None
        self.hint = None
        self.last_input = now
        self.asking = None  # "still playing?" shown since this time
        self.moved = False
        self._checked = None
        self._dirty = True

    def _refuse(self, reason, lamps, now):
        self.refused = lamps
        self.refused_at = now
        self._dirty = True
        self._emit({"event": "refused", "reason": reason})

    def _commit(self, now):
        self._checked = None  # the turn's checks leave the heap with it, not at the next turn
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
            self._dirty = True
        elapsed = now - self.since
        if self.state == THINKING:
            # not in the pass that began the turn: that pass shows the visitor's move (DONE's lamp)
            # before any search (a search's allocations in the DONE pass of pico-ring delayed the lamp)
            if elapsed and not self._tidy() and self._decide() and elapsed >= s["think_ms"]:
                self._enter(SHOWING, now)  # a long search thinks longer, tick by tick
        elif self.state == SHOWING:
            if elapsed >= s["show_ms"]:
                self._machine_moved(now)
            elif elapsed:
                self._tidy()  # the visitor's turn begins with room: no collection in the pass of a press
        elif self.state == OVER and elapsed >= s["over_ms"]:
            self.panel = None
            self._enter(ATTRACT, now)
        elif self.state == OVER or self.state == ATTRACT:
            self._room()  # the next game's panel finds room: no collection before NEW's lamps
        elif self.state == VISITOR:
            idle = now - self.last_input
            ask = min(s["still_ms"], s["walkaway_ms"] // 2)
            if idle >= s["walkaway_ms"]:
                self._abandon()  # walked away before touching a lamp: no game, as a NEW over it
                self.panel = None
                self._enter(ATTRACT, now)
            elif ask and self.asking is None and idle >= s["walkaway_ms"] - ask:
                self.asking = now
                self._dirty = True
                self._emit({"event": "still_playing", "seconds": self.seconds_left(now)})
            elif (
                s["difficulty"] == "teach"
                and self.hint is None
                and not self.taken
                and not self.selected
                and idle >= s["hint_ms"]
            ):
                self._hint()

    def seconds_left(self, now):
        """Whole seconds, rounded up, before an idle visitor's game is abandoned."""
        return (self.settings["walkaway_ms"] - (now - self.last_input) + SECOND_MS - 1) // SECOND_MS

    # -- lamps ------------------------------------------------------------
    def frame(self, now):
        """(lamps, status) as they should look at ``now``: new lists and a new
        dict, the caller's to keep; what the lamps show is not changed."""
        if self.menu is not None:
            return self.menu.frame(now)
        game_lamps.fill(self, self._lamps, self._status, now)
        lamps = []
        for row in self._lamps:
            lamps.append(row[:])
        return lamps, dict(self._status)

    def _render(self, now):
        if self.menu is not None:
            lamps, status = self.menu.frame(now)  # the operator menu's, made afresh
        elif self._dirty or (self._redraw_at is not None and now >= self._redraw_at):
            self._dirty = False
            self._redraw_at = game_lamps.fill(self, self._lamps, self._status, now)
            lamps, status = self._lamps, self._status
        else:
            return  # nothing the lamps show can have changed since the last frame
        if game_lamps.publish(lamps, status, self._shown_lamps, self._shown_status):
            self.io.show(self._shown_lamps, self._shown_status)

    def _emit(self, event):
        if self.listener is not None:
            self.listener(event)
