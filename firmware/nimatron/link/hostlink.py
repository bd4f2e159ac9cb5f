# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The machine's end of the host link: one more input of the main loop.

    link = HostLink(controller, transport, board="pico-neopixel")
    while True:
        now = ticks()
        controller.update(now)
        link.poll(now)

``poll`` reads what the host sent (a few hundred bytes at most), answers up
to ``LINES_PER_POLL`` commands and writes what the transport will take; it
never waits and never raises. A host that floods the link, sends noise or
goes away mid-line gets ``ERR`` replies or nothing; the game goes on.
``handle(line, now_ms)`` is the pure part: one command line in, one reply
line out (the commands themselves are in ``nimatron.link.commands``).

Session state lives here: ``EVENTS ON``, ``UNLOCK``, wrong-PIN pauses. It
resets when the transport reports the host gone (``connected`` False); and
whenever its ``changes`` count (hosts opening or closing the port, where a
transport can count them) moves, the link locks and forgets any half line,
so a new host always starts locked with an empty line, even after a
hang-up shorter than a poll.
"""

from .. import const
import gc

import sys

from ..passes import collect, collect_next, end, heap_low
from . import commands, play
from ..games import budget
from .protocol import (
    COMMANDS,
    LINES_PER_POLL,
    MAX_LINE,
    MAX_OUT,
    MAX_REPLY,
    READ_CHUNK,
    RELOCK_MS,
    CommandError,
    LineReader,
    check_ascii,
    error,
    reply,
    _shown,
)


def forget_searches():
    """Drop what every search loaded keeps between decisions
    (``games.strategy.forget_searches``): no search loaded, none kept, and
    nothing is imported here."""
    import sys

    strategy = sys.modules.get(__name__[: __name__.rfind(".link.") + 1] + "games.strategy")
    if strategy is not None:
        strategy.forget_searches()


# A command polled over several passes that runs out of memory on this many
# passes answers ``ERR busy``. Each time it is retried once after dropping the
# searches' caches, and a SET's step drops the settings module it loaded, so
# the retry loaded it again, the next pass ran out again: on a full heap
# (MicroPython) the SET went round and round and never answered, and
# every command after it waited behind it.
_SHORT_PASSES = const(3)

# Search work EXPLAIN may do in one poll (``games.budget``): half the
# machine's own share, so a tick that thinks and answers stays inside its budget.
# Only EXPLAIN: it searches one position, the one in play, so asking again
# resumes its search (Graph Nim's theory keeps its place among the moves:
# ``graph._walk``). A SET searches nothing: the games' check asks the limits
# (``panels.playable.covered``).
_LINK_UNITS = const(32)


class HostLink:
    """Commands in, replies and events out, for one running ``Controller``.

    ``transport``: anything with ``read(n)`` (bytes, ``b""`` when nothing
    waits; never blocks), ``write(data)`` (bytes taken, possibly fewer; never
    blocks) and optionally ``connected``; see ``nimatron.link.transports``.
    ``save`` (optional): called with the new settings after each accepted
    ``SET``, returns True once they are stored for the next start.
    ``boot`` (optional): the start-up report (``nimatron.machine.startup``): who the
    machine is and what its settings came from, shown by ``HELLO``.
    ``sealed`` (optional): why operator commands stay refused even without
    a PIN (the settings file that held the PIN could not be read).
    """

    def __init__(self, controller, transport=None, board=None, save=None, now_ms=0, boot=None):
        self.controller = controller
        self.transport = transport
        self.board = board
        self.save = save
        self.boot = boot
        self.sealed = None
        self.reader = LineReader(MAX_LINE)
        self.pending = []
        self.out = []  # encoded lines waiting for the transport
        self.out_bytes = 0
        self.dropped = 0  # event lines dropped because the host was not reading
        self.started_ms = now_ms
        self.now = now_ms
        self.connected = False
        self.failure = None  # the last exception a transport or listener raised
        self._ring = False  # the machine's next move is on a whole circle (circular Nim's first)
        self.held = []  # events waiting for the machine's words (``play.stream``)
        self.wording = False  # their words' module asked for: a collection first (``play.word_held``)
        self.stepping = False  # in ``poll``: a long command may do one step a pass (``budget.Later``)
        self.step = None  # that command's work so far (``setting.set_steps``)
        self.short = 0  # passes in a row that command ran out of memory (``handle``)
        self.tidied = False  # the last poll collected the garbage (``commands.room``)
        self.waited = False  # the last poll's command waited: its pass had collected (``commands.room``)
        self.pin_pause_until = None
        from .commands import pin_pause

        failures = 0
        if hasattr(getattr(controller, "audits", None), "pin_failures"):
            failures = controller.audits.pin_failures  # a name in the code: interned as it compiles
        pause = pin_pause(failures)
        if pause:  # wrong PINs before a restart: the pause starts again, in full
            self.pin_pause_until = now_ms + pause
        self._changes = None  # the transport's count of connection changes
        self._reset_session(now_ms)
        self.attach(controller)

    def attach(self, controller):
        """Receive the controller's game events (after any listener it had)."""
        before = controller.listener

        def listener(event):
            if before is not None:
                before(event)
            self.on_event(event)

        controller.listener = listener

    def _reset_session(self, now):
        # (wrong-PIN counts outlive a session: hanging up must not reset them)
        self.events = False
        self.held = []
        self.unlocked = False
        self.last_command = now

    # -- transport ------------------------------------------------------
    def poll(self, now_ms):
        """Read, handle and answer what the host sent. Never blocks or raises."""
        self.now = now_ms
        transport = self.transport
        if transport is None:
            return
        try:
            connected = getattr(transport, "connected", True)
            changes = getattr(transport, "changes", None)
            if changes != self._changes:
                if self._changes is not None:
                    self.new_host(now_ms)  # a host came or went since the last poll
                self._changes = changes
            if not connected:
                if self.connected:
                    self.hang_up(now_ms)
                return
            self.connected = True
            self._flush()
            if not self.pending and self.out_bytes < MAX_OUT // 2:
                data = transport.read(READ_CHUNK)
                if data:
                    self.pending = self.reader.feed(data)
            handled = 0
            if self.held and (commands.room(self, 0) or not play.word_held(self)):
                handled = LINES_PER_POLL  # no reply overtakes the events: they go out first
            while self.pending and handled < LINES_PER_POLL and self.out_bytes <= MAX_OUT - MAX_REPLY:
                if commands.room(self, handled):
                    break  # the command in the next poll, into a heap with room
                query = self.pending[0]
                deferred = query is not None and query.strip().upper() == b"EXPLAIN"
                if deferred:  # its search shares the tick like the machine's own
                    from ..games.strategy import HEAP_RESERVE  # the search's own reserve (loaded for it anyway)

                    budget.start(_LINK_UNITS, heap_low(HEAP_RESERVE))
                self.stepping = True
                try:
                    line = self.handle(query, now_ms)
                except budget.Later:
                    break  # the same command next poll: its search or its steps go on where they stopped
                finally:
                    self.stepping = False
                    if deferred:
                        budget.stop()
                self.step = None
                self.short = 0
                self.pending.pop(0)
                self._send(line, True)
                handled += 1
            self._flush()
        except Exception as exc:  # a broken transport must not stop the game
            self.failure = exc
            self.hang_up(now_ms)
        finally:
            end()  # the link is the pass's last: its collection is not the next pass's

    def hang_up(self, now_ms):
        """The host went away: forget its partial line, lock, events off."""
        self.connected = False
        self.reader.reset()
        self.pending = []
        self.step = None
        self.short = 0
        self.out = []
        self.out_bytes = 0
        self._reset_session(now_ms)

    def new_host(self, now_ms):
        """A host opened or closed the port: whoever is there now starts
        locked, with no half line of another host's (events stay as set:
        a monitor sharing the port keeps its stream)."""
        self.reader.reset()
        self.pending = []
        self.step = None
        self.short = 0
        self.unlocked = False
        self.last_command = now_ms

    def _send(self, line, is_reply):
        data = (line + "\n").encode()
        if not is_reply and self.out_bytes + len(data) > MAX_OUT:
            self.dropped += 1  # a host that does not read loses events, not the game
            return
        self.out.append(data)
        self.out_bytes += len(data)

    def _flush(self):
        while self.out:
            data = self.out[0]
            n = self.transport.write(data) or 0
            if n <= 0:
                return
            self.out_bytes -= n
            if n < len(data):
                self.out[0] = data[n:]
                return
            self.out.pop(0)

    # -- events ---------------------------------------------------------
    def on_event(self, event):
        """A game event from the controller: stream it if asked (``play.stream``)."""
        try:
            if self.events and (self.transport is None or self.connected):
                play.stream(self, event)
        except Exception as exc:
            self.failure = exc

    # -- commands -------------------------------------------------------
    def handle(self, line, now_ms):
        """One command line (bytes, or None for an overlong one) -> one reply line."""
        self.now = now_ms
        try:
            if line is None:
                raise CommandError("toolong", "line longer than %d bytes" % MAX_LINE)
            text = check_ascii(line)
            words = text.split()
            if not words:
                raise CommandError("syntax", "empty command")
            verb = words[0].upper()
            if verb not in COMMANDS:
                raise CommandError("syntax", "unknown command %s (try HELP)" % _shown(words[0]))
            if self.unlocked and now_ms - self.last_command >= RELOCK_MS:
                self.unlocked = False
            self.last_command = now_ms
            switches = getattr(self.controller, "switches", None)  # nimatron.machine.switches
            try:
                out = self._dispatch(verb, words, text, switches, now_ms)
            except MemoryError:  # the searches' caches may hold the heap: drop them, once
                self.short += 1
                if self.short > _SHORT_PASSES:
                    raise
                forget_searches()
                collect(gc)
                out = self._dispatch(verb, words, text, switches, now_ms)
            out = reply(out)
            if len(out) > MAX_REPLY:
                raise CommandError("toolong", "reply longer than %d bytes" % MAX_REPLY)
            return out
        except CommandError as e:
            return error(e.code, e.message)
        except budget.Later:
            raise  # poll asks again next tick
        except MemoryError:  # a small board's heap: free what the command built, say so
            self.short = 0
            collect(gc)
            return "ERR busy out of memory: try again"
        except Exception as e:  # answer, never crash the game
            return error("internal", "%s: %s" % (type(e).__name__, _shown(str(e), 80)))
        finally:
            if not self.stepping:
                self.short = 0  # called directly: each call is a command of its own

    def _dispatch(self, verb, words, text, switches, now_ms):
        if verb == "SERVICE" and switches is not None:  # the operator menu
            if len(words) > 2 or (len(words) == 2 and words[1].upper() not in ("ON", "OFF")):
                raise CommandError("syntax", "usage: SERVICE [ON|OFF]")
            return switches.command(self, words[1:], now_ms)
        out = commands.HANDLERS[verb](self, words[1:], text, now_ms)
        if switches is not None and verb == "STATE":  # AUDITS adds them before its cut (``cmd_audits``)
            switches.report(out)
        return out

    def load(self, name):
        """Load ``nimatron.<name>`` in a pass of its own when polled
        (``stepping``): on a board a module's load is a tick's work. A
        collection goes first, in a pass of its own too, as ``code.py`` loads
        the link's modules: one that fell inside the load's pass doubled it.
        A command's first step (EXPLAIN; SET loading ``link.setting``) starts
        ``step`` with the module it collected for (item 5, as
        ``setting.set_steps`` keeps it). Direct callers (tests, tools) get
        the whole command at once."""
        if not self.stepping or "nimatron." + name in sys.modules:
            return
        step = self.step
        if step is None:
            step = self.step = [None, None, None, None, None, None, None]
        if step[5] != name:
            step[5] = name
            collect_next()  # first in the next pass; the load in the pass after it
            self.tidied = True  # into the heap just collected: ``room`` reads nothing
            raise budget.Later
        __import__("nimatron." + name)
        raise budget.Later

    def pause(self):
        """End this pass here when polled; the command goes on next pass."""
        if self.stepping:
            raise budget.Later

    def operator(self, what):
        """CommandError unless the operator may act (no PIN set, or unlocked)."""
        if self.sealed:
            raise CommandError("locked", "%s: %s" % (what, self.sealed))
        if self.controller.settings.get("operator_pin") and not self.unlocked:
            raise CommandError("locked", "%s needs the operator PIN: UNLOCK PIN first" % what)
