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

from .. import const
import json

from .. import forget
from ..config import SOURCE_MISSING
from .ports import ATTRACT, OVER
from .store import RETRY_MS, crc32, short

_FAULT_BACKOFF_MS = const(5000)  # faults in a row: wait this long before rebuilding
_FAULT_SAVE_MS = const(60000)  # a fault is written at once, at most once a minute
_SETTINGS_GAP_MS = const(10000)  # settings are written at most this often; changes in between wait (wear)
_QUIET_MS = const(5000)  # nobody pressed or sent a command for this long: the flash may be erased
# Dropped from a board's heap once the Machine has started: the start itself,
# what builds a controller and what chooses and opens its driver (imported
# again by a rebuild after a fault; the driver's own module stays).
START_ONLY = ("machine.starting", "machine.app", "drivers")


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
        return None, "not valid JSON (%s)" % short(e), crc
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


def _default_make(board, overrides, listener, now_ms, audits):
    from .app import make_controller

    return make_controller(board, overrides, listener=listener, now_ms=now_ms, audits=audits)


def settings_diff(settings, own=None):
    """The keys of resolved settings that differ from their preset's: what to store.

    Compared with the preset as read (``own``: its settings, if the caller
    already read them), each value checked only where it differs, never
    resolved again: on a board resolving took most of the save's pass."""
    from ..config.settings import check_value, preset_base

    base = preset_base(settings["preset"], own)
    out = {"preset": settings["preset"]}
    for key in settings:
        value = settings[key]
        if key != "preset" and value != base.get(key) and (key not in base or value != check_value(key, base[key])):
            out[key] = value
    return out


