#!/usr/bin/env python3
"""cases.py SRC OUTDIR: the documents of issue #31 ("Hardening II: game
loaders") that every loader must treat alike, made from the exported pack
SRC (classic-5x5: 25 cells, 2 colours, no tiers) into OUTDIR, and one line
per document on stdout for tests/loaders/cases.sh, its fields separated by
the byte 0x1f (a tab would let the shell's read merge empty fields):

    NAME, EXIT, STDERR LINE, STDOUT, FLAGS

EXIT is the replay driver's status; STDERR LINE a line its stderr must
hold, "{FILE}" standing for the document's path and a final "*" for "a
line starting with"; STDOUT its whole stdout; FLAGS "clean" when stderr
must hold no control character but newlines.

The expected messages are the contract of docs/EXPORT.md ("What every
loader refuses"), worked out by hand here: the place in the document
(0-based), the bound, the value as the contract writes it (an integer
below 2^53 in digits, a larger one in six significant digits rounded
half up: 2^53 = 9007199254740992 is 9.0072e+15, 2^63 = 9223372036854775808
is 9.22337e+18, 2^64 is 1.84467e+19, the double nearest 1e23 is
99999999999999991611392 and so 1e+23; a fraction with six decimals at
most).
"""
import copy
import json
import sys

src, out = sys.argv[1], sys.argv[2]
with open(src) as f:
    base = json.load(f)
n = len(base["puzzles"])
ok_line = f"replayed {n} puzzles: {n} solved, 0 failed"
rows = []
DEEP = "nesting deeper than 8"


def refused(name, message, flags=""):
    rows.append((name, 65, "replay: {FILE}: " + message, "", flags))


def write(name, doc):
    with open(f"{out}/{name}.json", "w") as f:
        json.dump(doc, f)


def raw(name, data):
    with open(f"{out}/{name}.json", "wb") as f:
        f.write(data)


def edit(name, code):
    d = copy.deepcopy(base)
    exec(code, {"d": d})
    write(name, d)


def nested(levels):
    """levels arrays, one inside the other: [[...]]."""
    v = []
    for _ in range(levels - 1):
        v = [v]
    return v


# --- nesting: a container opening inside 8 others is refused before any
# parser sees the text (Godot 3's JSON.parse crashed on 100 KB of this).
raw("deep50000", b"[" * 50000 + b"]" * 50000)
refused("deep50000", "document[0][0][0][0][0][0][0][0]: " + DEEP)
raw("deepobject", b'{"a":' * 50000 + b"1" + b"}" * 50000)
refused("deepobject", "a.a.a.a.a.a.a.a: " + DEEP)
# puzzles 2, puzzles[1] 3, meta 4, so meta's sixth level is the ninth.
edit("deepmeta", f"d['puzzles'][1]['meta'] = {nested(6)!r}")
refused("deepmeta", "puzzles[1].meta[0][0][0][0][0]: " + DEEP)
# The second element of an array, a key in quotes with quotes inside.
edit("deepkey", "d['rules'][0]['a \"b\"'] = [0, " + repr(nested(5)) + "]")
refused("deepkey", 'rules[0]["a \\"b\\""][1][0][0][0][0]: ' + DEEP)
# Eight levels are allowed (an unknown key is ignored), and brackets in
# a string, after an escaped quote, are text.
edit("depth8", f"d['puzzles'][1]['extra'] = {nested(5)!r}")
rows.append(("depth8", 0, "", ok_line, ""))
edit("bracketstring", "d['puzzles'][0]['meta'] = '\\\\\"' + '[{' * 20")
rows.append(("bracketstring", 0, "", ok_line, ""))

