# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Nimrod's panel (``nimatron_sim.nimrod``) for the four newest games, against
the firmware's own engine: Building Nim's plan, Graph Nim's and 2-D Nim's
groups, Candy Nim's candies. The panel is what both faces show (the
terminal's "how the machine thinks", the pages' reasoning and the crowd view)."""

import pytest
from nimatron.games import strategy
from nimatron_sim.face import Face
from nimatron_sim.nimrod import nimrod
from nimatron_sim.thinking import lines
from nimatron_sim.words import Words


def started(preset, **settings):
    face = Face("pico-grid", dict(settings, preset=preset, think_ms=0, show_ms=200), 1)
    face.tap("new")
    face.advance(300)
    return face


def xor(values):
    x = 0
    for v in values:
        x ^= v
    return x


@pytest.mark.parametrize("start", [[0, 0, 0, 8], [0, 0, 0, 6], [0, 0, 0, 0, 0, 8]])
def test_building_nim_shows_its_plan(start):
    face = started("building", starts=[start])
    controller = face.controller
    panel = nimrod(controller)
    position = face.heaps()[0]
    assert panel["kind"] == "building" and panel["stones"] == position[-1] == start[-1]
    # who places the last stone: the visitor moves now; stones alternate
    assert panel["who_last"] == ("visitor" if position[-1] % 2 else "machine")
    # the Nim position the plan aims for: the firmware's own moves, followed to the last stone
    aim = list(position)
    while aim[-1]:
        aim = strategy.solve(controller.rules, aim, controller.misere)["after"]
    assert panel["aim"] == " ".join(map(str, aim[:-1]))
    assert [r["value"] for r in panel["rows"]] == aim[:-1] and panel["sum"] == xor(aim[:-1])
    keys = [key for key, _ in panel["lines"]]
    assert keys[:3] == ["nimrod.building", "nimrod.building.last", "nimrod.building.aim"]
    text = "\n".join(lines(panel, Words("en")))
    assert "stones still to place: %d" % position[-1] in text and "builds rows %s" % panel["aim"] in text


def test_building_nim_once_built_is_nim():
    face = started("building", starts=[[0, 0, 0, 2]])
    face.tap("key 0 0")  # the visitor's stone; the machine places the last
    face.advance(2000)
    panel = nimrod(face.controller)
    heaps = face.heaps()[0][:-1]
    assert face.heaps()[0][-1] == 0 and panel["kind"] == "nim" and panel["stones"] == 0
    assert [r["heap"] for r in panel["rows"]] == heaps and panel["lines"][0] == ["nimrod.built", {}]


def test_graph_nim_groups_are_the_firmwares():
    face = started("graph")
    matrix = face.heaps()[0]
    panel = nimrod(face.controller)
    groups = face.controller.rules.groups(matrix)  # the firmware's own (lamps, nim-value)
    assert panel["kind"] == "values" and panel["how"] == "groups"
    assert sorted((r["heap"], r["value"]) for r in panel["rows"]) == sorted(groups)
    assert panel["sum"] == xor(v for _, v in groups) == strategy.solve(face.controller.rules, matrix)["nimber"]
    assert panel["outcome"] == ("win" if panel["sum"] else "lose")
    assert "group 1 (lamps: %d)" % panel["rows"][0]["heap"] in "\n".join(lines(panel, Words("en")))


def test_two_dimensional_nim_groups_and_verdict():
    face = started("nim2d", starts=[[7, 7, 0, 12]])  # two groups of lit cells
    matrix = face.heaps()[0]
    panel = nimrod(face.controller)
    result = strategy.solve(face.controller.rules, matrix)
    assert len(panel["rows"]) == 2 and sum(r["heap"] for r in panel["rows"]) == sum(map(sum, matrix))
    assert panel["sum"] == result["nimber"] and panel["outcome"] == result["outcome"]


def test_two_dimensional_nim_misere_gives_the_verdict_only():
    face = started("nim2d", misere=True)
    panel = nimrod(face.controller)
    assert panel["kind"] == "other" and panel["rows"] is None
    assert panel["outcome"] == strategy.solve(face.controller.rules, face.heaps()[0], True)["outcome"]


def test_candy_nim_shows_both_counts_and_the_candies_it_can_be_sure_of():
    face = started("candy", first="visitor")
    heaps = face.heaps()[0]
    rules = face.controller.rules
    panel = nimrod(face.controller)
    assert panel["kind"] == "nim" and panel["candy"] == {
        "left": sum(heaps),
        "sure": rules.candies(heaps, False),
        "held": {"visitor": 0, "machine": 0},
    }
    # a move: the machine's candies are counted, and the panel says so
    r = next(r for r in range(len(heaps)) if heaps[r])
    i = face.controller.panel.lit[r].index(1)
    face.tap("key %d %d" % (r, i))
    face.tap("done")
    face.advance(3000)
    panel = nimrod(face.controller)
    held = panel["candy"]["held"]
    assert held["visitor"] == 1 and held == face.controller.panel.candies
    es = "\n".join(lines(panel, Words("es")))
    assert "Caramelos hasta ahora: tú 1, la máquina %d." % held["machine"] in es


def test_no_preset_says_a_sentence_twice():
    """Each preset's opening panel, in every language, states each sentence
    once (Graph Nim and 2-D Nim said "Each group of touching lamps is a game
    of its own" twice in a row: the header, then the lesson's first line)."""
    import json
    import re
    from pathlib import Path

    presets = json.loads((Path(__file__).parent.parent / "firmware/nimatron/config/presets.json").read_text())
    seen = 0
    for preset in presets:
        try:
            face = started(preset)
        except Exception:  # a preset too large for pico-grid (21's heap of 21 lamps): another test's board
            continue
        panel = nimrod(face.controller)
        for lang in ("en", "es", "ru"):
            said = [line.strip() for line in lines(panel, Words(lang)) if line.strip()]
            heads = [" ".join(re.findall(r"\w+", line)[:6]) for line in said]
            assert len(set(heads)) == len(heads), (preset, lang, said)
        seen += 1
    assert seen >= 20


@pytest.mark.parametrize("heaps", [[2, 1], [4, 1], [4, 2, 1], [8, 8, 2], [1, 1]])
def test_the_binary_gloss_works_an_example(heaps):
    """The gloss adds up a number with more than one 1 ("1 1 = 2 + 1 = 3"),
    even where every heap is a power of two (it read "1 0 = 2 = 2")."""
    import re

    from nimatron.games.rules import parse_rules
    from nimatron.machine.controller import VISITOR
    from nimatron_sim.nimrod import nimrod_for

    panel = nimrod_for(parse_rules("nim"), False, heaps, False, VISITOR)
    for lang in ("en", "es", "ru"):
        gloss = [line for line in lines(panel, Words(lang)) if "(" in line and " = " in line][-1]
        bits, parts, n = re.search(r"\(([01 ]+) = ([\d +]+) = (\d+)\)", gloss).groups()
        assert "+" in parts or max(heaps) == 1, gloss
        assert sum(int(p) for p in parts.split("+")) == int(n) == int(bits.replace(" ", ""), 2), gloss
