/*
 * quench.h: the umbrella header of libquench. Including it is the same as
 * including every module header; each documents its own ownership rules
 * and error codes. Grouped by the layer of src/ that implements them, lowest
 * first (docs/ARCHITECTURE.md).
 */
#ifndef QN_QUENCH_H
#define QN_QUENCH_H

/* base: errors, memory, buffers, text, files, hashes, RNG, JSON output,
 * "did you mean" */
#include "quench/buf.h"
#include "quench/err.h"
#include "quench/file.h"
#include "quench/hash.h"
#include "quench/jsonw.h"
#include "quench/mem.h"
#include "quench/rng.h"
#include "quench/suggest.h"
#include "quench/text.h"
#include "quench/version.h"

/* engine: GF(2) and Z/k linear algebra, minimal presses, repairs */
#include "quench/gf2.h"
#include "quench/gf2x.h"
#include "quench/minpress.h"
#include "quench/repair.h"
#include "quench/system.h"
#include "quench/zk.h"

/* rules: the rule model, YAML rule files and recipes, layouts, states,
 * symmetry */
#include "quench/canon.h"
#include "quench/layout.h"
#include "quench/puzzle_id.h"
#include "quench/recipe.h"
#include "quench/rules.h"
#include "quench/state.h"

/* solve: a rule compiled for answers */
#include "quench/plans.h"
#include "quench/solver.h"

/* bigboard: boards past the dense model (chasing, polynomials, images) */
#include "quench/bitboard.h"
#include "quench/chase.h"
#include "quench/coset_walk.h"
#include "quench/grid.h"
#include "quench/netpbm.h"
#include "quench/plus_gf2.h"
#include "quench/plus_gfp.h"

/* store: the SQLite puzzle store */
#include "quench/store.h"

/* generate: the generator and the exact press distribution */
#include "quench/distrib.h"
#include "quench/gen.h"

/* validate: submission readers and verdicts */
#include "quench/submit.h"
#include "quench/verdict.h"
#include "quench/verdict_stream.h"
#include "quench/verdict_write.h"

/* export: the pack document and its formats */
#include "quench/export.h"
#include "quench/flip_id.h"
#include "quench/term.h"

/* campaign: a whole pack from a recipe */
#include "quench/campaign.h"
#include "quench/png.h"
#include "quench/svg.h"

#endif
