"""``nimatron sim --web``: the same Textual face, served to a browser.

For a workshop where every seat has only a browser: ``textual-serve``
starts one ``nimatron sim`` process per browser tab (each its own machine,
on its own virtual clock) and relays the terminal over a websocket.

    nimatron sim --web --port 8000 --preset drnim
    # then open http://localhost:8000

The port is checked before anything starts: a port in use is one line on
stderr and exit status 2, never a traceback from deep inside aiohttp.
"""

import asyncio
import errno
import shlex
import socket
import sys

HOST = "localhost"
DEFAULT_PORT = 8000


def port_problem(port):
    """Why ``port`` cannot be served on localhost, in words; None if it can."""
    if not 1 <= port <= 65535:
        return "--port must be between 1 and 65535, got %d" % port
    tried = 0
    for family, address in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
        try:
            sock = socket.socket(family, socket.SOCK_STREAM)
        except OSError:
            continue  # no IPv6 here
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as aiohttp does
            sock.bind((address, port))
            tried += 1
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                return "port %d on %s is in use (another server?): choose another with --port N" % (port, HOST)
            if e.errno == errno.EACCES:
                return "no permission to listen on port %d: choose one above 1023 with --port N" % port
            # EADDRNOTAVAIL: this family has no loopback address; the other one serves
        finally:
            sock.close()
    if not tried:
        return "cannot listen on %s port %d" % (HOST, port)
    return None


def app_command(args):
    """The command textual-serve runs for each browser tab: this simulator,
    same options, in a terminal of its own."""
    argv = [sys.executable, "-m", "nimatron_host", "sim", "--board", args.board]
    for option in ("preset", "rules", "difficulty", "first", "seed"):
        value = getattr(args, option, None)
        if value is not None:
            argv += ["--" + option, str(value)]
    if getattr(args, "misere", False):
        argv.append("--misere")
    if getattr(args, "thinking", False):
        argv.append("--thinking")
    for item in getattr(args, "set", None) or ():
        argv += ["--set", item]
    return shlex.join(argv)


def make_server(command, port):
    """A textual-serve Server that, when stopped, also ends the open sessions.

    Without this, Ctrl-C with a browser tab still open waits for that tab's
    websocket (aiohttp's shutdown timeout is a minute): here each session is
    cancelled, which closes its websocket and tells its app process to quit.
    """
    from textual_serve.server import Server

    class NimatronServer(Server):
        def __init__(self, *a, **kw):
            Server.__init__(self, *a, **kw)
            self.sessions = set()

        async def handle_websocket(self, request):
            task = asyncio.current_task()
            self.sessions.add(task)
            try:
                return await Server.handle_websocket(self, request)
            finally:
                self.sessions.discard(task)

        async def on_shutdown(self, app):
            for task in list(self.sessions):
                task.cancel()

    return NimatronServer(command, host=HOST, port=port, title="Nimatron")


def serve(args, out=sys.stdout):
    """Serve the face until Ctrl-C (or SIGTERM); 0 when stopped cleanly."""
    from nimatron_host.cli import UsageError

    port = args.port
    problem = port_problem(port)
    if problem:
        raise UsageError(problem)
    server = make_server(app_command(args), port)
    out.write("Nimatron on http://%s:%d (Ctrl-C stops the server)\n" % (HOST, port))
    out.flush()
    try:
        server.serve()
    except OSError as e:  # lost a race for the port after the check
        print("nimatron sim: error: cannot serve on port %d: %s" % (port, e.strerror or e), file=sys.stderr)
        return 1
    return 0
