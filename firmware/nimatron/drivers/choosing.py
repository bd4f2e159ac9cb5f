# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The encoder turned in attract mode: the board's next preset.

Loaded at a turn and dropped again after it (it was part of
``onboard_io``, resident all the time on the stock MacroPad).
"""


def choose_preset(controller, names, steps):
    """Step through ``names`` (the board's presets) in attract mode, keeping
    the operator's own settings; a preset that does not fit is skipped."""
    from .. import forget
    from ..config.settings import load_preset, resolve

    try:
        return _choose(controller, names, steps, load_preset, resolve)
    finally:
        # a turn of the encoder is rare: the heap is for the games (this module too)
        forget(("config.settings", "config.values", "drivers.choosing"))


def _choose(controller, names, steps, load_preset, resolve):
    current = controller.settings["preset"]
    k = names.index(current) if current in names else -1
    for _ in range(len(names)):
        k = (k + (1 if steps > 0 else -1)) % len(names)
        name = names[k]
        old, new = load_preset(current), load_preset(name)
        keep = {}
        for key, value in controller.settings.items():
            if key not in old and key not in new and key != "preset":
                keep[key] = value
        try:
            controller.apply_settings(resolve(keep, name))
        except ValueError:
            continue
        if controller.listener is not None:
            controller.listener({"event": "preset", "preset": name, "about": new.get("about", "")})
        return name
    return None
