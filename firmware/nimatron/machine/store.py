# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Settings and audits that survive power cuts, written as real flash fails.

    store = Store(nvm=microcontroller.nvm)              # a CircuitPython board
    store = Store(path="/var/lib/nimatron/state.bin")   # a Raspberry Pi
    found = store.load()       # {"settings": dict|None, "audits": dict|None, "problems": [...]}
    store.save_audits(audits.record())                 # True once durable
    store.save_settings({"board": ..., "src": ..., "set": {...}})
    store.factory_reset()      # forget SET changes (audits stay: lifetime ones are never cleared)

A record is ``00 6E kind len:2 seq:4 payload crc:4`` (little-endian): a
commit mark programmed after the rest (``reading.survey``), ``kind`` ``S``
(settings) or ``A`` (audits), a JSON payload, a sequence number that grows
with every record, and a CRC-32 over the header and payload. Recovery
takes, per kind, the valid record with the highest sequence number; a
record failing its checksum is never used. Records of older versions
(``4E kind len seq payload crc``, no mark) are read too.

On ``nvm`` (RP2040: one 4 KB flash sector; a write into still-blank 0xFF
bytes only programs them, any other write erases and rewrites the whole
sector) records are appended into the blank tail, so a power cut mid-write
tears only the new record. When the sector is full (or holds something
unreadable) it is compacted: the latest record of each kind rewritten from
offset 0, one erase. A cut during that erase loses the sector, so when a
``path`` is given as well the same records are first written to that file
(atomically) and the erase is survivable. Without ``nvm`` the file holds
the state and is replaced on every save: temporary file, fsync, rename,
fsync of the folder.

``files`` is the file-system port (``files.OsFiles`` by default): ``read``,
``create``, ``fsync``, ``rename``, ``fsync_dir``, ``remove``; tests pass
a model that loses what a power cut would.
"""

from .. import const
from .. import forget
from .records import (  # noqa: F401 - the record's names, where the store's users have always found them
    AUDITS,
    BLANK,
    COMMIT,
    COMPACTED,
    KINDS,
    MAGIC,
    MAGIC2,
    MAX_PAYLOAD,
    SCANNED,
    SETTINGS,
    _blank,
    _u32,
    body_of,
    crc32,
    encode,
    renumbered,
    seq_of,
)

_SEQ_RENUMBER = const(0xFFFF0000)  # sequence numbers this high are renumbered from 1 at the next save
_ERASES_PER_DAY = const(12)  # nvm wear limit: 100,000 cycles last 22.8 years at this rate
_ERASES_BURST = const(8)  # ... with this many at once (a busy day) before the limit bites
RETRY_MS = 30000  # a failed save is tried again this often
_DAY_MS = const(86400000)
READ_ONLY = ("machine.reading",)  # needed only while a store loads: dropped from a board's heap after
ERASE_MS = _DAY_MS // _ERASES_PER_DAY  # the time that earns one erase (integers: a board's floats are short)
_ROOM_SLACK = const(64)  # bytes a record may grow by before its next save (counts gain digits)


def short(e, limit=120):
    """An exception in one line of at most ``limit`` characters (and "..."):
    what a failed save says, and the start's notes."""
    text = "%s: %s" % (type(e).__name__, e)
    return text if len(text) <= limit else text[:limit] + "..."


def scan(buf):
    """Records in ``buf``: (records, tail, clean, damaged) (``reading.scan``)."""
    from .reading import scan

    return scan(buf)


