# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron display PORT --web``: the page and the crowd view of a real machine.

A museum's second screen, fed by the machine itself over its host link
(``host/PROTOCOL.md``): a board over USB, a Pi's gadget port, or ``nimatron
sim --serial``. One thread owns the link: it turns ``EVENTS ON``, asks
``STATE`` a few times a second and keeps the events between; the pages get
the same JSON as from a simulated machine (``state.snapshot``), built from
the machine's own lamp digits, status lamps and events. Read-only: nothing
served can press a button or change a setting of the real machine.
"""

import threading
import time

from nimatron.config import boards
from nimatron.games.rules import parse_rules

from ..face import STATUS_ROLES, Lamp
from ..nimrod import nimrod_for
from .machines import LOCK, MOVES_KEPT, MachineError, echo, event_record
from .state import rules_about

POLL_S = 0.15  # STATE this often (and events as they come)
AUDITS_EVERY = 40  # AUDITS every this many polls (about 6 s)
KINDS = {"0": "dark", "1": "lit", "2": "selected", "3": "hint", "4": "taking", "5": "refused"}
PLAYING = ("visitor", "thinking", "showing")
READ_ONLY = "this page follows the machine on %s: it can watch, not press or change settings"


class LinkMachine:
    """A real machine as the pages see it, from its replies and events."""

    id = "link"

    def __init__(self, link, hello, check_state):
        self.link = link  # the host's Link: command, ask, next_event, close
        self.hello = hello
        self.check_state = check_state  # the host's checked_state: a STATE reply made safe to read
        self.board = hello.get("board") or "?"
        try:
            self.spec = boards.board(self.board)
        except ValueError:  # a board this host does not know: rows, no shape
            self.spec = {"about": "", "lamps": {}}
        self.reply = None  # the last STATE
        self.audits = {"games": 0, "visitor_wins": 0, "machine_wins": 0, "abandoned": 0}
        self.events = []
        self.error = None  # why the link was lost, in words
        self._n = 0
        self._ring = False
        self._played = set()  # lamps lit at some point of this game: dark ones are "taken"
        self._left = None  # the lamps still in play when a game last showed them (its light show's meaning)
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._follow, name="nimatron-display", daemon=True)

    def start(self):
        self.link.command("EVENTS ON")
        self._take_state(self.link.ask("STATE"))
        self.thread.start()

    # -- the link's thread --------------------------------------------------------
    def _follow(self):
        from nimatron_pc.errors import Failure

        polls = 0
        try:
            while not self._stop.is_set():
                end = time.monotonic() + POLL_S
                while True:
                    ev = self.link.next_event(timeout=max(0.0, end - time.monotonic()))
                    if ev is None:
                        break
                    with LOCK:
                        self._event(ev)
                self._take_state(self.link.ask("STATE"))
                polls += 1
                if polls % AUDITS_EVERY == 1:
                    self._take_audits(self.link.ask("AUDITS"))
        except (Failure, ValueError, TypeError, KeyError) as e:
            if not self._stop.is_set():
                self.error = "lost the machine on %s: %s" % (self.link.name, e)

    def _take_state(self, reply):
        reply = self.check_state(reply)
        with LOCK:
            if reply.get("state") in PLAYING:  # the light shows' digits say nothing of the game
                self._left = set()
                for r, row in enumerate(reply.get("lamps") or []):
                    for i, digit in enumerate(row):
                        if digit in "1234":
                            self._played.add((r, i))
                        if digit in "13":  # lit or hinted: still in play
                            self._left.add((r, i))
            self.reply = reply

    def _take_audits(self, reply):
        with LOCK:
            self.audits = {
                "games": reply.get("started", 0),
                "visitor_wins": reply.get("visitor_wins", 0),
                "machine_wins": reply.get("machine_wins", 0),
                "abandoned": reply.get("abandoned", 0),
            }

    def _event(self, event):
        kind = event.get("event")
        if kind == "new_game":
            self._played = set()
            self._left = None
            self._ring = bool(event.get("ring"))
        own = event.get("rules") if kind == "new_game" else None  # a new game says its rules; a move, the last reply
        rules = parse_rules(own or (self.reply or {}).get("rules") or event.get("rules") or "nim")
        ring = False
        if kind == "move":
            ring, self._ring = self._ring, False
        record = event_record(event, rules, ring)
        if record is not None:
            self._n += 1
            record["n"] = self._n
            record["t"] = int(time.monotonic() * 1000)
            self.events.append(record)
            del self.events[:-MOVES_KEPT]

    # -- what the pages show ------------------------------------------------------------
    def state(self):
        reply = self.reply or {}
        rows = reply.get("lamps") or []
        rules = parse_rules(reply.get("rules") or "nim")
        position = reply.get("position")
        # A game's light show (the win's chase): each lamp keeps its meaning, as the simulator
        # draws it; the lamps left in play are those its last STATE in the game showed, less
        # the machine's last take (its position comes with the game's end).
        shown = reply.get("state") == "over" and position is not None and self._left is not None
        left = self._left_after(rows, position) if shown else None
        lamps = []
        for r, row in enumerate(rows):
            out = []
            for i, digit in enumerate(row):
                kind = KINDS.get(digit, "dark")
                if left is not None:
                    kind = "lit" if (r, i) in left else "taken" if (r, i) in self._played and rules.removes else "dark"
                elif kind == "dark" and (r, i) in self._played and position is not None and rules.removes:
                    kind = "taken"
                state = int(digit) if digit.isdigit() else 0
                out.append([kind, 0 if digit == "0" else 1, Lamp(kind, digit != "0", state).colour])
            lamps.append(out)
        if left is not None:
            counts = [sum(1 for i in range(len(row)) if (r, i) in left) for r, row in enumerate(rows)]
        else:
            counts = [sum(1 for d in row if d in "1234") for row in rows] if position is not None else None
        panel = None
        if position is not None:
            panel = nimrod_for(rules, bool(reply.get("misere")), position, bool(reply.get("ring")), reply.get("state"))
        status = reply.get("status") or {}
        return {
            "machine": self.id,
            "follow": self.link.name,
            "t": int(time.monotonic() * 1000),
            "board": self.board,
            "about": self.spec.get("about", ""),
            "input": self.hello.get("input", "rows"),
            "shape": self.spec["lamps"].get("shape") or "rows",
            "layout": [len(row) for row in rows],
            "keys": False,
            "buttons": [],
            "cursor": None,
            "state": reply.get("state", "attract"),
            "winner": reply.get("winner"),
            "lamps": lamps,
            "counts": counts,
            "status": {role: bool(status.get(role)) for role in STATUS_ROLES},
            "status_order": list(STATUS_ROLES),
            "settings": {
                "preset": reply.get("preset", ""),
                "rules": rules.spec,
                "about": rules_about(rules),
                "last_move": rules.last_move,
                "misere": bool(reply.get("misere")),
                "difficulty": reply.get("difficulty", ""),
                "first": "",
                "explain": True,
            },
            "say": self._say(reply),
            "events": self.events,
            "audits": self.audits,
            "nimrod": panel,
        }

    def _left_after(self, rows, position):
        """The lamps in play at the game's end: those it last showed lit, each row
        cut to its count in the final position where the rows are the heaps."""
        left = set(self._left)
        if isinstance(position, list) and len(position) == len(rows) and all(isinstance(n, int) for n in position):
            for r, n in enumerate(position):
                lit = sorted(i for (row, i) in left if row == r)
                for i in lit[n:]:
                    left.discard((r, i))
        return left

    def _say(self, reply):
        state = reply.get("state")
        if state == "service":
            return ["say.service", {}]
        if state == "visitor":
            return ["say.rows" if self.hello.get("input") == "rows" else "say.grid", {"hint": False}]
        if state == "thinking":
            return ["say.thinking", {}]
        if state == "showing":
            last = reply.get("last_move") or {}
            moves = [e for e in self.events if e["kind"] == "move" and e["by"] == "machine"]
            if last.get("by") == "machine" and moves:
                return ["say.showing", {"move": moves[-1]["words"]}]
            return ["say.thinking", {}]
        if state == "over":
            winner = reply.get("winner")
            return ["say.win" if winner == "visitor" else "say.loss" if winner == "machine" else "say.abandoned", {}]
        return ["say.attract", {}]

    def close(self):
        self._stop.set()
        if self.thread.is_alive():
            self.thread.join(2)
        self.link.close()


class Followed:
    """The one machine a display server follows, behind the same calls as
    ``machines.Machines``; presses and settings are refused (403)."""

    def __init__(self, machine):
        self.machine = machine
        self.board = machine.board
        self.overrides = {}

    def create(self, board=None, overrides=None, replaces=None, owner=None):
        if (board not in (None, self.board)) or overrides:
            raise MachineError(READ_ONLY % self.machine.link.name, 403)
        return self.machine

    def get(self, ident):
        if ident != self.machine.id:
            raise MachineError(
                "no machine %s here: this server follows the machine on %s (its id is %r)"
                % (echo(ident, quote=True), self.machine.link.name, self.machine.id),
                404,
            )
        if self.machine.error:
            raise MachineError(self.machine.error, 503)
        return self.machine

    def state(self, ident):
        with LOCK:
            return self.get(ident).state()

    def press(self, ident, press):
        self.get(ident)
        raise MachineError(READ_ONLY % self.machine.link.name, 403)

    def crowd(self):
        from .machines import public

        return public(self.state(self.machine.id), self.machine.id)  # nothing here presses: the id is no secret

    def watch(self, handle):
        from .machines import public

        return public(self.state(handle), handle)

    def __len__(self):
        return 1

    def close(self):
        self.machine.close()
