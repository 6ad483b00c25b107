#pragma OPENCL FP_CONTRACT OFF
// Random sampling: built after ember/random/philox.h and distributions.h (the runtime prepends them), so
// every element is the shared sampler's value for (seed, call, i), bit for bit the eigen backend's. One
// work-item per element; the float16 kernels take the float32 sample and round it once, like the eigen
// backend. Float32 parameters arrive already rounded on the host (eigen's to_f32 rule).

// name_f16 / name_f32 / name_f64 filling out[out_off + i] with SAMPLE_F32(i) or SAMPLE_F64(i); the
// parameters p0, p1 and p2 mean what each distribution says (p2: uniform's cap, else unused).
#define FILL_F32(name, SAMPLE)                                                                            \
  __kernel void name##_f32(long n, __global float* out, long out_off, ulong seed, uint call, float p0,    \
                           float p1, float p2) {                                                          \
    const long i = get_global_id(0);                                                                      \
    if (i >= n) return;                                                                                   \
    out[out_off + i] = SAMPLE;                                                                            \
  }                                                                                                       \
  __kernel void name##_f16(long n, __global half* out, long out_off, ulong seed, uint call, float p0,     \
                           float p1, float p2) {                                                          \
    const long i = get_global_id(0);                                                                      \
    if (i >= n) return;                                                                                   \
    ember_store_half(SAMPLE, out_off + i, out);                                                           \
  }
#define FILL_F64(name, SAMPLE)                                                                            \
  __kernel void name##_f64(long n, __global double* out, long out_off, ulong seed, uint call, double p0,  \
                           double p1, double p2) {                                                        \
    const long i = get_global_id(0);                                                                      \
    if (i >= n) return;                                                                                   \
    out[out_off + i] = SAMPLE;                                                                            \
  }

FILL_F32(uniform, ember_below_f32(ember_sample_uniform_f32(seed, call, (ulong)i, p0, p1), p2))
FILL_F32(normal, ember_sample_normal_f32(seed, call, (ulong)i, p0, p1))
FILL_F32(exponential, ember_sample_exponential_f32(seed, call, (ulong)i, p0))
FILL_F32(gamma, ember_sample_gamma_f32(seed, call, (ulong)i, p0, p1))

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
