# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The flash erase waits for a quiet moment.

A Pico's nvm is one 4 KB flash sector; erasing it stops the board for 45 ms
(400 ms at most, Winbond W25Q16JV's datasheet) with the lamps frozen and the
buttons unread. The store appends records into the sector's blank tail (a
page program: 0.4 ms) and erases only to compact a full sector; the machine
compacts ahead of need when nobody is playing (``Startup.quiet``,
``Store.tidy``), so a game's end never waits for an erase. Whole games on
the simulator's real drivers and the simulator's NOR flash model; every
erase is caught with what the machine was doing.
"""

import pytest
from nimatron.machine import startup
from nimatron.machine.audits import KEYS
from nimatron.machine.store import Store
from nimatron_sim.engine import Simulator
from nimatron_sim.flash import FlashNvm
from nimatron_sim.visitor import Visitor

FAST = {"think_ms": 40, "show_ms": 40, "over_ms": 1000, "walkaway_ms": 20000, "seed": 1}


def nearly_full(room=260):
    """A sector an earlier life filled: room for the start's record and a
    game's or two, then it must be erased."""
    nvm = FlashNvm()
    store = Store(nvm=nvm)
    store.load()
    while len(nvm) - store.tail > room:
        store.save_audits({"l": []})
    return nvm


def finished(audits):
    counts = audits["l"]
    k = KEYS.index("finished")
    return counts[k] if k < len(counts) else 0


def life(board, games, gap_ms, seed=1):
    """``games`` games on a nearly full sector, ``gap_ms`` more after each
    one's end is shown; every erase as (controller state, ms since the last press),
    and the audits the flash holds after."""
    nvm = nearly_full()
    erases = []
    erase = nvm._erase
    sim = None

    def caught():
        c = sim.controller if sim is not None else None
        erases.append(("start", 0) if c is None else (c.state, sim.now - c.last_input))
        erase()

    nvm._erase = caught
    sim = Simulator(board, FAST, seed=seed, store=Store(nvm=nvm))
    assert not erases  # the start's record fits: the erase comes later
    finished = 0
    for game in range(games):
        robot = Visitor(sim, "random", seed=seed * 1000 + game, hold_ms=40, gap_ms=40)
        robot.tap_for("new")
        end = sim.now + 600000
        while robot.winner is None and sim.now < end:
            if robot.turn == "visitor" and sim.controller.asking is None and sim.controller.refused_at is None:
                robot.move()
            else:
                sim.advance(sim.tick_ms)
        assert robot.winner is not None, "game %d wedged" % game
        finished += 1
        sim.listeners.remove(robot._event)
        sim.advance(FAST["over_ms"] + 100 + gap_ms)
    audits = Store(nvm=FlashNvm(nvm.data)).load()["audits"]
    sim.close()
    return erases, finished, audits


@pytest.mark.parametrize("board", ["pico-neopixel", "pico-grid"])
def test_with_a_pause_between_visitors_every_erase_is_in_a_quiet_moment(board):
    erases, played, audits = life(board, 12, gap_ms=startup._QUIET_MS + 1000)
    assert erases, "the sector never filled: the test proves nothing"
    loud = [e for e in erases if e[0] not in ("attract", "over") or e[1] < startup._QUIET_MS]
    assert not loud, "erases while someone played or had just pressed: %s" % loud
    assert finished(audits) == played  # and nothing waited on was lost


def test_back_to_back_games_still_keep_every_game():
    """No quiet moment at all: the erase must come at a game's end, as before."""
    erases, played, audits = life("pico-neopixel", 12, gap_ms=0)
    assert erases
    assert finished(audits) == played


def test_a_quiet_store_with_room_is_left_alone():
    """Tidying erases only when the next saves would need it (wear)."""
    nvm = FlashNvm()
    store = Store(nvm=nvm)
    store.load()
    store.save_audits({"l": [1]})
    assert store.roomy() and not store.tidy() and nvm.erases == 0
    last = 1
    while store.roomy():
        last += 1
        store.save_audits({"l": [last]})
    assert nvm.erases == 0
    assert store.tidy() and nvm.erases == 1 and store.roomy()
    assert not store.tidy() and nvm.erases == 1
    assert Store(nvm=FlashNvm(nvm.data)).load()["audits"] == {"l": [last]}
