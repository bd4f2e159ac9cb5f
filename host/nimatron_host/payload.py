# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What goes on a board's drive: the firmware's files for one pin map (the
core, the drivers it needs, none of the PC's modules, on a row board none of
the grid's games), the Adafruit libraries it needs, and the ``.mpy`` they
compile to with CircuitPython's own mpy-cross.

``nimatron deploy`` (``nimatron_host.deploy``) writes them onto the drive;
the frozen firmware (``nimatron_host.frozen``) freezes the same modules into
a UF2. Both stand on this module, which imports neither.
"""

import hashlib
import os
import subprocess
import tempfile

from .cli import Failure, UsageError

# CircuitPython libraries by lamp kind: module -> (file in lib/, Python module to copy offline, circup name)
LIBRARIES = {"neopixel": ("neopixel.py", "neopixel", "neopixel")}
DRIVERS = {"circuitpython": "circuitpython_io.py", "gpiozero": "gpiozero_io.py", "onboard": "onboard_io.py"}
ONBOARD = ("circuitpython", "onboard")  # drivers that run on a CircuitPython board


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


# Modules a board never imports: the Pi's entry point (and its state file's
# check), the host link on a pseudo-terminal, and Graph Nim on a graph given
# as nodes and edges (only ``nimatron solve`` builds one).
PC_ONLY = ("__main__.py", "games/anygraph.py", "machine/statefile.py", "games/nim2d-values.bin", "link/pty.py")


# The panels only a grid board shows (cells, circles, split rows and arcs, tallies, the counter).
GRID_PANELS = ("panels/cells.py", "panels/circle.py", "panels/shapes.py", "panels/tally.py", "panels/counter.py")


# What the grid's own rule sets share (two-dimensional and Graph Nim): none is played on rows.
GRID_GAMES = ("games/grid.py",)


def grid_only():
    """What only a grid board plays: a board with one button per row cannot make
    the moves of a rule set whose ``one_row`` is False, so its drive goes
    without each module (and its table) that holds only such rule sets."""
    from nimatron.games.registry import entries
    from nimatron.games.rules import REGISTRY, rules_class

    modules = []
    for _name, module, _, _ in entries(REGISTRY):
        if module not in modules:
            modules.append(module)
    for name, module, _, _ in entries(REGISTRY):
        if rules_class(name).one_row and module in modules:
            modules.remove(module)
    return (
        tuple(["games/%s.py" % m for m in modules] + ["games/%s.bin" % m for m in modules]) + GRID_GAMES + GRID_PANELS
    )


ENTRY = ("code.py", "boot.py", "safemode.py")  # what CircuitPython runs, beside lib/


def firmware_files(board, spec, mpy_cross=None, version=None):
    """{path on the drive: bytes} for the firmware itself."""
    top, package = firmware_dir()
    files = {}
    for name in ENTRY:
        files[name] = read(os.path.join(top, name))
    leave_out = PC_ONLY + (grid_only() if spec["input"] == "rows" else ())
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


LIB = "lib/nimatron/"


def check_compiler(exe, version):
    """UsageError unless ``exe`` is CircuitPython's mpy-cross for the board's
    CircuitPython: MicroPython's (the venv's) writes .mpy files a CircuitPython
    board refuses at import ("incompatible .mpy file"), outside any retry."""
    try:
        run = subprocess.run([exe, "--version"], capture_output=True, check=False, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as e:
        raise UsageError("--mpy-cross: cannot run %s: %s" % (exe, getattr(e, "strerror", None) or e)) from e
    said = (run.stdout or run.stderr).strip().splitlines()
    said = said[0] if said else ""
    words = said.split()
    if len(words) < 2 or words[0] != "CircuitPython":
        raise UsageError(
            "--mpy-cross: %s is not CircuitPython's compiler (it says %r): its .mpy files would not "
            "load; leave out --mpy-cross to copy .py files" % (exe, said[:80])
        )
    if version is None:
        raise UsageError(
            "--mpy-cross: the drive has no boot_out.txt to say which CircuitPython it runs: "
            "leave out --mpy-cross to copy .py files"
        )
    theirs = words[1].lstrip("v").split(".")[0]
    if theirs != str(version[0]):
        raise UsageError(
            "--mpy-cross: %s compiles for CircuitPython %s.x; the board runs %s"
            % (exe, theirs, ".".join(map(str, version)))
        )
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "probe.py"), os.path.join(tmp, "probe.mpy")
        with open(src, "w") as f:
            f.write("x = 1\n")
        subprocess.run([exe, "-o", out, src], capture_output=True, check=False, timeout=30)
        head = read(out) or b""
    if head[:1] != b"C":
        raise UsageError("--mpy-cross: %s writes .mpy files with header %r, not CircuitPython's 'C'" % (exe, head[:2]))


def driver_files(spec):
    """The modules of nimatron/drivers/ a board needs, and no others."""
    keep = {"__init__.py", DRIVERS.get(spec["driver"], "circuitpython_io.py")}
    if spec["driver"] != "gpiozero":
        keep.add("first_lamp.py")  # code.py lights it before the start compiles (power_on.first_lamp)
    if spec["driver"] == "circuitpython":
        keep.add("strip_io.py")
    if spec["driver"] == "onboard":
        keep.update(("strip_io.py", "onboard_io.py", "presses.py"))
    if spec.get("speaker") or spec.get("buzzer"):
        keep.add("tone.py")
    if spec.get("display"):
        keep.add("oled.py")
    return keep


def compile_mpy(files, exe):
    """Replace lib/nimatron/**.py (but the top __init__.py, whose ``__file__``
    finds the data files) by .mpy compiled with ``exe``. Each names its
    source as the board's ``__file__`` for it (``/lib/nimatron/....mpy``):
    CircuitPython interns both names and never frees them, so one name
    instead of two is about 36 bytes of heap a module loaded (docs/board.md)."""
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(files):
            if not (path.startswith("lib/nimatron/") and path.endswith(".py")) or path == "lib/nimatron/__init__.py":
                continue
            src = os.path.join(tmp, "src.py")
            out = os.path.join(tmp, "out.mpy")
            with open(src, "wb") as f:
                f.write(files[path])
            try:
                run = subprocess.run(
                    [exe, "-o", out, "-s", "/" + path[:-3] + ".mpy", src],
                    capture_output=True,
                    check=False,
                    text=True,
                    timeout=60,
                )
            except OSError as e:
                raise Failure("cannot run %s: %s" % (exe, e.strerror or e)) from e
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
            raise Failure(
                "the %s library is not installed here (pip install adafruit-circuitpython-%s)"
                % (name, name.replace("adafruit_", "").replace("_", "-"))
            )
        if found.submodule_search_locations:  # a package: every .py in its folder
            folder = list(found.submodule_search_locations)[0]
            for file in sorted(os.listdir(folder)):
                if file.endswith(".py"):
                    out["lib/%s/%s" % (target, file)] = read(os.path.join(folder, file))
        else:
            out["lib/" + target] = read(found.origin)
    return out


def needed_libraries(spec):
    # A display needs none: drivers/oled.py draws the built-in font with displayio alone.
    return ["neopixel"] if spec["lamps"]["kind"] == "neopixel" else []
