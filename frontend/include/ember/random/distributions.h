/* ember's shared random math, second half: polynomial log/exp/sin/cos and the per-element samplers.
 *
 * Same dialect rules as philox.h (common subset of C99, C++20 and OpenCL C 1.2). Only + - * /, sqrt and
 * bit manipulation are used, never libm's log/exp/sin/cos/pow/lgamma, so the results are bit-identical on
 * every IEEE 754 platform as long as FMA contraction is off and float division and sqrt are correctly
 * rounded (OpenCL: build with -cl-fp32-correctly-rounded-divide-sqrt and without -cl-fast-relaxed-math).
 * The polynomials are fdlibm's (log, exp, the double sin/cos kernels) and Cephes' (float sin/cos kernels).
 *
 * Every sampler is a pure function of (seed, call counter, element index i); draw j of element i is the
 * Philox block ember_rng_draw(seed, call, i, j). Float samplers compute in float, double ones in double.
 */
#ifndef EMBER_RANDOM_DISTRIBUTIONS_H
#define EMBER_RANDOM_DISTRIBUTIONS_H

#include "ember/random/philox.h"

#ifdef __OPENCL_C_VERSION__
#define ember_f32_bits(x) as_uint(x)
#define ember_f32_from_bits(u) as_float(u)
#define ember_f64_bits(x) as_ulong(x)
#define ember_f64_from_bits(u) as_double(u)
#define ember_sqrt_f32(x) sqrt(x)
#define ember_sqrt_f64(x) sqrt(x)
#else
#include <math.h>
#include <string.h>
EMBER_RNG_INLINE ember_u32 ember_f32_bits(float x) {
  ember_u32 u;
  memcpy(&u, &x, sizeof u);
  return u;
}
EMBER_RNG_INLINE float ember_f32_from_bits(ember_u32 u) {
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}
EMBER_RNG_INLINE ember_u64 ember_f64_bits(double x) {
  ember_u64 u;
  memcpy(&u, &x, sizeof u);
  return u;
}
EMBER_RNG_INLINE double ember_f64_from_bits(ember_u64 u) {
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}
#define ember_sqrt_f32(x) sqrtf(x)
#define ember_sqrt_f64(x) sqrt(x)
#endif

/* Rejection loops give up after this many attempts (probability far below 2^-1000) and return a documented
 * fallback, so every sampler terminates in bounded time on every backend. */
#define EMBER_RNG_MAX_ATTEMPTS 1000
/* Draw index of the extra uniform in Gamma's alpha < 1 boost (disjoint from the rejection draws). */
#define EMBER_RNG_GAMMA_BOOST_DRAW 0xFFFFFFFFu

/* ---- float32 math --------------------------------------------------------------------------------- */

/* log(2^k x) for positive normal x with bits ix: the branch-free part of ember_log_f32, which samplers whose
 * argument is known to be a positive normal float call directly so that their loops vectorize. */
EMBER_RNG_INLINE float ember_log_normal_f32(ember_u32 ix, ember_i32 k) {
  k += (ember_i32)(ix >> 23) - 127;
  ix &= 0x007fffffu;
  {
    /* Scale the mantissa m into [sqrt(2)/2, sqrt(2)) and write log(m) = log(1 + f) = 2 atanh(s). */
    const ember_u32 i = (ix + 0x004afb20u) & 0x00800000u;
    const float m = ember_f32_from_bits(ix | (i ^ 0x3f800000u));
    const float f = m - 1.0f;
    const float s = f / (2.0f + f);
    const float z = s * s;
    const float w = z * z;
    const float t1 = w * (0xccce13.0p-25f + w * 0xf89e26.0p-26f);
    const float t2 = z * (0xaaaaaa.0p-24f + w * 0x91e9ee.0p-25f);
    const float r = t2 + t1;
    const float hfsq = 0.5f * f * f;
    const float dk = (float)(k + (ember_i32)(i >> 23));
    return dk * 0x1.62e3p-1f - ((hfsq - (s * (hfsq + r) + dk * 0x1.2fefa2p-17f)) - f);
  }
}

