#!/usr/bin/env python3
"""kill -9 torture for quench's database writers (issue #9, part 3).

Each round starts one writing command, kills it with SIGKILL at a seeded
random moment within its clean run time, then checks the database:

  * PRAGMA integrity_check is "ok" and foreign_key_check is empty;
  * generate: no partial batch (the stored puzzles are exactly the
    committed progress, a whole number of batches), every puzzle printed
    (acknowledged) before the kill is stored;
  * pack edits, import, migrations: the database holds either exactly the
    state before the command or exactly the state after a clean run of it
    (each is one transaction);
  * running the command again (resuming) gives exactly the content of a
    clean, uninterrupted run (for the one-transaction commands: when the
    kill came before their commit).

Scenarios: generate, pack (sort, remove, move, rename, delete, create on a
large pack), import (a large pack), migrate (db init of a new file: the
migrations), compact (db migrate of a file a third free pages: VACUUM).
Usage:

  scripts/killtorture.py [--quench build/quench] [--rounds N] [--seed S]
                         [--scenarios generate,pack,import,migrate,compact]
                         [--pack-size N]

--rounds is per scenario. Exit 0 when every round passes, 1 otherwise.
"""

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'tests'))
import state_blob  # noqa: E402  the stored states, read apart from quench
RULE = os.path.join(TOP, 'rules', 'classic-7x7.yaml')
GEN = ['generate', RULE, '-n', '6000', '--seed', '77', '--batch', '250',
       '--jobs', '2']
BATCH = 250


