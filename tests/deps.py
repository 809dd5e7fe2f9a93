#!/usr/bin/env python3
"""The layering check of make check (issue #18, docs/ARCHITECTURE.md).

src/ is a stack of folders. Each folder may include (and link against)
only the folders listed for it in LAYERS; cmd/ may use any of them and
src/ never uses cmd/. The check reads two things:

  - every #include line of src/, include/ and cmd/ (and each
    file's length: at most MAX_LINES): an internal header "F/X.h" is
    src/F/X.h and belongs to folder F; a public header quench/X.h belongs
    to the folder PUBLIC names (or, for a header not listed there, the
    folder holding src/*/X.c) and includes only public headers; a private
    header ("name.h") must sit in the including file's own folder, and a
    third-party header may appear only in the files THIRD_PARTY names;
  - the symbol tables of the objects (nm), when OBJ_DIR is given: no file
    may use a symbol of a folder it may not include, and no two files may
    use each other's symbols (nor any longer cycle), which is how two
    halves of one module that call into each other show up.

Every violation is printed with its place (FILE:LINE: the include line,
or the symbol that closes the cycle); the exit status is 1 when there is
any. Usage: python3 tests/deps.py [--root DIR] [OBJ_DIR] (DIR: the
tree to check, by default the one holding this script).
"""
import glob
import os
import re
import subprocess
import sys

# Each folder and the folders below it that it may use.
LAYERS = {
    'base': [],
    'engine': ['base'],
    'rules': ['base'],
    'solve': ['base', 'engine', 'rules'],
    'bigboard': ['base', 'engine', 'rules'],
    'store': ['base', 'rules'],
    'generate': ['base', 'engine', 'rules', 'solve'],
    'validate': ['base', 'engine', 'rules', 'solve'],
    'export': ['base', 'engine', 'rules', 'solve', 'generate', 'store'],
    'campaign': ['base', 'engine', 'rules', 'solve', 'generate', 'store'],
}
# The public headers (include/quench/X.h, issue #32) and the folder that
# implements each; include/quench.h includes them all.
PUBLIC = {
    'common': 'base',
    'ruleset': 'rules',
    'solve': 'solve',
    'generate': 'generate',
    'validate': 'validate',
    'db': 'store',
    'pack': 'export',
}
# Third-party headers and the only files that may include them.
THIRD_PARTY = {
    'yaml.h': r'src/rules/rules_yaml\.c',
    'sqlite3.h': r'src/store/store[a-z_]*\.c',
    'sodium.h': r'src/base/(rng|hash)\.c',
    'jansson.h': r'src/(base/json_alloc|validate/json_in|export/json_(pack|get|rule|attempts))\.[ch]',
    'png.h': r'src/export/raster\.c',
}
# A file past this many lines has grown more than one job (issue #18).
MAX_LINES = 900
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def folder_of_header(name, owners):
    """The folder of quench/NAME (None when it is neither public nor
    owned by a src/*/NAME.c)."""
    if not name.endswith('.h'):
        return None
    return PUBLIC.get(name[:-2]) or owners.get(name[:-2])


def check_includes(owners, problems):
    files = sorted(glob.glob('src/*/*.[ch]') + glob.glob('cmd/*.[ch]') +
                   glob.glob('include/quench/*.h') +
                   glob.glob('include/quench.h'))
    umbrella = set()
    for path in files:
        parts = path.split('/')
        if parts[0] == 'src':
            mine = parts[1]
            if mine not in LAYERS:
                problems.append('%s: folder src/%s/ is not in the layer '
                                'table of tests/deps.py' % (path, mine))
                continue
        elif parts[0] == 'include':
            if path in ('include/quench.h', 'include/quench/quench.h'):
                mine = 'umbrella'
            else:
                mine = folder_of_header(parts[2], owners)
            if mine is None:
                problems.append('%s: no src/*/%s.c owns this header' %
                                (path, parts[2][:-2]))
                continue
        else:
            mine = 'cmd'
        with open(path) as f:
            lines = f.read().split('\n')
        if path.startswith(('src/', 'cmd/')) and len(lines) - 1 > MAX_LINES:
            problems.append('%s: %d lines, over %d: split it along its '
                            'seams' % (path, len(lines) - 1, MAX_LINES))
        for lineno, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            where = '%s:%d: %s' % (path, lineno, line.strip())
            kind, name = m.groups()
            if kind == '<':
                rule = THIRD_PARTY.get(name)
                if rule and not re.fullmatch(rule, path):
                    problems.append('%s: <%s> belongs in %s only' %
                                    (where, name, rule))
                continue
            internal = name.split('/')[0] in LAYERS and \
                os.path.exists(os.path.join('src', name))
            if parts[0] == 'include' and not name.startswith('quench/'):
                problems.append('%s: a public header includes only public '
                                'headers' % where)
            elif name.startswith('quench/'):
                if mine == 'umbrella':
                    umbrella.add(name[7:])
                    continue
                theirs = folder_of_header(name[7:], owners)
                if theirs is None or not os.path.exists(
                        os.path.join('include', name)):
                    problems.append('%s: no such public header' % where)
                elif mine != 'cmd' and theirs != mine and \
                        theirs not in LAYERS[mine]:
                    problems.append('%s: src/%s/ may not use src/%s/ '
                                    '(it may use: %s)' %
                                    (where, mine, theirs,
                                     ', '.join(LAYERS[mine]) or
                                     'nothing'))
            elif internal:
                theirs = name.split('/')[0]
                if mine != 'cmd' and theirs != mine and \
                        theirs not in LAYERS[mine]:
                    problems.append('%s: src/%s/ may not use src/%s/ '
                                    '(it may use: %s)' %
                                    (where, mine, theirs,
                                     ', '.join(LAYERS[mine]) or
                                     'nothing'))
            elif '/' in name:
                problems.append('%s: reaches into another folder' %
                                where)
            elif not os.path.exists(os.path.join(os.path.dirname(path),
                                                 name)):
                problems.append('%s: a private header must sit beside '
                                'the file that includes it' % where)
    umbrella_path = 'include/quench.h' if os.path.exists(
        'include/quench.h') else 'include/quench/quench.h'
    for h in sorted(glob.glob('include/quench/*.h')):
        name = os.path.basename(h)
        if name != 'quench.h' and name not in umbrella:
            problems.append('%s: does not include quench/%s' %
                            (umbrella_path, name))


