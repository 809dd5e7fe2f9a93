"""ladder.py: the human ladder by brute force, for tests/cli/t106, t109
and t110 (issue #33, docs/GENERATE.md "The human ladder"), independent of
quench.

canon(s, w, h): a puzzle's canonical state, the least of its images under
the rectangle's 4 (the square's 8) symmetries.

Board(w, h, k): the W x H plus board with K colours, every press plan
tried (state = goal - A x, the goal all 0): best[s] is the least presses
of state s, plans[s] its optimal plans; press, rows_of (a side's walk as
rows of cells: 0 top, 1 bottom, 2 left, 3 right) and chase (pressing the
cell below each cell off its goal, counting the presses) play the board;
rung(s) finds s's level from its definition (0 spot: an optimal plan
with pairwise disjoint footprints; 1 chase: a chase from one of the 4
sides clears it; 2 table: a chase, a first-row pattern and a second chase
clear it; else 3 global) with the first side that reaches it, the
presses that side takes beyond the least, and (table) how many first-row
patterns clear it (or 1, the first, with all_patterns False).

python3 ladder.py W H K: a JSON object: "bad" (puzzles whose states
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


class Board:
    def __init__(self, w, h, k):
        self.w, self.h, self.k = w, h, k
        self.n = n = w * h
        def nb(j):
            r, c = divmod(j, w)
            out = [j]
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= r + dr < h and 0 <= c + dc < w:
                    out.append((r + dr) * w + c + dc)
            return out
        self.foot = [set(nb(j)) for j in range(n)]
        best, plans = {}, {}
        for x in itertools.product(range(k), repeat=n):
            s = [0] * n
            for j in range(n):
                if x[j]:
                    s = self.press(s, j, (k - x[j]) % k)
            s = tuple(s)
            cost = sum(x)
            if s not in best or cost < best[s]:
                best[s], plans[s] = cost, [x]
            elif cost == best[s]:
                plans[s].append(x)
        self.best, self.plans = best, plans

    def press(self, s, j, t):
        s = list(s)
        for c in self.foot[j]:
            s[c] = (s[c] + t) % self.k
        return s

    def sym(self, s):
        return canon(s, self.w, self.h)

    def rows_of(self, side):
        w, h = self.w, self.h
        if side == 0: return [[r * w + c for c in range(w)] for r in range(h)]
        if side == 1: return [[r * w + c for c in range(w)] for r in reversed(range(h))]
        if side == 2: return [[r * w + c for r in range(h)] for c in range(w)]
        return [[r * w + c for r in range(h)] for c in reversed(range(w))]

    def chase(self, s, side, count=None):
        rows = self.rows_of(side)
        for a, b in zip(rows, rows[1:]):
            for c, piv in zip(a, b):  # the cell below (from the side) is its pivot
                if s[c]:
                    t = (self.k - s[c]) % self.k
                    s = self.press(s, piv, t)
                    if count is not None:
                        count[0] += t
        return s

    def rung(self, s, all_patterns=True):
        """(level, side, overshoot, table patterns) of state s; with
        all_patterns False the table rung stops at its first pattern"""
        b, foot, n = self.best[s], self.foot, self.n
        if any(all(not (foot[i] & foot[j]) for i in range(n) for j in range(i)
                   if x[i] and x[j]) for x in self.plans[s]):
            return 0, -1, 0, 0
        for sd in range(4):
            cnt = [0]
            if not any(self.chase(list(s), sd, cnt)):
                return 1, sd, cnt[0] - b, 0
        for sd in range(4):
            first = self.rows_of(sd)[0]
            good = []
            for y in itertools.product(range(self.k), repeat=len(first)):
                cnt = [0]
                t = self.chase(list(s), sd, cnt)
                for c, v in zip(first, y):
                    t = self.press(t, c, v)
                cnt[0] += sum(y)
                if not any(self.chase(t, sd, cnt)):
                    good.append(cnt[0])
                    if not all_patterns:
                        break
            if good:
                return 2, sd, good[0] - b, len(good)
        return 3, -1, 0, 0


def main():
    bd = Board(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
    orbit = {}
    bad = 0
    for s in bd.best:
        if not any(s): continue
        c, l = bd.sym(s), bd.rung(s, False)[0]
        if orbit.setdefault(c, l) != l:
            bad += 1
    out = {"bad": bad}
    for l in range(4):
        out[str(l)] = sorted("".join(map(str, c)) for c, v in orbit.items() if v == l)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
