# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The host link's wire format: one module for the machine and the PC.

Commands are ASCII lines ended by LF (CR LF and a bare CR work too), at most
``MAX_LINE`` bytes. Every command gets exactly one reply line: ``OK``,
``OK {json}`` or ``ERR code message``. Events are ``EV {json}`` lines, sent
only after ``EVENTS ON``. The whole exchange is in docs/protocol.md.

The machine's end is ``hostlink.HostLink`` (with ``commands``), polled from
the main loop; the serial port is only a transport (``transports``). The host
tools parse what comes back with ``parse_line``:

    >>> parse_line('OK {"name": "nimatron", "protocol": 1}')
    ('OK', {'name': 'nimatron', 'protocol': 1})
    >>> parse_line("ERR locked SET needs the operator PIN: UNLOCK PIN first")
    ('ERR', ('locked', 'SET needs the operator PIN: UNLOCK PIN first'))

Pure Python in the subset shared by CPython, MicroPython and CircuitPython:
no hardware imports, nothing that blocks.
"""

import json

PROTOCOL = 1
MAX_LINE = 256  # bytes in a command, not counting its line end
MAX_REPLY = 1024  # bytes in a reply or event line, not counting "\n"
MAX_OUT = 4096  # replies and events waiting for a slow host
READ_CHUNK = 256  # bytes read from the transport per poll
LINES_PER_POLL = 4  # commands handled per poll (the rest wait their turn)
PIN_TRIES = 3  # wrong PINs in a row before UNLOCK pauses
PIN_PAUSE_MS = 30000  # ... for this long, doubling with each further wrong PIN
PIN_PAUSE_MAX_MS = 3600000  # ... up to an hour (a 4-digit PIN: over a year of guessing)
RELOCK_MS = 600000  # an unlocked link with no command for 10 min locks again

COMMANDS = (
    "HELLO",
    "HELP",
    "STATE",
    "EXPLAIN",
    "AUDITS",
    "CONFIG",
    "SET",
    "UNLOCK",
    "LOCK",
    "NEW",
    "EVENTS",
    "PLAY",
    "SERVICE",
    "MEMORY",
)
ERRORS = ("syntax", "toolong", "encoding", "locked", "denied", "busy", "value", "internal")


class ProtocolError(ValueError):
    """A line from the machine that is not OK, ERR or EV (host side)."""


class CommandError(Exception):
    """Raised inside a handler: becomes ``ERR code message``."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


# -- lines ----------------------------------------------------------------------
class LineReader:
    """Bytes in, complete lines out; memory never grows past ``limit``.

    ``feed`` returns the lines completed by ``data`` (bytes, without their
    end), oldest first. LF, CR and CR LF all end a line; empty lines are
    dropped. A line longer than ``limit`` is dropped up to its end and
    reported once, as ``None`` in place of the line.
    """

    def __init__(self, limit=MAX_LINE):
        self.limit = limit
        self.buf = b""
        self.skipping = False  # inside an overlong line: drop until its end

    def reset(self):
        """Forget a partial line (the host went away in the middle of it)."""
        self.buf = b""
        self.skipping = False

    def feed(self, data):
        data = bytes(data)
        out = []  # type: list[bytes | None]
        start = 0
        n = len(data)
        while start < n:
            end = _line_end(data, start)
            piece = data[start : end if end >= 0 else n]
            if self.skipping:
                if end >= 0:
                    self.skipping = False
            elif len(self.buf) + len(piece) > self.limit:
                self.buf = b""
                out.append(None)
                self.skipping = end < 0
            else:
                self.buf += piece
                if end >= 0:
                    if self.buf:
                        out.append(self.buf)
                    self.buf = b""
            if end < 0:
                break
            start = end + 1
        return out


def _line_end(data, start):
    lf = data.find(b"\n", start)
    cr = data.find(b"\r", start)
    if lf < 0:
        return cr
    if cr < 0:
        return lf
    return lf if lf < cr else cr


def check_ascii(line):
    """The line as a str, or CommandError: printable ASCII and tabs only."""
    for b in line:
        if b > 126:
            raise CommandError("encoding", "not ASCII (byte 0x%02x)" % b)
        if b < 32 and b != 9:
            raise CommandError("encoding", "control character 0x%02x" % b)
    return line.decode()


def reply(payload=None):
    """``OK`` or ``OK {json}``."""
    if payload is None:
        return "OK"
    return "OK " + json.dumps(payload)


def error(code, message):
    return "ERR %s %s" % (code, message)


def event_line(event):
    return "EV " + json.dumps(event)


def parse_line(line):
    """A line from the machine as ``(kind, data)`` (host side).

    ``("OK", dict or None)``, ``("ERR", (code, message))`` or
    ``("EV", dict)``; ProtocolError for anything else.
    """
    if isinstance(line, bytes):
        try:
            line = line.decode()
        except UnicodeError:
            raise ProtocolError("reply is not text")
    line = line.strip()
    word = line.split(" ", 1)[0]
    rest = line[len(word) + 1 :].strip()
    if word == "OK":
        if not rest:
            return "OK", None
        return "OK", _json_object(rest)
    if word == "ERR":
        parts = rest.split(" ", 1)
        if not parts[0]:
            raise ProtocolError("ERR without a code")
        return "ERR", (parts[0], parts[1] if len(parts) > 1 else "")
    if word == "EV":
        return "EV", _json_object(rest)
    raise ProtocolError("not a Nimatron reply: %r" % line[:40])


def _json_object(text):
    try:
        data = json.loads(text)
    except ValueError:
        raise ProtocolError("bad JSON in reply: %r" % text[:40])
    if not isinstance(data, dict):
        raise ProtocolError("reply data is not a JSON object")
    return data


def _shown(text, limit=24):
    """User text safe to echo in a reply: short (it is already ASCII)."""
    if len(text) > limit:
        return text[:limit] + "..."
    return text
