#!/bin/sh
# store-floor.sh: candidate puzzle-table layouts for issue #35 section 1
# (docs/PERFORMANCE.md, "The store at its floor"), measured in SQLite
# alone: the rows of a database made by `quench generate --db` inserted
# again into a fresh database of each layout, with the store's pragmas
# and its batch of 65536 rows a transaction, in the order generate
# stored them (or sorted by puzzle id inside each batch). Prints each
# layout's CPU time (user + system of the sqlite3 process, GNU time) and
# its bytes a puzzle on disk. Nothing here is quench's code: a layout
# that wins would still need the store, the merge and a migration.
#
#   quench generate rules/classic-7x7.yaml -n 1000000 --seed 1 --jobs 2 \
#       --db /tmp/floor/g.db >/dev/null
#   scripts/store-floor.sh /tmp/floor/g.db [LAYOUT...]
#
# Layouts: today (the puzzles table of migration 0007), today-sorted,
# today-sorted-ids (sorted, each row keeping its row id), today-noindex
# (no unique key, no foreign keys: the floor of the insert), codes (grade
# as a code of a grades table, the three text columns of a submission as
# one), uid-key (one B-tree: the puzzle id is the table's key, the row
# number a plain column), uid-key-sorted, uid-index (today's table with
# a unique key of the puzzle id alone), uid-index-sorted, uid-nocanon (uid-key without
# the canonical key, which the state gives again), uid-nocanon-sorted.
# uid-key is the table keyed by the 63-bit puzzle hash itself (INTEGER
# PRIMARY KEY = uid: the key stored once, no second index); hash-wor
# and hash-wor-sorted the same as a WITHOUT ROWID table keyed by uid;
# split-keys-sorted today's table without its unique key (row ids in
# stream order, appended) plus a WITHOUT ROWID table of the key
# (uid, rule_id, canon) -> row id filled from each batch sorted by uid
# (SQLite fills a real index in the table's insert order, so a sorted
# fill under stream-order ids takes a table of its own);
# split-uid-sorted the same with the key uid alone.
#
# Environment (each printed on the result line when not the default):
# QN_FLOOR_CACHE KiB of page cache (65536, the store's), QN_FLOOR_BATCH
# rows a transaction (65536, the store's; 0 = the whole run in one
# sorted batch), QN_FLOOR_PAGE page_size (4096, the store's).
set -eu

