# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Every command in the manual runs as written after ``./run.sh`` from a fresh clone.

The kind: a page shows a command that does not run for its reader. After
``./run.sh`` the command is ``./run.sh ARGS`` or ``.venv/bin/nimatron ARGS``;
a bare ``nimatron`` (or ``python``, ``pytest``, ``mkdocs``) is on no one's
PATH. A renamed option, a synopsis with ``[--brackets]`` or ``PORT`` left in
a code block, a tool that moved: each is one more example.

Every line of every ``sh`` code block in README.md and docs/*.md is read as
the shell would (continuation lines joined, comments dropped, ``VAR=value``
and ``time`` in front set aside) and checked by what it runs:

- ``./run.sh`` and ``.venv/bin/nimatron``: parsed by the real ``nimatron``
  parser (an unknown subcommand or option fails), then run as written where
  that is safe and quick (``SAFE`` below), or as its quick variant
  (``hardware --check``, a soak of 20 games, a deploy into the test's own
  folder, the simulator headless); the rest stay parsed only, for the
  reason ``NOT_RUN`` (or ``check_nimatron``) gives.
- ``.venv/bin/python``: the script or test files it names exist; a tool's
  ``--help`` is run.
- ``.venv/bin/X``, ``tools/*.sh``, the emulator's scripts: the program exists.

A block in another language (``text``, ``json``) is output or data, not
commands; a block with no language that holds a command fails (label it).
"""

import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
VENV_BIN = pathlib.Path(sys.executable).parent
SHELL = {"sh", "bash", "shell", "console"}

# after ./run.sh, none of these is on the reader's PATH
BARE = {
    "nimatron": ".venv/bin/nimatron (or ./run.sh)",
    "python": ".venv/bin/python",
    "python3": ".venv/bin/python",
    "pytest": ".venv/bin/python -m pytest",
    "mkdocs": ".venv/bin/mkdocs",
    "pip": ".venv/bin/pip",
    "ruff": ".venv/bin/ruff",
    "mypy": ".venv/bin/mypy",
    "micropython": ".venv/bin/micropython",
}

# subcommands run exactly as written (quick, writing nothing outside the test's folder)
SAFE = {"solve", "power", "ports", "tables"}

# subcommands not run, and why (each is parsed by the real parser all the same)
NOT_RUN = {
    "class": "a server that runs until stopped (tests/test_class.py drives it)",
    "monitor": "needs a Nimatron on a serial port",
    "audits": "needs a Nimatron on a serial port",
    "config": "needs a Nimatron on a serial port",
    "play": "needs a Nimatron on a serial port",
    "display": "needs a Nimatron on a serial port, and serves a page until stopped",
    "install-pi": "writes systemd units as root on a Raspberry Pi",
    "demo": "plays in the terminal until stopped",
}


def commands():
    """(page, line number, command) for every command in a shell code block."""
    found = []
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            fence = re.match(r"^ {0,3}(`{3,}|~{3,})\s*([\w-]*)", lines[i])
            if not fence:
                i += 1
                continue
            lang, j = fence.group(2), i + 1
            while j < len(lines) and not lines[j].lstrip().startswith(fence.group(1)):
                j += 1
            if lang in SHELL or lang == "":
                k = i + 1
                while k < j:
                    start, text = k + 1, lines[k]
                    while k + 1 < j and (text.endswith("\\") or not closed(text)):
                        k += 1
                        text = text[:-1] + " " + lines[k].strip() if text.endswith("\\") else text + "\n" + lines[k]
                    k += 1
                    if text.strip() and not text.lstrip().startswith("#"):
                        found.append((page.relative_to(ROOT).as_posix(), start, text.strip(), lang))
            i = j + 1
    return found


def closed(text):
    """Whether the shell would read this as whole (no quotation left open)."""
    try:
        shlex.split(text, comments=True)
    except ValueError:
        return False
    return True


def words(text):
    """The command's words, its environment and whether it runs under sudo;
    None for a line that only sets variables."""
    tokens = shlex.split(text, comments=True)
    env, root = {}, False
    while tokens and (re.match(r"^[A-Z_][A-Z0-9_]*=", tokens[0]) or tokens[0] in ("time", "sudo")):
        if tokens[0] == "sudo":
            root = True
        elif tokens[0] != "time":
            key, _, value = tokens[0].partition("=")
            env[key] = value
        tokens.pop(0)
    return (tokens, env, root) if tokens else None


def nimatron(args, cwd, stdin=None, timeout=120):
    return subprocess.run(
        [str(VENV_BIN / "nimatron")] + args,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL if stdin is None else stdin,
    )


RAN = {}  # a command that writes nothing, run once for every page that shows it


def check_nimatron(args, root, cwd):
    """Parse with the real parser; run it where that is safe. Returns what was done."""
    from nimatron_host import cli

    only = next((a for a in args if a in cli.COMMANDS), None)
    try:
        parsed = cli.build_parser(only).parse_args(args)
    except cli.UsageError as e:
        raise AssertionError("nimatron %s: %s" % (" ".join(args), e)) from e
    except SystemExit as e:  # --help
        assert e.code == 0, args
        return "ran its help"
    command = parsed.command
    assert command, "no subcommand: %r" % args
    if "<" in args or ">" in args or "|" in args:
        return "parsed (reads or writes a file of the reader's own)"
    if root or command in NOT_RUN:
        return "parsed (%s)" % (NOT_RUN.get(command) or "runs as root")
    run_args = list(args)
    if command == "sim":
        if not (parsed.list_boards or parsed.headless or parsed.screenshot):
            return "parsed (the terminal app or the web server, which run until stopped)"
        if parsed.headless and (parsed.until_killed or parsed.serial):
            return "parsed (a headless machine on a pseudo-terminal, which runs until stopped)"
        if parsed.screenshot:
            run_args[run_args.index(parsed.screenshot)] = str(pathlib.Path(cwd) / "shot.svg")
    elif command == "deploy":
        target = pathlib.Path(parsed.to)
        if target.is_absolute():
            return "parsed (needs a board's drive)"
        run_args.append("--offline")  # into a folder of the test's own (cwd), as a maker deploys to ./build
    elif command == "hardware":
        if not parsed.check:
            run_args.append("--check")  # the quick variant: rewrites nothing
    elif command == "soak":
        games = run_args.index("--games") + 1 if "--games" in run_args else None
        if games:
            run_args[games] = "20"  # the quick variant of a long run
        else:
            run_args += ["--games", "20"]
    elif command not in SAFE:
        raise AssertionError("nimatron %s: say in SAFE or NOT_RUN whether this test may run it" % command)
    key = tuple(run_args)
    if command in ("deploy", "sim") or key not in RAN:  # those write into the test's folder: run each time
        RAN[key] = nimatron(run_args, cwd, stdin=subprocess.DEVNULL)
    done = RAN[key]
    assert done.returncode == 0, "nimatron %s exited %d: %s" % (
        " ".join(run_args),
        done.returncode,
        (done.stderr or done.stdout)[-600:],
    )
    return "ran" if run_args == list(args) else "ran as: nimatron " + " ".join(run_args)


def check(text, cwd):
    """What this test did with one command; AssertionError if it cannot run as written."""
    got = words(text)
    if got is None:
        return "sets variables"
    results = []
    for part in " ".join(shlex.quote(w) if w not in ("&&", ";") else w for w in got[0]).split(" && "):
        results.append(check_one(words(part) or ([], {}, False), got[2], cwd, text))
    return "; ".join(results)


def check_one(got, root, cwd, whole):
    tokens, _env, root2 = got
    root = root or root2
    program, args = tokens[0], tokens[1:]
    if program in BARE:
        raise AssertionError("%r: %s is not on the PATH after ./run.sh: write %s" % (whole, program, BARE[program]))
    if any(a.startswith("[") or re.match(r"^[A-Z][A-Z0-9_]{2,}$", a) for a in args):
        raise AssertionError("%r: a synopsis ([--options], PLACEHOLDERS) is not a command: show a real one" % whole)
    if program == "mkdir":
        subprocess.run(["mkdir"] + args, cwd=cwd, check=True)
        return "ran"
    if program == "./run.sh":
        return check_nimatron(args or ["sim"], root, cwd)
    if program == ".venv/bin/nimatron":
        return check_nimatron(args, root, cwd)
    if program == "./test.sh":
        for arg in args:
            if arg.startswith("tests/"):
                assert (ROOT / arg.split("::")[0]).exists(), "%r: %s does not exist" % (whole, arg)
        return "not run (the suite itself)"
    if program == ".venv/bin/python":
        if args[:1] == ["-m"]:
            for arg in args[2:]:
                if arg.startswith("tests/"):
                    assert (ROOT / arg.split("::")[0]).exists(), "%r: %s does not exist" % (whole, arg)
            return "not run (the tests it names exist)"
        if args[:1] == ["-c"]:
            return "not run (a one-line program)"
        script = ROOT / args[0]
        assert script.is_file(), "%r: %s does not exist" % (whole, args[0])
        if args[1:] == ["--help"]:
            done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, "%r: %s" % (whole, done.stderr[-400:])
            return "ran"
        return "not run (the emulator or a long measurement: the script exists)"
    if program.startswith(".venv/bin/"):
        name = program[len(".venv/bin/") :]
        if (VENV_BIN / name).exists() or "pip install" in whole:
            return "not run (installed in .venv)"
        raise AssertionError("%r: %s is not installed in .venv by ./run.sh" % (whole, program))
    if program.startswith(("tools/", "../shared/tools/")):
        path = ROOT / program
        if program.startswith("../shared/") and not (ROOT.parent / "shared").is_dir():
            pytest.skip("no shared/ beside this checkout")
        assert path.is_file() and os.access(path, os.X_OK), "%r: %s is not an executable script" % (whole, program)
        return "not run (the emulator: minutes of CPU a run)"
    raise AssertionError(
        "%r: %s is no program the manual's reader has: add it to this test, with why" % (whole, program)
    )


COMMANDS = commands()


@pytest.mark.parametrize("page, line, text, lang", COMMANDS, ids=["%s:%d" % c[:2] for c in COMMANDS])
def test_every_command_in_the_manual_runs_as_written(page, line, text, lang, tmp_path):
    if lang == "":
        program = text.split()[0]
        assert program not in BARE and not program.startswith(("./", ".venv/", "tools/")), (
            "%s:%d: a command in a code block with no language: label it ```sh" % (page, line)
        )
        return
    try:
        check(text, tmp_path)
    except AssertionError as e:
        raise AssertionError("%s:%d: %s" % (page, line, e)) from None


@pytest.mark.parametrize(
    "text, why",
    [
        ("nimatron sim --board pico-grid", "write .venv/bin/nimatron (or ./run.sh)"),  # not on the PATH
        ("./run.sh sim --bord pico-grid", "unrecognized arguments: --bord"),  # no such option
        ("./run.sh solve --rules nosuch 3 4 5", "exited 2"),  # runs, refuses the rules
        (".venv/bin/nimatron power --board toaster", "exited 2"),  # runs, knows no such board
        (".venv/bin/nimatron ports [--probe]", "a synopsis"),  # not a command
        (".venv/bin/python tools/no_such_tool.py --help", "does not exist"),
        ("python -m nimatron --board pi-leds", "write .venv/bin/python"),
        ("tools/no_such_script.sh", "not an executable script"),
        ("make docs", "no program the manual's reader has"),
    ],
)
def test_a_wrong_command_fails(text, why, tmp_path):
    with pytest.raises(AssertionError) as wrong:
        check(text, tmp_path)
    assert why in str(wrong.value)


def test_the_pages_have_commands_to_check():
    pages = {page for page, _, _, lang in COMMANDS if lang in SHELL}
    assert {"README.md", "docs/simulator.md", "docs/board.md", "docs/host-link.md"} <= pages
