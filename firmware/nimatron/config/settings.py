# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Settings and presets: one place, defaults that work, every value checked.

A board's settings are the defaults, then its preset, then the operator's
overrides (from ``settings.json`` on a board, the command line, or ``SET``
over the serial link). ``resolve`` validates the result; a bad value is a
SettingsError naming the key, never a half-applied change.

    >>> s = resolve({"preset": "drnim"})
    >>> s["rules"], s["starts"], s["difficulty"]
    ('subtract:3', [[15]], 'equalizer')
"""

from .. import load_json, resource, too_deep
from ..games.rules import RulesError, parse_rules

from . import SettingsError, values  # where its users have always found it
from .values import (  # noqa: F401 - the values' checks, where their users have always found them
    _BOOL,
    _CHOICE,
    _INT,
    DEFAULTS,
    DIFFICULTIES,
    FIRST,
    KEEP_ON_PRESET,
    KEYS,
    MAX_STARTS,
    PIN_DIGITS,
    _brief,
    _lamp_lists,
    check_pin,
    whole_number,
)


PRESETS_FILE = "config/presets.json"  # name -> settings and "about"; read per use
_preset_names = []  # type: list[str]


def presets():
    """Every preset (name -> settings and "about"), from the file, checked
    for shape; SettingsError naming the file if it is missing or broken."""
    try:
        data = load_json(PRESETS_FILE)
    except (OSError, ValueError) as e:
        raise SettingsError("%s: cannot read it (%s)" % (PRESETS_FILE, e))
    except RuntimeError as e:  # nested past the parser's limits, or the pystack
        raise SettingsError("%s: %s" % (PRESETS_FILE, too_deep(e)))
    if not isinstance(data, dict) or not data:
        raise SettingsError("%s must hold an object of presets" % PRESETS_FILE)
    for name in data:
        _check_preset(name, data[name])
    return data


def check_value(key, value):
    """``values.check_value``; a preset's name is looked up in the presets file here."""
    if key != "preset":
        return values.check_value(key, value)
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # "SET preset 21": the link reads 21 as a number
    if not isinstance(value, str) or (_preset_line(value) is None and value not in preset_names()):
        raise SettingsError("unknown preset %r (choose from %s)" % (value, ", ".join(preset_names())))
    return value


def preset_names():
    if not _preset_names:
        _preset_names.extend(sorted(presets()))
    return _preset_names


def load_preset(name):
    """One preset's settings (and its "about" text), or SettingsError.

    Found in the file's text and parsed alone (the file keeps one preset a
    line, ``"name": {...}``: tests/test_settings_values.py): a SET on a board
    parses one preset, not all of them. A file laid out otherwise is parsed
    whole, as ``presets()`` does."""
    found = _preset_line(name)
    if found is None:
        found = presets().get(name)
    if found is None:
        raise SettingsError("unknown preset %r (choose from %s)" % (name, ", ".join(preset_names())))
    _check_preset(name, found)
    return found


def _preset_line(name):
    """The preset on the line ``"name": {...}`` of the presets file, or None.

    Read into one buffer of ``_PIECE`` bytes, a piece at a time, never the
    whole file: on a board a SET reads it beside the settings modules,
    and the whole file's text (a string grown piece by piece) was the block a
    fragmented heap could not give (tests/test_set_peak.py).
    The pieces leave no garbage behind them either: a collection that fell
    inside this pass took a large part of it."""
    import json

    if '"' in name or "\\" in name:
        return None
    key = ('\n "%s": {' % name).encode()
    keep = len(key) - 1  # a piece's tail that may hold the key's beginning
    buf = bytearray(_PIECE + keep)
    view = memoryview(buf)
    try:
        with open(resource(PRESETS_FILE), "rb") as f:
            have = at = 0
            while True:  # the key, found across pieces: each piece's tail kept at the front
                got = f.readinto(view[have:])
                if not got:
                    return None
                have += got
                at = buf.find(key, 0, have)
                if at >= 0:
                    break
                if have > keep:
                    buf[0:keep] = bytes(view[have - keep : have])
                    have = keep
            end = buf.find(b"\n", at + 1, have)
            line = bytes(view[at + 1 : end if end >= 0 else have])
            while end < 0:  # the rest of the line (at most about 270 bytes)
                got = f.readinto(buf)
                if not got:
                    break
                end = buf.find(b"\n", 0, got)
                line += bytes(view[: end if end >= 0 else got])
        text = line.decode().strip()
        if text[-1:] == ",":
            text = text[:-1]
        return json.loads("{" + text + "}")[name]
    except (OSError, ValueError, KeyError):  # (UnicodeError is a ValueError)
        return None