src=${1:?usage: store-floor.sh GENERATED.db [LAYOUT...]}
shift
[ $# -gt 0 ] || set -- today today-sorted today-sorted-ids today-noindex \
    codes uid-key uid-key-sorted uid-index uid-index-sorted uid-nocanon \
    uid-nocanon-sorted hash-wor hash-wor-sorted split-keys-sorted split-uid-sorted
dir=$(dirname "$src")
n=$(sqlite3 "$src" 'SELECT count(*) FROM puzzles')
cache=${QN_FLOOR_CACHE:-65536}
batch=${QN_FLOOR_BATCH:-65536}
page=${QN_FLOOR_PAGE:-4096}
[ "$batch" -gt 0 ] || batch=$n
cfg=
[ "$cache" = 65536 ] || cfg="$cfg cache=${cache}K"
[ "$batch" = 65536 ] || cfg="$cfg batch=$batch"
[ "$page" = 4096 ] || cfg="$cfg page=$page"

today_cols='rule_id, state, canon, min_presses, optimal, witness, grade,
    grader, seed, stream_index, provenance, run_id, uid, submission,
    source, meta'
# the source's grade is a code already (migration 0007), of the grades
# table copied from it
grade_code='p.grade'

layout() { # $1 layout: the CREATE, the INSERT ... SELECT and the order
    order=p.id
    fk=ON
    case $1 in
    today*)
        # the table as the store makes it
        # (today-noindex: without its unique key's line, whose comma
        # ends the line above it)
        sqlite3 "$src" ".schema puzzles" | grep -v '^CREATE INDEX' |
            if [ "$1" = today-noindex ] || [ "${1#uid-index}" != "$1" ]; then
                sed -e '/^ *UNIQUE (uid, rule_id, canon)$/d' \
                    -e 's/^\( *human_model .*\),$/\1/'
            else cat; fi
        ins="INSERT INTO puzzles ($today_cols) SELECT $today_cols"
        case $1 in
        today-sorted) order=p.uid ;;
        today-sorted-ids)
            order=p.uid
            ins="INSERT INTO puzzles (id, $today_cols) SELECT p.id, $today_cols" ;;
        today-noindex) fk=OFF ;;
        esac ;;
    split-*)
        # stream-order row ids, the key in a table of its own filled
        # in key order: two statements a batch
        layout today-noindex
        fk=ON
        ins="INSERT INTO puzzles (id, $today_cols) SELECT p.id, $today_cols"
        case $1 in
        split-keys*)
            echo "CREATE TABLE puzzle_keys (uid INTEGER NOT NULL,"
            echo "    rule_id INTEGER NOT NULL, canon BLOB NOT NULL,"
            echo "    id INTEGER NOT NULL,"
            echo "    PRIMARY KEY (uid, rule_id, canon)) WITHOUT ROWID, STRICT;"
            ins2="INSERT INTO puzzle_keys (uid, rule_id, canon, id)
    SELECT uid, rule_id, canon, p.id" ;;
        *)
            echo "CREATE TABLE puzzle_keys (uid INTEGER PRIMARY KEY,"
            echo "    id INTEGER NOT NULL) STRICT;"
            ins2="INSERT INTO puzzle_keys (uid, id) SELECT uid, p.id" ;;
        esac ;;
    hash-wor*)
        # WITHOUT ROWID, keyed by the puzzle hash
        cat <<'EOF'
CREATE TABLE puzzles (
    uid INTEGER NOT NULL PRIMARY KEY, id INTEGER NOT NULL,
    rule_id INTEGER NOT NULL REFERENCES rules(id), canon BLOB NOT NULL,
    state BLOB NOT NULL, witness BLOB NOT NULL, min_presses INTEGER NOT NULL,
    optimal INTEGER NOT NULL, grade INTEGER REFERENCES grades(id),
    grader TEXT NOT NULL DEFAULT '', seed TEXT, stream_index INTEGER,
    provenance INTEGER NOT NULL CHECK (provenance BETWEEN 0 AND 2),
    run_id INTEGER REFERENCES runs(id), origin TEXT) WITHOUT ROWID, STRICT;
EOF
        ins="INSERT INTO puzzles (uid, id, rule_id, canon, state, witness,
    min_presses, optimal, grade, grader, seed, stream_index, provenance,
    run_id, origin) SELECT uid, p.id, rule_id, canon, state, witness,
    min_presses, optimal, $grade_code, grader, seed, stream_index,
    provenance, run_id, NULL"
        case $1 in *-sorted) order=p.uid ;; esac ;;
    uid-index*)
        # today's table with a unique key of the puzzle id alone
        layout today-noindex
        fk=ON
        echo 'CREATE UNIQUE INDEX puzzles_uid ON puzzles (uid);'
        case $1 in *-sorted) order=p.uid ;; esac ;;
    codes)
        cat <<'EOF'
CREATE TABLE puzzles (
    id INTEGER PRIMARY KEY, rule_id INTEGER NOT NULL REFERENCES rules(id),
    uid INTEGER NOT NULL, canon BLOB NOT NULL, state BLOB NOT NULL,
    witness BLOB NOT NULL, min_presses INTEGER NOT NULL, optimal INTEGER NOT NULL,
    grade INTEGER REFERENCES grades(id), grader TEXT NOT NULL DEFAULT '',
    seed TEXT, stream_index INTEGER, provenance INTEGER NOT NULL
    CHECK (provenance BETWEEN 0 AND 2), run_id INTEGER REFERENCES runs(id),
    origin TEXT, UNIQUE (uid, rule_id, canon)) STRICT;
