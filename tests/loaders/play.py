#!/usr/bin/env python3
"""play.py: positions for the loaders' play drivers (issue #34), and the
check of what a driver printed against `quench solve`, the independent
oracle of the least presses from a position.

    play.py moves PACK.json SEED N > MOVES.jsonl
        for every puzzle of the pack: its start (no press), the position
        its witness solves (every press of it), and N positions of random
        presses (0 to 2 x ncells of them, cells drawn uniformly), as the
        play drivers read them: {"puzzle": ID, "presses": [CELL, ...]}

    play.py check RULES.yaml PACK.json MOVES.jsonl OUTPUT
        for each line of MOVES and the line of OUTPUT beside it: the
        position (the start plus the presses, by the document's effects),
        its least presses and lexicographically smallest optimal plan by
        `$QUENCH solve RULES --state [...] --json`; OUTPUT's presses_left
        must be that least number (and exact true), its plan must reach
        the goal from the position in exactly that many presses, and its
        press counts must be quench's plan (the drivers break ties as
        quench does). Prints one line per failure and "checked N
        positions: F failed"; exit 1 on any failure.

    play.py fallback RULES.yaml PACK.json MOVES.jsonl OUTPUT
        the same for a document whose rules carry no kernel (the loader
        cannot search: docs/EXPORT.md, "Hints"): exact must be false, the
        plan must reach the goal in exactly presses_left presses, and
        presses_left must be at least quench's least presses.
"""
import json
import os
import random
import subprocess
import sys


def load(path):
    with open(path) as f:
        d = json.load(f)
    return d, {r["hash"]: r for r in d["rules"]}


def press(state, rule, cell, times=1):
    k = rule["colours"]
    for e in rule["cells"][cell]["effects"]:
        state[e["cell"]] = (state[e["cell"]] + e["amount"] * times) % k


def moves(pack, seed, n):
    d, rules = load(pack)
    rng = random.Random(seed)
    for p in d["puzzles"]:
        ncells = rules[p["rule"]]["ncells"]
        witness = [j for j, t in enumerate(p["solution"]) for _ in range(t)]
        rng.shuffle(witness)
        lines = [[], witness]
        for _ in range(n):
            lines.append([rng.randrange(ncells)
                          for _ in range(rng.randrange(2 * ncells + 1))])
        for presses in lines:
            print(json.dumps({"puzzle": p["id"], "presses": presses},
                             separators=(",", ":")))


def solve(rules_path, state):
    out = subprocess.run(
        [os.environ.get("QUENCH", "quench"), "solve", rules_path, "--state",
         json.dumps(state), "--json"],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def check(rules_path, pack, moves_path, output_path, fallback=False):
    d, rules = load(pack)
    by_id = {p["id"]: p for p in d["puzzles"]}
    with open(moves_path) as f:
        asked = [json.loads(l) for l in f if l.strip()]
    with open(output_path) as f:
        said = [json.loads(l) for l in f if l.strip()]
    fails = []
    if len(asked) != len(said):
        fails.append(f"{len(asked)} positions asked, {len(said)} answered")
    for i, (m, o) in enumerate(zip(asked, said)):
        p = by_id[m["puzzle"]]
        rule = rules[p["rule"]]
        state = list(p["state"])
        for c in m["presses"]:
            press(state, rule, c)
        want = solve(rules_path, state)
        tag = f"line {i + 1} (puzzle {p['id']}, {len(m['presses'])} presses)"
        if o.get("puzzle") != p["id"]:
            fails.append(f"{tag}: answered for puzzle {o.get('puzzle')}")
            continue
        least = want["min_presses"] if want.get("solvable", True) else None
        if fallback:
            if (o.get("exact") is not False or least is None
                    or o["presses_left"] < least):
                fails.append(f"{tag}: presses_left {o['presses_left']} "
                             f"(exact {o.get('exact')}), quench solve "
                             f"says {least}: not a valid fallback")
        elif o["presses_left"] != least or o.get("exact") is not True:
            fails.append(f"{tag}: presses_left {o['presses_left']} "
                         f"(exact {o.get('exact')}), quench solve "
                         f"says {least}")
        for c in o["plan"]:
            press(state, rule, c)
        if state != rule["goal"] or len(o["plan"]) != o["presses_left"]:
            fails.append(f"{tag}: the plan of {len(o['plan'])} presses "
                         "does not reach the goal in presses_left")
        if fallback:
            continue
        counts = [0] * rule["ncells"]
        for c in o["plan"]:
            counts[c] += 1
        if counts != want["solution"]:
            fails.append(f"{tag}: the plan presses {counts}, quench's "
                         f"least plan is {want['solution']}")
    for f in fails[:20]:
        print(f)
    print(f"checked {len(said)} positions: {len(fails)} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "moves":
        moves(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif len(sys.argv) == 6 and sys.argv[1] == "check":
        sys.exit(check(*sys.argv[2:]))
    elif len(sys.argv) == 6 and sys.argv[1] == "fallback":
        sys.exit(check(*sys.argv[2:], fallback=True))
    else:
        sys.exit(__doc__)
