"""``nimatron deploy --to PATH``: put the firmware on a CircuitPython board.

    nimatron deploy --to /media/$USER/CIRCUITPY --board pico-neopixel
    nimatron deploy --to ./build --board pico-grid --dry-run

Writes ``code.py``, ``boot.py``, ``safemode.py``, ``settings.json`` (the
board, and a preset if asked), ``lib/nimatron/`` (the core, ``tables.bin``,
``presets.json``, the board's pin map, only the drivers it needs, and on a
board with row buttons none of the games only a grid plays) and the Adafruit libraries
the board needs (``neopixel.py``; ``adafruit_pixelbuf`` is built into
CircuitPython). Libraries come from ``circup`` when it is installed and the
internet is reachable, otherwise from the installed Python packages of the
same libraries (circup cannot install offline).

Safe on a drive that holds other work: every file is written to a temporary
name and renamed into place; a file that is already right is not touched; a
file it did not put there is never deleted, and one it must replace
(someone else's ``code.py``) is kept as ``NAME.bak`` first. An existing
``settings.json`` keeps every key but the board and preset. What it put
there is listed in ``.nimatron-deploy.json``, so the next deploy can remove
files the firmware no longer has. It says what it changed.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

from .cli import Failure, UsageError

MANIFEST = ".nimatron-deploy.json"
# CircuitPython libraries by lamp kind: module -> (file in lib/, Python module to copy offline, circup name)
LIBRARIES = {"neopixel": ("neopixel.py", "neopixel", "neopixel"),
             "adafruit_display_text": ("adafruit_display_text", "adafruit_display_text", "adafruit_display_text")}
DRIVERS = {"circuitpython": "circuitpython_io.py", "gpiozero": "gpiozero_io.py"}
ONBOARD = ("circuitpython", "onboard")  # drivers that run on a CircuitPython board


def add_parser(sub):
    p = sub.add_parser("deploy", help="put the firmware on a CircuitPython drive (or any folder)",
                       description=__doc__.split("\n")[0])
    p.add_argument("--to", required=True, metavar="PATH", help="the CIRCUITPY drive, or any folder")
    p.add_argument("--board", help="pin map (default: the drive's settings.json, else pico-neopixel)")
    p.add_argument("--preset", help="preset to start with (written to settings.json)")
    p.add_argument("--dry-run", action="store_true", help="say what would change, write nothing")
    p.add_argument("--offline", action="store_true", help="never run circup: copy libraries from Python packages")
    p.add_argument("--mpy-cross", metavar="EXE",
                   help="precompile lib/nimatron to .mpy with this mpy-cross (it must match the board's "
                        "CircuitPython version; the venv's mpy-cross is MicroPython's)")


def firmware_dir():
    import nimatron

    here = os.path.dirname(os.path.abspath(nimatron.__file__))
    top = os.path.dirname(here)
    if not os.path.exists(os.path.join(top, "code.py")):
        raise Failure("code.py not found beside %s: deploy works from a source checkout of the Nimatron" % here)
    return top, here


def digest(data):
    return hashlib.sha256(data).hexdigest()


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def write_atomic(path, data):
    """Write ``data`` to ``path`` through a temporary file and a rename."""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".nimatron-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# The oldest CircuitPython the firmware is proven on (the emulator boots
# 8.2.9, 9.0.0 and 9.2.8; docs/board.md): deploy refuses an older one.
OLDEST = (8, 2)
# Boards whose RAM cannot hold the machine: the smallest heap that plays is
# about 115 KB (tests/bench_boards.py, docs/benchmarks.md).
NEEDED_HEAP_KB = 115
RAM_KB = {"circuitplayground_express": 32, "circuitplayground_express_crickit": 32,
          "circuitplayground_express_displayio": 32}


def boot_out(drive):
    """(CircuitPython version as a tuple or None, board id or None) from boot_out.txt.

    Its first line is ``Adafruit CircuitPython 9.2.8 on 2025-05-28; Raspberry
    Pi Pico with rp2040``; newer versions add ``Board ID:raspberry_pi_pico``.
    Without that line the board is recognised by its name in the first."""
    from nimatron.config import boards

    text = (read(os.path.join(drive, "boot_out.txt")) or b"").decode("utf-8", "replace")
    lines = text.splitlines()
    version = board_id = None
    first = lines[0] if lines else ""
    words = first.split()
    if len(words) >= 3 and words[1] == "CircuitPython":
        digits = words[2].split("-")[0].split(".")
        if len(digits) >= 2 and digits[0].isdigit() and digits[1].isdigit():
            version = (int(digits[0]), int(digits[1]), int(digits[2]) if len(digits) > 2 and digits[2].isdigit() else 0)
    for line in lines:
        if line.startswith("Board ID:"):
            board_id = line[9:].strip() or None
    if board_id is None and "; " in first:
        name = _squashed(first.split("; ", 1)[1].split(" with ")[0])
        known = set(RAM_KB)
        for spec in boards.BOARDS.values():
            known.update(spec.get("board_ids", ()))
        known.add("raspberry_pi_pico")
        board_id = ([b for b in sorted(known) if _squashed(b) == name] or [None])[0]
    return version, board_id


def _squashed(name):
    """A board's name or id, compared without case, spaces, underscores or "Adafruit"."""
    return "".join(c for c in name.lower() if c.isalnum()).replace("adafruit", "")


