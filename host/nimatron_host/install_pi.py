# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron install-pi``: start the Nimatron when a Raspberry Pi boots.

Writes a systemd unit that runs ``python -m nimatron --board NAME``, then
says how to enable it. ``--print`` only prints the unit. The board and
preset are checked first by the code the machine starts with, so a unit
that could never run is never written; every value is quoted the way
systemd reads it (``%`` and ``$`` escaped) and control characters are
refused, so no value can add a line to the unit.

    sudo nimatron install-pi --board pi-leds          # on the Pi: asks, then writes /etc/systemd/system
    nimatron install-pi --board pi-neopixel --serial /dev/ttyGS0 --print
    sudo nimatron install-pi --board pi-leds --user pi --kiosk --lang es   # and the crowd view on HDMI

Into the system's own folder it writes only on a Raspberry Pi (its
device-tree model says so; ``--not-a-pi`` overrides) and after a yes
(``--yes`` for scripts); ``--unit-dir`` writes anywhere else without asking.

``--kiosk`` adds the units that show the crowd view on the Pi's own screen
(``kiosk``: a socat line, ``nimatron display --web``, Chromium in kiosk mode).
"""

import os
import re
import sys

from . import kiosk
from .cli import Failure, UsageError

UNIT = "nimatron.service"
SYSTEM_UNITS = "/etc/systemd/system"  # the system's own folder: written only on a Pi, and asked first
MODEL_FILES = ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model")
# useradd's rule (Debian's NAME_REGEX, relaxed to what systemd accepts as User=)
USER_NAME = re.compile(r"[a-z_][a-z0-9_-]{0,30}\$?\Z")
# Restart after a crash, but not in a loop: a machine that fails 10 times in
# 2 minutes stops (systemctl status says why). Exit status 2 is a usage error
# a person must mend (a setting, a --state naming someone's file, a link or a
# folder, no permission, another Nimatron on the file), which no restart can;
# python -m nimatron never gives it for a fault at start (a damaged lock file,
# a read error: tried again, said, and the exhibit plays).
RESTART = ["Restart=always", "RestartSec=5", "RestartPreventExitStatus=2"]
START_LIMITS = ["StartLimitIntervalSec=120", "StartLimitBurst=10"]


def add_parser(sub):
    p = sub.add_parser(
        "install-pi",
        help="a systemd unit that starts the Nimatron on boot (Raspberry Pi)",
        description=__doc__.split("\n")[0],
    )
    p.add_argument("--board", required=True, help="pin map, e.g. pi-leds or pi-neopixel")
    p.add_argument("--preset", help="preset to start with (default: the board's own)")
    p.add_argument(
        "--serial", metavar="WHERE", help="host link: a serial device such as /dev/ttyGS0 (USB gadget) or 'pty'"
    )
    p.add_argument("--user", help="run as this user (default: the one running this, or root under sudo: $SUDO_USER)")
    p.add_argument("--python", default=sys.executable, help="the Python with nimatron installed (default: this one)")
    p.add_argument("--unit-dir", default=None, help="where to write %s (default: %s)" % (UNIT, SYSTEM_UNITS))
    p.add_argument("--print", action="store_true", help="only print the unit")
    p.add_argument("--yes", action="store_true", help="do not ask before writing into %s" % SYSTEM_UNITS)
    p.add_argument(
        "--not-a-pi",
        action="store_true",
        help="write into %s even though this computer is not a Raspberry Pi" % SYSTEM_UNITS,
    )
    kiosk.add_arguments(p)


def check_args(args, user):
    """UsageError for anything the unit could not run with, before a line is written."""
    from nimatron.config import boards

    for name in ("board", "preset", "serial", "python", "user"):
        value = user if name == "user" else getattr(args, name)
        if value is not None and any(ord(c) < 32 or ord(c) == 127 for c in value):
            raise UsageError("--%s holds a control character (a line break?): refused" % name)
    try:
        spec = boards.board(args.board)
    except ValueError as e:
        raise UsageError(str(e)) from e
    if not args.board.startswith("pi-"):
        raise UsageError(
            "board %s is a CircuitPython board: use nimatron deploy for it (install-pi takes %s)"
            % (args.board, ", ".join(sorted(b for b in boards.BOARDS if b.startswith("pi-"))))
        )
    from .machine import check

    check(args.board, {"preset": args.preset} if args.preset else None)
    if user is not None and user != "root" and not USER_NAME.match(user):
        raise UsageError("--user %r is not a user name (lower-case letters, digits, _ and -, at most 32)" % user[:40])
    if not os.path.isabs(args.python):
        raise UsageError("--python must be an absolute path, got %r" % args.python[:80])
    kiosk.check(args, user)
    return spec


def notify_supported():
    """True when the ``python -m nimatron`` this unit starts speaks sd_notify
    (READY=1 once playing, WATCHDOG=1 from its main loop): only then may the
    unit ask for ``Type=notify`` and a watchdog, which would otherwise kill a
    healthy machine."""
    import importlib

    try:
        return hasattr(importlib.import_module("nimatron.__main__"), "Notifier")
    except Exception:
        return False


def unit(args, user, notify=None):
    check_args(args, user)
    if notify is None:
        notify = notify_supported()
    command = [args.python, "-m", "nimatron", "--board", args.board]
    if args.preset:
        command += ["--preset", args.preset]
    if args.serial:
        command += ["--serial", args.serial]
    line = wait = []
    if getattr(args, "kiosk", False):  # the host link goes to the screen, over the socat line
        command += ["--serial", kiosk.MACHINE_END]
        line = ["After=nimatron-line.service", "BindsTo=nimatron-line.service"]
        wait = [kiosk.WAIT_FOR_LINK % kiosk.MACHINE_END]
    lines = (
        [
            "[Unit]",
            "Description=Nimatron exhibit (board %s)" % _escape(args.board),
            "After=local-fs.target",
        ]
        + line
        + START_LIMITS
        + [
            "",
            "[Service]",
        ]
    )
    if notify:  # python -m nimatron says READY=1, then WATCHDOG=1 from its main loop
        lines += [
            "Type=notify",
            "NotifyAccess=main",
            "WatchdogSec=10",
            "StateDirectory=nimatron",
        ]  # where it keeps audits and settings
    else:
        lines += ["Type=simple"]
    lines += (
        wait
        + ["ExecStart=%s" % " ".join(_quote(c) for c in command)]
        + RESTART
        + [
            "Environment=PYTHONUNBUFFERED=1",
        ]
    )
    if user and user != "root":
        lines += ["User=%s" % user, "SupplementaryGroups=gpio spi dialout"]
    lines += ["", "[Install]", "WantedBy=multi-user.target", ""]
    return "\n".join(lines)


def _escape(word):
    """Specifiers (%h) and variables ($HOME) read as themselves."""
    return word.replace("%", "%%").replace("$", "$$")


def _quote(word):
    """One word of ExecStart: escaped, and in double quotes unless it is plain."""
    word = _escape(word)
    if word and all(c.isascii() and (c.isalnum() or c in "/._-=:+,") for c in word):
        return word
    return '"%s"' % word.replace("\\", "\\\\").replace('"', '\\"')


def model():
    """This computer's device-tree model ("Raspberry Pi 4 Model B Rev 1.5"), or None (a PC)."""
    for path in MODEL_FILES:
        try:
            with open(path, "rb") as f:
                return f.read().rstrip(b"\0\n").decode("utf-8", "replace")
        except OSError:
            continue
    return None


