# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Power-cut scenarios for the store and audits, run by pytest AND by MicroPython.

Written in the subset both interpreters share; each ``scenario_*`` raises
AssertionError on failure and returns the number of power cuts it tried.
``tests/test_store.py`` runs them under CPython, ``tests/mpy/run_store.py``
under the MicroPython unix port. The flash and file-system models are
``nimatron_sim/flash.py`` (imported as ``flash``).
"""

from flash import FlashNvm, ModelFiles, Power, PowerCut
from nimatron.machine.audits import Audits
from nimatron.machine.reading import survey
from nimatron.machine.store import AUDITS, COMPACTED, SETTINGS, Store, crc32, encode, scan

SMALL = 1024  # compaction tests on a 1 KB sector: the same code path, a quarter of the steps
SETTINGS_RECORD = {"board": "pico-neopixel", "src": 7, "set": {"operator_pin": "2468", "preset": "drnim"}}


def played(n):
    """The audits record after ``n`` games won by the machine."""
    a = Audits()
    for _ in range(n):
        a.game_started("nimatron")
        a.game_ended("machine")
    return a.record()


def fresh(files=False, size=4096):
    power = Power()
    nvm = FlashNvm(size=size, power=power)
    model = ModelFiles(power) if files else None
    store = Store(nvm=nvm, path="/state.bin" if files else None, files=model)
    store.load()
    return store, nvm, model, power


def restart(nvm, model, keep_renames=False):
    """A new store on what survived the cut, as the next power-up finds it."""
    nvm2 = FlashNvm(nvm.data, len(nvm.data))
    files = model.after_cut(keep_renames) if model is not None else None
    store = Store(nvm=nvm2, path="/state.bin" if files is not None else None, files=files)
    return store, store.load()


def games_in(found):
    if found["audits"] is None:
        return None
    return Audits(found["audits"])["games"]


def scenario_crc32_is_zlibs():
    # zlib.crc32 check values: b"" -> 0, b"123456789" -> 0xCBF43926
    assert crc32(b"") == 0
    assert crc32(b"123456789") == 0xCBF43926
    assert crc32(b"The quick brown fox jumps over the lazy dog") == 0x414FA339
    return 0


def scenario_records_round_trip_and_a_flipped_bit_is_never_used():
    raw = encode(AUDITS, 5, {"l": [1, 2]})
    records, tail, clean, damaged = scan(raw + b"\xff" * 20)
    assert clean and tail == len(raw)
    assert [(r[0], r[1], r[2]) for r in records] == [(AUDITS, 5, {"l": [1, 2]})]
    tried = 0
    for i in range(len(raw)):
        for bit in (1, 128):
            bad = bytearray(raw)
            bad[i] ^= bit
            records, tail, clean, damaged = scan(bytes(bad) + b"\xff" * 20)
            if i == 0:  # the commit mark is not the record's content: still whole
                assert len(records) == 1 and records[0][2] == {"l": [1, 2]}, (i, bit)
            else:
                assert records == [] and damaged == 1, (i, bit)
            tried += 1
    return tried


def scenario_audits_survive_a_restart_and_service_clears_only_its_own():
    store, nvm, model, power = fresh()
    audits = Audits(store=store)
    audits.power_up("power_on")
    audits.game_started("nimatron")
    audits.game_ended("visitor")
    audits.game_started("21")
    audits.count("stuck_buttons")
    audits.game_ended("abandoned")
    store, found = restart(nvm, model)
    again = Audits(found["audits"], store)
    assert again["games"] == 2 and again["visitor_wins"] == 1 and again["abandoned"] == 1
    assert again["stuck_buttons"] == 1 and again["power_ups"] == 1 and again["power_on_resets"] == 1
    assert again.presets["21"]["abandoned"] == 1 and again.presets["nimatron"]["visitor_wins"] == 1
    assert again.clear_service()
    store, found = restart(store.nvm, None)
    third = Audits(found["audits"])
    assert third["games"] == 0 and third.presets == {}
    assert third.lifetime["games"] == 2 and third.lifetime["visitor_wins"] == 1
    return 0


def scenario_a_sector_full_of_games_compacts_and_keeps_both_kinds():
    store, nvm, model, power = fresh()
    assert store.save_settings(SETTINGS_RECORD)
    for n in range(1, 200):
        assert store.save_audits(played(n))
    assert store.erases >= 3 and nvm.erases == store.erases  # about 70 games a sector
    store, found = restart(nvm, model)
    assert games_in(found) == 199 and found["settings"] == SETTINGS_RECORD
    assert found["problems"] == []
    return 0


def _torn(make, save, files, cuts, size=4096):
    """Cut the power at every step of ``save`` on a store built by ``make``;
    the restart must find the last complete record (before or after), and
    the machine must carry on writing after it."""
    template, nvm0, model0, power0 = fresh(files, size)
    before = make(template)
    tried = 0
    lost = 0
    step = 0
    while True:
        power = Power(step)
        nvm = FlashNvm(nvm0.data, size, power=power)
        model = model0.clone(power) if files else None
        store = Store(nvm=nvm, path="/state.bin" if files else None, files=model)
        store.load()
        try:
            save(store, before)
            finished = True
        except PowerCut:
            finished = False
        for keep in (False, True) if files else (False,):
            again, found = restart(nvm, model, keep)
            games = games_in(found)
            if games is None and found["settings"] is None and not files:
                lost += 1  # the erase window with no second store: a factory start, said so at boot
            elif games is None or found["settings"] != SETTINGS_RECORD:
                # A compaction cut while its records were programmed: what is gone
                # is named at boot (why, the alarm, data_losses), never silent.
                assert not files, (step, "the file should have kept it")
                assert [p for p in found["problems"] if "cut short" in p or "damaged" in p], (step, found)
                assert games in (None, before, before + 1), (step, games)
                lost += 1
            else:
                assert games in (before, before + 1), (step, games)
                if finished:
                    assert games == before + 1
            if step % 8 == 0 or finished:  # carries on writing after the cut
                assert again.save_audits(played(50))
                assert games_in(restart(again.nvm, again.files)[1]) == 50
            tried += 1
        if finished:
            break
        step += 1
    cuts.append(tried)
    return lost


def _with_games(n):
    def make(store):
        assert store.save_settings(SETTINGS_RECORD)
        for k in range(1, n + 1):
            assert store.save_audits(played(k))
        return n

    return make


def _room_left(store):
    return len(store.nvm) - store.tail


def _next_game(store, before):
    return store.save_audits(played(before + 1))


def scenario_a_cut_at_every_byte_of_an_append_keeps_the_last_record():
    cuts = []
    lost = _torn(_with_games(3), _next_game, False, cuts)
    assert lost == 0  # an append never erases
    return cuts[0]


def _until_full(store):
    assert store.save_settings(SETTINGS_RECORD)
    n = 0
    while True:
        record = encode(AUDITS, 0, played(n + 1))
        if _room_left(store) < len(record) * 2:
            break
        n += 1
        assert store.save_audits(played(n))
    while _room_left(store) >= len(encode(AUDITS, 0, played(n + 1))):
        n += 1
        assert store.save_audits(played(n))
    assert store.erases == 0
    return n


def scenario_a_cut_at_every_step_of_a_compaction_with_a_file_keeps_the_last_record():
    cuts = []
    _torn(_until_full, _next_game, True, cuts, SMALL)
    return cuts[0]


def scenario_a_cut_during_a_compaction_without_a_file_loses_all_or_nothing():
    cuts = []
    lost = _torn(_until_full, _next_game, False, cuts, SMALL)
    assert 0 < lost < cuts[0]  # the erase window and the programming after it: reported, never garbage
    return cuts[0]


def scenario_a_cut_at_every_step_of_the_file_method_keeps_the_last_record():
    cuts = []
    tried = 0
    step = 0
    while True:
        power = Power()
        files = ModelFiles(power)
        store = Store(path="/state.bin", files=files)
        store.load()
        assert store.save_settings(SETTINGS_RECORD)
        assert store.save_audits(played(1))
        power.steps = 0
        power.cut_at = step
        try:
            store.save_audits(played(2))
            finished = True
        except PowerCut:
            finished = False
        for keep in (False, True):
            again = Store(path="/state.bin", files=files.after_cut(keep))
            found = again.load()
            assert games_in(found) in ((2,) if finished else (1, 2)), (step, keep)
            assert found["settings"] == SETTINGS_RECORD
            tried += 1
        if finished:
            break
        step += 1
    cuts.append(tried)
    return tried


def scenario_the_file_store_alone_survives_restarts():
    files = ModelFiles()
    store = Store(path="/state.bin", files=files)
    assert store.load()["audits"] is None
    for n in (1, 2, 3):
        assert store.save_audits(played(n))
    assert store.save_settings(SETTINGS_RECORD)
    found = Store(path="/state.bin", files=files.after_cut()).load()
    assert games_in(found) == 3 and found["settings"] == SETTINGS_RECORD
    return 0


def scenario_garbage_in_nvm_is_never_used_and_the_next_write_cleans_it():
    nvm = FlashNvm(b"\x4e\x41\x05\x00garbage" + b"\x00" * 10 + b"\xff" * 4074)
    store = Store(nvm=nvm)
    found = store.load()
    assert found["audits"] is None and found["settings"] is None and found["problems"]
    assert store.save_audits(played(1)) and store.erases == 1
    assert games_in(Store(nvm=FlashNvm(nvm.data)).load()) == 1
    return 0


def scenario_factory_reset_forgets_settings_not_audits():
    store, nvm, model, power = fresh()
    store.save_settings(SETTINGS_RECORD)
    store.save_audits(played(3))
    assert store.factory_reset()
    found = restart(nvm, model)[1]
    assert found["settings"] == {"factory": True} and games_in(found) == 3
    return 0


def scenario_a_settings_write_is_one_record_not_a_sector():
    store, nvm, model, power = fresh()
    store.save_settings(SETTINGS_RECORD)
    before = nvm.programmed
    for _k in range(5):
        store.save_settings(SETTINGS_RECORD)
    assert nvm.erases == 0 and nvm.programmed - before <= 5 * len(encode(SETTINGS, 1, SETTINGS_RECORD))
    return 0


def _losses(make, save, size=4096):
    """Cut the power at every step of ``save`` on a full ``size`` sector with
    no second store; (cuts, kept, reported) where each restart either kept
    the last acknowledged state or reported what it lost. A loss that is
    neither is a silent one: AssertionError."""
    template, nvm0, _, _ = fresh(False, size)
    before = make(template)
    settings_before = template.latest.get(SETTINGS) is not None
    cuts = kept = reported = 0
    step = 0
    import gc

    while True:
        gc.collect()  # hundreds of sectors in one process: a small MicroPython heap fragments
        nvm = FlashNvm(nvm0.data, size, power=Power(step))
        store = Store(nvm=nvm)
        store.load()
        try:
            save(store, before)
            finished = True
        except PowerCut:
            finished = False
        _, found = restart(nvm, None)
        games = games_in(found)
        intact = games in (before, before + 1) and (found["settings"] is not None) == settings_before
        if intact:
            kept += 1
        elif games is None and found["settings"] is None and not found["problems"]:
            reported += 1  # the erase window: nothing at all, a factory start that says so
        else:
            assert found["problems"], (step, "silent loss", games, found["settings"])
            reported += 1
        cuts += 1
        if finished:
            break
        step += 1
    return cuts, kept, reported


def _full_of_games(store):
    n = _until_full(store)
    return n


def _next_settings(store, before):
    assert store.save_settings({"board": "pico-neopixel", "src": 8, "set": {"preset": "marienbad"}})


def scenario_every_cut_of_a_compaction_by_audits_on_4k_is_kept_or_reported():
    cuts, kept, reported = _losses(_full_of_games, _next_game)
    assert cuts > 150 and kept and reported
    return cuts


def scenario_every_cut_of_a_compaction_by_a_settings_save_on_4k_is_kept_or_reported():
    cuts, kept, reported = _losses(_full_of_games, _next_settings)
    assert cuts > 150 and kept and reported
    return cuts


def _unclean_tail(store):
    n = 3
    assert store.save_settings(SETTINGS_RECORD)
    for i in range(1, n + 1):
        assert store.save_audits(played(i))
    tail = store.tail
    store.nvm.data[tail : tail + 5] = b"\x00\x13\x37\x00\x00"  # garbage after the last record
    store.loaded = None
    store.load()
    assert not store.clean
    return n


def scenario_every_cut_of_a_compaction_after_an_unclean_tail_is_kept_or_reported():
    cuts, kept, reported = _losses(_unclean_tail, _next_game)
    assert cuts > 100 and kept
    return cuts


def scenario_every_single_bit_flip_loses_at_most_the_damaged_record():
    """A real image (settings, then games one record each); every bit of it
    flipped in turn: the newest state survives unless the flip hit that very
    record, and then the one before it is used and the damage is reported:
    the newest record too, which an older store took for a torn append
    (damage at rest: 822 of 9,328 flips were silent). A flip in a commit
    mark (a record's first byte) leaves the record whole."""
    store, nvm, _, _ = fresh()
    assert store.save_settings(SETTINGS_RECORD)
    last = 12
    for n in range(1, last + 1):
        assert store.save_audits(played(n))
    image = bytes(nvm.data[: store.tail])
    ends = []
    pos = 0
    records, _, _, _ = scan(image)
    for r in records:
        ends.append((pos, pos + len(r[3]), r))
        pos += len(r[3])
    flips = 0
    import sys

    every = 5 if sys.implementation.name == "micropython" else 1  # a sample there: the same code
    for i in range(0, len(image), every):
        hit = [e for e in ends if e[0] <= i < e[1]][0]
        kind, seq = hit[2][0], hit[2][1]
        for bit in range(8):
            bad = bytearray(nvm.data)
            bad[i] ^= 1 << bit
            found = Store(nvm=FlashNvm(bad)).load()
            games = games_in(found)
            if i == hit[0]:  # the commit mark: the record is still whole
                assert games == last and found["settings"] == SETTINGS_RECORD and not found["problems"], (i, bit)
            elif kind == SETTINGS:
                assert games == last, (i, bit, games)
                assert found["settings"] is None and found["problems"], (i, bit)
                assert "settings" in found["lost"], (i, bit, found["lost"])
            elif seq == ends[-1][2][1]:
                assert games == last - 1 and found["problems"], (i, bit, games, "silent")
                assert "audits" in found["lost"], (i, bit, found["lost"])
            else:
                assert games == last and found["settings"] == SETTINGS_RECORD, (i, bit, games)
                assert found["problems"], (i, bit, "damage not reported")
            flips += 1
    return flips


def _pi_file(files):
    """A Pi's state file: settings with a PIN, 3 games; (store, bytes)."""
    store = Store(path="/state.bin", files=files)
    store.load()
    assert store.save_settings(SETTINGS_RECORD)
    assert store.save_audits(played(3))
    return store, files.read("/state.bin")


def _file_found(data):
    files = ModelFiles()
    files.create("/state.bin", data)
    files.fsync("/state.bin")
    files.fsync_dir("/state.bin")
    return Store(path="/state.bin", files=files).load()


def scenario_damage_that_spans_records_names_every_kind_it_may_have_lost():
    """Damage that spans (issue 46): one bit in each of two records, a file cut at
    its record boundary, a blank or empty file, an audits record of another shape;
    each names every kind it may have lost, on the Pi file and on a sector."""
    store, data = _pi_file(ModelFiles())
    records, starts, _, _, _ = survey(data, False)
    assert [r[0] for r in records] == [COMPACTED, AUDITS, SETTINGS]  # the index, then the records
    tried = 0
    for at in (starts[1] + 12, starts[2] + 12):
        for other in (starts[1] + 20, starts[2] + 20):
            bad = bytearray(data)
            bad[at] ^= 2
            bad[other] ^= 64
            found = _file_found(bytes(bad))
            for name in ("settings", "audits"):
                if found[name] is None:
                    assert name in found["lost"], (at, other, name)
            assert found["problems"]
            tried += 1
    for cut in (starts[2], starts[1], 0):  # at each record boundary, and empty
        found = _file_found(data[:cut])
        assert "settings" in found["lost"] and found["problems"], cut
        tried += 1
    found = _file_found(b"\xff" * len(data))
    assert found["lost"] == ["audits", "settings"] and found["problems"]
    odd = encode(AUDITS, 9, {"l": {"games": 3}})
    found = _file_found(encode(COMPACTED, 9, {"has": {"A": 9}}) + odd)
    assert found["audits"] is None and found["lost"] == ["audits"] and "never as zeros" in found["problems"][-1]
    store, nvm, _, _ = fresh()
    assert store.save_settings(SETTINGS_RECORD)
    for n in range(1, 4):
        assert store.save_audits(played(n))
    records, starts, tail, _, _ = survey(bytes(nvm.data))
    bad = bytearray(nvm.data)
    bad[starts[-2] + 3] ^= 1  # the last two records, one bit each: the kind of neither is told
    bad[starts[-1] + 3] ^= 1
    found = Store(nvm=FlashNvm(bad)).load()
    assert found["lost"] == ["audits", "settings"] and found["problems"]
    return tried + 3