/* Natural log, < 1 ulp for positive normal and subnormal x (fdlibm e_logf.c). */
EMBER_RNG_INLINE float ember_log_f32(float x) {
  ember_u32 ix = ember_f32_bits(x);
  ember_i32 k = 0;
  if (ix >= 0x7f800000u) {                                          /* +inf, NaN or negative */
    if (ix <= 0x7fffffffu) return x + x;                            /* +inf, +NaN */
    if (ix == 0x80000000u) return ember_f32_from_bits(0xff800000u); /* -0: -inf */
    return ember_f32_from_bits(0x7fc00000u);                        /* negative: NaN */
  }
  if (ix < 0x00800000u) { /* zero or subnormal */
    if (ix == 0u) return ember_f32_from_bits(0xff800000u);
    x *= 0x1p25f;
    k = -25;
    ix = ember_f32_bits(x);
  }
  return ember_log_normal_f32(ix, k);
}

/* 2^k * y for k in [-149 - 24, 128] without overflow in the scale factor. */
EMBER_RNG_INLINE float ember_scale2_f32(float y, ember_i32 k) {
  if (k > 127) return y * 2.0f * 0x1p127f;
  if (k >= -125) return y * ember_f32_from_bits((ember_u32)(k + 127) << 23);
  return y * ember_f32_from_bits((ember_u32)(k + 100 + 127) << 23) * 0x1p-100f;
}

/* e^x, < 1 ulp (fdlibm e_expf.c); 0 below -103.97, +inf above 88.72. */
EMBER_RNG_INLINE float ember_exp_f32(float x) {
  if (x != x) return x + x;
  if (x > 88.7216796875f) return ember_f32_from_bits(0x7f800000u);
  if (x < -103.972084045410156f) return 0.0f;
  {
    const ember_i32 k = (ember_i32)(1.4426950216293335f * x + (x < 0.0f ? -0.5f : 0.5f));
    const float kf = (float)k;
    const float hi = x - kf * 0x1.62e4p-1f;
    const float lo = kf * 0x1.7f7d1cp-20f;
    const float r = hi - lo;
    const float t = r * r;
    const float c = r - t * (0xaaaaa8.0p-26f + t * -0xb55215.0p-32f);
    const float y = 1.0f - ((lo - (r * c) / (2.0f - c)) - hi);
    return ember_scale2_f32(y, k);
  }
}

/* sin and cos of |a| <= pi/4 (Cephes sinf.c/cosf.c kernels). */
EMBER_RNG_INLINE float ember_sin_kernel_f32(float a) {
  const float z = a * a;
  return ((-1.9515295891e-4f * z + 8.3321608736e-3f) * z - 1.6666654611e-1f) * z * a + a;
}
EMBER_RNG_INLINE float ember_cos_kernel_f32(float a) {
  const float z = a * a;
  return ((2.443315711809948e-5f * z - 1.388731625493765e-3f) * z + 4.166664568298827e-2f) * z * z -
         0.5f * z + 1.0f;
}

/* cos(2 pi u) (or sin when want_sin) for u in [0, 1): the quadrant reduction is exact. */
EMBER_RNG_INLINE float ember_cossin_2pi_f32(float u, int want_sin) {
  const float t = 4.0f * u;
  const ember_i32 q = (ember_i32)(t + 0.5f);
  const float a = (t - (float)q) * 1.57079637050628662f;
  const ember_i32 quadrant = (q + (want_sin ? 3 : 0)) & 3; /* sin(x) = cos(x - pi/2) */
  /* Quadrants 0..3: cos, -sin, -cos, sin. Both kernels and selects, no branches: loops vectorize. */
  const float c = ember_cos_kernel_f32(a), s = ember_sin_kernel_f32(a);
  const float v = (quadrant & 1) ? s : c;
  return (quadrant == 1 || quadrant == 2) ? 0.0f - v : v;
}
EMBER_RNG_INLINE float ember_cos_2pi_f32(float u) {
  return ember_cossin_2pi_f32(u, 0);
}
EMBER_RNG_INLINE float ember_sin_2pi_f32(float u) {
  return ember_cossin_2pi_f32(u, 1);
}

