#!/usr/bin/env python3
"""Corruption sweep for quench's databases (issue #17).

Builds real databases with the quench binary under test (several rules,
among them a k = 3 grid, a mod-8 graph and a hexagon; packs, a sorted and
an empty pack, validate --into, import of an export, a merge of two shard
databases, and one large enough for multi-level b-trees), then, round after
round, damages a copy of one of them and runs every command that reads a
database against it. Damage (seeded, one kind per round):

  bit        flip one bit
  byte       overwrite one byte with another value
  run        overwrite 2..256 bytes with random bytes (or zeros)
  page-zero  zero a whole page          page-random  randomise a page
  page-dup   copy another page over it  truncate     cut the file short
  rows       an SQL edit SQLite's own checks cannot see, made with
             foreign keys and CHECK constraints off (ROW_EDITS): an
             impossible minimum, junk states, a rule's text one character
             off, a dangling rule, puzzle or pack, a gap in a pack, a
             key run flipped, cut or holding a wrong id, ...

The place is drawn from the file's own map (page size from the header,
b-tree pages from SQLite's dbstat table of the pristine copy): the header
page (often its first 100 bytes), a page of the b-trees that hold rules,
runs, puzzles, packs and pack_puzzles (tables and their indexes), or
anywhere in the file.

Commands, each on a fresh copy of the damaged file: pack list (and --json),
pack show (plain, --json, --svg), export in every format (json jsonl csv
flip svg html, svg --puzzle, json -o FILE), db stats, db check, db migrate,
db merge with the damaged file as IN and as OUT, generate --db resuming
into it, validate --db and --into, import into it, and pack add (and --at),
remove, move, sort, rename, delete and create.

A run passes when: it was not killed by a signal (nor exited 128+), it
exited with a documented status for a damaged database (0, 65, 66, 71, 73,
74, 75, 78; 1 for validate; 70, an internal error, and 64, a usage error,
are failures), a non-zero status came with a message on stderr, stderr
holds no sanitizer report, and it finished within --timeout seconds.

Every round is reproducible from (--seed, round number): the summary names
the seed, and each failure keeps its damaged database, inputs and command
(cmd.sh) under OUT/fail/. (The fixtures hold timestamps and random run
keys, so the bytes of those fields differ from one build of them to the
next; the pages, offsets and all else are the same.) --case NAME (repeatable, or 'all') runs the named
deterministic damages of CASES instead of (or with --rounds, as well as)
random rounds.

Usage: scripts/corrupt.py [--quench build/quench] [--rounds N] [--seed S]
                          [--jobs N] [--out DIR] [--timeout S]
                          [--case NAME]... [--list]
Exit status: 0 when every run passes, 1 otherwise, 2 on set-up failure.
"""

import argparse
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = os.path.join(TOP, 'rules')
SAN_PATTERNS = ('AddressSanitizer', 'runtime error', 'LeakSanitizer',
                'UndefinedBehaviorSanitizer', 'ThreadSanitizer')
# docs/quench.1 EXIT STATUS: what a damaged database may earn. 64 (usage)
# and 70 (internal error) are findings: the command lines are well formed.
ALLOWED = {0, 65, 66, 71, 73, 74, 75, 78}
# The inputs of the commands, beside each damaged copy.
AUX = ('states.txt', 'pack.json', 'extra.db')
# The b-trees that hold quench's data (tables; their indexes are added).
# key_runs holds the puzzles' ids (migration 0008), and after the flip of
# the key-run store it alone does (docs/STORE-KEYRUNS.md).
TABLES = ('rules', 'runs', 'puzzles', 'packs', 'pack_puzzles', 'key_runs')
sys.path.insert(0, os.path.join(TOP, 'tests'))
import keyruns  # noqa: E402  (the run format, written apart from quench)


def rule(name):
    return os.path.join(RULES, name)


# ---------------------------------------------------------------- fixtures

class Fixture:
    """A pristine database and what its commands need to know about it."""

    def __init__(self, name, path, pack, gen, vrule):
        self.name = name
        self.path = path
        self.pack = pack        # the pack the commands show, export, edit
        self.gen = gen          # generate argv that made `pack` (to resume)
        self.vrule = vrule      # rule file of the validate commands
        self.data = b''
        self.page_size = 4096
        self.btrees = {}        # b-tree name -> its page numbers (1-based)
        self.member = 0         # a puzzle id in `pack`
        self.outsider = 0       # a puzzle id not in `pack`


