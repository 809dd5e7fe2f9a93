/*
 * zk_simd.h: whether the x86 vector paths of zk_rowop.c and zk_solve.c
 * can be built here (GCC or Clang on x86-64), and their intrinsics. Each
 * path is still picked at run time by what the CPU supports.
 */
#ifndef QN_ZK_SIMD_H
#define QN_ZK_SIMD_H

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ZK_X86 1
#else
#define ZK_X86 0
#endif

#endif