#ifndef EMBER_RNG_NO_DOUBLE
/* ---- float64 math --------------------------------------------------------------------------------- */

/* log(2^k x) for positive normal x with bits ix: the branch-free part of ember_log_f64 (see
 * ember_log_normal_f32). */
EMBER_RNG_INLINE double ember_log_normal_f64(ember_u64 ix, ember_i32 k) {
  ember_u32 hx = (ember_u32)(ix >> 32);
  k += (ember_i32)(hx >> 20) - 1023;
  hx &= 0x000fffffu;
  {
    const ember_u32 i = (hx + 0x95f64u) & 0x100000u;
    const double m = ember_f64_from_bits(((ember_u64)(hx | (i ^ 0x3ff00000u)) << 32) | (ix & 0xffffffffu));
    const double f = m - 1.0;
    const double s = f / (2.0 + f);
    const double z = s * s;
    const double w = z * z;
    const double t1 =
        w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01 + w * 1.531383769920937332e-01));
    const double t2 =
        z * (6.666666666666735130e-01 +
             w * (2.857142874366239149e-01 + w * (1.818357216161805012e-01 + w * 1.479819860511658591e-01)));
    const double r = t2 + t1;
    const double hfsq = 0.5 * f * f;
    const double dk = (double)(k + (ember_i32)(i >> 20));
    return dk * 6.93147180369123816490e-01 -
           ((hfsq - (s * (hfsq + r) + dk * 1.90821492927058770002e-10)) - f);
  }
}

/* Natural log, < 1 ulp for positive normal and subnormal x (fdlibm e_log.c). */
EMBER_RNG_INLINE double ember_log_f64(double x) {
  ember_u64 ix = ember_f64_bits(x);
  ember_i32 k = 0;
  if (ix >= 0x7ff0000000000000ul) {
    if (ix <= 0x7ffffffffffffffful) return x + x;
    if (ix == 0x8000000000000000ul) return ember_f64_from_bits(0xfff0000000000000ul);
    return ember_f64_from_bits(0x7ff8000000000000ul);
  }
  if (ix < 0x0010000000000000ul) {
    if (ix == 0u) return ember_f64_from_bits(0xfff0000000000000ul);
    x *= 0x1p54;
    k = -54;
    ix = ember_f64_bits(x);
  }
  return ember_log_normal_f64(ix, k);
}

EMBER_RNG_INLINE double ember_scale2_f64(double y, ember_i32 k) {
  if (k > 1023) return y * 2.0 * 0x1p1023;
  if (k >= -1021) return y * ember_f64_from_bits((ember_u64)(k + 1023) << 52);
  return y * ember_f64_from_bits((ember_u64)(k + 1000 + 1023) << 52) * 0x1p-1000;
}

/* e^r for r = hi - lo = x - k ln 2 with |r| <= 0.5 ln 2, hi = x - k ln2_hi and lo = k ln2_lo (the split
 * ln 2 of EMBER_LN2_HI_F64/EMBER_LN2_LO_F64): fdlibm's rational form. Branch-free, for vector loops too. */
#define EMBER_LN2_HI_F64 6.93147180369123816490e-01
#define EMBER_LN2_LO_F64 1.90821492927058770002e-10
EMBER_RNG_INLINE double ember_exp_reduced_f64(double hi, double lo) {
  const double r = hi - lo;
  const double t = r * r;
  const double c = r - t * (1.66666666666666019037e-01 +
                            t * (-2.77777777770155933842e-03 +
                                 t * (6.61375632143793436117e-05 +
                                      t * (-1.65339022054652515390e-06 + t * 4.13813679705723846039e-08))));
  return 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
}

/* e^x, < 1 ulp (fdlibm e_exp.c); 0 below -745.13, +inf above 709.78. */
EMBER_RNG_INLINE double ember_exp_f64(double x) {
  if (x != x) return x + x;
  if (x > 7.09782712893383973096e+02) return ember_f64_from_bits(0x7ff0000000000000ul);
  if (x < -7.45133219101941108420e+02) return 0.0;
  {
    const ember_i32 k = (ember_i32)(1.44269504088896338700e+00 * x + (x < 0.0 ? -0.5 : 0.5));
    const double kd = (double)k;
    return ember_scale2_f64(ember_exp_reduced_f64(x - kd * EMBER_LN2_HI_F64, kd * EMBER_LN2_LO_F64), k);
  }
}

