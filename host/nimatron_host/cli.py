# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The ``nimatron`` command: one entry point, one subcommand per job.

Each subcommand lives in its own module with ``add_parser(subparsers)`` and
``run(args)``; usage errors exit with status 2 and one line naming the
problem, never a traceback.
"""

import argparse
import sys

from nimatron_pc.errors import Failure, UsageError  # the tools import them from here

# subcommand name -> module (imported only when used, so `solve` starts fast)
COMMANDS = {
    "solve": "nimatron_host.solve",
    "tables": "nimatron_host.tables_cmd",
    "demo": "nimatron_host.demo",
    "sim": "nimatron_host.sim_cmd",
    "ports": "nimatron_host.ports",
    "monitor": "nimatron_host.monitor",
    "display": "nimatron_host.display",
    "audits": "nimatron_host.audits",
    "config": "nimatron_host.config",
    "play": "nimatron_host.play",
    "deploy": "nimatron_host.deploy",
    "install-pi": "nimatron_host.install_pi",
    "power": "nimatron_host.power_cmd",
    "hardware": "nimatron_host.hardware_cmd",
    "soak": "nimatron_sim.soak",
    "class": "nimatron_sim.classroom.cli",
}


def cut_numbers(text, longest=20):
    """``text`` with every run of more than ``longest`` digits named, not echoed.

    A 4,300-digit heap size in an error message buries the message itself.
    """
    import re

    return re.sub(r"\d{%d,}" % (longest + 1), lambda m: "a {:,}-digit number".format(len(m.group())), text)


def plain(text):
    """Help text in plain words: the module docstrings it is taken from are
    reStructuredText (``nimatron sim``, :func:`x`), which a terminal shows raw.
    The command's own name in front is dropped (the usage line says it)."""
    import re

    if not text:
        return text
    text = unmark(re.sub(r"^``nimatron[^`]*``:\s*", "", text))
    return text[:1].upper() + text[1:]


def unmark(text):
    """``text`` without reStructuredText's marks: ``x`` and :role:`x` read x."""
    import re

    return re.sub(r"``([^`]+)``", r"\1", re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", text))


class Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs["description"] = plain(kwargs.get("description"))
        kwargs["epilog"] = plain(kwargs.get("epilog"))
        super().__init__(*args, **kwargs)

    def format_help(self):
        # arguments' help strings and a command's one-line help, unmarked too
        return unmark(super().format_help())

    def error(self, message):
        raise UsageError(message)


def _module(name):
    import importlib

    return importlib.import_module(COMMANDS[name])


def build_parser(only=None):
    parser = Parser(prog="nimatron", description="The Nimatron, recreated: play, simulate, solve, deploy.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name in COMMANDS:
        if only is None or name == only:
            _module(name).add_parser(sub)
        else:
            sub.add_parser(name, help="(see nimatron %s --help)" % name)
    return parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    only = next((a for a in argv if a in COMMANDS), None)
    prefix = "nimatron" + (" " + only if only else "")
    try:
        args = build_parser(only).parse_args(argv)
        if not args.command:
            build_parser(only).print_help()
            return 2
        return _module(args.command).run(args) or 0
    except UsageError as e:
        print("%s: error: %s" % (prefix, cut_numbers(str(e))), file=sys.stderr)
        return 2
    except Failure as e:
        print("%s: %s" % (prefix, cut_numbers(str(e))), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
