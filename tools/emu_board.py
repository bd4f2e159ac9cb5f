# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The running exhibit on real CircuitPython, measured: one row per board and preset.

Deploys this checkout as ``nimatron deploy`` puts it on a board (stock code.py,
the preset in settings.json, or with ``--set`` the board's own preset and then
``SET preset P`` over the link, as an operator would), boots it in the shared
circuitpython-emu tool's emulated RP2040 (tools/emu_board.js), and plays whole
games with the simulator's own robot visitors (nimatron_sim.visitor: a random
and a perfect one) reading the lamps from the NeoPixel pin. Prints, per row:

- first lit lamp after power-on (ms of emulated time);
- the longest main-loop tick (between two watchdog feeds) and what the
  harness was doing then (a press, the machine's turn, ``EXPLAIN``, ...);
- least heap free (``MEMORY``, after a collection) over every move and command;
- press -> lamp, median and max (physical row buttons and a MacroPad's keys;
  a button that acts when let go, as one that is also held for NEW, from its
  release; a grid board's keys are pressed over the link, so they are left out).
  A lamp is a pixel or the board's status LED (the MacroPad's red LED, lit
  on the visitor's turn): DONE in a selection's dark half changes only that;
- every ``ERR`` reply, and whether the watchdog fired;
- with ``--profile ELF`` (the UF2's own firmware.elf, from
  ``tools/build_firmware.sh`` or the shared tool's build): each pass over
  ``EMU_PROFILE_MS`` (40 ms), the time inside a few of CircuitPython's
  functions (collections, allocations, module loads, interned names, the
  lamps' writes) and, from every 37th instruction's address, where the rest
  went by C function (``~gc_info``: ``gc.mem_free()``; ``~mp_execute_bytecode``:
  Python itself).

    .venv/bin/python tools/emu_board.py --board pico-grid graph nim2d grundy
    .venv/bin/python tools/emu_board.py --board pico-neopixel --mpy all
    .venv/bin/python tools/emu_board.py --board pico-grid --set graph
    .venv/bin/python tools/emu_board.py --board pico-grid --py --set graph
    .venv/bin/python tools/emu_board.py --board pico-grid --frozen --uf2 build/firmware/X-nimatron.uf2 all
    .venv/bin/python tools/emu_board.py --board macropad --mpy --uf2 UF2 --profile ELF pad-moore

The drive is made by ``nimatron deploy`` the maker's way: with no option,
the ``.mpy`` build the repository carries for the UF2's CircuitPython major
(``firmware/mpy/``); ``--py`` hand-copied ``.py``; ``--mpy`` compiled here.

Not for CI: it needs the shared tool set up (its setup.sh) and, for ``--mpy``,
CircuitPython's own mpy-cross (its build-mpy-cross.sh). Figures: docs/board.md.
"""

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
TOOL = os.environ.get("CP_EMU_TOOL") or os.path.join(REPO, "..", "shared", "tools", "circuitpython-emu")
CACHE = os.environ.get("CP_EMU_CACHE") or os.path.expanduser("~/.cache/nimatron-cp-emu")
# The MacroPad's stock firmware, built here from CircuitPython's source (no public 9.x UF2 for it):
# ../shared/tools/circuitpython-emu/build-circuitpython.sh MIRROR adafruit_macropad_rp2040
MACROPAD_UF2 = os.path.expanduser("~/.cache/nimatron-cp-build/out/circuitpython-9.2.8-adafruit_macropad_rp2040.uf2")
CIRCUITPYTHON = {"cp9.2.8.uf2": "9.2.8", "cp9.0.0.uf2": "9.0.0", "cp8.2.9.uf2": "8.2.9"}
# The tool talks to the emulated board at the speed of the emulator; these
# are emulated milliseconds, not wall time.
TICK_MS = 20
HOLD_MS = 80
GAP_MS = 250
# What CircuitPython 9.2.8 (the emulator's cp9.2.8.uf2) writes on the emulated Pico: its flash
# answers this unique id, and boot.py prints nothing. Other firmware: learnt at its first run.
BOOT_OUT = (
    "Adafruit CircuitPython 9.2.8 on 2025-05-28; Raspberry Pi Pico with rp2040\r\n"
    "Board ID:raspberry_pi_pico\r\nUID:E660583883724A32\r\nboot.py output:\r\n"
)
PAUSE = "a pause between visitors (attract)"
PROFILE_MS = int(os.environ.get("EMU_PROFILE_MS", "40"))  # --profile: the passes shown (where their time went)
# --profile: what a pass's time goes to (CircuitPython 9.2.8's own names, from its firmware.elf)
PROFILED = (
    "gc_collect",
    "gc_collect_root",
    "gc_collect_end",
    "gc_mark_subtree",
    "gc_alloc",
    "qstr_find_strn",
    "mp_raw_code_load",
    "mp_compile",
    "common_hal_neopixel_write",
    "displayio_background",
    "background_callback_run_all",
    "mp_import_name",
)
# Console lines that say something went wrong on the board (a fault rebuilt
# the game, the Python stack or the heap ran out, a start or the link failed):
# each is an error of the row, so a fault the harness's commands never see
# (a search stopped by "pystack exhausted", say) still shows.
CONSOLE_TROUBLE = (
    "nimatron: fault",
    "rebuild failed",
    "exhausted",
    "MemoryError",
    "Traceback",
    "cannot start",
    "host link off",
)
QUIET_MS = 7000  # a pause between visitors with --nvm-full: longer than the machine's quiet (5 s)


class Emulator:
    """tools/emu_board.js: one JSON request, one JSON answer."""

    def __init__(self, uf2, image, pinmap, flash="typ", symbols=None):
        env = dict(os.environ, NODE_PATH=os.path.join(CACHE, "node_modules"), CP_EMU_TOOL=TOOL, CP_EMU_CACHE=CACHE)
        self.proc = subprocess.Popen(
            [
                "node",
                os.path.join(HERE, "emu_board.js"),
                "--uf2",
                uf2,
                "--img",
                image,
                "--pinmap",
                pinmap,
                "--flash",
                flash,
            ]
            + (["--symbols", symbols, "--profile-ms", str(PROFILE_MS)] if symbols else []),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def __call__(self, op, **kw):
        kw["op"] = op
        self.proc.stdin.write(json.dumps(kw) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the emulator stopped")
        out = json.loads(line)
        if "error" in out:
            raise RuntimeError("emulator: " + out["error"])
        return out

    def close(self):
        try:
            self("quit")
        except (RuntimeError, OSError, ValueError):
            pass
        self.proc.kill()
        self.proc.wait()


class Row:
    """What one run measured."""

    def __init__(self, board, preset, how):
        self.board, self.preset, self.how = board, preset, how
        self.first_lit_ms = None
        self.longest = (0.0, None)  # (ms, cause)
        self.least_free = None
        self.presses = []  # press -> lamp, ms
        self.slowest = None  # (ms, the press) of the slowest
        self.errors = []
        self.games = []
        self.watchdog = 0
        self.modules = None  # resident at the least free
        self.least_after = None  # what the harness had just done then
        self.used_at_least = None  # the heap in use then (free + used: the heap's present areas)
        self.erases = []  # nvm/flash sector erases: {t, addr, tick_ms, during}
        self.spans = []  # (from ms, what the harness was doing)
        self.quiet_longest = 0.0  # the longest tick in the pauses between visitors (--nvm-full)
        self.by_cause = {}  # the longest tick during each thing the harness did (a command's first word)
        self.set_ticks = {}  # each SET sent -> its longest tick (every pass of its steps), ms
        self.profile = []  # --profile: passes over PROFILE_MS, with the time in each function
        self.not_offered = []  # --service: the presets it left out, and why
        self.offered = None  # --service: the presets the operator menu offers, as it stepped through them
        self.restarts = []  # a SET answered "restart" (from .py): ms from it to code.py again, its first lit lamp, its boot

    def doing(self, t):
        """What the harness was doing at emulated time ``t``."""
        cause = "the start"
        for since, what in self.spans:
            if since > t:
                break
            cause = what
        return cause

    def tick(self, ms, cause):
        what = (cause or "").split(" (")[0]
        what = what.split()[0] if what[:4] != "the " and what[:6] != "press " else what
        self.by_cause[what] = max(self.by_cause.get(what, 0.0), ms)
        if cause == PAUSE:  # nobody waits on the machine: its flash erase may fall here (Startup.quiet)
            self.quiet_longest = max(self.quiet_longest, ms)
            return
        if cause and cause.startswith("SET "):
            self.set_ticks[cause] = max(ms, self.set_ticks.get(cause, 0.0))
        if ms > self.longest[0]:
            self.longest = (ms, cause)

    def heap(self, free):
        if free is not None and (self.least_free is None or free < self.least_free):
            self.least_free = free

    def as_dict(self):
        lat = sorted(self.presses)
        return {
            "board": self.board,
            "preset": self.preset,
            "how": self.how,
            "first_lit_ms": self.first_lit_ms,
            "longest_tick_ms": self.longest[0],
            "longest_tick_cause": self.longest[1],
            "least_free": self.least_free,
            "press_lamp_median_ms": lat[len(lat) // 2] if lat else None,
            "press_lamp_max_ms": lat[-1] if lat else None,
            "presses": len(lat),
            "slowest_press": self.slowest and self.slowest[1],
            "errors": self.errors,
            "games": self.games,
            "watchdog_fired": self.watchdog,
            "modules_at_least": self.modules,
            "least_free_after": self.least_after,
            "used_at_least": self.used_at_least,
            "erases": self.erases,
            "quiet_longest_tick_ms": self.quiet_longest,
            "longest_tick_by_cause": self.by_cause,
            "set_ticks": self.set_ticks,
            "profile": self.profile,
            "offered": self.offered,
            "not_offered": self.not_offered,
            "restarts": self.restarts,
        }


class Controller:
    """What a robot visitor may read of the machine: its settings (from CONFIG)."""

    def __init__(self, settings):
        self.settings = settings


class BoardSim:
    """The simulator's face (``nimatron_sim.engine.Simulator``) on the emulated board:
    what nimatron_sim.visitor.Visitor presses and reads, and nothing of the game's
    insides. Every call is also a moment the row measures."""

    def __init__(self, emu, board, spec, row):
        from nimatron.drivers import lamp_pixels

        self.emu, self.board, self.spec, self.row = emu, board, spec, row
        self._lamp_pixels = lamp_pixels
        self.listeners = []
        self.tick_ms = TICK_MS
        self.now = 0
        self.buttons = set(spec["buttons"])
        self.keys = {}  # "key r i" -> the emulator's key name (a board whose keys are its lamps)
        self.last = None  # what the harness did last (the least heap free is measured after it)
        self.controller = None
        self.layout = None
        self.refresh()

    # -- the link ---------------------------------------------------------
    def command(self, line, cause=None, timeout=20000):
        out = self.sent = self.emu("cmd", line=line, timeout=timeout)
        self._after(out, cause or line, out["t"])
        reply = out.get("reply")
        if reply is None:
            self.row.errors.append("%s: no reply" % line)
            return None
        if reply.startswith("ERR"):
            self.row.errors.append("%s: %s" % (line, reply))
            return None
        return json.loads(reply[3:]) if reply.startswith("OK {") else {}

    def back(self, line):
        """The board said it restarts (``"restart": true``, a rule change from
        ``.py``): run until it has started again, timed from ``line`` sent;
        then the host link spoken to again, as a host tool does."""
        sent = self.sent
        out = self.emu("back", t0=sent["t"], console_at=sent["console_at"])
        self.now = out["now"]
        self.row.spans.append((sent["t"], "the restart after " + line))
        self.row.restarts.append(
            {"set": line, "again_ms": out["again_ms"], "first_lit_ms": out["first_lit_ms"], "boot_ms": out["boot_ms"]}
        )
        if out["boot"] is None:
            self.row.errors.append("%s: the board did not start again: %s" % (line, out["console"][-300:]))
            return
        self.command("HELLO")
        self.command("EVENTS ON")

    def memory(self):
        after = self.last
        out = self.command("MEMORY", cause="MEMORY (the instrument's own collection)")
        if out:
            if self.row.least_free is None or out["free"] < self.row.least_free:
                self.row.modules = out.get("modules")
                self.row.least_after = after
                self.row.used_at_least = out.get("used")
            if os.environ.get("EMU_HEAP"):
                print("    MEMORY after %s: free %s used %s" % (after, out["free"], out.get("used")), file=sys.stderr)
            self.row.heap(out["free"])

    def refresh(self):
        """Settings and layout of the preset in play (after a start or a SET)."""
        from nimatron.machine.app import choose_layout

        settings = self.command("CONFIG") or {}
        for key in settings.pop("more", []):  # a long rotation comes on its own line
            settings.update(self.command("CONFIG " + key) or {})
        self.controller = Controller(settings)
        self.layout = choose_layout(self.spec, settings) if settings else list(self.spec["lamps"]["layout"])
        if self.spec.get("keys"):  # key k under pixel k (drivers/onboard_io.py); session.js calls it keyK
            self.keys = {
                "key %d %d" % (r, i): "key%d" % p
                for r, row in enumerate(self._lamp_pixels(self.spec["lamps"], self.layout))
                for i, p in enumerate(row)
            }

    def _after(self, out, cause, since):
        self.now = out["now"]
        self.last = cause
        ticks = self.emu("ticks", since=since)
        self.row.tick(ticks["longest_ms"], cause)
        for one in ticks.get("profile", ()):
            if one["ms"] > PROFILE_MS:
                one["during"] = cause
                self.row.profile.append(one)
        self.row.spans.append((since, cause))
        for event in out.get("events", ()):
            for listener in list(self.listeners):
                listener(event)

    # -- buttons, as nimatron_sim.engine.Simulator has them ------------------------------
    def tap(self, role, hold_ms=None, gap_ms=None):
        hold = HOLD_MS if hold_ms is None else hold_ms
        gap = GAP_MS if gap_ms is None else gap_ms
        name = role if role in self.buttons else self.keys.get(role)
        if name is not None:
            # a button that is also held for something (the MacroPad's DONE: held, NEW) acts when let go
            out = self.emu("tap", name=name, hold=hold, gap=gap, on_release=name in self.spec.get("holds", {}))
            if out["lamp_ms"] is not None:
                self.row.presses.append(out["lamp_ms"])
                if self.row.slowest is None or out["lamp_ms"] > self.row.slowest[0]:
                    self.row.slowest = (out["lamp_ms"], role)
            self._after(out, "press %s" % role, out["t"])
        else:  # a grid's key: pressed over the link (the emulator has no key matrix)
            self.command("PLAY PRESS " + role, cause="PLAY PRESS (a key)")
            self.advance(gap)

    def press_for(self, press):
        if press in self.buttons:
            return press, None
        for name, target in sorted(self.spec.get("presses", {}).items()):
            if target == press and name in self.buttons:
                return name, None
        for name, target in sorted(self.spec.get("holds", {}).items()):
            if target == press and name in self.buttons:
                from nimatron.drivers.presses import HOLD_MS

                return name, HOLD_MS + 100
        raise KeyError("board %s has no way to press %s" % (self.board, press))

    def advance(self, ms):
        since = self.now
        self.emu("run", ms=ms)
        self._after(self.emu("poll"), "the machine's turn / attract", since)

    # -- lamps ----------------------------------------------------------------------
    def read_colours(self):
        px = self.emu("frame")["px"] or []
        return [
            [tuple(px[p]) if p < len(px) else (0, 0, 0) for p in row]
            for row in self._lamp_pixels(self.spec["lamps"], self.layout)
        ]

    def read_lamps(self):
        return [[1 if any(c) else 0 for c in row] for row in self.read_colours()]


def known_boot_out(uf2):
    """Where what this firmware writes to boot_out.txt is kept: named by the
    UF2's name and contents. By name alone, a firmware rebuilt on another day
    under the same name met the old build's text (its build date differs),
    and its first row counted CircuitPython rewriting the drive."""
    digest = hashlib.sha256()
    with open(uf2, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return os.path.join(CACHE, "boot_out-%s-%s.txt" % (os.path.basename(uf2), digest.hexdigest()[:12]))


def boot_out_of(uf2):
    """What this firmware writes to boot_out.txt on the emulated board, learnt
    from an earlier run (None: not yet). A board in service holds it, so
    CircuitPython neither waits 1 s nor rewrites the drive at its start."""
    known = known_boot_out(uf2)
    if os.path.isfile(known):
        with open(known, "rb") as f:
            return f.read()
    return BOOT_OUT.encode() if os.path.basename(uf2) == "cp9.2.8.uf2" else None


def learn_boot_out(emu, uf2, work):
    """Keep what the firmware wrote to boot_out.txt, for the next runs."""
    known = known_boot_out(uf2)
    if os.path.isfile(known):
        return
    image = os.path.join(work, "after.img")
    emu("drive", file=image)
    out = subprocess.run(["mtype", "-i", image, "::boot_out.txt"], capture_output=True)
    if out.returncode == 0 and out.stdout.startswith(b"Adafruit CircuitPython"):
        with open(known, "wb") as f:
            f.write(out.stdout)


def first_boot(board, uf2, flash, symbols, frozen):
    """Boot a firmware not met before once, to learn its boot_out.txt: on the
    first boot of a drive that holds another, CircuitPython rewrites it (flash
    erases) and waits a second, which no board in service does. Measured
    without this, a new UF2's first row said 2.7 s to the first lamp where
    the exhibit takes 1.4 s."""
    work, image, pinmap = deploy(board, None, None, boot_out=None, frozen=uf2 if frozen else None)
    emu = Emulator(uf2, image, pinmap, flash, symbols)
    try:
        emu("boot")
        learn_boot_out(emu, uf2, work)
    finally:
        emu.close()
        shutil.rmtree(work, ignore_errors=True)


def deploy(
    board, preset, mpy_cross, pystack=None, boot_out=None, frozen=None, settings=None, py=False, version="9.2.8"
):
    work = tempfile.mkdtemp(prefix="emu-board-")
    drive = os.path.join(work, "CIRCUITPY")
    os.mkdir(drive)
    if settings:  # a settings.json of the technician's own, which deploy keeps and adds the preset to
        with open(os.path.join(drive, "settings.json"), "w") as f:
            json.dump(settings, f)
    from nimatron.config import boards

    board_id = (boards.board(board).get("board_ids") or ["raspberry_pi_pico"])[0]
    with open(os.path.join(drive, "boot_out.txt"), "w") as f:  # what deploy checks the pin map against
        f.write(
            "Adafruit CircuitPython %s on 2025-05-28; %s with rp2040\nBoard ID:%s\n" % (version, board_id, board_id)
        )
    command = [os.path.join(REPO, ".venv", "bin", "nimatron"), "deploy", "--to", drive, "--board", board, "--offline"]
    if preset:
        command += ["--preset", preset]
    if mpy_cross:
        command += ["--mpy-cross", mpy_cross]
    if py:  # hand-copied .py; without it (and --mpy-cross) deploy puts the build the repository carries
        command += ["--py"]
    if frozen:  # the Nimatron's own firmware: only code.py, settings and data files on the drive
        command += ["--firmware", frozen]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit("emu_board: deploy failed: " + (done.stderr or done.stdout).strip().splitlines()[-1])
    if boot_out is not None:  # as the firmware writes it: a board that has started once holds it
        with open(os.path.join(drive, "boot_out.txt"), "wb") as f:
            f.write(boot_out)
    if pystack:  # instead of deploy's own line: how much the running exhibit needs
        with open(os.path.join(drive, "settings.toml"), "w") as f:
            f.write("CIRCUITPY_PYSTACK_SIZE = %d\n" % pystack)
    image = os.path.join(work, "drive.img")
    subprocess.run(["bash", os.path.join(TOOL, "mkfat.sh"), drive, image], check=True, capture_output=True)
    pinmap = None
    for root, _, files in os.walk(drive):
        if board + ".json" in files:
            pinmap = os.path.join(root, board + ".json")
    return work, image, pinmap


def nearly_full_nvm(room=260):
    """The nvm sector as months of games leave it: records up to ``room``
    bytes from its end (this checkout's own Store writes them), so the
    machine must erase it soon after the start: where the erase falls."""
    from nimatron.machine.store import Store

    nvm = bytearray(b"\xff" * 4096)
    store = Store(nvm=nvm)
    store.load()
    while len(nvm) - store.tail > room:
        store.save_audits({"l": []})
    return bytes(nvm)


def profile_symbols(elf):
    """A JSON file of PROFILED's addresses in ``elf`` (None: not readable)."""
    try:
        out = subprocess.run(["arm-none-eabi-nm", elf], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    found = {}
    table = []  # every function, by address: where a sampled instruction was
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "Tt":
            table.append((int(parts[0], 16) & ~1, parts[2]))
            if parts[2] in PROFILED:
                found[parts[2]] = int(parts[0], 16)
    table.sort()
    found["_table"] = table
    if not found:
        return None
    fd, path = tempfile.mkstemp(prefix="emu-symbols-", suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(found, f)
    return path


def measure(
    board,
    preset,
    how,
    uf2,
    mpy_cross,
    games,
    log,
    pystack=None,
    flash="typ",
    full=False,
    frozen=False,
    symbols=None,
    service=False,
    settings=None,
    py=False,
):
    from nimatron.config import boards
    from nimatron_sim.visitor import Visitor

    spec = boards.board(board)
    row = Row(board, preset, how)
    if boot_out_of(uf2) is None:
        first_boot(board, uf2, flash, symbols, frozen)
    work, image, pinmap = deploy(
        board,
        None if how == "set" else preset,
        mpy_cross,
        pystack,
        boot_out_of(uf2),
        uf2 if frozen else None,
        settings,
        py,
        CIRCUITPYTHON.get(os.path.basename(uf2), "9.2.8"),
    )
    emu = Emulator(uf2, image, pinmap, flash, symbols)
    try:
        if full:
            emu("nvm", hex=nearly_full_nvm().hex())
        booted = emu("boot")
        row.first_lit_ms = booted["first_lit_ms"]
        if booted["boot"] is None:
            row.errors.append("no boot line: " + booted["console"][-300:])
            return row
        sim = BoardSim(emu, board, spec, row)
        sim.command("HELLO")
        sim.command("EVENTS ON")
        sim.memory()
        if how == "set":
            if (sim.command("SET preset %s" % preset) or {}).get("restart"):
                sim.back("SET preset %s" % preset)
            sim.memory()
            sim.refresh()
        if service:  # a technician's visit: the menu opened, the preset list looked at, closed
            sim.command("SET remote_play on")  # PLAY PRESS: the menu's buttons over the link
            row.not_offered = []
            sim.listeners.append(
                lambda ev: (
                    row.not_offered.append("%s (%s)" % (ev.get("value"), ev.get("why")))
                    if ev.get("event") == "not_offered"
                    else None
                )
            )
            sim.command("SERVICE ON")
            fwd = "PLAY PRESS " + ("row0" if spec["input"] == "rows" else "key 0 0")
            for line in (fwd, fwd, fwd, "PLAY PRESS done", "PLAY PRESS done"):  # adjustments, then presets
                sim.command(line, cause="SERVICE " + line[11:])
            since = sim.now
            sim.emu("run", ms=6000)  # the presets checked, one a pass or a few
            sim._after(sim.emu("poll"), "SERVICE checking the presets", since)
            shown = []  # the presets the menu offers: stepped through once
            sim.listeners.append(lambda ev: shown.append(ev.get("value")) if ev.get("screen") == "adjust" else None)
            for _ in range(40):
                sim.command(fwd, cause="SERVICE " + fwd[11:])
                if shown and shown[-1] == shown[0] and len(shown) > 1:
                    break
            row.offered = shown[:-1]
            log("  the menu offers %d presets: %s" % (len(row.offered), " ".join(map(str, row.offered))))
            for line in row.not_offered:
                log("  not offered: " + line)
            for line in ("PLAY PRESS new", "PLAY PRESS new"):
                sim.command(line, cause="SERVICE " + line[11:])
            sim.command("SERVICE OFF")
            sim.memory()
        if spec["input"] != "rows":
            sim.command("SET remote_play on")
        for g in range(games):
            skill = ("random", "perfect")[g % 2]
            robot = Visitor(sim, skill, seed=g, hold_ms=HOLD_MS, gap_ms=GAP_MS)
            result = play(sim, robot, row)
            row.games.append({"skill": skill, "winner": result})
            log("  game %d (%s visitor): %s" % (g + 1, skill, result))
            sim.listeners.remove(robot._event)
            if full:  # the visitor walks away: attract mode, nobody pressing (Startup.quiet)
                since = sim.now
                sim.emu("run", ms=QUIET_MS)
                sim._after(sim.emu("poll"), PAUSE, since)
        sim.command("NEW")
        sim.memory()
        sim.command("SET difficulty teach")
        sim.command("NEW")
        sim.advance(1500)
        sim.memory()
        learn_boot_out(emu, uf2, work)
        row.erases = emu("erases")["erases"]
        for e in row.erases:
            e["during"] = row.doing(e["t"])
        status = emu("status")
        row.watchdog = status["watchdog_fired"]
        for line in emu("console", tail=1 << 24)["console"].splitlines():  # what the board said went wrong
            if any(word in line for word in CONSOLE_TROUBLE):
                row.errors.append("console: " + line.strip()[:160])
        if os.environ.get("EMU_CONSOLE"):  # the board's console (EMU_CONSOLE=N: its last N characters)
            tail = int(os.environ["EMU_CONSOLE"]) if os.environ["EMU_CONSOLE"].isdigit() else 600
            print(emu("console", tail=max(tail, 600))["console"], file=sys.stderr)
    finally:
        emu.close()
        shutil.rmtree(work, ignore_errors=True)
    return row


def play(sim, robot, row, limit_ms=240000, measure=True, moves=None):
    """One game to the end: the visitor's moves, EXPLAIN and MEMORY on each of its turns
    (with ``measure``; without, the moves alone: tools/emu_soak.py's heap is the board's own);
    with ``moves``, only that many of the visitor's (None returned if the game goes on)."""
    robot.turn = None
    robot.tap_for("new")
    end = sim.now + limit_ms
    explained = not measure
    while robot.winner is None and sim.now < end and moves != 0:
        if robot.turn == "visitor":
            if not explained:
                sim.command("EXPLAIN")
                explained = True
            if measure:
                sim.memory()
            if robot.winner is not None or robot.turn != "visitor":
                continue  # the machine's last move ended the game while EXPLAIN and MEMORY ran
            try:
                robot.move()
                moves = None if moves is None else moves - 1
            except (AssertionError, IndexError, KeyError, ValueError) as e:
                row.errors.append("visitor could not move: %r" % (e,))
                return None
        else:
            sim.advance(200)
    if measure:
        sim.memory()
    return robot.winner


def playable(board):
    """The presets this board offers (``nimatron_sim.engine.playable_presets``)."""
    from nimatron_sim.engine import playable_presets

    return playable_presets(board)


def firmware_label(args):
    """How the modules reached the drive, as the rows name it."""
    return "frozen" if args.frozen else ".mpy" if args.mpy else ".py" if args.py else ".mpy carried"


def main(argv=None):
    p = argparse.ArgumentParser(prog="emu_board", description=__doc__.split("\n")[0])
    p.add_argument(
        "presets", nargs="*", metavar="PRESET", help="presets to measure (default or 'all': every one the board plays)"
    )
    p.add_argument("--board", default="pico-neopixel")
    p.add_argument(
        "--uf2",
        help="firmware: a UF2 file, or one in the emulator's cache (default cp9.2.8.uf2; the "
        "MacroPad's: CircuitPython 9.2.8 built for it, %s)" % MACROPAD_UF2,
    )
    p.add_argument("--mpy", action="store_true", help="precompile with CircuitPython's own mpy-cross (from the cache)")
    p.add_argument(
        "--py",
        action="store_true",
        help="hand-copied .py (deploy --py); without --py, --mpy or --frozen: deploy's default, the .mpy "
        "build the repository carries for the board's major",
    )
    p.add_argument(
        "--frozen",
        action="store_true",
        help="the UF2 is the Nimatron's own firmware (tools/build_firmware.sh): deploy for it",
    )
    p.add_argument("--set", action="store_true", help="boot the board's own preset, then SET preset P over the link")
    p.add_argument(
        "--service",
        action="store_true",
        help="a technician's visit over the link before the games: SERVICE ON, the presets' list (PLAY PRESS), SERVICE OFF",
    )
    p.add_argument("--games", type=int, default=2, help="whole games per preset (random, then perfect visitor)")
    p.add_argument("--pystack", type=int, metavar="BYTES", help="CIRCUITPY_PYSTACK_SIZE instead of deploy's")
    p.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="KEY=JSON",
        help='a setting in settings.json besides the preset (e.g. starts=[[15,15,15]] rules="graph:3"): '
        "a technician's own starts or rule set, deployed as deploy keeps them",
    )
    p.add_argument("--modules", action="store_true", help="list the modules resident at the least free heap")
    p.add_argument(
        "--flash",
        choices=("typ", "max", "off"),
        default="typ",
        help="the flash's busy time per erase/program: W25Q16JV's typical (45/0.4 ms, default), max (400/3 ms) or none",
    )
    p.add_argument(
        "--nvm-full",
        action="store_true",
        help="boot on a nearly full nvm sector (as months of games leave it) and pause 7 s between games",
    )
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    p.add_argument(
        "--profile",
        metavar="ELF",
        help="the UF2's firmware.elf: each pass over %d ms, with the time in the collector, the "
        "interned names, allocations, module loads, the lamps' writes (slower)" % PROFILE_MS,
    )
    args = p.parse_args(argv)
    if args.frozen and args.mpy:
        p.error("--frozen and --mpy: the firmware's modules are frozen in already")
    if args.py and (args.mpy or args.frozen):
        p.error("--py and --mpy or --frozen: choose one way to put the modules on the drive")
    symbols = None
    if args.profile:
        symbols = profile_symbols(args.profile)
        if symbols is None:
            print(
                "emu_board: cannot read the symbols of %s (an ELF file, read with arm-none-eabi-nm)" % args.profile,
                file=sys.stderr,
            )
            return 2
    sys.path[:0] = [os.path.join(REPO, "firmware"), os.path.join(REPO, "simulator")]
    from nimatron.config import boards

    settings = {}
    for item in args.setting:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            p.error("--setting %r: give KEY=JSON, e.g. starts=[[15,15,15]]" % item)
        try:
            settings[key.strip()] = json.loads(text)
        except ValueError:
            settings[key.strip()] = text  # a bare word: rules=graph:3
    if args.board not in boards.names():
        p.error("no board %s (one of: %s)" % (args.board, ", ".join(boards.names())))
    if args.uf2 is None:  # a Pico's firmware on the MacroPad's deploy boots, but measures nothing of the MacroPad
        args.uf2 = MACROPAD_UF2 if args.board == "macropad" else "cp9.2.8.uf2"
    uf2 = args.uf2 if os.path.isfile(args.uf2) else os.path.join(CACHE, args.uf2)
    if not os.path.isfile(os.path.join(TOOL, "session.js")):
        print("emu_board: no circuitpython-emu tool at %s (set CP_EMU_TOOL)" % TOOL, file=sys.stderr)
        return 2
    if not os.path.isfile(uf2) or not os.path.isdir(os.path.join(CACHE, "node_modules", "rp2040js")):
        print("emu_board: the emulator is not set up (%s/setup.sh)" % TOOL, file=sys.stderr)
        return 2
    mpy_cross = None
    if args.mpy:
        mpy_cross = os.path.join(CACHE, "mpy-cross-" + CIRCUITPYTHON.get(os.path.basename(args.uf2), "9.2.8"))
        if not os.access(mpy_cross, os.X_OK):
            print("emu_board: no %s (build it: %s/build-mpy-cross.sh)" % (mpy_cross, TOOL), file=sys.stderr)
            return 2
    offered = playable(args.board)
    presets = offered if not args.presets or args.presets == ["all"] else args.presets
    # SET may name any preset that fits; so may a settings.json of one's own (deploy checks it)
    unknown = [x for x in presets if x not in offered and not args.set and not settings]
    if unknown:
        p.error("board %s does not offer %s (it offers: %s)" % (args.board, ", ".join(unknown), ", ".join(offered)))
    rows = []
    how = "set" if args.set else "settings.json"
    print(
        "board %s, %s, %s, %s, flash %s%s%s"
        % (
            args.board,
            args.uf2,
            firmware_label(args),
            how,
            args.flash,
            ", nvm nearly full" if args.nvm_full else "",
            ", the operator menu opened first" if args.service else "",
        )
    )
    print(
        "%-12s %8s %9s  %-34s %8s %10s  %s"
        % ("preset", "lamp ms", "tick ms", "longest tick during", "free KB", "press ms", "errors")
    )
    for preset in presets:
        row = measure(
            args.board,
            preset,
            how,
            uf2,
            mpy_cross,
            args.games,
            lambda s: print(s, file=sys.stderr),
            args.pystack,
            args.flash,
            args.nvm_full,
            args.frozen,
            symbols,
            args.service,
            settings,
            args.py,
        )
        rows.append(row.as_dict())
        d = rows[-1]
        d["firmware"] = firmware_label(args)
        d["uf2"] = os.path.basename(args.uf2)
        d["service"] = bool(args.service)
        d["pystack"] = args.pystack
        d["settings"] = settings or None
        press = (
            "-" if d["press_lamp_max_ms"] is None else "%.1f/%.1f" % (d["press_lamp_median_ms"], d["press_lamp_max_ms"])
        )
        print(
            "%-12s %8s %9.1f  %-34s %8s %10s  %s%s"
            % (
                preset,
                d["first_lit_ms"] and "%.0f" % d["first_lit_ms"],
                d["longest_tick_ms"],
                (d["longest_tick_cause"] or "")[:34],
                d["least_free"] and "%.1f" % (d["least_free"] / 1024),
                press,
                len(d["errors"]),
                "" if not d["watchdog_fired"] else " WATCHDOG FIRED",
            ),
            flush=True,
        )
        if d["slowest_press"]:
            print("    slowest press: %s" % d["slowest_press"])
        print(
            "    longest tick during each: "
            + ", ".join(
                "%s %.1f" % (k, v) for k, v in sorted(d["longest_tick_by_cause"].items(), key=lambda kv: -kv[1])
            )
        )
        if d["least_free_after"]:
            used = d.get("used_at_least")
            print(
                "    least heap free after: %s%s"
                % (
                    d["least_free_after"],
                    ""
                    if used is None
                    else " (used %.1f KB: a heap of %.1f KB)" % (used / 1024, (used + d["least_free"]) / 1024),
                )
            )
        if args.modules:
            print("    resident at the least free: " + " ".join(d["modules_at_least"] or ()))
        for one in d["restarts"]:
            print(
                "    %s restarted the board: code.py again at %s ms, first lit lamp at %s ms, started at %s ms"
                % (one["set"], one["again_ms"], one["first_lit_ms"], one["boot_ms"])
            )
        for line, ms in sorted(d["set_ticks"].items()):
            print("    %s: longest tick %.1f ms" % (line, ms))
        if d["quiet_longest_tick_ms"]:
            print("    longest tick in the pauses between visitors: %.1f ms" % d["quiet_longest_tick_ms"])
        for e in d["erases"]:
            print(
                "    flash erase at %.1f s (0x%x): its tick %s ms, during %s"
                % (e["t"] / 1000, e["addr"], e["tick_ms"], e["during"])
            )
        for one in d["profile"]:
            print(
                "    pass %.1f ms at %.1f s, during %s: %s"
                % (
                    one["ms"],
                    one["at"] / 1000,
                    one["during"],
                    ", ".join(
                        "%s %dx %.1f" % (k, v[0], v[1]) for k, v in sorted(one["fns"].items(), key=lambda kv: -kv[1][1])
                    ),
                )
            )
        for e in d["errors"][:6]:
            print("    " + e[:160])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
