# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The operator menu's lists that ``nimatron deploy`` checked on the host
(``config/choices.txt``): the presets this board plays, and for each
preset's games the rule sets. The menu shows them at once and checks the
value chosen (``check_step``, a step a pass); without a line for the
board's layout and games it checks every value itself, a module a pass.

A module of its own, loaded in a pass of its own while the menu opens the
adjustments, and dropped with the menu (``controller.MENU_ONLY``).
"""

from ..passes import collect, loaded

FILE = "config/choices.txt"


def show(menu, key):
    """True if the deploy listed ``key``'s values: shown now, the current
    one first if it is not among them (``menu.unchecked``: the one chosen
    is checked on this board before it is saved)."""
    found = listed(menu.c, key)
    menu.unchecked = found is not None
    if found is None:
        return False
    current = menu.c.settings[key]
    if current not in found:
        found.insert(0, current)
    menu.choices = found
    menu.index = found.index(current)
    menu.work = None
    return True


def listed(c, key):
    """The presets, or the rule sets, that ``nimatron deploy`` found this
    board plays (it runs ``choices`` on the host and writes them to
    ``config/choices.txt``), or None: no file, one for another layout, or
    no line for these games (starts of the settings file's own). Checking
    them here loaded every rule set's module in turn: their names, which
    CircuitPython never frees, outgrew its pool, and the pool's next step
    found no room (MemoryError; presets left out, EXPLAIN refused after)."""
    if key == "preset":
        tag = "preset"
    elif key == "rules":
        tag = "rules " + games_key(c.settings)
    else:
        return None
    from .. import resource

    tag += " "
    layout = "layout " + numbers(c.layout)
    ours = False
    try:
        with open(resource(FILE)) as f:
            for line in f:
                line = line.strip()
                if line[:7] == "layout ":
                    ours = line == layout
                elif ours and line[: len(tag)] == tag:
                    return line[len(tag) :].split()
    except Exception:  # no file, or one that cannot be read: checked here
        pass
    return None


def games_key(settings):
    """The games whose rule sets a ``rules`` line lists: "normal 2,3,4/1,3,4"."""
    return "%s%s %s" % (
        "misere" if settings["misere"] else "normal",
        " counter" if settings.get("counter") else "",
        "/".join([numbers(start) for start in settings["starts"]]),
    )


def numbers(items):
    """``[2, 3, 4]`` as "2,3,4" (a layout, a start)."""
    return ",".join([str(n) for n in items])


def refused(menu, value, why):
    """A value of the deploy's list this board refused when chosen: said
    (``adjusted`` with ``error``), left out of the list, the current value
    shown; or, made the current one meanwhile (``SET``), confirmed."""
    current = menu.c.settings[menu.key]
    if value == current:
        from .adjust import save_now

        menu.index = menu.choices.index(current)  # chosen from the list: in it
        save_now(menu, menu.c.now)
        return
    if value in menu.choices:
        menu.choices.remove(value)
    if current not in menu.choices:
        menu.choices.insert(0, current)
    menu.index = menu.choices.index(current)
    menu._emit({"event": "adjusted", "key": menu.key, "value": value, "error": why or "refused"})


def choices(menu, key):
    """The values of ``key`` this board can play, the current one included,
    worked out at once (the deploy, tests, tools; ``menu``: an open
    ``Menu``) by the steps the menu takes a pass at a time (``check_step``)."""
    from .adjust import offered

    menu.key = key
    menu.choices = [menu.c.settings[key]]
    menu.index = 0
    menu.work = [menu.c.settings, offered(key), 0, 0, None, None, None]  # every value checked here
    while menu.work is not None:
        check_step(menu)
    return menu.choices


def check_step(menu):
    """One pass's share of working out the choices of ``menu.key``: for a
    preset or a rule set, a collection, then the value's settings (its
    rule set's module loaded), then each start's game checked
    (``Controller.check_settings``, ``settings.check_start``), a pass
    each, then the modules it loaded forgotten (collected) in a pass of
    their own. Opening the preset list checked every preset in one
    press's pass, seconds of it on a board.

    ``work``: [settings checked against, values (None: listed in the
    next pass, not the press's), next value, phase (-1: checked, its
    modules to forget), its settings, its rules, the games modules
    resident before, with the panels']."""
    from .adjust import _config, _forget_checked, _forget_checker, _load_checker, _playable, offered

    c = menu.c
    work = menu.work
    key = menu.key
    base, values, at, phase = work[0], work[1], work[2], work[3]
    if menu._load_config():
        return
    if values is None:  # the deploy's list, shown whole; else the values to check: the presets file parsed
        if not show(menu, key):
            work[1] = offered(key)
        return
    chosen = len(work) > 7  # one value of the deploy's list, chosen: checked before it is saved
    if base is not c.settings:  # changed under the menu (SET over the link): checked afresh
        if not chosen:
            menu.choices = [c.settings[key]]
            menu.index = 0
        work[0], work[2], work[3] = c.settings, 0, 0
        return
    if at == len(values):
        menu.work = None
        _forget_checker()
        if chosen:  # not saved: refused on this board (the deploy checked other settings)
            refused(menu, values[0], work[7])
        return
    value = values[at]
    games = key in ("preset", "rules")  # values that load a rule set's module
    if phase == 0 and work[6] is None:
        if games and _load_checker():
            return  # the games' checker, a pass of its own, kept while the list is checked
        work[6] = loaded("games") + loaded("panels")
    if value == base[key]:
        work[2] = at + 1  # the current value: always offered
        return
    if phase < 0:  # the value checked: the modules it loaded leave, in a pass of their own
        work[2], work[3], work[4], work[5] = at + 1, 0, None, None
        _forget_checked(work[6])  # collects
        return
    if phase == 0 and games:
        work[3] = 1
        collect()  # its garbage left behind before the value's module loads
        return
    try:
        if phase < 2:
            new = work[4]
            if new is None:
                if games and _playable().load_value(key, value):
                    return  # a module a pass: the rule set's and what it needs
                new = work[4] = _config().changed(base, key, value, None, False)
            if c.games_change(new):
                if _playable().load_checked(new):
                    return  # its lamps' drawing, a pass of its own
                from ..games.rules import parse_rules

                work[5] = parse_rules(new["rules"])
                work[3] = 2
                return
            c.check_settings(new)  # the power budget; the games are those checked before
        else:
            new = work[4]
            k = phase - 2
            _config().check_start(work[5], new["starts"][k])
            one = dict(new)
            one["starts"] = new["starts"][k : k + 1]
            c.check_settings(one)
            if k + 1 < len(new["starts"]):
                work[3] = phase + 1
                return
        _offer(menu, value)
    except Exception as e:  # refused (ValueError), or a rule set that cannot say: not offered, and said
        why = "%s: %s" % (type(e).__name__, e)
        menu._emit({"event": "not_offered", "key": key, "value": value, "why": why})
        if chosen:
            work[7] = why
    if games:
        work[3] = -1
    else:
        work[2], work[3], work[4], work[5] = at + 1, 0, None, None


def _offer(menu, value):
    """``value`` checked: offered among the choices, in the values' order;
    or, chosen from the deploy's list, saved (a step a pass, ``save_step``)."""
    if len(menu.work) > 7:
        menu.work = [menu.c.settings, value, 0, None, None]  # the modules its check loaded: the save's
        menu.saving = True
        return
    shown = menu.choices[menu.index]
    good = menu.choices
    good.append(value)
    menu.choices = [v for v in menu.work[1] if v in good]
    if shown not in menu.choices:
        menu.choices.insert(0, shown)  # a current value no longer listed (an old preset)
    menu.index = menu.choices.index(shown)
