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

from .records import (
    AUDITS,
    BLANK,
    COMPACTED,
    HEADER,
    KINDS,
    MAGIC,
    MAGIC2,
    MAX_PAYLOAD,
    SCANNED,
    SETTINGS,
    TRAILER,
    _blank,
    crc32,
)


def load(store):
    """The newest valid records of ``store``: {"settings", "audits", "problems", "lost"};
    ``lost``: the kinds whose newest record may be among the damage."""
    problems = []
    lost = []  # type: list[str]
    found = {}  # type: dict  # kind -> (seq, payload, raw)
    odd = {}  # type: dict  # kind -> (seq, payload)
    sources = []
    if store.nvm is not None:
        try:
            buf = store.nvm[0 : len(store.nvm)]
        except Exception as e:  # a broken nvm must not stop the game
            buf = b""
            problems.append("nvm unreadable: %s" % e)
            add(lost, KINDS)
        records, starts, store.tail, store.clean, damage = survey(buf)
        _losses("nvm", records, starts, damage, problems, lost)
        cut = _cut_compaction(records)
        if cut:
            problems.append("nvm: a compaction was cut short: the %s written before it are lost" % " and ".join(cut))
            add(lost, cut)
        problems.extend(getattr(store.nvm, "notes", ()))
        add(lost, getattr(store.nvm, "lost", ()))  # an image of another size: whatever it held may be gone
        sources.append(records)
    data = None
    if store.path:
        data = store.files.read(store.path)
        notes = list(getattr(store.files, "notes", ()))
        problems.extend(notes)  # a damaged file kept aside, said by whoever opened it
        if data is not None:  # there, if empty: the file is never written without its records
            records, starts, end, clean, damage = survey(data, False)
            _losses(store.path, records, starts, damage, [] if notes else problems, None)
            gone = missing([records] + sources)
            if gone:
                problems.append(
                    "%s: no whole %s record (%s): lost%s"
                    % (
                        store.path,
                        " or ".join([NAMES[k] for k in gone]),
                        "the file is empty" if not data else "cut short or damaged",
                        "" if notes else keep(store, data, "damaged"),
                    )
                )
                add(lost, gone)
            sources.append(records)
    store.seq = 0
    for records in sources:
        for kind, seq, payload, raw in records:
            if seq >= store.seq:
                store.seq = seq
            if kind == COMPACTED:
                continue
            if not shape(kind, payload):  # read as nothing, never as zeros: a loss, said below if it is the newest
                if kind not in odd or seq > odd[kind][0]:
                    odd[kind] = (seq, payload)
                continue
            best = found.get(kind)
            if best is None or seq > best[0]:
                found[kind] = (seq, payload, raw)
    out = {"settings": None, "audits": None, "problems": problems, "lost": lost}
    store.loaded = out
    store.latest = {}
    store.unsaved = []
    for kind in KINDS:
        name = NAMES[kind]
        if kind in odd and (kind not in found or odd[kind][0] > found[kind][0]):
            kept = keep(store, data, "other") if data else ""
            if store.nvm is not None and not kept:
                kept = keep(store, None, "other")
            from .lost import why

            problems.append(
                "the newest %s record holds %s, not what this version reads: taken as lost, "
                "never as zeros%s" % (name, why(kind, odd[kind][1]), kept)
            )
            add(lost, (kind,))
        if kind in found:
            out[name] = found[kind][1]
            store.latest[kind] = found[kind][2]
    return out


def add(lost, kinds):
    """Add ``kinds`` (codes or names) to the names in ``lost``."""
    for kind in kinds:
        name = NAMES.get(kind, kind)
        if name not in lost:
            lost.append(name)


def keep(store, data, word):
    """ ", kept aside as NAME" once the store's bytes are copied where nothing
    overwrites them (a file port or an nvm file that can: a Pi, the simulator); else ""."""
    try:
        if data is None:
            copy = getattr(store.nvm, "keep", None)
            name = copy(word) if copy is not None else None
        else:
            copy = getattr(store.files, "keep", None)
            name = copy(store.path, data, word) if copy is not None else None
    except Exception:  # a copy that cannot be made is said as not made, never raised
        name = None
    return ", kept aside as %s" % name[name.rfind("/") + 1 :] if name else ""


def missing(records):
    """The kinds a state file's records (``records[0]``) should hold but no
    whole record of which is read (there, or in the rest: an nvm's, newer).

    A file holds one record of each kind it was written with, after an
    index naming them (kind and sequence number): the kinds it names must
    be there, whatever else was read. A file without a whole index (written
    before files had one, or the index damaged) should hold every kind: one
    missing may have been cut off (a file cut at a record boundary reads
    clean)."""
    index = None
    for kind, _seq, payload, _raw in records[0]:
        if kind == COMPACTED and isinstance(payload.get("has"), dict):
            index = payload["has"]
    whole = {}  # type: dict[int, int]
    for source in records:
        for kind, seq, _payload, _raw in source:
            if seq >= whole.get(kind, -1):
                whole[kind] = seq
    out = []
    for kind in KINDS:
        want = -1  # no index: a whole record of every kind
        if index is not None:
            want = index.get(chr(kind))
            if want is None:
                continue  # never written: nothing lost
            if not isinstance(want, int):
                want = -1
        if whole.get(kind, -2) < want:
            out.append(kind)
    return out


