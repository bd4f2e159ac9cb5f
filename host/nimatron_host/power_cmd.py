# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron power --board BOARD [--supply-amps A]``: a board's power budget.

    nimatron power --board pico-neopixel
    nimatron power --board pi-neopixel --supply-amps 2     # what if the supply were smaller?

Prints the supply, what hangs on it, the worst case the firmware may light
at the pin map's brightness, and the highest brightness the supply allows
(the firmware refuses more at start-up: ``nimatron.config.power``). Exit status 1
when the board as given is over its budget, 2 on bad input.
"""

import argparse
import sys

from .cli import Failure, UsageError


def add_parser(sub):
    p = sub.add_parser("power", help="a board's power budget and brightness cap", description=__doc__.split("\n")[0])
    p.add_argument(
        "--board",
        dest="board_option",
        metavar="BOARD",
        help="the board, e.g. pico-neopixel (nimatron sim --list-boards lists them)",
    )
    # the board as the first word, as before --board: still read, with a line saying so
    p.add_argument("board", nargs="?", metavar="BOARD", help=argparse.SUPPRESS)
    p.add_argument(
        "--supply-amps", type=float, metavar="A", help="the supply's rating in amps (default: the pin map's)"
    )
    p.add_argument("--brightness", type=float, metavar="B", help="check this brightness (default: the pin map's)")


def lines(name, spec, amps=None, brightness=None):
    """The budget as text lines, and the PowerError if it does not fit (or None)."""
    from nimatron.config import power

    f = power.budget(spec, amps)
    out = [
        "%s: %s" % (name, spec.get("about", "")),
        "supply      %g V %g A, loaded to at most %d %%: %d mA"
        % (f["volts"], f["amps"], int(power.DERATE * 100), int(f["allowed_ma"])),
    ]
    if f["board_ma"]:
        out.append("board       %d mA (the controller on the same supply)" % f["board_ma"])
    if f["kind"] == "leds":
        led = spec["led"]
        source = (
            "%.1f V logic" % f["logic_volts"]
            if not led.get("sink")
            else "%g V through a sink driver (Vce %.1f V)" % (f["volts"], led["sink"]["vce"])
        )
        out.append(
            "LEDs        %d at %.1f V / %g mA rated: %d ohm (E24) from %s -> %.2f mA each, %d mA all lit"
            % (f["lamps"], led["vf"], led["ma"], f["ohms"], source, f["led_ma"], int(f["leds_ma"] + 0.5))
        )
        out.append(
            "pins        all lit %.1f mA of the %d mA the GPIO pins may give (%.2f of %d mA per pin)"
            % (f["pins_ma"], f["total_limit_ma"], f["pin_ma"], f["pin_limit_ma"])
        )
        out.append("worst case  %d mA of %d mA" % (int(f["worst_ma"] + 0.5), int(f["allowed_ma"])))
        out.append("brightness  fixed by the resistors (not dimmable)")
        level = brightness
    else:
        level = spec.get("brightness", 1.0) if brightness is None else brightness
        out.append(
            "pixels      %d: %d mA dark (%d mA each), %d mA all full white (%d mA each) at brightness 1"
            % (f["lamps"], f["dark_ma"], power.DARK_MA, f["full_ma"], power.PIXEL_MA)
        )
        out.append(
            "worst case  at brightness %.2f: %d mA of %d mA"
            % (level, int(power.worst_ma(f, level) + 0.5), int(f["allowed_ma"]))
        )
        out.append(
            "brightness  cap %.2f (the most this supply allows; the pin map asks %.2f)"
            % (f["cap"], spec.get("brightness", 1.0))
        )
    try:
        power.check(name, spec, level, amps)
        problem = None
    except power.PowerError as e:
        problem = e
    # over budget: the verdict names it, the one sentence why goes to stderr once (``run``)
    out.append("verdict     " + ("OVER BUDGET" if problem else "fits"))
    return out, problem


def which_board(args):
    """The board named by --board, or (as before) by the first word, said once."""
    if args.board is not None and args.board_option is not None and args.board != args.board_option:
        raise UsageError(
            "two boards given (%s and --board %s): give one, with --board" % (args.board, args.board_option)
        )
    if args.board_option is None and args.board is None:
        raise UsageError("which board? give --board BOARD (nimatron sim --list-boards lists them)")
    if args.board_option is None:
        print("nimatron power: the board as the first word will go: write --board %s" % args.board, file=sys.stderr)
    return args.board_option or args.board


def run(args):
    from nimatron.config import boards, power

    args.board = which_board(args)
    try:
        spec = boards.board(args.board)
    except ValueError as e:
        raise UsageError(str(e)) from e
    if args.supply_amps is not None and not 0 < args.supply_amps < 1000:
        raise UsageError("--supply-amps must be above 0 (amps), not %g" % args.supply_amps)
    if args.brightness is not None and not 0 < args.brightness <= 1:
        raise UsageError("--brightness must be above 0 and at most 1, not %g" % args.brightness)
    try:
        out, problem = lines(args.board, spec, args.supply_amps, args.brightness)
    except power.PowerError as e:
        raise UsageError("board %s: %s" % (args.board, e)) from e
    sys.stdout.write("\n".join(out) + "\n")
    if problem:
        raise Failure(str(problem))
    return 0
