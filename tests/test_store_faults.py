# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The store under every fault of its kinds, generated (docs/reliability.md, "The store under faults").

Kinds (../shared/guide/faults.md): *the file system refuses* (ENOSPC, EROFS,
EIO on create, fsync, rename or the folder's fsync; short writes),
*damage at rest* (a bit flipped anywhere in any record kind), *repetition*
and *sequence wrap*. Hypothesis draws sequences of games, SETs, wrong PINs,
faults switched on and off, bit flips and restarts, on a Pi's file store
and on a board's nvm; the one invariant: every acknowledged count and
setting survives a restart or the restart reports a loss, nothing crashes,
and a failing save is never silent (``failing`` says why while it fails).
``NIMATRON_STORE_EXAMPLES=2000`` runs a longer search (its figures are in
docs/reliability.md).
"""

import errno
import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "simulator", "nimatron_sim"))  # flash.py

from flash import FlashNvm, ModelFiles  # noqa: E402
from kit_disk import FaultFiles  # noqa: E402
from nimatron.machine.audits import Audits  # noqa: E402
from nimatron.machine.store import _SEQ_RENUMBER as SEQ_RENUMBER, Store, encode, scan  # noqa: E402

EXAMPLES = int(os.environ.get("NIMATRON_STORE_EXAMPLES", "60"))
OPS = ("create", "fsync", "rename", "fsync_dir")
ERRORS = (errno.ENOSPC, errno.EROFS, errno.EIO)


action = st.one_of(
    st.tuples(st.just("game"), st.sampled_from(("visitor", "machine", "abandoned"))),
    st.tuples(st.just("set"), st.sampled_from(("1200", "1500", "2000"))),
    st.tuples(st.just("pin"), st.just(None)),
    st.tuples(
        st.just("fault"), st.one_of(st.none(), st.tuples(st.sampled_from(OPS + ("short",)), st.sampled_from(ERRORS)))
    ),
    st.tuples(st.just("restart"), st.just(None)),
    st.tuples(st.just("flip"), st.tuples(st.integers(0, 1 << 16), st.integers(0, 7))),
)


class World:
    """A machine's store and audits with the model of what was acknowledged."""

    def __init__(self, board):
        self.board = board
        self.files = FaultFiles() if not board else None
        self.nvm = FlashNvm(size=1024) if board else None  # a small sector: compactions come often
        self.acked_games = 0  # games in the newest audits record a save said was durable
        self.acked_set = None  # the newest settings a save said was durable
        self.reported = False
        self.start()

    def start(self):
        self.store = Store(nvm=self.nvm, path=None if self.board else "/state.bin", files=self.files)
        found = self.store.load()
        self.found = found
        self.audits = Audits(found["audits"], self.store)
        return found

    def check_save(self, result):
        assert result is True or result is False or (isinstance(result, int) and result > 0)
        if result is False:
            assert self.store.failing, "a failed save must say why"
        elif result is True:
            assert self.store.failing is None and not self.store.unsaved

    def do(self, kind, arg):
        if kind == "game":
            self.audits.game_started("nimatron")
            result = self.audits.game_ended(arg)
            self.check_save(result)
            if result is True:
                self.acked_games = self.audits.lifetime["games"]
        elif kind == "set":
            record = {"board": "pi-leds", "src": 1, "set": {"think_ms": arg}}
            result = self.store.save_settings(record)
            self.check_save(result)
            if result is True:
                self.acked_set = record
        elif kind == "pin":
            self.audits.pin_failures += 1
            result = self.audits.save(urgent=True)
            self.check_save(result)
            if result is True:
                self.acked_games = self.audits.lifetime["games"]
        elif kind == "fault":
            if self.files is not None:
                self.files.fault = arg
        elif kind == "restart":
            if self.files is not None:
                self.files = self.files.restarted()
            else:
                self.nvm = FlashNvm(self.nvm.data, len(self.nvm.data))
            self.after_restart(self.start())
        elif kind == "flip":
            at, bit = arg
            if self.files is not None:
                data = self.files.read("/state.bin")
                if data:
                    bad = bytearray(data)
                    bad[at % len(bad)] ^= 1 << bit
                    self.files.data[self.files.names["/state.bin"]] = bytes(bad)
                    self.files.synced[self.files.names["/state.bin"]] = bytes(bad)
            else:
                written = self.store.tail
                if written:
                    self.nvm.data[at % written] ^= 1 << bit
            self.reported = False  # the next restart must report it (or keep everything)

    def after_restart(self, found):
        games = Audits(found["audits"])["games"] if found["audits"] else 0
        if found["problems"]:
            self.acked_games = min(self.acked_games, games)  # reported: what is left is the new truth
            if found["settings"] != self.acked_set:
                self.acked_set = found["settings"]
            return
        assert games >= self.acked_games, ("silent loss", games, self.acked_games)
        if self.acked_set is not None:
            assert found["settings"] is not None, "acknowledged settings lost in silence"
        self.acked_games = games
        self.acked_set = found["settings"]


@pytest.mark.parametrize("board", [False, True], ids=["pi-file", "board-nvm"])
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=st.lists(action, min_size=1, max_size=40))
def test_every_acknowledged_count_survives_or_is_reported(board, actions):
    world = World(board)
    for kind, arg in actions:
        world.do(kind, arg)
    world.do("fault", None)
    world.do("restart", None)


