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

A record is ``4E kind len:2 seq:4 payload crc:4`` (little-endian): ``kind``
``S`` (settings) or ``A`` (audits), a JSON payload, a sequence number that
grows with every record, and a CRC-32 over everything before it. Recovery
takes, per kind, the valid record with the highest sequence number; a
record failing its checksum is never used.

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

``files`` is the file-system port (``OsFiles`` by default): ``read``,
``create``, ``fsync``, ``rename``, ``fsync_dir``, ``remove``; tests pass
a model that loses what a power cut would.
"""

import json

MAGIC = 0x4E      # a record as versions up to 0.2 wrote it: no commit mark
MAGIC2 = 0x6E     # "n": a record whose first byte is its commit mark
COMMIT = 0x00     # the commit mark, programmed after the rest of the record
SETTINGS = 0x53  # "S"
AUDITS = 0x41    # "A"
COMPACTED = 0x43  # "C": opens a compacted sector, naming the records that follow it
KINDS = (AUDITS, SETTINGS)  # a compaction programs the audits first: a cut then spares them
SCANNED = KINDS + (COMPACTED,)
HEADER = 8        # MAGIC kind len:2 seq:4 (a commit-marked record has one byte more in front)
TRAILER = 4
MAX_PAYLOAD = 2000  # a record must fit twice in a 4 KB sector
BLANK = 0xFF
SEQ_RENUMBER = 0xFFFF0000  # sequence numbers this high are renumbered from 1 at the next save
ERASES_PER_DAY = 12        # nvm wear limit: 100,000 cycles last 22.8 years at this rate
ERASES_BURST = 8           # ... with this many at once (a busy day) before the limit bites
RETRY_MS = 30000           # a failed save is tried again this often
DAY_MS = 86400000
ERASE_MS = DAY_MS // ERASES_PER_DAY  # the time that earns one erase (integers: a board's floats are short)

_CRC_TABLE = []


def crc32(data, crc=0):
    """CRC-32 (as zlib.crc32), by hand: binascii.crc32 is not on every board."""
    table = _CRC_TABLE
    if not table:
        for i in range(16):
            c = i
            for _ in range(4):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            table.append(c)
    crc ^= 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 15] ^ (crc >> 4)
        crc = table[(crc ^ (b >> 4)) & 15] ^ (crc >> 4)
    return crc ^ 0xFFFFFFFF


def _u32(n):
    return (n & 0xFFFFFFFF).to_bytes(4, "little")


def encode(kind, seq, payload):
    """One record: commit mark, header, JSON payload (a dict), CRC-32."""
    try:
        body = json.dumps(payload, separators=(",", ":")).encode()
    except TypeError:  # an older json without separators
        body = json.dumps(payload).encode()
    if len(body) > MAX_PAYLOAD:
        raise ValueError("record of %d bytes is too long to store" % len(body))
    return _sealed(kind, seq, body)


def _sealed(kind, seq, body):
    head = bytes([MAGIC2, kind]) + len(body).to_bytes(2, "little") + _u32(seq)
    return bytes([COMMIT]) + head + body + _u32(crc32(head + body))


def _start(raw):
    """Where a record's header starts: after its commit mark, if it has one."""
    return 0 if raw[0] == MAGIC else 1


def seq_of(raw):
    at = _start(raw) + 4
    return int.from_bytes(raw[at:at + 4], "little")


def body_of(raw):
    return raw[_start(raw) + HEADER:-TRAILER]


def renumbered(raw, seq):
    """The same record (any version's) under a new sequence number, commit-marked."""
    at = _start(raw)
    return _sealed(raw[at + 1], seq, bytes(raw[at + HEADER:-TRAILER]))


def _record_at(buf, pos):
    """(kind, seq, payload or None, raw, end) of a whole record at ``pos``, or
    None if no header can start there; ``payload`` None if its checksum fails."""
    n = len(buf)
    if pos < n and buf[pos] == MAGIC:
        at = pos
    elif pos + 1 < n and buf[pos + 1] == MAGIC2:
        at = pos + 1
    else:
        return None
    if at + HEADER + TRAILER > n or buf[at + 1] not in SCANNED:
        return None
    length = buf[at + 2] | (buf[at + 3] << 8)
    end = at + HEADER + length + TRAILER
    if length > MAX_PAYLOAD or end > n:
        return None
    raw = bytes(buf[pos:end])
    inner = raw[at - pos:]
    payload = None
    if crc32(inner[:-TRAILER]) == int.from_bytes(inner[-TRAILER:], "little"):
        try:
            payload = json.loads(inner[HEADER:-TRAILER])
        except ValueError:
            payload = None
        if not isinstance(payload, dict):
            payload = None
    return buf[at + 1], int.from_bytes(inner[4:8], "little"), payload, raw, end


