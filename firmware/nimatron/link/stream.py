# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The host link's byte stream: ``usb_cdc.data`` or a serial port, non-blocking.

Apart from ``transports`` (which finds and opens one) because a running link
keeps only this: a MicroPython function holds its module's globals, so an
instance of a class defined in ``transports`` would keep all of that module
in a board's heap after the start (``code.load_link`` drops it).
"""


class StreamTransport:
    """``usb_cdc.data`` or a ``serial.Serial``, made non-blocking."""

    def __init__(self, stream):
        self.stream = stream
        stream.timeout = 0
        stream.write_timeout = 0
        self.path = getattr(stream, "port", None)

    @property
    def connected(self):
        return getattr(self.stream, "connected", True)

    def read(self, n):
        if not self.stream.in_waiting:
            return b""
        return self.stream.read(n) or b""

    def write(self, data):
        return self.stream.write(data) or 0

    def close(self):
        close = getattr(self.stream, "close", None)
        if close is not None and self.path is not None:
            close()  # a pyserial port; usb_cdc.data is never closed
