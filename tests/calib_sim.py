#!/usr/bin/env python3
"""calib_sim.py: simulated players for quench calibrate's tests (issue #33).

    calib_sim.py PACK.json OUT_PREFIX SEED PLAYERS ATTEMPTS [FILES]

Reads a quench-pack JSON document, draws PLAYERS players with a skill each
(seeded), lets each make ATTEMPTS attempts on puzzles drawn from the pack,
and writes attempt logs in the html player's format (docs/ATTEMPTS.md,
quench-attempts version 1) to OUT_PREFIX1.jsonl .. OUT_PREFIXn.jsonl (the
players split over FILES files). The solve times follow the truth

    log(seconds) = skill + B0 + sum of W[f] * f(puzzle) + noise

with the features computed here from the pack alone, independently of
quench's grader: level (the pack's human_level_number), presses
(min_presses), lit (cells off the goal) and spread (rows + columns the
pack's solution presses span). Some attempts are abandoned and some use a
hint: calibrate must count them and leave them out. Prints the truth
(JSON: weights, and the true score of each puzzle id) on stdout.
"""
import json
import math
import random
import sys

B0 = 1.0
W = {"level": 0.5, "presses": 0.04, "lit": 0.02, "spread": 0.06}
NOISE = 0.25
SKILL = 0.4


def features(p, rule):
    cells = rule["cells"]
    pressed = [j for j, v in enumerate(p["solution"]) if v]
    rows = [cells[j]["row"] for j in pressed]
    cols = [cells[j]["col"] for j in pressed]
    spread = (max(rows) - min(rows) + 1 + max(cols) - min(cols) + 1) if pressed else 0
    return {
        "level": p["human_level_number"],
        "presses": p["min_presses"],
        "lit": sum(1 for a, g in zip(p["state"], rule["goal"]) if a != g),
        "spread": spread,
    }


def main():
    pack, prefix, seed, players, attempts = sys.argv[1:6]
    nfiles = int(sys.argv[6]) if len(sys.argv) > 6 else 1
    rng = random.Random(int(seed))
    doc = json.load(open(pack))
    rules = {r["hash"]: r for r in doc["rules"]}
    truth = {}
    for p in doc["puzzles"]:
        f = features(p, rules[p["rule"]])
        truth[p["id"]] = B0 + sum(W[k] * f[k] for k in W)
    files = [[] for _ in range(nfiles)]
    for i in range(int(players)):
        skill = rng.gauss(0.0, SKILL)
        player = "sim%04d" % i
        out = files[i % nfiles]
        for _ in range(int(attempts)):
            p = rng.choice(doc["puzzles"])
            secs = math.exp(skill + truth[p["id"]] + rng.gauss(0.0, NOISE))
            u = rng.random()
            outcome, hints = "solved", 0
            if u < 0.05:
                outcome, secs = "abandoned", secs * rng.random()
            elif u < 0.10:
                hints, secs = 1 + int(3 * rng.random()), secs * 0.5
            ms = max(1, round(secs * 1000))
            out.append({"attempt": {
                "player": player, "pack": doc["pack"]["name"],
                "position": p["position"], "puzzle": p["id"],
                "rule": p["rule"], "state": p["state"],
                "human_level": p["human_level"],
                "human_score": p["human_score"],
                "human_model_version": p["human_model_version"],
                "started": "2026-11-28T12:00:00.000Z",
                "first_press_ms": min(ms, round(ms * rng.random())),
                "time_ms": ms,
                "presses": p["min_presses"] + int(4 * rng.random()),
                "undos": int(2 * rng.random()), "hints": hints,
                "outcome": outcome}})
    for n, lines in enumerate(files, 1):
        with open("%s%d.jsonl" % (prefix, n), "w") as f:
            f.write(json.dumps({"format": "quench-attempts", "version": 1}) + "\n")
            for r in doc["rules"]:
                f.write(json.dumps({"rule": r}, separators=(",", ":")) + "\n")
            for a in lines:
                f.write(json.dumps(a, separators=(",", ":")) + "\n")
    json.dump({"b0": B0, "weights": W, "scores": truth}, sys.stdout)


main()