/* sin and cos of |a| <= pi/4 (fdlibm k_sin.c/k_cos.c with a zero tail). */
EMBER_RNG_INLINE double ember_sin_kernel_f64(double a) {
  const double z = a * a;
  const double v = z * a;
  const double r = 8.33333333332248946124e-03 +
                   z * (-1.98412698298579493134e-04 +
                        z * (2.75573137070700676789e-06 +
                             z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10)));
  return a + v * (-1.66666666666666324348e-01 + z * r);
}
EMBER_RNG_INLINE double ember_cos_kernel_f64(double a) {
  const double z = a * a;
  const double r = z * (4.16666666666666019037e-02 +
                        z * (-1.38888888888741095749e-03 +
                             z * (2.48015872894767294178e-05 +
                                  z * (-2.75573143513906633035e-07 +
                                       z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))));
  const double hz = 0.5 * z;
  const double w = 1.0 - hz;
  return w + (((1.0 - w) - hz) + z * r);
}

EMBER_RNG_INLINE double ember_cossin_2pi_f64(double u, int want_sin) {
  const double t = 4.0 * u;
  const ember_i32 q = (ember_i32)(t + 0.5);
  const double a = (t - (double)q) * 1.5707963267948966;
  const ember_i32 quadrant = (q + (want_sin ? 3 : 0)) & 3;
  if (quadrant == 0) return ember_cos_kernel_f64(a);
  if (quadrant == 1) return 0.0 - ember_sin_kernel_f64(a);
  if (quadrant == 2) return 0.0 - ember_cos_kernel_f64(a);
  return ember_sin_kernel_f64(a);
}
EMBER_RNG_INLINE double ember_cos_2pi_f64(double u) {
  return ember_cossin_2pi_f64(u, 0);
}
EMBER_RNG_INLINE double ember_sin_2pi_f64(double u) {
  return ember_cossin_2pi_f64(u, 1);
}

/* log(k!) for k >= 0: exact table below 10, Stirling's series in n = k + 1 above (error < 1e-17 relative). */
EMBER_RNG_INLINE double ember_log_factorial_f64(ember_i64 k) {
  if (k < 10) {
    const double table[10] = {0.0,
                              0.0,
                              0.6931471805599453,
                              1.791759469228055,
                              3.1780538303479458,
                              4.787491742782046,
                              6.579251212010101,
                              8.525161361065415,
                              10.60460290274525,
                              12.801827480081469};
    return table[k < 0 ? 0 : k];
  }
  {
    const double n = (double)(k + 1);
    const double r = 1.0 / n;
    const double r2 = r * r;
    const double series = r * (1.0 / 12.0 - r2 * (1.0 / 360.0 - r2 * (1.0 / 1260.0 - r2 * (1.0 / 1680.0))));
    return (n - 0.5) * ember_log_f64(n) - n + 0.91893853320467274 + series;
  }
}
#endif /* EMBER_RNG_NO_DOUBLE */

/* ---- samplers ------------------------------------------------------------------------------------- */

/* Uniform on [low, high) as low * (1 - u) + high * u, u from word 0 of draw 0: exact at u = 0 and free of
 * overflow for any finite bounds (rounding can give high itself when the interval is tiny relative to its
 * magnitude). The _from_word(s) forms take the Philox words already drawn (the host's vector kernels). */
EMBER_RNG_INLINE float ember_uniform_from_word_f32(ember_u32 w0, float low, float high) {
  const float u = ember_u01_f32(w0);
  return low * (1.0f - u) + high * u;
}
EMBER_RNG_INLINE float ember_sample_uniform_f32(ember_u64 seed, ember_u32 call, ember_u64 i, float low,
                                                float high) {
  return ember_uniform_from_word_f32(ember_rng_draw(seed, call, i, 0u).w[0], low, high);
}

/* v clamped to cap (the host's uniform_cap of ember/backend/random_ops.hpp, the largest value of the output
 * dtype below high), so a uniform sample stays in [low, high) once stored. A comparison, not fmin: the same
 * bits on every device. */
