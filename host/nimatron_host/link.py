# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The PC's end of the host link: one Nimatron on a serial port (pyserial).

    with Link("/dev/ttyACM1") as machine:
        machine.hello()                  # {"name": "nimatron", "board": ...}
        machine.command("EVENTS ON")
        for event in machine.events(): ...

Lines are parsed with ``nimatron.link.protocol.parse_line``; lines that are not
the protocol's (noise, a console's chatter) are skipped. Every problem is a
``Failure`` (``cli`` prints it in one line and exits 1); a refusal by the
machine is a ``MachineError`` with its code.
"""

import collections
import errno as errnos
import json
import os
import time

from nimatron.link.protocol import MAX_LINE, ProtocolError, parse_line

from .cli import Failure, UsageError

BAUD = 115200  # ignored by USB CDC and ptys; right for a real UART
PROTOCOL = 1  # the host link version these tools speak (docs/protocol.md)
BUSY = "port busy (another nimatron tool has it open)"
REPLY_S = 3.0  # how long a tool waits for each reply; NIMATRON_REPLY_S changes it


def reply_seconds(env=None):
    """Seconds to wait for a reply: ``$NIMATRON_REPLY_S`` (a slow link, a
    loaded Pi) or 3."""
    text = (os.environ if env is None else env).get("NIMATRON_REPLY_S")
    if text is None:
        return REPLY_S
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise UsageError("NIMATRON_REPLY_S must be seconds between 0 and 3600, got %r" % text)
    return value


class DeviceError(Failure):
    """The device answered, but with something this tool cannot use: "the device sent ..."."""

    def __init__(self, what):
        Failure.__init__(self, "the device sent %s" % what)


def shown(value, limit=40):
    """A value the device sent, short enough for one line of error."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def require(data, key, kinds, what, where=""):
    """``data[key]`` if it is one of ``kinds``; DeviceError naming it otherwise.

    Booleans are not counts, though Python calls them ints.
    """
    if not isinstance(data, dict):
        raise DeviceError("%s that is not a JSON object%s" % (what, where))
    value = data.get(key)
    if isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds):
        return value
    names = {
        int: "a whole number",
        float: "a number",
        str: "text",
        dict: "an object",
        list: "a list",
        bool: "true or false",
    }
    wanted = " or ".join(names.get(k, k.__name__) for k in kinds)
    if key not in data:
        raise DeviceError("%s without %r%s" % (what, key, where))
    raise DeviceError("%s with %r = %s%s, where %s belongs" % (what, key, shown(value), where, wanted))


class MachineError(Failure):
    """``ERR code message`` from the machine."""

    def __init__(self, code, message):
        Failure.__init__(self, "the machine says: %s (%s)" % (message, code))
        self.code = code
        self.message = message