def shape(kind, payload):
    """Whether a whole record is of a shape this version reads.

    One that is not is a loss (said, the older record of its kind used, the
    link sealed if settings), never read as zeros written back at the next
    save. Keys this version does not know are a newer version's: kept. Why
    it is odd is put in words by ``lost``, loaded only then (its words
    would cost every board's start their names)."""
    from .audits import KEYS, PRESET_KEYS

    if kind == SETTINGS:
        if "factory" in payload:
            return payload["factory"] is True
        for key, want in (("board", str), ("src", int), ("set", dict)):
            v = payload.get(key)
            if (key in payload or key == "set") and (not isinstance(v, want) or isinstance(v, bool)):
                return False
        return True
    lists = [(payload.get("l"), len(KEYS))]
    if "s" in payload:
        lists.append((payload["s"], len(KEYS)))
    presets = payload.get("p", {})
    if not isinstance(presets, dict):
        return False
    for key in presets:
        lists.append((presets[key], len(PRESET_KEYS)))
    for v, n in lists:
        if not isinstance(v, list) or not all(_count(c) for c in v[:n]):
            return False
    for key in ("f", "z", "k"):
        v = payload.get(key, 0)
        if not isinstance(v, int) or isinstance(v, bool) or (key == "k" and not 0 <= v < 1000000):
            return False
    return True


def _count(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


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
    inner = raw[at - pos :]
    payload = None
    if crc32(inner[:-TRAILER]) == int.from_bytes(inner[-TRAILER:], "little"):
        try:
            payload = json.loads(inner[HEADER:-TRAILER])
        except ValueError:
            payload = None
        if not isinstance(payload, dict):
            payload = None
    return buf[at + 1], int.from_bytes(inner[4:8], "little"), payload, raw, end


def scan(buf):
    """Records in ``buf``: (records, tail, clean, damaged); see ``survey``."""
    records, starts, tail, clean, lost = survey(buf)
    return records, tail, clean, len(lost)


def survey(buf, appends=True):
    """Records in ``buf``: (records, starts, tail, clean, lost).

    ``records``: (kind, seq, payload dict, raw bytes) of every record whose
    checksum holds, ``starts`` the byte each begins at; ``tail``: where the next record would go; ``clean``:
    False if unreadable bytes were met (the next write compacts); ``lost``:
    the first byte of every place where something acknowledged was lost (a
    record damaged at rest, a half-erased sector, a compaction cut short).

    Past unreadable bytes the scan searches on for the next whole record,
    so a flipped bit hides only its own record. A record is acknowledged
    once its commit mark (its first byte, programmed after the rest) is
    set: a record without one at the very end is an append the power cut
    short, never acknowledged, and nothing is counted; with ``appends``
    False (a file, replaced whole) nothing is ever half-written, and every
    unreadable byte is a loss.

    What a damaged place held is never told from its bytes: one record or
    several, of any kind (two flipped bits turn a settings record's kind
    byte into an audits one; a burst joins two records into one loss).
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
                lost.append(bad_at)
                bad_at = None
            kind, seq, payload, raw, end = found
            records.append((kind, seq, payload, raw))
            starts.append(pos)
            pos = end
            continue
        if bad_at is None:
            if appends and buf[pos] == BLANK and _blank(buf, pos):
                break  # the blank tail (a file is written whole: its blank bytes are damage)
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
    lost.append(bad_at)
    return records, starts, bad_at, False, lost


NAMES = {AUDITS: "audits", SETTINGS: "settings"}


def _cut_compaction(records):
    """Problems if the newest compaction's records are not all there."""
    newest = None
    for kind, seq, payload, _raw in records:
        if kind == COMPACTED and (newest is None or seq > newest[0]):
            newest = (seq, payload)
    if newest is None or not isinstance(newest[1].get("has"), dict):
        return []
    have = {}  # type: dict[int, int]
    for kind, seq, _payload, _raw in records:
        if kind != COMPACTED and seq >= have.get(kind, -1):
            have[kind] = seq
    lost = []
    for kind in KINDS:
        want = newest[1]["has"].get(chr(kind))
        if isinstance(want, int) and have.get(kind, -1) < want:
            lost.append(NAMES[kind])
    return lost


def _losses(where, records, starts, lost, problems, kinds):
    """Say each lost place and the kinds that may be gone with it: every
    kind with no whole record stored after the damage (a damaged place may
    have held any kind, and more than one record); add them to ``kinds``
    (None: a file, whose kinds its index says)."""
    for at in lost:
        gone = []
        for k in KINDS:
            later = False
            for i in range(len(records)):
                if starts[i] > at and records[i][0] == k:
                    later = True
            if not later:
                gone.append(k)
        if kinds is None:
            what = "what they held is lost"  # which kinds: the file's index (``missing``)
        elif gone:
            what = "the newest %s record may be lost" % " or ".join([NAMES[k] for k in gone])
            add(kinds, gone)
        else:
            what = "older records are lost (newer ones of each kind follow)"
        problems.append(
            "%s: saved records at byte %d are damaged (flipped bits, a half-erased sector or "
            "another version's data): %s" % (where, at, what)
        )
