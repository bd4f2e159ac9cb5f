# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Drivers: the only code that touches pins.

Each driver adapts one hardware library to the io port of ``nimatron.machine.ports``
(``show(lamps, status)``, ``events()``, ``close()``) and receives its pin map
(a board dict from ``nimatron.config.boards``) and the lamp layout through its
constructor. Hardware libraries are imported inside the driver modules, never
here, so ``import nimatron.drivers`` works anywhere. ``open_io`` chooses
the driver and lays its lamps out (``lamp_pixels``, ``key_lamps``), which
the driver is given; the error a driver raises (``DriverError``) is the pin
map's, in ``nimatron.config.boards``. A driver imports nothing from here.

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
    driver (``pin_factory=`` for gpiozero). A NeoPixel driver is given the
    pixel of every lamp (``lamp_pixels``: a layout the panel cannot show is
    refused here, before a pin is claimed), a key matrix's the lamp over
    each of its keys (``key_lamps``).
    """
    name = board_spec.get("driver")
    if name == "gpiozero":
        from .gpiozero_io import GpiozeroIO

        return GpiozeroIO(board_spec, layout, **options)
    lamps = board_spec["lamps"]
    pixels = lamp_pixels(lamps, layout) if lamps.get("kind") == "neopixel" else None
    if name == "circuitpython":
        from .circuitpython_io import CircuitPythonIO

        matrix = board_spec.get("matrix") if board_spec.get("input") == "grid" else None
        keys = key_lamps(lamps, layout, len(matrix["rows"]) * len(matrix["columns"])) if matrix else None
        return CircuitPythonIO(board_spec, layout, pixels, keys, **options)
    if name == "onboard":
        from .onboard_io import OnboardIO

        return OnboardIO(board_spec, layout, pixels, **options)
    from ..config.boards import DriverError

    raise DriverError("unknown driver %r (choose from %s)" % (name, ", ".join(sorted(DRIVERS))))


def lamp_pixels(lamps, layout):
    """Pixel index of every lamp, one list per row of ``layout``.

    ``lamps`` is a NeoPixel lamp map from ``boards``. The pixels sit behind
    the panel's holes, which are the board's own layout (``lamps["layout"]``)
    laid along the strip from ``first``; a game's row r therefore lights
    panel row r, so the row's button and letter name the lamps that light.
    A row shorter than its panel row takes the holes next to its button
    (the end of the panel row: lamps stand on the button like coins). One
    row longer than the first panel row (a game of 21) runs on through the
    panel's holes in order. Anything else would light lamps in another
    row's holes, or behind no hole: DriverError. On a ``fixed`` board (a
    matrix or ring, where each pixel sits over its key) a row keeps its
    place in the board's own layout, and ``layout`` must fit inside it.
    """
    from ..config.boards import DriverError  # loaded: the pin map was read with it

    first = lamps["first"]
    status = lamps.get("status", ())
    own = lamps["layout"]
    out = []
    if lamps.get("fixed"):
        if len(layout) > len(own):
            raise DriverError("layout %s has more rows than this board's fixed layout %s" % (list(layout), list(own)))
        start = first
        places = lamps.get("map")  # the pixel of every lamp of the board's own layout
        for r, n in enumerate(layout):
            if n > own[r]:
                raise DriverError("layout %s does not fit this board's fixed layout %s" % (list(layout), list(own)))
            out.append(list(places[r][:n]) if places else [start + i for i in range(n)])
            start += own[r]
        return out
    holes = 0
    for n in own:
        holes += n
    if len(own) == 1:  # one run of pixels (the Circuit Playground's ring): rows follow one another
        start = first
        for n in layout:
            out.append([start + i for i in range(n)])
            start += n
        if start - first > holes:
            raise DriverError(
                "layout %s needs %d pixels after pixel %d; the board has %d"
                % (list(layout), start - first, first, holes)
            )
        return out
    if len(layout) == 1 and layout[0] > own[0]:
        if layout[0] > holes:
            raise DriverError(
                "layout %s needs %d pixels after pixel %d; the panel has %d lamp holes"
                % (list(layout), layout[0], first, holes)
            )
        return [[first + i for i in range(layout[0])]]
    if len(layout) > len(own):
        raise DriverError(
            "layout %s has more rows than the panel's %d rows of holes %s" % (list(layout), len(own), list(own))
        )
    start = first
    for r, n in enumerate(layout):
        if n > own[r]:
            raise DriverError(
                "layout %s does not fit the panel's rows of holes %s: row %d has %d holes"
                % (list(layout), list(own), r + 1, own[r])
            )
        out.append([start + own[r] - n + i for i in range(n)])
        start += own[r]
    for row in out:
        for p in row:
            if p in status:
                raise DriverError("layout %s runs over status pixel %d" % (list(layout), p))
    return out


def key_lamps(lamps, layout, keys):
    """(row, index) of the lamp over each key number of a key matrix, or None.

    Key numbers count row-major through the board's lamp layout (key n sits
    under the n-th lamp); keys past the last lamp, or under a lamp outside
    ``layout``, map to None.
    """
    own = lamps["layout"] if lamps.get("fixed") else layout
    out = []
    for r, n in enumerate(own):
        for i in range(n):
            inside = r < len(layout) and i < layout[r]
            out.append((r, i) if inside else None)
    while len(out) < keys:
        out.append(None)
    return out[:keys]