def _kind_at(buf, pos):
    """The kind a damaged place held: AUDITS only when its kind byte says so
    (one flipped bit turns no other kind into it), else None: settings or audits."""
    at = pos if buf[pos] == MAGIC else pos + 2
    if at < len(buf) and buf[at] == AUDITS and (buf[pos] == MAGIC or buf[pos + 1] == MAGIC2):
        return AUDITS
    return None


def scan(buf):
    """Records in ``buf``: (records, tail, clean, damaged); see ``survey``."""
    records, starts, tail, clean, lost = survey(buf)
    return records, tail, clean, len(lost)


def survey(buf, appends=True):
    """Records in ``buf``: (records, starts, tail, clean, lost).

    ``records``: (kind, seq, payload dict, raw bytes) of every record whose
    checksum holds, ``starts`` the byte each begins at; ``tail``: where the next record would go; ``clean``:
    False if unreadable bytes were met (the next write compacts); ``lost``:
    (byte, kind or None) of every place where something acknowledged was
    lost (a record damaged at rest, a half-erased sector, a compaction cut
    short), the kind None when it cannot be told (settings or audits).

    Past unreadable bytes the scan searches on for the next whole record,
    so a flipped bit hides only its own record. A record is acknowledged
    once its commit mark (its first byte, programmed after the rest) is
    set: a record without one at the very end is an append the power cut
    short, never acknowledged, and nothing is counted; with ``appends``
    False (a file, replaced whole) nothing is ever half-written, and every
    unreadable byte is a loss.
    """
    records = []
    starts = []
    lost = []
    n = len(buf)
    pos = 0
    bad_at = None  # the first unreadable byte since the last whole record
    while pos < n:
        found = _record_at(buf, pos)
        if found is not None and found[2] is not None:
            if bad_at is not None:
                lost.append((bad_at, _kind_at(buf, bad_at)))
                bad_at = None
            kind, seq, payload, raw, end = found
            records.append((kind, seq, payload, raw))
            starts.append(pos)
            pos = end
            continue
        if bad_at is None:
            if buf[pos] == BLANK and _blank(buf, pos):
                break  # the blank tail
            bad_at = pos
        pos += 1
    if bad_at is None:
        return records, starts, pos, True, lost
    if appends:
        torn = _record_at(buf, bad_at)
        first = buf[bad_at]
        if first == BLANK and bad_at + 1 < n and buf[bad_at + 1] == MAGIC2:
            # A record never committed: the power failed while it was programmed.
            if torn is not None and _blank(buf, torn[4]):
                return records, starts, torn[4], True, lost  # appends go on after it
            if _blank(buf, bad_at + 1 + HEADER):
                return records, starts, bad_at, False, lost  # its header torn: compacted at the next write
        elif first == MAGIC and torn is not None and records and torn[0] != COMPACTED and _blank(buf, torn[4]):
            return records, starts, torn[4], True, lost  # an older version's torn append
    lost.append((bad_at, _kind_at(buf, bad_at)))
    return records, starts, bad_at, False, lost


NAMES = {AUDITS: "audits", SETTINGS: "settings"}


def _cut_compaction(records):
    """Problems if the newest compaction's records are not all there."""
    newest = None
    for kind, seq, payload, raw in records:
        if kind == COMPACTED and (newest is None or seq > newest[0]):
            newest = (seq, payload)
    if newest is None or not isinstance(newest[1].get("has"), dict):
        return []
    have = {}
    for kind, seq, payload, raw in records:
        if kind != COMPACTED and seq >= have.get(kind, -1):
            have[kind] = seq
    lost = []
    for kind in KINDS:
        want = newest[1]["has"].get(chr(kind))
        if isinstance(want, int) and have.get(kind, -1) < want:
            lost.append(NAMES[kind])
    return lost


def _blank(buf, start=0, end=None):
    """All of ``buf[start:end]`` blank (0xFF), without copying it."""
    for i in range(start, len(buf) if end is None else end):
        if buf[i] != BLANK:
            return False
    return True


def _losses(where, records, starts, lost, problems, kinds):
    """Say each lost place; add to ``kinds`` what may be gone with it: a
    kind with no whole record stored after the damage may have lost its newest."""
    for at, kind in lost:
        what = NAMES[kind] if kind is not None else "settings or audits"
        problems.append("%s: a saved %s record at byte %d is damaged (flipped bits, a half-erased sector or "
                        "another version's data): what it held is lost" % (where, what, at))
        for k in KINDS:
            if kind is not None and kind != k:
                continue
            later = False
            for i in range(len(records)):
                if starts[i] > at and records[i][0] == k:
                    later = True
            if not later and NAMES[k] not in kinds:
                kinds.append(NAMES[k])