EMBER_RNG_INLINE float ember_below_f32(float v, float cap) {
  return v < cap ? v : cap;
}

/* One standard normal from two words by Box-Muller: sqrt(-2 log u1) cos(2 pi u2), u1 in (0, 1]. */
EMBER_RNG_INLINE float ember_box_muller_f32(ember_u32 w0, ember_u32 w1) {
  /* u1 >= 2^-24 is a positive normal float: ember_log_f32 without its special cases. */
  const float r = ember_sqrt_f32(-2.0f * ember_log_normal_f32(ember_f32_bits(ember_u01_open_f32(w0)), 0));
  return r * ember_cos_2pi_f32(ember_u01_f32(w1));
}
EMBER_RNG_INLINE float ember_normal_from_words_f32(ember_u32 w0, ember_u32 w1, float mean, float stddev) {
  return mean + stddev * ember_box_muller_f32(w0, w1);
}
EMBER_RNG_INLINE float ember_sample_normal_f32(ember_u64 seed, ember_u32 call, ember_u64 i, float mean,
                                               float stddev) {
  const ember_rng_block b = ember_rng_draw(seed, call, i, 0u);
  return ember_normal_from_words_f32(b.w[0], b.w[1], mean, stddev);
}

/* 1 with probability threshold / 2^53 (see ember_bernoulli_threshold), else 0. */
EMBER_RNG_INLINE int ember_sample_bernoulli(ember_u64 seed, ember_u32 call, ember_u64 i,
                                            ember_u64 threshold) {
  const ember_rng_block b = ember_rng_draw(seed, call, i, 0u);
  return ember_bits53(b.w[0], b.w[1]) < threshold;
}

/* Exponential with the given scale: -scale log(u), u in (0, 1] from word 0 of draw 0; never negative zero.
 * u >= 2^-24 is a positive normal float: ember_log_f32 without its special cases (the same bits). */
EMBER_RNG_INLINE float ember_exponential_from_word_f32(ember_u32 w0, float scale) {
  return scale * (0.0f - ember_log_normal_f32(ember_f32_bits(ember_u01_open_f32(w0)), 0));
}
EMBER_RNG_INLINE float ember_sample_exponential_f32(ember_u64 seed, ember_u32 call, ember_u64 i,
                                                    float scale) {
  return ember_exponential_from_word_f32(ember_rng_draw(seed, call, i, 0u).w[0], scale);
}

/* Marsaglia and Tsang's constants for shape alpha >= 1: d = alpha - 1/3 and c = 1 / sqrt(9 d). */
EMBER_RNG_INLINE float ember_gamma_d_f32(float alpha) {
  return alpha - 1.0f / 3.0f;
}
EMBER_RNG_INLINE float ember_gamma_c_f32(float d) {
  return 1.0f / ember_sqrt_f32(9.0f * d);
}
/* The branch-free start of an attempt (see ember_gamma_attempt_f32), for vector loops too: *x2 = x^2 for the
 * normal x from words 0-1, *v = (1 + c x)^3, *u the uniform from word 2; 1 when the squeeze accepts d v
 * (1 + c x > 0 and u < 1 - 0.0331 x^4), as most attempts are, else 0. */
EMBER_RNG_INLINE int ember_gamma_squeeze_f32(ember_u32 w0, ember_u32 w1, ember_u32 w2, float c, float* x2,
                                             float* v, float* u) {
  const float x = ember_box_muller_f32(w0, w1);
  const float v1 = 1.0f + c * x;
  *v = v1 * v1 * v1;
  *u = ember_u01_open_f32(w2);
  *x2 = x * x;
  return (v1 > 0.0f) & (*u < 1.0f - 0.0331f * (*x2 * *x2));
}
/* The test of an attempt the squeeze did not accept, given log u and log v: 1 when it accepts d v. */
EMBER_RNG_INLINE int ember_gamma_log_test_f32(float x2, float v, float d, float log_u, float log_v) {
  return log_u < 0.5f * x2 + d * (1.0f - v + log_v);
}
/* Attempt j of Gamma(alpha, 1) for alpha >= 1 by Marsaglia and Tsang (2000), with d and c of
 * ember_gamma_d_f32 and ember_gamma_c_f32, from draw j's words: normal from words 0-1, uniform from word 2.
 * 1 and *g = d v when the attempt is accepted, else 0. Past the squeeze, v > 0 stands for 1 + c x > 0: a
 * positive 1 + c x whose cube underflows to 0 fails the log test anyway (log 0 = -inf). */
