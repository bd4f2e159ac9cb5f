# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron sim``: the simulator, headless or behind one of its faces.

    nimatron sim --headless --board pi-leds --script game.txt   # nimatron_sim.cli
    nimatron sim                                                # the terminal app (nimatron_sim.tui)
    nimatron sim --web                                          # the web page (nimatron_sim.web)

The faces stand above the simulator (they import it; it cannot import them),
so the choice between them is made here, on the command line a user types.
The web page needs only the standard library; the terminal app needs the
simulator's extras (``nimatron[sim]``), and says so in one line without them.
"""

from .cli import UsageError


def add_parser(sub):
    from nimatron_sim import cli

    cli.add_parser(sub)


def run(args):
    from nimatron_sim import cli

    if args.list_boards or args.headless:
        return cli.run(args)
    if args.web and not args.screenshot:
        from nimatron_sim import web

        return web.serve(args)
    try:
        from nimatron_sim import tui
    except ImportError as e:
        raise UsageError(
            "the terminal app needs the simulator's extras (%s): "
            "pip install 'nimatron[sim]', or use --headless or --web" % e.name
        ) from e
    return tui.run(args)
