#!/usr/bin/env python3
"""state_blob.py: a stored state or witness (docs/STORE.md, "Schema
(migration 0004)"), read and written apart from quench, for the tests.

A row keeps n cell values < k packed: b = ceil(log2 k) bits a cell, cell i
in bits i*b .. i*b+b-1 of the little-endian bit string (bit j of byte
j // 8 is bit j % 8, LSB first), ceil(n*b / 8) bytes. The board's shape is
rules.layout: its all-zero state text, '0' a cell, '.' a hole, '/' between
rows. A value is written 0-9 a-z, or "(NNN)" from 36 up (src/rules/state.h).

usage: state_blob.py DB SQL
  runs SQL on DB with two SQL functions, state_text(blob, layout, colours)
  and state_blob(text, layout, colours), and prints each row's values
  joined by ' ' (NULL as ''), as `sqlite3 -separator ' '` does. SQL "-":
  a script of statements from standard input, which may also call
  readfile(path) as the sqlite3 shell's.
"""
import sqlite3
import sys

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


def connect(path):
    db = sqlite3.connect(path)
    db.create_function('state_text', 3, unpack)
    db.create_function('state_blob', 3, pack)
    db.create_function('readfile', 1, lambda p: open(p, 'rb').read())
    return db


def main():
    db = connect(sys.argv[1])
    if sys.argv[2] == '-':
        db.executescript(sys.stdin.read())
        return
    for row in db.execute(sys.argv[2]):
        print(' '.join('' if v is None else str(v) for v in row))
    db.commit()


if __name__ == '__main__':
    main()
