# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Drivers: the only code that touches pins.

Each driver adapts one hardware library to the io port of ``nimatron.machine.ports``
(``show(lamps, status)``, ``events()``, ``close()``) and receives its pin map
(a board dict from ``nimatron.config.boards``) and the lamp layout through its
constructor. Hardware libraries are imported inside the driver modules, never
here, so ``import nimatron.drivers`` works anywhere. What a driver reads from
its pin map (``lamp_pixels``, ``key_lamps``) and the error it raises
(``DriverError``) are the pin map's own, in ``nimatron.config.boards``: the
drivers import them from there, and this package only chooses among them.

    >>> from nimatron.config import boards
    >>> from nimatron.drivers import open_io
    >>> spec = boards.board("pi-leds")
    >>> io = open_io(spec, boards.layout(spec))      # doctest: +SKIP
"""

# driver name -> module (imported only when chosen)
DRIVERS = {
    "gpiozero": "gpiozero_io",
    "circuitpython": "circuitpython_io",
    "onboard": "onboard_io",
}


def open_io(board_spec, layout, **options):
    """The io object for ``board_spec`` (a dict from ``boards.BOARDS``).

    ``layout`` is the lamps per row the game uses. ``options`` go to the
    driver (``pin_factory=`` for gpiozero).
    """
    name = board_spec.get("driver")
    if name == "gpiozero":
        from .gpiozero_io import GpiozeroIO

        return GpiozeroIO(board_spec, layout, **options)
    if name == "circuitpython":
        from .circuitpython_io import CircuitPythonIO

        return CircuitPythonIO(board_spec, layout, **options)
    if name == "onboard":
        from .onboard_io import OnboardIO

        return OnboardIO(board_spec, layout, **options)
    from ..config.boards import DriverError

    raise DriverError("unknown driver %r (choose from %s)" % (name, ", ".join(sorted(DRIVERS))))
