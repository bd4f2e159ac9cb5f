# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A ``startup.Machine``'s start: the stored records read, the settings
chosen (stored, the source, the last good ones, the board's defaults: see
``startup``) and why said, the boot event made.

Imported by ``Machine.__init__`` and, on a board, dropped from the heap as
soon as the start is done (``nimatron.forget``): a running exhibit needs
none of it until it starts again.
"""

from ..config import SOURCE_MISSING
from . import identity
from .audits import Audits
from .store import short

PIN_TRIES = 3  # as nimatron.link.protocol: wrong PINs before UNLOCK pauses


def start(m, source, now_ms, reset_reason, clock):
    """What ``Machine.__init__`` does once its fields are set: the stored
    records read, the settings chosen (``_choose``), the boot event made."""
    found = {"settings": None, "audits": None, "problems": []}  # type: dict
    if m.store is not None:
        found = m.store.load()
    m.audits = Audits(found["audits"], m.store, clock)
    m.restored = "stored" if (found["audits"] or found["settings"]) else "factory"
    notes = list(found["problems"])
    lost = found.get("lost", ())
    m.damaged = bool(notes)
    if notes:  # something stored was lost or damaged: counted where it lasts, and said below
        m.audits.count("data_losses")
    if m.restored == "factory" and m.store is not None:
        m.audits.count("factory_restores")
        if notes:
            notes.append("settings restored to factory")  # the cause is said above
        elif getattr(m.store, "nvm", None) is not None:
            notes.append(
                "nothing stored: settings restored to factory (a new board, or a power cut "
                "while the flash sector was erased)"
            )
        else:
            notes.append(
                "nothing stored: settings restored to factory (no state file yet: a new "
                "exhibit, or the file was removed)"
            )
    m.sealed = None
    if _choose(m, source, found["settings"], notes, now_ms):
        lost = list(lost) + ["settings"]  # a stored record this version cannot apply: as good as lost
        if not m.damaged:
            m.damaged = True
            m.audits.count("data_losses")
            m.controller.alarm = "settings"
    if "audits" in lost and m.audits.pin_failures < PIN_TRIES and m.controller.settings.get("operator_pin"):
        # the wrong-PIN count may be in the lost record: fail closed, UNLOCK pauses from boot
        m.audits.pin_failures = PIN_TRIES
        notes.append("the wrong-PIN count may be lost: UNLOCK waits as after %d wrong PINs" % PIN_TRIES)
    if "settings" in lost and m.sealed is None:
        # the lost record may have changed the operator PIN: fail closed (docs/operator.md)
        m.sealed = (
            "a damaged settings record may have held a new operator PIN: save any adjustment "
            "or a factory reset from the operator menu on the buttons, then SET operator_pin again"
        )
        notes.append("host link locked: the operator PIN may be in the damaged record")
        m.seal_lasts = True
    stored = found["settings"]
    if m.sealed is None and isinstance(stored, dict) and stored.get("sealed"):
        # sealed at an earlier start, not yet unsealed by the menu: the saves since
        # (this start's own, a compaction) carried the seal, not the lost record's evidence
        m.sealed = stored["sealed"] if isinstance(stored["sealed"], str) else "sealed at an earlier start"
        notes.append(
            "host link still locked since an earlier start (the operator PIN may have been lost): "
            "save any adjustment or a factory reset from the operator menu"
        )
        m.seal_lasts = True
    if m.seal_lasts and not (isinstance(stored, dict) and stored.get("sealed") == m.sealed):
        m._save_settings({"board": m.board, "src": m.src, "set": m.overrides})  # the seal, kept
    notes.extend(found.get("warnings", ()))  # faults at start that cost nothing: said, never a loss
    m.audits.power_up(reset_reason)  # one write per start
    m.watch_store(notes)
    m.why = "; ".join(notes)
    m.boot = {"event": "boot"}
    m.boot.update(identity(m.board))
    m.boot["restored"] = m.restored
    m.boot["settings_from"] = m.settings_from
    m.boot["reset_reason"] = reset_reason or "unknown"
    if m.why:
        m.boot["why"] = m.why
    if m.saving:
        m.boot["saving"] = m.saving
    m.boot["audits"] = m.audits.snapshot()
    for line in notes:
        m.log("nimatron: " + line)


def _choose(m, source, stored, notes, now):
    """Build the first candidate that starts; True if the stored settings
    were tried and rejected (what they held, the PIN among it, is then lost)."""
    file_over, file_why, crc = source
    usable = isinstance(stored, dict) and isinstance(stored.get("set"), dict)
    stored_board = stored.get("board") if usable and isinstance(stored.get("board"), str) else None
    candidates = []
    if usable and stored.get("src") == crc:  # the source has not changed since
        candidates.append(("stored", stored_board, stored["set"]))
    file_board = None  # the board the file names: its hardware, whatever its settings are worth
    if file_over is not None:
        over = dict(file_over)
        board = over.pop("board", m.default_board)
        file_board = board if isinstance(board, str) else None
        candidates.append(("file", board, over))
    elif file_why != SOURCE_MISSING:
        notes.append("settings file unusable: %s" % file_why)
    pin = _pin(file_over, file_why, stored if usable else None)
    if usable:
        last = dict(stored["set"])
        if pin is not None:
            last["operator_pin"] = pin
        candidates.append(("last good", stored_board, last))
    defaults = {}
    if pin:
        defaults["operator_pin"] = pin
    # The board's own defaults: the board the file or the store names first (a
    # MacroPad deployed with "board" in settings.json and a bad preset there
    # fell back to code.py's BOARD, a pin map not on its drive, and stayed dark).
    first = len(candidates)
    for board in (file_board, stored_board, m.default_board):
        if board and ("defaults", board, defaults) not in candidates[first:]:
            candidates.append(("defaults", board, defaults))
    if len(candidates) == first:
        candidates.append(("defaults", None, defaults))
    final = len(candidates) - 1
    rejected = False
    for i, (label, board, over) in enumerate(candidates):
        board = board or m.default_board
        try:
            m._build(board, over, now)
        except Exception as e:  # any failure: the next candidate
            if m.strict and label == "file":
                raise
            if label == "file":
                notes.append("settings file rejected: %s" % short(e))
            elif label == "stored":
                rejected = True
                notes.append("stored settings rejected: %s" % short(e))
            else:
                notes.append("%s settings rejected: %s" % (label, short(e)))
            if i == final:  # code.py's own board's defaults fail too: nothing left to try
                _failed(m, notes)
                raise
            continue
        m.settings_from = label
        m.board = board
        m.overrides = over
        break
    fell_back = m.settings_from in ("last good", "defaults") and file_why != SOURCE_MISSING
    if fell_back:
        m.audits.count("settings_fallbacks")
        notes.append("started with the %s settings" % m.settings_from)
        if pin is None and not m.controller.settings.get("operator_pin"):
            m.sealed = "settings file unreadable, so its operator PIN is unknown: fix the file and restart"
            notes.append("host link locked: the PIN is unknown")
    if fell_back or m.damaged:
        m.controller.alarm = "settings"
    if (
        m.settings_from == "file"
        and m.store is not None
        and not (
            usable and stored.get("src") == crc and stored.get("board") == m.board and stored["set"] == m.overrides
        )
    ):
        m._save_settings({"board": m.board, "src": crc, "set": m.overrides})
    m.src = crc
    return rejected


def _failed(m, notes):
    """No candidate started: say why, first cause first, and count it where
    it lasts (a board that never starts still leaves its evidence)."""
    for line in notes:
        m.log("nimatron: " + line)
    m.audits.count("start_failures")
    try:
        m.audits.save()
    except Exception as e:  # a failing store must not hide the start's own error
        m.log("nimatron: start failure not saved: %s" % short(e))


def _pin(file_over, file_why, stored):
    """The operator PIN a fallback keeps; None if it cannot be known."""
    from ..config.values import check_value

    if file_over is not None and "operator_pin" in file_over:
        try:
            return check_value("operator_pin", file_over["operator_pin"])
        except Exception:  # a bad PIN: keep the stored one, or lock
            pass
    elif file_over is not None or file_why == SOURCE_MISSING:
        if stored is not None:
            return stored["set"].get("operator_pin", "")
        return ""
    if stored is not None and stored["set"].get("operator_pin"):
        return stored["set"]["operator_pin"]
    return None