def drive_board_id(drive):
    """The board of the drive's boot_out.txt (its ``Board ID:``, or its name), or None."""
    return boot_out(drive)[1]


def check_circuitpython(drive, version, board_id):
    """UsageError for a CircuitPython or a board the firmware cannot run on."""
    if version is not None and version[:2] < OLDEST:
        raise UsageError("%s runs CircuitPython %s; the Nimatron needs %d.%d or newer: update the board first"
                         % (drive, ".".join(map(str, version)), OLDEST[0], OLDEST[1]))
    ram = RAM_KB.get(board_id or "")
    if ram is not None and ram < NEEDED_HEAP_KB:
        raise UsageError("board %s has %d KB of RAM; the Nimatron needs about %d KB of heap: use a Circuit "
                         "Playground Bluefruit, a Pico or a MacroPad" % (board_id, ram, NEEDED_HEAP_KB))


def check_board_id(board, spec, board_id):
    """UsageError if the pin map is not for the drive's board (boot_out.txt)."""
    from nimatron.config import boards

    if not board_id:
        return
    ids = spec.get("board_ids")
    claimed = [name for name, other in sorted(boards.BOARDS.items()) if board_id in other.get("board_ids", ())]
    if (ids and board_id not in ids) or (not ids and claimed):
        hint = "; use --board %s" % claimed[0] if claimed else ""
        raise UsageError("pin map %s does not match the drive's board %s (boot_out.txt)%s" % (board, board_id, hint))


def choose_board(args, drive):
    from nimatron.config import boards

    board = args.board
    version, board_id = boot_out(drive)
    check_circuitpython(drive, version, board_id)
    if board is None:
        settings = read(os.path.join(drive, "settings.json"))
        try:
            board = json.loads(settings).get("board") if settings else None
        except (ValueError, AttributeError):
            board = None
    if board is None and board_id:  # a board with its own pin map (MacroPad, Circuit Playground)
        board = ([n for n, s in sorted(boards.BOARDS.items()) if board_id in s.get("board_ids", ())] or [None])[0]
    board = board or "pico-neopixel"
    try:
        spec = boards.board(board)
    except ValueError as e:
        raise UsageError(str(e))
    check_board_id(board, spec, board_id)
    if spec["driver"] not in ONBOARD or board.startswith("pi-"):
        raise UsageError("board %s runs on a Raspberry Pi: use nimatron install-pi there" % board)
    if args.preset is not None:
        from nimatron.config.settings import PRESETS

        if args.preset not in PRESETS:
            raise UsageError("unknown preset %r (choose from %s)" % (args.preset, ", ".join(sorted(PRESETS))))
    return board, spec


# Modules a board never imports: the Pi's entry point (and its state file's
# check), and Graph Nim on a graph given as nodes and edges (only
# ``nimatron solve`` builds one).
PC_ONLY = ("__main__.py", "games/anygraph.py", "machine/statefile.py", "games/nim2d-values.bin")


# What only a grid board plays: a board with one button per row cannot make
# these games' moves (their rules' ``one_row`` is False), so its drive goes without them.
GRID_ONLY = ("games/candy.py", "games/nim2d.py", "games/nim2d.bin", "games/graph.py", "games/splits.py",
             "panels/shapes.py", "panels/tally.py", "panels/counter.py")
