#!/usr/bin/env python3
"""human.py PACK.json: each puzzle's human grade as the document writes
it, one line a puzzle: "ID LEVEL NUMBER SCORE MODEL", "null" for a field
that is null or absent (a document of an older quench). The loaders'
tests print the same lines from what each loader gives the game."""
import json
import sys

for p in json.load(open(sys.argv[1]))["puzzles"]:
    f = [p.get(k) for k in ("human_level", "human_level_number", "human_score",
                            "human_model_version")]
    print(p["id"], *("null" if v is None else v for v in f))
