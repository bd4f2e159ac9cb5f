"""``python -m nimatron --board pi-leds``: the Nimatron on a Raspberry Pi.

    python -m nimatron --board pi-leds
    python -m nimatron --board pi-neopixel --preset drnim --set think_ms=800

Opens the board's driver (gpiozero, or Blinka for NeoPixel boards), then
runs the main loop until Ctrl-C or SIGTERM, and closes the driver so the
lamps go dark. Game events go to stdout as JSON lines (for journald).
On a PC, ``GPIOZERO_PIN_FACTORY=mock`` runs a gpiozero board with no hardware.
"""

import argparse
import json
import signal
import sys
import time

TICK_S = 0.005  # sleep between loop ticks (here only: the core never sleeps)


def parse_args(argv):
    from .boards import names

    p = argparse.ArgumentParser(prog="python -m nimatron", description=__doc__.split("\n")[0])
    p.add_argument("--board", required=True, help="one of: " + ", ".join(names()))
    p.add_argument("--preset", help="preset (default: the board's own)")
    p.add_argument("--rules")
    p.add_argument("--misere", action="store_true")
    p.add_argument("--difficulty")
    p.add_argument("--seed", type=int)
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="any setting (repeatable)")
    p.add_argument("--quiet", action="store_true", help="do not print game events")
    p.add_argument("--serial", metavar="WHERE",
                   help="host link: a serial device (/dev/ttyGS0) or 'pty' (its path printed on stderr)")
    return p.parse_args(argv)


def overrides(args):
    out = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError("--set wants KEY=VALUE, got %r" % item)
        try:
            value = json.loads(value)
        except ValueError:
            pass
        out[key] = value
    for key in ("preset", "rules", "difficulty", "seed"):
        if getattr(args, key) is not None:
            out[key] = getattr(args, key)
    if args.misere:
        out["misere"] = True
    return out


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from .app import make_controller

    def listener(event):
        if not args.quiet:
            print(json.dumps(event), flush=True)

    def ms():
        return time.monotonic_ns() // 1_000_000

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        controller = make_controller(args.board, overrides(args), listener=listener, now_ms=ms())
    except ValueError as e:  # BoardError, SettingsError, PanelError, DriverError
        print("nimatron: %s" % e, file=sys.stderr)
        return 2
    link = None
    if args.serial:  # the host link (nimatron.hostlink)
        from .transports import LinkError, open_link

        try:
            link = open_link(controller, args.serial, board=args.board, now_ms=ms())
        except LinkError as e:
            controller.io.close()
            print("nimatron: %s" % e, file=sys.stderr)
            return 2
        print("serial: %s" % link.transport.path, file=sys.stderr, flush=True)
    try:
        while True:
            now = ms()
            controller.update(now)
            if link:
                link.poll(now)
            time.sleep(TICK_S)
    except KeyboardInterrupt:
        return 0
    finally:
        controller.io.close()


if __name__ == "__main__":
    sys.exit(main())
