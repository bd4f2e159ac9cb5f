"""Pin maps: one source of truth per supported board.

Read by the firmware (which driver, which pins), the simulator (which pins to
mock) and the wiring diagrams. Pin names are the board's own: ``GPIO17`` for
gpiozero on a Raspberry Pi, ``D18`` / ``GP2`` for CircuitPython's ``board``.

Each board has:
- ``driver``: ``gpiozero`` or ``circuitpython`` (also runs on a Pi via Blinka);
- ``input``: ``rows`` (one button per row, each press puts out one lamp) or
  ``grid`` (a key under every lamp: select lamps, then DONE);
- ``lamps``: discrete LEDs (``{"kind": "leds", "rows": [[pin, ...], ...]}``,
  a fixed layout) or a NeoPixel strip (``{"kind": "neopixel", "pin": ...,
  "pixels": N, "order": "GRB", "status": [i, ...], "first": i, "layout":
  [7, 7, 7, 7]}``; the rows are laid out along the strip after ``first``, so
  a preset may ask for another layout that fits, such as one row of 21);
  ``"shape": "ring"`` marks a ring of pixels for circular Nim;
- ``status``: for LED boards, pins of the four status lamps;
- ``buttons``: role -> pin for ``rows`` input (``row0``..., ``done``, ``new``);
  for ``grid`` input ``matrix`` gives ``keypad.KeyMatrix`` row and column pins
  (key R C sits under lamp R C) and ``buttons`` holds ``done`` and ``new``;
- ``brightness``: the NeoPixel brightness cap from the power budget;
- ``preset``: the preset it starts with.
"""

STATUS = ("visitor", "machine", "champ", "machine_wins")

BOARDS = {
    "pi-leds": {
        "about": "Raspberry Pi, discrete LEDs in rows of 1-3-5-7, one button per row",
        "driver": "gpiozero",
        "input": "rows",
        "lamps": {
            "kind": "leds",
            "rows": [
                ["GPIO4"],
                ["GPIO17", "GPIO27", "GPIO22"],
                ["GPIO5", "GPIO6", "GPIO13", "GPIO19", "GPIO26"],
                ["GPIO18", "GPIO23", "GPIO24", "GPIO25", "GPIO12", "GPIO16", "GPIO20"],
            ],
        },
        "status": {"visitor": "GPIO21", "machine": "GPIO7", "champ": "GPIO8", "machine_wins": "GPIO11"},
        "buttons": {"row0": "GPIO2", "row1": "GPIO3", "row2": "GPIO9", "row3": "GPIO10",
                    "done": "GPIO14", "new": "GPIO15"},
        "preset": "marienbad",
    },
    "pi-neopixel": {
        "about": "Raspberry Pi, a 120-pixel NeoPixel strip (Blinka), one button per row",
        "driver": "circuitpython",
        "input": "rows",
        "lamps": {"kind": "neopixel", "pin": "D18", "pixels": 120, "order": "GRB",
                  "status": [0, 1, 2, 3], "first": 4, "layout": [7, 7, 7, 7]},
        "buttons": {"row0": "D17", "row1": "D27", "row2": "D22", "row3": "D23",
                    "done": "D24", "new": "D25"},
        "brightness": 0.25,
        "preset": "nimatron",
    },
    "pico-neopixel": {
        "about": "Raspberry Pi Pico (RP2040) on CircuitPython, a 32-pixel strip, row buttons",
        "driver": "circuitpython",
        "input": "rows",
        "lamps": {"kind": "neopixel", "pin": "GP0", "pixels": 32, "order": "GRB",
                  "status": [0, 1, 2, 3], "first": 4, "layout": [7, 7, 7, 7]},
        "buttons": {"row0": "GP2", "row1": "GP3", "row2": "GP4", "row3": "GP5",
                    "done": "GP6", "new": "GP7"},
        "brightness": 0.2,
        "preset": "nimatron",
    },
    "pico-grid": {
        "about": "Raspberry Pi Pico, an 8x8 NeoPixel matrix over an 8x8 key matrix",
        "driver": "circuitpython",
        "input": "grid",
        "lamps": {"kind": "neopixel", "pin": "GP0", "pixels": 68, "order": "GRB",
                  "status": [64, 65, 66, 67], "first": 0, "layout": [8, 8, 8, 8, 8, 8, 8, 8],
                  "fixed": True},
        "matrix": {"rows": ["GP2", "GP3", "GP4", "GP5", "GP6", "GP7", "GP8", "GP9"],
                   "columns": ["GP10", "GP11", "GP12", "GP13", "GP14", "GP15", "GP16", "GP17"]},
        "buttons": {"done": "GP18", "new": "GP19"},
        "brightness": 0.15,
        "preset": "allheaps",
    },
    "pico-ring": {
        "about": "Raspberry Pi Pico, a 16-pixel NeoPixel ring over a 4x4 key matrix",
        "driver": "circuitpython",
        "input": "grid",
        "lamps": {"kind": "neopixel", "pin": "GP0", "pixels": 20, "order": "GRB",
                  "status": [16, 17, 18, 19], "first": 0, "layout": [16], "shape": "ring",
                  "fixed": True},
        "matrix": {"rows": ["GP2", "GP3", "GP4", "GP5"], "columns": ["GP6", "GP7", "GP8", "GP9"]},
        "buttons": {"done": "GP18", "new": "GP19"},
        "brightness": 0.2,
        "preset": "circular",
    },
}


