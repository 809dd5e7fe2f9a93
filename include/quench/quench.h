/*
 * quench.h: the umbrella header of libquench. Including it is the same as
 * including every module header; each documents its own ownership rules
 * and error codes.
 */
#ifndef QN_QUENCH_H
#define QN_QUENCH_H

#include "quench/bitboard.h"
#include "quench/buf.h"
#include "quench/chase.h"
#include "quench/err.h"
#include "quench/export.h"
#include "quench/file.h"
#include "quench/flip.h"
#include "quench/gf2.h"
#include "quench/gf2x.h"
#include "quench/grid.h"
#include "quench/hash.h"
#include "quench/jsonw.h"
#include "quench/layout.h"
#include "quench/mem.h"
#include "quench/minpress.h"
#include "quench/netpbm.h"
#include "quench/plus2.h"
#include "quench/plusp.h"
#include "quench/repair.h"
#include "quench/rng.h"
#include "quench/rules.h"
#include "quench/state.h"
#include "quench/svg.h"
#include "quench/system.h"
#include "quench/text.h"
#include "quench/version.h"
#include "quench/zk.h"

#endif