class Machine:
    """The controller, its audits and store, and the host link, kept alive.

    ``source``: ``read_source(...)`` or ``overrides_source(...)``.
    ``make(board, overrides, listener, now_ms, audits)`` builds a
    controller (default: ``app.make_controller``). ``log(line)`` gets the
    console lines (default: print). ``strict``: a source that fails raises
    (the simulator and an interactive ``python -m nimatron``: exit 2)
    instead of falling back. ``reload``: ``supervisor`` (anything with
    ``reload()``), given by ``code.py`` only where the board compiles its
    modules from source (``power_on.source``): a rule change then restarts
    the board (``restart``).
    """

    def __init__(
        self,
        board,
        source,
        store=None,
        now_ms=0,
        reset_reason=None,
        clock=None,
        listener=None,
        make=None,
        log=None,
        strict=False,
        reload=None,
    ):
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
        self.settings_due = None  # a change waiting for the gap to pass: written then
        self.saving = None  # why saves fail, as last said (``watch_store``)
        self.boot = {}  # type: dict  # the boot event: who we are, what we started with (``starting.start``)
        self.sealed = None  # why the host link refuses operator commands (``starting``)
        self.seal_lasts = False  # the seal is kept with the settings until the menu saves them
        self.reload = reload
        self.reloading = False  # a rule change saved: the board restarts once no game is shown (``tick``)
        from .starting import start

        try:
            start(self, source, now_ms, reset_reason, clock)
        finally:
            forget(START_ONLY)  # on a board: the start's code leaves the heap (imported again by the next Machine)

    def _build(self, board, overrides, now):
        self.controller = self.make(board, dict(overrides), self._event, now, self.audits)  # type: ignore[attr-defined]  # audits, board, src: set by starting.start, in __init__
        self.controller.save = self.save_settings  # the operator menu's adjustments, like SET
        if self.reload is not None:  # a board compiling from source: the menu's rule changes restart it (``adjust``)
            self.controller.restart = self.restart

    def _event(self, event):
        """The controller's listener (a game's events): the machine's own
        ``listener`` (stdout on a Pi); the host link adds itself after it
        (``HostLink.attach``)."""
        if self.listener is not None:
            self.listener(event)

    def _emit(self, event):
        """An event of the machine's own (``saving``): where a game's go, the
        listener and the host link. ``EV saving`` went to stdout only: a
        running ``nimatron monitor`` never saw saves start failing."""
        c = self.controller
        if c is not None and c.listener is not None:
            c.listener(event)  # this machine's ``_event``, then the link's (``HostLink.attach``)
            return
        self._event(event)
        if self.link is not None:  # between a fault and its rebuild: no controller to go through
            self.link.on_event(event)

    # -- the host link ------------------------------------------------------
    def attach(self, link):
        """Give the link what it needs: saving SETs, who we are, the seal."""
        self.link = link
        link.save = self.save_settings
        if self.reload is not None:
            link.restart = self.restart  # a rule change restarts the board (``link.setting``)
        link.sealed = self.sealed
        hello = {}
        for key in ("pinmap", "pinmap_crc", "restored", "settings_from", "why", "saving"):
            if key in self.boot:
                hello[key] = self.boot[key]
        link.boot = hello
        return link

    def save_settings(self, settings, own=None):
        """A SET (or the operator menu) changed the settings: store them on top
        of today's source. True once durable; False if they cannot be; else
        the milliseconds until they will be: writes come at most once every
        ``_SETTINGS_GAP_MS``, so a host looping over SET cannot wear the flash out.
        ``own``: the preset's own settings, if the caller read them (``settings_diff``).
        While a restart is due (``restart``) nothing is saved: the restart reads
        the settings saved for it (these last until then: False)."""
        if self.reloading:
            return False
        self.overrides = settings_diff(settings, own)
        if self.sealed is not None:  # only the operator menu reaches here while the link is sealed
            self.sealed = None
            if self.link is not None:
                self.link.sealed = None
            self.log("nimatron: host link unsealed: settings saved from the operator menu")
        if self.store is None:
            return False
        if self.settings_saved_at is not None and self.now - self.settings_saved_at < _SETTINGS_GAP_MS:
            self.settings_due = self.settings_saved_at + _SETTINGS_GAP_MS
            return max(1, self.settings_due - self.now)
        return self._write_settings(self.now)

    def restart(self, key, value, own=None):
        """A rule change that restarts a board compiling its modules from
        source (``machine.restart``: loaded only there, at a rule change;
        None: not this way, and it leaves again)."""
        from .restart import restart

        done = restart(self, key, value, own)
        if done is None:
            forget(("machine.restart",), False)
        return done

    def _write_settings(self, now):
        self.settings_due = None
        self.settings_saved_at = now
        return self._save_settings({"board": self.board, "src": self.src, "set": self.overrides})  # type: ignore[attr-defined]  # as in _build

    def _save_settings(self, record):
        if self.store is None:
            return False
        if self.sealed is not None and self.seal_lasts:
            record["sealed"] = self.sealed  # stored with the settings: the next start seals too (``starting``)
        return self.store.save_settings(record)

    # -- the main loop ------------------------------------------------------
    def tick(self, now):
        """One pass of the main loop. Never raises (but KeyboardInterrupt,
        and CircuitPython's reload: ``restart``)."""
        self.keep(now)
        if self.reloading:  # a rule change saved for a restart (``machine.restart``, loaded by it)
            from .restart import due

            if due(self):
                return
        if self.controller is None:
            if now >= self.retry_at:
                self._rebuild(now)
            return
        try:
            self.controller.update(now)
            self.faults_in_row = 0
        except Exception as e:  # the exhibit comes back instead of dying
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
            except Exception as e:  # the store said why; the game goes on
                self.log("nimatron: settings not saved: " + short(e))
        if self.store is not None:
            self.store.tick(now)
            if self.quiet(now):
                self.store.tidy()
            self.watch_store()

    def quiet(self, now):
        """No game in play (its end shown, or attract mode), no press and no
        host command for ``_QUIET_MS``: a moment when a board stopped by a
        flash erase keeps nobody waiting."""
        c = self.controller
        if c is None or c.state not in (ATTRACT, OVER) or now - c.last_input < _QUIET_MS:
            return False
        link = self.link
        return link is None or (not link.pending and now - link.last_command >= _QUIET_MS)

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
            line = "saving failed (%s): audits and settings are kept in memory and tried again every %d s" % (
                failing,
                RETRY_MS // 1000,
            )
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
            self._emit({"event": "saving", "failing": failing})

    def fault(self, exc, now):
        """An unexpected exception: count it, say so, rebuild the game."""
        self.last_fault = short(exc, 200)
        self.log("nimatron: fault: " + self.last_fault)
        self.audits.count("faults")  # type: ignore[attr-defined]  # as in _build
        if self.last_fault_save is None or now - self.last_fault_save >= _FAULT_SAVE_MS:
            self.last_fault_save = now
            self.audits.save()  # type: ignore[attr-defined]  # as in _build
        self.faults_in_row += 1
        old = self.controller
        self.controller = None
        try:
            old.io.close()  # type: ignore[union-attr]  # no controller (a fault while none was built) raises here, caught
        except Exception:
            pass
        if self.faults_in_row > 3:
            self.retry_at = now + _FAULT_BACKOFF_MS
            return
        self._rebuild(now)

    def _rebuild(self, now):
        self.retry_at = now + _FAULT_BACKOFF_MS
        try:
            self._rebuild_with(now)
        finally:
            forget(START_ONLY)  # what built it leaves a board's heap again

    def _rebuild_with(self, now):
        for over in (self.overrides, {"operator_pin": self.overrides.get("operator_pin", "")}):
            try:
                self._build(self.board, over, now)  # type: ignore[attr-defined]  # as in _build
            except Exception as e:
                self.log("nimatron: rebuild failed: " + short(e))
                continue
            self.controller.alarm = "fault"  # type: ignore[union-attr]  # _build just made it
            if self.link is not None:
                self.link.controller = self.controller
                self.link.attach(self.controller)
            return
