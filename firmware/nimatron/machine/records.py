# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The store's records: how one is written (``nimatron.machine.store`` keeps
them; ``reading`` reads a sector or file of them back). Modules of their
own: MicroPython compiles a module whole, and the halves apart fit a smaller
heap than together; and a running board keeps only the writing half."""

import json

MAGIC = 0x4E  # a record as versions up to 0.2 wrote it: no commit mark
MAGIC2 = 0x6E  # "n": a record whose first byte is its commit mark
COMMIT = 0x00  # the commit mark, programmed after the rest of the record
SETTINGS = 0x53  # "S"
AUDITS = 0x41  # "A"
COMPACTED = 0x43  # "C": opens a compacted sector, naming the records that follow it
KINDS = (AUDITS, SETTINGS)  # a compaction programs the audits first: a cut then spares them
SCANNED = KINDS + (COMPACTED,)
HEADER = 8  # MAGIC kind len:2 seq:4 (a commit-marked record has one byte more in front)
TRAILER = 4
MAX_PAYLOAD = 2000  # a record must fit twice in a 4 KB sector
BLANK = 0xFF

_CRC_TABLE = []  # type: list[int]

try:  # binascii's, in C, where the board has it (CircuitPython on an RP2040 does)
    from binascii import crc32 as _C_CRC32
except ImportError:
    _C_CRC32 = None  # type: ignore[assignment]  # a board without it: by hand


def crc32(data, crc=0):
    """CRC-32 (as zlib.crc32): binascii's where the board has it, else by hand.
    A settings record's CRC by hand took most of a SET's save pass on
    pico-grid (every step a long int on a 32-bit board)."""
    if _C_CRC32 is not None:
        return _C_CRC32(data, crc)
    return crc32_by_hand(data, crc)


def crc32_by_hand(data, crc=0):
    """CRC-32 (as zlib.crc32) in Python, for a board without binascii.crc32."""
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
    return int.from_bytes(raw[at : at + 4], "little")


def body_of(raw):
    return raw[_start(raw) + HEADER : -TRAILER]


def renumbered(raw, seq):
    """The same record (any version's) under a new sequence number, commit-marked."""
    at = _start(raw)
    return _sealed(raw[at + 1], seq, bytes(raw[at + HEADER : -TRAILER]))


def _blank(buf, start=0, end=None):
    """All of ``buf[start:end]`` blank (0xFF), without copying it."""
    for i in range(start, len(buf) if end is None else end):
        if buf[i] != BLANK:
            return False
    return True
