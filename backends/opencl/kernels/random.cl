#pragma OPENCL FP_CONTRACT OFF
// Random sampling: built after ember/random/philox.h and distributions.h (the runtime prepends them), so
// every element is the shared sampler's value for (seed, call, i), bit for bit the eigen backend's. One
// work-item per element, except the float16/float32 uniform, normal, exponential and gamma fills, where one
// work-item draws 16 elements' Philox words at once in vector registers (EMBER_BLOCK) and turns them into
// samples with the shared samplers' word forms; the float16 kernels take the float32 sample and round it
// once, like the eigen backend. Float32 parameters arrive already rounded on the host (eigen's to_f32 rule).

// name_f64 filling out[out_off + i] with SAMPLE, an expression of i; the parameters p0, p1 and p2 mean what
// each distribution says (p2: uniform's cap, else unused).
#define FILL_F64(name, SAMPLE)                                                                            \
  __kernel void name##_f64(long n, __global double* out, long out_off, ulong seed, uint call, double p0,  \
                           double p1, double p2) {                                                        \
    const long i = get_global_id(0);                                                                      \
    if (i >= n) return;                                                                                   \
    out[out_off + i] = SAMPLE;                                                                            \
  }

// ---- 16 elements per work-item --------------------------------------------------------------------------

// Elements per work-item of the block kernels (kRandomBlock in random_ops.cpp).
#define EMBER_BLOCK 16

// hi and lo words of the 32 x 32 -> 64-bit products a[k] * m, lane by lane: the products of even and odd
// lanes as 64-bit lanes, so that the compiler emits one widening multiply per 8 lanes (pocl does not find
// it in mul_hi or in 64-bit products of converted vectors as well).
inline void ember_mulhilo16(uint16 a, uint m, uint16* hi, uint16* lo) {
  const ulong8 a64 = as_ulong8(a);
  const ulong8 even = (a64 & (ulong8)0xffffffffu) * (ulong8)m;
  const ulong8 odd = (a64 >> 32) * (ulong8)m;
  *hi = as_uint16((even >> 32) | (odd & (ulong8)0xffffffff00000000ul));
  *lo = as_uint16((even & (ulong8)0xffffffffu) | (odd << 32));
}

// Words 0 and 1 (and 2 when w2 is not 0) of draw 0 (ember_rng_draw) of elements first .. first + 15:
// ember_philox4x32_10 on 16 counters at once. first is a multiple of 16, so the counter's high word is the
// same for all 16.
inline void ember_draw16(ulong seed, uint call, ulong first, uint* w0, uint* w1, uint* w2) {
  const uint16 lane = (uint16)(0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 14u, 15u);
  uint16 c0 = (uint16)((uint)first) + lane;
  uint16 c1 = (uint16)((uint)(first >> 32)), c2 = (uint16)0u, c3 = (uint16)call;
  uint k0 = (uint)seed, k1 = (uint)(seed >> 32);
  for (int round = 0; round < EMBER_PHILOX_ROUNDS; ++round) {
    uint16 hi0, lo0, hi1, lo1;
    if (round > 0) {
      k0 += EMBER_PHILOX_W0;
      k1 += EMBER_PHILOX_W1;
    }
    ember_mulhilo16(c0, EMBER_PHILOX_M0, &hi0, &lo0);
    ember_mulhilo16(c2, EMBER_PHILOX_M1, &hi1, &lo1);
    c0 = hi1 ^ c1 ^ (uint16)k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ (uint16)k1;
    c3 = lo0;
  }
  vstore16(c0, 0, w0);
  vstore16(c1, 0, w1);
  if (w2 != 0) vstore16(c2, 0, w2);
}

// name_f32 / name_f16 on blocks: work-item b fills elements 16 b .. 16 b + 15 of n (fewer in the last block)
// with SAMPLE, an expression of that element's index first + j and words w0[j] and w1[j] (and w2[j] when W2
// is w2; 0 skips word 2); blocks is ceil(n / 16).
#define FILL_BLOCK(name, W2, SAMPLE)                                                                      \
  __kernel void name##_f32(long blocks, long n, __global float* out, long out_off, ulong seed, uint call, \
                           float p0, float p1, float p2) {                                                \
    const long first = get_global_id(0) * EMBER_BLOCK;                                                    \
    uint w0[EMBER_BLOCK], w1[EMBER_BLOCK], w2[EMBER_BLOCK];                                               \
    float r[EMBER_BLOCK];                                                                                 \
    if (get_global_id(0) >= blocks) return;                                                               \
    ember_draw16(seed, call, (ulong)first, w0, w1, W2);                                                   \
    for (int j = 0; j < EMBER_BLOCK; ++j) r[j] = SAMPLE;                                                  \
    if (first + EMBER_BLOCK <= n) {                                                                       \
      vstore16(vload16(0, r), 0, out + out_off + first);                                                  \
    } else {                                                                                              \
      for (long j = 0; first + j < n; ++j) out[out_off + first + j] = r[j];                               \
    }                                                                                                     \
  }                                                                                                       \
  __kernel void name##_f16(long blocks, long n, __global half* out, long out_off, ulong seed, uint call,  \
                           float p0, float p1, float p2) {                                                \
    const long first = get_global_id(0) * EMBER_BLOCK;                                                    \
    uint w0[EMBER_BLOCK], w1[EMBER_BLOCK], w2[EMBER_BLOCK];                                               \
    if (get_global_id(0) >= blocks) return;                                                               \
    ember_draw16(seed, call, (ulong)first, w0, w1, W2);                                                   \
    for (long j = 0; j < EMBER_BLOCK && first + j < n; ++j) {                                             \
      ember_store_half(SAMPLE, out_off + first + j, out);                                                 \
    }                                                                                                     \
  }

