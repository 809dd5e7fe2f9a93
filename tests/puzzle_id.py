#!/usr/bin/env python3
"""puzzle_id.py: the puzzle id of docs/STORE.md, computed apart from quench.

An independent implementation for the tests: SipHash-2-4 (written here
from the paper's definition, not libsodium's) of the canonical cells, one
byte each, keyed by the first 16 bytes of BLAKE2b-256 (Python's hashlib)
of the rule's 64 hex digits. The canonical form is the lexicographically
smallest image of the state under the dihedral group of a square grid
(D4), which is the symmetry group of the square boards the tests use
(classic Lights Out: no holes, the plus stencil, goal all zero).

usage: puzzle_id.py RULE_HASH STATE...   (STATE: rows of digits split by /)
prints one 16-hex-digit id per state;
       puzzle_id.py --canon STATE...    prints each state's canonical form,
as a state text (what a store's canonical key packs).
"""
import hashlib
import sys

MASK = (1 << 64) - 1


def rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & MASK


def siphash24(key, data):
    k0 = int.from_bytes(key[:8], 'little')
    k1 = int.from_bytes(key[8:16], 'little')
    v = [k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d,
         k0 ^ 0x6c7967656e657261, k1 ^ 0x7465646279746573]

    def rounds(n):
        for _ in range(n):
            v[0] = (v[0] + v[1]) & MASK; v[1] = rotl(v[1], 13); v[1] ^= v[0]
            v[0] = rotl(v[0], 32)
            v[2] = (v[2] + v[3]) & MASK; v[3] = rotl(v[3], 16); v[3] ^= v[2]
            v[0] = (v[0] + v[3]) & MASK; v[3] = rotl(v[3], 21); v[3] ^= v[0]
            v[2] = (v[2] + v[1]) & MASK; v[1] = rotl(v[1], 17); v[1] ^= v[2]
            v[2] = rotl(v[2], 32)

    n = len(data)
    full = n - n % 8
    for i in range(0, full, 8):
        m = int.from_bytes(data[i:i + 8], 'little')
        v[3] ^= m
        rounds(2)
        v[0] ^= m
    last = (n & 0xff) << 56
    for i, b in enumerate(data[full:]):
        last |= b << (8 * i)
    v[3] ^= last
    rounds(2)
    v[0] ^= last
    v[2] ^= 0xff
    rounds(4)
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def canonical(rows):
    n = len(rows)
    grid = [[int(c, 36) for c in r] for r in rows]
    if any(len(r) != n for r in grid):
        raise SystemExit('puzzle_id.py: square grids only')
    images = []
    g = grid
    for _ in range(4):
        g = [list(r) for r in zip(*g[::-1])]          # rotate 90 degrees
        images.append(g)
        images.append([r[::-1] for r in g])           # and its mirror
    return min(bytes(v for r in im for v in r) for im in images)


def puzzle_id(rule_hash, state):
    key = hashlib.blake2b(rule_hash.encode(), digest_size=32).digest()[:16]
    return '%016x' % siphash24(key, canonical(state.split('/')))


if __name__ == '__main__':
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    for s in sys.argv[2:]:
        if sys.argv[1] == '--canon':
            rows = s.split('/')
            c = canonical(rows)
            n = len(rows)
            print('/'.join(''.join('%d' % v for v in c[i * n:(i + 1) * n])
                           for i in range(n)))
        else:
            print(puzzle_id(sys.argv[1], s))
