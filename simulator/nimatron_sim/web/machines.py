# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The machines a web server runs: one per browser tab, on the wall clock.

Each ``WebMachine`` owns a ``Face`` (the unchanged firmware and drivers on
mocked pins, read back from the pins) and keeps its virtual clock in step
with the wall clock *lazily*: whenever a page asks for the state or presses
a button, the machine first runs for the time that has passed (at most
``MAX_STEP_MS``, as the terminal app does after a stall). A machine nobody
looks at costs nothing and is dropped after ``IDLE_S``.

    machines = Machines("pico-neopixel", {"preset": "nimrod"})
    m = machines.create()
    m.press("row3"); m.press("done")
    m.state()["lamps"][3]       # [["lit", 1, "#..."], ..., ["taken", 0, "#..."]]

Simulators share Blinka's and gpiozero's process-wide pin set-up, so every
machine operation runs under one lock: the pages poll a few times a second,
the work per call is small, and nothing can interleave two machines' pins.
"""

import secrets
import threading
import time

from ..face import Face
from ..nimrod import nimrod
from ..wallclock import WallClock
from .state import snapshot

MAX_STEP_MS = 1000  # after a stall, do not race ahead (as the terminal app)
IDLE_S = 600  # a machine nobody asked about for 10 minutes is closed
MAX_MACHINES = 48  # a classroom of tabs; more is refused with 503
PER_OWNER = 4  # machines one client address may run at once (its tabs); more is refused with 429
RECLAIM_S = 120  # ...unless one of its own nobody asked about this long: its tab was closed
ECHO_CHARS = 60  # of a client's input, an answer or a log line repeats at most this much
MOVES_KEPT = 40  # recent events each machine remembers for its pages
NOTE_MS = 3000  # a refusal's reason stays in the words this long

LOCK = threading.RLock()


def echo(value, limit=ECHO_CHARS, quote=False):
    """A client's input as an answer or a log line may repeat it: the first
    ``limit`` characters, anything unprintable or non-ASCII escaped, "..."
    when cut. A 64 KB header or path is never sent back (or logged) whole.

        echo("abacus") == "abacus";  echo("a" * 99) == "a" * 60 + "..."
        echo("abacus", quote=True) == "'abacus'";  echo(3, quote=True) == "3"   # as %r, cut
    """
    text = value if isinstance(value, str) else repr(value)
    shown = ascii(text[:limit])[1:-1] + ("..." if len(text) > limit else "")
    return "'%s'" % shown if quote and isinstance(value, str) else shown


class MachineError(ValueError):
    """A request a machine cannot honour (unknown button, bad settings): 4xx."""

    def __init__(self, message, status=400, settings=False):
        ValueError.__init__(self, message)
        self.status = status
        self.settings = settings  # the firmware refused the settings: said in words (``Words.refused``)


def event_record(event, rules, ring=False):
    """A game event as the pages keep it (None for events they do not show);
    a move carries its words from ``nimatron.games.explain``, a new game its
    position in the rule set's words (``position_words``)."""
    kind = event.get("event")
    if kind == "new_game":
        return {
            "kind": "game",
            "position": event.get("position"),
            "rules": event.get("rules"),
            "words": rules.position_words(event.get("position") or [], bool(event.get("ring"))),
            "misere": bool(event.get("misere")),
            "first": event.get("first"),
        }
    if kind == "move":
        from nimatron.games import explain

        return {
            "kind": "move",
            "by": event["by"],
            "before": event["before"],
            "after": event["after"],
            "words": explain.describe_move(event["before"], event["after"], rules.ordered, ring),
        }
    if kind == "refused":
        return {"kind": "refused", "reason": event.get("reason", "")}
    if kind == "game_over":
        return {"kind": "over", "winner": event.get("winner"), "counted": event.get("counted", True)}
    return None


