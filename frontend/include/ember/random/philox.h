/* Philox4x32-10 and the conversion of its 32-bit words to uniform floats: the first half of ember's one
 * shared source of random math (the second is distributions.h).
 *
 * This text is compiled unchanged as C99, as C++20 (by the host backends) and as OpenCL C 1.2 (by the
 * OpenCL backend, which prepends a few #defines), so every backend computes the same bits. Hence: no
 * templates, namespaces, references or std::; fixed-width types through the ember_u32/ember_u64 typedefs;
 * functions are EMBER_RNG_INLINE. Philox is Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"
 * (SC11), with Random123's constants and 10 rounds; its known-answer vectors are in tests/ember.
 */
#ifndef EMBER_RANDOM_PHILOX_H
#define EMBER_RANDOM_PHILOX_H

#ifdef __OPENCL_C_VERSION__
#pragma OPENCL FP_CONTRACT OFF
typedef uint ember_u32;
typedef ulong ember_u64;
typedef int ember_i32;
typedef long ember_i64;
#else
#include <stdint.h>
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
typedef uint32_t ember_u32;
typedef uint64_t ember_u64;
typedef int32_t ember_i32;
typedef int64_t ember_i64;
#endif

#ifndef EMBER_RNG_INLINE
#define EMBER_RNG_INLINE static inline
#endif

#define EMBER_PHILOX_M0 0xD2511F53u
#define EMBER_PHILOX_M1 0xCD9E8D57u
#define EMBER_PHILOX_W0 0x9E3779B9u
#define EMBER_PHILOX_W1 0xBB67AE85u
#define EMBER_PHILOX_ROUNDS 10

/* Four 32-bit words: a Philox counter block or its output. */
typedef struct ember_rng_block {
  ember_u32 w[4];
} ember_rng_block;

EMBER_RNG_INLINE ember_rng_block ember_philox_round(ember_rng_block c, ember_u32 k0, ember_u32 k1) {
  const ember_u64 p0 = (ember_u64)EMBER_PHILOX_M0 * (ember_u64)c.w[0];
  const ember_u64 p1 = (ember_u64)EMBER_PHILOX_M1 * (ember_u64)c.w[2];
  ember_rng_block r;
  r.w[0] = (ember_u32)(p1 >> 32) ^ c.w[1] ^ k0;
  r.w[1] = (ember_u32)p1;
  r.w[2] = (ember_u32)(p0 >> 32) ^ c.w[3] ^ k1;
  r.w[3] = (ember_u32)p0;
  return r;
}

/* Philox4x32-10 of counter block `ctr` under the key (k0, k1). */
EMBER_RNG_INLINE ember_rng_block ember_philox4x32_10(ember_rng_block ctr, ember_u32 k0, ember_u32 k1) {
  int round;
  for (round = 0; round < EMBER_PHILOX_ROUNDS; ++round) {
    if (round > 0) {
      k0 += EMBER_PHILOX_W0;
      k1 += EMBER_PHILOX_W1;
    }
    ctr = ember_philox_round(ctr, k0, k1);
  }
  return ctr;
}

/* ember's stream layout: the key is (seed low word, seed high word); draw j of element i of the call with
 * counter `call` is the counter block (i low word, i high word, j, call). */
EMBER_RNG_INLINE ember_rng_block ember_rng_draw(ember_u64 seed, ember_u32 call, ember_u64 i, ember_u32 j) {
  ember_rng_block c;
  c.w[0] = (ember_u32)i;
  c.w[1] = (ember_u32)(i >> 32);
  c.w[2] = j;
  c.w[3] = call;
  return ember_philox4x32_10(c, (ember_u32)seed, (ember_u32)(seed >> 32));
}

/* Uniform conversions, all exact: float32 from the top 24 bits of one word, float64 from the top 53 bits of
 * the 64-bit word (hi, lo). The "open" variants lie in (0, 1] (safe for log), the "mid" variants in (0, 1)
 * (safe for log(-log u); one bit fewer, the lowest set to 1). */
#define EMBER_TWO_M24F 5.9604644775390625e-08f /* 2^-24 */

EMBER_RNG_INLINE float ember_u01_f32(ember_u32 u) {
  return (float)(u >> 8) * EMBER_TWO_M24F;
}
EMBER_RNG_INLINE float ember_u01_open_f32(ember_u32 u) {
  return (float)((u >> 8) + 1u) * EMBER_TWO_M24F;
}
EMBER_RNG_INLINE float ember_u01_mid_f32(ember_u32 u) {
  return (float)(((u >> 9) << 1) | 1u) * EMBER_TWO_M24F;
}

/* The top 53 bits of (hi, lo) as an integer in [0, 2^53). */
EMBER_RNG_INLINE ember_u64 ember_bits53(ember_u32 hi, ember_u32 lo) {
  return (((ember_u64)hi << 32) | (ember_u64)lo) >> 11;
}

#ifndef EMBER_RNG_NO_DOUBLE
#ifdef __OPENCL_C_VERSION__
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define EMBER_TWO_M53 1.1102230246251565404236316680908203125e-16 /* 2^-53 */

EMBER_RNG_INLINE double ember_u01_f64(ember_u32 hi, ember_u32 lo) {
  return (double)ember_bits53(hi, lo) * EMBER_TWO_M53;
}
EMBER_RNG_INLINE double ember_u01_open_f64(ember_u32 hi, ember_u32 lo) {
  return (double)(ember_bits53(hi, lo) + 1u) * EMBER_TWO_M53;
}
EMBER_RNG_INLINE double ember_u01_mid_f64(ember_u32 hi, ember_u32 lo) {
  return (double)(((ember_bits53(hi, lo) >> 1) << 1) | 1u) * EMBER_TWO_M53;
}
#endif /* EMBER_RNG_NO_DOUBLE */

#endif /* EMBER_RANDOM_PHILOX_H */
