// The target attributes of the host kernels compiled for several vector widths (host/vector_kernels.cpp,
// host/pairwise_kernels.cpp, host/sort_kernels.cpp): EMBER_HAVE_SIMD_LEVELS is 1 where GCC or clang compile
// for x86-64, and then EMBER_TARGET_AVX2 and EMBER_TARGET_AVX512 mark a function compiled for that level
// (<immintrin.h> included), and EMBER_TARGET_AVX2_FMA one that also uses FMA instructions explicitly (the
// caller checks the cpu's fma flag: the levels do not imply it).
// Backend-agnostic: no backend library header may be included here.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__)
#define EMBER_HAVE_SIMD_LEVELS 1
#include <immintrin.h>
#define EMBER_TARGET_AVX2 __attribute__((target("avx2")))
#define EMBER_TARGET_AVX2_FMA __attribute__((target("avx2,fma")))
#if defined(__clang__)  // clang spells GCC's prefer-vector-width as an attribute of its own
#define EMBER_TARGET_AVX512 \
  __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw"), min_vector_width(512)))
#else
#define EMBER_TARGET_AVX512 \
  __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw,prefer-vector-width=512")))
#endif
#else
#define EMBER_HAVE_SIMD_LEVELS 0
#endif
