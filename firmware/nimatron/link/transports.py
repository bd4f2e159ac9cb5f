# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Transports for the host link: where ``hostlink.HostLink`` reads and writes.

A transport has ``read(n)`` (the bytes waiting, at most ``n``; ``b""`` when
none; never blocks), ``write(data)`` (how many bytes it took; never blocks)
and ``connected``. Three kinds, chosen by ``open_transport(where)``:

- ``"usb"``: CircuitPython's second USB serial channel, ``usb_cdc.data``
  (boot.py must call ``usb_cdc.enable(console=True, data=True)``); the
  console stays free for the REPL and a stray Ctrl-C cannot stop the game.
  ``connected`` is the host's DTR: opening the port connects.
- ``"pty"``: a pseudo-terminal (Linux, macOS: a Raspberry Pi or the
  simulator), ``nimatron.link.pty``: kept apart, so a board never compiles
  it. ``transport.path`` is the ``/dev/pts/N`` a host opens.
- a device path such as ``/dev/ttyGS0`` or ``/dev/serial0`` (pyserial).

Hardware and OS modules are imported inside the functions that need them,
so ``import nimatron.links`` works everywhere.

    transport = open_transport("usb")
    link = HostLink(controller, transport, board="pico-neopixel")
    while True:
        now = ticks()
        controller.update(now)
        link.poll(now)
"""

from .stream import StreamTransport


class LinkError(ValueError):
    """A transport that cannot be opened here."""


def usb_data():
    """CircuitPython's ``usb_cdc.data`` as a transport; LinkError if off."""
    try:
        import usb_cdc
    except ImportError:
        raise LinkError("no usb_cdc here: the USB data channel is for CircuitPython boards")
    if usb_cdc.data is None:
        raise LinkError("usb_cdc.data is off: boot.py must call usb_cdc.enable(console=True, data=True)")
    return StreamTransport(usb_cdc.data)


def serial_device(path, baudrate=115200):
    """A serial device (``/dev/ttyGS0``, ``/dev/serial0``) through pyserial."""
    try:
        import serial
    except ImportError:
        raise LinkError("pyserial is not installed (pip install pyserial)")
    try:
        port = serial.Serial(path, baudrate, timeout=0, write_timeout=0)
    except (serial.SerialException, OSError, ValueError) as e:
        raise LinkError("cannot open %s: %s" % (path, e))
    return StreamTransport(port)


def open_transport(where):
    """``"usb"``, ``"pty"`` or a device path -> a transport; LinkError if not here."""
    if where == "usb":
        return usb_data()
    if where == "pty":
        try:
            from .pty import PtyTransport  # a Pi or the simulator: never compiled on a board

            return PtyTransport()
        except (ImportError, OSError) as e:
            raise LinkError("no pseudo-terminals here: %s" % e)
    return serial_device(where)


def open_link(controller, where, board=None, save=None, now_ms=0):
    """A ``HostLink`` on the transport named by ``where`` (see ``open_transport``)."""
    from .hostlink import HostLink

    return HostLink(controller, open_transport(where), board=board, save=save, now_ms=now_ms)


def usb_link(controller, board=None, now_ms=0):
    """The host link on ``usb_cdc.data`` for code.py, or None (and why, printed).

    The game never depends on the link: if the data channel is off, or the
    link does not fit in memory, the exhibit runs without it.
    """
    try:
        return open_link(controller, "usb", board=board, now_ms=now_ms)
    except Exception as e:  # LinkError, MemoryError
        print("host link off: %s" % e)
        return None
