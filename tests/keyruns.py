#!/usr/bin/env python3
"""keyruns.py: the key runs of a store (docs/STORE-KEYRUNS.md, "The run
format"), read and written apart from quench, for the tests.

A run holds n pairs (puzzle id, row id) sorted by id as an unsigned 64-bit
number then by row: a 48-byte header (checksum, version, Rice parameter k,
offset width w, n, first and last key, smallest and largest row), a sample
every 128 keys, the rows as w-bit offsets from the smallest, then the
deltas of the keys Rice-coded. Written here from that section alone, so a
fixture's runs and the ids a test reads from them do not come from
quench's own codec.

usage: keyruns.py DB [--bump ROW]
  builds DB's key runs again from its rows: each row's id is its `uid`
  column while the puzzles table has one (the id the database holds),
  else on a square board that does not wrap the id of its state computed
  by tests/puzzle_id.py, and on other boards the id its run holds. Every rule's pairs become level-1 runs of
  at most 65,536 pairs, as migration 0008 builds them. --bump ROW: with
  ROW's id one more than that (a wrong id the runs hold).
"""
import os
import sqlite3
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import state_blob  # noqa: E402

MASK = (1 << 64) - 1
MAX = 65536


def checksum(b):
    """The checksum of b[8:] (the section's rotate-xor-multiply, fmix64)."""
    body = b[8:]
    h = 0x243f6a8885a308d3
    for i in range(0, len(body), 8):
        x = int.from_bytes(body[i:i + 8].ljust(8, b'\0'), 'little')
        h = ((((h << 23) | (h >> 41)) & MASK) ^ x) * 0x9e3779b97f4a7c15 & MASK
    h ^= len(body)
    h ^= h >> 33
    h = h * 0xff51afd7ed558ccd & MASK
    h ^= h >> 33
    h = h * 0xc4ceb9fe1a85ec53 & MASK
    return h ^ h >> 33


def rice_k(first, last, n):
    q = (last - first) // n if n >= 2 else 0
    return q.bit_length() - 1 if q >= 1 else 0


def bits(v, n):
    """The n low bits of v, least significant first, as '0'/'1' text."""
    return format(v & ((1 << n) - 1), '0%db' % n)[::-1] if n else ''


def to_bytes(text):
    """Bits (least significant first) into bytes, zero-padded."""
    text += '0' * (-len(text) % 8)
    return bytes(int(text[i:i + 8][::-1], 2) for i in range(0, len(text), 8))


def from_bytes(b):
    return ''.join(format(x, '08b')[::-1] for x in b)


def encode(pairs):
    """The run of pairs [(key as unsigned 64 bits, row >= 1)]."""
    pairs = sorted(pairs)
    n = len(pairs)
    assert 1 <= n <= MAX and len(set(pairs)) == n
    keys, rows = [p[0] for p in pairs], [p[1] for p in pairs]
    first, last, lo, hi = keys[0], keys[-1], min(rows), max(rows)
    k, w = rice_k(first, last, n), (hi - lo).bit_length()
    offs = ''.join(bits(r - lo, w) for r in rows)
    stream, pos, samples = [], 0, b''
    for i in range(1, n):
        d = keys[i] - keys[i - 1]
        code = '1' * (d >> k) + '0' + bits(d, k)  # unary quotient, k bits
        stream.append(code)
        pos += len(code)
        if i % 128 == 0:
            samples += struct.pack('<QI', keys[i], pos)
    head = struct.pack('<BBBBIQQqq', 1, k, w, 0, n, first, last, lo, hi)
    body = head + samples + to_bytes(offs) + to_bytes(''.join(stream))
    return checksum(b'\0' * 8 + body).to_bytes(8, 'little') + body


