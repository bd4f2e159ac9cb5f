# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The operator menu's lists that ``nimatron deploy`` checked on the host
(``config/choices.txt``): the presets this board plays, and for each
preset's games the rule sets. The menu shows them at once and checks the
value chosen (``machine.adjust``); without a line for the board's layout
and games it checks every value itself, a module a pass.

A module of its own, loaded in a pass of its own while the menu opens the
adjustments, and dropped with the menu (``controller.MENU_ONLY``).
"""


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
    CircuitPython never frees, outgrew its pool, and the pool's next 8.3 KB
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
                elif ours and line[:len(tag)] == tag:
                    return line[len(tag):].split()
    except Exception:  # no file, or one that cannot be read: checked here
        pass
    return None


def games_key(settings):
    """The games whose rule sets a ``rules`` line lists: "normal 2,3,4/1,3,4"."""
    return "%s%s %s" % ("misere" if settings["misere"] else "normal", " counter" if settings.get("counter") else "",
                        "/".join([numbers(start) for start in settings["starts"]]))


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
    from .adjust import check_step, offered

    menu.key = key
    menu.choices = [menu.c.settings[key]]
    menu.index = 0
    menu.work = [menu.c.settings, offered(key), 0, 0, None, None, None]  # every value checked here
    while menu.work is not None:
        check_step(menu)
    return menu.choices