# --- every integer has an upper bound; values past 2^53 are refused with
# their place, never loaded as nil, a float or a wrapped integer.
ints = [
    ("minpresses1e30", "d['puzzles'][0]['min_presses'] = 1e30",
     "puzzles[0].min_presses: 1e+30 is outside 0..1048576"),
    ("minpresses10e30", "d['puzzles'][0]['min_presses'] = 10 ** 30",
     "puzzles[0].min_presses: 1e+30 is outside 0..1048576"),
    ("position2e63", "d['puzzles'][0]['position'] = 2 ** 63",
     "puzzles[0].position: 9.22337e+18 is outside 1..1048576"),
    ("solution1e308", "d['puzzles'][0]['solution'][0] = 1e308",
     "puzzles[0].solution[0]: 1e+308 is outside 0..1"),
    ("minpressesbound", "d['puzzles'][0]['min_presses'] = 1048577",
     "puzzles[0].min_presses: 1048577 is outside 0..1048576"),
    ("optimal2e53", "d['puzzles'][1]['optimal_solutions'] = 2 ** 53",
     "puzzles[1].optimal_solutions: 9.0072e+15 is outside 1..9007199254740991"),
    ("optimal2e53plus1", "d['puzzles'][1]['optimal_solutions'] = 2 ** 53 + 1",
     "puzzles[1].optimal_solutions: 9.0072e+15 is outside 1..9007199254740991"),
    ("indexbelow", "d['puzzles'][1]['index'] = -(2 ** 53) + 1",
     "puzzles[1].index: -9007199254740991 is outside -1..9007199254740991"),
    ("index-1e30", "d['puzzles'][1]['index'] = -1e30",
     "puzzles[1].index: -1e+30 is outside -1..9007199254740991"),
    ("version2e64", "d['pack']['version'] = 2 ** 64",
     "pack.version: 1.84467e+19 is outside 1..9007199254740991"),
    ("version1e23", "d['pack']['version'] = 1e23",
     "pack.version: 1e+23 is outside 1..9007199254740991"),
    ("tierhi", "d['rules'][0]['tiers'] = [{'name': 'x', 'lo': 0, 'hi': 1048577}]",
     "rules[0].tiers[0].hi: 1048577 is outside 0..1048576"),
    ("widthbound", "d['rules'][0]['board']['width'] = 4097",
     "rules[0].board.width: 4097 is outside 1..4096"),
    ("amountbound", "d['rules'][0]['cells'][2]['effects'][1]['amount'] = 2",
     "rules[0].cells[2].effects[1].amount: 2 is outside 1..1"),
    ("fraction", "d['puzzles'][0]['min_presses'] = 1.5",
     "puzzles[0].min_presses: 1.5 is not an integer"),
    ("nearinteger", "d['puzzles'][0]['min_presses'] = 2.0000001",
     "puzzles[0].min_presses: 2.000000 is not an integer"),
    ("negfraction", "d['puzzles'][2]['index'] = -0.25",
     "puzzles[2].index: -0.25 is not an integer"),
    ("inttext", "d['puzzles'][0]['min_presses'] = '7'",
     'puzzles[0].min_presses: "7" is not an integer'),
    ("intarray", "d['puzzles'][0]['min_presses'] = [1]",
     "puzzles[0].min_presses: an array is not an integer"),
    ("intobject", "d['puzzles'][0]['min_presses'] = {'n': 1}",
     "puzzles[0].min_presses: an object is not an integer"),
    ("intbool", "d['puzzles'][0]['min_presses'] = True",
     "puzzles[0].min_presses: true is not an integer"),
]
for name, code, message in ints:
    edit(name, code)
    refused(name, message)
# The bounds themselves are allowed: 2^53 - 1 solutions load and replay;
# a min_presses of 1048576 loads, and the replay finds it wrong.
edit("optimalmax", "d['puzzles'][1]['optimal_solutions'] = 2 ** 53 - 1")
rows.append(("optimalmax", 0, "", ok_line, ""))
edit("minpressesmax", "d['puzzles'][0]['min_presses'] = 1048576")
used = sum(base["puzzles"][0]["solution"])
rows.append(("minpressesmax", 1,
             f"replay: puzzle 1 (id {base['puzzles'][0]['id']}): the witness uses {used} presses, "
             "min_presses is 1048576",
             f"replayed {n} puzzles: {n - 1} solved, 1 failed", ""))

