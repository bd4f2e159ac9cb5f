# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The operator menu's adjustments (``nimatron.machine.service``): the
choices of a setting worked out, checked against this board, and the one
chosen saved, each a step a pass.

A module of its own, loaded when a value is first shown (a pass of its own,
after ``config.values`` and ``config.settings``): the menu whole was a big
module, and opening it over the link loaded it in one pass that overran
its budget on a stock board; most visits test lamps or read audits and never adjust.
"""

from ..config.settings import DIFFICULTIES, FIRST, kept, preset_names, resolve
from .. import forget
from ..passes import collect, collect_next, load, loaded

CHOICES = {
    "misere": (False, True),
    "difficulty": DIFFICULTIES,
    "first": FIRST,
    "walkaway_ms": (30000, 60000, 120000, 300000),
    "over_ms": (5000, 15000, 30000, 60000),
    "still_ms": (0, 5000, 10000, 20000),
    "stuck_ms": (10000, 20000, 30000, 60000),
    "check_switch_games": (0, 10, 30, 100),
    "brightness": (0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0),
}


def step(menu, d):
    """A step forward (``d`` 1) or back (-1) through the settings or a setting's values."""
    if menu.screen == "adjust":
        keys = menu.adjustable()
        menu.index = (menu.index + d) % len(keys)
        key = keys[menu.index]
        menu._emit({"event": "service", "screen": "adjust", "key": key, "value": menu.c.settings[key]})
    else:
        menu.index = (menu.index + d) % len(menu.choices)
        menu._emit(
            {"event": "service", "screen": "adjust", "key": menu.key, "value": menu.choices[menu.index], "saved": False}
        )


def select(menu, now):
    """DONE on a setting (its values shown, checked a pass each) or on a value (saved)."""
    c = menu.c
    if menu.screen == "adjust":
        key = menu.key = menu.adjustable()[menu.index]
        menu.choices = [c.settings[key]]  # the others offered once checked, one a pass (``update``)
        menu.index = 0
        menu.unchecked = False
        menu.work = [c.settings, None, 0, 0, None, None, None]  # the values (or the deploy's list): next pass
        menu._open("adjust_value", now, keep=True)
    elif menu.choices[menu.index] == c.settings[menu.key]:
        _stop_checks(menu)
        save_now(menu, now)  # nothing changes: confirmed at once
    elif menu.unchecked:  # the deploy's: checked on this board first, a pass at a time (``check_step``), then saved
        key = menu.key
        value = menu.choices[menu.index]
        restart = getattr(c, "restart", None)
        done = None
        if restart is not None and key in ("preset", "rules"):  # compiled from source: saved, the board restarts
            done = restart(key, value, _config().load_preset(value if key == "preset" else c.settings["preset"]))
        if done is None:
            menu.work = [c.settings, [value], 0, 0, None, None, None, ""]
            return
        event = {"event": "adjusted", "key": key, "value": value}
        if done is True:  # once the menu is closed (``startup.Machine.tick``)
            event["saved"] = event["restart"] = True
            event["applies"] = "next game"
        else:
            event["error"] = "saving fails (%s): nothing changed" % done
        menu._emit(event)
        leave_value(menu, now)
    else:  # applied, the old rules dropped and saved over the next passes (``save_step``)
        _stop_checks(menu)
        menu.work = [c.settings, menu.choices[menu.index], 0, None, None]
        menu.saving = True


def leave_value(menu, now):
    """Back from a value to the list of settings (checks left unfinished)."""
    work = menu.work
    if work is not None and not menu.saving and work[6] is not None:
        _forget_checked(work[6], False)
        _forget_checker()
    menu.work = None
    menu.saving = False
    menu.index = menu.adjustable().index(menu.key)
    menu._open("adjust", now, keep=True)


def save_now(menu, now):
    """DONE on a value: saved at once (``save_step`` until done)."""
    menu.work = [menu.c.settings, menu.choices[menu.index], 0, None, None]
    menu.saving = True
    while menu.saving:
        save_step(menu, now)


def offered(key):
    """The values the menu may offer for ``key``, before this board's checks."""
    if key == "preset":
        return preset_names()
    if key == "rules":
        from ..games.registry import menu_specs
        from ..games.rules import REGISTRY

        return menu_specs(REGISTRY)  # every registered rule set; those this board cannot play are left out
    return CHOICES[key]


