# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Damage that spans records, and records of another shape (issue 46; docs/reliability.md,
"Damage that spans records").

Kind (../shared/guide/faults.md, *damage that spans*): two or more records
hit at once, a byte burst across a record boundary, a store cut at any
length (at a record boundary it reads clean), a blank, empty or short
store, a whole record of a shape this version does not read. Generated for
both stores: the Pi's state file and the simulator's nvm (a board's sector).

The invariant: every kind whose acknowledged newest record is not what the
restart holds is in ``lost`` and said (``problems``); with settings among
them the link is sealed (``SET`` refused without the buttons' menu); a
record of another shape is never read as zeros; the machine still starts
and plays. ``NIMATRON_STORE_EXAMPLES=2000`` searches longer.

One ambiguity is left out on purpose: the nvm's newest record with its
commit mark turned to 0xFF and its bytes damaged, nothing after it, is
exactly what a power cut leaves mid-append (never acknowledged): read as
that, it is not a loss. Every other byte and bit is drawn.
"""

import json
import os
import sys

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "simulator", "nimatron_sim"))  # flash.py

from fake_io import FakeIO  # noqa: E402
from flash import FlashNvm, ModelFiles  # noqa: E402
from nimatron.link.hostlink import HostLink  # noqa: E402
from nimatron.machine import app  # noqa: E402
from nimatron.machine.audits import KEYS, PRESET_KEYS, Audits  # noqa: E402
from nimatron.machine.reading import survey  # noqa: E402
from nimatron.machine.records import AUDITS, COMPACTED, SETTINGS, encode  # noqa: E402
from nimatron.machine.startup import Machine, overrides_source  # noqa: E402
from nimatron.machine.store import Store  # noqa: E402

EXAMPLES = int(os.environ.get("NIMATRON_STORE_EXAMPLES", "60"))
SLOW = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BOARD = "pico-neopixel"
PIN = "2468"
PATH = "/state.bin"


# -- the stores, as their programs leave them ---------------------------------
def _make(board, overrides, listener, now_ms, audits):
    return app.make_controller(board, overrides, io=FakeIO(), listener=listener, now_ms=now_ms, audits=audits)


def _boot(store):
    m = Machine(BOARD, overrides_source({}), store, now_ms=0, make=_make, log=lambda line: None)
    return m, m.attach(HostLink(m.controller, board=BOARD, now_ms=0))


def _played(m, games):
    for _ in range(games):
        m.audits.game_started("nimatron")
        m.audits.game_ended("machine")


def _acknowledged(store):
    """What the store holds as acknowledged: the newest payload of each kind."""
    found = Store(
        nvm=FlashNvm(store.nvm.data) if store.nvm is not None else None, path=store.path, files=store.files
    ).load()
    assert not found["problems"] and not found["lost"]
    return {"settings": found["settings"], "audits": found["audits"]}


def _disk(data):
    disk = ModelFiles()
    disk.create(PATH, data)
    disk.fsync(PATH)
    disk.fsync_dir(PATH)
    return disk


def _nvm_image(games_after=12, compacted=False):
    """A board's sector: a PIN set over the link, games after it; ``compacted``:
    a second SET after the sector filled (a compacted head, appends behind it)."""
    m, link = _boot(Store(nvm=FlashNvm()))
    assert link.handle(b"SET operator_pin " + PIN.encode(), 0).startswith("OK")
    if compacted:
        while m.store.erases == 0:
            _played(m, 1)
        m.store.now = None  # no wear limit here: every save now
        m.settings_saved_at = None
        assert link.handle(b"SET volume 4", 0).startswith("OK")
    _played(m, games_after)
    return bytes(m.store.nvm.data), _acknowledged(m.store), m.store.tail


def _pi_image(games=3):
    files = ModelFiles()
    m, link = _boot(Store(path=PATH, files=files))
    assert link.handle(b"SET operator_pin " + PIN.encode(), 0).startswith("OK")
    _played(m, games)
    return files.read(PATH), _acknowledged(m.store)


NVM = _nvm_image()
NVM_COMPACTED = _nvm_image(games_after=3, compacted=True)
PI = _pi_image()


def _spans(data, end=None):
    """(start, end) of each whole record in ``data[:end]``."""
    records, starts, _, _, _ = survey(data[:end] if end else data, end is not None)
    return [(starts[i], starts[i] + len(records[i][3])) for i in range(len(records))]


def _check(found, acknowledged, what):
    """The invariant at the store: a kind restored other than acknowledged is named lost and said."""
    for name in ("settings", "audits"):
        if found[name] != acknowledged[name]:
            assert name in found["lost"], (what, name, found)
    if found["lost"]:
        assert found["problems"], (what, found)


def _unsealed(store):
    """Restart on ``store``: does ``SET volume 3`` pass with no UNLOCK? (It plays on, too.)"""
    m, link = _boot(store)
    for t in range(10, 100, 10):
        m.controller.update(t)
    return link.handle(b"SET volume 3", 200).startswith("OK")


# -- damage drawn: sets of (record, offset, bits), bursts --------------------
def _flipped(data, spans, hits):
    bad = bytearray(data)
    for record, offset, bits in hits:
        start, end = spans[record % len(spans)]
        bad[start + offset % (end - start)] ^= bits
    return bytes(bad)


def _torn_looking(bad, spans, tail):
    """The newest nvm record with its commit mark blank and itself unreadable, blank after:
    a power cut's never-committed append, byte for byte (see the module's docstring)."""
    start, end = spans[-1]
    return bad[start] == 0xFF and bad[end:] == b"\xff" * (len(bad) - end)


HITS = st.lists(st.tuples(st.integers(0, 40), st.integers(0, 600), st.integers(1, 255)), min_size=1, max_size=6)


@SLOW
@given(image=st.sampled_from(("sector", "compacted")), hits=HITS)
def test_nvm_damage_over_any_records_names_every_kind_it_may_have_lost(image, hits):
    data, acknowledged, tail = NVM if image == "sector" else NVM_COMPACTED
    spans = _spans(data, tail)
    bad = _flipped(data, spans, hits)
    assume(not _torn_looking(bad, spans, tail))
    _check(Store(nvm=FlashNvm(bad)).load(), acknowledged, hits)


@SLOW
@given(old=st.booleans(), hits=HITS)
def test_pi_file_damage_over_any_records_names_every_kind_it_may_have_lost(old, hits):
    data, acknowledged = PI
    if old:  # as today's release writes it: the records, no index
        data = data[_spans(data)[0][1] :]
    bad = _flipped(data, _spans(data), hits)
    _check(Store(path=PATH, files=_disk(bad)).load(), acknowledged, hits)


@SLOW
@given(pi=st.booleans(), at=st.integers(0, 4095), burst=st.binary(min_size=1, max_size=64))
def test_a_burst_of_bytes_anywhere_names_every_kind_it_may_have_lost(pi, at, burst):
    data, acknowledged = PI if pi else NVM[:2]
    end = len(data) if pi else NVM[2]
    bad = bytearray(data)
    at %= end
    bad[at : at + len(burst)] = burst
    bad = bytes(bad[: len(data)])
    if pi:
        found = Store(path=PATH, files=_disk(bad)).load()
    else:
        assume(not _torn_looking(bad, _spans(data, end), end))
        found = Store(nvm=FlashNvm(bad)).load()
    _check(found, acknowledged, (at, burst))


@SLOW
@given(hits=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 600), st.integers(1, 255)), min_size=2, max_size=4))
def test_settings_possibly_lost_seal_the_link_and_the_machine_plays(hits):
    """End to end: the machine restarts on the damaged Pi file and sector; a stored PIN
    either holds (SET needs UNLOCK) or the link is sealed."""
    data, _ = PI
    assert not _unsealed(Store(path=PATH, files=_disk(_flipped(data, _spans(data), hits))))
    data, _, tail = NVM
    spans = _spans(data, tail)
    bad = _flipped(data, spans, hits)
    assume(not _torn_looking(bad, spans, tail))
    assert not _unsealed(Store(nvm=FlashNvm(bad)))


# -- every cut, blank, empty, short ---------------------------------------------
def test_the_pi_file_cut_at_every_length_names_what_it_lost():
    data, acknowledged = PI
    for old in (False, True):
        whole = data[_spans(data)[0][1] :] if old else data
        for n in range(len(whole)):
            found = Store(path=PATH, files=_disk(whole[:n])).load()
            _check(found, acknowledged, n)
            assert found["lost"], (old, n, "a cut file always lost something")


def test_the_pi_file_cut_at_its_record_boundary_is_said_and_sealed():
    """``head -c 116``: one whole audits record, clean; it read as ours with no word."""
    data, acknowledged = PI
    for old in (False, True):
        whole = data[_spans(data)[0][1] :] if old else data
        for _start, end in _spans(whole)[:-1]:
            found = Store(path=PATH, files=_disk(whole[:end])).load()
            assert "settings" in found["lost"] and found["problems"], (old, end)
            assert "settings record" in found["problems"][-1] and "no whole" in found["problems"][-1]
            assert not _unsealed(Store(path=PATH, files=_disk(whole[:end])))


def test_the_sim_nvm_cut_at_any_length_names_what_it_lost(tmp_path):
    data, acknowledged, tail = NVM
    path = str(tmp_path / "nvm.bin")
    cuts = set(range(0, len(data), 97))  # every length: tests/bench_store_spans.py (each open fsyncs a copy)
    for start, end in _spans(data, tail):
        cuts.update((start - 1, start, start + 1, end - 1, end, end + 1))
    for n in sorted(cuts):
        for name in os.listdir(tmp_path):
            os.remove(tmp_path / name)
        with open(path, "wb") as f:
            f.write(data[:n])
        found = Store(nvm=FlashNvm.open(path)).load()
        _check(found, acknowledged, n)
        assert sorted(found["lost"]) == ["audits", "settings"] and found["problems"], n


@pytest.mark.parametrize("image", ["empty", "blank", "zeroed", "short blank"])
def test_a_blank_empty_or_zeroed_pi_file_seals(image):
    data, acknowledged = PI
    bad = {"empty": b"", "blank": b"\xff" * len(data), "zeroed": bytes(len(data)), "short blank": b"\xff" * 9}[image]
    found = Store(path=PATH, files=_disk(bad)).load()
    assert sorted(found["lost"]) == ["audits", "settings"] and found["problems"]
    assert not _unsealed(Store(path=PATH, files=_disk(bad)))


def test_blank_bytes_after_a_pi_files_records_are_damage_said():
    """A file is written whole: blank bytes in it are no empty tail (as an nvm's
    are) but something that happened to it; nothing is lost, and it is said."""
    data, acknowledged = PI
    found = Store(path=PATH, files=_disk(data + b"\xff" * 40)).load()
    assert found["lost"] == [] and found["problems"]
    assert {"settings": found["settings"], "audits": found["audits"]} == acknowledged


@pytest.mark.parametrize("image", ["empty", "short blank", "zeroed", "new"])
def test_an_empty_short_or_zeroed_sim_nvm_seals_and_a_new_one_does_not(tmp_path, image):
    path = str(tmp_path / "nvm.bin")
    if image != "new":
        with open(path, "wb") as f:
            f.write({"empty": b"", "short blank": b"\xff" * 100, "zeroed": bytes(4096)}[image])
    nvm = FlashNvm.open(path)
    found = Store(nvm=nvm).load()
    if image == "new":  # no file: a new exhibit, nothing stored to lose
        assert found["lost"] == [] and found["problems"] == []
        assert _unsealed(Store(nvm=nvm))
    else:
        assert sorted(found["lost"]) == ["audits", "settings"] and found["problems"]
        assert not _unsealed(Store(nvm=nvm))
        assert not _unsealed(Store(nvm=FlashNvm.open(path)))  # and at the start after


# -- the format: an index, files of today's release --------------------------
def test_the_pi_file_opens_with_an_index_naming_its_records():
    data, acknowledged = PI
    records = survey(data, False)[0]
    assert [r[0] for r in records] == [COMPACTED, AUDITS, SETTINGS]
    has = records[0][2]["has"]
    assert has == {"A": records[1][1], "S": records[2][1]}


def test_a_file_written_by_todays_release_loads_and_is_rewritten_with_its_index():
    """Today's release writes the records alone (no index): read whole, nothing
    lost; the next save writes the index."""
    data, acknowledged = PI
    old = data[_spans(data)[0][1] :]
    files = _disk(old)
    store = Store(path=PATH, files=files)
    found = store.load()
    assert found["problems"] == [] and found["lost"] == []
    assert {"settings": found["settings"], "audits": found["audits"]} == acknowledged
    assert store.save_audits(found["audits"])
    assert [r[0] for r in survey(files.read(PATH), False)[0]] == [COMPACTED, AUDITS, SETTINGS]
    assert Store(path=PATH, files=files).load()["lost"] == []


# A Pi's state file as 0.1.0 (main at 6907ebb) wrote it: a PIN set over the link, 3 games.
RELEASED = bytes.fromhex(
    "006e414200060000007b226c223a5b332c332c302c332c302c312c302c302c302c302c302c302c302c302c302c315d2c22"
    "70223a7b226e696d6174726f6e223a5b332c332c302c335d7d7d2f718a0e006e535c00030000007b22626f617264223a22"
    "7069636f2d6e656f706978656c222c22737263223a323734353631343134372c22736574223a7b22707265736574223a22"
    "6e696d6174726f6e222c226f70657261746f725f70696e223a2232343638227d7d0dc56818"
)


def test_the_released_file_starts_with_its_pin_and_gets_an_index():
    """The migration end to end: 0.1.0's bytes, no index; the PIN holds, nothing is said lost."""
    files = _disk(RELEASED)
    m, link = _boot(Store(path=PATH, files=files))
    assert m.why == "" and m.sealed is None and m.audits.lifetime["games"] == 3
    assert m.controller.settings["operator_pin"] == PIN
    assert link.handle(b"SET volume 3", 0).startswith("ERR")  # the PIN's
    assert [r[0] for r in survey(files.read(PATH), False)[0]] == [COMPACTED, AUDITS, SETTINGS]
    for n in range(len(RELEASED)):  # and 0.1.0's file cut anywhere: a loss, named
        found = Store(path=PATH, files=_disk(RELEASED[:n])).load()
        assert found["lost"] and found["problems"], n


def test_an_index_naming_only_audits_loses_no_settings():
    """A file written before any settings were stored: nothing missing, nothing said."""
    raw = encode(AUDITS, 4, {"l": [3]})
    found = Store(path=PATH, files=_disk(encode(COMPACTED, 4, {"has": {"A": 4}}) + raw)).load()
    assert found["lost"] == [] and found["problems"] == [] and found["audits"] == {"l": [3]}


# -- records of another shape -------------------------------------------------
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 2**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)
GOOD_AUDITS = {"l": [12, 12, 0, 12], "s": [3, 3, 0, 3], "p": {"nimatron": [3, 3, 0, 3]}, "f": 100, "z": 200, "k": 1}


