# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What a visitor reads about the split games (issue 10, defect 6): the goal
of Grundy's game, lamps that moved (not taken), the ring's thinking panel,
and `solve` saying what a move leaves once."""

import pytest
from nimatron.games import explain, strategy
from nimatron.games.rules import parse_rules
from nimatron.machine.controller import OVER, VISITOR
from nimatron_host.cli import main
from nimatron_sim.face import Face
from nimatron_sim.nimrod import nimrod_for
from nimatron_sim.thinking import lines as panel_lines
from nimatron_sim.words import Words


@pytest.mark.parametrize(
    "args, line",
    [
        (["--rules", "grundy", "9"], "The player to move wins: split a heap of 9 into 7 and 2."),
        (
            ["--rules", "grundy", "--misere", "9"],
            "The player to move loses against perfect play; best try: split a heap of 9 into 8 and 1.",
        ),
        (["--rules", "grundy", "7", "3"], "The player to move wins: split a heap of 7 into 6 and 1, leaving 3 6 1."),
        (
            ["--rules", "circular", "9"],
            "The player to move wins: take 1 from the middle of a row of 9, leaving 4 and 4.",
        ),
        (
            ["--rules", "circular", "9", "4"],
            "The player to move wins: take 1 from the middle of a row of 9, leaving 6 and 2 (4 6 2 in all).",
        ),
        (
            ["--rules", "circular", "10", "1"],
            "The player to move wins: take 1 from the end of a row of 10, leaving 1 9.",
        ),
        (["--rules", "nim", "3", "4", "5"], "The player to move wins: take 2 from heap A, leaving 1 4 5."),
    ],
)
def test_solve_says_what_a_move_leaves_once(capsys, args, line):
    assert main(["solve"] + args) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == line
    assert out[-1].count("leaving") <= 1


def test_the_goal_of_grundys_game_is_the_last_split():
    assert parse_rules("grundy").last_move == "makes the last split"
    assert parse_rules("circular").last_move == "takes the last lamp"
    for misere, goal in ((False, "wins"), (True, "loses")):
        face = Face("pico-grid", {"rules": "grundy", "starts": [[7]], "misere": misere})
        assert face.rules_line().startswith(
            "Rules: split a heap into two unequal heaps; whoever makes the last split %s." % goal
        )
        face.close()


def _play(face, limit=200):
    """Visitor and machine to the end; the visitor takes (or splits off) the
    last lit lamp of the longest row. Yields after every step."""
    face.tap("new")
    for _ in range(limit):
        face.advance(400)
        yield face
        if face.controller.state == OVER:
            return
        if face.controller.state == VISITOR:
            rows = face.controller.panel.lit
            r = max(range(len(rows)), key=lambda r: sum(rows[r]))
            face.tap("key %d %d" % (r, max(i for i, x in enumerate(rows[r]) if x)))
            face.advance(100)
            face.tap("done")
    raise AssertionError("the game did not end")


def test_lamps_split_off_are_moved_not_taken():
    face = Face("pico-grid", {"rules": "grundy", "starts": [[7]], "first": "machine", "think_ms": 0}, seed=1)
    moved = False
    for f in _play(face):
        kinds = [lamp.kind for row in f.lamps() for lamp in row]
        assert "taken" not in kinds
        moved = moved or f.controller.panel.lit[1][0]
    assert moved  # a split did move lamps to row B
    face.close()
    face = Face("pico-grid", {"rules": "nim", "starts": [[3, 2]], "think_ms": 0}, seed=1)
    kinds = []
    for f in _play(face):
        kinds = [lamp.kind for row in f.lamps() for lamp in row]
    assert kinds.count("taken") == 5  # Nim's lamps are taken
    face.close()


def test_the_rings_thinking_panel_names_what_the_ring_draws_and_ends_sensibly():
    face = Face("pico-ring", {"rules": "circular", "think_ms": 0}, seed=1)
    panels = []
    for f in _play(face):
        panels.append("\n".join(f.reasoning()))
    assert panels[-1] == "\nNo move left: the game is over."
    text = "\n".join(panels)
    assert "heap A" not in text and "heap B" not in text and "needs at least one heap" not in text
    assert "row of" in text
    face.close()
    english = Words("en")
    lines = panel_lines(nimrod_for(parse_rules("grundy"), False, [7, 1], False, VISITOR, None, "arc"), english)
    assert "Each arc's nim-value (Grundy values)." in lines and "  0 = 0   arc of 7" in lines, lines
    lines = panel_lines(nimrod_for(parse_rules("circular"), False, [9], False, VISITOR, None, "row"), english)
    said = [
        line for line in lines if not line.startswith(("Binary:", "Nim-sum:", "Value (nim-value):"))
    ]  # glosses last
    assert said[-1] == "Winning move for you: take 1 from the middle of a row of 9, leaving 4 and 4.", lines
    assert panel_lines(nimrod_for(parse_rules("grundy"), False, [1, 2, 1], False, OVER), english) == [
        "",
        "No move left: the game is over.",
    ]


def test_a_position_with_every_part_gone_is_the_end_of_a_split_game():
    assert strategy.solve("circular", []) == {"outcome": "loss", "after": None, "ring": False, "nimber": 0}
    assert strategy.solve("circular", [], True)["outcome"] == "win"
    assert explain.move_leaving([9], [4, 4], "4 4", False) == "take 1 from the middle of a row of 9, leaving 4 and 4"


@pytest.mark.parametrize("lang, lamp", [("en", "lamp"), ("es", "lámpara"), ("ru", "ламп")])
def test_the_settings_goal_choice_is_true_of_every_game(lang, lamp):
    """The settings screen offers normal/misère beside any rule set, Grundy's
    game included, where nobody takes the last lamp: its labels speak of the
    last move."""
    words = Words(lang)
    for key in ("settings.normal", "settings.misere"):
        assert lamp not in words.t(key).lower()


def test_a_split_on_the_ring_names_the_arc_it_splits():
    """The ring draws Grundy's heaps as arcs with no letters, so the machine's
    move, its thinking and the move log say "arc", in every language."""
    lines = panel_lines(nimrod_for(parse_rules("grundy"), False, [8], False, VISITOR, None, "arc"), Words("en"))
    assert any("split an arc of 8 into" in line for line in lines), lines
    for lang, words in (("es", "partir un arco de 8 en"), ("ru", "разделить дугу из 8 на")):
        lines = panel_lines(nimrod_for(parse_rules("grundy"), False, [8], False, VISITOR, None, "arc"), Words(lang))
        assert any(words in line for line in lines), lines
    face = Face("pico-ring", {"rules": "grundy", "starts": [[8]], "first": "machine", "think_ms": 0}, seed=1)
    face.tap("new")
    said = []
    for _ in range(60):
        face.advance(100)
        said.append(face.message())
        if face.controller.state == VISITOR:
            break
    text = "\n".join(said + [line for _style, line in face.log])
    face.close()
    assert "split an arc of 8 into" in text and "split a heap" not in text, text
