"""pyq.py: the deferred Python checks of tests/cli/lib.sh (py_eq, py_later),
all run in this one process: a python3 start costs 30-300 ms, more than
most quench commands a test runs, and a script may queue a hundred checks.

usage: python3 pyq.py DIR
DIR holds one check per number N, queued in that order:
  N.kind   "eq", "exit" or "checks"
  N.prog   the Python program
  N.args   its arguments, one a line (files already copied by lib.sh)
  N.want   eq only: the output wanted
  N.label  eq and exit: what the check says
Each program runs as `python3 - ARGS` would run it (sys.argv, __name__ ==
'__main__', a namespace of its own) with its standard output and error
captured; only a checks program's standard error counts (as py_checks's).
An eq check prints "ok" when that output, less its trailing newlines (as
the shell's $(...) takes it), is N.want, else "not ok: LABEL: got ...,
want ..." as expect_eq does (on one line). A checks program prints its
own lines, "ok" or "not ok: ...", passed on as they are; one that raises
or exits non-zero adds a "not ok". An exit check is "ok" when its program
ends without an exception or a non-zero exit, else "not ok: LABEL".
"""
import contextlib
import io
import os
import sys
import traceback


def read(path):
    with open(path, encoding='utf-8', newline='') as f:
        return f.read()


def run(prog, args, name):
    """(output, errors, None) or (output so far, errors, the error's last
    line): what the program writes on standard output and on standard
    error (warnings among it)."""
    buf, ebuf = io.StringIO(), io.StringIO()
    saved = sys.argv
    sys.argv = ['-'] + args
    err = None
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(ebuf):
            exec(compile(prog, name, 'exec'), {'__name__': '__main__'})
    except SystemExit as e:
        if e.code not in (None, 0):
            err = 'exit %s' % (e.code,)
    except BaseException:  # a check's own failure is a failed check
        err = traceback.format_exc().strip().splitlines()[-1]
    finally:
        sys.argv = saved
    return buf.getvalue(), ebuf.getvalue(), err


def main():
    d = sys.argv[1]
    ns = sorted(int(f[:-5]) for f in os.listdir(d) if f.endswith('.kind'))
    for n in ns:
        p = os.path.join(d, str(n))
        kind = read(p + '.kind')
        args = read(p + '.args').split('\n')[:-1]
        out, errout, err = run(read(p + '.prog'), args, 'check %d' % n)
        if kind == 'eq':
            got, want = out.rstrip('\n'), read(p + '.want')
            if got == want and err is None:
                print('ok')
            else:
                msg = "%s: got '%s', want '%s'%s" % (
                    read(p + '.label'), got, want,
                    ' (python: %s)' % err if err else '')
                print('not ok: ' + msg.replace('\n', '\\n'))
        elif kind == 'exit':
            print('ok' if err is None else 'not ok: %s (python: %s)' % (
                read(p + '.label').replace('\n', '\\n'), err))
        else:
            # as py_checks (2>&1): what it says on stderr is a line too
            out += errout
            sys.stdout.write(out if not out or out.endswith('\n')
                             else out + '\n')
            if err:
                print('not ok: python exited: %s' % err)
        sys.stdout.flush()


if __name__ == '__main__':
    main()