class Store:
    """Latest settings and audits records on ``nvm`` and/or a file at ``path``.

    A save that fails (a full or read-only disk, an I/O error) never raises:
    the records stay in memory (``unsaved``), ``failing`` says why until a
    save succeeds, and ``tick`` tries again every ``RETRY_MS``. Once ``tick``
    has given it the time, the nvm is erased at most ``_ERASES_PER_DAY``
    (after a burst of ``_ERASES_BURST``): a save that would erase sooner
    waits in memory and ``_save`` returns the milliseconds until it is
    written, so no flood of games, NEWs or SETs can wear the sector out.
    """

    def __init__(self, nvm=None, path=None, files=None):
        self.nvm = nvm
        self.path = path
        if files is None and path:
            from .files import OsFiles  # only where a file is kept: a board with nvm alone never compiles it

            files = OsFiles()
        self.files = files
        self.seq = 0
        self.latest = {}  # kind -> raw record bytes, the newest known
        self.unsaved = []  # kinds whose newest record is not durable yet
        self.tail = 0  # where the next nvm record goes
        self.clean = True  # nvm readable up to its tail
        self.writes = 0  # records written (for the figures)
        self.erases = 0  # sector compactions
        self.unchanged = 0  # settings saves that matched what was stored: not written
        self.deferred = 0  # saves held back by the wear limit
        self.failure = None  # the last exception a write raised
        self.failing = None  # why saving fails, until a save succeeds
        self.retry_at = None  # when ``tick`` tries the unsaved records again
        self.now = None  # the machine's time, once ``tick`` has given it
        self.allowance = _ERASES_BURST * ERASE_MS  # ms earned towards erases (ERASE_MS each)
        self.loaded = None  # what load() found
        self.tidied = None  # ``seq`` when ``tidy`` last found room for the next records
        self.warnings = []  # faults at start that cost nothing, for ``load`` to say (``open_state``)
        # the sector's image for a compaction, taken now while the heap is whole: a long run's heap
        # may hold no free block as long as a sector, and then no save could ever be written again
        self.buffer = bytearray(len(nvm)) if nvm is not None else None

    # -- reading -----------------------------------------------------------
    def load(self):
        """The newest valid records: {"settings", "audits", "problems", "lost",
        "warnings"}; ``lost``: the kinds whose newest record may be among the
        damage (``reading.load``, imported for it and dropped again on a board);
        ``warnings``: faults that cost nothing but are said (a read tried
        again, a lock file rewritten): the file port's and ``self.warnings``
        (put there by whoever opened the store)."""
        from .reading import load

        try:
            out = load(self)
        finally:
            forget(READ_ONLY)
        files = self.files
        for name in getattr(files, "lost", ()):  # the nvm's own are read with its records (``reading``)
            if name not in out["lost"]:  # a file kept aside unread: every kind it held
                out["lost"].append(name)
        out["warnings"] = self.warnings + list(getattr(files, "warnings", ()))
        self.warnings = []
        if files is not None and getattr(files, "warnings", None):
            files.warnings = []
        return out

    # -- writing -----------------------------------------------------------
    def save_settings(self, record, urgent=False):
        return self._save(SETTINGS, record, urgent)

    def save_audits(self, record, urgent=False):
        return self._save(AUDITS, record, urgent)

    def factory_reset(self):
        """Forget every SET change: the next start uses the settings file or
        the board's defaults. Audits stay (lifetime ones are never cleared)."""
        return self._save(SETTINGS, {"factory": True})

    def _save(self, kind, payload, urgent=False):
        """Write one record: True once durable, False if it failed (kept in
        memory and retried), else the ms until the wear limit lets it be
        written. Never raises. Settings the store already holds are not
        written again (flash wears). ``urgent`` (a wrong PIN, which must be
        counted before the next is tried) passes the wear limit."""
        try:
            if self.loaded is None:
                self.load()  # never append blind: the sequence and the tail first
            if self.seq >= _SEQ_RENUMBER:
                self._renumber()
            raw = encode(kind, self.seq + 1, payload)
            if (
                kind == SETTINGS
                and kind in self.latest
                and not self.unsaved
                and body_of(self.latest[kind]) == body_of(raw)
            ):
                self.unchanged += 1
                return True
        except Exception as e:  # a record too long: said, never raised
            return self._failed(e)
        self.seq += 1
        self.latest[kind] = raw
        if kind not in self.unsaved:
            self.unsaved.append(kind)
        return self.flush(urgent)

    def flush(self, urgent=False):
        """Write the records not yet durable; as ``_save``."""
        if not self.unsaved:
            return True
        try:
            wait = self._held_back(urgent)
            if wait:
                self.deferred += 1
                self.retry_at = self.now + wait
                return wait
            if self.nvm is not None:
                for kind in KINDS:
                    if kind in self.unsaved and kind in self.latest:
                        self.writes += 1
                        if self._append(self.latest[kind]):
                            break  # the compaction wrote them all
            else:
                self._write_file()
                self.writes += 1
        except Exception as e:  # a full or broken store must not stop the game
            return self._failed(e)
        self.unsaved = []
        self.failing = None
        self.retry_at = None
        return True

    def tick(self, now):
        """The machine's time: the wear allowance grows, waiting records are
        written when it allows and failed ones tried again every ``RETRY_MS``."""
        if self.now is not None and now > self.now:
            self.allowance += now - self.now
            if self.allowance > _ERASES_BURST * ERASE_MS:
                self.allowance = _ERASES_BURST * ERASE_MS
        elif self.now is not None and now < self.now and self.retry_at is not None:
            # the machine's clock went back (a restart of its count): the wait keeps its length,
            # never the old clock's deadline (a save held back for as long as the clock fell)
            self.retry_at -= self.now - now
        self.now = now
        if self.unsaved and (self.retry_at is None or now >= self.retry_at):
            self.flush()

    def roomy(self):
        """The blank tail holds the next record of each kind: the next saves
        only program blank bytes (a page takes 0.4 ms, 3 at most), no erase."""
        nvm = self.nvm
        if nvm is None or self.loaded is None:
            return True
        end = self.tail
        for kind in KINDS:
            if kind in self.latest:
                end += len(self.latest[kind]) + _ROOM_SLACK
        return self.clean and end <= len(nvm) and _blank(nvm, self.tail, end)

    def tidy(self):
        """A quiet moment, nobody playing (after ``tick``): compact now if the
        next saves would need the erase (a 4 KB sector: 45 ms, up to 400 ms
        on a Pico's flash, with the board stopped), so it never falls on a
        visitor's move or a game's end. Within the wear limit; never raises.
        True if it erased. Asked every quiet pass: the sector is looked at
        again only once something was written (``seq`` moved)."""
        if self.nvm is None or self.unsaved or self.tidied == self.seq:
            return False
        if self.roomy():
            self.tidied = self.seq
            return False
        if self.allowance < ERASE_MS:
            return False
        try:
            self._compact()
        except Exception as e:  # as a save's: said, tried again at the next save
            self._failed(e)
            return False
        return True

    def _failed(self, e):
        self.failure = e
        self.failing = short(e)
        self.retry_at = (self.now or 0) + RETRY_MS
        return False

    def _held_back(self, urgent):
        """ms until the wear limit allows the erase these records need (0: now)."""
        if self.nvm is None or self.now is None or urgent or self.allowance >= ERASE_MS:
            return 0
        size = 0
        for kind in self.unsaved:
            size += len(self.latest[kind])
        end = self.tail + size
        if self.clean and end <= len(self.nvm) and _blank(self.nvm, self.tail, end):
            return 0  # appends into blank bytes: no erase
        return ERASE_MS - self.allowance

    def _renumber(self):
        """Sequence numbers near their end: the newest records from 1 again,
        written whole (an nvm compaction, or the file replaced)."""
        seq = 0
        for kind in KINDS:
            if kind in self.latest:
                seq += 1
                self.latest[kind] = renumbered(self.latest[kind], seq)
                if kind not in self.unsaved:
                    self.unsaved.append(kind)
        self.seq = seq
        self.clean = False  # the nvm must be compacted: older records hold higher numbers

    def _append(self, raw):
        """Program ``raw`` into the blank tail; True if a compaction wrote every kind instead."""
        nvm = self.nvm
        end = self.tail + len(raw)
        if self.clean and end <= len(nvm) and _blank(nvm, self.tail, end):
            # the record, then its commit mark (every record written is a new, marked one):
            # a cut between leaves no mark. Views: no copy of the record
            view = memoryview(raw)
            nvm[self.tail + 1 : end] = view[1:]
            nvm[self.tail : self.tail + 1] = view[:1]
            self.tail = end
            return False
        self._compact()
        return True

    def _image(self):
        """The records of a compacted sector or a state file, in order: a
        ``COMPACTED`` record naming the newest record of each kind (kind and
        sequence number), then those records, so that whatever cuts or damages
        it, ``reading`` knows which kinds it held and names each one lost
        (files written before the index are read too: every kind expected).
        A list of pieces, never joined on a board: each is one record."""
        out = []
        listed = {}
        for kind in KINDS:
            if kind in self.latest:
                raw = self.latest[kind]
                if raw[0] == MAGIC:  # an older version's record: commit-marked from now on
                    raw = self.latest[kind] = renumbered(raw, seq_of(raw))
                out.append(raw)
                listed[chr(kind)] = seq_of(raw)
        out.insert(0, encode(COMPACTED, self.seq, {"has": listed}))
        return out

    def _compact(self):
        """The newest record of each kind from offset 0: one sector erase.

        The image opens with a ``COMPACTED`` record naming the records that
        follow it (kind and sequence number): a power cut while they are
        programmed leaves them torn or blank, and ``load`` then says what
        was lost instead of starting quietly without it."""
        self.seq += 1
        image = self._image()
        if self.path:
            self._write_file()  # a cut during the erase below is then survivable
        # the sector laid out in the buffer taken at start, in place: no allocation as long as the
        # sector (a long run's heap may have no such block left), only the records' own views
        buf = memoryview(self.buffer)  # type: ignore[arg-type]  # a store with nvm has its buffer, and only such a store compacts
        size = len(buf)
        end = 0
        for raw in image:
            if end + len(raw) > size:
                raise ValueError("records do not fit in %d bytes of nvm" % size)
            buf[end : end + len(raw)] = raw
            end += len(raw)
        tail = end
        if end < size:
            buf[end] = BLANK
            end += 1
        while end < size:  # blank to the end, doubling what is blank already
            n = min(end - tail, size - end)
            buf[end : end + n] = buf[tail : tail + n]
            end += n
        try:
            self.nvm[0:size] = buf
        except Exception:
            # what the sector holds now is not known (the simulator's nvm held the new image while
            # its file write failed; the tail stayed at the old offset, and the next append landed
            # past the new records: a "damaged" sector at the next start): compact again next time
            self.clean = False
            raise
        self.erases += 1
        if self.now is not None:
            self.allowance -= ERASE_MS
        self.tail = tail
        self.clean = True

    def _write_file(self):
        """Temporary file, fsync, rename over the old one, fsync the folder."""
        files = self.files
        image = b"".join(self._image())
        tmp = self.path + ".tmp"
        for n in range(1, 5):  # STATE.tmp, then STATE.tmp1-3 when something not ours sits there
            try:
                files.create(tmp, image)
                break
            except OSError as e:
                # something ``create`` may not remove sits there (a folder planted at STATE.tmp once
                # failed every save until someone removed it): the next name, never the folder.
                # EEXIST, EISDIR: the same numbers on every port (no errno module needed)
                if getattr(e, "errno", None) not in (17, 21) or n == 4:
                    raise
                tmp = self.path + ".tmp" + str(n)
        files.fsync(tmp)
        files.rename(tmp, self.path)
        files.fsync_dir(self.path)
