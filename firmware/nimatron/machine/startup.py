# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Starting the exhibit so that it never stays dark, and keeping it running.

    machine = Machine("pico-neopixel", read_source(text), store, now_ms=0,
                      reset_reason="power_on")
    machine.boot          # {"event": "boot", "restored": "stored"|"factory", ...}
    while True:
        machine.tick(now_ms())     # update + link; a fault rebuilds the game

Shared by ``code.py`` (CircuitPython), ``python -m nimatron`` (a Raspberry
Pi) and the simulator. Which settings it starts with, in order:

1. the stored settings (``SET`` changes saved in the store), if the
   settings source (``settings.json``, or the Pi's command line) is the
   one they were saved on top of (same CRC-32);
2. else the settings source itself (and it becomes the last good one);
3. else the last good stored settings, else the board's defaults, each
   keeping the operator PIN: the source's own if it holds a valid one,
   else the stored one; if the PIN cannot be known (the file is unreadable)
   the link stays locked (``sealed``) until the file is fixed.

Every candidate goes through ``app.make_controller`` (the one checking
path), so anything that fails there, for any reason, moves on to the next
one. Why a fallback happened is printed, sent in the boot event and
``HELLO``, shown on the status lamps (``controller.alarm``) and counted in
the audits (``settings_fallbacks``).

An unexpected exception in ``tick`` is counted (``faults``), the game is
rebuilt with the same settings and audits, and the machine comes back in
attract mode with the fault pattern shown (``alarm = "fault"``).
"""

import json

from .. import __version__
from .audits import Audits
from .ports import ATTRACT, OVER
from .store import RETRY_MS, crc32

FAULT_BACKOFF_MS = 5000   # faults in a row: wait this long before rebuilding
FAULT_SAVE_MS = 60000     # a fault is written at once, at most once a minute
SETTINGS_GAP_MS = 10000   # settings are written at most this often; changes in between wait (wear)
QUIET_MS = 5000           # nobody pressed or sent a command for this long: the flash may be erased
SOURCE_MISSING = "missing"
PIN_TRIES = 3             # as nimatron.link.protocol: wrong PINs before UNLOCK pauses


def read_source(text):
    """A settings file's text (None: no file) -> (overrides, why, crc).

    ``overrides`` is a dict, or None when the text cannot be used (``why``
    says why). Never raises: bad JSON, nesting thousands deep, a number too
    big for a float all come back as ``why``.
    """
    if text is None:
        return {}, SOURCE_MISSING, 0
    if isinstance(text, str):
        text = text.encode()
    crc = crc32(text)
    try:
        data = json.loads(text)
    except Exception as e:  # ValueError, RecursionError, MemoryError...
        return None, "not valid JSON (%s)" % _short(e), crc
    if not isinstance(data, dict):
        return None, "must hold a JSON object", crc
    return data, None, crc


def overrides_source(overrides):
    """Command-line overrides as a source (the Pi, the simulator)."""
    try:
        text = json.dumps(overrides, sort_keys=True)
    except TypeError:  # MicroPython: no sort_keys
        text = json.dumps(overrides)
    return dict(overrides), None, crc32(text.encode())


def identity(board):
    """Who the machine is: firmware version, board, pin map name and CRC."""
    from .. import resource

    crc = None
    try:
        with open(resource("config/pinmaps/" + board + ".json"), "rb") as f:
            crc = "%08x" % crc32(f.read())
    except Exception:  # noqa: BLE001 - an unknown board has no pin map to name
        pass
    return {"version": __version__, "board": board, "pinmap": board, "pinmap_crc": crc}


def _short(e, limit=120):
    text = "%s: %s" % (type(e).__name__, e)
    return text if len(text) <= limit else text[:limit] + "..."


def _default_make(board, overrides, listener, now_ms, audits):
    from .app import make_controller

    return make_controller(board, overrides, listener=listener, now_ms=now_ms, audits=audits)


def settings_diff(settings):
    """The keys of resolved settings that differ from their preset's: what to store."""
    from ..config.settings import resolve

    base = resolve({}, settings["preset"])
    out = {"preset": settings["preset"]}
    for key in settings:
        if settings[key] != base.get(key):
            out[key] = settings[key]
    return out


class Machine:
    """The controller, its audits and store, and the host link, kept alive.

    ``source``: ``read_source(...)`` or ``overrides_source(...)``.
    ``make(board, overrides, listener, now_ms, audits)`` builds a
    controller (default: ``app.make_controller``). ``log(line)`` gets the
    console lines (default: print). ``strict``: a source that fails raises
    (the simulator and an interactive ``python -m nimatron``: exit 2)
    instead of falling back.
    """

    def __init__(self, board, source, store=None, now_ms=0, reset_reason=None, clock=None,
                 listener=None, make=None, log=None, strict=False):
        self.default_board = board
        self.strict = strict
        self.store = store
        self.listener = listener
        self.make = make or _default_make
        self.log = log or print
        self.link = None
        self.controller = None
        self.faults_in_row = 0
        self.retry_at = None
        self.last_fault_save = None
        self.last_fault = None
        self.now = now_ms
        self.settings_saved_at = None  # when a SET or the menu last wrote the settings
        self.settings_due = None       # a change waiting for the gap to pass: written then
        found = {"settings": None, "audits": None, "problems": []}
        if store is not None:
            found = store.load()
        self.audits = Audits(found["audits"], store, clock)
        self.restored = "stored" if (found["audits"] or found["settings"]) else "factory"
        notes = list(found["problems"])
        lost = found.get("lost", ())
        self.damaged = bool(notes)
        if notes:  # something stored was lost or damaged: counted where it lasts, and said below
            self.audits.count("data_losses")
        if self.restored == "factory" and store is not None:
            self.audits.count("factory_restores")
            if notes:
                notes.append("settings restored to factory")  # the cause is said above
            elif getattr(store, "nvm", None) is not None:
                notes.append("nothing stored: settings restored to factory (a new board, or a power cut "
                             "while the flash sector was erased)")
            else:
                notes.append("nothing stored: settings restored to factory (no state file yet: a new "
                             "exhibit, or the file was removed)")
        self.sealed = None
        self._choose(source, found["settings"], notes, now_ms)
        if ("audits" in lost and self.audits.pin_failures < PIN_TRIES
                and self.controller.settings.get("operator_pin")):
            # the wrong-PIN count may be in the lost record: fail closed, UNLOCK pauses from boot
            self.audits.pin_failures = PIN_TRIES
            notes.append("the wrong-PIN count may be lost: UNLOCK waits as after %d wrong PINs" % PIN_TRIES)
        if "settings" in lost and self.sealed is None:
            # the lost record may have changed the operator PIN: fail closed (docs/operator.md)
            self.sealed = ("a damaged settings record may have held a new operator PIN: save any adjustment "
                           "or a factory reset from the operator menu on the buttons, then SET operator_pin again")
            notes.append("host link locked: the operator PIN may be in the damaged record")
        self.audits.power_up(reset_reason)  # one write per start
        self.saving = None       # why saves fail, as last said (``watch_store``)
        self.watch_store(notes)
        self.why = "; ".join(notes)
        self.boot = {"event": "boot"}
        self.boot.update(identity(self.board))
        self.boot["restored"] = self.restored
        self.boot["settings_from"] = self.settings_from
        self.boot["reset_reason"] = reset_reason or "unknown"
        if self.why:
            self.boot["why"] = self.why
        if self.saving:
            self.boot["saving"] = self.saving
        self.boot["audits"] = self.audits.snapshot()
        for line in notes:
            self.log("nimatron: " + line)

    # -- choosing the settings -----------------------------------------------
    def _choose(self, source, stored, notes, now):
        file_over, file_why, crc = source
        usable = isinstance(stored, dict) and isinstance(stored.get("set"), dict)
        stored_board = stored.get("board") if usable and isinstance(stored.get("board"), str) else None
        candidates = []
        if usable and stored.get("src") == crc:  # the source has not changed since
            candidates.append(("stored", stored_board, stored["set"]))
        if file_over is not None:
            over = dict(file_over)
            board = over.pop("board", self.default_board)
            candidates.append(("file", board, over))
        elif file_why != SOURCE_MISSING:
            notes.append("settings file unusable: %s" % file_why)
        pin = self._pin(file_over, file_why, stored if usable else None)
        if usable:
            last = dict(stored["set"])
            if pin is not None:
                last["operator_pin"] = pin
            candidates.append(("last good", stored_board, last))
        defaults = {}
        if pin:
            defaults["operator_pin"] = pin
        candidates.append(("defaults", None, defaults))
        for label, board, over in candidates:
            board = board or self.default_board
            try:
                self._build(board, over, now)
            except Exception as e:  # noqa: BLE001 - any failure: the next candidate
                if self.strict and label == "file":
                    raise
                if label == "file":
                    notes.append("settings file rejected: %s" % _short(e))
                elif label != "stored":
                    notes.append("%s settings rejected: %s" % (label, _short(e)))
                if label == "defaults":  # the board's own defaults fail: nothing left to try
                    self._failed(notes)
                    raise
                continue
            self.settings_from = label
            self.board = board
            self.overrides = over
            break
        fell_back = self.settings_from in ("last good", "defaults") and file_why != SOURCE_MISSING
        if fell_back:
            self.audits.count("settings_fallbacks")
            notes.append("started with the %s settings" % self.settings_from)
            if pin is None and not self.controller.settings.get("operator_pin"):
                self.sealed = "settings file unreadable, so its operator PIN is unknown: fix the file and restart"
                notes.append("host link locked: the PIN is unknown")
        if fell_back or self.damaged:
            self.controller.alarm = "settings"
        if self.settings_from == "file" and self.store is not None and not (
                usable and stored.get("src") == crc and stored.get("board") == self.board
                and stored["set"] == self.overrides):
            self._save_settings({"board": self.board, "src": crc, "set": self.overrides})
        self.src = crc

    def _failed(self, notes):
        """No candidate started: say why, first cause first, and count it where
        it lasts (a board that never starts still leaves its evidence)."""
        for line in notes:
            self.log("nimatron: " + line)
        self.audits.count("start_failures")
        try:
            self.audits.save()
        except Exception as e:  # noqa: BLE001 - a failing store must not hide the start's own error
            self.log("nimatron: start failure not saved: %s" % _short(e))

    def _pin(self, file_over, file_why, stored):
        """The operator PIN a fallback keeps; None if it cannot be known."""
        from ..config.settings import check_value

        if file_over is not None and "operator_pin" in file_over:
            try:
                return check_value("operator_pin", file_over["operator_pin"])
            except Exception:  # noqa: BLE001 - a bad PIN: keep the stored one, or lock
                pass
        elif file_over is not None or file_why == SOURCE_MISSING:
            if stored is not None:
                return stored["set"].get("operator_pin", "")
            return ""
        if stored is not None and stored["set"].get("operator_pin"):
            return stored["set"]["operator_pin"]
        return None

    def _build(self, board, overrides, now):
        self.controller = self.make(board, dict(overrides), self._event, now, self.audits)
        self.controller.save = self.save_settings  # the operator menu's adjustments, like SET

    def _event(self, event):
        if self.listener is not None:
            self.listener(event)

    # -- the host link ------------------------------------------------------
    def attach(self, link):
        """Give the link what it needs: saving SETs, who we are, the seal."""
        self.link = link
        link.save = self.save_settings
        link.sealed = self.sealed
        hello = {}
        for key in ("pinmap", "pinmap_crc", "restored", "settings_from", "why", "saving"):
            if key in self.boot:
                hello[key] = self.boot[key]
        link.boot = hello
        return link

    def save_settings(self, settings):
        """A SET (or the operator menu) changed the settings: store them on top
        of today's source. True once durable; False if they cannot be; else
        the milliseconds until they will be: writes come at most once every
        ``SETTINGS_GAP_MS``, so a host looping over SET cannot wear the flash out."""
        self.overrides = settings_diff(settings)
        if self.sealed is not None:  # only the operator menu reaches here while the link is sealed
            self.sealed = None
            if self.link is not None:
                self.link.sealed = None
            self.log("nimatron: host link unsealed: settings saved from the operator menu")
        if self.store is None:
            return False
        if self.settings_saved_at is not None and self.now - self.settings_saved_at < SETTINGS_GAP_MS:
            self.settings_due = self.settings_saved_at + SETTINGS_GAP_MS
            return max(1, self.settings_due - self.now)
        return self._write_settings(self.now)

    def _write_settings(self, now):
        self.settings_due = None
        self.settings_saved_at = now
        return self._save_settings({"board": self.board, "src": self.src, "set": self.overrides})

    def _save_settings(self, record):
        if self.store is None:
            return False
        return self.store.save_settings(record)

    # -- the main loop ------------------------------------------------------
    def tick(self, now):
        """One pass of the main loop. Never raises (but KeyboardInterrupt)."""
        self.keep(now)
        if self.controller is None:
            if now >= self.retry_at:
                self._rebuild(now)
            return
        try:
            self.controller.update(now)
            self.faults_in_row = 0
        except Exception as e:  # noqa: BLE001 - the exhibit comes back instead of dying
            self.fault(e, now)
            return
        if self.link is not None:
            self.link.poll(now)

    def keep(self, now):
        """The time, a settings change whose write was waiting for the gap
        (``save_settings``), the store's retries, and its failures said."""
        self.now = now
        if self.settings_due is not None and now >= self.settings_due:
            try:
                self._write_settings(now)
            except Exception as e:  # noqa: BLE001 - the store said why; the game goes on
                self.log("nimatron: settings not saved: " + _short(e))
        if self.store is not None:
            self.store.tick(now)
            if self.quiet(now):
                self.store.tidy(now)
            self.watch_store()

    def quiet(self, now):
        """No game in play (its end shown, or attract mode), no press and no
        host command for ``QUIET_MS``: a moment when a board stopped by a
        flash erase keeps nobody waiting."""
        c = self.controller
        if c is None or c.state not in (ATTRACT, OVER) or now - c.last_input < QUIET_MS:
            return False
        link = self.link
        return link is None or (not link.pending and now - link.last_command >= QUIET_MS)

    def watch_store(self, notes=None):
        """Saves failing (a full or read-only disk, a broken flash) are loud:
        said once when they start and once when they stop, on the console,
        as an event, in HELLO (``saving``) and on the status lamps; the
        store keeps the records in memory and tries again meanwhile."""
        store = self.store
        failing = store.failing if store is not None else None
        if failing == self.saving:
            return
        self.saving = failing
        link_boot = self.link.boot if self.link is not None else None
        if failing:
            line = ("saving failed (%s): audits and settings are kept in memory and tried again every %d s"
                    % (failing, RETRY_MS // 1000))
            if notes is not None:
                notes.append(line)
            else:
                self.log("nimatron: " + line)
            if self.controller is not None and not self.controller.alarm:
                self.controller.alarm = "store"
            for out in (getattr(self, "boot", None), link_boot):
                if out is not None:
                    out["saving"] = failing
        else:
            self.log("nimatron: saving works again: nothing waiting is lost")
            if self.controller is not None and self.controller.alarm == "store":
                self.controller.alarm = None
            for out in (getattr(self, "boot", None), link_boot):
                if out is not None and "saving" in out:
                    del out["saving"]
        if notes is None:  # at boot it is in the boot event itself
            self._event({"event": "saving", "failing": failing})

    def fault(self, exc, now):
        """An unexpected exception: count it, say so, rebuild the game."""
        self.last_fault = _short(exc, 200)
        self.log("nimatron: fault: " + self.last_fault)
        self.audits.count("faults")
        if self.last_fault_save is None or now - self.last_fault_save >= FAULT_SAVE_MS:
            self.last_fault_save = now
            self.audits.save()
        self.faults_in_row += 1
        old = self.controller
        self.controller = None
        try:
            old.io.close()
        except Exception:  # noqa: BLE001
            pass
        if self.faults_in_row > 3:
            self.retry_at = now + FAULT_BACKOFF_MS
            return
        self._rebuild(now)

    def _rebuild(self, now):
        self.retry_at = now + FAULT_BACKOFF_MS
        for over in (self.overrides, {"operator_pin": self.overrides.get("operator_pin", "")}):
            try:
                self._build(self.board, over, now)
            except Exception as e:  # noqa: BLE001
                self.log("nimatron: rebuild failed: " + _short(e))
                continue
            self.controller.alarm = "fault"
            if self.link is not None:
                self.link.controller = self.controller
                self.link.attach(self.controller)
            return