FILL_BLOCK(uniform, 0, ember_below_f32(ember_uniform_from_word_f32(w0[j], p0, p1), p2))
FILL_BLOCK(normal, 0, ember_normal_from_words_f32(w0[j], w1[j], p0, p1))
FILL_BLOCK(exponential, 0, ember_exponential_from_word_f32(w0[j], p0))

// Gamma: attempt 0 of Marsaglia and Tsang for every element from the block's words of draw 0; an element
// it rejects (a few in a hundred) runs the shared sampler's loop from attempt 0 (ember_gamma_mt_f32), and
// shapes below 1 take their boost from their own draw (ember_gamma_finish_f32): the bits of
// ember_sample_gamma_f32.
inline float ember_gamma_from_words_f32(uint w0, uint w1, uint w2, ulong seed, uint call, ulong i,
                                        float alpha, float scale) {
  const float a = ember_gamma_mt_shape_f32(alpha);
  const float d = ember_gamma_d_f32(a);
  const float c = ember_gamma_c_f32(d);
  float g;
  if (!ember_gamma_attempt_f32(w0, w1, w2, d, c, &g)) g = ember_gamma_mt_f32(seed, call, i, a);
  return ember_gamma_finish_f32(seed, call, i, alpha, scale, g);
}
FILL_BLOCK(gamma, w2, ember_gamma_from_words_f32(w0[j], w1[j], w2[j], seed, call, (ulong)(first + j), p0, p1))

// ---- one element per work-item ---------------------------------------------------------------------------

__kernel void bernoulli(long n, __global uchar* out, long out_off, ulong seed, uint call, ulong threshold) {
  const long i = get_global_id(0);
  if (i >= n) return;
  out[out_off + i] = (uchar)(ember_sample_bernoulli(seed, call, (ulong)i, threshold) != 0);
}

// The 64-bit sort keys of random_permutation (the host sorts them stably by (key, index)).
__kernel void permutation_keys(long n, __global ulong* keys, ulong seed, uint call) {
  const long i = get_global_id(0);
  if (i >= n) return;
  keys[i] = ember_sample_key64(seed, call, (ulong)i);
}

// out row r = x row perm[r], rows of row_bytes bytes; one work-item per byte of out.
__kernel void gather_rows(long n, __global const uchar* x, long x_off, __global uchar* out, long out_off,
                          __global const long* perm, long row_bytes) {
  const long b = get_global_id(0);
  if (b >= n) return;
  const long r = b / row_bytes, j = b % row_bytes;
  out[out_off + b] = x[x_off + perm[r] * row_bytes + j];
}

// Gumbel-max over rows of logits (rows, k): one work-item per (row, sample) of out (rows, samples). The
// first maximum wins; a NaN logit never wins; a row of only -inf or NaN gives 0.
#define CATEGORICAL(name, LT, CT, READ, GUMBEL)                                                            \
  __kernel void name(long n, __global const LT* logits, long l_off, __global long* out, long out_off,     \
                     ulong seed, uint call, long k_count, long samples) {                                 \
    const long w = get_global_id(0);                                                                      \
    if (w >= n) return;                                                                                   \
    const long r = w / samples;                                                                           \
    const ulong base = (ulong)w * (ulong)k_count;                                                         \
    CT best = -(CT)INFINITY;                                                                              \
    long best_k = 0;                                                                                      \
    for (long k = 0; k < k_count; ++k) {                                                                  \
      const CT v = READ(logits, l_off + r * k_count + k) + GUMBEL(seed, call, base + (ulong)k);           \
      if (v > best) {                                                                                     \
        best = v;                                                                                         \
        best_k = k;                                                                                       \
      }                                                                                                   \
    }                                                                                                     \
    out[out_off + w] = best_k;                                                                            \
  }
#define READ_PLAIN(p, i) ((p)[i])
#define READ_HALF(p, i) vload_half((i), (p))
CATEGORICAL(categorical_f16, half, float, READ_HALF, ember_sample_gumbel_f32)
CATEGORICAL(categorical_f32, float, float, READ_PLAIN, ember_sample_gumbel_f32)

#ifndef EMBER_RNG_NO_DOUBLE
FILL_F64(uniform, ember_below_f64(ember_sample_uniform_f64(seed, call, (ulong)i, p0, p1), p2))
FILL_F64(normal, ember_sample_normal_f64(seed, call, (ulong)i, p0, p1))
FILL_F64(exponential, ember_sample_exponential_f64(seed, call, (ulong)i, p0))
FILL_F64(gamma, ember_sample_gamma_f64(seed, call, (ulong)i, p0, p1))
CATEGORICAL(categorical_f64, double, double, READ_PLAIN, ember_sample_gumbel_f64)

__kernel void poisson(long n, __global long* out, long out_off, ulong seed, uint call, double lam) {
  const long i = get_global_id(0);
  if (i >= n) return;
  out[out_off + i] = ember_sample_poisson(seed, call, (ulong)i, lam);
}
#endif