def dump(path):
    """The content that matters, as a comparable value."""
    if not os.path.exists(path):
        return ('absent',)
    db = sqlite3.connect(path)
    try:
        tables = {r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            return ('empty',)
        out = [db.execute('PRAGMA user_version').fetchone()]
        for t, cols in [('puzzles', 'stream_index, state, min_presses'),
                        ('packs', 'name, version'),
                        ('pack_puzzles', 'pack_id, puzzle_id, position')]:
            if t in tables:
                order = ', '.join(str(i + 1) for i in range(cols.count(',') + 1))
                out.append(tuple(db.execute('SELECT %s FROM %s ORDER BY %s'
                                            % (cols, t, order))))
        return tuple(out)
    finally:
        db.close()


def summary(d):
    """A dump in a few words, for a failure message."""
    if len(d) == 1:
        return d[0]
    return 'user_version %s, %s rows' % (d[0][0], '/'.join(str(len(t)) for t in d[1:]))


def intact(path):
    if not os.path.exists(path):
        return True, ''
    db = sqlite3.connect(path)
    try:
        ic = db.execute('PRAGMA integrity_check').fetchone()[0]
        fk = db.execute('PRAGMA foreign_key_check').fetchall()
    finally:
        db.close()
    if ic != 'ok':
        return False, 'integrity_check: %s' % ic
    if fk:
        return False, 'foreign_key_check: %d rows' % len(fk)
    return True, ''


def free_fixture(fx, work):
    """A copy of fx with free pages a third of it or more, made by sqlite3:
    a table as large as fx's rows, dropped."""
    path = os.path.join(work, 'free.db')
    shutil.copyfile(fx, path)
    db = sqlite3.connect(path)
    try:
        size = db.execute('PRAGMA page_count').fetchone()[0] * \
            db.execute('PRAGMA page_size').fetchone()[0]
        db.execute('CREATE TABLE junk (b BLOB)')
        db.executemany('INSERT INTO junk VALUES (randomblob(4000))',
                       [()] * (size // 4000 + 1))
        db.commit()
        db.execute('DROP TABLE junk')
        db.commit()
        db.execute('PRAGMA wal_checkpoint(TRUNCATE)')
    finally:
        db.close()
    return path


def run(q, argv, cwd, **kw):
    return subprocess.run([q] + argv, cwd=cwd, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def killed(q, argv, cwd, delay):
    """Start, kill -9 after delay seconds; returns (stdout, exit status)."""
    p = subprocess.Popen([q] + argv, cwd=cwd, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    p.send_signal(signal.SIGKILL)
    out, _ = p.communicate()
    return out, p.returncode


class Scenario:
    """set-up once; per round: prepare a fresh db, the command, checks."""

    def __init__(self, q, work):
        self.q, self.work = q, work

    def clean_time(self, argv, prepare):
        best = None
        for _ in range(3):
            prepare()
            t0 = time.monotonic()
            r = run(self.q, argv, self.work)
            dt = time.monotonic() - t0
            if r.returncode != 0:
                raise SystemExit('killtorture: clean run failed: %s\n%s' %
                                 (' '.join(argv), r.stderr.decode()))
            best = dt if best is None else min(best, dt)
        return best


def db_path(work):
    return os.path.join(work, 'k.db')


def wipe(path):
    for suf in ('', '-wal', '-shm', '-journal'):
        try:
            os.remove(path + suf)
        except FileNotFoundError:
            pass


def copy_db(src, dst):
    wipe(dst)
    shutil.copyfile(src, dst)


def scenario_generate(q, work, rounds, rng, fail):
    db = db_path(work)
    argv = GEN + ['--db', 'k.db', '--pack', 'g']
    sc = Scenario(q, work)
    t = sc.clean_time(argv, lambda: wipe(db))
    ref = dump(db)
    for i in range(rounds):
        wipe(db)
        out, rc = killed(q, argv, work, rng.uniform(0, t * 1.1))
        ok, why = intact(db)
        if ok and os.path.exists(db):
            con = state_blob.connect(db)
            try:
                tabs = {r[0] for r in con.execute(
                    "SELECT name FROM sqlite_master WHERE type='table'")}
                if 'puzzles' in tabs:
                    stored = {s for (s,) in con.execute(
                        'SELECT state_text(p.state, r.layout, r.colours)'
                        ' FROM puzzles p JOIN rules r ON r.id = p.rule_id')}
                    runs = con.execute('SELECT stored FROM runs').fetchall()
                else:
                    stored, runs = set(), []
            finally:
                con.close()
            committed = runs[0][0] if runs else 0
            printed = []
            for line in out.decode(errors='replace').splitlines():
                try:
                    r = json.loads(line)
                except ValueError:
                    continue  # the line the kill cut
                if r.get('type') == 'puzzle':
                    printed.append(r['state'])
            lost = [s for s in printed if s not in stored]
            if lost:
                ok, why = False, '%d acknowledged puzzles lost' % len(lost)
            elif len(stored) != committed:
                ok, why = False, 'stored %d, committed progress %d' % (len(stored), committed)
            elif len(stored) % BATCH and len(stored) != 6000:
                ok, why = False, 'partial batch: %d stored' % len(stored)
        if ok:
            r = run(q, argv, work)
            if r.returncode != 0:
                ok, why = False, 'resume exit %d: %s' % (r.returncode, r.stderr.decode()[:200])
            elif dump(db) != ref:
                ok, why = False, 'resumed content differs from the clean run'
        fail.append(None if ok else ('generate', i, why))


def one_tx_scenario(name, q, work, rounds, rng, fail, base, cmds):
    """Commands that are one transaction: before or after, nothing else."""
    db = db_path(work)
    for ci, argv in enumerate(cmds):
        nround = rounds // len(cmds) + (1 if ci < rounds % len(cmds) else 0)
        if nround == 0:
            continue
        sc = Scenario(q, work)
        t = sc.clean_time(argv, lambda: copy_db(base, db) if base else wipe(db))
        after = dump(db)
        if base:
            copy_db(base, db)
        else:
            wipe(db)
        before = dump(db)
        for i in range(nround):
            if base:
                copy_db(base, db)
            else:
                wipe(db)
            killed(q, argv, work, rng.uniform(0, t * 1.1))
            ok, why = intact(db)
            got = dump(db) if ok else None
            if ok and got not in (before, after) and not (base is None and got in (('empty',), ('absent',))):
                ok, why = False, 'neither the state before nor after'
            if ok and got != after:
                # not applied: running the command again must finish it
                # exactly as a clean run (applied: there is nothing to redo;
                # a second sort would bump the version once more)
                r = run(q, argv, work)
                if r.returncode != 0:
                    ok, why = False, 'rerun exit %d: %s' % (r.returncode, r.stderr.decode()[:200])
                elif dump(db) != after:
                    ok, why = False, 'rerun content differs from the clean run'
            if not ok and got is not None:
                why += ' (%s)' % summary(got)
            what = ' '.join(a for a in argv[:5] if a not in ('--db', 'k.db'))
            fail.append(None if ok else (what, i, why))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--quench', default=os.path.join(TOP, 'build', 'quench'))
    ap.add_argument('--rounds', type=int, default=250, help='rounds per scenario')
    ap.add_argument('--seed', type=int, default=9)
    ap.add_argument('--scenarios', default='generate,pack,import,migrate,compact')
    ap.add_argument('--pack-size', type=int, default=4000,
                    help='puzzles in the pack the pack and import rounds edit')
    a = ap.parse_args()
    q = os.path.abspath(a.quench)
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix='killtorture-')
    env_db = os.path.join(work, 'unused.db')
    os.environ['QUENCH_DB'] = env_db
    results = {}
    t0 = time.monotonic()
    try:
        # shared fixtures: a database with a large pack, and its export
        fx = os.path.join(work, 'fixture.db')
        r = run(q, ['-q', 'generate', RULE, '-n', str(a.pack_size), '--seed', '5', '--jobs', '2',
                    '--db', 'fixture.db', '--pack', 'big'], work)
        if r.returncode != 0:
            raise SystemExit('killtorture: set-up failed: ' + r.stderr.decode())
        r = run(q, ['export', 'big', '--db', 'fixture.db', '--format', 'json',
                    '-o', 'big.json'], work)
        if r.returncode != 0:
            raise SystemExit('killtorture: set-up failed: ' + r.stderr.decode())
        r = run(q, ['db', '--db', 'init.db', 'init'], work)
        if r.returncode != 0:
            raise SystemExit('killtorture: set-up failed: ' + r.stderr.decode())
        con = sqlite3.connect(fx)
        ids = ['#%d' % i for (i,) in con.execute(
            "SELECT puzzle_id FROM pack_puzzles ORDER BY position")]
        con.close()
        for sc in a.scenarios.split(','):
            fail = []
            t1 = time.monotonic()
            if sc == 'generate':
                scenario_generate(q, work, a.rounds, rng, fail)
            elif sc == 'pack':
                cmds = [['pack', '--db', 'k.db', 'sort', 'big'],
                        ['pack', '--db', 'k.db', 'remove', 'big'] + ids[:200],
                        ['pack', '--db', 'k.db', 'move', 'big', ids[0], str(len(ids) * 3 // 4)],
                        ['pack', '--db', 'k.db', 'rename', 'big', 'huge'],
                        ['pack', '--db', 'k.db', 'delete', 'big'],
                        ['pack', '--db', 'k.db', 'create', 'second']]
                one_tx_scenario('pack', q, work, a.rounds, rng, fail, fx, cmds)
            elif sc == 'import':
                # into an initialised database: the import is one transaction
                one_tx_scenario('import', q, work, a.rounds, rng, fail,
                                os.path.join(work, 'init.db'),
                                [['import', 'big.json', '--db', 'k.db']])
            elif sc == 'migrate':
                one_tx_scenario('migrate', q, work, a.rounds, rng, fail, None,
                                [['db', '--db', 'k.db', 'init']])
            elif sc == 'compact':
                # the rewrite holds the same rows: a kill leaves them whole
                one_tx_scenario('compact', q, work, a.rounds, rng, fail,
                                free_fixture(fx, work),
                                [['db', '--db', 'k.db', 'migrate']])
            else:
                raise SystemExit('killtorture: unknown scenario %s' % sc)
            results[sc] = (len(fail), [f for f in fail if f], time.monotonic() - t1)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    total = sum(n for n, _, _ in results.values())
    bad = sum(len(f) for _, f, _ in results.values())
    for sc, (n, f, dt) in results.items():
        print('killtorture: %-8s %5d rounds, %d failures, %.0f s' % (sc, n, len(f), dt))
        for name, i, why in f[:20]:
            print('  FAIL %s round %d: %s' % (name, i, why))
    print('killtorture: %d rounds, %d failures, %.0f s (seed %d)' %
          (total, bad, time.monotonic() - t0, a.seed))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
