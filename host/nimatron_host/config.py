# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron config PORT [KEY [VALUE]]``: read or change a Nimatron's settings.

    nimatron config /dev/ttyACM1                       # every setting
    nimatron config /dev/ttyACM1 difficulty            # one
    nimatron config /dev/ttyACM1 difficulty teach --pin 4711

Values are checked by the machine (a bad one changes nothing). When the
machine has an operator PIN, changes need ``--pin`` (or NIMATRON_PIN in the
environment, which keeps it out of the shell history); the link is locked
again afterwards. Rules, starts and misère apply from the next game. A
board running from hand-copied ``.py`` restarts for a new rule set (the
reply says ``"restart": true``): this waits until it answers again and
checks the setting came back.
"""

import json
import os
import sys

from .cli import Failure
from .link import Link, MachineError, require


def add_parser(sub):
    p = sub.add_parser("config", help="read or change a Nimatron's settings", description=__doc__.split("\n")[0])
    p.add_argument("port", metavar="PORT", help="serial port of the machine's host link")
    p.add_argument("key", nargs="?", metavar="KEY", help="a setting, e.g. difficulty")
    p.add_argument("value", nargs="?", metavar="VALUE", help="its new value, e.g. teach, on, [[1,3,5,7]]")
    p.add_argument("--pin", help="the operator PIN (default: $NIMATRON_PIN)")


def shown(value):
    return json.dumps(value) if not isinstance(value, str) else value


def one_by_one(link):
    """Every setting, asked for one at a time: for a machine whose whole
    CONFIG is longer than one reply line (many starts, say)."""
    from nimatron.config.settings import KEYS

    data = {}
    for key in KEYS:
        try:
            data.update(link.ask("CONFIG " + key))
        except MachineError as e:
            if e.code == "toolong":
                data[key] = "(longer than one reply line: %s)" % e.message
            elif e.code != "value":  # "value": a setting this machine does not have
                raise Failure(e.message) from e
    return data


def run(args):
    out = sys.stdout
    with Link(args.port) as link:
        link.hello()
        if args.value is None:
            try:
                data = link.ask("CONFIG" + (" " + args.key if args.key else ""))
                for key in data.pop("more", []) if not args.key else []:  # too long for one line with the rest
                    data.update(link.ask("CONFIG " + key))
            except MachineError as e:
                if e.code != "toolong" or args.key:
                    raise Failure(e.message) from e
                data = one_by_one(link)
            for key in sorted(data):
                out.write("%s = %s\n" % (key, shown(data[key])))
            return 0
        pin = args.pin if args.pin is not None else os.environ.get("NIMATRON_PIN")
        if pin:
            try:
                link.command("UNLOCK " + pin)
            except MachineError as e:
                raise Failure("UNLOCK refused: %s" % e.message) from e
        try:
            value = " ".join(args.value.split())
            data = link.ask("SET %s %s" % (args.key, value))
        except MachineError as e:
            if e.code == "locked":
                raise Failure("this machine has an operator PIN: give it with --pin (or NIMATRON_PIN)") from e
            raise Failure("%s not changed: %s" % (args.key, e.message)) from e
        finally:
            if pin:
                try:
                    link.command("LOCK", timeout=1)
                except Failure:
                    pass
        what = "a SET reply"
        require(data, "value", (str, int, float, bool, list, dict, type(None)), what)
        if data.get("restart") is True:  # a rule change on a board running from .py: saved, the board restarts
            out.write("the machine restarts to load the new rules...\n")
            out.flush()
            hello = link.back()
            now = link.ask("CONFIG " + args.key).get(args.key)
            if now != data["value"]:
                raise Failure(
                    "%s not changed: the machine came back with %s = %s (%s)"
                    % (args.key, args.key, shown(now), hello.get("why") or "see nimatron monitor")
                )
        out.write(
            "%s = %s  (applies %s; %s)\n"
            % (
                require(data, "key", (str,), what),
                shown(data["value"]),
                require(data, "applies", (str,), what),
                kept(data),
            )
        )
    return 0


def kept(reply):
    """How long a SET lasts, from its reply: the machine writes settings at
    most every few seconds, so a quick second SET is saved a little later."""
    if reply.get("saved") is True:
        return "saved for the next start"
    later = reply.get("saving_in_ms")
    if isinstance(later, int) and not isinstance(later, bool) and later > 0:
        return "saved for the next start in %d s" % -(-later // 1000)
    return "until the machine restarts"
