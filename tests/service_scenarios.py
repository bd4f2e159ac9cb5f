# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The operator's side with a fake driver, run by pytest AND by MicroPython:
the operator menu (nimatron.machine.service), stuck and dead buttons
(nimatron.machine.switches) and "still playing?" before a walk-away.

Written in the subset both interpreters share; each ``scenario_*`` raises
AssertionError on failure. tests/test_service.py runs them under CPython,
tests/test_micropython_controller.py under the MicroPython unix port.
"""

from controller_scenarios import Rig
from nimatron.machine.controller import ATTRACT, SERVICE, VISITOR
from nimatron.machine.deployed import choices as menu_choices
from nimatron.machine.ports import OFF
from nimatron.machine.service import COLOURS, ITEMS
from nimatron.machine.switches import CHORD_MS


def chord(rig, ms=CHORD_MS + 100, release=True):
    rig.edge("done", True)
    rig.edge("new", True)
    rig.run(ms)
    if release:
        rig.edge("done", False)
        rig.edge("new", False)
        rig.run(100)


def open_menu(board_name="pi-neopixel", **overrides):
    rig = Rig(board_name, **overrides)
    chord(rig)
    assert rig.c.state == SERVICE, rig.c.state
    return rig


def frame(rig):
    return rig.c.frame(rig.t)


def lit(lamps):
    """Reading-order indices of the lamps not dark."""
    out = []
    k = 0
    for row in lamps:
        for state in row:
            if state != OFF:
                out.append(k)
            k += 1
    return out


def goto(rig, item):
    """From the top menu, step to an item and open it with DONE."""
    while ITEMS[rig.c.menu.item] != item:
        rig.press("row0")
    rig.press("done")


def service_events(rig, **match):
    out = []
    for e in rig.events:
        if e["event"] != "service":
            continue
        ok = True
        for key in match:
            if e.get(key) != match[key]:
                ok = False
        if ok:
            out.append(e)
    return out


# -- entering and leaving -------------------------------------------------------
def scenario_the_chord_opens_the_menu_after_five_seconds_not_before():
    rig = Rig()
    chord(rig, CHORD_MS - 100, release=False)
    assert rig.c.state != SERVICE
    rig.run(200)
    assert rig.c.state == SERVICE
    assert service_events(rig, open=True)[-1]["by"] == "buttons"
    assert rig.kinds("stuck") == []  # 5 s is a chord, not a stuck button
    lamps, status = frame(rig)
    assert lit(lamps) == [0] and status["champ"] == 1 and status["machine"] == 1


def scenario_a_chord_let_go_early_is_only_a_new_game():
    rig = Rig()
    chord(rig, 3000)
    assert rig.c.state == VISITOR and rig.c.menu is None
    assert len(rig.kinds("new_game")) == 1  # the second half of the chord is not a press


def scenario_done_and_new_held_ten_seconds_are_stuck_not_the_menu():
    rig = Rig()
    chord(rig, 10100, release=False)
    assert rig.c.state == ATTRACT and rig.c.menu is None
    assert sorted(e["button"] for e in rig.kinds("stuck")) == ["done", "new"]
    assert service_events(rig, open=False)[-1]["by"] == "stuck"
    assert rig.c.audits["stuck_buttons"] == 2
    rig.run(30000)  # still held: no second menu
    assert rig.c.menu is None and len(service_events(rig, open=True)) == 1
    lamps, status = frame(rig)
    seen = []
    for t in range(0, 2000, 50):
        seen.append(rig.c.frame(rig.t + t)[1]["machine_wins"])
    assert 1 in seen and 0 in seen  # the stuck pattern on the status lamp
    rig.edge("done", False)
    rig.edge("new", False)
    rig.run(100)
    assert len([e for e in rig.kinds("stuck") if e.get("released")]) == 2
    rig.press("row0")  # playable again
    assert rig.c.state == VISITOR


def scenario_the_menu_leaves_itself_after_a_minute_untouched():
    rig = open_menu()
    rig.run(59000)
    assert rig.c.state == SERVICE
    rig.press("row0")  # touched: another minute
    rig.run(59000)
    assert rig.c.state == SERVICE
    rig.run(2000)
    assert rig.c.state == ATTRACT and service_events(rig, open=False)[-1]["by"] == "idle"
    rig.press("row0")
    assert rig.c.state == VISITOR  # the game is back


def scenario_new_at_the_top_leaves_and_the_link_can_open_it():
    rig = open_menu()
    rig.press("new")
    assert rig.c.state == ATTRACT and service_events(rig, open=False)[-1]["by"] == "back"
    rig.press("row0")
    rig.press("row0")
    rig.c.service(True, rig.t, "link")
    assert rig.c.state == SERVICE and rig.kinds("game_over")[-1]["winner"] == "abandoned"
    rig.c.service(False, rig.t, "link")
    assert rig.c.state == ATTRACT


def scenario_visitor_storms_never_open_the_menu():
    # an LCG-driven storm: every button, holds up to 4.9 s, DONE+NEW together
    # for up to 4.9 s, chatter; never the 5 s chord
    rig = Rig(think_ms=100, show_ms=100, over_ms=1000)
    kept = []

    def keep(event):  # only what matters here: a board-sized heap holds it
        if event["event"] in ("service", "stuck"):
            kept.append(event)

    rig.c.listener = keep
    state = 12345
    roles = ("row0", "row1", "row2", "row3", "done", "new")
    for _ in range(300):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        role = roles[(state >> 8) % len(roles)]
        hold = (state >> 4) % 4900
        if (state >> 16) % 5 == 0:
            rig.edge("done", True)
            rig.edge("new", True)
            rig.run(hold)
            rig.edge("done", False)
            rig.edge("new", False)
        else:
            rig.edge(role, True)
            rig.edge(role, False)
            rig.edge(role, True)
            rig.run(hold)
            rig.edge(role, False)
        rig.run(30 + (state >> 20) % 200)
        assert rig.c.menu is None
    assert kept == [] and rig.c.audits["games"] > 10


# -- the screens ---------------------------------------------------------------
def scenario_menu_items_show_as_a_bar_and_wrap_both_ways():
    rig = open_menu()
    for k in range(len(ITEMS)):
        assert lit(frame(rig)[0]) == list(range(k + 1))
        rig.press("row0")
    assert rig.c.menu.item == 0
    rig.press("row1")
    assert rig.c.menu.item == len(ITEMS) - 1
    assert service_events(rig, item=ITEMS[-1])


def scenario_lamp_test_all_in_each_colour_then_one_by_one():
    rig = open_menu()
    goto(rig, "lamp_test")
    seen = []
    for _ in range(len(COLOURS)):
        lamps, status = frame(rig)
        states = []
        for row in lamps:
            for s in row:
                if s not in states:
                    states.append(s)
        assert len(states) == 1 and states[0] != OFF
        assert status == {"visitor": 1, "machine": 1, "champ": 1, "machine_wins": 1}
        seen.append(states[0])
        rig.run(1000)
    assert sorted(seen) == sorted(COLOURS)
    rig.press("done")  # one by one
    lamps_seen = []
    status_seen = []
    for _ in range(28 + 4):
        lamps, status = frame(rig)
        on = lit(lamps)
        assert len(on) + sum(status.values()) == 1
        lamps_seen.extend(on)
        for key in status:
            if status[key]:
                status_seen.append(key)
        rig.run(500)
    assert lamps_seen == list(range(28))
    assert sorted(status_seen) == ["champ", "machine", "machine_wins", "visitor"]
    rig.press("new")
    assert rig.c.menu.screen == "menu"


def scenario_button_test_shows_each_press_and_new_held_goes_back():
    rig = open_menu()
    goto(rig, "button_test")
    rig.press("row2")
    lamps, status = frame(rig)
    assert lit(lamps) == list(range(14, 21))  # row C: lamps 14..20
    rig.press("done")
    lamps, status = frame(rig)
    assert lit(lamps) == [] and status["visitor"] == 1
    rig.press("new")  # a short press of NEW is tested, not obeyed
    assert rig.c.menu.screen == "button_test" and frame(rig)[1]["machine"] == 1
    rig.edge("row0", True)
    rig.edge("row3", True)
    rig.run(100)
    assert lit(frame(rig)[0]) == list(range(0, 7)) + list(range(21, 28))
    rig.edge("row0", False)
    rig.edge("row3", False)
    rig.run(100)
    switches = [(e["button"], e["pressed"]) for e in rig.kinds("switch")]
    assert ("row2", True) in switches and ("row2", False) in switches and ("new", True) in switches
    rig.edge("new", True)
    rig.run(1100)
    assert rig.c.menu.screen == "menu"
    rig.edge("new", False)
    rig.run(100)
    assert rig.c.state == SERVICE
    rig.press("done")  # the button test again
    rig.press("new")
    rig.press("row0")
    rig.press("new")  # NEW, something else, NEW: still testing
    assert rig.c.menu.screen == "button_test"
    rig.press("new")  # NEW twice in a row: back
    assert rig.c.menu.screen == "menu"


def scenario_button_test_on_a_grid_shows_each_key():
    rig = open_menu("pico-grid")
    goto(rig, "button_test")
    rig.press("key 2 5")
    assert lit(frame(rig)[0]) == [2 * 8 + 5]
    assert rig.kinds("switch")[-1] == {"event": "switch", "button": "key 2 5", "pressed": False}


def scenario_audits_show_which_counter_then_its_value_in_binary():
    rig = Rig(think_ms=100, show_ms=100)
    for _ in range(3):
        rig.press("new")
        rig.press("row0")  # a lamp taken: a game (NEW on an untouched one replaces it uncounted)
    rig.run(1000)
    assert rig.c.audits["games"] == 3
    chord(rig)  # DONE is refused, NEW's half of the chord is not a press
    assert rig.c.audits["games"] == 3 and rig.c.audits["abandoned"] == 3
    goto(rig, "audits")
    assert lit(frame(rig)[0]) == [0] and frame(rig)[1]["machine"] == 1  # which counter: games
    rig.run(1000)
    assert lit(frame(rig)[0]) == [26, 27]  # 3 = 11 in binary on the last lamps
    shown = service_events(rig, screen="audits")
    assert shown[-1]["counter"] == "games" and shown[-1]["value"] == 3
    rig.c.audits.count("finished", 300)
    rig.press("row0")
    rig.run(1000)
    assert lit(frame(rig)[0]) == [19, 22, 24, 25]  # 300 = 100101100


def scenario_adjusting_difficulty_goes_through_the_checks_and_is_saved():
    saved = []

    def save(settings):
        saved.append(settings)
        return True

    rig = open_menu()
    rig.c.save = save
    goto(rig, "adjust")
    while rig.c.menu.adjustable()[rig.c.menu.index] != "difficulty":
        rig.press("row0")
    rig.press("done")
    assert rig.c.menu.screen == "adjust_value" and frame(rig)[1]["visitor"] == 1
    assert lit(frame(rig)[0]) == [0]  # perfect: the first choice
    rig.press("row0")
    rig.press("row0")
    rig.press("row0")  # teach
    rig.press("done")
    assert rig.c.settings["difficulty"] == "teach"
    adjusted = rig.kinds("adjusted")[-1]
    assert adjusted["key"] == "difficulty" and adjusted["value"] == "teach" and adjusted["saved"] is True
    assert saved[-1]["difficulty"] == "teach" and rig.c.menu.screen == "adjust"
    # NEW while choosing changes nothing
    rig.press("done")
    rig.press("row0")
    rig.press("new")
    assert rig.c.settings["difficulty"] == "teach" and len(saved) == 1


def scenario_adjust_offers_only_presets_and_rules_this_board_can_play():
    rig = open_menu("pi-leds")  # 1-3-5-7 discrete LEDs, row buttons
    menu = rig.c.menu
    presets = menu_choices(menu, "preset")
    assert "marienbad" in presets and "grundy" not in presets and "drnim" not in presets
    rules = menu_choices(menu, "rules")
    assert "nim" in rules and "grundy" not in rules and "circular" not in rules
    assert menu_choices(menu, "misere") == [False, True]


def scenario_clear_audits_needs_yes_and_confirm():
    rig = Rig()
    rig.press("new")
    rig.press("row0")
    rig.press("new")
    chord(rig)
    goto(rig, "clear_audits")
    assert rig.c.menu.screen == "confirm" and lit(frame(rig)[0]) == [0]
    rig.press("done")  # NO is the default: nothing cleared
    # one game: the one a lamp was taken in; the untouched game the chord opened over is not counted
    assert rig.c.audits["games"] == 1 and rig.kinds("audits_cleared") == []
    goto(rig, "clear_audits")
    rig.press("row0")  # YES
    assert len(lit(frame(rig)[0])) in (0, 28)
    rig.press("new")  # back out: nothing cleared
    assert rig.c.audits["games"] == 1
    goto(rig, "clear_audits")
    rig.press("row0")
    rig.press("done")
    assert rig.c.audits["games"] == 0 and rig.kinds("audits_cleared")


def scenario_factory_reset_needs_yes_and_confirm():
    rig = open_menu(difficulty="teach", walkaway_ms=30000)
    rig.c.factory_preset = "nimatron"
    goto(rig, "factory_reset")
    rig.press("done")
    assert rig.c.settings["difficulty"] == "teach"
    goto(rig, "factory_reset")
    rig.press("row1")  # any row toggles
    rig.press("done")
    assert rig.c.settings["difficulty"] == "perfect" and rig.c.settings["walkaway_ms"] == 60000
    assert rig.kinds("factory_reset")[-1]["applied"] is True


def scenario_burn_in_loops_for_hours_without_leaving():
    rig = open_menu()
    goto(rig, "burn_in")
    rig.run(3 * 60 * 1000)
    assert rig.c.state == SERVICE and rig.c.menu.screen == "burn_in"
    cycles = rig.kinds("burn_in")
    assert cycles and cycles[-1]["cycles"] == len(cycles)
    rig.press("new")
    assert rig.c.menu.screen == "menu"


def scenario_burn_in_never_flashes_a_lamp_more_than_twice_a_second():
    rig = open_menu()
    goto(rig, "burn_in")
    last = None
    changes = []
    for t in range(0, 40000, 50):
        lamps, status = rig.c.frame(rig.t + t)
        if last is not None:
            for r in range(len(lamps)):
                for i in range(len(lamps[r])):
                    if (lamps[r][i] != OFF) != (last[r][i] != OFF):
                        changes.append((t, r, i))
        last = lamps
    per_lamp = {}
    for t, r, i in changes:
        per_lamp.setdefault((r, i), []).append(t)
    for times in per_lamp.values():
        for k in range(2, len(times)):
            assert times[k] - times[k - 2] >= 500  # an on and an off take at least 0.5 s


# -- "still playing?" --------------------------------------------------------------
def scenario_still_playing_counts_down_and_any_press_continues():
    rig = Rig(walkaway_ms=60000, still_ms=10000)
    rig.press("new")
    rig.press("row3")
    rig.run(49800)
    assert rig.kinds("still_playing") == []
    rig.run(400)
    asked = rig.kinds("still_playing")
    assert len(asked) == 1 and asked[0]["seconds"] == 10
    lamps, _ = frame(rig)
    before = rig.position()
    # a slow countdown: lit lamps blink once a second, fewer each second
    dark = []
    for _s in range(9):
        rig.run(500)
        dark.append(len(lit(rig.c.frame(rig.t)[0])))
        rig.run(500)
    assert dark[0] < dark[-1]
    rig.press("row0")  # "yes, still playing": the press takes nothing
    assert rig.position() == before and rig.kinds("still_playing")[-1]["answer"] == "yes"
    assert rig.c.state == VISITOR
    rig.press("row3")
    assert rig.position()[3] == before[3] - 1


def scenario_still_playing_unanswered_abandons_the_game():
    rig = Rig(walkaway_ms=30000, still_ms=10000)
    rig.press("new")
    rig.run(30100)
    assert rig.c.state == ATTRACT and rig.kinds("game_over")[-1]["winner"] == "abandoned"
    assert len(rig.kinds("still_playing")) == 1


# -- stuck and dead buttons -------------------------------------------------------
def scenario_a_button_closed_at_power_up_is_ignored_until_released():
    rig = Rig(held=("row2",))
    stuck = rig.kinds("stuck")
    assert stuck == [{"event": "stuck", "button": "row2", "why": "power-up"}]
    assert rig.c.state == ATTRACT and rig.c.audits["stuck_buttons"] == 1
    rig.press("row0")  # the rest plays
    assert rig.c.state == VISITOR
    rig.press("row0")
    rig.press("done")
    assert rig.kinds("move")[0]["after"] == [2, 4, 5, 7]
    rig.edge("row2", False)
    rig.run(100)
    assert rig.kinds("stuck")[-1] == {"event": "stuck", "button": "row2", "released": True}
    assert rig.wait_for_visitor()
    before = rig.position()
    rig.press("row2")
    assert rig.position()[2] == before[2] - 1


def scenario_a_button_stuck_mid_game_leaves_the_other_rows_playing():
    rig = Rig(think_ms=100, show_ms=100)
    rig.press("new")
    rig.edge("row3", True)  # jammed down mid-game
    rig.run(10100)
    assert rig.kinds("stuck")[-1]["button"] == "row3" and rig.c.audits["stuck_buttons"] == 1
    assert "row3" in rig.c.switches.stuck_now()
    rig.press("done")  # the jam's one lamp is the visitor's move
    assert rig.wait_for_visitor()
    before = rig.position()
    row = 0 if before[0] else 1
    rig.press("row%d" % row)
    rig.press("done")
    mine = [e for e in rig.kinds("move") if e["by"] == "visitor"]
    assert mine[-1]["after"][row] == before[row] - 1
    rig.run(5000)  # still jammed: no second report
    assert len(rig.kinds("stuck")) == 1


def scenario_check_switch_flags_a_row_never_pressed_in_n_games():
    rig = Rig(starts=[[1, 0, 0, 2]], check_switch_games=3, think_ms=100, show_ms=100, over_ms=1000)
    for _game in range(3):
        assert rig.c.switches.check_switch() == []
        rig.press("new")
        rig.press("row0")
        rig.press("done")
        rig.run(1000)
        assert rig.kinds("game_over")[-1]["winner"] == "machine"
    assert rig.c.switches.check_switch() == ["row3"]
    assert rig.kinds("check_switch") == [{"event": "check_switch", "button": "row3", "games": 3}]
    chord(rig)
    goto(rig, "check_switch")
    assert lit(frame(rig)[0]) == list(range(21, 28))
    rig.press("new")
    rig.press("new")
    rig.press("row3")  # pressed once: it works after all
    assert rig.c.switches.check_switch() == []


def scenario_check_switch_off_flags_nothing():
    rig = Rig(starts=[[1, 0, 0, 2]], check_switch_games=0, think_ms=100, show_ms=100, over_ms=1000)
    for _game in range(3):
        rig.press("new")
        rig.press("row0")
        rig.press("done")
        rig.run(1000)
    assert rig.c.switches.check_switch() == [] and rig.kinds("check_switch") == []
