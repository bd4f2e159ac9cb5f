# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron class``'s command line (see the package's docstring)."""

import os
import sys

from nimatron_pc.errors import UsageError

DEFAULT_PORT = 8000


def default_db():
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "nimatron", "class.sqlite3")


def add_parser(sub):
    from . import __doc__ as doc

    p = sub.add_parser(
        "class",
        help="a class of phones against the machine: the teacher's laptop serves it",
        description=doc.split("\n")[0],
    )
    p.add_argument(
        "--host",
        default="0.0.0.0",
        metavar="ADDRESS",
        help="address to serve (default 0.0.0.0: the phones on this network; localhost: this computer only)",
    )
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default %d)" % DEFAULT_PORT)
    p.add_argument("--board", default="pico-neopixel", help="the machine every student plays (default pico-neopixel)")
    p.add_argument("--preset", default="nimrod", help="the rule set the class starts with (default nimrod)")
    p.add_argument("--difficulty", help="perfect, fallible, equalizer or teach (default: the preset's)")
    p.add_argument("--lang", default="en", help="the pages' first language: en, es or ru (each student chooses)")
    p.add_argument("--students", type=int, default=40, metavar="N", help="places in the class (default 40)")
    p.add_argument(
        "--db", default=None, metavar="FILE", help="where the class is kept while it runs (default %s)" % default_db()
    )
    p.add_argument("--join-url", metavar="URL", help="the address the projector shows (default: this laptop's)")
    p.add_argument("--export", metavar="FILE", help="write the class's results as CSV and stop ('-': stdout)")
    p.add_argument("--end", action="store_true", help="erase the kept class (export it first) and stop")
    p.add_argument("--seed", type=int, default=None, help=argparse_suppress())


def argparse_suppress():
    import argparse

    return argparse.SUPPRESS


def open_store(path, create=True):
    from .store import Store

    if path != ":memory:":
        if os.path.isdir(path):
            raise UsageError("--db %s is a folder; give a file" % path)
        folder = os.path.dirname(os.path.abspath(path))
        if not create and not os.path.exists(path):
            return None
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as e:
            raise UsageError("cannot make %s for --db: %s" % (folder, e.strerror or e)) from e
    import sqlite3

    try:
        return Store(path)
    except sqlite3.DatabaseError as e:
        raise UsageError("--db %s is not a class this command kept (%s)" % (path, e)) from e


def run(args):
    from nimatron.config import boards, settings

    from ..web import port_problem
    from ..words import languages

    db = args.db or default_db()
    if args.export or args.end:
        store = open_store(db, create=False)
        if store is None:
            raise UsageError("no class is kept in %s" % db)
        if args.export:
            from ..words import Words

            text = store.csv_text(Words(args.lang if args.lang in languages() else "en").preset)
            if args.export == "-":
                sys.stdout.write(text)
            else:
                try:
                    with open(args.export, "w", encoding="utf-8", newline="") as f:
                        f.write(text)
                except OSError as e:
                    raise UsageError("cannot write --export %s: %s" % (args.export, e.strerror or e)) from e
                print("nimatron class: the results are in %s" % args.export)
        if args.end:
            store.erase()
            print("nimatron class: the class kept in %s is erased" % db)
        store.close()
        return 0
    if args.board not in boards.names():
        raise UsageError("unknown --board %r; boards: %s" % (args.board, ", ".join(boards.names())))
    if args.preset not in settings.PRESETS:
        raise UsageError("unknown --preset %r; presets: %s" % (args.preset, ", ".join(settings.PRESETS)))
    if args.difficulty is not None and args.difficulty not in settings.DIFFICULTIES:
        raise UsageError("--difficulty must be one of %s, got %r" % (", ".join(settings.DIFFICULTIES), args.difficulty))
    if args.lang not in languages():
        raise UsageError("--lang must be one of %s, got %r" % (", ".join(languages()), args.lang))
    if not 1 <= args.students <= 200:
        raise UsageError("--students must be between 1 and 200, got %d" % args.students)
    if args.join_url is not None and not args.join_url.startswith(("http://", "https://")):
        raise UsageError("--join-url must start with http:// or https://, got %r" % args.join_url)
    problem = port_problem(args.port, args.host)
    if problem:
        raise UsageError(problem)
    store = open_store(db)
    from .room import ClassError, Room

    try:
        room = Room(store, args.board, args.preset, args.difficulty, seed=args.seed, limit=args.students)
    except ClassError as e:
        raise UsageError(str(e)) from e
    return serve(room, args.host, args.port, args.lang, args.join_url, db)


def open_files():
    """As many open connections as the system lets this process have: silent
    clients cost a socket each (no thread), so the socket limit is the room."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or hard > soft:
            resource.setrlimit(
                resource.RLIMIT_NOFILE, (min(hard, 65536) if hard != resource.RLIM_INFINITY else 65536, hard)
            )
    except (ImportError, ValueError, OSError):
        pass


def serve(room, host, port, lang, join_url, db, out=sys.stdout):
    """Serve the class until Ctrl-C or SIGTERM; the addresses are printed once the port listens."""
    import asyncio
    import signal

    from aiohttp import web

    from ..web import bind_address
    from .app import RUNNER, ClassApp

    app = ClassApp(room, host=host, port=port, lang=lang, join_url=join_url)
    open_files()
    import logging

    # a client's malformed request is answered (400, 413, 431), not a traceback in the teacher's terminal;
    # a fault of the class's own is one line (app.guard)
    logging.getLogger("aiohttp.server").setLevel(logging.CRITICAL)
    shown = "localhost" if app.hosts.wildcard or host in ("localhost", "127.0.0.1") else host

    async def main():
        runner = web.AppRunner(app.app, handle_signals=False, **RUNNER)
        await runner.setup()
        try:
            site = web.TCPSite(runner, bind_address(host), port, shutdown_timeout=2, reuse_address=True)
            try:
                await site.start()
            except OSError as e:  # lost a race for the port after the check
                raise UsageError("cannot serve on port %d: %s" % (port, e.strerror or e)) from e
            out.write("Nimatron class: students join at %s\n" % app.join_url())
            out.write("  the projector: http://%s:%d/projector\n" % (shown, port))
            out.write(
                "  the teacher:   http://%s:%d/teacher#key=%s  (keep this address to yourself)\n"
                % (shown, port, room.teacher_key)
            )
            out.write(
                "  the class is kept in %s until you end it (nimatron class --export FILE, then --end); "
                "Ctrl-C stops the server\n" % db
            )
            out.flush()
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(signum, stop.set)
            await stop.wait()
        finally:
            await runner.cleanup()

    try:
        asyncio.run(main())
    finally:
        room.close()
        room.store.close()
    return 0