def system_checks(args, names):
    """Writing into the system's unit folder changes how this computer boots:
    only on a Raspberry Pi (or when told), and only after a yes."""
    here = model()
    if not args.not_a_pi and (here is None or "Raspberry Pi" not in here):
        raise UsageError(
            "this computer is not a Raspberry Pi (%s): nothing written. --print shows the units, "
            "--unit-dir writes them elsewhere, --not-a-pi installs them here anyway"
            % ("model: %s" % here[:60] if here else "no device-tree model")
        )
    if args.yes:
        return
    if not sys.stdin.isatty():
        raise UsageError(
            "writing %s into %s needs a yes: run it in a terminal, or add --yes" % (", ".join(names), SYSTEM_UNITS)
        )
    answer = input(
        "write %s into %s (the exhibit then starts at every boot)? [y/N] " % (", ".join(names), SYSTEM_UNITS)
    )
    if answer.strip().lower() not in ("y", "yes"):
        raise Failure("nothing written")


def _write_advice(error):
    """What a person can do about a unit file that could not be written: sudo
    only where permission was the cause."""
    import errno

    if error.errno in (errno.EACCES, errno.EPERM):
        return "run it with sudo, or use --print and install the units yourself"
    if error.errno in (errno.ENOENT, errno.ENOTDIR):
        return "the folder is missing: make it first, or use --print and install the units yourself"
    if error.errno == errno.EROFS:
        return "that file system is read-only: use --print and install the units yourself"
    return "use --print and install the units yourself"


def run(args):
    user = args.user or os.environ.get("SUDO_USER") or os.environ.get("USER")
    files = {UNIT: unit(args, user)}
    if args.kiosk:
        files.update(kiosk.units(args, user, _quote))
    order = [
        name
        for name in ("nimatron-line.service", UNIT, "nimatron-display.service", "nimatron-screen.service")
        if name in files
    ]
    if args.print:
        if len(files) == 1:
            sys.stdout.write(files[UNIT])
        else:
            for name in order:
                sys.stdout.write("# file: %s\n%s" % (name, files[name]))
        return 0
    unit_dir = args.unit_dir
    if unit_dir is None:
        unit_dir = SYSTEM_UNITS
        system_checks(args, order)
    if args.unit_dir is not None and not os.path.isdir(unit_dir):
        raise UsageError(
            "--unit-dir %s: %s: make the folder first, or name another"
            % (unit_dir, "not a folder" if os.path.exists(unit_dir) else "no such folder")
        )
    written = []
    for name in order:
        path = os.path.join(unit_dir, name)
        try:
            with open(path + ".tmp", "w") as f:
                f.write(files[name])
            os.replace(path + ".tmp", path)
        except OSError as e:
            raise Failure("cannot write %s: %s (%s)" % (path, e.strerror or e, _write_advice(e))) from e
        written.append(path)
    sys.stdout.write(
        "wrote %s\nenable it with:\n  sudo systemctl daemon-reload\n"
        "  sudo systemctl enable --now %s\nits log: journalctl -u %s -f\n" % (", ".join(written), " ".join(order), UNIT)
    )
    return 0