def run_ok(quench, argv, cwd, stdout=subprocess.DEVNULL):
    r = subprocess.run([quench, '-q'] + argv, cwd=cwd, stdout=stdout,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        sys.exit('corrupt: set-up command failed (exit %d): quench %s\n%s' %
                 (r.returncode, ' '.join(argv),
                  r.stderr.decode(errors='replace')))
    return r.stdout


def gen_argv(rulefile, n, seed, db, pack):
    return ['generate', rule(rulefile), '-n', str(n), '--seed', str(seed),
            '--db', db, '--pack', pack]


def build_fixtures(quench, fdir):
    """The databases, and the inputs of their commands (AUX)."""
    if os.path.isdir(fdir):
        shutil.rmtree(fdir)
    os.makedirs(fdir)
    q = lambda *a, **kw: run_ok(quench, list(a), fdir, **kw)
    fx = []

    # main.db: four rules (k = 2 grid, k = 3 grid, mod-8 graph, hexagon),
    # a sorted pack, an empty one, and validate --into
    main = gen_argv('classic-5x5.yaml', 50, 1, 'main.db', 'p')
    q(*main)
    q(*gen_argv('lights-out-2000.yaml', 40, 3, 'main.db', 'lo3'))
    q(*gen_argv('ring6-mod8.yaml', 30, 4, 'main.db', 'ring'))
    q(*gen_argv('hexagon-3.yaml', 30, 5, 'main.db', 'hex'))
    q('pack', 'sort', 'lo3', '--db', 'main.db')
    q('pack', 'create', 'empty', '--title', 'nothing yet', '--db', 'main.db')
    csv = q('export', 'p', '--format', 'csv', '--db', 'main.db',
            stdout=subprocess.PIPE).decode()
    states = [l.split(',')[1] for l in csv.splitlines()[1:6]]
    new = run_ok(quench, ['generate', rule('classic-5x5.yaml'), '-n', '8',
                          '--seed', '99'], fdir, stdout=subprocess.PIPE)
    states += re.findall(r'"state":"([0-9/]+)"', new.decode())
    states += ['00000/00000/00000/00000/00000',
               '10000/00000/00000/00000/00000', '1111/0000']
    with open(os.path.join(fdir, 'states.txt'), 'w') as f:
        f.write('\n'.join(states) + '\n')
    r = subprocess.run([quench, '-q', 'validate', rule('classic-5x5.yaml'),
                        'states.txt', '--db', 'main.db', '--into', 'valid'],
                       cwd=fdir, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    if r.returncode not in (0, 1):
        sys.exit('corrupt: validate --into failed (exit %d)' % r.returncode)
    fx.append(Fixture('main', 'main.db', 'p', main, 'classic-5x5.yaml'))

    # merged.db: two shards merged, plus an import of an export
    q(*gen_argv('classic-5x5.yaml', 30, 11, 'shard.db', 'shard'))
    q(*gen_argv('torus-5x5.yaml', 30, 12, 's2.db', 'shard'))
    q('db', 'merge', 'merged.db', 'shard.db', 's2.db')
    with open(os.path.join(fdir, 'pack.json'), 'wb') as f:
        f.write(q('export', 'ring', '--format', 'json', '--db', 'main.db',
                  stdout=subprocess.PIPE))
    q('import', 'pack.json', '--db', 'merged.db', '--pack', 'imported')
    # extra.db: new puzzles for each fixture's pack, for db merge into it
    q(*gen_argv('classic-5x5.yaml', 10, 21, 'extra.db', 'p'))
    q(*gen_argv('torus-5x5.yaml', 10, 22, 'extra.db', 'shard'))
    q(*gen_argv('classic-7x7.yaml', 10, 23, 'extra.db', 'big'))
    fx.append(Fixture('merged', 'merged.db', 'shard',
                      gen_argv('torus-5x5.yaml', 30, 12, '@DB@', 'shard'),
                      'torus-5x5.yaml'))

    # big.db: enough rows for interior pages in every b-tree
    big = gen_argv('classic-7x7.yaml', 500, 7, 'big.db', 'big')
    q(*big)
    q('pack', 'sort', 'big', '--db', 'big.db')
    q('generate', rule('classic-3x3.yaml'), '-n', '4', '--seed', '8',
      '--db', 'big.db')  # puzzles in no pack
    fx.append(Fixture('big', 'big.db', 'big', big, 'classic-7x7.yaml'))

    for f in fx:
        f.path = os.path.join(fdir, f.path)
        f.gen = [('@DB@' if a.endswith('.db') else a) for a in f.gen]
        survey(f)
    return fx


def survey(f):
    """Page size, b-tree pages and puzzle ids of a pristine fixture."""
    with open(f.path, 'rb') as fh:
        f.data = fh.read()
    ps = int.from_bytes(f.data[16:18], 'big')
    f.page_size = 65536 if ps == 1 else ps
    db = sqlite3.connect('file:%s?mode=ro' % f.path, uri=True)
    try:
        names = {}
        for t, n, tbl in db.execute('SELECT type, name, tbl_name'
                                    ' FROM sqlite_schema'):
            if tbl in TABLES:
                names[n] = tbl
        try:
            for n, pg in db.execute('SELECT name, pageno FROM dbstat'):
                if n in names or n == 'sqlite_schema':
                    f.btrees.setdefault(n, []).append(pg)
        except sqlite3.Error:
            pass  # no dbstat: damage falls on pages drawn uniformly
        pid = db.execute('SELECT id FROM packs WHERE name = ?',
                         (f.pack,)).fetchone()[0]
        f.member = db.execute('SELECT puzzle_id FROM pack_puzzles WHERE'
                              ' pack_id = ? ORDER BY position DESC LIMIT 1',
                              (pid,)).fetchone()[0]
        f.outsider = db.execute('SELECT id FROM puzzles WHERE id NOT IN'
                                ' (SELECT puzzle_id FROM pack_puzzles WHERE'
                                ' pack_id = ?) ORDER BY id LIMIT 1',
                                (pid,)).fetchone()[0]
    finally:
        db.close()


# ---------------------------------------------------------------- commands

def commands(f):
    """(name, argv, allowed statuses) for fixture f; @DB@ is the damage."""
    P, DB = f.pack, '@DB@'
    gen = list(f.gen)
    gen[gen.index('-n') + 1] = str(int(gen[gen.index('-n') + 1]) + 5)
    c = [('pack-list', ['pack', 'list', '--db', DB]),
         ('pack-list-json', ['pack', 'list', '--json', '--db', DB]),
         ('pack-show', ['pack', 'show', P, '--db', DB]),
         ('pack-show-json', ['pack', 'show', P, '--json', '--db', DB]),
         ('pack-show-svg', ['pack', 'show', P, '--svg', '--db', DB])]
    for fmt in ('json', 'jsonl', 'csv', 'flip', 'svg', 'html'):
        c.append(('export-' + fmt, ['export', P, '--format', fmt,
                                    '--db', DB]))
    c += [('export-puzzle', ['export', P, '--format', 'svg', '--puzzle',
                             '#2', '--db', DB]),
          ('export-file', ['export', P, '--format', 'json', '-o',
                           'out.json', '--db', DB]),
          ('db-stats', ['db', 'stats', '--db', DB]),
          ('db-check', ['db', 'check', '--db', DB]),
          ('db-migrate', ['db', 'migrate', '--db', DB]),
          ('merge-in', ['db', 'merge', 'out.db', DB]),
          ('merge-out', ['db', 'merge', DB, 'extra.db']),
          ('generate', gen),
          ('validate', ['validate', rule(f.vrule), 'states.txt',
                        '--db', DB]),
          ('validate-into', ['validate', rule(f.vrule), 'states.txt',
                             '--db', DB, '--into', P]),
          ('import', ['import', 'pack.json', '--db', DB, '--pack',
                      'imported-again']),
          ('pack-add', ['pack', 'add', P, '#%d' % f.outsider, '--db', DB]),
          ('pack-add-at', ['pack', 'add', P, '#%d' % f.outsider, '--at', '1',
                           '--db', DB]),
          ('pack-remove', ['pack', 'remove', P, '#%d' % f.member, '--db', DB]),
          ('pack-move', ['pack', 'move', P, '#%d' % f.member, '1', '--db', DB]),
          ('pack-sort', ['pack', 'sort', P, '--db', DB]),
          ('pack-rename', ['pack', 'rename', P, 'renamed', '--db', DB]),
          ('pack-delete', ['pack', 'delete', P, '--db', DB]),
          ('pack-create', ['pack', 'create', 'fresh', '--title', 'new',
                           '--db', DB])]
    return [(n, a, ALLOWED | ({1} if n.startswith('validate') else set()))
            for n, a in c]


# ---------------------------------------------------------------- damage

KINDS = ('bit', 'byte', 'run', 'page-zero', 'page-random', 'page-dup',
         'truncate', 'rows')

# Edits of rows that SQLite's checks may never see but break quench's own
# invariants: (SQL, a function of (rng, ids) giving its parameters).
# ids[t] lists the ids of table t (pack_puzzles: its rowids).
BIG = (-1, 0, 1, 2 ** 31, 2 ** 62, 2 ** 63 - 1, -2 ** 63)


def junk(rng, alphabet='01234567/#.()abz \n\t"<>&', n=None):
    n = rng.randrange(0, 80) if n is None else n
    return ''.join(rng.choice(alphabet) for _ in range(n))


def junk_cells(rng):
    """A packed state or witness (docs/STORE.md) gone wrong: random bytes,
    often of a size some rule's states have (1 byte of a 3 x 3 board, 4 of
    a 5 x 5, 13 of a 10 x 10 of 4 colours ...), or now and then text."""
    if rng.random() < 0.1:
        return junk(rng)
    n = rng.choice((0, 1, 2, 3, 4, 5, 7, 13, 25, rng.randrange(0, 64)))
    fill = rng.choice((None, 0, 0xff))
    return bytes(rng.randrange(256) if fill is None else fill
                 for _ in range(n))


def mutate(rng, text):
    """text with one character replaced, inserted, or cut after it."""
    if not text:
        return junk(rng)
    i = rng.randrange(len(text))
    x = rng.random()
    if x < 0.4:
        return text[:i] + rng.choice('0123456789:[]{}-, xyz#\n') + \
            text[i + 1:]
    if x < 0.7:
        return text[:i] + rng.choice('0123456789:[]{}-, ') + text[i:]
    return text[:i]


ROW_EDITS = [
    ('UPDATE puzzles SET min_presses = ? WHERE id = ?',
     lambda r, ids: (r.choice(BIG + (r.randrange(100),)),
                     r.choice(ids['puzzles']))),
    ('UPDATE puzzles SET optimal = ? WHERE id = ?',
     lambda r, ids: (r.choice(BIG), r.choice(ids['puzzles']))),
    ('UPDATE puzzles SET state = ? WHERE id = ?',
     lambda r, ids: (junk_cells(r), r.choice(ids['puzzles']))),
    ('UPDATE puzzles SET witness = ? WHERE id = ?',
     lambda r, ids: (junk_cells(r), r.choice(ids['puzzles']))),
    ('UPDATE puzzles SET provenance = ? WHERE id = ?',
     lambda r, ids: (r.choice(BIG + (3, 'generate')),
                     r.choice(ids['puzzles']))),
    ('UPDATE rules SET layout = ? WHERE id = ?',
     lambda r, ids: (r.choice([None, junk(r), junk(r, '0./'),
                               junk(r, '0', r.choice((0, 1, 24, 25, 26)))]),
                     r.choice(ids['rules']))),
    ('UPDATE puzzles SET rule_id = ? WHERE id = ?',
     lambda r, ids: (r.choice([0, 999] + ids['rules']),
                     r.choice(ids['puzzles']))),
    # (canon: until the flip of the key-run store drops it; row_edit
    # skips an edit of a column the table lacks)
    ('UPDATE puzzles SET canon = ? WHERE id = ?',
     lambda r, ids: (bytes(r.randrange(256) for _ in range(r.randrange(1, 9))),
                     r.choice(ids['puzzles']))),
    # the key runs: a bit flipped, cut short, junk, gone, their columns
    # wrong, or a well-formed run holding a wrong id (run_edit(): below)
    ('UPDATE key_runs SET keys = ? WHERE id = ?', None),
    ('UPDATE key_runs SET keys = ? WHERE id = ?',
     lambda r, ids: (junk_cells(r), r.choice(ids['key_runs']))),
    ('UPDATE key_runs SET count = ?, first_key = ?, last_key = ?'
     ' WHERE id = ?',
     lambda r, ids: (r.choice(BIG + (65536, 65537)), r.choice(BIG),
                     r.choice(BIG), r.choice(ids['key_runs']))),
    ('UPDATE key_runs SET rule_id = ?, level = ? WHERE id = ?',
     lambda r, ids: (r.choice([0, 999] + ids['rules']), r.choice(BIG[:3]),
                     r.choice(ids['key_runs']))),
    ('DELETE FROM key_runs WHERE id = ?',
     lambda r, ids: (r.choice(ids['key_runs']),)),
    ('UPDATE puzzles SET grader = ?, seed = ?, stream_index = ?'
     ' WHERE id = ?',
     lambda r, ids: (junk(r), junk(r), r.choice(BIG),
                     r.choice(ids['puzzles']))),
    # a grade code without its grades row (migration 0007), or a name
    # gone from under the codes that hold it
    ('UPDATE puzzles SET grade = ? WHERE id = ?',
     lambda r, ids: (r.choice(BIG + (0, 6, 99)), r.choice(ids['puzzles']))),
    ('DELETE FROM grades WHERE id = (SELECT grade FROM puzzles WHERE id = ?)',
     lambda r, ids: (r.choice(ids['puzzles']),)),
    ('UPDATE grades SET name = ? WHERE id = (SELECT grade FROM puzzles'
     ' WHERE id = ?)',
     lambda r, ids: (junk(r), r.choice(ids['puzzles']))),
    ('DELETE FROM puzzles WHERE id = ?',
     lambda r, ids: (r.choice(ids['puzzles']),)),
    ('UPDATE pack_puzzles SET position = ? WHERE rowid = ?',
     lambda r, ids: (r.choice(BIG[:5] + (r.randrange(1, 600),)),
                     r.choice(ids['pack_puzzles']))),
    ('UPDATE pack_puzzles SET puzzle_id = ? WHERE rowid = ?',
     lambda r, ids: (r.choice([0, 99999] + ids['puzzles']),
                     r.choice(ids['pack_puzzles']))),
    ('UPDATE pack_puzzles SET pack_id = ? WHERE rowid = ?',
     lambda r, ids: (r.choice([0, 99] + ids['packs']),
                     r.choice(ids['pack_puzzles']))),
    ('DELETE FROM rules WHERE id = ?',
     lambda r, ids: (r.choice(ids['rules']),)),
    ('UPDATE rules SET yaml = ? WHERE id = ?', None),  # mutate(): below
    ('UPDATE rules SET cells = ?, colours = ? WHERE id = ?',
     lambda r, ids: (r.choice(BIG), r.choice(BIG + (3, 8, 256)),
                     r.choice(ids['rules']))),
    ('UPDATE rules SET hash = ?, name = ? WHERE id = ?',
     lambda r, ids: (junk(r, '0123456789abcdef', r.choice((0, 63, 64))),
                     junk(r), r.choice(ids['rules']))),
    ('UPDATE packs SET name = ?, title = ?, version = ? WHERE id = ?',
     lambda r, ids: (junk(r, n=r.randrange(0, 70)), junk(r), r.choice(BIG),
                     r.choice(ids['packs']))),
    ('DELETE FROM packs WHERE id = ?',
     lambda r, ids: (r.choice(ids['packs']),)),
    ('UPDATE runs SET next_index = ?, stored = ?, duplicates = ?,'
     ' requested = ?, status = ? WHERE id = ?',
     lambda r, ids: (r.choice(BIG), r.choice(BIG), r.choice(BIG),
                     r.choice(BIG),
                     r.choice(['running', 'done', 'bogus', '']),
                     r.choice(ids['runs']))),
    ('UPDATE runs SET options = ?, seed = ?, rule_id = ? WHERE id = ?',
     lambda r, ids: (junk(r), junk(r), r.choice([None, 0, 999] + ids['rules']),
                     r.choice(ids['runs']))),
]


def row_edit(db, rng):
    """Make one of ROW_EDITS on db; what was done, in words."""
    ids = {t: [r[0] for r in db.execute(
        'SELECT %s FROM %s ORDER BY 1' %
        ('rowid' if t == 'pack_puzzles' else 'id', t))] for t in TABLES}
    cols = {c[1] for c in db.execute('PRAGMA table_info(puzzles)')}
    edits = [e for e in ROW_EDITS if all(ids[t] for t in TABLES
                                         if re.search(r'\b%s\b' % t, e[0]))
             and not ('puzzles SET canon' in e[0] and 'canon' not in cols)]
    if not edits:
        return 'no row left to edit'
    sql, params = rng.choice(edits)
    if params is None and 'key_runs' in sql:
        args = run_edit(db, rng, ids)
    elif params is None:  # the rule text, one character off
        rid = rng.choice(ids['rules'])
        yaml = db.execute('SELECT yaml FROM rules WHERE id = ?',
                          (rid,)).fetchone()[0]
        args = (mutate(rng, yaml), rid)
    else:
        args = params(rng, ids)
    shown = repr(args) if len(repr(args)) < 300 else repr(args)[:300] + '...'
    try:
        db.execute(sql, args)
        db.commit()
        return '%s with %s' % (sql, shown)
    except sqlite3.Error as e:  # a UNIQUE or NOT NULL constraint
        return '%s with %s refused by SQLite (%s)' % (sql, shown, e)


def run_edit(db, rng, ids):
    """(blob, id) for a key run's new keys: one bit of it flipped, cut
    short, or its pairs with one id changed, encoded well (tests/
    keyruns.py: a valid run whose id is not its row's puzzle's)."""
    rid = rng.choice(ids['key_runs'])
    b = bytearray(db.execute('SELECT keys FROM key_runs WHERE id = ?',
                             (rid,)).fetchone()[0])
    x = rng.random()
    if x < 0.4 and b:
        bit = rng.randrange(len(b) * 8)
        b[bit // 8] ^= 1 << bit % 8
        return bytes(b), rid
    if x < 0.6:
        return bytes(b[:rng.randrange(len(b) + 1)]), rid
    try:
        pairs = keyruns.decode(bytes(b))
    except ValueError:
        return bytes(b), rid
    i = rng.randrange(len(pairs))
    key = (pairs[i][0] + rng.choice((1, -1, 1 << 63))) % (1 << 64)
    pairs[i] = (key, pairs[i][1])
    if len(set(pairs)) < len(pairs):
        return bytes(b), rid
    return keyruns.encode(pairs), rid


def row_damage(f, rng):
    """(bytes, what): 1..3 of ROW_EDITS made on a copy of f with SQLite,
    foreign keys and CHECK constraints off."""
    fd, tmp = tempfile.mkstemp(suffix='.db')
    try:
        os.write(fd, f.data)
        os.close(fd)
        db = sqlite3.connect(tmp)
        db.execute('PRAGMA foreign_keys = OFF')
        db.execute('PRAGMA ignore_check_constraints = ON')
        what = [row_edit(db, rng) for _ in range(rng.randrange(1, 4))]
        db.close()
        with open(tmp, 'rb') as fh:
            return fh.read(), '%s: rows: %s' % (f.name, '; '.join(what))
    finally:
        for x in ('', '-wal', '-shm'):
            if os.path.exists(tmp + x):
                os.unlink(tmp + x)


def pick_page(f, rng):
    """A page number (1-based) and the b-tree it belongs to (or '')."""
    npages = max(1, len(f.data) // f.page_size)
    x = rng.random()
    if x < 0.25:
        return 1, 'header page'
    if x < 0.8 and f.btrees:
        name = rng.choice(sorted(f.btrees))
        return rng.choice(f.btrees[name]), name
    pg = rng.randrange(npages) + 1
    owner = [n for n, pgs in f.btrees.items() if pg in pgs]
    return pg, owner[0] if owner else ''


def damage(f, rng, kind=None, page=None, offset=None, arg=None):
    """(bytes, description): f's data damaged one way, chosen by rng
    where kind/page/offset/arg are not given."""
    d = bytearray(f.data)
    ps = f.page_size
    kind = kind or rng.choice(KINDS)
    if kind == 'rows':
        return row_damage(f, rng)
    if page is None:
        page, owner = pick_page(f, rng)
    else:
        owner = [n for n, pgs in f.btrees.items() if page in pgs]
        owner = owner[0] if owner else ('header page' if page == 1 else '')
    base = (page - 1) * ps
    where = 'page %d%s' % (page, ' (%s)' % owner if owner else '')
    if offset is None:
        # a quarter of the header-page hits go to the 100-byte file header
        offset = rng.randrange(100) if page == 1 and rng.random() < 0.5 \
            else rng.randrange(ps)
    o = min(base + offset, len(d) - 1)
    if kind == 'bit':
        bit = rng.randrange(8) if arg is None else arg
        d[o] ^= 1 << bit
        what = 'bit %d of byte %d (%s +%d)' % (bit, o, where, offset)
    elif kind == 'byte':
        v = rng.randrange(256) if arg is None else arg
        if v == d[o]:
            v ^= 0x55
        d[o] = v
        what = 'byte %d = 0x%02x (%s +%d)' % (o, v, where, offset)
    elif kind == 'run':
        n = rng.randrange(2, 257) if arg is None else arg
        zero = rng.random() < 0.3
        n = min(n, len(d) - o)
        d[o:o + n] = bytes(n) if zero else bytes(rng.randrange(256)
                                                  for _ in range(n))
        what = '%d %s bytes from %d (%s +%d)' % (
            n, 'zero' if zero else 'random', o, where, offset)
    elif kind == 'page-zero':
        d[base:base + ps] = bytes(ps)
        what = 'zeroed %s' % where
    elif kind == 'page-random':
        d[base:base + ps] = bytes(rng.randrange(256) for _ in range(ps))
        what = 'randomised %s' % where
    elif kind == 'page-dup':
        npages = len(d) // ps
        src = rng.randrange(npages) + 1 if arg is None else arg
        if src == page:
            src = page % npages + 1
        d[base:base + ps] = f.data[(src - 1) * ps:src * ps]
        what = 'page %d copied over %s' % (src, where)
    elif kind == 'truncate':
        if arg is not None:
            n = arg
        elif rng.random() < 0.5:
            n = (page - 1) * ps  # at a page boundary
        else:
            n = rng.randrange(len(d))
        del d[n:]
        what = 'truncated to %d bytes (of %d)' % (n, len(f.data))
    else:
        raise ValueError(kind)
    return bytes(d), '%s: %s' % (f.name, what)


# Deterministic damages that failed before issue #17's fixes (t455 runs
# them): fixture, kind, page, offset in the page (None: drawn), and the
# kind's argument (None: drawn). A page is (b-tree name, index into its
# pages in file order; -1: the last), or 1 for the header page; page-dup's
# argument, the page copied, is given the same way.
CASES = {
    # the pack walk fails part-way (export and pack show --svg crashed)
    # (the unique key's index until the flip of the key-run store drops
    # it: then the key runs, which hold the ids, take its place)
    'canon-index-zeroed': ('main', 'page-zero',
                           ('sqlite_autoindex_puzzles_1', 0), None, None),
    'puzzles-leaf-zeroed': ('big', 'page-zero', ('puzzles', -1), None,
                            None),
    'puzzles-leaf-copied': ('main', 'page-dup', ('puzzles', 2), None,
                            ('puzzles', -1)),
    # the pack walk and a second query disagreed ("rule 1 has no text",
    # exit 70)
    'canon-index-overwritten': ('merged', 'page-dup',
                                ('sqlite_autoindex_puzzles_1', 0), None,
                                ('sqlite_autoindex_packs_1', 0)),
}


def case_page(f, name, page):
    if page == 1:
        return 1
    btree, i = page
    if btree == 'sqlite_autoindex_puzzles_1' and btree not in f.btrees:
        btree = 'key_runs'
    if btree not in f.btrees:
        sys.exit('corrupt: case %s: no b-tree %s in %s (no dbstat?)' %
                 (name, btree, f.name))
    return sorted(f.btrees[btree])[i]


def case_damage(fx, name):
    fname, kind, page, offset, arg = CASES[name]
    f = next(x for x in fx if x.name == fname)
    if kind == 'page-dup':
        arg = case_page(f, name, arg)
    data, what = damage(f, random.Random(name), kind,
                        case_page(f, name, page), offset, arg)
    return f, data, 'case %s: %s' % (name, what)


# ---------------------------------------------------------------- running

def run_one(quench, f, data, argv, timeout, aux, base):
    d = tempfile.mkdtemp(dir=base)
    try:
        with open(os.path.join(d, 'q.db'), 'wb') as fh:
            fh.write(data)
        for name in AUX:
            shutil.copy(os.path.join(aux, name), os.path.join(d, name))
        argv = ['q.db' if a == '@DB@' else a for a in argv]
        try:  # run() kills the command when it times out
            r = subprocess.run([quench] + argv, cwd=d, timeout=timeout,
                               stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
            rc, err, timed_out = r.returncode, r.stderr, False
        except subprocess.TimeoutExpired as e:
            rc, err, timed_out = None, e.stderr or b'', True
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return rc, err.decode('utf-8', errors='replace'), timed_out


def verdict(rc, err, timed_out, allowed, timeout):
    """(kind, detail) of a failed run, or None."""
    if timed_out:
        return 'timeout', 'no exit within %g s' % timeout
    if rc < 0:
        return 'signal', 'killed by signal %d' % -rc
    for pat in SAN_PATTERNS:
        if pat in err:
            return 'sanitizer', 'sanitizer report (%s)' % pat
    if rc >= 128:
        return 'signal', 'exit %d (a signal)' % rc
    if rc == 70:
        return 'internal', 'exit 70 (internal error)'
    if rc not in allowed:
        return 'status', 'exit %d, expected one of %s' % (rc, sorted(allowed))
    if rc != 0 and not err.strip():
        return 'silent', 'exit %d with nothing on stderr' % rc
    return None


def keep(outdir, tag, data, aux, argv, quench, err, what):
    cdir = os.path.join(outdir, 'fail', tag)
    os.makedirs(cdir, exist_ok=True)
    with open(os.path.join(cdir, 'q.db'), 'wb') as fh:
        fh.write(data)
    for name in AUX:
        shutil.copy(os.path.join(aux, name), os.path.join(cdir, name))
    argv = ['q.db' if a == '@DB@' else a for a in argv]
    cmd = 'cd %s && cp q.db damaged.db && %s %s' % (
        shq(cdir), shq(quench), ' '.join(shq(a) for a in argv))
    with open(os.path.join(cdir, 'cmd.sh'), 'w') as fh:
        fh.write('#!/bin/sh\n# %s\n# (the command may change q.db: keep '
                 'damaged.db)\ncp q.db damaged.db\n%s %s\n' %
                 (what, shq(quench), ' '.join(shq(a) for a in argv)))
    with open(os.path.join(cdir, 'stderr.txt'), 'w') as fh:
        fh.write(err)
    return cmd


def shq(s):
    if re.fullmatch(r'[A-Za-z0-9_./=:@%+,-]+', s):
        return s
    return "'" + s.replace("'", "'\\''") + "'"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--quench', default=os.path.join(TOP, 'build', 'quench'))
    ap.add_argument('--rounds', type=int, default=100)
    ap.add_argument('--seed', type=int, default=17)
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--out', default=os.path.join(TOP, 'build', 'corrupt'))
    ap.add_argument('--timeout', type=float, default=60.0)
    ap.add_argument('--case', action='append', default=[],
                    help="a deterministic damage of CASES ('all': each)")
    ap.add_argument('--kind', action='append', choices=KINDS, default=[],
                    help='damage of these kinds only (repeatable)')
    ap.add_argument('--first-round', type=int, default=0,
                    help='number of the first round (to replay one)')
    ap.add_argument('--list', action='store_true',
                    help='print each round\'s damage and exit')
    a = ap.parse_args()
    quench = os.path.abspath(a.quench)
    if not os.access(quench, os.X_OK):
        print('corrupt: %s is not an executable' % quench, file=sys.stderr)
        return 2
    cases = sorted(CASES) if 'all' in a.case else a.case
    for c in cases:
        if c not in CASES:
            print('corrupt: no case %s (%s)' % (c, ', '.join(sorted(CASES))),
                  file=sys.stderr)
            return 2
    t0 = time.monotonic()
    os.makedirs(a.out, exist_ok=True)
    shutil.rmtree(os.path.join(a.out, 'fail'), ignore_errors=True)
    aux = os.path.join(a.out, 'fixtures')
    fx = build_fixtures(quench, aux)

    # the damaged files: named cases first, then seeded rounds
    rounds = []  # (tag, fixture, data, description)
    for c in cases:
        f, data, what = case_damage(fx, c)
        rounds.append(('case-' + c, f, data, what))
    for i in range(a.first_round, a.first_round + a.rounds):
        rng = random.Random('%d:%d' % (a.seed, i))
        f = rng.choice(fx)
        data, what = damage(f, rng, rng.choice(a.kind) if a.kind else None)
        rounds.append(('r%05d' % i, f, data, 'round %d: %s' % (i, what)))
    if a.list:
        for tag, f, data, what in rounds:
            print(what)
        return 0

    os.environ.setdefault('ASAN_OPTIONS', 'detect_leaks=1')
    base = tempfile.mkdtemp(prefix='corrupt-')
    os.environ['QUENCH_DB'] = os.path.join(base, 'unused.db')
    jobs = []
    for tag, f, data, what in rounds:
        for name, argv, allowed in commands(f):
            jobs.append((tag, f, data, what, name, argv, allowed))
    fails, statuses = [], Counter()
    try:
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            futs = [(j, ex.submit(run_one, quench, j[1], j[2], j[5],
                                  a.timeout, aux, base)) for j in jobs]
            for (tag, f, data, what, name, argv, allowed), fut in futs:
                rc, err, timed_out = fut.result()
                statuses['timeout' if timed_out else rc] += 1
                v = verdict(rc, err, timed_out, allowed, a.timeout)
                if v:
                    fails.append((tag, f, data, what, name, argv, err, v))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    wall = time.monotonic() - t0

    kinds = Counter(v[0] for *_, v in fails)
    for tag, f, data, what, name, argv, err, v in fails[:100]:
        cmd = keep(a.out, '%s-%s' % (tag, name), data, aux, argv, quench,
                   err, what)
        print('FAIL %s %s: %s\n  damage: %s\n  $ %s' %
              (tag, name, v[1], what, cmd))
        for line in err.strip().splitlines()[:3]:
            print('    stderr: %s' % line[:200])
    if len(fails) > 100:
        print('... and %d more failures' % (len(fails) - 100))
    order = sorted(statuses.items(),
                   key=lambda kv: (isinstance(kv[0], str), kv[0]))
    print('exit statuses: %s' % ' '.join('%s:%d' % kv for kv in order))
    print('corrupt: %s, seed %d, %d rounds%s, %d command runs, %d failures'
          '%s, %.0f s' %
          (quench, a.seed, a.rounds,
           ' + %d cases' % len(cases) if cases else '', len(jobs), len(fails),
           ' (%s; in %d damaged files)' % (
               ', '.join('%s %d' % kv for kv in sorted(kinds.items())),
               len({x[0] for x in fails})) if fails else '', wall))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
