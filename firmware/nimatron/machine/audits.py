# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Audits, pinball style: what the machine has seen, kept across power cuts.

Two sets of the same counters: ``lifetime`` (no menu can clear them) and
``service`` ("since last service": ``clear_service()`` zeroes them), plus
per-preset game counts since service and the first and last game's time
where a wall clock exists (``clock``: a function giving Unix seconds, or
None on a board without one).

    audits = Audits(store=store)          # store: nimatron.machine.store.Store or None
    audits.count("engine_faults")         # in RAM; saved with the next game (or save() now)
    audits.game_started("nimatron")
    audits.game_ended("visitor")          # counts and saves: one write per game
    audits.clear_service()                # operator menu: zero "since service", saved
    audits["games"]                       # a since-service count (AUDITS shows these)
    audits.lifetime["games"]              # never cleared

API for the other parts of the firmware (the operator menu, stuck-button
checks, the PIN lockout, the engine's fault path, code.py):

- ``count(key, n=1)``: add to a counter (``KEYS``); ValueError for a name
  not in ``KEYS``. Counted in RAM: written with the next game's record, or
  at once with ``save()`` where losing it would matter (faults).
- ``game_started(preset)`` / ``game_ended(winner)``: the controller's two
  calls; ``winner`` is ``"visitor"``, ``"machine"`` or ``"abandoned"``.
  ``game_ended`` saves (the one write per game).
- ``power_up(reason)``: once per start; reason ``power_on``, ``watchdog``,
  ``software``, ``reset_pin``, ``safe_mode`` or None (unknown); saves.
- ``clear_service()``: zero the since-service counters; saves.
- ``snapshot()``: a dict for the link (``AUDITS``, the boot event).
- ``save()``: write now; True once durable (False without a store).

Writes are never per press: flash wears (see README, "Power cuts").
New counters are appended to ``KEYS``, never inserted or reordered: a
record stores the counters as lists in this order, so older records keep
their meaning (a shorter list reads as zeros for the new keys).
"""

from .. import forget

KEYS = (
    "games",
    "finished",
    "visitor_wins",
    "machine_wins",
    "abandoned",  # today's AUDITS keys
    "power_ups",
    "power_on_resets",
    "watchdog_resets",
    "software_resets",
    "reset_pin_resets",
    "safe_mode_restarts",
    "stuck_buttons",
    "faults",
    "engine_faults",
    "pin_lockouts",
    "factory_restores",
    "settings_fallbacks",
    "start_failures",
    "data_losses",
)
PRESET_KEYS = ("started", "finished", "visitor_wins", "machine_wins", "abandoned")
RESETS = {
    "power_on": "power_on_resets",
    "watchdog": "watchdog_resets",
    "software": "software_resets",
    "reset_pin": "reset_pin_resets",
    "safe_mode": "safe_mode_restarts",
}
MAX_PRESETS = 24  # per-preset counts kept (more would outgrow one flash record)


def _zeros():
    out = {}
    for key in KEYS:
        out[key] = 0
    return out


OWN = ("l", "s", "p", "f", "z", "k")  # the record's keys this version reads


def _trimmed(values):
    """``values`` without its trailing zeros."""
    n = len(values)
    while n and not values[n - 1]:
        n -= 1
    return values[:n]


class Audits:
    """Lifetime and since-service counters; ``store`` makes them survive power cuts."""

    def __init__(self, record=None, store=None, clock=None):
        self.store = store
        self.clock = clock
        self.lifetime = _zeros()
        self.service = _zeros()
        self.presets = {}  # preset -> {PRESET_KEYS...}, since service
        self.first_game = None
        self.last_game = None
        self._preset = None  # the preset of the game in play
        self.pin_failures = 0  # wrong PINs in a row, kept across restarts (the link's pause)
        self.newer = {}  # what a newer version stored that this one does not know: kept
        if record:
            self.load(record)

    # -- counting ---------------------------------------------------------
    def count(self, key, n=1):
        if key not in self.lifetime:
            raise ValueError("no audit counter %r" % key)
        self.lifetime[key] += n
        self.service[key] += n

    def __getitem__(self, key):
        return self.service[key]

    def get(self, key, default=None):
        return self.service.get(key, default)

    def keys(self):
        return KEYS

    def game_started(self, preset):
        self.count("games")
        self._preset = preset
        self._preset_count("started")
        if self.clock is not None:
            now = self.clock()
            if now is not None:
                if self.first_game is None:
                    self.first_game = now
                self.last_game = now

    def game_withdrawn(self):
        """The game just started ended before anyone moved: not a game, not a write."""
        if self.lifetime["games"] > 0 and self.service["games"] > 0:
            self.count("games", -1)
        counts = self.presets.get(self._preset) if self._preset is not None else None
        if counts is not None and counts["started"] > 0:
            counts["started"] -= 1
        self._preset = None

    def game_ended(self, winner):
        """A game over (won or abandoned): count it and write the record."""
        if winner == "abandoned":
            self.count("abandoned")
            self._preset_count("abandoned")
        else:
            self.count("finished")
            self._preset_count("finished")
            key = "visitor_wins" if winner == "visitor" else "machine_wins"
            self.count(key)
            self._preset_count(key)
        self._preset = None
        return self.save()

    def _preset_count(self, key):
        name = self._preset
        if name is None:
            return
        counts = self.presets.get(name)
        if counts is None:
            if len(self.presets) >= MAX_PRESETS:
                return
            counts = {}
            for k in PRESET_KEYS:
                counts[k] = 0
            self.presets[name] = counts
        counts[key] += 1

    def power_up(self, reason=None):
        """One start of the firmware: count it and why it started."""
        self.count("power_ups")
        key = RESETS.get(reason)
        if key:
            self.count(key)
        return self.save()

    def clear_service(self):
        """Zero the since-service counters (lifetime ones stay); saved."""
        self.service = _zeros()
        self.presets = {}
        return self.save()

    # -- the record -------------------------------------------------------
    def record(self):
        """Everything as a compact JSON-able dict (the store's audits record).

        Short, because every game appends one to a 4 KB sector and a full
        sector is erased: trailing zeros are left off (a short list reads as
        zeros), and the since-service list is left out while it equals the
        lifetime one (until the first service)."""
        lifetime = _trimmed([self.lifetime[k] for k in KEYS])
        newer = self.newer
        if newer.get("l"):  # a newer version's counters after ours: ours in full, then theirs
            lifetime = [self.lifetime[k] for k in KEYS] + newer["l"]
        out = {"l": lifetime}
        service = _trimmed([self.service[k] for k in KEYS])
        if newer.get("s"):
            service = [self.service[k] for k in KEYS] + newer["s"]
        if service != lifetime:
            out["s"] = service
        if self.presets:
            p = {}
            for name in self.presets:
                p[name] = _trimmed([self.presets[name][k] for k in PRESET_KEYS])
            out["p"] = p
        if self.first_game is not None:
            out["f"] = self.first_game
            out["z"] = self.last_game
        if self.pin_failures:
            out["k"] = self.pin_failures
        for key in newer:
            if key not in OWN:
                out[key] = newer[key]
        return out

    def load(self, record):
        """Adopt a stored record; anything malformed reads as zero (``audits_load``:
        a start's only, dropped from a board's heap again at once)."""
        from .audits_load import adopt

        try:
            adopt(self, record, OWN, PRESET_KEYS, MAX_PRESETS, _zeros)  # passed in: it imports nothing of this module
        finally:
            forget(("machine.audits_load",))

    def save(self, urgent=False):
        """Write the record now; True once durable, False without a store or
        if it failed, else the ms until the store's wear limit writes it.
        ``urgent``: past the wear limit (a wrong PIN must be counted first)."""
        if self.store is None:
            return False
        return self.store.save_audits(self.record(), urgent)

    def saving_fails(self):
        """Why the store cannot make a count durable now (a full disk...), or None."""
        return self.store.failing if self.store is not None else None

    def snapshot(self):
        """For the link (one short line): since-service counts by name, the
        lifetime ones, presets; counters beyond today's five only if not 0."""
        out = {}
        lifetime = {}
        for i in range(len(KEYS)):
            key = KEYS[i]
            if i < 5 or self.service[key]:
                out[key] = self.service[key]
            if i < 5 or self.lifetime[key]:
                lifetime[key] = self.lifetime[key]
        out["lifetime"] = lifetime
        presets = {}
        for name in self.presets:
            presets[name] = dict(self.presets[name])
        out["presets"] = presets
        out["first_game"] = self.first_game
        out["last_game"] = self.last_game
        if self.newer.get("l"):
            out["newer_lifetime"] = list(self.newer["l"])  # counters of a newer version, by place
        return out
