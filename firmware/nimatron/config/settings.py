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

from .. import ascii_digits, load_json, resource, too_deep
from ..games.rules import MAX_HEAPS, RulesError, parse_rules


from . import SettingsError  # noqa: F401 - where its users have always found it


DIFFICULTIES = ("perfect", "fallible", "equalizer", "teach")
FIRST = ("visitor", "machine", "alternate")

DEFAULTS = {
    "preset": "nimatron",
    "rules": "nim",
    "misere": False,
    "starts": [[3, 4, 5, 7]],
    "layout": None,        # lamps per row; None: the board's own
    "difficulty": "perfect",
    "error_rate": 30,      # percent of machine moves that are random (fallible)
    "first": "visitor",
    "think_ms": 1500,      # the machine's deliberate pause, as the relays clacked
    "show_ms": 1600,       # the lamps it takes blink this long, then go out
    "over_ms": 15000,      # NIM CHAMP (or machine wins) display, then attract
    "walkaway_ms": 60000,  # no input this long mid-game: abandoned
    "hint_ms": 8000,       # teach: a hesitation this long shows the winning move
    "refuse_ms": 500,      # how long a refused press or selection flashes
    "debounce_ms": 30,
    "explain": False,      # Nimrod: reasoning on the text link and panel
    "counter": False,      # one heap shown as the count so far, in binary (nimatron.panels.counter)
    "seed": 1940,
    "remote_play": False,  # allow `nimatron play` over the serial link
    "operator_pin": "",    # if set, SET needs UNLOCK first
    "volume": 5,           # boards with a speaker or buzzer: 0 mute .. 10 loudest
    "brightness": None,    # NeoPixel brightness 0-1; None: the pin map's (capped by power.py)
    "still_ms": 10000,     # "still playing?": the last this-long of walkaway_ms counts down (0: off)
    "stuck_ms": 10000,     # a button held this long is stuck: ignored until released
    "check_switch_games": 30,  # a row button not pressed in this many games is flagged (0: off)
}

# Checks per key: (kind, low, high) for ints, or a tuple of allowed values.
_INT = {
    "error_rate": (0, 100), "think_ms": (0, 60000), "show_ms": (0, 60000),
    "over_ms": (1000, 3600000), "walkaway_ms": (5000, 3600000),
    "hint_ms": (1000, 600000), "refuse_ms": (100, 5000),
    # A floor above the longest switch bounce (7 ms in the simulator's model,
    # up to ~10 ms for a worn arcade switch): below it one press takes two lamps.
    "debounce_ms": (10, 200),
    "seed": (0, 2 ** 30), "volume": (0, 10),
    "still_ms": (0, 60000), "stuck_ms": (6000, 3600000), "check_switch_games": (0, 10000),
}
PIN_DIGITS = (4, 12)   # operator PIN: 4 to 12 ASCII digits, or "" for none
MAX_STARTS = 32        # starts in rotation (each is checked at start-up)
_BOOL = ("misere", "explain", "remote_play", "counter")
_CHOICE = {"difficulty": DIFFICULTIES, "first": FIRST}

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
    """The preset on the line ``"name": {...}`` of the presets file, or None."""
    import json

    if '"' in name or "\\" in name:
        return None
    try:
        with open(resource(PRESETS_FILE)) as f:
            text = f.read()
        start = text.find('\n "%s": {' % name)
        if start < 0:
            return None
        end = text.find("\n", start + 1)
        line = text[start + 1:end if end > 0 else len(text)].strip()
        if line[-1:] == ",":
            line = line[:-1]
        return json.loads("{" + line + "}")[name]
    except (OSError, ValueError, KeyError):
        return None


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


# Settings an operator may change (everything but the preset's identity).
KEYS = tuple(sorted(DEFAULTS))


def check_value(key, value):
    """The value converted to its proper type, or SettingsError."""
    if key not in DEFAULTS:
        raise SettingsError("unknown setting %r" % key)
    if key in _BOOL:
        if isinstance(value, str):
            low = value.lower()
            if low in ("1", "true", "on", "yes"):
                return True
            if low in ("0", "false", "off", "no"):
                return False
        if isinstance(value, bool):
            return value
        raise SettingsError("%s must be on or off" % key)
    if key in _INT:
        value = whole_number(key, value)
        low, high = _INT[key]
        if not low <= value <= high:
            raise SettingsError("%s must be between %d and %d" % (key, low, high))
        return value
    if key in _CHOICE:
        if value not in _CHOICE[key]:
            raise SettingsError("%s must be one of %s" % (key, ", ".join(_CHOICE[key])))
        return value
    if key == "preset":
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # "SET preset 21": the link reads 21 as a number
        if not isinstance(value, str) or (_preset_line(value) is None and value not in preset_names()):
            raise SettingsError("unknown preset %r (choose from %s)" % (value, ", ".join(preset_names())))
        return value
    if key == "rules":
        try:
            return parse_rules(value).spec
        except RulesError as e:
            raise SettingsError(str(e))
    if key in ("starts", "layout"):
        return _lamp_lists(key, value)
    if key == "brightness":
        if value is None or value in ("default", "null", ""):
            return None
        try:
            if isinstance(value, bool):
                raise ValueError
            value = float(value)
        except (TypeError, ValueError):
            raise SettingsError("brightness must be a number above 0 and at most 1 (or default)")
        if not 0 < value <= 1:
            raise SettingsError("brightness must be above 0 and at most 1")
        return value
    if key == "operator_pin":
        return check_pin(value)
    raise SettingsError("cannot set %s" % key)