_PIECE = 512  # the presets file read this much at a time (one line is at most about 270 bytes)


def _check_preset(name, preset):
    if not isinstance(preset, dict):
        raise SettingsError("%s: preset %s must be an object of settings" % (PRESETS_FILE, name))
    for key in preset:
        if key != "about" and (key not in DEFAULTS or key == "preset"):
            raise SettingsError("%s: preset %s: unknown setting %s" % (PRESETS_FILE, name, key))


def __getattr__(attr):
    # CPython only (PEP 562): every preset at once, for host tools and menus.
    if attr == "PRESETS":
        return presets()
    raise AttributeError(attr)


def changed(current, key, value, own=None, starts=True):
    """``current`` (resolved settings) with one setting changed, checked (SET
    and the operator menu).

    A new preset brings its own defaults, keeping ``KEEP_ON_PRESET``
    (``own``: its own settings, ``load_preset``'s, if already read). Any
    other key checks only its value, and the starts against the rules when
    it is one of those: the rest of ``current`` was checked when resolved,
    and a board's pass has no room for reading the presets again.
    ``starts=False``: the starts are left to the caller (a SET over the
    link checks them a start a pass: ``check_start``).
    """
    # a preset ``load_preset`` found is not looked for again
    value = str(value) if key == "preset" and own is not None else check_value(key, value)
    if key == "layout" and value != current["layout"]:
        raise SettingsError("layout is fixed while running: change it in the settings file and restart")
    if key == "preset":
        return resolve(kept(current), value, own, starts)
    new = dict(current)
    new[key] = value
    if starts and key in ("rules", "starts"):
        _check_starts(new)
    return new


def kept(current):
    """What a change of preset keeps of ``current``: ``KEEP_ON_PRESET``'s
    settings (SET, the operator menu, a factory reset, a restart's save)."""
    keep = {}
    for k in KEEP_ON_PRESET:
        keep[k] = current[k]
    return keep


def preset_base(name, own=None):
    """What ``resolve({}, name)`` starts from: the defaults, then the preset's
    own settings (``own``: ``load_preset(name)``'s, if already read),
    unchecked: what a ``SET``'s save compares against (``settings_diff``)."""
    base = dict(DEFAULTS)
    for key, value in (own if own is not None else load_preset(name)).items():
        if key != "about":
            base[key] = value
    base["preset"] = name
    return base


def resolve(overrides=None, preset=None, own=None, starts=True):
    """Defaults, then the preset, then the overrides: a checked dict.
    ``own``: the preset's own settings, if ``load_preset`` already read them."""
    overrides = overrides or {}
    name = preset or overrides.get("preset") or DEFAULTS["preset"]
    if isinstance(name, int) and not isinstance(name, bool):
        name = str(name)  # "SET preset 21": the link reads 21 as a number
    if not isinstance(name, str):
        check_value("preset", name)  # says why
    merged = preset_base(name, own)  # the presets file read once: a board's SET is short
    for key, value in overrides.items():
        if key not in DEFAULTS:
            raise SettingsError("unknown setting %r" % key)
        merged[key] = value
    out = {}
    for key in DEFAULTS:
        value = merged[key]
        out[key] = name if key == "preset" and value == name else check_value(key, value)
    if starts:
        _check_starts(out)
    return out


def _check_starts(settings):
    """Every start a game of the rules can begin from, or SettingsError."""
    rules = parse_rules(settings["rules"])
    for start in settings["starts"]:
        check_start(rules, start)


def check_start(rules, start):
    """SettingsError unless a game of ``rules`` can begin from ``start``."""
    try:
        position = rules.check(start, ring=rules.has_ring)  # as the rules read it (nim2d: rows of cells)
    except RulesError as e:
        raise SettingsError("start %s: %s" % (start, e))
    if not rules.has_move(position, rules.has_ring):
        raise SettingsError("start %s: a game with no move to make" % start)
