# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""One vocabulary per language, shared by the panel, the page, the terminal,
the OLED and the hardware drawings.

A visitor read MACHINE'S TURN on the engraved panel and MACHINE THINKING on
the screen; Spanish said lámpara and luz, Russian строка and ряд for the same
things. Each concept now has one word per language (``SYNONYMS`` lists the
words that must not come back), and the panel engraves the faces' own words.
"""

import json
import pathlib
import re

import pytest
from nimatron_host.hardware.circuit import STATUS_WORDS
from nimatron_host.hardware.panel import FACE_WORDS, panel_words
from nimatron_sim.words import Words, languages

ROOT = pathlib.Path(__file__).resolve().parents[1]
LANG = ROOT / "simulator" / "nimatron_sim" / "web" / "static" / "lang"

# language -> (the word kept, a pattern for its synonyms that must not appear); status
# lamp labels are matched in capitals only ("Ход машины: 3 из A" is a sentence, not a label)
SYNONYMS = {
    "en": [("MACHINE THINKING", r"(?-i:MACHINE'S TURN)")],
    "es": [("lámpara", r"\bluz\b|\bluces\b"), ("LA MÁQUINA PIENSA", r"(?-i:TURNO DE LA MÁQUINA)")],
    "ru": [("ряд", r"\bстрок[аеиуо]?й?\b|\bстрок\b"), ("МАШИНА ДУМАЕТ", r"(?-i:ХОД МАШИНЫ)")],
}


def strings(lang):
    data = json.loads((LANG / (lang + ".json")).read_text(encoding="utf-8"))
    return list(data["text"].values()) + list(data["phrases"].values())


@pytest.mark.parametrize("lang", sorted(SYNONYMS))
def test_each_concept_has_one_word_in_each_language(lang):
    for kept, banned in SYNONYMS[lang]:
        found = [s for s in strings(lang) if re.search(banned, s, re.IGNORECASE)]
        assert not found, "%s says %r where it says %r elsewhere: %s" % (lang, banned, kept, found[:3])


@pytest.mark.parametrize("lang", languages())
def test_the_panel_engraves_the_faces_words(lang):
    words = Words(lang)
    engraved = panel_words(lang)
    for key, face_key in FACE_WORDS:
        assert engraved[key] == words.t(face_key), (lang, key)


def test_the_drawings_the_oled_and_the_faces_name_the_status_lamps_alike():
    from nimatron.drivers.oled import WORDS as OLED

    words = Words("en")
    for role, shown in STATUS_WORDS.items():
        assert shown == words.t("status." + role), role
    assert OLED["visitor"] == words.t("status.visitor") and OLED["thinking"] == words.t("status.machine")
    generated = "\n".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "hardware").rglob("*") if p.suffix in (".md", ".svg", ".csv")
    )
    assert "MACHINE'S TURN" not in generated
