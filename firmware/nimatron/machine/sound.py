# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The machine's sounds, scheduled and never waited for.

The 1940 Nimatron's relays clacked while it thought. Here a speaker (or a
buzzer) plays: a click per lamp put out, a relay-like chatter while the
machine thinks, a fanfare for NIM CHAMP and another for the machine's win,
and a low buzz when a press is refused.

``hear(event)`` takes the controller's events (``move``, ``refused``,
``new_game``, ``game_over``) and only queues notes; ``update(now_ms)`` from
the main loop starts and stops them on a ``tone`` port (``tone.play(hz,
volume)``, ``tone.stop()``). Nothing blocks: a fanfare is a queue of
(start, pitch, length) that the loop works through. ``volume`` 0 is mute.
``on_sound(name)``, if given, hears each sound as it starts (the simulator
records them as events).
"""

# name -> notes (offset ms, pitch Hz, length ms)
from .. import const

CLICK = ((0, 1800, 6),)
CHAMP = ((0, 523, 140), (150, 659, 140), (300, 784, 140), (450, 1047, 420))
MACHINE = ((0, 392, 200), (220, 330, 200), (440, 262, 500))
BUZZ = ((0, 110, 250),)
_CLICK_GAP_MS = const(90)  # between the clicks of lamps put out together
CHATTER = (0, 55, 95, 170, 210, 300, 345, 420, 500, 540, 610, 700, 745, 830, 905, 950)  # one 1 s cycle


class Sound:
    def __init__(self, tone, volume=5, on_sound=None):
        self.tone = tone
        self.volume = volume
        self.think_ms = 1500
        self.on_sound = on_sound
        self.now = 0
        self.queue = []  # [start ms, pitch, length, name or None], by start
        self.until = None  # when the note playing stops
        self.first = None  # the game's first player, for the chatter after new_game

    def watch(self, controller, now):
        """Follow the operator's settings (volume, the machine's pause)."""
        settings = controller.settings
        self.volume = settings.get("volume", self.volume)
        self.think_ms = settings.get("think_ms", self.think_ms)
        if not self.volume and self.busy():  # muted by the operator: at once
            self.queue = []
            self.until = now
        self.update(now)

    # -- scheduling -----------------------------------------------------------
    def hear(self, event):
        """A controller event: queue its sound (never plays here)."""
        if not self.volume:
            return
        kind = event.get("event")
        if kind == "move":
            lamps = _lit(event["before"]) - _lit(event["after"])
            for k in range(max(1, lamps)):
                self._add(CLICK, "click", k * _CLICK_GAP_MS)
            if event["by"] == "visitor":
                self._chatter(max(1, lamps) * _CLICK_GAP_MS)
        elif kind == "new_game" and event.get("first") == "machine":
            self._chatter(0)
        elif kind == "refused":
            self._add(BUZZ, "buzz", 0)
        elif kind == "game_over":
            self._clear()
            winner = event.get("winner")
            if winner == "visitor":
                self._add(CHAMP, "champ", 0)
            elif winner == "machine":
                self._add(MACHINE, "machine_wins", 0)

    def _add(self, notes, name, delay):
        start = self.now + delay
        for k in range(len(notes)):
            offset, pitch, length = notes[k]
            self._insert([start + offset, pitch, length, name if k == 0 else None])

    def _chatter(self, delay):
        start = self.now + delay
        end = start + self.think_ms
        k = 0
        while True:
            at = start + (k // len(CHATTER)) * 1000 + CHATTER[k % len(CHATTER)]
            if at >= end:
                break
            self._insert([at, 900 + 300 * (k % 3), 5, "chatter" if k == 0 else None])
            k += 1

    def _insert(self, note):
        queue = self.queue
        i = len(queue)
        while i and queue[i - 1][0] > note[0]:
            i -= 1
        queue.insert(i, note)

    def _clear(self):
        """A game's end cuts the chatter short (its clicks still sound)."""
        self.queue = [n for n in self.queue if n[1] == CLICK[0][1] and n[2] == CLICK[0][2]]

    # -- the main loop ------------------------------------------------------------
    def update(self, now):
        self.now = now
        if self.until is not None and now >= self.until:
            self.until = None
            self.tone.stop()
        queue = self.queue
        while queue and queue[0][0] <= now:
            start, pitch, length, name = queue.pop(0)
            if name and self.on_sound:
                self.on_sound(name)
            if queue and queue[0][0] <= now:
                continue  # the loop fell behind: a later note is due already
            if self.volume:
                self.tone.play(pitch, self.volume)
                self.until = start + length if start + length > now else now + length

    def busy(self):
        return bool(self.queue) or self.until is not None


def _lit(position):
    """Lamps lit in a position: heaps, or rows of cells (2-D and Graph Nim)."""
    n = 0
    for x in position:
        n += _lit(x) if isinstance(x, list) else x
    return n
