# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron display PORT --web``: a second screen for a real Nimatron.

Serves the play page (read-only) and the crowd view (``/crowd``) of the
machine on a serial port: a board over USB, a Pi's link, or ``nimatron sim
--serial``. For a museum's big screen, a Pi's own HDMI (see README,
"A kiosk screen on the Pi"), or a classroom's projector:

    nimatron display /dev/ttyACM1 --web --port 8000 --lang es
    # then open http://localhost:8000/crowd

It only watches: no page can press a button or change a setting.
"""

import sys


def add_parser(sub):
    p = sub.add_parser(
        "display",
        help="serve the page and the crowd view of a real machine (--web)",
        description=__doc__.split("\n")[0],
    )
    p.add_argument("port", metavar="PORT", help="serial port of the machine's host link")
    p.add_argument("--web", action="store_true", help="serve the pages (the only display so far)")
    p.add_argument("--port", dest="http_port", type=int, default=8000, metavar="N", help="HTTP port (default 8000)")
    p.add_argument(
        "--host",
        default="localhost",
        metavar="ADDRESS",
        help="address to serve on (default localhost; 0.0.0.0 for the LAN)",
    )
    p.add_argument("--lang", default="en", help="language of the pages: en, es or ru (default en)")


def run(args, out=sys.stdout):
    from nimatron_sim.web import serve_machines, web_problem
    from nimatron_sim.web.follow import Followed, LinkMachine

    from .cli import UsageError
    from .link import Link, checked_state

    if not args.web:
        raise UsageError("display needs --web (for a terminal, use: nimatron monitor %s)" % args.port)
    problem = web_problem(args.host, args.http_port, args.lang)
    if problem:
        raise UsageError(problem)
    link = Link(args.port)  # Failure (exit 1): cannot open, busy
    try:
        machine = LinkMachine(link, link.hello(), checked_state)
        machine.start()
    except BaseException:
        link.close()
        raise
    followed = Followed(machine)
    return serve_machines(
        followed, args.host, args.http_port, args.lang, out, "following the machine on %s" % args.port
    )
