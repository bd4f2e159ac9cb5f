# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A stored audits record read back into an ``audits.Audits`` (``Audits.load``).

Needed only when a machine starts: on a board it leaves the heap again at
once (``nimatron.forget``); counting and writing records stay in ``audits``,
which passes in what its records hold (this module imports nothing of it).
"""


def adopt(audits, record, OWN, PRESET_KEYS, MAX_PRESETS, _zeros):
    """Adopt a stored record into ``audits``; anything malformed reads as zero.
    The rest are the ``audits`` module's: the record's keys this version reads,
    the per-preset counts, how many presets are kept, and its zeroed counters."""
    if not isinstance(record, dict):
        return
    KEYS = audits.keys()
    audits.lifetime = _from_list(record.get("l"), KEYS, _zeros)
    audits.service = _from_list(record.get("s", record.get("l")), KEYS, _zeros)  # left out: the same as lifetime
    audits.newer = {"l": _beyond(record.get("l"), KEYS), "s": _beyond(record.get("s", record.get("l")), KEYS)}
    for key in record:
        if key not in OWN:
            audits.newer[key] = record[key]
    audits.presets = {}
    presets = record.get("p")
    if isinstance(presets, dict):
        for name in sorted(presets)[:MAX_PRESETS]:
            values = presets[name]
            if isinstance(name, str) and isinstance(values, list):
                counts = {}
                for i in range(len(PRESET_KEYS)):
                    v = values[i] if i < len(values) else 0
                    counts[PRESET_KEYS[i]] = v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else 0
                audits.presets[name] = counts
    for attr, key in (("first_game", "f"), ("last_game", "z")):
        v = record.get(key)
        setattr(audits, attr, v if isinstance(v, int) and not isinstance(v, bool) else None)
    v = record.get("k")
    audits.pin_failures = v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1000000 else 0


def _from_list(values, KEYS, _zeros):
    out = _zeros()
    if isinstance(values, list):
        for i in range(min(len(values), len(KEYS))):
            v = values[i]
            if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
                out[KEYS[i]] = v
    return out


def _beyond(values, KEYS):
    """Counters a newer version wrote past ours: kept as they are, written back."""
    if isinstance(values, list) and len(values) > len(KEYS):
        return list(values[len(KEYS) :])
    return []
