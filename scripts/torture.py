#!/usr/bin/env python3
"""Malformed-input corpus for quench (issue #9, part 2).

Generates, deterministically (seeded), every truncation and sampled
single-byte corruptions of valid fixtures, plus hand-made special cases
(invalid UTF-8, BOMs, CRLF, NULs, 10^5-deep nesting, alias bombs, duplicate
and unknown keys, huge numbers, negative and absurd sizes, wrong lengths,
values >= k, witnesses that fail, tampered packs, damaged databases), runs
the quench binary on each and checks:

  * the exit status is in the documented set for that command (docs/quench.1
    EXIT STATUS and the command's own paragraph);
  * no death by signal, no timeout;
  * stderr has no sanitizer report ("AddressSanitizer", "runtime error",
    "LeakSanitizer", "UndefinedBehaviorSanitizer");
  * with status 65 (and 66/74 for the database kinds) stderr has a located
    message: "FILE:LINE:COL: " for YAML rules, JSON and text inputs when the
    fault is syntactic, at least "FILE: " (the input's name) otherwise; a
    rule file whose 'quench' key was hit is "FILE: not a rule file: ...",
    which by design has no place;
  * wall time under --limit-ms (100 ms; the san build gets --san-multiplier,
    default 5, chosen automatically when the binary's path contains "/san/").
    A case over the limit under --jobs > 1 is re-run alone three times and
    only counted slow when its fastest run is still over: contention
    between parallel jobs is not the program's fault. --limit-ms 0 keeps
    only the hang guard (TIMEOUT_S): tests/cli/t900 runs so, since make
    check asserts no timings (a loaded machine is not a bug); make torture
    keeps the 100 ms bar.

Fixtures: tests/torture/ (text, JSON, CSV, netpbm), a few rules/*.yaml, and,
made at run time by the binary under test, a pack JSON
(generate --seed 1 -n 6 then export --format json) and its database.

Sizes: truncations are exhaustive (every length 0..n-1) for every text
fixture; for the database (tens of KB) every 512-byte boundary plus 64
seeded random lengths. Corruptions: every byte position for fixtures up to
600 bytes with one seeded replacement byte each, plus 3 extra fixed
replacements (0x00, 0xff, bit 7 flipped) at 200 seeded positions; for larger
fixtures 800 seeded positions; for the database 600 seeded positions inside
the first 4 pages and 400 elsewhere.

Usage: scripts/torture.py [--quench build/quench] [--sample N] [--jobs N]
                          [--out DIR] [--seed S] [--list]
Exit status: 0 when every case passes, 1 otherwise, 2 on set-up failure.
"""

import argparse
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(TOP, 'tests', 'torture')
RULES = os.path.join(TOP, 'rules')
SAN_PATTERNS = ('AddressSanitizer', 'runtime error', 'LeakSanitizer',
                'UndefinedBehaviorSanitizer', 'ThreadSanitizer')
TIMEOUT_S = 10.0

# Well-formed rules at the documented size limits are not malformed input:
# they do the real work of a 4096-cell dense rule (elimination over 4096
# unknowns) or a 4096x4096 big grid (16M cells), so they get their own
# limit instead of the 100 ms that every malformed case must meet.
VALID_AT_LIMITS = {'grid=4096x1': 1000.0, 'grid=4096x4096': 1000.0}


class Case:
    __slots__ = ('kind', 'name', 'files', 'argv', 'allowed', 'locate',
                 'need_line_col', 'want', 'limit_ms')

    def __init__(self, kind, name, files, argv, allowed, locate,
                 need_line_col=False):
        self.kind = kind          # e.g. "rules/trunc"
        self.name = name          # unique case name
        self.files = files        # {relative name: bytes} written per case
        self.argv = argv          # arguments after the binary; RULES/... paths absolute
        self.allowed = allowed    # allowed exit statuses
        self.locate = locate      # file name the message must start with
        self.need_line_col = need_line_col
        self.want = None          # regex a non-zero status's stderr must match
        self.limit_ms = None      # own time limit (VALID_AT_LIMITS), else --limit-ms


# ---------------------------------------------------------------- mutations

def truncations(data, limit=None, rng=None, step=None):
    n = len(data)
    if limit is None or n <= limit:
        lens = list(range(n))
    else:
        lens = set(range(0, n, step)) | {rng.randrange(n) for _ in range(64)}
        lens |= {1, 2, 15, 16, 99, 100, 101, n - 1}
        lens = sorted(x for x in lens if x < n)
    for k in lens:
        yield 'trunc@%d' % k, data[:k]


def corruptions(data, rng, small=600, extra_pos=200, big_pos=800):
    n = len(data)
    if n == 0:
        return
    if n <= small:
        for i in range(n):
            b = rng.randrange(256)
            if b == data[i]:
                b ^= 0x55
            yield 'corrupt@%d=%02x' % (i, b), data[:i] + bytes([b]) + data[i + 1:]
        pos = sorted(rng.sample(range(n), min(extra_pos, n)))
        for i in pos:
            for b in {0x00, 0xff, data[i] ^ 0x80} - {data[i]}:
                yield 'corrupt@%d=%02x' % (i, b), data[:i] + bytes([b]) + data[i + 1:]
    else:
        for i in sorted(rng.sample(range(n), min(big_pos, n))):
            b = rng.randrange(256)
            if b == data[i]:
                b ^= 0x55
            yield 'corrupt@%d=%02x' % (i, b), data[:i] + bytes([b]) + data[i + 1:]


def encoding_specials(data, rng):
    """BOMs, CRLF, NULs, invalid UTF-8 at start, middle and end."""
    mid = len(data) // 2
    out = [
        ('bom-utf8', b'\xef\xbb\xbf' + data),
        ('bom-utf16le', b'\xff\xfe' + data),
        ('bom-utf16be', b'\xfe\xff' + data),
        ('utf16le', data.decode('latin-1').encode('utf-16-le')),
        ('bom-mid', data[:mid] + b'\xef\xbb\xbf' + data[mid:]),
        ('crlf', data.replace(b'\n', b'\r\n')),
        ('cr-only', data.replace(b'\n', b'\r')),
        ('no-final-newline', data.rstrip(b'\n')),
        ('nul-start', b'\x00' + data),
        ('nul-mid', data[:mid] + b'\x00' + data[mid:]),
        ('nul-end', data + b'\x00'),
        ('all-nul', b'\x00' * 4096),
        ('empty', b''),
        ('only-newlines', b'\n' * 1000),
        ('only-spaces', b' ' * 1000),
        ('random-4k', bytes(rng.randrange(256) for _ in range(4096))),
        ('random-ascii-4k', bytes(rng.randrange(32, 127) for _ in range(4096))),
        ('doubled', data + data),
        ('long-line-1M', data + b'x' * (1 << 20) + b'\n'),
    ]
    for nm, seq in [('ff', b'\xff'), ('fe', b'\xfe'), ('lone-cont', b'\x80'),
                    ('overlong-slash', b'\xc0\xaf'), ('overlong-nul', b'\xc0\x80'),
                    ('surrogate', b'\xed\xa0\x80'), ('beyond-10ffff', b'\xf4\x90\x80\x80'),
                    ('truncated-3', b'\xe2\x82'), ('truncated-4', b'\xf0\x9f\x98'),
                    ('five-byte', b'\xf8\x88\x80\x80\x80')]:
        out.append(('utf8-%s-start' % nm, seq + data))
        out.append(('utf8-%s-mid' % nm, data[:mid] + seq + data[mid:]))
        out.append(('utf8-%s-end' % nm, data + seq))
    return out


