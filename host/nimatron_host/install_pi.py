"""``nimatron install-pi``: start the Nimatron when a Raspberry Pi boots.

Writes a systemd unit that runs ``python -m nimatron --board NAME`` with
``Restart=always`` (an exhibit restarts rather than sits dark), then says how
to enable it. ``--print`` only prints the unit.

    sudo nimatron install-pi --board pi-leds
    nimatron install-pi --board pi-neopixel --serial /dev/ttyGS0 --print
"""

import os
import sys

from .cli import Failure, UsageError

UNIT = "nimatron.service"


def add_parser(sub):
    p = sub.add_parser("install-pi", help="a systemd unit that starts the Nimatron on boot (Raspberry Pi)",
                       description=__doc__.split("\n")[0])
    p.add_argument("--board", required=True, help="pin map, e.g. pi-leds or pi-neopixel")
    p.add_argument("--preset", help="preset to start with (default: the board's own)")
    p.add_argument("--serial", metavar="WHERE",
                   help="host link: a serial device such as /dev/ttyGS0 (USB gadget) or 'pty'")
    p.add_argument("--user", help="run as this user (default: the one running this, or root under sudo: $SUDO_USER)")
    p.add_argument("--python", default=sys.executable, help="the Python with nimatron installed (default: this one)")
    p.add_argument("--unit-dir", default="/etc/systemd/system", help="where to write %s" % UNIT)
    p.add_argument("--print", action="store_true", help="only print the unit")


def unit(args, user):
    from nimatron import boards

    try:
        boards.board(args.board)
    except ValueError as e:
        raise UsageError(str(e))
    command = [args.python, "-m", "nimatron", "--board", args.board]
    if args.preset:
        command += ["--preset", args.preset]
    if args.serial:
        command += ["--serial", args.serial]
    lines = [
        "[Unit]",
        "Description=Nimatron exhibit (board %s)" % args.board,
        "After=local-fs.target",
        "",
        "[Service]",
        "Type=simple",
        "ExecStart=%s" % " ".join(_quote(c) for c in command),
        "Restart=always",
        "RestartSec=2",
        "Environment=PYTHONUNBUFFERED=1",
    ]
    if user and user != "root":
        lines += ["User=%s" % user, "SupplementaryGroups=gpio spi dialout"]
    lines += ["", "[Install]", "WantedBy=multi-user.target", ""]
    return "\n".join(lines)


def _quote(word):
    if word and all(c.isalnum() or c in "/._-=:+," for c in word):
        return word
    return '"%s"' % word.replace("\\", "\\\\").replace('"', '\\"')


def run(args):
    user = args.user or os.environ.get("SUDO_USER") or os.environ.get("USER")
    text = unit(args, user)
    if args.print:
        sys.stdout.write(text)
        return 0
    path = os.path.join(args.unit_dir, UNIT)
    try:
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    except OSError as e:
        raise Failure("cannot write %s: %s (run it with sudo, or use --print and install the unit yourself)"
                      % (path, e.strerror or e))
    sys.stdout.write("wrote %s\nenable it with:\n  sudo systemctl daemon-reload\n"
                     "  sudo systemctl enable --now %s\nits log: journalctl -u %s -f\n" % (path, UNIT, UNIT))
    return 0
