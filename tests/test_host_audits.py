# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The operator sees every loss: ``nimatron audits`` and ``nimatron monitor``
show every counter the firmware keeps and what the machine reported.

A machine once lost 67 games to a damaged record, counted it
(``data_losses``) and said why in HELLO; the audits table and CSV showed
only the first five counters, all zeros. Here a simulated board starts on
such an nvm, and Hypothesis feeds the formatting every kind of snapshot.
"""

import csv
import io
import json
import os
import re
import subprocess
import sys
import types

import pytest
from hypothesis import given, settings as hsettings, strategies as st
from kit_host import Sim
from nimatron.link.commands import cmd_audits
from nimatron.machine.audits import KEYS, Audits
from nimatron.machine.store import AUDITS, SETTINGS, encode
from nimatron_host import reported
from nimatron_host.audits import checked, report, write_csv
from nimatron_host.link import DeviceError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NIMATRON = [sys.executable, "-m", "nimatron_host"]
PATIENT = dict(os.environ, NIMATRON_REPLY_S="20")  # a loaded test machine can be slower than a board


def nimatron(*args):
    return subprocess.run(NIMATRON + list(args), cwd=ROOT, capture_output=True, text=True, timeout=60, env=PATIENT)


def nvm_that_lost_67_games(path):
    """A board's nvm: settings, then the audits of 67 games with one bit
    flipped (the record is never used), then settings again."""
    games = Audits()
    for i in range(67):
        games.game_started("nimatron")
        games.game_ended("visitor" if i % 3 == 0 else "machine")
    settings = {"board": "pico-neopixel", "src": 0, "set": {"preset": "nimatron"}}
    damaged = bytearray(encode(AUDITS, 2, games.record()))
    damaged[12] ^= 0x10
    data = encode(SETTINGS, 1, settings) + bytes(damaged) + encode(SETTINGS, 3, settings)
    path.write_bytes(data + b"\xff" * (4096 - len(data)))


@pytest.fixture
def machine_that_lost_games(tmp_path):
    nvm = tmp_path / "nvm.bin"
    nvm_that_lost_67_games(nvm)
    sim = Sim("--nvm", str(nvm))
    yield sim
    sim.stop()


WHY = (
    "nvm: saved records at byte 74 are damaged (flipped bits, a half-erased sector or another "
    "version's data): the newest audits record may be lost"
)


def counter_rows(table):
    """{key: (lifetime, since service)} from the table's indented counter lines."""
    out = {}
    for line in table.splitlines():
        parts = line.split()
        if line.startswith("  ") and len(parts) == 3:
            out[parts[0]] = (parts[1], parts[2])
    return out


def test_audits_of_a_machine_that_lost_its_games(machine_that_lost_games):
    sim = machine_that_lost_games
    run = nimatron("audits", sim.path)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "*** This machine reported: " + WHY
    assert lines[1] == "*** Since its last service it counted: data_losses 1 (stored counts or settings lost)"
    rows = counter_rows(run.stdout)
    assert set(KEYS) <= set(rows)
    assert rows["data_losses"] == ("1", "1") and rows["power_ups"] == ("1", "1")
    assert rows["pin_lockouts"] == ("0", "0") and rows["games"] == ("0", "0")
    assert "At its last start it found what it had stored (restored: stored)." in lines
    assert "Its settings come from its settings file (settings_from: file)." in lines

    run = nimatron("audits", sim.path, "--csv")
    assert run.returncode == 0, run.stderr
    header, everything = list(csv.reader(io.StringIO(run.stdout)))[:2]
    assert header[:7] == ["preset", "started", "finished", "visitor_wins", "machine_wins", "abandoned", "uptime_s"]
    row = dict(zip(header, everything))
    for key in KEYS:
        assert row["lifetime_" + key] == ("1" if key in ("data_losses", "power_ups", "power_on_resets") else "0")
        assert row["service_" + key] == row["lifetime_" + key]
    assert (row["why"], row["saving"], row["restored"], row["settings_from"]) == (WHY, "", "stored", "file")