# ---------------------------------------------------------------- YAML cases

def yaml_specials():
    base = (b'quench: 1\nname: t\ncolours: 2\nboard:\n  grid: [3, 3]\n'
            b'press:\n  stencil: plus\n')
    c = []
    add = lambda n, d: c.append((n, d))
    for depth in (33, 1000, 100000):
        add('deep-flow-seq-%d' % depth, base + b'extra: ' + b'[' * depth + b']' * depth + b'\n')
        add('deep-flow-map-%d' % depth, base + b'extra: ' + b'{a: ' * depth + b'1' + b'}' * depth + b'\n')
        add('deep-unclosed-%d' % depth, base + b'extra: ' + b'[' * depth + b'\n')
    blk = b''.join(b' ' * i + b'- \n' for i in range(0, 2000))
    add('deep-block-seq', base + b'extra:\n' + blk)
    blk = b''.join(b' ' * (2 * i) + b'k%d:\n' % i for i in range(0, 3000))
    add('deep-block-map', base + b'extra:\n' + b''.join(b'  ' + l + b'\n' for l in blk.split(b'\n')))
    # alias bombs (billion laughs) and plain anchors
    lines = [b'a0: &a0 [x, x, x, x, x, x, x, x, x, x]']
    for i in range(1, 10):
        lines.append(b'a%d: &a%d [' % (i, i) + b', '.join([b'*a%d' % (i - 1)] * 10) + b']')
    add('alias-bomb', b'\n'.join(lines) + b'\n' + base)
    add('alias-bomb-in-effects', base.replace(b'press:\n  stencil: plus\n', b'') +
        b'effects: &e\n  0: [[0, 1]]\n' + b''.join(b'x%d: *e\n' % i for i in range(5000)))
    add('anchor', base.replace(b'colours: 2', b'colours: &c 2'))
    add('alias-undefined', base.replace(b'colours: 2', b'colours: *nope'))
    add('alias-self', b'a: &a [*a]\n' + base)
    add('merge-key', base + b'x: &x {a: 1}\ny:\n  <<: *x\n')
    add('tag', base.replace(b'colours: 2', b'colours: !!int 2'))
    add('tag-custom', base.replace(b'colours: 2', b'colours: !foo 2'))
    add('multi-doc', base + b'---\n' + base)
    add('doc-end', base + b'...\n')
    add('directive', b'%YAML 1.1\n---\n' + base)
    add('directive-bad', b'%YAML 9.9\n---\n' + base)
    add('dup-key', base + b'name: again\n')
    add('dup-key-nested', base.replace(b'  grid: [3, 3]\n', b'  grid: [3, 3]\n  grid: [4, 4]\n'))
    add('dup-keys-many', base + b''.join(b'name: n%d\n' % i for i in range(10000)))
    add('unknown-key', base + b'toggles: 1\n')
    add('unknown-key-nested', base.replace(b'  stencil: plus\n', b'  stencil: plus\n  bogus: 1\n'))
    add('unknown-keys-many', base + b''.join(b'k%d: %d\n' % (i, i) for i in range(20000)))
    add('complex-key', base + b'? [a, b]\n: 1\n')
    add('null-key', base + b'~: 1\n')
    add('tab-indent', base.replace(b'  grid', b'\tgrid'))
    add('top-seq', b'- 1\n- 2\n')
    add('top-scalar', b'hello\n')
    add('top-null', b'~\n')
    for v in [b'0', b'1', b'256', b'-1', b'-2', b'3.5', b'1e400', b'0x10', b'0o7', b'.inf', b'.nan',
              b'99999999999999999999999999999', b'-9223372036854775809', b'18446744073709551617',
              b'2147483648', b'4294967298', b'"2"', b'[2]', b'{a: 2}', b'', b'yes', b'+2', b'02']:
        add('colours=%s' % v.decode(), base.replace(b'colours: 2', b'colours: ' + v))
    for w, h in [(0, 3), (-1, 3), (3, -5), (-3, -3), (4096, 1), (4097, 1), (4096, 4096),
                 (65536, 65536), (65537, 2), (2147483647, 2147483647), (2147483648, 1),
                 (4294967296, 1), (99999999999999999999, 1), (1, 0), (100000, 100000),
                 ('3.0', 3), ('a', 3)]:
        add('grid=%sx%s' % (w, h), base.replace(b'[3, 3]', ('[%s, %s]' % (w, h)).encode()))
    add('grid-1-elem', base.replace(b'[3, 3]', b'[3]'))
    add('grid-3-elem', base.replace(b'[3, 3]', b'[3, 3, 3]'))
    add('grid-empty', base.replace(b'[3, 3]', b'[]'))
    add('quench-version-2', base.replace(b'quench: 1', b'quench: 2'))
    add('quench-version-huge', base.replace(b'quench: 1', b'quench: 99999999999999999999'))
    # explicit effects: wrong cells, amounts >= k, negative
    eff = (b'quench: 1\nname: t\ncolours: 3\nboard: {graph: 3}\neffects:\n'
           b'  0: [[0, 1], [1, 1]]\n  1: [[1, 1]]\n  2: [[2, 1]]\n')
    add('effects-ok', eff)
    add('effects-amount-eq-k', eff.replace(b'[1, 1]]\n  2', b'[1, 3]]\n  2'))
    add('effects-amount-neg', eff.replace(b'[[1, 1]]', b'[[1, -1]]'))
    add('effects-amount-huge', eff.replace(b'[[1, 1]]', b'[[1, 99999999999999999999]]'))
    add('effects-cell-oob', eff.replace(b'[[2, 1]]', b'[[3, 1]]'))
    add('effects-cell-neg', eff.replace(b'[[2, 1]]', b'[[-1, 1]]'))
    add('effects-cell-huge', eff.replace(b'[[2, 1]]', b'[[4294967296, 1]]'))
    add('effects-pair-short', eff.replace(b'[[2, 1]]', b'[[2]]'))
    add('effects-pair-long', eff.replace(b'[[2, 1]]', b'[[2, 1, 1]]'))
    add('effects-key-oob', eff + b'  3: [[0, 1]]\n')
    add('effects-key-neg', eff + b'  -1: [[0, 1]]\n')
    add('effects-key-dup', eff + b'  2: [[0, 1]]\n')
    add('effects-missing', eff.replace(b'  2: [[2, 1]]\n', b''))
    add('effects-empty', eff.replace(b'[[2, 1]]', b'[]'))
    add('graph-0', eff.replace(b'{graph: 3}', b'{graph: 0}'))
    add('graph-neg', eff.replace(b'{graph: 3}', b'{graph: -3}'))
    add('graph-huge', eff.replace(b'{graph: 3}', b'{graph: 4294967299}'))
    add('graph-4097', eff.replace(b'{graph: 3}', b'{graph: 4097}'))
    # goal / mask wrong lengths and values >= k
    add('goal-ok', base + b'goal: 000/010/000\n')
    add('goal-value-k', base + b'goal: 000/020/000\n')
    add('goal-value-z', base + b'goal: 000/0z0/000\n')
    add('goal-short-row', base + b'goal: 000/01/000\n')
    add('goal-long-row', base + b'goal: 000/0100/000\n')
    add('goal-rows', base + b'goal: 000/000\n')
    add('goal-many-rows', base + b'goal: ' + b'/'.join([b'000'] * 10000) + b'\n')
    add('goal-huge-row', base + b'goal: ' + b'0' * 100000 + b'\n')
    add('goal-bad-char', base + b'goal: 000/0\xc3\xa90/000\n')
    add('mask-ok', base + b'mask: ["###", "#.#", "###"]\n')
    add('mask-rows', base + b'mask: ["###", "###"]\n')
    add('mask-cols', base + b'mask: ["###", "##", "###"]\n')
    add('mask-bad-char', base + b'mask: ["###", "#o#", "###"]\n')
    add('mask-all-holes', base + b'mask: ["...", "...", "..."]\n')
    add('stencil-unknown', base.replace(b'stencil: plus', b'stencil: pentagram'))
    add('stencil-empty-list', base.replace(b'stencil: plus', b'stencil: []'))
    add('stencil-offsets-huge', base.replace(b'stencil: plus',
                                             b'stencil: [[0, 0, 1], [99999999999, 0, 1]]'))
    add('tiers-overlap', base + b'tiers:\n  easy: 1..5\n  medium: 5..10\n')
    add('tiers-huge', base + b'tiers:\n  easy: 1..99999999999999999999\n')
    add('tiers-neg', base + b'tiers:\n  easy: -5..-1\n')
    add('name-huge', base.replace(b'name: t', b'name: ' + b'n' * 1000000))
    add('string-escapes', base.replace(b'name: t', b'name: "\\x00\\uD800\\U0010FFFF\\q"'))
    add('many-events', base + b'x: [' + b'1, ' * 300000 + b'1]\n')
    add('unterminated-quote', base.replace(b'name: t', b'name: "t'))
    add('unterminated-flow', base.replace(b'[3, 3]', b'[3, 3'))
    add('colon-junk', base + b': : : :\n')
    return c


