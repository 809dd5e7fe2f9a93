#!/usr/bin/env python3
"""state_blob.py: a stored state or witness (docs/STORE.md, "Schema
(migration 0004)"), read and written apart from quench, for the tests.

A row keeps n cell values < k packed: b = ceil(log2 k) bits a cell, cell i
in bits i*b .. i*b+b-1 of the little-endian bit string (bit j of byte
j // 8 is bit j % 8, LSB first), ceil(n*b / 8) bytes. The board's shape is
rules.layout: its all-zero state text, '0' a cell, '.' a hole, '/' between
rows. A value is written 0-9 a-z, or "(NNN)" from 36 up (src/rules/state.h).

It also gives a state's puzzle id and canonical form, computed by
tests/puzzle_id.py (square boards without holes, the dihedral group), so
a test needs neither `puzzles.uid` nor `puzzles.canon`, which the flip
of the key-run store drops (docs/STORE-KEYRUNS.md, "The flip").

usage: state_blob.py [--put] DB SQL
  runs SQL on DB with the SQL functions state_text(blob, layout, colours),
  state_blob(text, layout, colours), puzzle_canon(state, layout, colours)
  (the canonical form packed as `canon` is), puzzle_uid(state, layout,
  colours, rule_hash) (the id as the signed integer `uid` holds),
  run_uid(row) (the id DB's key runs hold for that row, by
  tests/keyruns.py: the id the database holds, on any board; NULL for a
  row in no run, an error for a row in two), and prints each row's values joined by ' ' (NULL as ''), as `sqlite3
  -separator ' '` does. SQL "-": a script of statements from standard
  input, which may also call readfile(path) as the sqlite3 shell's.
  --put: the script may also INSERT INTO new_puzzles, a view of puzzles
  without `canon` and `uid`, which fills them in from the state while the
  table has them (so a fixture works before and after the flip).
       state_blob.py --rekey DB [ROW...]
  sets `canon` and `uid` of the rows (all without ROW) from their states
  while the table has those columns; nothing after the flip.
"""
import os
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import puzzle_id  # noqa: E402

DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'


def bits(k):
    return max(1, (k - 1).bit_length())