def symbols(obj):
    """(defined, used) global symbols of one object file."""
    out = subprocess.run(['nm', '-P', obj], capture_output=True, text=True,
                         check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        if f[1] == 'U':
            used.add(f[0])
        elif f[1] in 'TDBRVWCGS':
            defined.add(f[0])
    return defined, used


def check_links(objdir, problems):
    objs = {}
    for o in sorted(glob.glob(os.path.join(objdir, 'src/*/*.o')) +
                    glob.glob(os.path.join(objdir, 'cmd/*.o'))):
        rel = os.path.relpath(o, objdir)[:-2] + '.c'
        objs[rel] = symbols(o)
    if not objs:
        problems.append('%s: no objects to check (build first)' % objdir)
        return
    owner = {}
    for f, (defined, _) in objs.items():
        for s in defined:
            owner[s] = f
    edges = {f: {} for f in objs}
    for f, (_, used) in objs.items():
        for s in sorted(used):
            g = owner.get(s)
            if g and g != f:
                edges[f].setdefault(g, s)
    for f, outs in edges.items():
        parts = f.split('/')
        if parts[0] != 'src':
            continue
        for g, s in outs.items():
            gp = g.split('/')
            if gp[0] == 'cmd':
                problems.append('%s: uses %s of %s: src/ never uses cmd/' %
                                (f, s, g))
            elif gp[1] != parts[1] and gp[1] not in LAYERS.get(parts[1], []):
                problems.append('%s: uses %s of %s: src/%s/ may not use '
                                'src/%s/' % (f, s, g, parts[1], gp[1]))
    for cycle in cycles(edges):
        hops = ['%s (%s)' % (cycle[i], edges[cycle[i]][cycle[(i + 1) %
                len(cycle)]]) for i in range(len(cycle))]
        problems.append('cycle: %s -> back to %s: each uses a symbol of '
                        'the next' % (' -> '.join(hops), cycle[0]))


def cycles(edges):
    """One cycle through each strongly connected group of files (Tarjan)."""
    index, low, stack, on, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(set(group))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    found = []
    for group in groups:  # a shortest cycle from the group's first file
        start = min(group)
        prev, todo = {start: None}, [start]
        while todo:
            v = todo.pop(0)
            for w in sorted(edges[v]):
                if w not in group:
                    continue
                if w == start:
                    path = [v]
                    while prev[path[-1]] is not None:
                        path.append(prev[path[-1]])
                    found.append(path[::-1])
                    todo = []
                    break
                if w not in prev:
                    prev[w] = v
                    todo.append(w)
    return found


def main():
    args = sys.argv[1:]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    if args[:1] == ['--root']:
        root, args = args[1], args[2:]
    objdir = os.path.abspath(args[0]) if args else None
    os.chdir(root)
    owners = {}
    for c in glob.glob('src/*/*.c'):
        owners.setdefault(os.path.basename(c)[:-2], c.split('/')[1])
    problems = []
    check_includes(owners, problems)
    if objdir:
        check_links(objdir, problems)
    for p in problems:
        print('deps: ' + p)
    if not problems:
        print('deps: %d folders, layering and cycles ok' % len(LAYERS))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