# ---------------------------------------------------------------- JSON specials

def json_deep(depth, kind='['):
    if kind == '[':
        return b'[' * depth + b']' * depth
    return b'{"a":' * depth + b'1' + b'}' * depth


def pack_tampers(doc_bytes):
    """Tampered quench-pack documents, each should be rejected (65)."""
    doc = json.loads(doc_bytes)
    out = []

    def t(name, fn, ok_allowed=False):
        d = json.loads(doc_bytes)
        try:
            fn(d)
        except (IndexError, KeyError, TypeError):
            return
        out.append((name, json.dumps(d).encode(), ok_allowed))

    p = lambda d: d['puzzles']
    t('witness', lambda d: p(d)[2]['solution'].__setitem__(0, p(d)[2]['solution'][0] ^ 1))
    t('witness-all-zero', lambda d: p(d)[0].__setitem__('solution', [0] * len(p(d)[0]['solution'])))
    t('witness-short', lambda d: p(d)[0]['solution'].pop())
    t('witness-long', lambda d: p(d)[0]['solution'].append(0))
    t('witness-value-k', lambda d: p(d)[0]['solution'].__setitem__(0, 2))
    t('witness-neg', lambda d: p(d)[0]['solution'].__setitem__(0, -1))
    t('witness-huge', lambda d: p(d)[0]['solution'].__setitem__(0, 10 ** 30))
    t('witness-string', lambda d: p(d)[0].__setitem__('solution', '0'))
    t('min+1', lambda d: p(d)[1].__setitem__('min_presses', p(d)[1]['min_presses'] + 1))
    t('min-neg', lambda d: p(d)[1].__setitem__('min_presses', -1))
    t('min-huge', lambda d: p(d)[1].__setitem__('min_presses', 10 ** 40))
    t('min-2^63', lambda d: p(d)[1].__setitem__('min_presses', 2 ** 63))
    t('min-float', lambda d: p(d)[1].__setitem__('min_presses', 1.5))
    t('min-float-int', lambda d: p(d)[1].__setitem__('min_presses', float(p(d)[1]['min_presses'])))
    t('min-null', lambda d: p(d)[1].__setitem__('min_presses', None))
    t('min-missing', lambda d: p(d)[1].pop('min_presses'))
    t('optimal+1', lambda d: p(d)[0].__setitem__('optimal_solutions', p(d)[0]['optimal_solutions'] + 1))
    t('optimal-0', lambda d: p(d)[0].__setitem__('optimal_solutions', 0))
    t('optimal-huge', lambda d: p(d)[0].__setitem__('optimal_solutions', 10 ** 30))
    t('state-value-k', lambda d: p(d)[3]['state'].__setitem__(5, 2))
    t('state-value-255', lambda d: p(d)[3]['state'].__setitem__(5, 255))
    t('state-value-neg', lambda d: p(d)[3]['state'].__setitem__(5, -1))
    t('state-short', lambda d: p(d)[3]['state'].pop())
    t('state-long', lambda d: p(d)[3]['state'].extend([0] * 100000))
    t('state-empty', lambda d: p(d)[3].__setitem__('state', []))
    t('state-nested', lambda d: p(d)[3]['state'].__setitem__(0, [0]))
    t('state-other-puzzle', lambda d: p(d)[3].__setitem__('state', list(p(d)[2]['state'])))
    t('id-int', lambda d: p(d)[0].__setitem__('id', 7))
    t('id-dup', lambda d: p(d)[1].__setitem__('id', p(d)[0]['id']))
    t('puzzle-dup', lambda d: p(d).append(dict(p(d)[0])))
    t('puzzles-empty', lambda d: d.__setitem__('puzzles', []), ok_allowed=True)
    t('puzzles-object', lambda d: d.__setitem__('puzzles', {}))
    t('rule-hash', lambda d: d['rules'][0].__setitem__('hash', '0' * 64))
    t('rule-hash-short', lambda d: d['rules'][0].__setitem__('hash', 'ab'))
    t('rule-missing', lambda d: d.__setitem__('rules', []))
    t('rule-colours-1', lambda d: d['rules'][0].__setitem__('colours', 1))
    t('rule-colours-256', lambda d: d['rules'][0].__setitem__('colours', 256))
    t('rule-colours-huge', lambda d: d['rules'][0].__setitem__('colours', 10 ** 20))
    t('rule-colours-3', lambda d: d['rules'][0].__setitem__('colours', 3))
    t('ncells-0', lambda d: d['rules'][0].__setitem__('ncells', 0))
    t('ncells-neg', lambda d: d['rules'][0].__setitem__('ncells', -9))
    t('ncells-huge', lambda d: d['rules'][0].__setitem__('ncells', 2 ** 40))
    t('ncells+1', lambda d: d['rules'][0].__setitem__('ncells', d['rules'][0]['ncells'] + 1))
    t('ncells-4097', lambda d: d['rules'][0].__setitem__('ncells', 4097))
    t('board-huge', lambda d: d['rules'][0]['board'].update(width=65536, height=65536))
    t('board-neg', lambda d: d['rules'][0]['board'].update(width=-3))
    t('goal-short', lambda d: d['rules'][0]['goal'].pop())
    t('goal-value-k', lambda d: d['rules'][0]['goal'].__setitem__(0, 2))
    t('effects-pop', lambda d: d['rules'][0]['cells'][0]['effects'].pop())
    t('effects-cell-oob', lambda d: d['rules'][0]['cells'][0]['effects'][0].__setitem__('cell', 9999))
    t('effects-cell-neg', lambda d: d['rules'][0]['cells'][0]['effects'][0].__setitem__('cell', -1))
    t('effects-amount-k', lambda d: d['rules'][0]['cells'][0]['effects'][0].__setitem__('amount', 2))
    t('effects-amount-0', lambda d: d['rules'][0]['cells'][0]['effects'][0].__setitem__('amount', 0))
    t('effects-dup', lambda d: d['rules'][0]['cells'][0]['effects'].append(
        dict(d['rules'][0]['cells'][0]['effects'][0])))
    t('effects-many', lambda d: d['rules'][0]['cells'][0]['effects'].extend(
        [{'cell': 0, 'amount': 1}] * 100000))
    t('cells-index-oob', lambda d: d['rules'][0]['cells'][0].__setitem__('index', 100))
    t('cells-pop', lambda d: d['rules'][0]['cells'].pop())
    t('cells-swap', lambda d: d['rules'][0]['cells'].reverse())
    t('format', lambda d: d.__setitem__('format', 'quench-pak'))
    t('format-version-3', lambda d: d.__setitem__('format_version', 3))
    t('format-version-huge', lambda d: d.__setitem__('format_version', 10 ** 30))
    t('pack-name-empty', lambda d: d['pack'].__setitem__('name', ''))
    t('pack-name-huge', lambda d: d['pack'].__setitem__('name', 'n' * 1000000), ok_allowed=True)
    t('pack-name-nul', lambda d: d['pack'].__setitem__('name', 'a\u0000b'))
    t('pack-missing', lambda d: d.pop('pack'))
    t('unknown-top-key', lambda d: d.__setitem__('bogus', 1), ok_allowed=True)
    t('unknown-puzzle-key', lambda d: p(d)[0].__setitem__('bogus', 1), ok_allowed=True)
    t('top-array', lambda d: d.clear())
    out.append(('top-is-array', b'[' + doc_bytes + b']', False))
    out.append(('top-is-number', b'1', False))
    out.append(('top-is-string', b'"quench-pack"', False))
    out.append(('top-is-null', b'null', False))
    # duplicate keys in the raw text (json.dumps cannot make them)
    s = doc_bytes.rstrip()
    out.append(('dup-top-key-format', b'{"format":"x",' + s[1:], False))
    out.append(('dup-top-key-puzzles', s[:-1] + b',"puzzles":[]}', False))
    out.append(('dup-key-min', s.replace(b'"min_presses":', b'"min_presses":0,"min_presses":', 1), False))
    out.append(('huge-number-literal', s.replace(b'"min_presses":', b'"min_presses":1' + b'0' * 400 + b',"x":', 1), False))
    out.append(('exp-number', s.replace(b'"min_presses":', b'"min_presses":1e999,"x":', 1), False))
    # whatever version the export writes: a tamper that changes nothing
    # would test nothing (and would be expected to fail)
    out.append(('neg-zero', re.sub(rb'"format_version":\d+', b'"format_version":-0', s, count=1), False))
    out.append(('bad-escape', s.replace(b'"title":"', b'"title":"\\ud800\\x', 1), False))
    out.append(('nul-escape-name', s.replace(b'"name":"', b'"name":"\\u0000', 1), False))
    for name, data, _ in out:
        if data == doc_bytes or data == s:
            raise SystemExit('torture.py: tamper %s changes nothing' % name)
    return out


