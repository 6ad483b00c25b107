#pragma OPENCL FP_CONTRACT OFF
// Comparison ops, built once per operand dtype (common.cl's T, C and IS_* flags); results are bool bytes.
// Values are compared in the compute type C (float for float16), with IEEE semantics: every comparison
// involving NaN is false except !=. The logical ops and all/any run in the bool program, where LOAD gives
// 0 or 1.

// How operand element i is found: 0 = element i, 1 = its only element, 2 = through broadcast strides.
inline long operand_at(long i, int mode, int nd, const ember_dims* dims, const ember_dims* strides) {
  return mode == 0 ? i : mode == 1 ? 0 : ember_offset(i, nd, dims, strides);
}

#define BINARY(name, expr)                                                                                 \
  __kernel void name(long n, __global const T* a, long a_off, __global const T* b, long b_off,             \
                     __global uchar* o, long o_off, int nd, ember_dims dims, ember_dims sa, ember_dims sb, \
                     int amode, int bmode) {                                                               \
    const long i = get_global_id(0);                                                                       \
    if (i >= n) return;                                                                                    \
    const C x = LOAD(a, a_off + operand_at(i, amode, nd, &dims, &sa));                                     \
    const C y = LOAD(b, b_off + operand_at(i, bmode, nd, &dims, &sb));                                     \
    o[o_off + i] = (uchar)((expr) ? 1 : 0);                                                                \
  }                                                                                                        \
  /* On a 2-D range over out as rows x columns of n (layout.hpp's RowsView), operands by kind: */          \
  /* broadcasting without division, as math.cl's _rows kernels. */                                        \
  __kernel void name##_rows(long n, __global const T* a, long a_off, __global const T* b, long b_off,     \
                            __global uchar* o, long o_off, int akind, int bkind) {                         \
    EMBER_ROWS_OPERANDS;                                                                                   \
    o[o_off + row * n + col] = (uchar)((expr) ? 1 : 0);                                                    \
  }

BINARY(equal_kernel, x == y)
BINARY(not_equal_kernel, x != y)
BINARY(less_kernel, x < y)
BINARY(less_equal_kernel, x <= y)
BINARY(greater_kernel, x > y)
BINARY(greater_equal_kernel, x >= y)
#if IS_BOOL
BINARY(logical_and_kernel, (x) && (y))
BINARY(logical_or_kernel, (x) || (y))
BINARY(logical_xor_kernel, x != y)
#endif

#define UNARY(name, expr)                                                                        \
  __kernel void name(long n, __global const T* in, long in_off, __global uchar* o, long o_off) { \
    const long i = get_global_id(0);                                                             \
    if (i >= n) return;                                                                          \
    const C v = LOAD(in, in_off + i);                                                            \
    o[o_off + i] = (uchar)((expr) ? 1 : 0);                                                      \
  }

#if IS_BOOL
UNARY(logical_not_kernel, !v)
#endif

#if IS_FLOAT
UNARY(isnan_kernel, isnan(v))
UNARY(isinf_kernel, isinf(v))
UNARY(isfinite_kernel, isfinite(v))

// |a - b| <= atol + rtol * |b| in C (float for float16 and float32, double for float64), the tolerances
// converted to C on the host exactly like the eigen backend does; no contraction into fma.
__kernel void isclose_kernel(long n, __global const T* a, long a_off, __global const T* b, long b_off,
                             __global uchar* o, long o_off, int nd, ember_dims dims, ember_dims sa,
                             ember_dims sb, int amode, int bmode, C rtol, C atol, int equal_nan) {
  const long i = get_global_id(0);
  if (i >= n) return;
  const C x = LOAD(a, a_off + operand_at(i, amode, nd, &dims, &sa));
  const C y = LOAD(b, b_off + operand_at(i, bmode, nd, &dims, &sb));
  int close;
  if (isnan(x) || isnan(y)) {
    close = equal_nan && isnan(x) && isnan(y);
  } else if (isinf(x) || isinf(y)) {
    close = x == y;
  } else {
    close = fabs(x - y) <= atol + rtol * fabs(y);
  }
  o[o_off + i] = (uchar)(close ? 1 : 0);
}
#endif

#if IS_BOOL
// all (want = 0) and any (want = 1) in keepdims form, one work-item per output element o: its inputs are
// base(o) + ember_offset(r, nr, rdims, rstrides) for r in [0, count), base(o) = ember_offset(o, nk, kdims,
// kstrides). The first element equal to `want` decides; none decides !want (empty: all true, any false).
__kernel void truth_kernel(long n, __global const T* x, long x_off, int nk, ember_dims kdims,
                           ember_dims kstrides, int nr, ember_dims rdims, ember_dims rstrides, long count,
                           __global uchar* o, long o_off, int want) {
  const long i = get_global_id(0);
  if (i >= n) return;
  const long base = x_off + ember_offset(i, nk, &kdims, &kstrides);
  int result = !want;
  for (long r = 0; r < count; ++r) {
    if ((LOAD(x, base + ember_offset(r, nr, &rdims, &rstrides)) != 0) == want) {
      result = want;
      break;
    }
  }
  o[o_off + i] = (uchar)result;
}
#endif