def whole_number(key, value):
    """An int from an int or a string of ASCII digits, else SettingsError.

    Floats are refused, never truncated (1.5, 2.0, 1e999, Infinity, NaN:
    a whole number is written without a point); so are bools and digits
    of other scripts ("١٢"), which the serial link could never type back.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text[:1] == "-" else text
        if 0 < len(digits) <= 12 and ascii_digits(digits):
            return int(text)
    raise SettingsError("%s must be a whole number (digits 0-9), got %s" % (key, _brief(value)))


def check_pin(value):
    """The operator PIN as a string: "" (no PIN) or 4-12 ASCII digits."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        value = str(value)  # SET operator_pin 4711 arrives as a JSON number
    low, high = PIN_DIGITS
    if not isinstance(value, str) or (value and not (low <= len(value) <= high and ascii_digits(value))):
        raise SettingsError("operator_pin must be %d to %d digits 0-9 (empty: no PIN)" % (low, high))
    return value


def _lamp_lists(key, value):
    """``starts`` (lists of heap sizes) or ``layout`` (lamps per row), checked."""
    if value is None and key == "layout":
        return None
    if key == "starts" and isinstance(value, list) and value and isinstance(value[0], int):
        value = [value]  # one start given as a plain list
    if not isinstance(value, list) or not value:
        raise SettingsError("%s must be a non-empty list" % key)
    rows = [value] if key == "layout" else value
    if len(rows) > MAX_STARTS:
        raise SettingsError("%s: at most %d starts" % (key, MAX_STARTS))
    for item in rows:
        if not isinstance(item, list) or not item:
            raise SettingsError("%s must hold lists of lamp counts" % key)
        if len(item) > MAX_HEAPS:
            raise SettingsError("%s: at most %d rows" % (key, MAX_HEAPS))
        for n in item:
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 255:
                raise SettingsError("%s: %s is not a lamp count (0-255)" % (key, _brief(n)))
    return value


def _brief(value):
    """A value as shown in a message: short, and never a 5,000-digit number."""
    if isinstance(value, str):
        text = repr(value)
        return text if len(text) <= 24 else text[:20] + "...'"
    if isinstance(value, int) and not isinstance(value, bool):
        return "a number out of range" if not -10 ** 12 < value < 10 ** 12 else str(value)
    if isinstance(value, float):
        return repr(value)
    return "a " + type(value).__name__


KEEP_ON_PRESET = ("operator_pin", "remote_play", "layout")  # kept when the preset changes


def changed(current, key, value):
    """``current`` with one setting changed, checked (SET and the operator menu).

    A new preset brings its own defaults, keeping ``KEEP_ON_PRESET``.
    """
    value = check_value(key, value)
    if key == "layout" and value != current["layout"]:
        raise SettingsError("layout is fixed while running: change it in the settings file and restart")
    if key == "preset":
        keep = {}
        for k in KEEP_ON_PRESET:
            keep[k] = current[k]
        return resolve(keep, value)
    new = dict(current)
    new[key] = value
    return resolve(new, new["preset"])


def resolve(overrides=None, preset=None):
    """Defaults, then the preset, then the overrides: a checked dict."""
    overrides = overrides or {}
    name = preset or overrides.get("preset") or DEFAULTS["preset"]
    if isinstance(name, int) and not isinstance(name, bool):
        name = str(name)  # "SET preset 21": the link reads 21 as a number
    if not isinstance(name, str):
        check_value("preset", name)  # says why
    merged = dict(DEFAULTS)
    for key, value in load_preset(name).items():  # the presets file read once: a board's SET is short
        if key != "about":
            merged[key] = value
    merged["preset"] = name
    for key, value in overrides.items():
        if key not in DEFAULTS:
            raise SettingsError("unknown setting %r" % key)
        merged[key] = value
    out = {}
    for key in DEFAULTS:
        value = merged[key]
        out[key] = name if key == "preset" and value == name else check_value(key, value)
    rules = parse_rules(out["rules"])
    for start in out["starts"]:
        try:
            position = rules.check(start, ring=rules.has_ring)  # as the rules read it (nim2d: rows of cells)
        except RulesError as e:
            raise SettingsError("start %s: %s" % (start, e))
        if not rules.has_move(position, rules.has_ring):
            raise SettingsError("start %s: a game with no move to make" % start)
    return out
