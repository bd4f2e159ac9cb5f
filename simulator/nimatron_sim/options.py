# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What ``nimatron sim``'s command line sets: the settings overrides.

Every way of running the simulator reads them the same way (headless, the
terminal app, the web page), so they live here, below all three: the faces
import this module, never the command line's (``cli``), which stands below
them and cannot import them back.
"""

import json

from nimatron_pc.errors import UsageError


def overrides(args):
    """Settings overrides from the command line (``--set KEY=VALUE``, ``--preset``, ...)."""
    out = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError("--set wants KEY=VALUE, got %r" % item)
        try:
            value = json.loads(value)  # numbers, lists ("[[3,4,5]]"), true/false
        except ValueError:
            pass  # plain words stay strings
        out[key.strip()] = value
    for key in ("preset", "rules", "difficulty", "first"):
        value = getattr(args, key)
        if value is not None:
            out[key] = value
    if args.misere:
        out["misere"] = True
    return out
