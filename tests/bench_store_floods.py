# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Flash wear under floods: every input a host or a visitor can repeat (prints figures, asserts nothing).

    .venv/bin/python tests/bench_store_floods.py [DAYS [NAME]]

Repetition is a fault kind (docs/reliability.md): each flood below runs the
real machine (the simulator, pico-neopixel, its nvm a modelled RP2040
sector) for DAYS of virtual time (default 2) with an input every 200 ms,
and prints the sector erases of the first day (the wear limit's burst
spent) and of each day after (what a flood costs for ever), and the years
the flash lasts at 100,000 erase cycles at the later rate. The store's
wear limit (``ERASES_PER_DAY``) is what holds the figure, whatever the
flood; the goal is 20 years or more. NAME runs only the floods whose name
holds it.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "simulator"), os.path.join(HERE, "..", "firmware")]

from nimatron.link.hostlink import HostLink  # noqa: E402
from nimatron_sim.engine import Simulator  # noqa: E402
from nimatron_sim.flash import FlashNvm  # noqa: E402

CYCLES = 100000
HOUR_MS = 3600000
STEP = 200  # ms between inputs: five a second, every second of the day


def machine(settings=None):
    nvm = FlashNvm()
    sim = Simulator("pico-neopixel", dict({"remote_play": True}, **(settings or {})), 1, tick_ms=STEP, nvm=nvm)
    link = sim.machine.attach(HostLink(sim.controller, board="pico-neopixel", now_ms=sim.now))
    return sim, link, nvm


def flood(name, step, days, settings=None):
    sim, link, nvm = machine(settings)
    commands = 0
    first = None
    end = sim.now + days * 24 * HOUR_MS
    while sim.now < end:
        commands += step(sim, link)
        if first is None and sim.now >= 24 * HOUR_MS:
            first = nvm.erases
    later = (nvm.erases - first) / (days - 1.0)
    years = CYCLES / later / 365 if later else float("inf")
    audits = sim.machine.audits.lifetime
    print(
        "%-34s %8d inputs  %6d records  first day %3d erases, then %5.1f a day: %8.1f years  (games %d, abandoned %d)"
        % (name, commands, sim.machine.store.writes, first, later, years, audits["games"], audits["abandoned"])
    )
    sim.close()
    return years


def new_over_the_link(sim, link):
    link.handle(b"NEW", sim.now)
    sim.advance(STEP)
    return 1


def new_after_a_press(sim, link):
    """NEW, one lamp taken, NEW again: every game abandoned, each a real one."""
    link.handle(b"NEW", sim.now)
    link.handle(b"PLAY PRESS row0", sim.now)
    sim.advance(STEP)
    return 2


def set_over_the_link(sim, link, values=("1200", "1500", "2000")):
    """A new value every time (three in turn: the coalesced write never finds the stored one)."""
    link.handle(b"SET think_ms " + values[sim.now // STEP % 3].encode(), sim.now)
    sim.advance(STEP)
    return 1


def whole_games_over_the_link(sim, link):
    """PLAY PRESS as fast as the machine answers: a game ends every few seconds."""
    c = sim.controller
    if c.state in ("attract", "over"):
        link.handle(b"PLAY PRESS new", sim.now)
    elif c.state == "visitor":
        rows = [r for r in range(len(c.panel.lit)) if any(c.panel.lit[r])]
        link.handle(b"PLAY PRESS row%d" % rows[0], sim.now)
        link.handle(b"PLAY PRESS done", sim.now)
    sim.advance(STEP)
    return 1


def new_on_the_button(sim, link):
    sim.tap("new", STEP // 2, STEP // 2)
    return 1


def main():
    days = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    if days < 2:
        sys.exit("DAYS must be 2 or more: the first day spends the burst")
    print(
        "floods of %d virtual days on pico-neopixel's nvm (4 KB sector, 100,000 cycles), an input every %d ms:"
        % (days, STEP)
    )
    floods = [
        ("NEW over the link", new_over_the_link, None),
        ("NEW on the button", new_on_the_button, None),
        ("NEW + a press (abandoned games)", new_after_a_press, None),
        ("SET think_ms over the link", set_over_the_link, None),
        ("whole games by PLAY PRESS", whole_games_over_the_link, {"think_ms": 0, "over_ms": 1000}),
    ]
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    worst = min(flood(name, step, days, settings) for name, step, settings in floods if only in name)
    print("worst: %.1f years (goal: 20 or more)" % worst)


if __name__ == "__main__":
    main()