def _write_all(os, fd, data):
    """``os.write`` until every byte is written (it may write fewer)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class OsFiles:
    """The file-system port on ``os``: CPython, MicroPython and CircuitPython.

    ``create`` never follows a link and never writes into a file it did not
    make (another writer: a link planted at ``STATE.tmp`` once had a foreign
    file overwritten). ``notes`` are losses found before the store opened
    (a damaged file kept aside), for ``load`` to report with its own.
    """

    def __init__(self, os_module=None):
        if os_module is None:
            import os as os_module
        self.os = os_module
        self.notes = []

    def read(self, path):
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError:
            return None

    def create(self, path, data):
        """A new file at ``path`` holding ``data``: whatever was there (a stale
        temporary file, a planted link) is removed first (a link itself, never
        its target), then the file is made exclusively, without following links."""
        os = self.os
        if not hasattr(os, "open") or not hasattr(os, "O_EXCL"):
            with open(path, "wb") as f:  # a board's drive: FAT has no links, one program writes it
                f.write(data)
                f.flush()
            return
        try:
            os.remove(path)
        except OSError:
            pass
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(path, flags, 0o666)
        try:
            _write_all(os, fd, data)
        finally:
            os.close(fd)

    def fsync(self, path):
        fsync = getattr(self.os, "fsync", None)
        if fsync is None:
            sync = getattr(self.os, "sync", None)  # CircuitPython: the whole drive
            if sync is not None:
                sync()
            return
        fd = self.os.open(path, self.os.O_RDONLY)
        try:
            fsync(fd)
        finally:
            self.os.close(fd)

    def rename(self, src, dst):
        if hasattr(self.os, "replace"):
            self.os.replace(src, dst)
            return
        try:  # FAT (CircuitPython) will not rename onto an existing file
            self.os.remove(dst)
        except OSError:
            pass
        self.os.rename(src, dst)

    def fsync_dir(self, path):
        if not hasattr(self.os, "O_DIRECTORY"):
            return self.fsync(path)
        cut = path.rfind("/")
        folder = path[:cut] if cut > 0 else ("/" if cut == 0 else ".")
        fd = self.os.open(folder, self.os.O_RDONLY | self.os.O_DIRECTORY)
        try:
            self.os.fsync(fd)
        finally:
            self.os.close(fd)

    def remove(self, path):
        try:
            self.os.remove(path)
        except OSError:
            pass


class Store:
    """Latest settings and audits records on ``nvm`` and/or a file at ``path``.

    A save that fails (a full or read-only disk, an I/O error) never raises:
    the records stay in memory (``unsaved``), ``failing`` says why until a
    save succeeds, and ``tick`` tries again every ``RETRY_MS``. Once ``tick``
    has given it the time, the nvm is erased at most ``ERASES_PER_DAY``
    (after a burst of ``ERASES_BURST``): a save that would erase sooner
    waits in memory and ``_save`` returns the milliseconds until it is
    written, so no flood of games, NEWs or SETs can wear the sector out.
    """

    def __init__(self, nvm=None, path=None, files=None):
        self.nvm = nvm
        self.path = path
        self.files = files if files is not None else (OsFiles() if path else None)
        self.seq = 0
        self.latest = {}       # kind -> raw record bytes, the newest known
        self.unsaved = []      # kinds whose newest record is not durable yet
        self.tail = 0          # where the next nvm record goes
        self.clean = True      # nvm readable up to its tail
        self.writes = 0        # records written (for the figures)
        self.erases = 0        # sector compactions
        self.unchanged = 0     # settings saves that matched what was stored: not written
        self.deferred = 0      # saves held back by the wear limit
        self.failure = None    # the last exception a write raised
        self.failing = None    # why saving fails, until a save succeeds
        self.retry_at = None   # when ``tick`` tries the unsaved records again
        self.now = None        # the machine's time, once ``tick`` has given it
        self.allowance = ERASES_BURST * ERASE_MS  # ms earned towards erases (ERASE_MS each)
        self.loaded = None     # what load() found

    # -- reading -----------------------------------------------------------
    def load(self):
        """The newest valid records: {"settings", "audits", "problems", "lost"};
        ``lost``: the kinds whose newest record may be among the damage."""
        problems = []
        lost = []
        found = {}
        sources = []
        if self.nvm is not None:
            try:
                buf = self.nvm[0:len(self.nvm)]
            except Exception as e:  # noqa: BLE001 - a broken nvm must not stop the game
                buf = b""
                problems.append("nvm unreadable: %s" % e)
            records, starts, self.tail, self.clean, damage = survey(buf)
            _losses("nvm", records, starts, damage, problems, lost)
            cut = _cut_compaction(records)
            if cut:
                problems.append("nvm: a compaction was cut short: the %s written before it are lost" % " and ".join(cut))
                for name in cut:
                    if name not in lost:
                        lost.append(name)
            problems.extend(getattr(self.nvm, "notes", ()))
            sources.append(records)
        if self.path:
            data = self.files.read(self.path)
            notes = list(getattr(self.files, "notes", ()))
            problems.extend(notes)  # a damaged file kept aside, said by whoever opened it
            if data:
                records, starts, end, clean, damage = survey(data, False)
                _losses(self.path, records, starts, damage, [] if notes else problems, lost)
                sources.append(records)
        self.seq = 0
        for records in sources:
            for kind, seq, payload, raw in records:
                if seq >= self.seq:
                    self.seq = seq
                if kind == COMPACTED:
                    continue
                best = found.get(kind)
                if best is None or seq > best[0]:
                    found[kind] = (seq, payload, raw)
        out = {"settings": None, "audits": None, "problems": problems, "lost": lost}
        self.loaded = out
        self.latest = {}
        self.unsaved = []
        for kind, name in ((SETTINGS, "settings"), (AUDITS, "audits")):
            if kind in found:
                out[name] = found[kind][1]
                self.latest[kind] = found[kind][2]
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
            if self.seq >= SEQ_RENUMBER:
                self._renumber()
            raw = encode(kind, self.seq + 1, payload)
            if (kind == SETTINGS and kind in self.latest and not self.unsaved
                    and body_of(self.latest[kind]) == body_of(raw)):
                self.unchanged += 1
                return True
        except Exception as e:  # noqa: BLE001 - a record too long: said, never raised
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
                        self._append(self.latest[kind])  # a compaction writes them all
                        self.writes += 1
            else:
                self._write_file()
                self.writes += 1
        except Exception as e:  # noqa: BLE001 - a full or broken store must not stop the game
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
            if self.allowance > ERASES_BURST * ERASE_MS:
                self.allowance = ERASES_BURST * ERASE_MS
        self.now = now
        if self.unsaved and (self.retry_at is None or now >= self.retry_at):
            self.flush()

    def _failed(self, e):
        self.failure = e
        text = "%s: %s" % (type(e).__name__, e)
        self.failing = text if len(text) <= 120 else text[:120] + "..."
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
        if self.clean and end <= len(self.nvm) and _blank(self.nvm[self.tail:end]):
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
        nvm = self.nvm
        end = self.tail + len(raw)
        if self.clean and end <= len(nvm) and _blank(nvm[self.tail:end]):
            if raw[0] == COMMIT:  # the record, then its commit mark: a cut between leaves no mark
                nvm[self.tail + 1:end] = raw[1:]
                nvm[self.tail:self.tail + 1] = raw[:1]
            else:
                nvm[self.tail:end] = raw
            self.tail = end
            return
        self._compact()

    def _image(self):
        out = b""
        for kind in KINDS:
            if kind in self.latest:
                raw = self.latest[kind]
                if raw[0] == MAGIC:  # an older version's record: commit-marked from now on
                    raw = self.latest[kind] = renumbered(raw, seq_of(raw))
                out += raw
        return out

    def _compact(self):
        """The newest record of each kind from offset 0: one sector erase.

        The image opens with a ``COMPACTED`` record naming the records that
        follow it (kind and sequence number): a power cut while they are
        programmed leaves them torn or blank, and ``load`` then says what
        was lost instead of starting quietly without it."""
        listed = {}
        for kind in KINDS:
            if kind in self.latest:
                listed[chr(kind)] = seq_of(self.latest[kind])
        self.seq += 1
        image = encode(COMPACTED, self.seq, {"has": listed}) + self._image()
        if self.path:
            self._write_file()  # a cut during the erase below is then survivable
        size = len(self.nvm)
        if len(image) > size:
            raise ValueError("records do not fit in %d bytes of nvm" % size)
        self.nvm[0:size] = image + bytes([BLANK]) * (size - len(image))
        self.erases += 1
        if self.now is not None:
            self.allowance -= ERASE_MS
        self.tail = len(image)
        self.clean = True

    def _write_file(self):
        """Temporary file, fsync, rename over the old one, fsync the folder."""
        files = self.files
        tmp = self.path + ".tmp"
        files.create(tmp, self._image())
        files.fsync(tmp)
        files.rename(tmp, self.path)
        files.fsync_dir(self.path)