def test_monitor_starts_with_the_loss(machine_that_lost_games):
    sim = machine_that_lost_games
    run = nimatron("monitor", sim.path, "--games", "0")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(
        "*** This machine reported: " + WHY + "\n*** Since its last service it counted: data_losses 1"
    )
    assert set(KEYS) <= set(counter_rows(run.stdout)) and counter_rows(run.stdout)["data_losses"] == ("1", "1")
    assert run.stdout.splitlines()[-1].startswith("Watching the Nimatron on %s" % sim.path)
    quiet = nimatron("monitor", sim.path, "--games", "0", "--json")  # stdout stays JSON lines
    assert quiet.returncode == 0 and quiet.stdout == ""
    assert "*** This machine reported: " + WHY in quiet.stderr


HELLO = {
    "name": "nimatron",
    "protocol": 1,
    "board": "pico-neopixel",
    "preset": "nimatron",
    "restored": "stored",
    "settings_from": "file",
}


def test_what_hello_says_about_saving_is_shown_whatever_its_keys():
    audits = {
        "started": 3,
        "finished": 2,
        "visitor_wins": 1,
        "machine_wins": 1,
        "abandoned": 1,
        "lifetime": {
            "games": 70,
            "finished": 2,
            "visitor_wins": 1,
            "machine_wins": 1,
            "abandoned": 1,
            "card_reader_jams": 4,
        },
        "uptime_s": 60,
        "presets": {},
        "service": None,
        "stuck": [],
        "check_switch": [],
    }
    hello = dict(
        HELLO,
        saving="flash worn: the last 3 writes failed",
        problems=["nvm slow", "file missing"],
        battery="low\x1b[2J\n",
    )  # a newer firmware's key; no terminal escapes reach the screen
    table = report("PORT", hello, checked(audits))
    assert table.splitlines()[:3] == [
        "*** Saving is failing now: flash worn: the last 3 writes failed "
        "(what it counts may be lost when it is switched off)",
        "*** Problems it reports: nvm slow; file missing",
        "",
    ]
    assert "It also says: battery: low?[2J?" in table
    rows = counter_rows(table)
    assert rows["card_reader_jams"] == ("4", "0") and rows["games"] == ("70", "3")
    assert "counters this tool does not know (a newer firmware)" in table
    out = io.StringIO()
    write_csv(out, hello, audits)
    header, everything = list(csv.reader(io.StringIO(out.getvalue())))[:2]
    row = dict(zip(header, everything))
    assert (row["saving"], row["problems"], row["battery"]) == (
        "flash worn: the last 3 writes failed",
        "nvm slow; file missing",
        "low?[2J?",
    )
    assert (row["lifetime_card_reader_jams"], row["service_card_reader_jams"], row["why"]) == ("4", "0", "")


def test_a_firmware_without_lifetime_counts_shows_them_as_unknown():
    table = report("PORT", HELLO, checked({"started": 1, "finished": 1, "presets": {}}))
    assert counter_rows(table)["games"] == ("-", "1")
    out = io.StringIO()
    write_csv(out, HELLO, {"started": 1})
    header, everything = list(csv.reader(io.StringIO(out.getvalue())))[:2]
    assert dict(zip(header, everything))["lifetime_games"] == ""


@pytest.mark.parametrize(
    "audits, message",
    [
        ({"started": 1, "data_losses": -1}, "'data_losses' = -1, where a count belongs"),
        ({"started": 1, "lifetime": [1]}, "'lifetime' = [1], where an object belongs"),
        ({"started": 1, "lifetime": {"faults": "2"}}, "'faults' = \"2\" (lifetime), where a whole number belongs"),
    ],
)
def test_a_counter_the_tool_knows_must_be_a_count(audits, message):
    with pytest.raises(DeviceError, match=re.escape(message)):
        checked(audits)