# --- how text from the document is shown: in quotes, control characters
# as \u00XX, at most 40 characters.
edit("formatlong", "d['format'] = 'x' * 100")
refused("formatlong", 'format: "' + "x" * 36 + '... is not a quench pack (expected "quench-pack")')
edit("formatcontrol", "d['format'] = 'a\\x1b[31mred\\n'")
refused("formatcontrol",
        'format: "a\\u001b[31mred\\u000a" is not a quench pack (expected "quench-pack")', "clean")
edit("versiontext", "d['format_version'] = '2'")
refused("versiontext", 'format_version: "2" is not supported: this loader reads version 2 '
        "(export the pack again with a current quench)")
edit("norule", "d['puzzles'][2]['rule'] = '0' * 64")
refused("norule", 'puzzles[2].rule: no rule with hash "' + "0" * 36 + "... in rules")

# --- two puzzles with one id, two rules with one hash.
edit("dupid", "d['puzzles'][2] = dict(d['puzzles'][0], position=3)")
refused("dupid", "puzzles[2].id: duplicate puzzle id (puzzles[0] has it too)")
edit("duprule", "d['rules'].append(d['rules'][0])")
refused("duprule", "rules[1].hash: duplicate rule hash (rules[0] has it too)")

# --- level slots (#34): unique, 1..2^53 - 1, optional (an older quench
# wrote none); a section is a string, optional too.
edit("dupslot", "d['puzzles'][2]['slot'] = d['puzzles'][0]['slot']")
refused("dupslot", "puzzles[2].slot: duplicate slot (puzzles[0] has it too)")
edit("slotzero", "d['puzzles'][1]['slot'] = 0")
refused("slotzero", "puzzles[1].slot: 0 is outside 1..9007199254740991")
edit("slot2e53", "d['puzzles'][1]['slot'] = 2 ** 53")
refused("slot2e53", "puzzles[1].slot: 9.0072e+15 is outside 1..9007199254740991")
edit("slottext", "d['puzzles'][1]['slot'] = '2'")
refused("slottext", "puzzles[1].slot: \"2\" is not an integer")
edit("sectionnumber", "d['puzzles'][1]['section'] = 7")
refused("sectionnumber", "puzzles[1].section: not a string")
edit("noslots", "[(p.pop('slot'), p.pop('section')) for p in d['puzzles']]")
rows.append(("noslots", 0, "", ok_line, ""))
edit("slotmax", "d['puzzles'][1]['slot'] = 2 ** 53 - 1")
rows.append(("slotmax", 0, "", ok_line, ""))

# --- the human grade (#33): four optional fields, null together when a
# puzzle has none (an older quench wrote none); the number is the level's
# place on the ladder (spot 0, chase 1, table 2, global 3: GENERATE.md).
LEVELS = ["spot", "chase", "table", "global"]
lv1 = base["puzzles"][1]["human_level"]
other = LEVELS[(LEVELS.index(lv1) + 1) % 4]
edit("humanname", "d['puzzles'][1]['human_level'] = 'easy'")
refused("humanname", 'puzzles[1].human_level: "easy" is not one of spot, chase, table, global')
edit("humannumber", f"d['puzzles'][1]['human_level_number'] = {LEVELS.index(other)}")
refused("humannumber", f'puzzles[1].human_level_number: {LEVELS.index(other)}, '
        f'expected {LEVELS.index(lv1)} (human_level is "{lv1}")')
edit("humannonumber", "d['puzzles'][1]['human_level_number'] = None")
refused("humannonumber", f'puzzles[1].human_level_number: null, expected '
        f'{LEVELS.index(lv1)} (human_level is "{lv1}")')
