# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The operator's commands of the host link: SET, UNLOCK, LOCK (``commands``
lists them with the rest). A module of their own so that each of the link's
modules loads within one main-loop tick on a board (``code.py`` loads them
one a pass: ``commands`` whole took 55-60 ms on an emulated RP2040).
"""

import json

from .. import forget
from .protocol import PIN_PAUSE_MAX_MS, PIN_PAUSE_MS, PIN_TRIES, CommandError, _shown


def cmd_set(link, args, text, now):
    if len(args) < 2:
        raise CommandError("syntax", "usage: SET KEY VALUE")
    key = args[0]
    current = link.controller.settings  # every key, resolved
    if key not in current:
        raise CommandError("value", "unknown setting %s" % _shown(key))
    link.operator("SET")
    from ..config.settings import SettingsError, changed

    raw = text.split(None, 2)[2].strip()
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw  # a bare word: SET difficulty teach, SET misere on
    try:
        new = changed(current, key, value)
        value = new[key]
        link.controller.apply_settings(new)
    except ValueError as e:  # SettingsError, or PanelError: nothing was changed
        own = None
        if not isinstance(e, SettingsError) and key == "preset":
            from ..config.settings import load_preset

            own = load_preset(value).get("layout")  # a running machine keeps its own (KEEP_ON_PRESET)
        if own and list(own) != list(link.controller.layout):
            raise CommandError("value", "preset %s lays out its lamps as %s, not as this machine's %s: "
                               "put it in settings.json and restart" % (value, own, link.controller.layout))
        prefix = "" if isinstance(e, SettingsError) else "does not fit this board: "
        raise CommandError("value", prefix + _shown(str(e), 200))
    saved = False
    if link.save is not None:
        try:
            saved = link.save(new)
        except Exception:
            saved = False
    later = 0
    if saved is not True and saved:  # milliseconds until the coalesced write
        later = int(saved)
    saved = saved is True
    applies = "now"
    if key in ("rules", "misere", "starts", "preset", "counter") and link.controller.state not in ("attract", "over"):
        applies = "next game"
    shown = value
    if key == "operator_pin" and value:
        shown = "****"
        link.unlocked = True  # whoever set the PIN knows it
    reply = {"key": key, "value": shown, "applies": applies, "saved": saved}
    if later:
        reply["saving_in_ms"] = later
    forget(("config.settings",))  # a board needs it again only at the next SET
    return reply


def pin_pause(failures):
    """How long UNLOCK waits after ``failures`` wrong PINs in a row (0: not at all)."""
    beyond = failures - PIN_TRIES
    if beyond < 0:
        return 0
    pause = PIN_PAUSE_MS << (beyond if beyond < 8 else 8)
    return pause if pause < PIN_PAUSE_MAX_MS else PIN_PAUSE_MAX_MS


def cmd_unlock(link, args, text, now):
    if len(args) != 1:
        raise CommandError("syntax", "usage: UNLOCK PIN")
    pin = link.controller.settings.get("operator_pin") or ""
    if not pin:
        link.unlocked = True
        return {"locked": False, "pin": False}
    if link.pin_pause_until is not None and now < link.pin_pause_until:
        raise CommandError("busy", "too many wrong PINs: wait %d s" % ((link.pin_pause_until - now + 999) // 1000))
    audits = link.controller.audits
    failing = audits.saving_fails()
    if failing:  # an uncounted wrong PIN would be a free guess after each restart: fail closed
        raise CommandError("busy", "saving fails (%s): UNLOCK waits" % _shown(failing, 80))
    if args[0] != pin:
        # Each wrong PIN past PIN_TRIES pauses UNLOCK twice as long as the
        # last, up to PIN_PAUSE_MAX_MS; only the right PIN starts afresh. The
        # count is in the audits record, written at once: a restart neither
        # forgets it nor cuts the pause short (``HostLink`` pauses from boot).
        audits.pin_failures += 1
        pause = pin_pause(audits.pin_failures)
        if pause:
            link.pin_pause_until = now + pause
            audits.count("pin_lockouts")
        audits.save(True)  # urgent: counted before the next is tried
        raise CommandError("denied", "wrong PIN")
    if audits.pin_failures:
        audits.pin_failures = 0
        audits.save()
    link.pin_pause_until = None
    link.unlocked = True
    return {"locked": False, "pin": True}


def cmd_lock(link, args, text, now):
    if args:
        raise CommandError("syntax", "LOCK takes no arguments")
    link.unlocked = False
    return {"locked": True}
