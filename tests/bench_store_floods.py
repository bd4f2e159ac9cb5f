"""Flash wear under floods: every input a host or a visitor can repeat (prints figures, asserts nothing).

    .venv/bin/python tests/bench_store_floods.py [HOURS]

Repetition is a fault kind (docs/reliability.md): each flood below runs the
real machine (the simulator, pico-neopixel, its nvm a modelled RP2040
sector) for HOURS of virtual time (default 24) as fast as its input can
come, and prints the sector erases a day and the years the flash lasts at
100,000 erase cycles. The store's wear limit (``ERASES_PER_DAY``) is what
holds the figure, whatever the flood; the goal is 20 years or more.
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


def flood(name, step, hours, settings=None):
    sim, link, nvm = machine(settings)
    end = sim.now + hours * HOUR_MS
    commands = 0
    while sim.now < end:
        commands += step(sim, link)
    per_day = nvm.erases * 24.0 / hours
    years = CYCLES / per_day / 365 if per_day else float("inf")
    audits = sim.machine.audits.lifetime
    print("%-34s %8d inputs  %6d records  %5.1f erases a day  %8.1f years  (games %d, abandoned %d)"
          % (name, commands, sim.machine.store.writes, per_day, years, audits["games"], audits["abandoned"]))
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


def set_over_the_link(sim, link, values=("1200", "1500")):
    link.handle(b"SET think_ms " + values[sim.now // STEP % 2].encode(), sim.now)
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
    hours = float(sys.argv[1]) if len(sys.argv) > 1 else 24
    print("floods of %g virtual hours on pico-neopixel's nvm (4 KB sector, 100,000 cycles):" % hours)
    worst = min(
        flood("NEW over the link", new_over_the_link, hours),
        flood("NEW on the button", new_on_the_button, hours),
        flood("NEW + a press (abandoned games)", new_after_a_press, hours),
        flood("SET think_ms over the link", set_over_the_link, hours),
        flood("whole games by PLAY PRESS", whole_games_over_the_link, hours, {"think_ms": 0, "over_ms": 1000}),
    )
    print("worst: %.1f years (goal: 20 or more)" % worst)


if __name__ == "__main__":
    main()