def jsonl_specials():
    ok = b'{"id": "a", "state": "0100/1110/0001/1101"}\n'
    c = []
    add = lambda n, d: c.append((n, d))
    for depth in (1000, 100000):
        add('deep-array-%d' % depth, ok + json_deep(depth) + b'\n' + ok)
        add('deep-object-%d' % depth, ok + json_deep(depth, '{') + b'\n' + ok)
        add('deep-state-%d' % depth, b'{"id": "x", "state": ' + json_deep(depth) + b'}\n')
        add('deep-unclosed-%d' % depth, b'[' * depth + b'\n')
    add('witness-fails', b'{"id": "w", "state": "1100/1000/0000/0000", "solution": "0000000000000001"}\n')
    add('witness-value-k', b'{"id": "w", "state": "1100/1000/0000/0000", "solution": "2000000000000000"}\n')
    add('witness-short', b'{"id": "w", "state": "1100/1000/0000/0000", "solution": "1"}\n')
    add('witness-long', b'{"id": "w", "state": "1100/1000/0000/0000", "solution": "' + b'0' * 100000 + b'"}\n')
    add('witness-array-huge', b'{"id": "w", "state": "1100/1000/0000/0000", "solution": [1' + b',0' * 15 + b',99999999999999999999]}\n')
    add('witness-array-neg', b'{"id": "w", "state": "1100/1000/0000/0000", "solution": [-1' + b',0' * 15 + b']}\n')
    add('min-huge', b'{"id": "m", "state": "1100/1000/0000/0000", "min_presses": 99999999999999999999999}\n')
    add('min-neg', b'{"id": "m", "state": "1100/1000/0000/0000", "min_presses": -1}\n')
    add('min-float', b'{"id": "m", "state": "1100/1000/0000/0000", "min_presses": 1.0}\n')
    add('min-exp', b'{"id": "m", "state": "1100/1000/0000/0000", "min_presses": 1e999}\n')
    add('min-string', b'{"id": "m", "state": "1100/1000/0000/0000", "min_presses": "1"}\n')
    add('state-value-k', b'{"id": "s", "state": "2100/1000/0000/0000"}\n')
    add('state-array-value-k', b'{"id": "s", "state": [2' + b',0' * 15 + b']}\n')
    add('state-array-neg', b'{"id": "s", "state": [-1' + b',0' * 15 + b']}\n')
    add('state-array-huge', b'{"id": "s", "state": [4294967297' + b',0' * 15 + b']}\n')
    add('state-short', b'{"id": "s", "state": "1100/1000/0000"}\n')
    add('state-long', b'{"id": "s", "state": "' + b'0000/' * 100000 + b'0000"}\n')
    add('state-wrong-row', b'{"id": "s", "state": "11000/1000/0000/0000"}\n')
    add('dup-key', b'{"id": "d", "state": "1100/1000/0000/0000", "state": "0000/0000/0000/0001"}\n')
    add('dup-id', ok + ok.replace(b'0100/1110/0001/1101', b'1100/1000/0000/0000'))
    add('unknown-key', b'{"id": "u", "state": "1100/1000/0000/0000", "bogus": 1}\n')
    add('no-state', b'{"id": "u"}\n')
    add('id-huge', b'{"id": "' + b'i' * 1000000 + b'", "state": "1100/1000/0000/0000"}\n')
    add('id-number', b'{"id": 99999999999999999999999, "state": "1100/1000/0000/0000"}\n')
    add('many-lines', ok * 20000)
    add('many-bad-lines', b'{\n' * 20000)
    add('top-scalar', b'42\n')
    add('bad-escape', b'{"id": "\\ud800", "state": "1100/1000/0000/0000"}\n')
    add('nul-in-string', b'{"id": "a\x00b", "state": "1100/1000/0000/0000"}\n')
    add('array-unclosed', b'[{"id": "y", "state": "1100/1000/0000/0000"},\n')
    add('array-trailing-garbage', b'[{"id": "y", "state": "1100/1000/0000/0000"}] x\n')
    add('array-of-scalars', b'[1, 2, 3]\n')
    add('csv-unbalanced-quote', b'id,state\n"x,1100/1000/0000/0000\n')
    add('csv-header-only', b'id,state\n')
    add('csv-dup-column', b'id,state,state\nx,1100/1000/0000/0000,0000/0000/0000/0000\n')
    add('csv-unknown-column', b'id,state,bogus\nx,1100/1000/0000/0000,1\n')
    add('csv-too-many-fields', b'id,state\nx,1100/1000/0000/0000,1,2,3\n')
    add('csv-huge-field', b'id,state\nx,' + b'1' * 1000000 + b'\n')
    add('csv-crlf', b'id,state\r\nx,1100/1000/0000/0000\r\n')
    return c