EOF
        ins="INSERT INTO puzzles (rule_id, uid, canon, state, witness,
    min_presses, optimal, grade, grader, seed, stream_index, provenance,
    run_id, origin) SELECT rule_id, uid, canon, state, witness, min_presses,
    optimal, $grade_code, grader, seed, stream_index, provenance, run_id,
    NULL" ;;
    uid-*)
        canon_col='canon BLOB NOT NULL,'
        canon=canon,
        case $1 in uid-nocanon*) canon_col='' canon='' ;; esac
        cat <<EOF
CREATE TABLE puzzles (
    uid INTEGER PRIMARY KEY, id INTEGER NOT NULL,
    rule_id INTEGER NOT NULL REFERENCES rules(id), $canon_col
    state BLOB NOT NULL, witness BLOB NOT NULL, min_presses INTEGER NOT NULL,
    optimal INTEGER NOT NULL, grade INTEGER REFERENCES grades(id),
    grader TEXT NOT NULL DEFAULT '', seed TEXT, stream_index INTEGER,
    provenance INTEGER NOT NULL CHECK (provenance BETWEEN 0 AND 2),
    run_id INTEGER REFERENCES runs(id), origin TEXT) STRICT;
EOF
        ins="INSERT INTO puzzles (uid, id, rule_id, $canon state, witness,
    min_presses, optimal, grade, grader, seed, stream_index, provenance,
    run_id, origin) SELECT uid, p.id, rule_id, $canon state, witness,
    min_presses, optimal, $grade_code, grader, seed, stream_index,
    provenance, run_id, NULL"
        case $1 in *-sorted) order=p.uid ;; esac ;;
    *) echo "store-floor.sh: unknown layout $1" >&2; exit 64 ;;
    esac
}

for l in "$@"; do
    db=$dir/floor-$l-$$.db
    rm -f "$db" "$db-wal" "$db-shm"
    ins2=
    {
        echo "PRAGMA page_size = $page;"
        echo "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
        echo "PRAGMA cache_size = -$cache; PRAGMA wal_autocheckpoint = 20000;"
        echo "ATTACH '$src' AS g;"
        sqlite3 "$src" ".schema rules" ".schema runs" | grep -v '^CREATE INDEX'
        echo "INSERT INTO rules SELECT * FROM g.rules;"
        echo "INSERT INTO runs SELECT * FROM g.runs;"
        echo "CREATE TABLE grades (id INTEGER PRIMARY KEY,"
        echo "    name TEXT NOT NULL UNIQUE) STRICT;"
        echo "INSERT INTO grades SELECT * FROM g.grades;"
        layout "$l"
        echo "PRAGMA foreign_keys = $fk;"
        i=0
        while [ "$i" -lt "$n" ]; do
            w="FROM g.puzzles p WHERE p.id > $i AND p.id <= $((i + batch))"
            echo "BEGIN; $ins $w ORDER BY $order;"
            [ -z "$ins2" ] || echo "$ins2 $w ORDER BY p.uid;"
            echo "COMMIT;"
            i=$((i + batch))
        done
    } >"$db.sql"
    /usr/bin/time -f '%U %S' -o "$db.time" sqlite3 "$db" <"$db.sql" >/dev/null
    rows=$(sqlite3 "$db" 'SELECT count(*) FROM puzzles')
    bytes=$(wc -c <"$db")
    [ "$rows" = "$n" ] || { echo "$l: $rows rows of $n" >&2; exit 1; }
    awk -v l="$l" -v b="$bytes" -v n="$n" -v c="$cfg" '{ printf "%-20s CPU %6.2f s" \
        " (user %.2f + sys %.2f)  %5.1f bytes/puzzle%s\n", l, $1 + $2, \
        $1, $2, b / n, c }' "$db.time"
    rm -f "$db" "$db-wal" "$db-shm" "$db.sql" "$db.time"
done
