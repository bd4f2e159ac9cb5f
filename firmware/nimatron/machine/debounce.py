# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Switch debouncing that answers at once: the first edge counts, chatter
within ``ms`` after it is ignored, and the level is re-read when the window
closes (so a bounce can never take two lamps, and a release is never lost).
"""


class Debouncer:
    def __init__(self, ms=30):
        self.ms = ms
        self.raw = {}      # role -> last raw level seen
        self.stable = {}   # role -> debounced level
        self.changed = {}  # role -> when the debounced level last changed
        self.out = []

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
            self.out.append((role, level))

    def update(self, now):
        """Debounced edges since the last call, oldest first."""
        for role in self.raw:
            self._settle(role, now)
        out = self.out
        if out:  # a new list only after edges: an idle pass makes no garbage
            self.out = []
        return out

    def pressed(self, role):
        return self.stable.get(role, False)
