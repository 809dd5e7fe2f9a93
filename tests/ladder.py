"""ladder.py: the human ladder by brute force, for tests/cli/t109 and t110
(issue #33, docs/GENERATE.md "The human ladder"), independent of quench.

canon(s, w, h): a puzzle's canonical state, the least of its images under
the rectangle's 4 (the square's 8) symmetries.

python3 ladder.py W H K: every press plan of the W x H plus board with K
colours is tried (least presses, optimal plans; state = goal - A x, the
goal all 0), each state's level found from its definition (spot: an
optimal plan with pairwise disjoint footprints; chase: a chase from one
of the 4 sides, pressing the cell below each cell off its goal, clears
it; table: a chase, a first-row pattern and a second chase clear it;
else global), and a JSON object printed: "bad" (puzzles whose states
disagree on their level) and, for each level "0".."3", the canonical
states of its puzzles as digit strings.
"""
import itertools, json, sys


def canon(s, w, h):
    g = [[s[r * w + c] for c in range(w)] for r in range(h)]
    out = []
    for t in range(8 if w == h else 4):
        m = g
        if t & 1: m = [row[::-1] for row in m]
        if t & 2: m = m[::-1]
        if t & 4: m = [list(col) for col in zip(*m)]
        out.append(tuple(v for row in m for v in row))
    return min(out)


def main():
    w, h, k = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    n = w * h
    def nb(j):
        r, c = divmod(j, w)
        out = [j]
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= r + dr < h and 0 <= c + dc < w:
                out.append((r + dr) * w + c + dc)
        return out
    foot = [set(nb(j)) for j in range(n)]
    def press(s, j, t):
        s = list(s)
        for c in foot[j]:
            s[c] = (s[c] + t) % k
        return s
    best, plans = {}, {}
    for x in itertools.product(range(k), repeat=n):
        s = [0] * n
        for j in range(n):
            if x[j]:
                s = press(s, j, (k - x[j]) % k)
        s = tuple(s)
        cost = sum(x)
        if s not in best or cost < best[s]:
            best[s], plans[s] = cost, [x]
        elif cost == best[s]:
            plans[s].append(x)
    def sym(s):
        return canon(s, w, h)
    def rows_of(side):
        if side == 0: return [[r * w + c for c in range(w)] for r in range(h)]
        if side == 1: return [[r * w + c for c in range(w)] for r in reversed(range(h))]
        if side == 2: return [[r * w + c for r in range(h)] for c in range(w)]
        return [[r * w + c for r in range(h)] for c in reversed(range(w))]
    def chase(s, side):
        rows = rows_of(side)
        for a, b in zip(rows, rows[1:]):
            for c, piv in zip(a, b):
                if s[c]:
                    s = press(s, piv, (k - s[c]) % k)
        return s
    def level(s):
        if any(all(not (foot[i] & foot[j]) for i in range(n) for j in range(i)
                   if x[i] and x[j]) for x in plans[s]):
            return 0
        for sd in range(4):
            if not any(chase(list(s), sd)):
                return 1
        for sd in range(4):
            first = rows_of(sd)[0]
            for y in itertools.product(range(k), repeat=len(first)):
                t = chase(list(s), sd)
                for c, v in zip(first, y):
                    t = press(t, c, v)
                if not any(chase(t, sd)):
                    return 2
        return 3
    orbit = {}
    bad = 0
    for s in best:
        if not any(s): continue
        c, l = sym(s), level(s)
        if orbit.setdefault(c, l) != l:
            bad += 1
    out = {"bad": bad}
    for l in range(4):
        out[str(l)] = sorted("".join(map(str, c)) for c, v in orbit.items() if v == l)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
