"""Settings and presets: one place, defaults that work, every value checked.

A board's settings are the defaults, then its preset, then the operator's
overrides (from ``settings.json`` on a board, the command line, or ``SET``
over the serial link). ``resolve`` validates the result; a bad value is a
SettingsError naming the key, never a half-applied change.

    >>> s = resolve({"preset": "drnim"})
    >>> s["rules"], s["starts"], s["difficulty"]
    ('subtract:3', [[15]], 'equalizer')
"""

from . import load_json
from .rules import RulesError, parse_rules


class SettingsError(ValueError):
    """A setting with a bad name or value."""


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
    "seed": 1940,
    "remote_play": False,  # allow `nimatron play` over the serial link
    "operator_pin": "",    # if set, SET needs UNLOCK first
    "volume": 5,           # boards with a speaker or buzzer: 0 mute .. 10 loudest
    "brightness": None,    # NeoPixel brightness 0-1; None: the pin map's (capped by power.py)
}

# Checks per key: (kind, low, high) for ints, or a tuple of allowed values.
_INT = {
    "error_rate": (0, 100), "think_ms": (0, 60000), "show_ms": (0, 60000),
    "over_ms": (1000, 3600000), "walkaway_ms": (5000, 3600000),
    "hint_ms": (1000, 600000), "refuse_ms": (100, 5000), "debounce_ms": (0, 200),
    "seed": (0, 2 ** 30), "volume": (0, 10),
}
_BOOL = ("misere", "explain", "remote_play")
_CHOICE = {"difficulty": DIFFICULTIES, "first": FIRST}

PRESETS_FILE = "presets.json"  # name -> settings and "about"; read per use
_preset_names = []


def preset_names():
    if not _preset_names:
        _preset_names.extend(sorted(load_json(PRESETS_FILE)))
    return _preset_names


def load_preset(name):
    """One preset's settings (and its "about" text), or SettingsError."""
    found = load_json(PRESETS_FILE).get(name)
    if found is None:
        raise SettingsError("unknown preset %r (choose from %s)" % (name, ", ".join(preset_names())))
    return found


def __getattr__(attr):
    # CPython only (PEP 562): every preset at once, for host tools and menus.
    if attr == "PRESETS":
        return load_json(PRESETS_FILE)
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
        try:
            if isinstance(value, bool):
                raise ValueError
            value = int(value)
        except (TypeError, ValueError):
            raise SettingsError("%s must be a whole number" % key)
        low, high = _INT[key]
        if not low <= value <= high:
            raise SettingsError("%s must be between %d and %d" % (key, low, high))
        return value
    if key in _CHOICE:
        if value not in _CHOICE[key]:
            raise SettingsError("%s must be one of %s" % (key, ", ".join(_CHOICE[key])))
        return value
    if key == "preset":
        if not isinstance(value, str) or value not in preset_names():
            raise SettingsError("unknown preset %r (choose from %s)" % (value, ", ".join(preset_names())))
        return value
    if key == "rules":
        try:
            return parse_rules(value).spec
        except RulesError as e:
            raise SettingsError(str(e))
    if key in ("starts", "layout"):
        if value is None and key == "layout":
            return None
        if key == "starts" and isinstance(value, list) and value and isinstance(value[0], int):
            value = [value]  # one start given as a plain list
        rows = value if key == "layout" else None
        if not isinstance(value, list) or not value:
            raise SettingsError("%s must be a non-empty list" % key)
        for item in ([rows] if rows else value):
            if not isinstance(item, list) or not item:
                raise SettingsError("%s must hold lists of lamp counts" % key)
            for n in item:
                if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 255:
                    raise SettingsError("%s: %r is not a lamp count (0-255)" % (key, n))
        return value
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
        value = str(value)
        if value and (len(value) > 12 or not value.isdigit()):
            raise SettingsError("operator_pin must be up to 12 digits (empty: no PIN)")
        return value
    raise SettingsError("cannot set %s" % key)


def resolve(overrides=None, preset=None):
    """Defaults, then the preset, then the overrides: a checked dict."""
    overrides = overrides or {}
    name = check_value("preset", preset or overrides.get("preset") or DEFAULTS["preset"])
    merged = dict(DEFAULTS)
    for key, value in load_preset(name).items():
        if key != "about":
            merged[key] = value
    merged["preset"] = name
    for key, value in overrides.items():
        if key not in DEFAULTS:
            raise SettingsError("unknown setting %r" % key)
        merged[key] = value
    out = {}
    for key in DEFAULTS:
        out[key] = check_value(key, merged[key])
    rules = parse_rules(out["rules"])
    for start in out["starts"]:
        try:
            rules.check(start, ring=rules.has_ring)
        except RulesError as e:
            raise SettingsError("start %s: %s" % (start, e))
    return out
