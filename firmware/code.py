"""CircuitPython entry point: the Nimatron on this board.

Put it on the board with ``nimatron deploy --to CIRCUITPY --board NAME``
(code.py, boot.py, lib/nimatron with the board's pin map, and the neopixel
library). Change ``BOARD`` to your pin map in ``nimatron/pinmaps/``, or put
``{"board": "pico-grid", "preset": "grundy"}`` in ``settings.json``.
"""

import json

import supervisor

BOARD = "pico-neopixel"     # the pin map nimatron/pinmaps/pico-neopixel.json
SETTINGS = "settings.json"      # beside code.py (CircuitPython runs it from /)
TICKS_PERIOD = 1 << 29      # supervisor.ticks_ms() wraps here

supervisor.runtime.autoreload = False  # a museum PC touching the drive must not restart the game


def read_settings(path):
    """The operator's overrides, or {} if there is no readable file."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError:
        return {}
    except ValueError as e:
        print("%s is not valid JSON (%s): using the defaults" % (path, e))
        return {}
    if not isinstance(data, dict):
        print("%s must hold a JSON object: using the defaults" % path)
        return {}
    return data


def start(now):
    from nimatron.app import make_controller

    overrides = read_settings(SETTINGS)
    board = overrides.pop("board", BOARD)
    try:
        return make_controller(board, overrides, now_ms=now)
    except ValueError as e:  # a bad setting must not leave the exhibit dark
        if not overrides:
            raise
        print("settings rejected (%s): starting with the board's defaults" % e)
        return make_controller(board, {}, now_ms=now)


def main():
    # A millisecond clock that never wraps: sum the wrap-safe differences of
    # supervisor.ticks_ms() (it wraps every 2**29 ms, about 6 days).
    now = 0
    last = supervisor.ticks_ms()
    controller = start(now)
    from nimatron.transports import usb_link  # the host link on usb_cdc.data (or None)

    link = usb_link(controller, read_settings(SETTINGS).get("board", BOARD), now)
    while True:
        ticks = supervisor.ticks_ms()
        now += (ticks - last) & (TICKS_PERIOD - 1)
        last = ticks
        controller.update(now)
        if link:
            link.poll(now)


try:
    main()
except Exception as e:  # noqa: BLE001 - an exhibit restarts rather than sits dark
    import time

    try:
        import traceback

        traceback.print_exception(e)
    except Exception:  # noqa: BLE001
        print(repr(e))
    time.sleep(5)
    supervisor.reload()
