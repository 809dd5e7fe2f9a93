/*
 * quench.h: the public API of libquench, the library behind the quench
 * tool (docs/API.md): load a rule and read its facts; solve a state (the
 * exact minimal presses, a repair of an unsolvable one); generate puzzles;
 * validate a stream of submissions; keep puzzles and packs in a store;
 * export packs. Link with `pkg-config --cflags --libs quench`.
 */
#ifndef QN_QUENCH_H
#define QN_QUENCH_H

#include "quench/common.h"
#include "quench/db.h"
#include "quench/generate.h"
#include "quench/pack.h"
#include "quench/ruleset.h"
#include "quench/solve.h"
#include "quench/validate.h"

#endif
