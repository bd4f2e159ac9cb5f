# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Nimrod's panel follows the visitor's move in progress.

It used to reason about the lamps left as if a fresh turn began: right
after a correct partial take it said "No winning move for you", and on a row
board after pressing row D it advised taking from heap A, which the machine
refuses (one heap a turn). Now, mid-move, the advice is about finishing the
move begun: the heap is fixed, the lamps taken count, and every advised
completion is legal from the turn's start and leaves the machine a lost
position; on lamp-key boards, what DONE would leave. Every rule set a
visitor can be mid-move in, in every language, on the terminal, the page
and /crowd.
"""

import pytest
from devtools import Served, call
from fake_io import FakeIO
from nimatron.games import strategy
from nimatron.machine.app import make_controller
from nimatron_sim.nimrod import nimrod
from nimatron_sim.thinking import lines
from nimatron_sim.words import Words

ROWS = [
    ("pico-neopixel", "nimatron"),
    ("pico-neopixel", "nimrod"),
    ("pico-neopixel", "marienbad"),
    ("pico-neopixel", "subtract"),
    ("pico-neopixel", "greedy"),
    ("pi-leds", "marienbad"),
]
KEYS = [
    ("pico-grid", "nim2d"),
    ("pico-grid", "graph"),
    ("pico-grid", "candy"),
    ("pico-grid", "grundy"),
    ("pico-grid", "moore"),
    ("pico-grid", "allheaps"),
    ("pico-ring", "circular"),
    ("macropad", "pad-nim"),
    ("circuitplayground", "21counter"),
]
VERDICTS = ("nimrod.win", "nimrod.win.said", "nimrod.lose", "nimrod.zero", "nimrod.nonzero")


def started(board, preset, seed=1):
    c = make_controller(board, {"preset": preset, "first": "visitor", "seed": seed}, FakeIO())
    c.press("new", 10)
    assert c.state == "visitor"
    return c


def keys(panel):
    return [key for key, _ in panel["lines"]]


@pytest.mark.parametrize("board, preset", ROWS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mid_move_on_a_row_board_the_advice_finishes_the_move_begun(board, preset, seed):
    c = started(board, preset, seed)
    start = c.position()[0]
    for row in range(len(start)):  # every heap the visitor could begin with
        c = started(board, preset, seed)
        if not start[row]:
            continue
        t = 20
        while True:
            before = len(c.taken)
            c.press("row%d" % row, t)
            t += 1
            if c.state != "visitor" or len(c.taken) == before:
                break  # the last lamp ended the game, or the rule set refused another
            panel = nimrod(c)
            said = keys(panel)
            assert not set(said) & set(VERDICTS), said  # no fresh-turn verdict mid-move
            now = c.position()[0]
            assert ["nimrod.taking", {"row": "ABCDEFGH"[row], "n": start[row] - now[row]}] in panel["lines"]
            taking = panel["taking"]
            moves = list(c.rules.moves(start, False))
            if taking["done"]:
                assert now in moves and strategy.solve(c.rules, now, c.misere, False)["outcome"] == "loss"
            elif taking["more"] is not None:
                after = list(now)
                after[row] -= taking["more"]
                assert after in moves  # legal from the turn's start, the same heap
                assert strategy.solve(c.rules, after, c.misere, False)["outcome"] == "loss"
            else:  # nothing from this heap wins: check every way to finish it
                for after in moves:
                    if after[row] <= now[row] and all(after[i] == start[i] for i in range(len(start)) if i != row):
                        assert strategy.solve(c.rules, after, c.misere, False)["outcome"] == "win"


@pytest.mark.parametrize("board, preset", KEYS)
def test_mid_move_with_lamp_keys_the_panel_says_what_done_would_leave(board, preset):
    c = started(board, preset)
    heaps, ring = c.position()
    lit = [(r, i) for r, row in enumerate(c.panel.lit) for i, on in enumerate(row) if on]
    pick = getattr(c.panel, "selectable", None)
    if pick is not None:
        lit = [lamp for lamp in lit if lamp in pick()]
    c.selected = [lit[-1]]  # as a key press selects it
    panel = nimrod(c)
    key, params = panel["lines"][-1]
    after = c.panel.after_selection(c.selected)
    if after is None or not c.rules.is_legal(heaps, after, ring):
        assert key == "nimrod.selected.not"
    else:
        lost = strategy.solve(c.rules, after, c.misere, False)["outcome"] == "loss"
        kind = "nimrod.count.chosen." if preset == "21counter" else "nimrod.selected."  # a counter speaks in counts
        assert key == kind + ("win" if lost else "lose")


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_the_words_mid_move_in_every_language(lang):
    c = started("pico-neopixel", "nimrod")  # 3 5 6 7: the win is 7 from row D
    c.press("row3", 20)
    text = lines(nimrod(c), Words(lang))
    expected = {
        "en": ("row D: 1 so far", "Take 6 more from row D", "3 5 6 0"),
        "es": ("fila D: 1 hasta ahora", "Quita 6 más de la fila D", "3 5 6 0"),
        "ru": ("ряда D: пока 1", "Возьмите ещё 6 из ряда D", "3 5 6 0"),
    }[lang]
    joined = "\n".join(text)
    assert all(words in joined for words in expected), joined
    assert "{" not in joined


def test_the_page_and_the_crowd_show_the_move_in_progress():
    with Served("pico-neopixel", {"preset": "nimrod", "first": "visitor", "think_ms": 0}) as served:
        _, state = call(served.url + "/api/machines", {})
        press = served.url + "/api/machines/%s/press" % state["machine"]
        call(press, {"press": "new"})
        _, state = call(press, {"press": "row3"})
        said = [key for key, _ in state["nimrod"]["lines"]]
        assert "nimrod.taking" in said and "nimrod.taking.more" in said and "nimrod.lose" not in said
        _, crowd = call(served.url + "/api/watch/" + state["watch"])
        assert crowd["nimrod"]["lines"] == state["nimrod"]["lines"]


@pytest.mark.parametrize(
    "lang, words",
    [
        ("en", ["The count is 0; whoever says 21 loses.", "add 1, to say 1"]),
        ("es", ["La cuenta va en 0; quien dice 21 pierde.", "sumar 1, para decir 1"]),
        ("ru", ["Счёт: 0; кто назовёт 21, проигрывает.", "прибавить 1, назвать 1"]),
    ],
)
def test_the_game_of_21_is_explained_in_counts_not_heaps(lang, words):
    """It said "Position 21 ... take 1 from heap A" while the count showed 0."""
    c = started("circuitplayground", "21counter")
    text = "\n".join(lines(nimrod(c), Words(lang)))
    assert all(w in text for w in words) and "21 " not in text.split("\n")[-1][:3], text
    assert "heap" not in text and "Position" not in text
