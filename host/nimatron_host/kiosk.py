# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron install-pi --kiosk``: the crowd view on the Pi's own HDMI screen.

What runs on a Pi exhibit: the machine (``python -m nimatron``, the real
GPIO) owns the lamps and buttons; the crowd view is ``nimatron display
LINE --web``, fed by the machine's host link as a board over USB would feed
it; Chromium in kiosk mode shows ``/crowd`` full screen. The machine and the
display each need one end of a serial line, which ``socat`` makes as two
linked pseudo-terminals with fixed names. Four units, each restarted by
systemd, each waiting for the one before:

    nimatron-line.service     socat: /run/nimatron/machine <-> /run/nimatron/screen
    nimatron.service          the machine, its host link on /run/nimatron/machine
    nimatron-display.service  nimatron display /run/nimatron/screen --web --port N
    nimatron-screen.service   chromium --kiosk http://localhost:N/crowd?slow=1

The machine's own process stays the game (nothing served from it), and the
display can only watch: nothing on the screen can press a button or change
a setting. Every value is checked and escaped as ``install_pi`` does.
"""

import os

RUN = "/run/nimatron"  # RuntimeDirectory=nimatron of the line unit
MACHINE_END = RUN + "/machine"
SCREEN_END = RUN + "/screen"
UNITS = ("nimatron-line.service", "nimatron-display.service", "nimatron-screen.service")
# socat makes its links a moment after it starts: a machine started first would find no
# line and exit 2, which its unit does not restart; so each end waits for its link
WAIT_FOR_LINK = 'ExecStartPre=/bin/sh -c "while [ ! -e %s ]; do sleep 0.2; done"'
BROWSERS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")  # Raspberry Pi OS has had both names


def add_arguments(p):
    p.add_argument(
        "--kiosk",
        action="store_true",
        help="also show the crowd view on the Pi's HDMI screen (Chromium in kiosk mode, "
        "fed by 'nimatron display' over a socat line)",
    )
    p.add_argument(
        "--web-port",
        type=int,
        default=8000,
        metavar="N",
        help="--kiosk: the port of the display's pages, on localhost (default 8000)",
    )
    p.add_argument("--lang", default="en", help="--kiosk: the crowd view's language: en, es or ru (default en)")
    p.add_argument(
        "--browser", help="--kiosk: the Chromium to start (default: %s, whichever is there)" % " or ".join(BROWSERS)
    )
    p.add_argument("--slow", action="store_true", help="--kiosk: Nimrod's panel built up step by step (?slow=1)")


def check(args, user):
    """UsageError for a kiosk that could not run, before a line is written."""
    from nimatron_sim.words import languages

    from .cli import UsageError

    for name in ("lang", "browser"):
        value = getattr(args, name)
        if value is not None and any(ord(c) < 32 or ord(c) == 127 for c in value):
            raise UsageError("--%s holds a control character (a line break?): refused" % name)
    if not args.kiosk:
        for name, default in (("web_port", 8000), ("lang", "en"), ("browser", None), ("slow", False)):
            if getattr(args, name) != default:
                raise UsageError("--%s is for --kiosk only" % name.replace("_", "-"))
        return
    if args.serial:
        raise UsageError(
            "--kiosk gives the machine's host link to the screen (%s): it cannot also be on --serial %s"
            % (MACHINE_END, args.serial[:40])
        )
    if not 1024 <= args.web_port <= 65535:
        raise UsageError("--web-port must be between 1024 and 65535, got %d" % args.web_port)
    if args.lang not in languages():
        raise UsageError("--lang must be one of %s, got %r" % (", ".join(languages()), args.lang[:20]))
    if args.browser is not None and not os.path.isabs(args.browser):
        raise UsageError("--browser must be an absolute path, got %r" % args.browser[:80])
    if not user or user == "root":
        raise UsageError(
            "--kiosk needs --user: the desktop's user, whose screen shows the crowd view "
            "(Chromium does not run as root)"
        )


def browser(args):
    """The Chromium to start: --browser, else the first of BROWSERS that is there."""
    if args.browser:
        return args.browser
    for path in BROWSERS:
        if os.path.exists(path):
            return path
    return BROWSERS[0]


def units(args, user, quote):
    """{file name: text} of the three kiosk units (``quote``: install_pi's, for ExecStart words)."""
    python = quote(args.python)
    who = ["User=%s" % user]
    restart = ["Restart=always", "RestartSec=2"]
    line = (
        [
            "[Unit]",
            "Description=Nimatron: the serial line between the machine and its screen",
            "",
            "[Service]",
            "ExecStart=/usr/bin/socat pty,raw,echo=0,link=%s pty,raw,echo=0,link=%s" % (MACHINE_END, SCREEN_END),
            "RuntimeDirectory=nimatron",
        ]
        + who
        + restart
        + ["", "[Install]", "WantedBy=multi-user.target", ""]
    )
    display = (
        [
            "[Unit]",
            "Description=Nimatron: the crowd view's pages, fed by the machine",
            "After=nimatron.service",
            "BindsTo=nimatron-line.service",
            "",
            "[Service]",
            WAIT_FOR_LINK % SCREEN_END,
            "ExecStart=%s -m nimatron_host display %s --web --port %d --lang %s"
            % (python, SCREEN_END, args.web_port, quote(args.lang)),
            "Environment=PYTHONUNBUFFERED=1",
        ]
        + who
        + restart
        + ["", "[Install]", "WantedBy=multi-user.target", ""]
    )
    url = "http://localhost:%d/crowd?lang=%s%s" % (args.web_port, args.lang, "&slow=1" if args.slow else "")
    uid = _uid(user)
    # until the pages answer (a kiosk opened too early shows an error page); one line, no quotes, no curl
    wait = (
        "import socket,time;[time.sleep(1) for _ in iter(lambda: socket.socket().connect_ex("
        "(socket.inet_ntoa(bytes([127,0,0,1])),%d)),0)]" % args.web_port
    )
    screen = (
        [
            "[Unit]",
            "Description=Nimatron: the crowd view on the HDMI screen (Chromium in kiosk mode)",
            "After=nimatron-display.service graphical.target",
            "Wants=nimatron-display.service",
            "",
            "[Service]",
            "ExecStartPre=%s -c %s" % (python, quote(wait)),
            "TimeoutStartSec=300",
            "ExecStart=%s --kiosk --noerrdialogs --disable-infobars --incognito --no-first-run "
            "--disable-translate --overscroll-history-navigation=0 %s" % (quote(browser(args)), quote(url)),
            "Environment=DISPLAY=:0",
        ]
        + (["Environment=XDG_RUNTIME_DIR=/run/user/%d" % uid] if uid is not None else [])
        + who
        + restart
        + ["", "[Install]", "WantedBy=graphical.target", ""]
    )
    return {
        "nimatron-line.service": "\n".join(line),
        "nimatron-display.service": "\n".join(display),
        "nimatron-screen.service": "\n".join(screen),
    }


def _uid(user):
    """The desktop user's uid (its XDG_RUNTIME_DIR), when this machine has that user."""
    try:
        import pwd

        return pwd.getpwnam(user).pw_uid
    except (ImportError, KeyError):
        return None
