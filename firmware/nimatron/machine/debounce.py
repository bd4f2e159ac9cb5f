# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Switch debouncing that answers at once: the first edge counts, chatter
within ``ms`` after it is ignored, and the level is re-read when the window
closes (so a bounce can never take two lamps, and a release is never lost).
"""


def edge(edges, role, pressed):
    """``(role, pressed)``, made once per role and kept in ``edges`` (a
    dict): a press's pass makes no tuple before its lamp."""
    pair = edges.get(role)
    if pair is None:
        pair = edges[role] = ((role, False), (role, True))
    return pair[1] if pressed else pair[0]


class Debouncer:
    def __init__(self, ms=30):
        self.ms = ms
        self.raw = {}  # role -> last raw level seen
        self.stable = {}  # role -> debounced level
        self.changed = {}  # role -> when the debounced level last changed
        self.out = []
        self._spare = []  # the list the last update returned: emptied and reused
        self._edges = {}  # role -> its two edges, made once: a press's pass makes no garbage before its lamp

    def feed(self, role, pressed, now):
        """A raw edge from a driver."""
        self.raw[role] = pressed
        self._settle(role, now)

    def _settle(self, role, now):
        level = self.raw[role]
        if self.stable.get(role, False) == level:
            return
        last = self.changed.get(role)
        if last is None or now - last >= self.ms:
            self.stable[role] = level
            self.changed[role] = now
            self.out.append(edge(self._edges, role, level))

    def update(self, now):
        """Debounced edges since the last call, oldest first: a list the
        caller reads before it calls again (reused then, so neither an idle
        pass nor a press's makes garbage)."""
        for role in self.raw:
            self._settle(role, now)
        out = self.out
        if out:
            spare = self._spare
            spare.clear()  # a few edges fit the room it keeps (``del spare[:]`` would make a slice)
            self._spare = out
            self.out = spare
        return out

    def pressed(self, role):
        return self.stable.get(role, False)