ENTRY = ("code.py", "boot.py", "safemode.py")  # what CircuitPython runs, beside lib/


def firmware_files(board, spec, mpy_cross=None, version=None):
    """{path on the drive: bytes} for the firmware itself."""
    top, package = firmware_dir()
    files = {}
    for name in ENTRY:
        files[name] = read(os.path.join(top, name))
    leave_out = PC_ONLY + (GRID_ONLY if spec["input"] == "rows" else ())
    keep = driver_files(spec)
    for folder, dirs, names in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        rel = os.path.relpath(folder, package)
        for name in sorted(names):
            path = os.path.normpath(os.path.join(rel, name))
            if name.endswith((".pyc", ".tmp")) or name.startswith(".") or path.replace(os.sep, "/") in leave_out:
                continue
            if rel == "drivers" and name.endswith(".py") and name not in keep:
                continue
            if rel == os.path.join("config", "pinmaps") and name != board + ".json":
                continue
            files["lib/nimatron/" + path.replace(os.sep, "/")] = read(os.path.join(folder, name))
    if mpy_cross:
        check_compiler(mpy_cross, version)
        compile_mpy(files, mpy_cross)
    return files


def check_compiler(exe, version):
    """UsageError unless ``exe`` is CircuitPython's mpy-cross for the board's
    CircuitPython: MicroPython's (the venv's) writes .mpy files a CircuitPython
    board refuses at import ("incompatible .mpy file"), outside any retry."""
    try:
        run = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as e:
        raise UsageError("--mpy-cross: cannot run %s: %s" % (exe, getattr(e, "strerror", None) or e))
    said = (run.stdout or run.stderr).strip().splitlines()
    said = said[0] if said else ""
    words = said.split()
    if len(words) < 2 or words[0] != "CircuitPython":
        raise UsageError("--mpy-cross: %s is not CircuitPython's compiler (it says %r): its .mpy files would not "
                         "load; leave out --mpy-cross to copy .py files" % (exe, said[:80]))
    if version is None:
        raise UsageError("--mpy-cross: the drive has no boot_out.txt to say which CircuitPython it runs: "
                         "leave out --mpy-cross to copy .py files")
    theirs = words[1].lstrip("v").split(".")[0]
    if theirs != str(version[0]):
        raise UsageError("--mpy-cross: %s compiles for CircuitPython %s.x; the board runs %s"
                         % (exe, theirs, ".".join(map(str, version))))
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "probe.py"), os.path.join(tmp, "probe.mpy")
        with open(src, "w") as f:
            f.write("x = 1\n")
        subprocess.run([exe, "-o", out, src], capture_output=True, timeout=30)
        head = read(out) or b""
    if head[:1] != b"C":
        raise UsageError("--mpy-cross: %s writes .mpy files with header %r, not CircuitPython's 'C'"
                         % (exe, head[:2]))


def driver_files(spec):
    """The modules of nimatron/drivers/ a board needs, and no others."""
    keep = {"__init__.py", DRIVERS.get(spec["driver"], "circuitpython_io.py")}
    if spec["driver"] == "onboard":
        keep.update(("circuitpython_io.py", "onboard_io.py", "presses.py"))
    if spec.get("speaker") or spec.get("buzzer"):
        keep.add("tone.py")
    if spec.get("display"):
        keep.add("oled.py")
    return keep


def compile_mpy(files, exe):
    """Replace lib/nimatron/**.py (but the top __init__.py, whose ``__file__``
    finds the data files) by .mpy compiled with ``exe``."""
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(files):
            if not (path.startswith("lib/nimatron/") and path.endswith(".py")) or path == "lib/nimatron/__init__.py":
                continue
            src = os.path.join(tmp, "src.py")
            out = os.path.join(tmp, "out.mpy")
            with open(src, "wb") as f:
                f.write(files[path])
            try:
                run = subprocess.run([exe, "-o", out, "-s", path[len("lib/"):], src],
                                     capture_output=True, text=True, timeout=60)
            except OSError as e:
                raise Failure("cannot run %s: %s" % (exe, e.strerror or e))
            if run.returncode:
                raise Failure("%s failed on %s: %s" % (exe, path, (run.stderr or run.stdout).strip()))
            del files[path]
            files[path[:-3] + ".mpy"] = read(out)


