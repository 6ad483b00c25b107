#pragma OPENCL FP_CONTRACT OFF
// The element-wise scalar semantics of the math ops, for one dtype (common.cl's T, C, UT and IS_* flags):
// ADD/SUB/MUL, min_of/max_of, floor_divide_of, mod_of, power_of, sign_of, abs_of and OP_<name>, the
// expression of each element-wise op (with canonical NaN results for floats). The runtime puts this
// file between common.cl and kernels/math.cl, and before every generated fused kernel (fusion_ops.cpp), so
// an op computes with the same expression whether it runs as its own kernel or as a step of a fused chain.

// ---- scalar semantics -----------------------------------------------------------------------------------

#if IS_FLOAT
#define ADD(x, y) ((x) + (y))
#define SUB(x, y) ((x) - (y))
#define MUL(x, y) ((x) * (y))
#define ISNAN(x) isnan(x)
#elif IS_BOOL
#define ADD(x, y) ((C)((x) || (y)))
#define SUB(x, y) ((C)((x) != (y)))
#define MUL(x, y) ((C)((x) && (y)))
#define ISNAN(x) 0
#else
#define ADD(x, y) ((C)((UT)(x) + (UT)(y)))
#define SUB(x, y) ((C)((UT)(x) - (UT)(y)))
#define MUL(x, y) ((C)((UT)(x) * (UT)(y)))
#define ISNAN(x) 0
#endif

inline C min_of(C x, C y) {
  if (ISNAN(x)) return x;
  if (ISNAN(y)) return y;
  return y < x ? y : x;
}
inline C max_of(C x, C y) {
  if (ISNAN(x)) return x;
  if (ISNAN(y)) return y;
  return x < y ? y : x;
}

#if IS_FLOAT
// NumPy's npy_divmod: floor division and a remainder with the divisor's sign (fmod is exact).
inline C floor_divide_of(C a, C b) {
  if (b == (C)0) return a / b;
  const C m = fmod(a, b);
  C div = (a - m) / b;
  if (m != (C)0) {
    if ((b < (C)0) != (m < (C)0)) div -= (C)1;
  }
  if (div != (C)0) {
    C floordiv = floor(div);
    if (div - floordiv > (C)0.5) floordiv += (C)1;
    return floordiv;
  }
  return copysign((C)0, a / b);
}
inline C mod_of(C a, C b) {
  C m = fmod(a, b);
  if (b == (C)0) return m;
  if (m != (C)0) {
    if ((b < (C)0) != (m < (C)0)) m += b;
  } else {
    m = copysign((C)0, b);
  }
  return m;
}
inline C power_of(C a, C b) { return pow(a, b); }
#elif IS_BOOL
inline C floor_divide_of(C a, C b) { return b ? a : (C)0; }
inline C mod_of(C a, C b) { return (C)0; }
inline C power_of(C a, C b) { return (C)(a || !b); }
#else
inline C floor_divide_of(C a, C b) {
  if (b == (C)0) return (C)0;
#if IS_SIGNED
  if (b == (C)-1) return SUB((C)0, a);
  C q = (C)(a / b);
  if ((C)(a % b) != (C)0 && ((a < (C)0) != (b < (C)0))) q = (C)(q - (C)1);
  return q;
#else
  return (C)(a / b);
#endif
}
inline C mod_of(C a, C b) {
  if (b == (C)0) return (C)0;
#if IS_SIGNED
  if (b == (C)-1) return (C)0;
  C r = (C)(a % b);
  if (r != (C)0 && ((r < (C)0) != (b < (C)0))) r = (C)(r + b);
  return r;
#else
  return (C)(a % b);
#endif
}
// Exact by repeated squaring, wrapping; negative exponents give 1 for 1, +-1 for -1, else 0.
inline C power_of(C base, C exponent) {
#if IS_SIGNED
  if (exponent < (C)0) {
    if (base == (C)1) return (C)1;
    if (base == (C)-1) return (exponent % (C)2 == (C)0) ? (C)1 : (C)-1;
    return (C)0;
  }
#endif
  UT result = 1, b = (UT)base;
  ulong e = (ulong)exponent;
  while (e != 0) {
    if (e & 1u) result *= b;
    b *= b;
    e >>= 1u;
  }
  return (C)result;
}
#endif

// ---- sign and magnitude ---------------------------------------------------------------------------------

inline C sign_of(C v) {
  if (ISNAN(v) || v == (C)0) return v;  // NaN stays NaN; a zero keeps its sign
#if IS_SIGNED || IS_FLOAT
  return v > (C)0 ? (C)1 : (C)-1;
#else
  return (C)(v != (C)0);
#endif
}
inline C abs_of(C v) {
#if IS_FLOAT
  return fabs(v);
#elif IS_SIGNED
  return v < (C)0 ? SUB((C)0, v) : v;
#else
  return v;
#endif
}

// ---- one expression per element-wise op ------------------------------------------------------------------