EMBER_RNG_INLINE int ember_gamma_attempt_f32(ember_u32 w0, ember_u32 w1, ember_u32 w2, float d, float c,
                                             float* g) {
  float x2, v, u;
  if (!ember_gamma_squeeze_f32(w0, w1, w2, c, &x2, &v, &u) &&
      !(v > 0.0f && ember_gamma_log_test_f32(x2, v, d, ember_log_f32(u), ember_log_f32(v))))
    return 0;
  *g = d * v;
  return 1;
}
/* Gamma(alpha, 1) for alpha >= 1: attempt j uses draw j. Fallback after EMBER_RNG_MAX_ATTEMPTS rejections:
 * d = alpha - 1/3. */
EMBER_RNG_INLINE float ember_gamma_mt_f32(ember_u64 seed, ember_u32 call, ember_u64 i, float alpha) {
  const float d = ember_gamma_d_f32(alpha);
  const float c = ember_gamma_c_f32(d);
  ember_u32 j;
  float g;
  for (j = 0u; j < (ember_u32)EMBER_RNG_MAX_ATTEMPTS; ++j) {
    const ember_rng_block b = ember_rng_draw(seed, call, i, j);
    if (ember_gamma_attempt_f32(b.w[0], b.w[1], b.w[2], d, c, &g)) return g;
  }
  return d;
}
/* An alpha that underflowed in the float conversion counts as FLT_MIN. */
EMBER_RNG_INLINE float ember_gamma_alpha_f32(float alpha) {
  return alpha < 0x1p-126f ? 0x1p-126f : alpha;
}
/* The shape ember_gamma_mt_f32 samples for Gamma(alpha): alpha itself from 1 on, else alpha + 1. */
EMBER_RNG_INLINE float ember_gamma_mt_shape_f32(float alpha) {
  alpha = ember_gamma_alpha_f32(alpha);
  return alpha >= 1.0f ? alpha : alpha + 1.0f;
}
/* Gamma(alpha, scale) from g, element i's Gamma(ember_gamma_mt_shape_f32(alpha), 1) sample: alpha < 1 uses
 * Gamma(alpha + 1) * u^(1/alpha) with u from draw EMBER_RNG_GAMMA_BOOST_DRAW. */
EMBER_RNG_INLINE float ember_gamma_finish_f32(ember_u64 seed, ember_u32 call, ember_u64 i, float alpha,
                                              float scale, float g) {
  alpha = ember_gamma_alpha_f32(alpha);
  if (alpha >= 1.0f) return scale * g;
  {
    const float u = ember_u01_open_f32(ember_rng_draw(seed, call, i, EMBER_RNG_GAMMA_BOOST_DRAW).w[0]);
    const float boost = ember_exp_f32(ember_log_f32(u) / alpha);
    return scale * (g * boost);
  }
}
/* Gamma(alpha, scale). */
EMBER_RNG_INLINE float ember_sample_gamma_f32(ember_u64 seed, ember_u32 call, ember_u64 i, float alpha,
                                              float scale) {
  return ember_gamma_finish_f32(seed, call, i, alpha, scale,
                                ember_gamma_mt_f32(seed, call, i, ember_gamma_mt_shape_f32(alpha)));
}

/* Gumbel noise -log(-log u), u in (0, 1), for Gumbel-max categorical sampling. */
EMBER_RNG_INLINE float ember_sample_gumbel_f32(ember_u64 seed, ember_u32 call, ember_u64 i) {
  const float u = ember_u01_mid_f32(ember_rng_draw(seed, call, i, 0u).w[0]);
  return 0.0f - ember_log_f32(0.0f - ember_log_f32(u));
}

