# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Words a visitor must never read, for the tests of both faces: language
keys, rule sets' ids, settings' and counters' names."""

import json
import os
import re

from nimatron.config import settings as nsettings
from nimatron.games import registry
from nimatron.machine import service
from nimatron_sim import words as words_module

LANGS = ("en", "es", "ru")


def _language_words():
    words = set()
    for lang in LANGS:
        with open(os.path.join(words_module.FOLDER, lang + ".json"), encoding="utf-8") as f:
            data = json.load(f)
        text = " ".join(list(data["text"].values()) + list(data["phrases"].values()))
        words |= {w.lower() for w in re.findall(r"\w+", re.sub(r"\{\w+\}", " ", text))}
    return words


def internal_ids():
    """Words a visitor must never read: language keys ("sim.say.rows"), rule
    sets' ids ("subtract:3", "allheaps": those no language file uses as a
    word), settings' and counters' names ("walkaway_ms")."""
    with open(os.path.join(words_module.FOLDER, "en.json"), encoding="utf-8") as f:
        keys = [k for k in json.load(f)["text"] if "." in k]
    words = _language_words()
    every = [name for name, _, _, _ in registry.entries()]   # the one registry of rule sets
    names = [n for n in every if n.lower() not in words]
    specs = [r"%s:\d+" % re.escape(n) for n in every]
    setting_names = [k for k in list(nsettings.DEFAULTS) + list(service.AUDITS) if "_" in k]
    return re.compile(r"(?<![\w.:-])(%s)(?![\w:-])" % "|".join(
        [re.escape(k) for k in keys] + specs + [re.escape(n) for n in names + setting_names]))


IDS = internal_ids()


def ids_on(text):
    return sorted({m.group(1) for m in IDS.finditer(text)})