@pytest.mark.parametrize("op", OPS + ("short",))
@pytest.mark.parametrize("code", ERRORS)
def test_a_refusing_disk_is_loud_and_the_records_are_written_when_it_recovers(op, code):
    """Every operation refusing with every error: the save says False and why,
    the records wait in memory, the retry after the disk recovers writes them."""
    world = World(False)
    world.do("game", "machine")
    world.files.fault = (op, code)
    for _ in range(10):  # ten games on a full disk
        world.audits.game_started("nimatron")
        assert world.audits.game_ended("visitor") is False
    assert os.strerror(code) in world.store.failing and world.store.unsaved
    world.store.tick(0)
    world.store.tick(40000)  # a retry while it still fails: still loud
    assert world.store.failing
    world.files.fault = None
    world.store.tick(80000)  # the retry after it recovers
    assert world.store.failing is None and not world.store.unsaved
    found = Store(path="/state.bin", files=world.files.restarted()).load()
    assert Audits(found["audits"])["games"] == 11 and not found["problems"]


@pytest.mark.parametrize("kind", ["settings", "audits"])
def test_every_bit_of_every_record_kind_flipped_on_a_file_is_reported(kind):
    """A Pi's file is replaced whole, so no byte of it is a torn append: a flip
    anywhere in it that changes what it holds is a reported loss (520 of 888
    were silent when the last record was taken for one)."""
    files = ModelFiles()
    store = Store(path="/state.bin", files=files)
    store.load()
    store.save_audits({"l": [5, 5]})
    store.save_settings({"board": "pi-leds", "src": 1, "set": {"operator_pin": "2468"}})
    image = files.read(
        "/state.bin"
    )  # a file holds no C record: those are the nvm's (every flip of it: store_scenarios)
    records, _, _, _ = scan(image)
    want = {"settings": 0x53, "audits": 0x41}[kind]
    start = 0
    for r in records:
        if r[0] == want:
            break
        start += len(r[3])
    raw = [r for r in records if r[0] == want][0][3]
    silent = 0
    for i in range(start, start + len(raw)):
        for bit in range(8):
            bad = bytearray(image)
            bad[i] ^= 1 << bit
            f2 = ModelFiles()
            f2.create("/state.bin", bytes(bad))
            f2.fsync("/state.bin")
            f2.fsync_dir("/state.bin")
            found = Store(path="/state.bin", files=f2).load()
            intact = found["audits"] == {"l": [5, 5]} and found["settings"] == {
                "board": "pi-leds",
                "src": 1,
                "set": {"operator_pin": "2468"},
            }
            if not intact and not found["problems"]:
                silent += 1
            if i > start and not intact:
                assert kind in found["lost"], (i, bit, found["lost"])
    assert silent == 0