def state_specials(k_ok_rows):
    c = []
    add = lambda n, d: c.append((n, d))
    add('value-k', b'20101/00000/11011/00000/10101\n')
    add('value-z', b'z0101/00000/11011/00000/10101\n')
    add('value-dot', b'.0101/00000/11011/00000/10101\n')
    add('short-row', b'0101/00000/11011/00000/10101\n')
    add('long-row', b'101010/00000/11011/00000/10101\n')
    add('few-rows', b'10101/00000\n')
    add('many-rows', b'00000\n' * 100000)
    add('huge-row', b'0' * 1000000 + b'\n')
    add('json-value-k', b'[2' + b',0' * 24 + b']\n')
    add('json-neg', b'[-1' + b',0' * 24 + b']\n')
    add('json-huge', b'[99999999999999999999999' + b',0' * 24 + b']\n')
    add('json-float', b'[1.5' + b',0' * 24 + b']\n')
    add('json-short', b'[0,0]\n')
    add('json-long', b'[' + b'0,' * 100000 + b'0]\n')
    add('json-nested', b'[[0]' + b',0' * 24 + b']\n')
    add('json-deep-100000', json_deep(100000))
    add('json-deep-unclosed', b'[' * 100000)
    add('json-object', b'{"state": [0]}\n')
    add('separators-only', b'////\n')
    add('mixed-sep', b'10101\n00000/11011\n00000/10101\n')
    add('trailing-slash', b'10101/00000/11011/00000/10101/\n')
    add('spaces', b'1 0 1 0 1/00000/11011/00000/10101\n')
    return c


def pnm_specials():
    c = []
    add = lambda n, d: c.append((n, d))
    body = b'0 ' * (70 * 65)
    add('wrong-size', b'P1\n3 3\n000000000\n')
    add('w0', b'P1\n0 65\n')
    add('h0', b'P1\n70 0\n')
    add('w-neg', b'P1\n-70 65\n' + body)
    add('w-huge', b'P1\n99999999999999999999 65\n' + body)
    add('w-2^32', b'P1\n4294967366 65\n' + body)
    add('w-2^31', b'P1\n2147483648 65\n' + body)
    add('wh-65536', b'P1\n65536 65536\n' + body)
    add('wh-65537', b'P4\n65537 2\n' + body)
    add('p4-65536sq-short', b'P4\n65536 65536\n' + b'\x00' * 100)
    add('p5-65536sq-short', b'P5\n65536 65536\n1\n' + b'\x00' * 100)
    add('p2-maxval-5', b'P2\n70 65\n5\n' + body)
    add('p2-maxval-0', b'P2\n70 65\n0\n' + body)
    add('p2-maxval-huge', b'P2\n70 65\n99999999999\n' + body)
    add('p2-maxval-65536', b'P2\n70 65\n65536\n' + body)
    add('p2-value-gt-maxval', b'P2\n70 65\n1\n7 ' + body)
    add('p5-maxval-255', b'P5\n70 65\n255\n' + b'\x07' * (70 * 65))
    add('p5-short', b'P5\n70 65\n1\n' + b'\x00' * 10)
    add('p5-maxval-65535', b'P5\n70 65\n65535\n' + b'\x00' * (70 * 65 * 2))
    add('p4-short', b'P4\n70 65\n' + b'\x00' * 10)
    add('p4-long', b'P4\n70 65\n' + b'\x00' * (9 * 65 + 1000))
    add('p1-short', b'P1\n70 65\n0 1 0\n')
    add('p1-value-2', b'P1\n70 65\n2 ' + body)
    add('p1-junk', b'P1\n70 65\nx ' + body)
    add('p3-color', b'P3\n70 65\n1\n' + body * 3)
    add('p6-color', b'P6\n70 65\n255\n' + b'\x00' * (70 * 65 * 3))
    add('p7-pam', b'P7\nWIDTH 70\nHEIGHT 65\nDEPTH 1\nMAXVAL 1\nENDHDR\n' + b'\x00' * (70 * 65))
    add('magic-only', b'P1')
    add('magic-bad', b'P9\n70 65\n' + body)
    add('comment-unterminated', b'P1\n# comment')
    add('comment-huge', b'P1\n#' + b'c' * 1000000 + b'\n70 65\n' + body)
    add('comment-in-number', b'P1\n7#c\n0 65\n' + body)
    add('header-no-space', b'P170 65\n' + body)
    return c


