# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``SET KEY VALUE`` over the host link, a step a main-loop pass on a board
(``commands.cmd_set`` loads this module in a pass of its own; the reply drops
it again, as it drops the settings' modules)."""

import json

from .. import forget
from ..passes import collect_next
from ..games.budget import Later
from .protocol import CommandError, _shown


def _refused(link, key, value, e, settings_error):
    """The CommandError for a SET refused by ``e`` (nothing was changed)."""
    own = None
    if not isinstance(e, settings_error) and key == "preset":
        from ..config.settings import load_preset

        own = load_preset(value).get("layout")  # a running machine keeps its own (KEEP_ON_PRESET)
    if own and list(own) != list(link.controller.layout):
        return CommandError(
            "value",
            "preset %s lays out its lamps as %s, not as this machine's %s: "
            "put it in settings.json and restart" % (value, own, link.controller.layout),
        )
    prefix = "" if isinstance(e, settings_error) else "does not fit this board: "
    return CommandError("value", prefix + _shown(str(e), 200))


def set_steps(link, args, text, now):
    """One setting changed. Polled by a board's main loop, over several
    passes, each doing one step (``budget.Later`` until the last): the
    values' checks and the presets' module loaded (``SETTINGS``, one a
    pass, each after a collection), the preset's own settings read, a new
    rule set's module loaded (after a collection: ``changed`` checks the
    starts with it), the new settings worked out, its lamps' drawing and the
    games' checker loaded, the settings applied, saved (against the preset
    as read: never resolved again), then answered. Called directly (tests,
    tools), all at once."""
    if len(args) < 2:
        raise CommandError("syntax", "usage: SET KEY VALUE")
    key = args[0]
    current = link.controller.settings  # every key, resolved
    if key not in current:
        raise CommandError("value", "unknown setting %s" % _shown(key))
    step = link.step
    if step is None or step[0] != text or (step[1] is not current and step[2] is not current):
        link.operator("SET")  # once: a SET that sets the PIN goes on to its reply
        # another command, or the settings changed under it: (text, settings before, after,
        # saved, the preset's own settings, the module collected for, the rules left behind,
        # the new rules and how many of their starts are checked, whether a restart was asked)
        step = link.step = [text, current, None, None, None, None, None, None, 0, None]
    try:
        return _set_steps(link, key, text, step)
    except Later:
        raise
    except BaseException:
        if key in ("rules", "preset"):
            _leave(link.controller, key, text, step)
        forget(SETTINGS + ("panels.playable", "machine.unload", "link.setting"))  # a refused SET leaves none behind
        raise


def _leave(c, key, text, step):
    """A refused SET leaves no rule set's module behind either: what it
    loaded for the new rules (``_rules_modules``) that the rules in play
    do not load themselves."""
    from ..games.rules import rule_modules

    own = ["games." + m for m in rule_modules(c.rules.spec)]
    forget([m for m in _rules_modules(key, _value(text), step[4]) if m not in own], False)


def _value(text):
    """The value of ``SET KEY VALUE``: JSON, or a bare word (SET difficulty teach, SET misere on)."""
    raw = text.split(None, 2)[2].strip()
    try:
        return json.loads(raw)
    except ValueError:
        return raw


# What a SET loads first, one a pass (``config.settings`` whole was most
# of a pass on pico-grid: a module's load is mostly a tick's work).
SETTINGS = ("config.values", "config.settings")


def _set_steps(link, key, text, step):
    for name in SETTINGS:
        link.load(name)
    from ..config.settings import SettingsError, changed, load_preset

    current, new = step[1], step[2]
    if new is None:
        value = _value(text)
        try:
            if step[4] is None:  # the presets file read in a pass of its own, once
                name = _preset_named(current, key, value)
                step[4] = load_preset(name) if name else False
                link.pause()
            restart = getattr(link, "restart", None)  # a board compiling from source (``Machine.attach``)
            if step[9] is None and restart is not None:  # a pass of its own
                if key == "preset":
                    value = _preset_named(current, key, value)
                step[9] = restart(key, value, step[4] or None) or False
                if step[9] is True:  # saved: the board restarts (``Machine.restart``), nothing loaded here
                    c = link.controller
                    forget(SETTINGS + ("panels.playable", "link.setting"))
                    return {
                        "key": key,
                        "value": value,
                        "applies": "now" if c.state == "attract" or c.panel is None else "next game",
                        "saved": True,
                        "restart": True,
                    }
                if step[9]:  # not saved: nothing changed, no restart
                    raise CommandError("busy", "saving fails (%s): %s not changed" % (_shown(step[9], 120), key))
                link.pause()
            for module in _rules_modules(key, value, step[4]):
                link.load(module)  # a new rule set's modules, loaded by the checks next: a pass each
            # polled, the starts are checked a start a pass (``_check``: Graph Nim's four with
            # the values overran a pass on pico-grid); unchanged games were checked before
            new = step[2] = changed(current, key, value, step[4] or None, not link.stepping)
        except ValueError as e:  # nothing was changed
            raise _refused(link, key, value, e, SettingsError)
        link.pause()
    value = new[key]
    if link.controller.settings is not new:
        checked = False
        if link.stepping and link.controller.games_change(new):  # else the games are not checked again
            _check(link, key, value, new, step, SettingsError)
            checked = True
        try:  # direct: the old rules dropped there; polled: the games checked above, a start a pass
            left = link.controller.apply_settings(new, not link.stepping, checked)
        except ValueError as e:  # SettingsError, or PanelError: nothing was changed
            raise _refused(link, key, value, e, SettingsError)
        if link.stepping:
            step[6] = left
        link.pause()
    if step[6] is not None:  # polled: the rules left behind drop their modules in a pass of their own,
        left, step[6] = step[6], None  # their garbage collected first thing in the next (both in one overran it)
        if link.controller.rules_changed(left):
            link.tidied = True
        link.pause()
    if step[3] is None:  # not saved yet
        step[3] = False
        if link.save is not None:
            try:  # True, False, or ms until written
                step[3] = (link.save(new, step[4]) if step[4] else link.save(new)) or False
            except Exception:
                step[3] = False
        link.pause()  # the reply and the settings modules' leaving next pass
    saved = step[3]
    later = 0
    if saved is not True and saved:  # milliseconds until the coalesced write
        later = int(saved)
    saved = saved is True
    applies = "now"
    c = link.controller
    if key in ("rules", "misere", "starts", "preset", "counter") and c.state != "attract" and c.panel is not None:
        applies = "next game"  # as ``Controller.apply_settings``: a game shown (in play or ended) keeps its rules
    shown = value
    if key == "operator_pin" and value:
        shown = "****"
        link.unlocked = True  # whoever set the PIN knows it
    reply = {"key": key, "value": shown, "applies": applies, "saved": saved}
    if later:
        reply["saving_in_ms"] = later
    forget(SETTINGS + ("panels.playable", "link.setting"))  # a board needs them again only at the next SET
    return reply


def _check(link, key, value, new, step, settings_error):
    """The new games checked as ``settings.changed`` and
    ``Controller.apply_settings`` would, a step a pass: the new rules parsed
    (their module loaded in a pass of its own), their lamps' drawing, the
    checker and ``machine.unload`` loaded, then each start checked in a pass
    of its own (a game can begin there, its lamps made, the engine asked:
    all of Graph Nim's four in one pass, with the apply, made ``SET preset
    graph``'s longest pass on pico-grid), then a collection."""
    from ..games.rules import parse_rules
    from ..panels.panel import panel_module

    rules = step[7]
    if rules is None:
        try:
            if _loads(parse_rules, new["rules"]):  # a new rule set's module: a pass of its own
                link.pause()
            rules = step[7] = parse_rules(new["rules"])
        except ValueError as e:
            raise _refused(link, key, value, e, settings_error)
    shape = panel_module(rules, new.get("counter", False))
    if shape:
        link.load("panels." + shape)  # the lamps' drawing, as the check will make them
    if rules.table_spec(new["misere"]) is not None:
        link.load(
            "games.tables"
        )  # what the check's engine reads: loaded inside a start's check, it overran the pass (MacroPad, 21counter)
    link.load("panels.playable")
    c = link.controller
    if rules.spec != c.rules.spec and (c.state == "attract" or c.panel is None):
        link.load("machine.unload")  # the old rules' modules dropped next pass (``rules_changed``)
    starts = new["starts"]
    if step[8] < len(starts):
        from ..config.settings import check_start
        from ..panels.panel import check_input
        from ..panels.playable import check_games

        done = step[8]
        step[8] = done + 1
        try:
            if not done:
                check_input(c.input_model, rules, new)
            check_start(rules, starts[done])
            check_games(rules, new["misere"], c.layout, starts[done : done + 1], new.get("counter", False))
        except ValueError as e:  # PanelError, SettingsError: nothing was changed
            raise _refused(link, key, value, e, settings_error)
        link.pause()
    if step[8] == len(starts):  # the checks' garbage collected in a pass of its own (Graph Nim's four
        step[8] += 1  # starts left enough garbage that a collection fell in the applying pass)
        collect_next()
        link.tidied = True
        link.pause()


def _rules_modules(key, value, own):
    """The games modules (``games.<name>``) of the rules a SET of ``key`` to
    ``value`` brings (``own``: the new preset's settings), each after what
    it imports (``rules.LOADS``, derived from the imports)."""
    from ..games.rules import rule_modules

    if key == "preset" and own:
        from ..config.values import DEFAULTS

        value = own.get("rules", DEFAULTS["rules"])
    elif key != "rules":
        return ()
    return ["games." + m for m in rule_modules(value)]  # ``changed`` says why a value is not a name


def _preset_named(current, key, value):
    """The preset whose own settings a SET of ``key`` to ``value`` is saved
    against: the new one, the present one, or None (a value no preset could
    be named by: ``changed`` says why)."""
    if key != "preset":
        return current["preset"]
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # "SET preset 21": the link reads 21 as a number
    return value if isinstance(value, str) else None


def _loads(call, *args):
    """``call(*args)``; True if it loaded a module."""
    import sys

    before = len(sys.modules)
    call(*args)
    return len(sys.modules) != before
