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

MAGIC = 0x4E
SETTINGS = 0x53  # "S"
AUDITS = 0x41    # "A"
COMPACTED = 0x43  # "C": opens a compacted sector, naming the records that follow it
KINDS = (AUDITS, SETTINGS)  # a compaction programs the audits first: a cut then spares them
SCANNED = KINDS + (COMPACTED,)
HEADER = 8
TRAILER = 4
MAX_PAYLOAD = 2000  # a record must fit twice in a 4 KB sector
BLANK = 0xFF

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
    """One record: header, JSON payload (a dict), CRC-32."""
    try:
        body = json.dumps(payload, separators=(",", ":")).encode()
    except TypeError:  # an older json without separators
        body = json.dumps(payload).encode()
    if len(body) > MAX_PAYLOAD:
        raise ValueError("record of %d bytes is too long to store" % len(body))
    head = bytes([MAGIC, kind]) + len(body).to_bytes(2, "little") + _u32(seq)
    return head + body + _u32(crc32(head + body))


def _record_at(buf, pos):
    """(kind, seq, payload or None, raw, end) of a whole record at ``pos``, or
    None if its header cannot be one; ``payload`` None if its checksum fails."""
    n = len(buf)
    if pos + HEADER + TRAILER > n or buf[pos] != MAGIC or buf[pos + 1] not in SCANNED:
        return None
    length = buf[pos + 2] | (buf[pos + 3] << 8)
    end = pos + HEADER + length + TRAILER
    if length > MAX_PAYLOAD or end > n:
        return None
    raw = bytes(buf[pos:end])
    payload = None
    if crc32(raw[:-TRAILER]) == int.from_bytes(raw[-TRAILER:], "little"):
        try:
            payload = json.loads(raw[HEADER:-TRAILER])
        except ValueError:
            payload = None
        if not isinstance(payload, dict):
            payload = None
    return buf[pos + 1], int.from_bytes(raw[4:8], "little"), payload, raw, end


def scan(buf):
    """Records in ``buf``: (records, tail, clean, damaged).

    ``records``: (kind, seq, payload dict, raw bytes) of every record whose
    checksum holds; ``tail``: where the next record would go; ``clean``:
    False if unreadable bytes were met (the next write compacts). Past
    unreadable bytes the scan searches on for the next whole record, so a
    flipped bit hides only its own record; ``damaged`` counts the
    unreadable places with whole records after them (something written was
    lost there). The tail is blank to the end: blank bytes with anything
    after them are unreadable too (a power cut in an erase leaves some bits
    erased and some not, and can blank the first bytes). A record torn at the very end, its header whole and blank
    after it, is a write the power cut short (never acknowledged): appends
    go on after it, nothing is counted.
    """
    records = []
    n = len(buf)
    pos = 0
    damaged = 0
    bad_at = None  # the first unreadable byte since the last whole record
    while pos < n:
        if bad_at is None and buf[pos] == BLANK:
            if _blank(buf, pos):
                break  # the blank tail
            bad_at = pos  # blank bytes before written ones: a torn erase, not the end
        found = _record_at(buf, pos)
        if found is not None and found[2] is not None:
            if bad_at is not None:
                damaged += 1
                bad_at = None
            kind, seq, payload, raw, end = found
            records.append((kind, seq, payload, raw))
            pos = end
            continue
        if bad_at is None:
            bad_at = pos
        pos += 1
    if bad_at is None:
        return records, pos, damaged == 0, damaged
    torn = _record_at(buf, bad_at)
    # A torn append: whole records before it (a record first in the sector is a
    # compaction's, or the very first write: its loss is reported), and blank after.
    if torn is not None and records and torn[0] != COMPACTED and _blank(buf, torn[4]):
        return records, torn[4], damaged == 0, damaged
    return records, bad_at, False, damaged


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
    if not lost:
        return []
    return ["a compaction was cut short: the %s written before it are lost" % " and ".join(lost)]


