"""Licences a museum, a school or a maker can read: the software (MIT), the
hardware (CERN-OHL-P-2.0) and the manual (CC-BY-4.0), each with its full
text, and every firmware file saying which it is under, as Adafruit's do."""

import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_each_part_has_its_licence_text():
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert (ROOT / "hardware" / "LICENSE").read_text().startswith("CERN Open Hardware Licence Version 2 - Permissive")
    assert (ROOT / "docs" / "LICENSE").read_text().startswith("Creative Commons Attribution 4.0 International")


def test_every_firmware_file_names_its_licence():
    missing = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "firmware").rglob("*.py"))
               if "# SPDX-License-Identifier: MIT" not in p.read_text()[:400]]
    assert not missing, "no SPDX header: %s" % ", ".join(missing)
