# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A rule change on a board that compiles its modules from source
(``startup.Machine.restart``, the only caller): loaded there only, at a
rule change (``code.py`` gives the machine its reload port only where the
modules are ``.py``: ``power_on.source``)."""

import sys

from .. import forget
from .ports import ATTRACT


def restart(m, key, value, own=None):
    """A rule change (``key`` preset or rules, to ``value``) on a board
    that compiles its modules from source (``reload`` given): when the
    new rules' modules are not resident and ``nimatron deploy`` listed
    the value for this board (``deployed.listed``: checked there, on the
    host), the settings are saved now and the board restarts once no
    game is shown (``Machine.tick``), so the new rules compile into the heap of
    a fresh start: compiled into a heap cut up by what is resident, the
    SET ran out of memory (docs/board.md). ``own``: the new preset's
    settings (``load_preset``). None: not this way (applied in place, as
    anywhere else); True: saved, the restart asked for; else why it
    was not saved (nothing changed, no restart)."""
    from ..config.settings import DEFAULTS, kept
    from ..games.rules import rule_modules

    c = m.controller
    if m.reload is None or c is None or key not in ("preset", "rules") or (key == "preset" and not own):
        return None
    for name in rule_modules(own.get("rules", DEFAULTS["rules"]) if key == "preset" else value):
        if "nimatron.games." + name not in sys.modules:
            break
    else:
        return None  # resident: nothing compiles, applied in place
    held = "nimatron.machine.deployed" in sys.modules  # the operator menu's, open
    from .deployed import listed

    if value not in (listed(c, key) or ()):
        if not held:
            forget(("machine.deployed",), False)
        return None  # not checked by the deploy: checked here, in place, as before
    if key == "preset":
        new = kept(c.settings)
        new["preset"] = value
    else:
        new = dict(c.settings)
        new["rules"] = value
    was = m.overrides
    m.settings_saved_at = None  # written now, whatever the gap: the restart reads it
    done = m.save_settings(new, own)
    if done is not True:
        m.overrides = was
        if m.store is None:
            return "no store"
        m._write_settings(m.now)  # the store holds the old ones again (its retries write them)
        return m.store.failing or "held back %d ms by the flash's wear limit" % done
    m.reloading = True
    return True


def due(m):
    """A pass of ``Machine.tick`` while a restart is due: once no game is
    shown (attract mode, or no controller), the reply is out and nothing
    waits in the store, the audits are written and the board restarts
    (CircuitPython runs code.py again). True if the port returned (tests)."""
    c = m.controller
    if (
        (c is not None and c.state != ATTRACT)
        or (m.link is not None and m.link.out)
        or (m.store is not None and m.store.unsaved)
    ):
        return False
    m.reloading = False
    if m.audits.save(True) is True:
        m.reload.reload()  # CircuitPython: code.py runs again
        return True
    m.log("nimatron: audits not saved: no restart; the new rules apply at the next start")
    return False