def unpack(blob, layout, k):
    b, out, i = bits(k), [], 0
    for ch in layout:
        if ch != '0':
            out.append(ch)
            continue
        v = 0
        for j in range(b):
            bit = i * b + j
            v |= (blob[bit // 8] >> (bit % 8) & 1) << j
        out.append(DIGITS[v] if v < 36 else '(%d)' % v)
        i += 1
    return ''.join(out)


def cells(text):
    i, vals = 0, []
    while i < len(text):
        ch = text[i]
        if ch == '(':
            end = text.index(')', i)
            vals.append(int(text[i + 1:end]))
            i = end + 1
            continue
        if ch.lower() in DIGITS:
            vals.append(DIGITS.index(ch.lower()))
        i += 1
    return vals


def pack(text, layout, k):
    vals = cells(text)
    assert len(vals) == layout.count('0'), (text, layout)
    return pack_cells(vals, k)


def pack_cells(vals, k):
    """The blob of the cell values vals (each < k), in cell order."""
    b = bits(k)
    out = bytearray((len(vals) * b + 7) // 8)
    for i, v in enumerate(vals):
        for j in range(b):
            if v >> j & 1:
                bit = i * b + j
                out[bit // 8] |= 1 << (bit % 8)
    return bytes(out)


def square_rows(blob, layout, k):
    """The rows of a stored state, for tests/puzzle_id.py: a square board
    without holes, values < 36 (else ValueError: not its boards)."""
    rows = unpack(blob, layout, k).split('/')
    if '.' in layout or '(' in ''.join(rows) or any(
            len(r) != len(rows) for r in rows):
        raise ValueError('puzzle_id.py knows square boards without holes'
                         ' only, not %r' % layout)
    return rows


def canon_blob(blob, layout, k):
    """The canonical form of a stored state, packed (as puzzles.canon)."""
    return pack_cells(list(puzzle_id.canonical(square_rows(blob, layout, k))),
                      k)


def uid(blob, layout, k, rule_hash):
    """The puzzle id of a stored state, as puzzles.uid holds it: the
    signed 64-bit integer with the id's bits."""
    u = int(puzzle_id.puzzle_id(rule_hash,
                                '/'.join(square_rows(blob, layout, k))), 16)
    return u - ((u >> 63) << 64)


def columns(db, table='puzzles'):
    return [c[1] for c in db.execute('PRAGMA table_info(%s)' % table)]


def run_ids(db):
    """A function of a row id: the id db's key runs hold for it, the runs
    decoded at its first call."""
    ids = []

    def run_uid(row):
        if not ids:
            import keyruns
            ids.append(keyruns.stored_ids(db))
        got = ids[0].get(row, [None])
        if len(got) != 1:
            raise ValueError('row %d in %d key runs' % (row, len(got)))
        return got[0]
    return run_uid


def connect(path):
    db = sqlite3.connect(path)
    db.create_function('run_uid', 1, run_ids(db))
    db.create_function('state_text', 3, unpack)
    db.create_function('state_blob', 3, pack)
    db.create_function('puzzle_canon', 3, canon_blob)
    db.create_function('puzzle_uid', 4, uid)
    db.create_function('readfile', 1, lambda p: open(p, 'rb').read())
    return db


def put_view(db):
    """TEMP view new_puzzles: puzzles without canon and uid; an INSERT
    into it inserts into puzzles with both computed from the state while
    the table has them."""
    info = [c for c in db.execute('PRAGMA table_info(puzzles)')
            if c[1] not in ('canon', 'uid')]
    cols = [c[1] for c in info]
    # a column the INSERT leaves out is NULL in the view: NOT NULL columns
    # get their default back
    new = ['coalesce(NEW.%s, %s)' % (c[1], c[4]) if c[3] and c[4] is not None
           else 'NEW.' + c[1] for c in info]
    keys = [c for c in ('canon', 'uid') if c in columns(db)]
    rule = '(SELECT %s FROM rules WHERE id = NEW.rule_id)'
    args = ['NEW.state', rule % 'layout', rule % 'colours']
    calc = {'canon': 'puzzle_canon(%s)' % ', '.join(args),
            'uid': 'puzzle_uid(%s)' % ', '.join(args + [rule % 'hash'])}
    db.executescript(
        'CREATE TEMP VIEW new_puzzles AS SELECT %s FROM main.puzzles;'
        'CREATE TEMP TRIGGER new_puzzles_put INSTEAD OF INSERT ON'
        ' new_puzzles BEGIN INSERT INTO puzzles (%s) VALUES (%s); END'
        % (', '.join(cols), ', '.join(cols + keys),
           ', '.join(new + [calc[c] for c in keys])))


def rekey(db, rows):
    """canon and uid of rows (all when empty) from their states, while the
    puzzles table has them."""
    keys = [c for c in ('canon', 'uid') if c in columns(db)]
    if not keys:
        return
    args = 'p.state, r.layout, r.colours'
    calc = {'canon': 'puzzle_canon(%s)' % args,
            'uid': 'puzzle_uid(%s, r.hash)' % args}
    sql = ('UPDATE puzzles AS p SET %s FROM rules r WHERE r.id = p.rule_id'
           % ', '.join('%s = %s' % (c, calc[c]) for c in keys))
    if rows:
        sql += ' AND p.id IN (%s)' % ', '.join('%d' % int(r) for r in rows)
    db.execute(sql)


def main():
    args = sys.argv[1:]
    if args[:1] == ['--rekey']:
        db = connect(args[1])
        rekey(db, args[2:])
        db.commit()
        return
    put = args[:1] == ['--put']
    if put:
        args = args[1:]
    db = connect(args[0])
    if put:
        put_view(db)
    if args[1] == '-':
        db.executescript(sys.stdin.read())
        return
    for row in db.execute(args[1]):
        print(' '.join('' if v is None else str(v) for v in row))
    db.commit()


if __name__ == '__main__':
    main()