class WebMachine:
    """A Face on the wall clock, with the recent events in a form pages can word."""

    def __init__(self, ident, board, overrides, seed=None, *, clock=time.monotonic):
        self.id = ident  # the tab's secret: whoever holds it may press
        self.owner = None  # the client address that made it (``Machines.per_owner`` each)
        self.watch = secrets.token_urlsafe(12)  # a handle to watch by (/crowd): it presses nothing
        self.face = Face(board, overrides, seed)
        self.overrides = dict(overrides)
        self.clock = clock
        self.wall = WallClock(clock, MAX_STEP_MS)
        self.seen = self.wall.last
        self.left = False  # its tab said goodbye (closed, or reloading): its place is anyone's who asks
        self.events = []  # {"n": N, "t": ms, "kind": ...}, the last MOVES_KEPT
        self._n = 0
        self.note = None  # (until_ms, reason): the last refusal
        self._ring = False
        self.face.sim.listeners.append(self._event)

    # -- the clock -----------------------------------------------------------
    def catch_up(self):
        """Run the machine for the wall-clock time since it was last asked."""
        self.face.advance(self.wall.due())
        self.seen = self.wall.last

    def press(self, press):
        """One press of a button by a visitor: ``row3``, ``done``, ``new``,
        ``key R I`` (a lamp's key), or a board's own (``a``, ``b``, ``cw``...)."""
        if not isinstance(press, str) or not self.can_press(press):
            raise MachineError(
                "board %s has no button %s; it has: %s"
                % (self.face.board, echo(press, quote=True), ", ".join(self.buttons()))
            )
        self.catch_up()
        self.wall.spent(self.face.tap(press))

    def can_press(self, press):
        return press in self.face.roles or press in ("done", "new")

    def buttons(self):
        """What a page may press, in a fixed order: the board's own buttons,
        DONE and NEW GAME (by a chord or a hold where the board has no
        such button); lamp keys are named ``key R I``."""
        roles = [r for r in self.face.roles if not r.startswith("key ")]
        for press in ("done", "new"):
            if press not in roles:
                try:
                    self.face.sim.press_for(press)
                    roles.append(press)
                except KeyError:
                    pass
        return roles

    # -- events, in words a page can translate ---------------------------------
    def _event(self, event):
        kind = event.get("event")
        ring = False
        if kind == "new_game":
            self._ring = bool(event.get("ring"))
            self.note = None
        elif kind == "move":
            ring, self._ring = self._ring, False
        elif kind == "refused":
            self.note = (self.face.now + NOTE_MS, event["reason"])
        record = event_record(event, self.face.controller.rules, ring)
        if record is not None:
            self._n += 1
            record["n"] = self._n
            record["t"] = event.get("t", self.face.now)
            self.events.append(record)
            del self.events[:-MOVES_KEPT]

    # -- what the pages show ------------------------------------------------------
    def state(self):
        """The whole face as JSON-ready data (see ``state.snapshot``)."""
        out = snapshot(self)
        out["nimrod"] = nimrod(self.face.controller)
        return out

    def close(self):
        self.face.close()


def public(state, handle):
    """A state for watchers: the pressing id left out, the watch handle in."""
    state = dict(state)
    state.pop("machine", None)
    state["watch"] = handle
    return state