/* A random 64-bit key; argsort of the keys (ties broken by index) is a uniform random permutation. */
EMBER_RNG_INLINE ember_u64 ember_sample_key64(ember_u64 seed, ember_u32 call, ember_u64 i) {
  const ember_rng_block b = ember_rng_draw(seed, call, i, 0u);
  return ((ember_u64)b.w[0] << 32) | (ember_u64)b.w[1];
}

#ifndef EMBER_RNG_NO_DOUBLE
/* The integer threshold t with P(u53 < t) = p for the 53-bit uniform integer u53: ceil(p * 2^53). Bernoulli
 * sampling then needs no floating point at all (OpenCL devices without fp64 get t from the host as a ulong).
 */
EMBER_RNG_INLINE ember_u64 ember_bernoulli_threshold(double p) {
  const double x = p * 9007199254740992.0; /* exact */
  ember_u64 t;
  if (!(x > 0.0)) return 0u;
  if (x >= 9007199254740992.0) return (ember_u64)1 << 53;
  t = (ember_u64)x;
  return (double)t < x ? t + 1u : t;
}
EMBER_RNG_INLINE double ember_sample_uniform_f64(ember_u64 seed, ember_u32 call, ember_u64 i, double low,
                                                 double high) {
  const ember_rng_block b = ember_rng_draw(seed, call, i, 0u);
  const double u = ember_u01_f64(b.w[0], b.w[1]);
  return low * (1.0 - u) + high * u;
}

EMBER_RNG_INLINE double ember_below_f64(double v, double cap) {
  return v < cap ? v : cap;
}

/* Box-Muller from a whole block: u1 in (0, 1] from words 0-1, u2 from words 2-3. */
EMBER_RNG_INLINE double ember_box_muller_f64(ember_rng_block b) {
  const double r = ember_sqrt_f64(-2.0 * ember_log_f64(ember_u01_open_f64(b.w[0], b.w[1])));
  return r * ember_cos_2pi_f64(ember_u01_f64(b.w[2], b.w[3]));
}
EMBER_RNG_INLINE double ember_sample_normal_f64(ember_u64 seed, ember_u32 call, ember_u64 i, double mean,
                                                double stddev) {
  return mean + stddev * ember_box_muller_f64(ember_rng_draw(seed, call, i, 0u));
}

EMBER_RNG_INLINE double ember_sample_exponential_f64(ember_u64 seed, ember_u32 call, ember_u64 i,
                                                     double scale) {
  const ember_rng_block b = ember_rng_draw(seed, call, i, 0u);
  return scale * (0.0 - ember_log_f64(ember_u01_open_f64(b.w[0], b.w[1])));
}

/* As ember_gamma_mt_f32, but attempt j uses draw 2j for the normal and draw 2j + 1 for the uniform. */
EMBER_RNG_INLINE double ember_gamma_mt_f64(ember_u64 seed, ember_u32 call, ember_u64 i, double alpha) {
  const double d = alpha - 1.0 / 3.0;
  const double c = 1.0 / ember_sqrt_f64(9.0 * d);
  ember_u32 j;
  for (j = 0u; j < (ember_u32)EMBER_RNG_MAX_ATTEMPTS; ++j) {
    const double x = ember_box_muller_f64(ember_rng_draw(seed, call, i, 2u * j));
    double v = 1.0 + c * x;
    double u, x2;
    ember_rng_block b;
    if (!(v > 0.0)) continue;
    v = v * v * v;
    b = ember_rng_draw(seed, call, i, 2u * j + 1u);
    u = ember_u01_open_f64(b.w[0], b.w[1]);
    x2 = x * x;
    if (u < 1.0 - 0.0331 * (x2 * x2)) return d * v;
    if (ember_log_f64(u) < 0.5 * x2 + d * (1.0 - v + ember_log_f64(v))) return d * v;
  }
  return d;
}
EMBER_RNG_INLINE double ember_sample_gamma_f64(ember_u64 seed, ember_u32 call, ember_u64 i, double alpha,
                                               double scale) {
  if (alpha >= 1.0) return scale * ember_gamma_mt_f64(seed, call, i, alpha);
  {
    const ember_rng_block b = ember_rng_draw(seed, call, i, EMBER_RNG_GAMMA_BOOST_DRAW);
    const double u = ember_u01_open_f64(b.w[0], b.w[1]);
    const double boost = ember_exp_f64(ember_log_f64(u) / alpha);
    return scale * (ember_gamma_mt_f64(seed, call, i, alpha + 1.0) * boost);
  }
}