def decode(b):
    """The pairs of run b, every field checked as quench's decoder does
    (the canonical encoding: b must be what encode makes of them)."""
    if len(b) < 48:
        raise ValueError('key run of %d bytes: shorter than its header'
                         % len(b))
    if int.from_bytes(b[:8], 'little') != checksum(b):
        raise ValueError('key run: checksum does not match')
    _, k, w, _, n, first, _, lo, _ = struct.unpack('<BBBBIQQqq', b[8:48])
    at = 48 + (n - 1) // 128 * 12
    nb = (n * w + 7) // 8
    offs = from_bytes(b[at:at + nb])
    stream = from_bytes(b[at + nb:])
    keys, pos = [first], 0
    for _ in range(n - 1):
        end = stream.find('0', pos)
        if end < 0 or end + 1 + k > len(stream):
            raise ValueError('key run: a code passes the stream\'s end')
        low = stream[end + 1:end + 1 + k]
        keys.append(keys[-1] + ((end - pos) << k | int(low[::-1] or '0', 2)))
        pos = end + 1 + k
    pairs = [(key, lo + int(offs[i * w:i * w + w][::-1] or '0', 2))
             for i, key in enumerate(keys)]
    if encode(pairs) != bytes(b):
        raise ValueError('key run: not the encoding of its pairs')
    return pairs


def signed(u):
    """u as SQLite's signed integer with the same bits (puzzles.uid)."""
    return u - ((u >> 63) << 64)


def stored_ids(db):
    """{row id: id as signed} of every pair in db's key runs."""
    out = {}
    for blob, in db.execute('SELECT keys FROM key_runs ORDER BY id'):
        for key, row in decode(blob):
            out.setdefault(row, []).append(signed(key))
    return out


def d4_board(layout, yaml):
    """Whether tests/puzzle_id.py computes ids on this board: a full square
    grid that does not wrap (a torus has translations too)."""
    rows = layout.split('/')
    square = all(r == '0' * len(rows) for r in rows)
    wraps = any(w in yaml for w in ('wrap: both', 'wrap: rows',
                                     'wrap: columns', 'wrap: [', 'wrap: x',
                                     'wrap: y'))
    return square and 'graph' not in yaml and not wraps


def row_ids(db):
    """[(rule id, row id, id as unsigned)] of every puzzle: the uid column
    while it exists; else on a square board that does not wrap the id
    computed from the state (tests/puzzle_id.py), and on other boards the
    id the runs hold for the row (an error for a row in no run)."""
    cols = [c[1] for c in db.execute('PRAGMA table_info(puzzles)')]
    if 'uid' in cols:
        q = 'SELECT rule_id, id, uid FROM puzzles'
        return [(rule, row, uid & MASK) for rule, row, uid in db.execute(q)]
    held = stored_ids(db)
    out = []
    q = ('SELECT p.rule_id, p.id, p.state, r.layout, r.colours, r.hash,'
         ' r.yaml FROM puzzles p JOIN rules r ON r.id = p.rule_id')
    for rule, row, state, layout, colours, rhash, yaml in db.execute(q):
        if d4_board(layout, yaml):
            uid = db.execute('SELECT puzzle_uid(?, ?, ?, ?)',
                             (state, layout, colours, rhash)).fetchone()[0]
        elif len(held.get(row, [])) == 1:
            uid = held[row][0]
        else:
            raise SystemExit('keyruns.py: row %d: no id in the runs, and its'
                             ' board is not one puzzle_id.py knows' % row)
        out.append((rule, row, uid & MASK))
    return out


def rebuild(db, bump=None):
    """db's key runs written again from its rows (level 1, as 0008), row
    bump's id one more than its own."""
    by_rule = {}
    for rule, row, uid in row_ids(db):
        uid = (uid + (row == bump)) & MASK
        by_rule.setdefault(rule, []).append((uid, row))
    db.execute('DELETE FROM key_runs')
    for rule in sorted(by_rule):
        pairs = sorted(by_rule[rule])
        for at in range(0, len(pairs), MAX):
            piece = pairs[at:at + MAX]
            db.execute('INSERT INTO key_runs (rule_id, level, first_key,'
                       ' last_key, count, keys) VALUES (?, 1, ?, ?, ?, ?)',
                       (rule, signed(piece[0][0]), signed(piece[-1][0]),
                        len(piece), encode(piece)))


def main():
    if len(sys.argv) not in (2, 4) or sys.argv[2:3] not in ([], ['--bump']):
        raise SystemExit(__doc__)
    db = state_blob.connect(sys.argv[1])
    rebuild(db, int(sys.argv[3]) if len(sys.argv) == 4 else None)
    db.commit()


if __name__ == '__main__':
    main()