def save_step(menu, now):
    """One pass's share of saving the value chosen, as a SET over the link
    does it (``link.setting``, the same controller calls): its settings
    worked out (the games checked already, while the choices were), a
    collection, the settings applied, the rules left behind dropped,
    each in a pass of its own when the games change, then written.

    ``work``: [settings before, value, phase, new settings, rules left]."""
    c = menu.c
    work = menu.work
    key = menu.key
    value = work[1]
    event = {"event": "adjusted", "key": key, "value": value}
    phase = work[2]
    if menu._load_config():
        return
    games = key in ("preset", "rules")
    if games and _load_checker():
        return  # what the save loads first, a module a pass (dropped with the save)
    try:
        if phase == 0:
            if games and _playable().load_value(key, value):
                return  # the new rules' modules, a pass each (the checks' were dropped)
            checked = c.settings is work[0]  # else checked afresh, whole
            new = work[3] = _config().changed(c.settings, key, value, None, not checked)
            work[0] = checked
            if c.games_change(new):
                work[2] = 1
                collect()  # before the applying pass, not inside it
                return
        if work[2] < 2:
            if c.games_change(work[3]) and _playable().load_checked(work[3]):
                return  # its lamps' drawing, a pass of its own before the applying pass
            work[4] = c.apply_settings(work[3], False, work[0])
            work[2] = 2
            if work[4] is not None:
                return  # the old rules' modules dropped in a pass of their own
    except ValueError as e:  # SettingsError, PanelError: nothing changed
        event["error"] = str(e)
        menu._emit(event)
        leave_value(menu, now)
        if games:
            _forget_checker()
        return
    if work[4] is not None:
        left, work[4] = work[4], None
        c.rules_changed(left)
        return
    new = work[3]
    _saved(event, _save(c, new))
    event["applies"] = "next game" if key in ("preset", "rules", "misere") else "now"
    menu._emit(event)
    leave_value(menu, now)
    if games:
        _forget_checker()


def do(menu, action, now):
    """A YES confirmed (the ``confirm`` screen, which loads this module):
    the audits cleared, or the factory settings restored."""
    c = menu.c
    if action == "clear_audits":
        menu._emit({"event": "audits_cleared", "saved": c.audits.clear_service()})
        return
    new = resolve(
        kept(c.settings), c.factory_preset if hasattr(c, "factory_preset") else None
    )  # a name in the code: interned as it compiles
    applied = True
    try:
        c.apply_settings(new)
    except ValueError:  # the factory game needs another layout: from the next start
        applied = False
    menu._emit(_saved({"event": "factory_reset", "preset": new["preset"], "applied": applied}, _save(c, new)))


def _save(c, settings):
    """``controller.save(settings)``: True once durable; False with no store, or
    if it failed; else the milliseconds until the (coalesced) write."""
    if c.save is None:
        return False
    try:
        return c.save(settings)
    except Exception:  # a failing store must not stop the menu
        return False


def _saved(event, result):
    """``event`` with ``saved`` (durable now) and ``saving_in_ms`` (durable soon)."""
    event["saved"] = result is True
    if result is not True and result:
        event["saving_in_ms"] = int(result)
    return event


def _stop_checks(menu):
    """DONE while the values were still being checked: what the checks
    loaded leaves, collected first in the next pass (not in the press's)."""
    work = menu.work
    if work is not None and not menu.saving and work[6] is not None:
        _forget_checked(work[6], False)
        _forget_checker()


def _forget_checked(before, now=True):
    """The games and panels modules a value's checks loaded dropped again
    (``before``: those resident when they began); the panels stayed, every
    one a technician's look at the presets drew."""
    forget(loaded("games", before), False)
    forget(loaded("panels", before), now)  # collects, unless not ``now``


def _load_checker():
    """True if this pass loaded ``panels.playable``, the games' check: held
    while a list's values are checked (``Controller.check_games`` loaded it
    and dropped it with a collection in each start's pass: passes far over
    budget looking at the presets on stock boards)."""
    import sys

    if "nimatron.panels.playable" in sys.modules:
        return False
    load("panels.playable")
    return True


def _forget_checker():
    """The games' check dropped once a list is checked or left; collected first in the next pass."""
    forget(("panels.playable",), collect=False)
    collect_next()


def _config():
    """``config.settings`` as loaded now (``service.Menu._load_config``)."""
    import sys

    return sys.modules["nimatron.config.settings"]


def _playable():
    """``panels.playable``: the games' check, and what a value's check loads first."""
    from ..panels import playable

    return playable