# -- Hypothesis: every snapshot shows every non-zero counter, and never crashes --

COUNT = st.one_of(st.integers(0, 5), st.integers(0, 2**80))
UNKNOWN = st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12).filter(
    lambda k: k not in KEYS and k not in ("started", "lifetime", "presets") + reported.NOT_COUNTERS
)
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-5, -1), st.text(max_size=5), st.lists(st.integers(), max_size=2)
)


def _shown(table, csv_text, key, life, service):
    rows = counter_rows(table)
    assert rows[key] == ("-" if life is None else str(life), str(service)), key
    header, everything = list(csv.reader(io.StringIO(csv_text)))[:2]
    row = dict(zip(header, everything))
    assert row["lifetime_" + key] == ("" if life is None else str(life)) and row["service_" + key] == str(service)


@hsettings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.sampled_from(KEYS), COUNT),
    st.dictionaries(st.sampled_from(KEYS), COUNT),
    st.dictionaries(UNKNOWN, COUNT, max_size=3),
    st.dictionaries(UNKNOWN, JUNK, max_size=3),
    st.booleans(),
    st.dictionaries(
        st.sampled_from(("why", "saving", "problems", "restored", "settings_from", "flux")),
        st.one_of(
            st.text(max_size=30),
            st.lists(st.text(max_size=8), max_size=3),
            st.none(),
            st.integers(),
            st.dictionaries(st.text(max_size=3), st.integers()),
        ),
    ),
)
def test_any_snapshot_shows_every_counter(service, lifetime, new, junk, has_lifetime, said):
    """Any subset of counters (the firmware leaves out zeros), counters this
    tool does not know, huge values, keys that are not counters."""
    audits = {"started" if k == "games" else k: v for k, v in service.items()}
    audits.update(new)
    for k, v in junk.items():
        audits.setdefault(k, v)
    if has_lifetime:
        audits["lifetime"] = dict(lifetime, **new)
    hello = dict(HELLO, **said)
    table = report("PORT", hello, checked(audits))
    out = io.StringIO()
    write_csv(out, hello, audits)
    for key in KEYS:
        life = lifetime.get(key, 0) if has_lifetime else None
        _shown(table, out.getvalue(), key, life, service.get(key, 0))
    for key, value in new.items():
        _shown(table, out.getvalue(), key, value if has_lifetime else None, value)
    header, everything = list(csv.reader(io.StringIO(out.getvalue())))[:2]
    assert len(header) == len(everything) and len(set(header)) == len(header)
    if said.get("why"):
        assert table.startswith("*** This machine reported: ")
    for key, value in said.items():
        if value:
            assert reported.text(value) in table and dict(zip(header, everything))[key] == reported.text(value)


@hsettings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS[5:]), st.integers(1, 2**40), min_size=1), st.integers(0, 3))
def test_the_firmwares_own_snapshot_through_audits_reply(counts, cleared):
    """What ``Audits.snapshot`` and ``AUDITS`` send, through the table and CSV:
    every non-zero counter lifetime and since service, the rest 0."""
    audits = Audits()
    for key, n in counts.items():
        audits.count(key, n)
    if cleared:
        audits.clear_service()
        audits.count("data_losses", cleared)
    link = types.SimpleNamespace(controller=types.SimpleNamespace(audits=audits), started_ms=0, dropped=0)
    reply = json.loads(json.dumps(cmd_audits(link, [], "AUDITS", 5000)))
    table = report("PORT", HELLO, checked(reply))
    out = io.StringIO()
    write_csv(out, HELLO, reply)
    for key in KEYS:
        _shown(table, out.getvalue(), key, audits.lifetime[key], audits.service[key])
    if audits.service["data_losses"]:
        assert "data_losses %d (stored counts or settings lost)" % audits.service["data_losses"] in table
