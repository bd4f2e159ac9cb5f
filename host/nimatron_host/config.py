"""``nimatron config PORT [KEY [VALUE]]``: read or change a Nimatron's settings.

    nimatron config /dev/ttyACM1                       # every setting
    nimatron config /dev/ttyACM1 difficulty            # one
    nimatron config /dev/ttyACM1 difficulty teach --pin 4711

Values are checked by the machine (a bad one changes nothing). When the
machine has an operator PIN, changes need ``--pin`` (or NIMATRON_PIN in the
environment, which keeps it out of the shell history); the link is locked
again afterwards. Rules, starts and misère apply from the next game.
"""

import json
import os
import sys

from .cli import Failure
from .link import Link, MachineError


def add_parser(sub):
    p = sub.add_parser("config", help="read or change a Nimatron's settings", description=__doc__.split("\n")[0])
    p.add_argument("port", metavar="PORT", help="serial port of the machine's host link")
    p.add_argument("key", nargs="?", metavar="KEY", help="a setting, e.g. difficulty")
    p.add_argument("value", nargs="?", metavar="VALUE", help="its new value, e.g. teach, on, [[1,3,5,7]]")
    p.add_argument("--pin", help="the operator PIN (default: $NIMATRON_PIN)")


def shown(value):
    return json.dumps(value) if not isinstance(value, str) else value


def run(args):
    out = sys.stdout
    with Link(args.port) as link:
        link.hello()
        if args.value is None:
            try:
                data = link.command("CONFIG" + (" " + args.key if args.key else ""))
            except MachineError as e:
                raise Failure(e.message)
            for key in sorted(data):
                out.write("%s = %s\n" % (key, shown(data[key])))
            return 0
        pin = args.pin if args.pin is not None else os.environ.get("NIMATRON_PIN")
        if pin:
            try:
                link.command("UNLOCK " + pin)
            except MachineError as e:
                raise Failure("UNLOCK refused: %s" % e.message)
        try:
            value = " ".join(args.value.split())
            data = link.command("SET %s %s" % (args.key, value))
        except MachineError as e:
            if e.code == "locked":
                raise Failure("this machine has an operator PIN: give it with --pin (or NIMATRON_PIN)")
            raise Failure("%s not changed: %s" % (args.key, e.message))
        finally:
            if pin:
                try:
                    link.command("LOCK", timeout=1)
                except Failure:
                    pass
        out.write("%s = %s  (applies %s; %s)\n" % (
            data["key"], shown(data["value"]), data["applies"],
            "saved for the next start" if data.get("saved") else "until the machine restarts"))
    return 0
