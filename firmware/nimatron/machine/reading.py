# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Reading a store's records back (``store.Store.load``): a sector or file
surveyed, damage found and said, the newest record of each kind chosen.

Imported when a store loads (a start) and, on a board, dropped from the heap
once it has (``nimatron.forget``): a running exhibit only writes. The
record's format is in ``records``.
"""

import json

from .records import (AUDITS, BLANK, COMPACTED, HEADER, KINDS, MAGIC, MAGIC2, MAX_PAYLOAD, SCANNED, SETTINGS,
                      TRAILER, _blank, crc32)


def load(store):
    """The newest valid records of ``store``: {"settings", "audits", "problems", "lost"};
    ``lost``: the kinds whose newest record may be among the damage."""
    problems = []
    lost = []
    found = {}
    sources = []
    if store.nvm is not None:
        try:
            buf = store.nvm[0:len(store.nvm)]
        except Exception as e:  # noqa: BLE001 - a broken nvm must not stop the game
            buf = b""
            problems.append("nvm unreadable: %s" % e)
        records, starts, store.tail, store.clean, damage = survey(buf)
        _losses("nvm", records, starts, damage, problems, lost)
        cut = _cut_compaction(records)
        if cut:
            problems.append("nvm: a compaction was cut short: the %s written before it are lost" % " and ".join(cut))
            for name in cut:
                if name not in lost:
                    lost.append(name)
        problems.extend(getattr(store.nvm, "notes", ()))
        sources.append(records)
    if store.path:
        data = store.files.read(store.path)
        notes = list(getattr(store.files, "notes", ()))
        problems.extend(notes)  # a damaged file kept aside, said by whoever opened it
        if data:
            records, starts, end, clean, damage = survey(data, False)
            _losses(store.path, records, starts, damage, [] if notes else problems, lost)
            sources.append(records)
    store.seq = 0
    for records in sources:
        for kind, seq, payload, raw in records:
            if seq >= store.seq:
                store.seq = seq
            if kind == COMPACTED:
                continue
            best = found.get(kind)
            if best is None or seq > best[0]:
                found[kind] = (seq, payload, raw)
    out = {"settings": None, "audits": None, "problems": problems, "lost": lost}
    store.loaded = out
    store.latest = {}
    store.unsaved = []
    for kind, name in ((SETTINGS, "settings"), (AUDITS, "audits")):
        if kind in found:
            out[name] = found[kind][1]
            store.latest[kind] = found[kind][2]
    return out


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