// OP_<name>(x[, y]): the value of MathOps::<name> for one element, in compute type C. math.cl's kernels
// and the generated fused kernels both compute through these, so fused results are the eager ones. The
// float-only ops exist for float dtypes only; integers are their own floor, ceil and round (the host copies
// them instead of launching a kernel).
#if IS_FLOAT
// A float op's NaN result is the canonical quiet NaN (positive, no payload). IEEE 754 leaves a NaN result's
// sign and payload open, and so does the compiler: it may swap the operands of + and * (x86 returns the
// first one's NaN) or fold a negation into the next multiplication, differently in a fused kernel than in
// an op's own kernel. Canonical NaNs make every kernel agree bit for bit.
#if IS_F64
#define CANONICAL_NAN as_double(0x7ff8000000000000UL)
#else
#define CANONICAL_NAN as_float(0x7fc00000u)  // float16 computes in float and stores it as 0x7e00
#endif
// Two spellings of the same function, for speed on pocl: its loop vectorizer gives up on isnan() in the
// generated fused kernels, and the (not vectorized) eager binary kernels run 4x slower with v != v.
#ifdef EMBER_FUSED
inline C canonical_nan(C v) { return v != v ? CANONICAL_NAN : v; }
#else
inline C canonical_nan(C v) { return isnan(v) ? CANONICAL_NAN : v; }
#endif
#define RESULT(v) canonical_nan(v)
#else
#define RESULT(v) (v)
#endif
#define OP_add(x, y) RESULT(ADD(x, y))
#define OP_subtract(x, y) RESULT(SUB(x, y))
#define OP_multiply(x, y) RESULT(MUL(x, y))
#define OP_floor_divide(x, y) RESULT(floor_divide_of(x, y))
#define OP_mod(x, y) RESULT(mod_of(x, y))
#define OP_power(x, y) RESULT(power_of(x, y))
#define OP_minimum(x, y) RESULT(min_of(x, y))
#define OP_maximum(x, y) RESULT(max_of(x, y))
#if IS_FLOAT
#define OP_negative(v) RESULT(-(v))  // -(+0.0) is -0.0, unlike 0 - 0.0
#else
#define OP_negative(v) RESULT(SUB((C)0, v))
#endif
#define OP_abs(v) RESULT(abs_of(v))
#define OP_sign(v) RESULT(sign_of(v))
#define OP_square(v) RESULT(MUL(v, v))
#if IS_FLOAT && !IS_HALF
// log of float32 and float64 as fdlibm computes it (ember_log_f32/_f64 of ember/random/distributions.h,
// < 1 ulp): what the host backends' vector kernels compute for positive normal numbers
// (frontend/src/host/vector_kernels.cpp's log_run), so every backend agrees bit for bit there. pocl
// vectorizes it across work-items; its builtin log takes about 20 ns an element. float16 keeps the builtin,
// as its host backends keep std::log. (pocl's builtin exp is vectorized already: a copy of the host's exp
// formulas with a builtin fallback for the rest of the range measured no faster.)
#if IS_F64
#define log_of(v) ember_log_f64(v)
#else
#define log_of(v) ember_log_f32(v)
#endif
#else
#define log_of(v) log(v)
#endif

// exp of float64 as the host backends' vector kernel computes it (frontend/src/host/vector_kernels.cpp's
// exp_f64_run): k = round(x / ln 2) by adding 1.5 * 2^52, fdlibm's reduction and rational form
// (ember_exp_reduced_f64, < 1 ulp), times 2^k. Branch-free, so that pocl vectorizes it across work-items: x
// is clamped to [-746, 710] (beyond, the result is 0 or +inf either way) and 2^k applied as two exact
// halves, which also gives the overflows and the subnormal results (rounded once, by the second product).
// Bit for bit the host's result on [-708, 709], where the host's kernel does not call std::exp; 16M elements
// on pocl's CPU device (2 cores, exp_16M_f64/ember_opencl): 29 to 31 ms where the builtin exp took 37 ms.
#if IS_FLOAT && IS_F64
inline double exp_of(double v) {
  const double c = clamp(v, -746.0, 710.0);
  const double shifter = 6755399441055744.0;  // 1.5 * 2^52
  const double t = c * 1.44269504088896338700e+00 + shifter;
  const double k = t - shifter;
  const double y = ember_exp_reduced_f64(c - k * EMBER_LN2_HI_F64, k * EMBER_LN2_LO_F64);
  const long k_all = as_long(t) - as_long(shifter), k_half = k_all >> 1;
  const double r =
      y * as_double((ulong)(k_half + 1023) << 52) * as_double((ulong)(k_all - k_half + 1023) << 52);
  return isnan(v) ? v : r;
}
#else
#define exp_of(v) exp(v)
#endif

#if IS_FLOAT
#define OP_divide(x, y) RESULT((x) / (y))
#define OP_sqrt(v) RESULT(sqrt(v))
#define OP_exp(v) RESULT(exp_of(v))
#define OP_expm1(v) RESULT(expm1(v))
#define OP_log(v) RESULT(log_of(v))
#define OP_log1p(v) RESULT(log1p(v))
#define OP_log2(v) RESULT(log2(v))
#define OP_log10(v) RESULT(log10(v))
#define OP_sin(v) RESULT(sin(v))
#define OP_cos(v) RESULT(cos(v))
#define OP_tan(v) RESULT(tan(v))
#define OP_sinh(v) RESULT(sinh(v))
#define OP_cosh(v) RESULT(cosh(v))
#define OP_tanh(v) RESULT(tanh(v))
#define OP_floor(v) RESULT(floor(v))
#define OP_ceil(v) RESULT(ceil(v))
#define OP_round(v) RESULT(rint(v))  // round half to even, like nearbyint in the default rounding mode
#else
#define OP_floor(v) (v)
#define OP_ceil(v) (v)
#define OP_round(v) (v)
#endif