class BoardError(ValueError):
    """A pin map that cannot work: a pin used twice, a role left unwired."""


def board(name):
    """The pin map of a board, checked; BoardError names the problem."""
    if name not in BOARDS:
        raise BoardError("unknown board %r (choose from %s)" % (name, ", ".join(sorted(BOARDS))))
    spec = BOARDS[name]
    check(name, spec)
    return spec


def layout(spec):
    """Lamps per row of the board's default layout."""
    lamps = spec["lamps"]
    if lamps["kind"] == "leds":
        return [len(row) for row in lamps["rows"]]
    return list(lamps["layout"])


def pins(spec):
    """Every (pin, role) the board uses, for checks and diagrams."""
    out = []
    lamps = spec["lamps"]
    if lamps["kind"] == "leds":
        for r, row in enumerate(lamps["rows"]):
            for i, pin in enumerate(row):
                out.append((pin, "lamp %d %d" % (r, i)))
        for role in STATUS:
            out.append((spec.get("status", {}).get(role), "status " + role))
    else:
        out.append((lamps.get("pin"), "neopixel data"))
    for role, pin in sorted(spec.get("buttons", {}).items()):
        out.append((pin, role))
    matrix = spec.get("matrix")
    if matrix:
        for i, pin in enumerate(matrix.get("rows", [])):
            out.append((pin, "key row %d" % i))
        for i, pin in enumerate(matrix.get("columns", [])):
            out.append((pin, "key column %d" % i))
    return out


def roles(spec):
    """The input roles a visitor can press on this board."""
    out = ["done", "new"]
    if spec["input"] == "rows":
        out = ["row%d" % i for i in range(len(layout(spec)))] + out
    return out


def check(name, spec):
    seen = {}
    for pin, role in pins(spec):
        if not pin:
            raise BoardError("board %s: %s is not wired to a pin" % (name, role))
        if pin in seen:
            raise BoardError("board %s: pin %s is used twice (%s and %s)" % (name, pin, seen[pin], role))
        seen[pin] = role
    buttons = spec.get("buttons", {})
    for role in roles(spec):
        if role not in buttons:
            raise BoardError("board %s: button %s is not wired to a pin" % (name, role))
    lamps = spec["lamps"]
    if lamps["kind"] == "neopixel":
        used = lamps["first"] + sum(lamps["layout"])
        if used > lamps["pixels"] or len(lamps["status"]) != len(STATUS):
            raise BoardError("board %s: the layout needs more pixels than the strip has" % name)
    if spec["input"] == "grid":
        matrix = spec.get("matrix") or {}
        keys = len(matrix.get("rows", [])) * len(matrix.get("columns", []))
        if keys < sum(layout(spec)):
            raise BoardError("board %s: fewer keys than lamps" % name)