EMBER_RNG_INLINE double ember_sample_gumbel_f64(ember_u64 seed, ember_u32 call, ember_u64 i) {
  const ember_rng_block b = ember_rng_draw(seed, call, i, 0u);
  return 0.0 - ember_log_f64(0.0 - ember_log_f64(ember_u01_mid_f64(b.w[0], b.w[1])));
}

/* Largest lam the Poisson sampler accepts (NumPy's limit); counts then stay below 2^63. */
#define EMBER_POISSON_LAM_MAX 9.2233720064847708e18

/* Poisson(lam) for 0 <= lam <= EMBER_POISSON_LAM_MAX, computed in double.
 * lam < 10: multiplication method; uniform t comes from draw t / 2 (words 0-1 or 2-3); after
 * 2 * EMBER_RNG_MAX_ATTEMPTS uniforms it returns the count so far.
 * lam >= 10: PTRS, W. Hormann, "The transformed rejection method for generating Poisson random variables"
 * (1993); attempt j uses draw j (U from words 0-1, V from words 2-3); fallback floor(lam). */
EMBER_RNG_INLINE ember_i64 ember_sample_poisson(ember_u64 seed, ember_u32 call, ember_u64 i, double lam) {
  if (lam < 10.0) {
    const double enlam = ember_exp_f64(0.0 - lam);
    double prod = 1.0;
    ember_i64 count = 0;
    ember_u32 t;
    ember_rng_block b = ember_rng_draw(seed, call, i, 0u);
    for (t = 0u; t < 2u * (ember_u32)EMBER_RNG_MAX_ATTEMPTS; ++t) {
      if (t > 0u && (t & 1u) == 0u) b = ember_rng_draw(seed, call, i, t >> 1);
      prod *= (t & 1u) ? ember_u01_f64(b.w[2], b.w[3]) : ember_u01_f64(b.w[0], b.w[1]);
      if (!(prod > enlam)) return count;
      ++count;
    }
    return count;
  }
  {
    const double slam = ember_sqrt_f64(lam);
    const double loglam = ember_log_f64(lam);
    const double bb = 0.931 + 2.53 * slam;
    const double a = -0.059 + 0.02483 * bb;
    const double invalpha = 1.1239 + 1.1328 / (bb - 3.4);
    const double vr = 0.9277 - 3.6224 / (bb - 2.0);
    const double log_invalpha = ember_log_f64(invalpha);
    ember_u32 j;
    for (j = 0u; j < (ember_u32)EMBER_RNG_MAX_ATTEMPTS; ++j) {
      const ember_rng_block b = ember_rng_draw(seed, call, i, j);
      const double u = ember_u01_open_f64(b.w[0], b.w[1]) - 0.5; /* (-0.5, 0.5] */
      const double v = ember_u01_open_f64(b.w[2], b.w[3]);       /* (0, 1] */
      const double us = 0.5 - (u < 0.0 ? 0.0 - u : u);
      double kd;
      ember_i64 k;
      if (!(us > 0.0)) continue;
      kd = (2.0 * a / us + bb) * u + lam + 0.43;
      if (!(kd >= 0.0) || kd >= 9.2233720368547758e18) continue; /* floor(kd) < 0, or out of range */
      k = (ember_i64)kd;                                         /* floor, kd >= 0 */
      if (us >= 0.07 && v <= vr) return k;
      if (us < 0.013 && v > us) continue;
      if (ember_log_f64(v) + log_invalpha - ember_log_f64(a / (us * us) + bb) <=
          0.0 - lam + (double)k * loglam - ember_log_factorial_f64(k))
        return k;
    }
    return (ember_i64)lam;
  }
}
#endif /* EMBER_RNG_NO_DOUBLE */

#endif /* EMBER_RANDOM_DISTRIBUTIONS_H */
