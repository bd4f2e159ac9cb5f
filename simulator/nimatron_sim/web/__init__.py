# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron sim --web``: the Nimatron as a web page, and the crowd view.

A real page (HTML, CSS and SVG drawn by the page's own JavaScript; nothing
from the internet) on a small standard-library HTTP server. Each browser tab
gets its own machine: the unchanged firmware and drivers on mocked pins
(``machines.WebMachine`` around a ``Face``), on the wall clock; the page
polls its state and posts presses. ``/crowd`` follows the machine played
last, read-only: large lamps, the last moves in words and Nimrod's panel.

    nimatron sim --web --port 8000 --preset drnim --lang es
    # then open http://localhost:8000  (and http://localhost:8000/crowd)

Localhost by default; ``--host 0.0.0.0`` serves a classroom's LAN. The port
is checked before anything starts: a port in use is one line on stderr and
exit status 2, never a traceback.
"""

import errno
import signal
import socket
import sys

HOST = "localhost"
DEFAULT_PORT = 8000


def port_problem(port, host=HOST):
    """Why ``port`` cannot be served on ``host``, in words; None if it can."""
    if not 1 <= port <= 65535:
        return "--port must be between 1 and 65535, got %d" % port
    try:
        addresses = [
            (family, address[0])
            for family, _, _, _, address in socket.getaddrinfo(bind_address(host), port, type=socket.SOCK_STREAM)
        ]
    except (OSError, UnicodeError) as e:
        return "cannot serve on --host %s: %s" % (host, getattr(e, "strerror", None) or e)
    for family, address in addresses[:1]:
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
            sock.bind((address, port))
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                return "port %d on %s is in use (another server?): choose another with --port N" % (port, host)
            if e.errno == errno.EACCES:
                return "no permission to listen on port %d: choose one above 1023 with --port N" % port
            return "cannot listen on %s port %d: %s" % (host, port, e.strerror or e)
        finally:
            sock.close()
    return None


def bind_address(host):
    """localhost is served on 127.0.0.1 (browsers fall back to it from ::1)."""
    return "127.0.0.1" if host == "localhost" else host


def web_problem(host, port, lang):
    """Why the pages cannot be served so, in words; None if they can."""
    from .server import languages

    if lang not in languages():
        return "--lang must be one of %s, got %r" % (", ".join(languages()), lang)
    return port_problem(port, host)


def serve(args, out=sys.stdout):
    """``nimatron sim --web``: a machine per tab until Ctrl-C (or SIGTERM); 0 when stopped cleanly."""
    from nimatron_pc.errors import UsageError

    from ..options import overrides
    from .machines import MachineError, Machines

    host = getattr(args, "host", None) or HOST
    lang = getattr(args, "lang", None) or "en"
    problem = web_problem(host, args.port, lang)
    if problem:
        raise UsageError(problem)
    machines = Machines(args.board, overrides(args), args.seed)
    try:
        machines.create()  # bad settings: one line now, not in every tab
    except MachineError as e:
        raise UsageError(str(e)) from e
    finally:
        machines.close()
    return serve_machines(machines, host, args.port, lang, out, "a machine per browser tab")


def serve_machines(machines, host, port, lang, out=sys.stdout, what=""):
    """Serve the pages for ``machines`` (``Machines`` or ``follow.Followed``) until stopped."""
    from .server import NimatronServer

    try:
        server = NimatronServer((bind_address(host), port), machines, lang=lang, host=host)
    except OSError as e:  # lost a race for the port after the check
        machines.close()
        print("nimatron: error: cannot serve on port %d: %s" % (port, e.strerror or e), file=sys.stderr)
        return 1

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    shown = "localhost" if host == "localhost" else host
    out.write("Nimatron on http://%s:%d (%s; the crowd view: /crowd; Ctrl-C stops the server)\n" % (shown, port, what))
    out.flush()
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        machines.close()
    return 0
