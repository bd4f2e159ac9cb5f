# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The store's records: how one is written and how a sector or file of them
is read back (``nimatron.machine.store`` keeps them). A module of its own:
MicroPython compiles a module whole, and the two halves apart fit a
smaller heap than together."""

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

_CRC_TABLE = []  # type: list[int]


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