# ---------------------------------------------------------------- the corpus

def read(path):
    with open(path, 'rb') as f:
        return f.read()


def build_corpus(quench, work, seed):
    rng = random.Random(seed)
    cases = []

    def add(kind, name, fname, data, argv, allowed, line_col=None, locate=None):
        # docs/RULES.md "Errors": every rule-file problem is FILE:LINE:COL
        if line_col is None:
            line_col = kind.startswith('rules/')
        cases.append(Case(kind, '%s:%s' % (kind, name), {fname: data}, argv, allowed,
                          locate or fname, line_col))

    # rules: rules check FILE -> 0 or 65; syntax faults at FILE:LINE:COL
    rule_fixtures = ['classic-3x3.yaml', 'ring6-mod8.yaml', 'cross-7x7.yaml',
                     'hexagon-3.yaml', 'four-colour-10x10.yaml', 'quatrainment.yaml']
    for rf in rule_fixtures:
        data = read(os.path.join(RULES, rf))
        for nm, d in truncations(data):
            add('rules/trunc', rf + ':' + nm, 'r.yaml', d, ['rules', 'check', 'r.yaml'], {0, 65})
        for nm, d in corruptions(data, rng):
            add('rules/corrupt', rf + ':' + nm, 'r.yaml', d, ['rules', 'check', 'r.yaml'], {0, 65})
        for nm, d in encoding_specials(data, rng):
            add('rules/encoding', rf + ':' + nm, 'r.yaml', d, ['rules', 'check', 'r.yaml'], {0, 65})
    for nm, d in yaml_specials():
        add('rules/special', nm, 'r.yaml', d, ['rules', 'check', 'r.yaml'], {0, 65})
        # the same through solve (loads the rule, then a state)
        add('rules/special-solve', nm, 'r.yaml', d,
            ['solve', 'r.yaml', '--fill', '0'], {0, 1, 65})
        if nm in VALID_AT_LIMITS:
            for c in cases[-2:]:
                c.limit_ms = VALID_AT_LIMITS[nm]

    # validate: RULES FILE --jsonl -> 0, 1 or 65
    wam = os.path.join(RULES, 'whack-a-mole-4x4.yaml')
    for fx in ['subs.txt', 'subs.jsonl', 'subs.csv', 'subs.json']:
        data = read(os.path.join(FIX, fx))
        ext = fx.split('.')[1]
        fname = 'in.' + ext
        argv = ['validate', wam, fname, '--jsonl']
        for nm, d in truncations(data):
            add('validate/trunc', fx + ':' + nm, fname, d, argv, {0, 1, 65})
        for nm, d in corruptions(data, rng):
            add('validate/corrupt', fx + ':' + nm, fname, d, argv, {0, 1, 65})
        for nm, d in encoding_specials(data, rng):
            add('validate/encoding', fx + ':' + nm, fname, d, argv, {0, 1, 65})
    for nm, d in jsonl_specials():
        for fname in ('in.jsonl', 'in.json', 'in.csv', 'in.txt'):
            add('validate/special', nm + ':' + fname, fname, d,
                ['validate', wam, fname, '--jsonl'], {0, 1, 65})
    add('validate/special', 'witness-fails-exit1', 'in.jsonl',
        b'{"id": "w", "state": "1100/1000/0000/0000", "solution": "0000000000000001"}\n',
        ['validate', wam, 'in.jsonl', '--jsonl'], {1})

    # solve: RULES FILE -> 0, 1 or 65
    c55 = os.path.join(RULES, 'classic-5x5.yaml')
    ring = os.path.join(RULES, 'ring6-mod8.yaml')
    for fx, rule in [('state-5x5.txt', c55), ('state-5x5.json', c55), ('state-ring.txt', ring)]:
        data = read(os.path.join(FIX, fx))
        fname = 'st.' + fx.split('.')[1]
        argv = ['solve', rule, fname]
        for nm, d in truncations(data):
            add('solve/trunc', fx + ':' + nm, fname, d, argv, {0, 1, 65})
        for nm, d in corruptions(data, rng):
            add('solve/corrupt', fx + ':' + nm, fname, d, argv, {0, 1, 65})
        for nm, d in encoding_specials(data, rng):
            add('solve/encoding', fx + ':' + nm, fname, d, argv, {0, 1, 65})
    for nm, d in state_specials(None):
        add('solve/special', nm, 'st.txt', d, ['solve', c55, 'st.txt'], {0, 1, 65})
        add('solve/special-json', nm, 'st.json', d, ['solve', c55, 'st.json'], {0, 1, 65})
    add('solve/special', 'state-arg-value-k', 'none', b'',
        ['solve', c55, '--state', '20101/00000/11011/00000/10101'], {65}, locate='--state')
    add('solve/special', 'state-arg-huge', 'none', b'',
        ['solve', c55, '--state', '0' * 100000], {65}, locate='--state')

    # big boards: solve --size WxH FILE.pbm
    for fx, size in [('big-70x65.pbm', '70x65'), ('big-80x60.pbm', '80x60')]:
        data = read(os.path.join(FIX, fx))
        argv = ['solve', c55, '--size', size, 'st.pbm']
        for nm, d in truncations(data, limit=3000, rng=rng, step=97):
            add('bigboard/trunc', fx + ':' + nm, 'st.pbm', d, argv, {0, 1, 65})
        for nm, d in corruptions(data, rng, big_pos=700):
            add('bigboard/corrupt', fx + ':' + nm, 'st.pbm', d, argv, {0, 1, 65})
        for nm, d in encoding_specials(data, rng)[:20]:
            add('bigboard/encoding', fx + ':' + nm, 'st.pbm', d, argv, {0, 1, 65})
    for nm, d in pnm_specials():
        add('bigboard/special', nm, 'st.pbm', d,
            ['solve', c55, '--size', '70x65', 'st.pbm'], {0, 1, 65})
    # the message must be about the size (name --size, the size or a side
    # of it), not some later consequence of a wrapped-around number
    for sz in ['0x0', '-1x5', '70x-65', '65537x1', '65536x65536', '99999999999999999999x2',
               '4294967297x1', '4294967296x4294967296', 'x', '70x', 'x65', '70x65x1', '1e3x5',
               '70 x65', '0x10']:
        add('bigboard/size-arg', sz, 'none', b'',
            ['solve', c55, '--size', sz, '--fill', '1'], {64, 65}, locate=c55)
        sides = [x for x in re.split(r'[^0-9-]+', sz) if len(x) >= 3]
        cases[-1].want = r'size|%s' % '|'.join([re.escape(sz)] + [re.escape(x) for x in sides])

    # import: FILE --db fresh -> 0 or 65
    gen = os.path.join(work, 'gen')
    os.makedirs(gen, exist_ok=True)
    db = os.path.join(gen, 'p.db')
    if os.path.exists(db):
        os.unlink(db)
    r = subprocess.run([quench, '-q', 'generate', os.path.join(RULES, 'classic-3x3.yaml'),
                        '-n', '6', '--seed', '1', '--db', db, '--pack', 'small'],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode != 0:
        sys.exit('torture: cannot generate the fixture pack: %s' % r.stderr.decode(errors='replace'))
    r = subprocess.run([quench, 'export', 'small', '--format', 'json', '--db', db],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        sys.exit('torture: cannot export the fixture pack: %s' % r.stderr.decode(errors='replace'))
    pack = r.stdout
    iargv = ['import', 'p.json', '--db', 'out.db']
    def parses(d):
        try:
            json.loads(d)
            return True
        except ValueError:
            return False
    # docs/quench.1 import: "malformed JSON is reported as FILE:LINE:COL";
    # a proper prefix is malformed unless only trailing white space was cut
    for nm, d in truncations(pack):
        if parses(d):
            add('import/trunc', nm, 'p.json', d, iargv, {0})
        else:
            add('import/trunc', nm, 'p.json', d, iargv, {65}, line_col=True)
    for nm, d in corruptions(pack, rng, big_pos=1200):
        add('import/corrupt', nm, 'p.json', d, iargv, {0, 65})
    for nm, d in encoding_specials(pack, rng):
        add('import/encoding', nm, 'p.json', d, iargv, {0, 65})
    for nm, d, okk in pack_tampers(pack):
        add('import/tamper', nm, 'p.json', d, iargv, {0, 65} if okk else {65})
    for depth in (1000, 100000):
        add('import/special', 'deep-array-%d' % depth, 'p.json', json_deep(depth), iargv, {65})
        add('import/special', 'deep-object-%d' % depth, 'p.json', json_deep(depth, '{'), iargv, {65})
        add('import/special', 'deep-in-puzzle-%d' % depth, 'p.json',
            pack.replace(b'"min_presses":', b'"x":' + json_deep(depth) + b',"min_presses":', 1), iargv, {0, 65})

    # databases: db check (0, 65, 74, 78) and pack list (0, 65, 74, 78)
    dbdata = read(db)
    dargs = [(['db', '--db', 'q.db', 'check'], 'check'), (['pack', '--db', 'q.db', 'list'], 'list')]
    dball = {0, 65, 74, 78}
    for nm, d in truncations(dbdata, limit=0, rng=rng, step=512):
        for a, an in dargs:
            add('db/trunc', an + ':' + nm, 'q.db', d, a, dball)
    n = len(dbdata)
    pos = sorted(set(rng.sample(range(min(n, 4096 * 4)), min(600, n))) |
                 set(rng.sample(range(n), min(400, n))))
    for i in pos:
        b = rng.randrange(256)
        if b == dbdata[i]:
            b ^= 0x55
        d = dbdata[:i] + bytes([b]) + dbdata[i + 1:]
        add('db/corrupt', 'check:corrupt@%d=%02x' % (i, b), 'q.db', d, dargs[0][0], dball)
        if i < 4096 * 2:
            add('db/corrupt', 'list:corrupt@%d=%02x' % (i, b), 'q.db', d, dargs[1][0], dball)
    pages = n // 4096
    for pg in range(pages):
        d = dbdata[:pg * 4096] + b'\xa5' * 4096 + dbdata[(pg + 1) * 4096:]
        for a, an in dargs:
            add('db/page', '%s:page%d-a5' % (an, pg), 'q.db', d, a, dball)
        d = dbdata[:pg * 4096] + b'\x00' * 4096 + dbdata[(pg + 1) * 4096:]
        add('db/page', 'check:page%d-zero' % pg, 'q.db', d, dargs[0][0], dball)
    for nm, d in [('header-magic', b'SQLite format 2\x00' + dbdata[16:]),
                  ('page-size-1', dbdata[:16] + b'\x00\x01' + dbdata[18:]),
                  ('page-size-ff', dbdata[:16] + b'\xff\xff' + dbdata[18:]),
                  ('user-version-huge', dbdata[:60] + b'\x7f\xff\xff\xff' + dbdata[64:]),
                  ('user-version-neg', dbdata[:60] + b'\xff\xff\xff\xff' + dbdata[64:]),
                  ('page-count-huge', dbdata[:28] + b'\x7f\xff\xff\xff' + dbdata[32:]),
                  ('schema-cookie', dbdata[:40] + b'\x12\x34\x56\x78' + dbdata[44:]),
                  ('text-encoding-utf16', dbdata[:56] + b'\x00\x00\x00\x02' + dbdata[60:]),
                  ('text-encoding-bad', dbdata[:56] + b'\x00\x00\x00\x09' + dbdata[60:]),
                  ('only-header', dbdata[:100]), ('one-byte', dbdata[:1]),
                  ('random', bytes(rng.randrange(256) for _ in range(n))),
                  ('doubled', dbdata + dbdata),
                  ('text-file', b'hello, not a database\n')]:
        for a, an in dargs:
            add('db/special', an + ':' + nm, 'q.db', d, a, dball)
    return cases


# ---------------------------------------------------------------- running

def located(case, err):
    f = re.escape(case.locate)
    # a file without its 'quench' key (a corruption hit the key) is "not a
    # rule file", by design without a place (#31: nothing of such a file is
    # quoted or shown)
    if re.search(r'(^|\n)%s: not a rule file: ' % f, err):
        return True
    # a fault of the whole file (its size, its encoding) has no place either:
    # a place would make -v print a line of it (#31)
    if re.search(r'(^|\n)%s: file (is larger than \d+ bytes|is UTF-16)' % f, err):
        return True
    if case.need_line_col:
        return re.search(r'(^|\n)(quench: )?%s:\d+:\d+: ' % f, err) is not None
    return re.search(r'(^|\n)(quench: )?(\w+: )?%s(:\d+:\d+)?: ' % f, err) is not None


def run_one(quench, case, base, limit_ms):
    d = tempfile.mkdtemp(dir=base)
    try:
        for fn, data in case.files.items():
            if fn != 'none':
                with open(os.path.join(d, fn), 'wb') as fh:
                    fh.write(data)
        t0 = time.monotonic()
        p = subprocess.Popen([quench] + case.argv, cwd=d, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            _, err = p.communicate(timeout=TIMEOUT_S)
            timed_out = False
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
            timed_out = True
        ms = (time.monotonic() - t0) * 1000.0
    finally:
        shutil.rmtree(d, ignore_errors=True)
    err = err.decode('utf-8', errors='replace')
    rc = p.returncode
    problems = []
    if timed_out:
        problems.append('timeout after %.0f s' % TIMEOUT_S)
    elif rc < 0:
        problems.append('killed by signal %d' % -rc)
    elif rc not in case.allowed:
        problems.append('exit %d, expected one of %s' % (rc, sorted(case.allowed)))
    for pat in SAN_PATTERNS:
        if pat in err:
            problems.append('sanitizer report (%s)' % pat)
            break
    if case.want and rc not in (0, 1) and not re.search(case.want, err):
        problems.append('exit %d with a message that is not about the input (want /%s/)' %
                        (rc, case.want))
    if rc == 64 and case.want:
        pass  # a bad command line: its usage message names no file
    elif rc in (65, 66, 74) and not located(case, err):
        problems.append('exit %d without a located message (want "%s%s: ...")' %
                        (rc, case.locate, ':LINE:COL' if case.need_line_col else '[:LINE:COL]'))
    return rc, ms, err, problems


def repro(case, outdir, quench):
    cdir = os.path.join(outdir, 'fail', re.sub(r'[^A-Za-z0-9_.@=+-]', '_', case.name))[:240]
    os.makedirs(cdir, exist_ok=True)
    for fn, data in case.files.items():
        if fn != 'none':
            with open(os.path.join(cdir, fn), 'wb') as fh:
                fh.write(data)
    cmd = 'cd %s && %s %s' % (shq(cdir), shq(quench), ' '.join(shq(a) for a in case.argv))
    with open(os.path.join(cdir, 'cmd.sh'), 'w') as fh:
        fh.write('#!/bin/sh\n' + cmd + '\n')
    return cmd


def shq(s):
    if re.fullmatch(r'[A-Za-z0-9_./=:@%+,-]+', s):
        return s
    if len(s) > 200:
        s = s[:0] + s  # keep; quoting below handles any content
    return "'" + s.replace("'", "'\\''") + "'"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--quench', default=os.path.join(TOP, 'build', 'quench'))
    ap.add_argument('--sample', type=int, default=0, help='run a seeded random sample of N cases')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--out', default=os.path.join(TOP, 'build', 'torture'))
    ap.add_argument('--seed', type=int, default=9)
    ap.add_argument('--limit-ms', type=float, default=100.0,
                    help='time limit per case (0: none beyond the hang guard;'
                    'make check runs t900 so: timing is for make torture)')
    ap.add_argument('--san-multiplier', type=float, default=None,
                    help='time limit multiplier (default 5 when the binary path has /san/, else 1)')
    ap.add_argument('--kind', default='', help='only kinds starting with this prefix')
    ap.add_argument('--list', action='store_true', help='list case names and exit')
    a = ap.parse_args()
    quench = os.path.abspath(a.quench)
    if not os.access(quench, os.X_OK):
        print('torture: %s is not an executable' % quench, file=sys.stderr)
        return 2
    mult = a.san_multiplier
    if mult is None:
        mult = 5.0 if '/san/' in quench else 1.0
    limit = a.limit_ms * mult
    shutil.rmtree(os.path.join(a.out, 'fail'), ignore_errors=True)
    os.makedirs(a.out, exist_ok=True)
    # sanity: the fixtures are valid as they stand
    t0 = time.monotonic()
    cases = build_corpus(quench, a.out, a.seed)
    cases = [c for c in cases if c.kind.startswith(a.kind)]
    total = len(cases)
    if a.sample and a.sample < total:
        cases = random.Random(a.seed + 1).sample(cases, a.sample)
    if a.list:
        for c in cases:
            print(c.name)
        return 0
    base = tempfile.mkdtemp(prefix='torture-')
    env_note = ''
    os.environ.setdefault('ASAN_OPTIONS', 'detect_leaks=1')
    os.environ['QUENCH_DB'] = os.path.join(base, 'unused.db')
    results = []
    try:
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            futs = [(c, ex.submit(run_one, quench, c, base, limit)) for c in cases]
            for c, f in futs:
                results.append((c,) + f.result())
        # slow cases: confirm alone, best of three
        final = []
        for c, rc, ms, err, probs in results:
            lim = c.limit_ms * mult if c.limit_ms else limit
            if a.limit_ms > 0 and not probs and ms > lim:
                best = min(run_one(quench, c, base, lim)[1] for _ in range(3))
                if best > lim:
                    probs = ['too slow: %.1f ms (best of 3 alone), limit %.0f ms' % (best, lim)]
                ms = best
            final.append((c, rc, ms, err, probs))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    wall = time.monotonic() - t0

    per_kind = Counter(c.kind for c, *_ in final)
    fail_kind = Counter(c.kind for c, rc, ms, err, p in final if p)
    rcs = defaultdict(Counter)
    for c, rc, ms, err, p in final:
        rcs[c.kind][rc] += 1
    print('torture: %s, %d cases run%s (corpus %d), %d jobs, limit %.0f ms%s' %
          (quench, len(final), ' (sample)' if a.sample else '', total, a.jobs, limit,
           ' (x%g)' % mult if mult != 1 else ''))
    print('%-22s %7s %6s  %s' % ('kind', 'cases', 'fail', 'exit statuses'))
    for k in sorted(per_kind):
        print('%-22s %7d %6d  %s' % (k, per_kind[k], fail_kind[k],
                                      ' '.join('%s:%d' % (r, n) for r, n in sorted(rcs[k].items()))))
    times = sorted(((ms, c) for c, rc, ms, err, p in final), key=lambda x: -x[0])
    if times:
        print('slowest cases:')
        for ms, c in times[:5]:
            print('  %8.1f ms  %s' % (ms, c.name))
        mean = sum(t for t, _ in times) / len(times)
        print('mean %.1f ms per case; total %.1f s' % (mean, wall))
    fails = [(c, rc, ms, err, p) for c, rc, ms, err, p in final if p]
    if fails:
        print('\n%d FAILURES (reproduce with the commands below; inputs kept in %s/fail):' %
              (len(fails), a.out))
        for c, rc, ms, err, p in fails[:200]:
            print('FAIL %s: %s' % (c.name, '; '.join(p)))
            print('  $ %s' % repro(c, a.out, quench))
            for line in err.strip().splitlines()[:3]:
                print('    stderr: %s' % line[:200])
        if len(fails) > 200:
            print('... and %d more' % (len(fails) - 200))
        for c, *_ in fails[200:]:
            repro(c, a.out, quench)
    print('%d passed, %d failed' % (len(final) - len(fails), len(fails)))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