@pytest.mark.parametrize("board", [False, True], ids=["pi-file", "board-nvm"])
def test_sequence_numbers_at_their_end_are_renumbered_and_saves_go_on(board):
    """A newest record at seq 0xFFFFFFFF once made every later save lose to it, for ever."""
    planted = encode(0x53, 0xFFFFFFFE, {"board": "pi-leds", "src": 1, "set": {}}) + encode(0x41, 0xFFFFFFFF, {"l": [1]})
    nvm = FlashNvm(planted + b"\xff" * (4096 - len(planted))) if board else None
    files = None
    if not board:
        files = ModelFiles()
        files.create("/state.bin", planted)
        files.fsync("/state.bin")
        files.fsync_dir("/state.bin")
    again = Store(nvm=nvm, path=None if board else "/state.bin", files=files)
    assert again.load()["audits"] == {"l": [1]} and again.seq >= SEQ_RENUMBER
    for n in (2, 3):
        assert again.save_audits({"l": [n]}) is True
        last = Store(
            nvm=FlashNvm(again.nvm.data) if board else None,
            path=None if board else "/state.bin",
            files=None if board else again.files.after_cut(),
        )
        found = last.load()
        assert found["audits"] == {"l": [n]} and found["settings"]["board"] == "pi-leds" and last.seq < 100


def test_the_wear_limit_holds_any_flood_to_its_erases_a_day():
    """Repetition: 10,000 saves in one virtual day erase the sector at most
    ERASES_PER_DAY + ERASES_BURST times; the counts wait in memory, and the
    last one is written when the allowance comes."""
    from nimatron.machine.store import (
        _DAY_MS as DAY_MS,
        _ERASES_BURST as ERASES_BURST,
        _ERASES_PER_DAY as ERASES_PER_DAY,
    )

    nvm = FlashNvm()
    store = Store(nvm=nvm)
    store.load()
    audits = Audits(store=store)
    now = 0
    for _ in range(10000):
        store.tick(now)
        audits.game_started("nimatron")
        audits.game_ended("machine")
        now += DAY_MS // 10000
    assert nvm.erases <= ERASES_PER_DAY + ERASES_BURST
    store.tick(now + DAY_MS // 2)
    assert not store.unsaved
    found = Store(nvm=FlashNvm(nvm.data)).load()
    assert Audits(found["audits"])["games"] == 10000


def test_a_newer_versions_counters_and_keys_survive_a_downgrade():
    """Another version's record: counters past ours and keys we do not know are
    written back as they were, not dropped."""
    from nimatron.machine.audits import KEYS

    newer = {"l": list(range(1, len(KEYS) + 3)), "x": {"future": 1}}
    audits = Audits(newer)
    audits.game_started("nimatron")
    audits.game_ended("machine")
    record = audits.record()
    assert record["l"][len(KEYS) :] == newer["l"][len(KEYS) :] and record["x"] == {"future": 1}
    assert record["l"][0] == newer["l"][0] + 1
    assert audits.snapshot()["newer_lifetime"] == newer["l"][len(KEYS) :]


def test_an_older_versions_records_are_read_and_rewritten_commit_marked():
    """Records as 0.1 wrote them (no commit mark) load, and the next compaction marks them."""
    from nimatron.machine.store import MAGIC, _u32, crc32

    def old(kind, seq, body):
        head = bytes([MAGIC, kind]) + len(body).to_bytes(2, "little") + _u32(seq)
        return head + body + _u32(crc32(head + body))

    image = old(0x53, 1, b'{"board":"pi-leds","src":1,"set":{}}') + old(0x41, 2, b'{"l":[7]}')
    nvm = FlashNvm(image + b"\xff" * (4096 - len(image)))
    store = Store(nvm=nvm)
    found = store.load()
    assert found["audits"] == {"l": [7]} and not found["problems"]
    store._compact()
    records, _, clean, damaged = scan(bytes(nvm.data))
    assert clean and not damaged and all(r[3][0] == 0 for r in records)
    assert Store(nvm=FlashNvm(nvm.data)).load()["audits"] == {"l": [7]}
    assert encode(0x41, 1, {})[0] == 0  # every new record is commit-marked