def library_files(spec):
    """{path: bytes} of the Adafruit libraries, from installed Python packages."""
    import importlib.util

    out = {}
    for module in needed_libraries(spec):
        target, name, _ = LIBRARIES[module]
        found = importlib.util.find_spec(name)
        if found is None or not found.origin:
            raise Failure("the %s library is not installed here (pip install adafruit-circuitpython-%s)"
                          % (name, name.replace("adafruit_", "").replace("_", "-")))
        if found.submodule_search_locations:  # a package: every .py in its folder
            folder = list(found.submodule_search_locations)[0]
            for file in sorted(os.listdir(folder)):
                if file.endswith(".py"):
                    out["lib/%s/%s" % (target, file)] = read(os.path.join(folder, file))
        else:
            out["lib/" + target] = read(found.origin)
    return out


def needed_libraries(spec):
    out = ["neopixel"] if spec["lamps"]["kind"] == "neopixel" else []
    if spec.get("display"):
        out.append("adafruit_display_text")
    return out


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


def settings_file(drive, board, preset):
    """(new settings.json bytes or None if already right, note)."""
    path = os.path.join(drive, "settings.json")
    old = read(path)
    data = {}
    if old is not None:
        try:
            data = json.loads(old.decode("utf-8"))
        except (ValueError, UnicodeError):
            return None, "settings.json is not valid JSON: left alone (fix it, or delete it and deploy again)"
        if not isinstance(data, dict):
            return None, "settings.json does not hold a JSON object: left alone"
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
# Nim from 7 7 7 7 needed more than 4 KB). settings.toml sets it.
PYSTACK = ("CIRCUITPY_PYSTACK_SIZE", 12288)


def settings_toml(drive, spec):
    """(new settings.toml bytes or None if already right, note). Only a grid
    board plays the deep searches; a line is added, nothing else touched."""
    if spec["input"] == "rows":
        return None, None
    key, size = PYSTACK
    old = read(os.path.join(drive, "settings.toml"))
    text = old.decode("utf-8", "replace") if old else ""
    for line in text.splitlines():
        name, sep, value = line.partition("=")
        if sep and name.strip() == key:
            try:
                if int(value.split("#")[0].strip()) >= size:
                    return None, None
            except ValueError:
                pass
            return None, ("settings.toml sets %s below %d: Graph Nim may stop with 'pystack exhausted'; "
                          "left alone (raise it by hand)" % (key, size))
    if text and not text.endswith("\n"):
        text += "\n"
    text += "# the Nimatron's searches recurse once per lamp (nimatron deploy)\n%s = %d\n" % (key, size)
    return text.encode("utf-8"), None


def check_settings(board, data, preset):
    """UsageError unless the board starts with this settings.json (as code.py reads it)."""
    from .machine import check

    try:
        overrides = json.loads(data.decode("utf-8")) if data else {}
    except (ValueError, UnicodeError, RecursionError):
        overrides = {}  # a broken file is left alone (and said so): the board uses its defaults
    if not isinstance(overrides, dict):
        overrides = {}
    overrides.pop("board", None)
    if preset:
        overrides["preset"] = preset
    check(board, overrides)


