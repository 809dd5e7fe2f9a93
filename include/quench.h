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

/* engine: GF(2) and Z/k linear algebra, minimal presses, repairs */

/* rules: the rule model, YAML rule files and recipes, layouts, states,
 * symmetry */

/* solve: a rule compiled for answers */

/* bigboard: boards past the dense model (chasing, polynomials, images) */

/* store: the SQLite puzzle store */

/* generate: the generator and the exact press distribution */

/* validate: submission readers and verdicts */

/* export: the pack document and its formats */

/* campaign: a whole pack from a recipe */

#endif