def _same(a, b):
    """Equal as JSON (``True == 1`` in Python, not in a record)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _faithful(record):
    """Every count this version reads from ``record`` read as stored (never a zero for a value)."""
    a = Audits(record)
    for key, counts in (("l", a.lifetime), ("s", a.service)):
        values = record.get(key, record["l"])
        for i in range(min(len(values), len(KEYS))):
            assert counts[KEYS[i]] == values[i], (key, i)
    for name, values in record.get("p", {}).items():
        for i in range(min(len(values), len(PRESET_KEYS))):
            assert a.presets[name][PRESET_KEYS[i]] == values[i], (name, i)
    assert a.pin_failures == record.get("k", 0)
    assert (a.first_game, a.last_game) == (record.get("f"), record.get("z"))


def _with(base, path, value):
    """``base`` with the field at ``path`` (keys and list places) replaced by ``value``."""
    import copy

    out = copy.deepcopy(base)
    here = out
    for step in path[:-1]:
        here = here[step]
    here[path[-1]] = value
    return out


AUDITS_FIELDS = [
    ("l",),
    ("l", 1),
    ("s",),
    ("s", 0),
    ("p",),
    ("p", "nimatron"),
    ("p", "nimatron", 2),
    ("f",),
    ("z",),
    ("k",),
]


@SLOW
@given(field=st.sampled_from(AUDITS_FIELDS), value=JSON, pi=st.booleans())
def test_an_audits_record_of_any_shape_is_read_faithfully_or_lost_and_said(field, value, pi):
    record = _with(GOOD_AUDITS, field, value)
    older = encode(AUDITS, 1, GOOD_AUDITS)
    raw = encode(AUDITS, 3, record)
    if pi:
        store = Store(path=PATH, files=_disk(encode(COMPACTED, 3, {"has": {"A": 3}}) + raw))
    else:
        store = Store(nvm=FlashNvm(older + raw + b"\xff" * (4096 - len(older) - len(raw))))
    found = store.load()
    if _same(found["audits"], record):
        _faithful(record)
        assert found["lost"] == []
    else:
        assert "audits" in found["lost"] and found["problems"], (record, found)
        assert "never as zeros" in " ".join(found["problems"])
        assert _same(found["audits"], None if pi else GOOD_AUDITS)  # the one before it, as for damage


SETTINGS_FIELDS = [("board",), ("src",), ("set",), ("set", "operator_pin"), ("set", "preset"), ("factory",)]


@SLOW
@given(field=st.sampled_from(SETTINGS_FIELDS), value=JSON, pi=st.booleans())
def test_a_settings_record_of_any_shape_keeps_the_pin_or_seals(field, value, pi):
    crc = overrides_source({})[2]
    record = _with({"board": BOARD, "src": crc, "set": {"operator_pin": PIN}}, field, value)
    images = encode(AUDITS, 1, {"l": [5]}) + encode(SETTINGS, 2, record)
    if pi:

        def store():
            return Store(path=PATH, files=_disk(encode(COMPACTED, 2, {"has": {"A": 1, "S": 2}}) + images))
    else:

        def store():
            return Store(nvm=FlashNvm(images + b"\xff" * (4096 - len(images))))

    found = store().load()
    if not _same(found["settings"], record):
        assert "settings" in found["lost"] and found["problems"]
    if _unsealed(store()):  # only a record read as stored that holds no PIN (or is older than
        # the settings file, which then wins by design) leaves SET open
        assert _same(found["settings"], record), found
        assert not record["set"].get("operator_pin") or record["src"] != crc, found


def test_an_odd_record_is_kept_aside_where_a_file_can_hold_it(tmp_path):
    odd = encode(AUDITS, 2, {"l": {"games": 12}})
    files = _disk(encode(COMPACTED, 2, {"has": {"A": 2}}) + odd)
    found = Store(path=PATH, files=files).load()
    assert "kept aside as state.bin.other-1" in found["problems"][-1]
    assert odd in files.read(PATH + ".other-1")
    path = str(tmp_path / "nvm.bin")
    with open(path, "wb") as f:
        f.write(odd + b"\xff" * (4096 - len(odd)))
    found = Store(nvm=FlashNvm.open(path)).load()
    assert "kept aside as nvm.bin.other-1" in found["problems"][-1] and found["lost"] == ["audits"]
    assert (tmp_path / "nvm.bin.other-1").read_bytes().startswith(odd)


# -- the torn-record check ------------------------------------------------------
def _newest_uncommitted_then(after):
    """NVM with its newest record's commit mark blank (as a power cut leaves an
    append), its body damaged, and ``after`` behind it."""
    data, acknowledged, tail = NVM
    start, end = _spans(data, tail)[-1]
    bad = bytearray(data)
    bad[start] = 0xFF
    bad[start + 20] ^= 0x10
    bad[end : end + len(after)] = after
    return bytes(bad), acknowledged


def test_an_uncommitted_looking_newest_record_followed_by_junk_is_a_loss():
    """Junk after it: no append was cut there (appends go into blank bytes), so the
    record was damaged at rest: said and named (the torn-record check in ``survey``)."""
    bad, acknowledged = _newest_uncommitted_then(b"\x13\x37\x00\x42")
    found = Store(nvm=FlashNvm(bad)).load()
    _check(found, acknowledged, "junk")
    assert "audits" in found["lost"]
    bad, _ = _newest_uncommitted_then(b"")  # blank after it: a cut append, never acknowledged
    found = Store(nvm=FlashNvm(bad)).load()
    assert found["lost"] == [] and found["problems"] == []


def test_a_torn_header_followed_by_junk_is_a_loss():
    """The header's length damaged too (no whole record can be read there) and junk behind:
    a loss, not a header the power cut tore."""
    data, acknowledged, tail = NVM
    start, end = _spans(data, tail)[-1]
    bad = bytearray(data)
    bad[start] = 0xFF
    bad[start + 3 : start + 5] = b"\xff\x7f"  # a length past any record's
    bad[end : end + 3] = b"\x01\x02\x03"
    found = Store(nvm=FlashNvm(bytes(bad))).load()
    assert "audits" in found["lost"] and found["problems"]


# -- the seal lasts -------------------------------------------------------------
@pytest.mark.parametrize("where", ["pi", "nvm"])
def test_the_seal_lasts_over_restarts_until_the_menu_saves(where):
    """A start that found the settings possibly lost seals the link; the saves
    it makes (the power-up's audits, the settings it started with) must not
    make the next start forget it: sealed until the operator menu saves."""
    if where == "pi":
        data, _ = PI
        files = _disk(data[: _spans(data)[1][1]])  # cut after the audits record

        def store():
            return Store(path=PATH, files=files)
    else:
        data, _, tail = NVM
        kinds = [r[0] for r in survey(data[:tail])[0]]
        pin = len(kinds) - 1 - kinds[::-1].index(SETTINGS)  # the SET's record, and the games' after it
        flash = FlashNvm(_flipped(data, _spans(data, tail), [(pin, 9, 1), (pin + 1, 9, 1)]))

        def store():
            return Store(nvm=flash)  # the same flash at every start

    for restart in range(3):
        m, link = _boot(store())
        assert m.sealed, restart
        assert not link.handle(b"SET volume 3", 0).startswith("OK"), restart
        if where == "nvm":
            m.store._compact()  # the damage compacted away: the seal must not go with it
    m.save_settings(dict(m.controller.settings))  # the operator menu on the buttons
    m, link = _boot(store())
    assert m.sealed is None and link.handle(b"SET volume 3", 0).startswith("OK")


def _old(kind, seq, payload):
    """A record as versions up to 0.2 wrote it: no commit mark, ``4E`` first."""
    from nimatron.machine.records import MAGIC, crc32

    body = json.dumps(payload, separators=(",", ":")).encode()
    head = bytes([MAGIC, kind]) + len(body).to_bytes(2, "little") + seq.to_bytes(4, "little")
    return head + body + crc32(head + body).to_bytes(4, "little")


def test_an_older_versions_damaged_newest_record_followed_by_junk_is_a_loss():
    """An older version's records (no commit mark): a torn append of theirs is a damaged
    newest record with blank bytes after it; with junk after it, it was damaged at rest."""
    image = _old(SETTINGS, 1, {"board": BOARD, "set": {"operator_pin": PIN}}) + _old(AUDITS, 2, {"l": [1]})
    newest = _old(AUDITS, 3, {"l": [2]})
    bad = bytearray(newest)
    bad[12] ^= 0x04
    for after, lost in ((b"", []), (b"\x13\x37\x00", ["audits", "settings"])):
        data = image + bytes(bad) + after
        found = Store(nvm=FlashNvm(data + b"\xff" * (4096 - len(data)))).load()
        assert found["lost"] == lost, (after, found)
        assert bool(found["problems"]) == bool(lost)