edit("humanorphan", "d['puzzles'][1]['human_level'] = None")
refused("humanorphan", f"puzzles[1].human_level_number: {LEVELS.index(lv1)}, "
        "expected null (human_level is null)")
edit("humanfour", "d['puzzles'][1]['human_level_number'] = 4")
refused("humanfour", "puzzles[1].human_level_number: 4 is outside 0..3")
edit("humanscore", "d['puzzles'][1]['human_score'] = 10 ** 13")
refused("humanscore", "puzzles[1].human_score: 10000000000000 is outside "
        "-1000000000000..1000000000000")
edit("humanscorefrac", "d['puzzles'][1]['human_score'] = 1.5")
refused("humanscorefrac", "puzzles[1].human_score: 1.5 is not an integer")
edit("humanmodel", "d['puzzles'][1]['human_model_version'] = 0")
refused("humanmodel", "puzzles[1].human_model_version: 0 is outside 1..9007199254740991")
edit("nohuman", "[[p.pop(k) for k in ('human_level', 'human_level_number', "
     "'human_score', 'human_model_version')] for p in d['puzzles']]")
rows.append(("nohuman", 0, "", ok_line, ""))
edit("humannull", "[p.update(human_level=None, human_level_number=None, "
     "human_score=None, human_model_version=None) for p in d['puzzles']]")
rows.append(("humannull", 0, "", ok_line, ""))
edit("humanlow", "d['puzzles'][1]['human_score'] = -10 ** 12")
rows.append(("humanlow", 0, "", ok_line, ""))

# --- an empty pack says why; empty text is not JSON.
edit("nopuzzle", "d['puzzles'] = []")
rows.append(("nopuzzle", 1, "replay: {FILE}: the pack has no puzzles",
             "replayed 0 puzzles: 0 solved, 0 failed", ""))
raw("emptytext", b"")
refused("emptytext", "not JSON: the text is empty")
raw("blanktext", b" \n\t\r\n")
refused("blanktext", "not JSON: the text is empty")

# --- the pack's name (1 to 64 characters, not bytes) and seed.
edit("noname", "d['pack']['name'] = ''")
refused("noname", "pack.name: 0 characters, not 1..64")
edit("longname", "d['pack']['name'] = 'n' * 65")
refused("longname", "pack.name: 65 characters, not 1..64")
edit("widename", "d['pack']['name'] = '\\u00e9' * 64")
rows.append(("widename", 0, "", ok_line, ""))
edit("seedcase", "d['puzzles'][1]['seed'] = 'ABC'")
refused("seedcase", "puzzles[1].seed: not lowercase hex digits")

# --- list lengths.
edit("tiers17", "d['rules'][0]['tiers'] = [{'name': 't', 'lo': 0, 'hi': 1}] * 17")
refused("tiers17", "rules[0].tiers: 17 items, at most 16")
edit("effects4097", "d['rules'][0]['cells'][0]['effects'] = [{'cell': 0, 'amount': 1}] * 4097")
refused("effects4097", "rules[0].cells[0].effects: 4097 items, at most 4096")
edit("rules257", "d['rules'] = d['rules'] * 257")
refused("rules257", "rules: 257 items, at most 256")

# --- parser messages carry no control character (Newtonsoft named the
# NUL past the end of a truncated text, V8 quotes the text it stops at);
# bytes that are not UTF-8 are refused; a byte order mark is skipped.
raw("afterkey", b'{"format"')
refused("afterkey", "not JSON: *", "clean")
raw("controltoken", b"[tru\x01e]")
refused("controltoken", "not JSON: *", "clean")
raw("escape", b"\x1b[31mred")
refused("escape", "not JSON: *", "clean")
raw("latin1", b'{"format": "quench-pack\xff"}')
refused("latin1", "not JSON: the text is not UTF-8")
raw("bom", b"\xef\xbb\xbf" + json.dumps(base).encode())
rows.append(("bom", 0, "", ok_line, ""))

for row in rows:
    print("\x1f".join(str(x) for x in row))
