#pragma OPENCL FP_CONTRACT OFF
// Tensor ops that compute values, built once per dtype (common.cl's T, C, UT and IS_* flags): eye, the
// floating-point arange and linspace, scatter_add, and the solver category's trace and outer. Each mirrors
// the eigen backend's element semantics (frontend/src/host/tensor_kernels.hpp): storage-type arithmetic that
// wraps for integers, is || and && for bool and rounds once per step for float16.

#if IS_FLOAT
#define ADD(x, y) ((x) + (y))
#define MUL(x, y) ((x) * (y))
#elif IS_BOOL
#define ADD(x, y) ((C)((x) || (y)))
#define MUL(x, y) ((C)((x) && (y)))
#else
#define ADD(x, y) ((C)((UT)(x) + (UT)(y)))
#define MUL(x, y) ((C)((UT)(x) * (UT)(y)))
#endif

// out (rows, cols): ones on the k-th diagonal.
__kernel void eye(long n, __global T* o, long o_off, long cols, long k) {
  const long i = get_global_id(0);
  if (i >= n) return;
  const long r = i / cols;
  STORE(o, o_off + i, (C)(i - r * cols - r == k));
}

#ifdef EMBER_FP64
// A float64 value converted to T like ember::Scalar::to: float16 through float (rounded twice, as
// Scalar does), bool by truthiness (NaN is true), integers saturating with NaN -> 0 (lo/hi are T's limits
// as doubles, tmin/tmax the limits themselves).
#if IS_INT
#define SATURATION_ARGS , double lo, double hi, T tmin, T tmax
inline T saturate(double v, double lo, double hi, T tmin, T tmax) {
  if (isnan(v)) return (T)0;
  if (v <= lo) return tmin;
  if (v >= hi) return tmax;
  return (T)v;
}
#define STORE_DOUBLE(p, i, v) ((p)[i] = saturate((v), lo, hi, tmin, tmax))
#else
#define SATURATION_ARGS
#if IS_HALF
#define STORE_DOUBLE(p, i, v) ember_store_half((float)(v), (i), (p))
#elif IS_BOOL
#define STORE_DOUBLE(p, i, v) ((p)[i] = (T)((v) != 0.0))
#else
#define STORE_DOUBLE(p, i, v) ((p)[i] = (T)(v))
#endif
#endif

// arange for float and bool dtypes: start + i * step in float64, then converted once.
__kernel void arange_values(long n, __global T* o, long o_off, double start, double step SATURATION_ARGS) {
  const long i = get_global_id(0);
  if (i >= n) return;
  STORE_DOUBLE(o, o_off + i, start + (double)i * step);
}

// linspace with the eigen backend's formula and evaluation order: i * step + start in float64 (step computed
// once on the host), the last element exactly `stop` with endpoint, floored for integer dtypes like NumPy.
__kernel void linspace_values(long n, __global T* o, long o_off, double start, double step, double stop,
                              int endpoint SATURATION_ARGS) {
  const long i = get_global_id(0);
  if (i >= n) return;
  double v = (endpoint && i == n - 1 && n > 1) ? stop : (double)i * step + start;
#if IS_INT
  v = floor(v);
#endif
  STORE_DOUBLE(o, o_off + i, v);
}
#endif

// np.add.at on out (already a copy of x) seen as (outer, extent, inner), updates as (outer, m, inner): one
// work-item per (outer, inner) column adds its m updates in index order, so duplicates accumulate in the
// same order (and round the same way) as in the eigen backend, and no two work-items touch one element.
// Out-of-range indices are skipped: check_indices (layout.cl) has flagged them and the host throws.
__kernel void scatter_add(long n, __global const long* idx, long idx_off, __global const T* u, long u_off,
                          __global T* o, long o_off, long m, long extent, long inner) {
  const long w = get_global_id(0);
  if (w >= n) return;
  const long outer = w / inner, k = w - outer * inner;
  for (long j = 0; j < m; ++j) {
    long v = idx[idx_off + j];
    if (v < 0) v += extent;
    if (v < 0 || v >= extent) continue;
    const long at = o_off + (outer * extent + v) * inner + k;
    STORE(o, at, ADD(LOAD(o, at), LOAD(u, u_off + (outer * m + j) * inner + k)));
  }
}

// trace: x (B, rows, cols) -> out (B), the diagonal of `len` elements from (row, col) added in order; floats
// accumulate in C from +0 (float for float16, rounded once at the end), integers wrap, bool is any().
__kernel void trace(long n, __global const T* x, long x_off, __global T* o, long o_off, long rows, long cols,
                    long row, long col, long len) {
  const long b = get_global_id(0);
  if (b >= n) return;
  C acc = (C)0;
  for (long j = 0; j < len; ++j)
    acc = ADD(acc, LOAD(x, x_off + b * rows * cols + (row + j) * cols + col + j));
  STORE(o, o_off + b, acc);
}

// outer: out[i, j] = a[i] * b[j] in the storage type (wrapping for integers, rounded once for float16).
__kernel void outer(long n, __global const T* a, long a_off, __global const T* b, long b_off, __global T* o,
                    long o_off, long m) {
  const long w = get_global_id(0);
  if (w >= n) return;
  const long i = w / m;
  STORE(o, o_off + w, MUL(LOAD(a, a_off + i), LOAD(b, b_off + w - i * m)));
}