class Plan:
    """What a deploy does, file by file, before it does it."""

    def __init__(self, drive):
        self.drive = drive
        self.manifest = self._manifest()
        self.actions = []  # (verb, path, bytes or None)
        self.notes = []

    def _manifest(self):
        data = read(os.path.join(self.drive, MANIFEST))
        try:
            files = json.loads(data.decode()).get("files", {}) if data else {}
            return files if isinstance(files, dict) else {}
        except (ValueError, UnicodeError, AttributeError):
            return {}

    def ours(self, path, data):
        """True if ``data`` on the drive is what a deploy put at ``path``."""
        return data is not None and self.manifest.get(path) == digest(data)

    def put(self, path, data):
        old = read(os.path.join(self.drive, path))
        if old == data:
            self.actions.append(("unchanged", path, data))
        elif old is None:
            self.actions.append(("new", path, data))
        else:
            if not self.ours(path, old) and path in ("code.py", "boot.py"):
                self.actions.append(("backup", path + ".bak", old))
            self.actions.append(("updated", path, data))

    def remove_stale(self, keep):
        for path in sorted(self.manifest):
            if path in keep or path in ("settings.json", "settings.toml"):
                continue
            old = read(os.path.join(self.drive, path))
            if old is None:
                continue
            if self.ours(path, old):
                self.actions.append(("removed", path, None))
            else:
                self.notes.append("%s: no longer part of the firmware, but changed since deployed: left alone" % path)

    def changes(self):
        return [a for a in self.actions if a[0] != "unchanged"]

    def apply(self):
        files = dict(self.manifest)
        for verb, path, data in self.actions:
            full = os.path.join(self.drive, path)
            if verb == "removed":
                os.unlink(full)
                files.pop(path, None)
                continue
            if verb != "unchanged":
                write_atomic(full, data)
            if verb != "backup":
                files[path] = digest(data)
        record = {"tool": "nimatron deploy", "files": dict(sorted(files.items()))}
        data = (json.dumps(record, indent=1) + "\n").encode()
        if read(os.path.join(self.drive, MANIFEST)) != data:
            write_atomic(os.path.join(self.drive, MANIFEST), data)


def run(args):
    drive = args.to
    if not os.path.isdir(drive):
        raise UsageError("%s is not a folder (mount the CIRCUITPY drive, or create the folder)" % drive)
    board, spec = choose_board(args, drive)
    boot_text = read(os.path.join(drive, "boot_out.txt"))
    out = sys.stdout
    if boot_text:
        out.write("CircuitPython drive %s: %s\n" % (drive, boot_text.decode("utf-8", "replace").splitlines()[0]))
    else:
        out.write("Folder %s (no boot_out.txt: not a CircuitPython drive; copy it to one later)\n" % drive)
    out.write("Board %s%s\n" % (board, (", preset %s" % args.preset) if args.preset else ""))

    plan = Plan(drive)
    files = firmware_files(board, spec, args.mpy_cross, boot_out(drive)[0])
    use_circup = False
    if needed_libraries(spec) and not args.offline:
        use_circup = circup_exe() is not None and online()
    if not use_circup:
        files.update(library_files(spec))
    for path in sorted(files):
        plan.put(path, files[path])
    settings, note = settings_file(drive, board, args.preset)
    check_settings(board, settings if settings is not None else read(os.path.join(drive, "settings.json")),
                   args.preset)
    if note:
        plan.notes.append(note)
    if settings is not None:
        plan.put("settings.json", settings)
    toml, note = settings_toml(drive, spec)
    if note:
        plan.notes.append(note)
    if toml is not None:
        plan.put("settings.toml", toml)
    plan.remove_stale(set(files))

    changes = plan.changes()
    for verb, path, _ in changes:
        out.write("  %-10s %s\n" % ("backup" if verb == "backup" else verb, path))
    for note in plan.notes:
        out.write("  note: %s\n" % note)
    unchanged = len(plan.actions) - len(changes)
    if args.dry_run:
        out.write("dry run: %d change(s) would be made, %d file(s) already right; nothing written\n" % (len(changes), unchanged))
        if use_circup:
            out.write("  would run: circup --path %s install %s\n" % (drive, " ".join(LIBRARIES[m][2] for m in needed_libraries(spec))))
        return 0
    try:
        plan.apply()
    except OSError as e:
        raise Failure("cannot write to %s: %s" % (drive, e.strerror or e))
    if use_circup:
        names = [LIBRARIES[m][2] for m in needed_libraries(spec)]
        run = subprocess.run([circup_exe(), "--path", drive, "install"] + names, capture_output=True, text=True)
        if run.returncode:
            out.write("  circup failed (%s): copying the libraries from Python packages instead\n"
                      % (run.stderr or run.stdout).strip().splitlines()[-1:])
            extra = Plan(drive)
            for path, data in sorted(library_files(spec).items()):
                extra.put(path, data)
            extra.apply()
        else:
            out.write("  circup installed: %s\n" % ", ".join(names))
    out.write("%d change(s), %d file(s) already right\n" % (len(changes), unchanged))
    if changes and boot_text:
        out.write("Eject the drive before unplugging it; boot.py changes need a reset.\n")
    return 0