class Machines:
    """Every machine of one server: made with the command line's settings,
    or a page's own (a tab's settings never reach another tab)."""

    def __init__(self, board, overrides, seed=None, *, clock=time.monotonic, limit=MAX_MACHINES, per_owner=PER_OWNER):
        self.board = board
        self.overrides = dict(overrides)
        self.seed = seed
        self.clock = clock
        self.limit = limit
        self.per_owner = per_owner
        self._machines = {}
        self.latest = None  # the machine pressed or made last: what /crowd follows

    def create(self, board=None, overrides=None, replaces=None, owner=None):
        """A new machine; MachineError (400) for settings it cannot use, 503 when full.
        ``replaces``: the id of the tab's old machine (its settings were
        changed), closed once the new one runs: its slot is free at once.
        ``owner``: the client address asking; it may run ``per_owner``
        machines (429 beyond), so one client cannot take every place."""
        with LOCK:
            self._expire()
            old = self._machines.get(replaces) if isinstance(replaces, str) else None
            if owner is not None:
                self._make_room(owner, old)
            if len(self._machines) - (old is not None) >= self.limit:
                self._close_left(list(self._machines.values()))
            if len(self._machines) - (old is not None) >= self.limit:
                raise MachineError("this server already runs %d machines; close a tab and try again" % self.limit, 503)
            ident = secrets.token_urlsafe(16)
            try:
                machine = WebMachine(
                    ident,
                    board or self.board,
                    self.overrides if overrides is None else overrides,
                    self.seed,
                    clock=self.clock,
                )
            except ValueError as e:  # BoardError, SettingsError, PanelError, DriverError
                raise MachineError(str(e).split("\n")[0][:300], settings=True) from e
            machine.owner = owner
            self._machines[ident] = machine
            self.latest = ident
            if old is not None:
                self._machines.pop(old.id).close()
            return machine

    def _make_room(self, owner, old):
        """Refuse (429) an owner already running ``per_owner`` machines, unless
        one of them has gone unasked for ``RECLAIM_S`` (its tab was closed):
        that one is closed for the new one."""
        mine = [m for m in self._machines.values() if m.owner == owner and m is not old]
        if len(mine) < self.per_owner or self._close_left(mine):
            return
        stale = min(mine, key=lambda m: m.seen)
        if self.clock() - stale.seen <= RECLAIM_S:
            raise MachineError(
                "your address already runs %d machines, the most one address may run here; "
                "close one of its tabs and try again (a tab that closed without a goodbye makes "
                "room %d minutes later)" % (len(mine), RECLAIM_S // 60),
                429,
            )
        self._machines.pop(stale.id).close()

    def _close_left(self, among):
        """Close the machine whose tab said goodbye first, of ``among``; False if none did."""
        left = [m for m in among if m.left]
        if not left:
            return False
        self._machines.pop(min(left, key=lambda m: m.seen).id).close()
        return True

    def leave(self, ident):
        """The tab's goodbye (the page closing or reloading): its place goes to the next machine asked for
        here; until then a reload takes the machine up again (``press``, ``state``)."""
        with LOCK:
            self.get(ident).left = True

    def get(self, ident):
        machine = self._machines.get(ident)
        if machine is None:
            raise MachineError(
                "no machine %s here (closed after %d idle minutes, or the server restarted)"
                % (echo(ident, quote=True), IDLE_S // 60),
                404,
            )
        return machine

    def press(self, ident, press):
        with LOCK:
            machine = self.get(ident)
            machine.left = False
            machine.press(press)
            self.latest = ident
            return machine.state()

    def state(self, ident):
        with LOCK:
            machine = self.get(ident)
            machine.left = False
            machine.catch_up()
            return machine.state()

    def crowd(self):
        """The machine the crowd view follows (the one played last; made if
        none), as anyone may see it: without the id that presses."""
        with LOCK:
            if self.latest not in self._machines:
                self.latest = None
                self.create()
            return public(self.state(self.latest), self._machines[self.latest].watch)

    def watch(self, handle):
        """A machine's state by its watch handle (``/crowd?watch=``): read-only."""
        with LOCK:
            for machine in self._machines.values():
                if machine.watch == handle:
                    machine.catch_up()
                    return public(machine.state(), handle)
        raise MachineError(
            "nothing to watch as %s here (the tab closed, or the server restarted)" % echo(handle, quote=True), 404
        )

    def _expire(self):
        now = self.clock()
        for ident in [i for i, m in self._machines.items() if now - m.seen > IDLE_S]:
            self._machines.pop(ident).close()

    def __len__(self):
        return len(self._machines)

    def close(self):
        with LOCK:
            for machine in self._machines.values():
                machine.close()
            self._machines = {}
