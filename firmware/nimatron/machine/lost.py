# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Why a stored record is taken as lost: not of a shape this version reads, in words.

Loaded only when ``reading`` has found such a record: a board's start
interns every name of every module it loads, and these words would cost
each start their names for a record it almost never meets.
"""

from .records import SETTINGS


def _shape(v):
    """A JSON value's kind, in words."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, int):
        return "a negative number" if v < 0 else "a number"
    for t, words in ((float, "a fractional number"), (str, "a string"), (list, "a list"), (dict, "a dict")):
        if isinstance(v, t):
            return words
    return "something else"


def _counts(values, n):
    """Why ``values`` is not a list of counts (its first ``n``: this version's), or None."""
    if not isinstance(values, list):
        return "is %s, not a list of counts" % _shape(values)
    for i in range(min(n, len(values))):
        v = values[i]
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:  # not a count (``reading._count``)
            return "holds %s at %d, not a count" % (_shape(v), i)
    return None


def why(kind, payload):
    """Why a whole record (``reading.shape``) is not of a shape this version reads, in words."""
    from .audits import KEYS, PRESET_KEYS

    if kind == SETTINGS:
        if "factory" in payload:
            return None if payload["factory"] is True else '"factory": %s' % _shape(payload["factory"])
        for key, want, words in (
            ("board", str, "a board's name"),
            ("src", int, "a checksum"),
            ("set", dict, "a dict of settings"),
        ):
            v = payload.get(key)
            if (key in payload or key == "set") and (not isinstance(v, want) or isinstance(v, bool)):
                return '"%s": %s, not %s' % (key, _shape(v), words)
        return None
    for key in ("l", "s"):
        if key in payload or key == "l":
            said = _counts(payload.get(key), len(KEYS))
            if said:
                return '"%s" that %s' % (key, said)
    presets = payload.get("p", {})
    if not isinstance(presets, dict):
        return '"p": %s, not a dict of presets' % _shape(presets)
    for name in presets:
        said = _counts(presets[name], len(PRESET_KEYS))
        if said:
            return 'preset "%s" that %s' % (name, said)
    for key in ("f", "z", "k"):
        v = payload.get(key, 0)
        if not isinstance(v, int) or isinstance(v, bool) or (key == "k" and not 0 <= v < 1000000):
            return '"%s": %s, not %s' % (key, _shape(v), "a count" if key == "k" else "a time")
    return None
