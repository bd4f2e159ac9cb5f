# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Build the machine for a board: pin map + settings -> layout -> controller.

    controller = make_controller("pico-neopixel", {"preset": "drnim"})

One function shared by ``code.py``, ``python -m nimatron`` and the
simulator, so they cannot drift apart. Raises BoardError, SettingsError,
PanelError or PowerError (all ValueError) with a message naming the problem.

On a board (not CPython) the pin map's checks (``boards``) and the power
budget (``power``), much of the bytecode, are needed only while a
machine starts and when its settings change: ``make_controller`` drops them
from memory when the controller is built (``forget``), and they are
imported again when asked for. ``app`` itself leaves too once the machine
has started (``startup.START_ONLY``): the controller keeps only its power
budget (``limit.PowerLimit``).
"""

from .. import forget
from ..panels.panel import PanelError
from .limit import STARTUP_ONLY, PowerLimit
from .ports import attract_frame


def choose_layout(spec, settings):
    """Lamps per row: the preset's layout where the panel's holes allow, else the board's.

    A strip's pixels sit behind the panel's holes: a preset whose rows would
    light another row's holes (or no hole) is refused with PanelError."""
    from ..config import boards

    lamps = spec["lamps"]
    own = boards.layout(spec)
    wanted = settings["layout"]
    if lamps["kind"] != "neopixel" or lamps.get("fixed") or not wanted:
        return own
    from ..drivers import lamp_pixels

    try:
        lamp_pixels(lamps, wanted)  # every lamp behind a hole of its own row (drivers.lamp_pixels)
    except boards.DriverError as e:
        raise PanelError("preset %s: %s" % (settings["preset"], e))
    if spec["input"] == "rows":
        buttons = len([r for r in spec["buttons"] if r[:3] == "row"])
        if len(wanted) > buttons:
            raise PanelError(
                "preset %s needs %d row buttons; this board has %d" % (settings["preset"], len(wanted), buttons)
            )
    return list(wanted)


def make_settings(board_name, overrides=None):
    from ..config import boards
    from ..config.settings import resolve

    spec = boards.board(board_name)
    overrides = dict(overrides or {})
    preset = overrides.pop("preset", None) or spec["preset"]
    return spec, resolve(overrides, preset)


def make_controller(board_name, overrides=None, io=None, listener=None, now_ms=0, audits=None, feed=None):
    """The controller for a board; opens the board's driver unless ``io`` is given.
    ``audits``: a ``nimatron.machine.audits.Audits`` to keep counting in (default: new).
    ``feed``: called between the steps (a board's watchdog: compiling the
    modules a start imports takes seconds, 2.6 s on an RP2040). A driver
    opened here shows attract mode's first frame at once, before the
    controller's modules compile: the first lamp comes sooner."""
    feed = feed or _nothing
    spec, settings = make_settings(board_name, overrides)
    feed()
    layout = choose_layout(spec, settings)

    limit = PowerLimit(board_name, spec)
    level = limit(settings)
    feed()
    opened = io is None
    if opened:
        from ..drivers import open_io

        options = {"brightness": level} if spec["lamps"]["kind"] == "neopixel" else {}
        io = open_io(spec, layout, **options)
    try:  # from here the pins are claimed: any failure gives them back, or every retry finds them "in use"
        if opened:  # the first lamps now, not after the controller's modules compile (1-2 s on a board)
            io.show(*attract_frame(layout, now_ms))
        forget(STARTUP_ONLY)  # before the controller's own modules load: the smaller heap's peak
        feed()
        from .controller import Controller  # after the settings: the presets file is read in a smaller heap

        feed()

        hear = getattr(io, "hear", None)  # a driver with a speaker hears the game's events
        if hear is not None:
            listener = _both(listener, hear) if listener else hear
        try:
            controller = Controller(io, settings, layout, spec["input"], listener, now_ms, audits, limit=limit)
        except PanelError:
            # rules chosen without a start (``--rules grundy`` on the ring): the
            # preset's start was for its own rules; play the largest that fits
            start = (
                None
                if "starts" in (overrides or {}) or "rules" not in (overrides or {})
                else fitting_start(settings, layout, spec["lamps"].get("shape"))
            )
            if start is None:
                raise
            settings = dict(settings, starts=[start])
            controller = Controller(io, settings, layout, spec["input"], listener, now_ms, audits, limit=limit)
    except BaseException:  # MemoryError and KeyboardInterrupt too: the next start needs the pins
        io.close()
        raise
    controller.factory_preset = spec["preset"]  # type: ignore[attr-defined]  # the operator menu's factory reset (adjust reads it with getattr: a Controller made elsewhere has none)
    forget(PLAY_FREE)
    return controller


def fitting_start(settings, layout, shape=None):
    """The first start these rules offer for these lamps (``Rules.starts_for``,
    largest first) that the board can play to the end; None if none."""
    from ..games.rules import RulesError, parse_rules
    from ..config import SettingsError
    from ..panels.playable import check_games

    rules = parse_rules(settings["rules"])
    for start in rules.starts_for(layout):
        try:
            rules.check(start, rules.has_ring)
            check_games(rules, settings["misere"], layout, [start], settings.get("counter", False))
            return start
        except (PanelError, SettingsError, RulesError):
            continue
    return None


# Not needed while games play: imported again by SET, the operator menu and a
# start (heap the searches need; docs/board.md, "What a pass costs").
PLAY_FREE = ("config.settings", "config.values")


def _nothing():
    pass


def _both(first, second):
    def listener(event):
        first(event)
        second(event)

    return listener