def open_serial(port, timeout=0.05):
    """A ``serial.Serial`` on ``port``; Failure with the reason if it will not open."""
    import serial

    if not port:
        raise Failure("no port given")
    try:
        # exclusive: flock the port, so a second nimatron tool is told the
        # port is busy instead of stealing half the replies of the first
        return serial.serial_for_url(port, BAUD, timeout=timeout, write_timeout=2, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as e:
        errno = getattr(e, "errno", None)
        reason = os.strerror(errno) if isinstance(errno, int) and errno > 0 else str(e)
        if "Could not configure port" in str(e):
            reason = "not a serial port"
        if errno in (errnos.EAGAIN, errnos.EWOULDBLOCK) or "exclusively lock" in str(e):
            reason = BUSY
        raise Failure("cannot open %s: %s" % (port, reason)) from e


class Link:
    """Commands and events over one serial port."""

    def __init__(self, port, timeout=None, serial_port=None):
        self.name = port
        self.timeout = reply_seconds() if timeout is None else timeout
        self.port = serial_port if serial_port is not None else open_serial(port)
        self.buf = b""
        self.pending = collections.deque()  # EV lines read while waiting for a reply
        try:
            self.port.reset_input_buffer()
        except Exception:
            pass

    def close(self):
        try:
            self.port.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- lines ----------------------------------------------------------
    def _read_line(self, deadline):
        """The next protocol line as (kind, data), or None at the deadline."""
        import serial

        while True:
            cut = self.buf.find(b"\n")
            if cut >= 0:
                line, self.buf = self.buf[:cut], self.buf[cut + 1 :]
                try:
                    return parse_line(line)
                except (ProtocolError, RecursionError):
                    continue  # not ours (or JSON nested past reading): skip it
            if deadline is not None and time.monotonic() >= deadline:
                return None
            try:
                data = self.port.read(max(1, self.port.in_waiting))
            except (serial.SerialException, OSError) as e:
                raise Failure("lost the connection to %s: %s" % (self.name, e)) from e
            if data:
                self.buf += data
                if len(self.buf) > 64 * 1024 and b"\n" not in self.buf:
                    self.buf = b""  # a flood of noise without line ends

    def send(self, line):
        """Write one command line (no reply awaited)."""
        import serial

        data = line.encode("ascii", "replace") + b"\n"
        if len(data) > MAX_LINE + 1:
            raise Failure("command too long for the machine (%d bytes, at most %d)" % (len(data) - 1, MAX_LINE))
        try:
            self.port.write(data)
            self.port.flush()
        except (serial.SerialException, OSError) as e:
            raise Failure("cannot write to %s: %s" % (self.name, e)) from e

    def command(self, line, timeout=None):
        """Send a command; its reply's JSON object (None for a bare OK).

        ``EV`` lines that arrive meanwhile are kept for ``events()``.
        MachineError for ``ERR``; Failure when nothing answers in time.
        """
        self.send(line)
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            got = self._read_line(deadline)
            if got is None:
                raise Failure(
                    "no reply from %s within %g s: is a Nimatron's host link there?"
                    % (self.name, self.timeout if timeout is None else timeout)
                )
            kind, data = got
            if kind == "EV":
                self.pending.append(data)
            elif kind == "ERR":
                raise MachineError(data[0], data[1])
            else:
                return data

    def ask(self, line, timeout=None):
        """``command`` for a reply that must carry a JSON object (STATE, AUDITS...)."""
        data = self.command(line, timeout)
        if data is None:
            raise DeviceError("a bare OK to %s, without its data" % line.split()[0])
        return data

    def hello(self, timeout=None):
        """HELLO, checked: Failure if the other end is not a Nimatron this tool can talk to."""
        data = self.command("HELLO", timeout)
        if not data or data.get("name") != "nimatron":
            raise Failure("%s answered, but not as a Nimatron" % self.name)
        protocol = data.get("protocol")
        if protocol != PROTOCOL or isinstance(protocol, bool):
            raise Failure(
                "the Nimatron on %s speaks protocol %s; this tool knows %d "
                "(update one of them: pip install -U nimatron, or deploy again)"
                % (self.name, shown(protocol), PROTOCOL)
            )
        return data

    def back(self, seconds=90, every=3):
        """After a reply that said the machine restarts (``"restart": true``:
        a rule change on a board running from ``.py``): HELLO, again every
        few seconds, until the machine answers; its HELLO. The HELLOs sent
        while it restarted are answered too once its link is up: their
        replies are read here, not taken for the next command's."""
        deadline = time.monotonic() + seconds
        sent = 0
        while time.monotonic() < deadline:
            self.send("HELLO")
            sent += 1
            wait = min(deadline, time.monotonic() + every)
            got = self._read_line(wait)
            while got is not None and got[0] == "EV":
                self.pending.append(got[1])
                got = self._read_line(wait)
            if got is not None and got[0] == "OK" and isinstance(got[1], dict) and got[1].get("name") == "nimatron":
                for _ in range(sent - 1):
                    if self._read_line(time.monotonic() + 1) is None:
                        break
                return got[1]
        raise Failure("%s did not answer within %d s of its restart" % (self.name, seconds))

    def next_event(self, timeout=None):
        """The next event (a dict), or None when ``timeout`` seconds pass first."""
        if self.pending:
            return self.pending.popleft()
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            got = self._read_line(deadline)
            if got is None:
                return None
            if got[0] == "EV":
                return got[1]  # a JSON object, as parse_line checks

    def events(self, timeout=None):
        """Events as they come; stops after ``timeout`` seconds of silence."""
        while True:
            event = self.next_event(timeout)
            if event is None:
                return
            yield event


def checked_state(state):
    """A STATE reply whose fields the tools read are of the right kind; DeviceError otherwise."""
    what = "a STATE reply"
    position = state.get("position")
    if position is not None and not (
        isinstance(position, list)
        and all(isinstance(h, int) and not isinstance(h, bool) and 0 <= h < 1 << 16 for h in position)
    ):
        raise DeviceError("%s with 'position' = %s, where a list of heap sizes belongs" % (what, shown(position)))
    lamps = state.get("lamps", [])
    if not (isinstance(lamps, list) and all(isinstance(row, str) and len(row) < 1 << 10 for row in lamps)):
        raise DeviceError("%s with 'lamps' = %s, where a list of lamp strings belongs" % (what, shown(lamps)))
    for key in ("state", "turn", "rules", "winner", "refused"):
        if state.get(key) is not None:
            require(state, key, (str,), what)
    return state