def _blank(buf, start=0, end=None):
    """All of ``buf[start:end]`` blank (0xFF), without copying it."""
    for i in range(start, len(buf) if end is None else end):
        if buf[i] != BLANK:
            return False
    return True


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
    """Latest settings and audits records on ``nvm`` and/or a file at ``path``."""

    def __init__(self, nvm=None, path=None, files=None):
        self.nvm = nvm
        self.path = path
        self.files = files if files is not None else (OsFiles() if path else None)
        self.seq = 0
        self.latest = {}       # kind -> raw record bytes, the newest known
        self.tail = 0          # where the next nvm record goes
        self.clean = True      # nvm readable up to its tail
        self.writes = 0        # records written (for the figures)
        self.erases = 0        # sector compactions
        self.unchanged = 0     # settings saves that matched what was stored: not written
        self.failure = None    # the last exception a write raised
        self.loaded = None     # what load() found

    # -- reading -----------------------------------------------------------
    def load(self):
        """The newest valid records; {"settings", "audits", "problems"}."""
        problems = []
        found = {}
        sources = []
        if self.nvm is not None:
            try:
                buf = self.nvm[0:len(self.nvm)]
            except Exception as e:  # noqa: BLE001 - a broken nvm must not stop the game
                buf = b""
                problems.append("nvm unreadable: %s" % e)
            records, self.tail, self.clean, damaged = scan(buf)
            if damaged:
                problems.append("nvm: %d damaged record%s skipped" % (damaged, "" if damaged == 1 else "s"))
            elif not self.clean:
                problems.append("nvm holds unreadable bytes from byte %d on (a save cut short by a power cut, "
                                "or a half-erased sector): what was being written there is lost" % self.tail)
            problems.extend(_cut_compaction(records))
            sources.append(records)
        if self.path:
            data = self.files.read(self.path)
            if data:
                records, end, clean, damaged = scan(data)
                if not clean or damaged or end != len(data):
                    problems.append("%s is damaged" % self.path)
                sources.append(records)
        for records in sources:
            for kind, seq, payload, raw in records:
                if seq >= self.seq:
                    self.seq = seq
                if kind == COMPACTED:
                    continue
                best = found.get(kind)
                if best is None or seq > best[0]:
                    found[kind] = (seq, payload, raw)
        out = {"settings": None, "audits": None, "problems": problems}
        self.loaded = out
        for kind, name in ((SETTINGS, "settings"), (AUDITS, "audits")):
            if kind in found:
                out[name] = found[kind][1]
                self.latest[kind] = found[kind][2]
        return out

    # -- writing -----------------------------------------------------------
    def save_settings(self, record):
        return self._save(SETTINGS, record)

    def save_audits(self, record):
        return self._save(AUDITS, record)

    def factory_reset(self):
        """Forget every SET change: the next start uses the settings file or
        the board's defaults. Audits stay (lifetime ones are never cleared)."""
        return self._save(SETTINGS, {"factory": True})

    def _save(self, kind, payload):
        """Write one record; True once durable. Never raises. Settings the
        store already holds are not written again (flash wears)."""
        try:
            if self.loaded is None:
                self.load()  # never append blind: the sequence and the tail first
            raw = encode(kind, self.seq + 1, payload)
            if kind == SETTINGS and kind in self.latest and self.latest[kind][HEADER:-TRAILER] == raw[HEADER:-TRAILER]:
                self.unchanged += 1
                return True
            self.seq += 1
            self.latest[kind] = raw
            if self.nvm is not None:
                self._append(raw)
            else:
                self._write_file()
            self.writes += 1
            return True
        except Exception as e:  # noqa: BLE001 - a full or broken store must not stop the game
            self.failure = e
            return False

    def _append(self, raw):
        nvm = self.nvm
        end = self.tail + len(raw)
        if self.clean and end <= len(nvm) and _blank(nvm[self.tail:end]):
            nvm[self.tail:end] = raw  # programs blank bytes only: no erase
            self.tail = end
            return
        self._compact()

    def _image(self):
        out = b""
        for kind in KINDS:
            if kind in self.latest:
                out += self.latest[kind]
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
                listed[chr(kind)] = int.from_bytes(self.latest[kind][4:8], "little")
        self.seq += 1
        image = encode(COMPACTED, self.seq, {"has": listed}) + self._image()
        if self.path:
            self._write_file()  # a cut during the erase below is then survivable
        size = len(self.nvm)
        if len(image) > size:
            raise ValueError("records do not fit in %d bytes of nvm" % size)
        self.nvm[0:size] = image + bytes([BLANK]) * (size - len(image))
        self.erases += 1
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
