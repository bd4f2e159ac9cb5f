# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The host link on a pseudo-terminal (a Raspberry Pi, the simulator).

Apart from ``transports`` because a board never uses it: on an RP2040 its
bytecode alone would take heap that searches need.
"""


class PtyTransport:
    """A pseudo-terminal: the machine holds the master, a host opens ``path``.

    Nobody holding the slave end shows as EIO on read: that is a hang-up
    (``connected`` turns False until a host opens ``path`` again). Writes
    never block: when the host does not read, the pty's buffer fills and the
    link keeps its lines (or drops events) instead.

    A host that closes and another that opens within one poll leave no EIO
    to see, so on Linux the slave's opens, closes and writes are watched
    with inotify (``_SlaveWatch``): ``changes`` counts opens and closes (the
    link starts a new session whenever it moves) and ``connected`` is "some
    host holds the port". What a host sent but nobody read before it hung
    up is run (``echo NEW > port`` works) without its unfinished last line;
    but if another host opened or wrote in the same poll, the bytes cannot
    be told apart and are all dropped: a new host's first line may be lost,
    never joined to the old one's. Replies nobody can hear are dropped too,
    never left for the next host.
    """

    def __init__(self):
        import fcntl
        import os
        import tty

        self._os = os
        master, slave = os.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        os.close(slave)  # hosts open it by path; holding it would hide hang-ups
        flags = fcntl.fcntl(master, fcntl.F_GETFL)
        fcntl.fcntl(master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        self.fd = master  # type: int | None
        self._connected = False
        self._peek = b""
        self.changes = 0  # opens and closes of the slave end seen so far
        self._hosts = 0  # hosts holding it now (with inotify)
        self._unread = False  # a host wrote since the buffer was last emptied
        self._leftover = b""  # whole lines a host left unread when it hung up
        self._watch = _SlaveWatch(self.path)

    @property
    def connected(self):
        if self.fd is None:
            return False
        if self._watch.fd is not None:
            self._watched()
            return self._hosts > 0 or len(self._leftover) > 0
        if not self._connected:
            data = self._read(256)  # EIO until a host opens the slave end
            if data is not None:
                self._connected = True
                self._peek += data
        return self._connected

    def _watched(self):
        """Follow the slave's opens, closes and writes since the last poll."""
        left = None  # after a close with unread bytes: "alone", or "mixed" with a newer host's
        for kind in self._watch.events():
            if left is not None:
                left = "mixed"
            if kind == "write":
                self._unread = True
                continue
            self.changes += 1
            if kind == "open":
                self._hosts += 1
                self._leftover = b""  # nothing of an old host runs for a new one
                continue
            self._hosts = self._hosts - 1 if self._hosts > 0 else 0
            if self._hosts == 0:
                import termios

                termios.tcflush(self.fd, termios.TCOFLUSH)  # type: ignore[arg-type]  # open while watched; what nobody heard: not for the next host
            if self._unread:
                left = "alone"
        if left is not None:
            self._salvage(left == "alone")

    def _salvage(self, keep):
        """Take what a host left unread: its whole lines if ``keep``, else nothing."""
        self._unread = False
        data = b""
        for _ in range(64):
            chunk = self._read(4096)
            if not chunk:
                break
            data += chunk
        end = max(data.rfind(b"\n"), data.rfind(b"\r"))
        self._leftover = data[: end + 1] if keep else b""

    def _read(self, n):
        try:
            return self._os.read(self.fd, n)
        except BlockingIOError:
            return b""
        except OSError:
            return None  # EIO: no host holds the other end

    def read(self, n):
        for name in ("_leftover", "_peek"):
            waiting = getattr(self, name)
            if waiting:
                setattr(self, name, waiting[n:])
                return waiting[:n]
        data = self._read(n)
        if data is None:
            self._connected = False
            return b""
        if len(data) < n:
            self._unread = False  # the buffer is empty now
        return data

    def write(self, data):
        if not self._connected and not self._hosts:
            return len(data)  # nobody to hear it: drop, as a UART would
        try:
            return self._os.write(self.fd, data)
        except BlockingIOError:
            return 0
        except OSError:
            self._connected = False
            return len(data)

    def close(self):
        if self.fd is not None:
            self._os.close(self.fd)
            self.fd = None
        self._watch.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _SlaveWatch:
    """Opens, closes and writes of a pty's slave end, through Linux inotify
    (ctypes); where inotify is missing, no events (EIO alone tells hang-ups)."""

    MASKS = ((0x20, "open"), (0x08, "close"), (0x10, "close"), (0x02, "write"))

    def __init__(self, path):
        self.fd = None
        try:
            import ctypes
            import os

            libc = ctypes.CDLL(None, use_errno=True)
            fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
            if fd < 0:
                return
            if libc.inotify_add_watch(fd, path.encode(), 0x20 | 0x08 | 0x10 | 0x02) < 0:
                os.close(fd)
                return
            self.fd = fd
            self._os = os
        except (ImportError, OSError, AttributeError):
            self.fd = None

    def events(self):
        """ "open", "close" or "write" for each event since the last call, in order."""
        if self.fd is None:
            return []
        import struct

        out = []  # type: list
        while True:
            try:
                data = self._os.read(self.fd, 4096)
            except OSError:  # EAGAIN: nothing new
                return out
            at = 0
            while at + 16 <= len(data):
                mask, size = struct.unpack_from("iIII", data, at)[1::2]
                at += 16 + size
                for bit, kind in self.MASKS:
                    if mask & bit:
                        out.append(kind)

    def close(self):
        if self.fd is not None:
            self._os.close(self.fd)
            self.fd = None
