# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A preset's description (Settings, the page's preset list) and the rules
line of its game say the same move: the game of 21 on a row of lamps was
"add 1-3, whoever says 21 loses" in Settings and "take 1 to 3 from one row"
in the game, in every language."""

import re

import pytest
from kit_words import LANGS
from nimatron.config.settings import presets
from nimatron.games.rules import parse_rules
from nimatron_sim.words import Words, rules_words

# the verbs of the two ways to play a count, per language: the counter adds, a row of lamps is taken from
ADD = {"en": r"\badd", "es": r"\bsuma", "ru": r"прибавля"}
TAKE = {"en": r"\btake", "es": r"\bquita", "ru": r"\bбра|\bбер|\bвзя"}


@pytest.mark.parametrize("lang", LANGS)
def test_a_presets_description_says_the_move_its_game_says(lang):
    words = Words(lang)
    found = []
    for name, preset in sorted(presets().items()):
        if preset.get("counter"):
            continue  # the counter's game says "add" itself (sim.rules.counter)
        about = words.phrase(preset["about"])
        game = rules_words(preset["rules"], words)
        if re.search(TAKE[lang], game, re.I) and re.search(ADD[lang], about, re.I):
            found.append("%s: %r beside the game's %r" % (name, about, game))
    assert not found, "\n".join(found)


def test_the_check_sees_the_old_21():
    words = Words("en")
    assert re.search(ADD["en"], "The game of 21: add 1-3, whoever says 21 loses")
    assert re.search(TAKE["en"], rules_words(parse_rules("subtract:3").spec, words))


def test_no_screen_says_modulo():
    """ "the heap modulo 4" was jargon with no gloss (issue 44): the screens say
    what is left after taking out 4s, and the remainder, in every language."""
    import json
    import pathlib

    import nimatron_sim

    folder = pathlib.Path(nimatron_sim.__file__).parent / "web" / "static" / "lang"
    found = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for table in ("text", "phrases"):
            for key, text in data.get(table, {}).items():
                if re.search(r"\bm[oó]dulo\b|по модулю", text, re.I):
                    found.append("%s %s: %s" % (path.stem, key, text))
    assert not found, "\n".join(found)
