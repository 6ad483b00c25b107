#pragma OPENCL FP_CONTRACT OFF
// Math ops, built once per dtype (common.cl's T, C, UT and IS_* flags). Each kernel mirrors the eigen
// backend's scalar semantics (backends/eigen/elementwise.hpp and math_ops.cpp) so results agree bit for
// bit wherever the operations are correctly rounded: integer arithmetic wraps through UT, integer division
// follows Python (x // 0 == 0, MIN // -1 == MIN), min/max propagate NaN, float16 computes in float and
// rounds once, sums use NumPy's pairwise order in the same places the eigen backend does. The element-wise
// scalar semantics (ADD/SUB/MUL, min_of ... abs_of and the OP_<name> expressions) live in math_scalar.cl,
// which the runtime puts before this file.

// ---- element-wise ---------------------------------------------------------------------------------------

// Operand offsets: mode 0 = same shape as out (offset i), 1 = a single element, 2 = broadcast through
// strides (0 along broadcast axes).
inline long operand_offset(long i, int mode, int nd, const ember_dims* dims, const ember_dims* strides) {
  return mode == 0 ? i : mode == 1 ? 0 : ember_offset(i, nd, dims, strides);
}

#define BINARY(name, expr)                                                                                 \
  __kernel void name(long n, __global const T* a, long a_off, __global const T* b, long b_off,            \
                     __global T* o, long o_off, int nd, ember_dims dims, ember_dims sa, ember_dims sb,    \
                     int amode, int bmode) {                                                               \
    const long i = get_global_id(0);                                                                       \
    if (i >= n) return;                                                                                    \
    const C x = LOAD(a, a_off + operand_offset(i, amode, nd, &dims, &sa));                                 \
    const C y = LOAD(b, b_off + operand_offset(i, bmode, nd, &dims, &sb));                                 \
    STORE(o, o_off + i, (expr));                                                                           \
  }                                                                                                        \
  /* On a 2-D range over out as rows x columns of n (layout.hpp's RowsView), operands by kind. */          \
  __kernel void name##_rows(long n, __global const T* a, long a_off, __global const T* b, long b_off,     \
                            __global T* o, long o_off, int akind, int bkind) {                             \
    EMBER_ROWS_OPERANDS;                                                                                   \
    STORE(o, o_off + row * n + col, (expr));                                                               \
  }

BINARY(add_kernel, OP_add(x, y))
BINARY(subtract_kernel, OP_subtract(x, y))
BINARY(multiply_kernel, OP_multiply(x, y))
BINARY(floor_divide_kernel, OP_floor_divide(x, y))
BINARY(mod_kernel, OP_mod(x, y))
BINARY(power_kernel, OP_power(x, y))
BINARY(minimum_kernel, OP_minimum(x, y))
BINARY(maximum_kernel, OP_maximum(x, y))
#if IS_FLOAT
BINARY(divide_kernel, OP_divide(x, y))
#endif

#define UNARY(name, expr)                                                                                  \
  __kernel void name(long n, __global const T* in, long in_off, __global T* o, long o_off) {              \
    const long i = get_global_id(0);                                                                       \
    if (i >= n) return;                                                                                    \
    const C v = LOAD(in, in_off + i);                                                                      \
    STORE(o, o_off + i, (expr));                                                                           \
  }

UNARY(negative_kernel, OP_negative(v))
UNARY(abs_kernel, OP_abs(v))
UNARY(sign_kernel, OP_sign(v))
UNARY(square_kernel, OP_square(v))

#if IS_FLOAT
UNARY(sqrt_kernel, OP_sqrt(v))
UNARY(exp_kernel, OP_exp(v))
UNARY(expm1_kernel, OP_expm1(v))
UNARY(log_kernel, OP_log(v))
UNARY(log1p_kernel, OP_log1p(v))
UNARY(log2_kernel, OP_log2(v))
UNARY(log10_kernel, OP_log10(v))
UNARY(sin_kernel, OP_sin(v))
UNARY(cos_kernel, OP_cos(v))
UNARY(tan_kernel, OP_tan(v))
UNARY(sinh_kernel, OP_sinh(v))
UNARY(cosh_kernel, OP_cosh(v))
UNARY(tanh_kernel, OP_tanh(v))
UNARY(floor_kernel, OP_floor(v))
UNARY(ceil_kernel, OP_ceil(v))
UNARY(round_kernel, OP_round(v))
#endif

__kernel void clip_kernel(long n, __global const T* in, long in_off, __global T* o, long o_off, int has_lo,
                          C lo, int has_hi, C hi) {
  const long i = get_global_id(0);
  if (i >= n) return;
  C v = LOAD(in, in_off + i);
  if (has_lo) v = max_of(v, lo);
  if (has_hi) v = min_of(v, hi);
  STORE(o, o_off + i, v);
}

// ---- matmul ---------------------------------------------------------------------------------------------

// Products accumulate in MT: float for float16, UT (wrapping, exact modulo 2^bits) for integers.
#if IS_FLOAT
#define MT C
#define MT_MAD(acc, x, y) ((acc) + (x) * (y))
#elif IS_BOOL
#define MT uint
#define MT_MAD(acc, x, y) ((acc) | ((x) & (y)))
#else
#define MT UT
#define MT_MAD(acc, x, y) ((acc) + (UT)(x) * (UT)(y))
#endif

// out[b] = a[b] (M, K) x b[b] (K, N), all row-major. Work-groups of 16 x 16 work-items compute 64 x 64
// output tiles: each work-item owns the 4 x 4 outputs at rows ly + 16 i and columns lx + 16 j of the tile
// (so neighbouring work-items touch neighbouring columns), staging 64 x 16 slices of a and 16 x 64 slices
// of b in local memory. Each output adds its K products in order k = 0, 1, ... The range is
// (ceil(N / 64) * 16, B * ceil(M / 64) * 16); m_tiles = ceil(M / 64).
#define TM 64
#define TK 16
#define WPT 4
__kernel __attribute__((reqd_work_group_size(16, 16, 1))) void matmul_kernel(
    __global const T* a, long a_off, __global const T* b, long b_off, __global T* o, long o_off, long M, long K,
    long N, long m_tiles) {
  __local MT ta[TM][TK];
  __local MT tb[TK][TM];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const long col0 = get_group_id(0) * TM;
  const long batch = get_group_id(1) / m_tiles;
  const long row0 = (get_group_id(1) % m_tiles) * TM;
  const long abase = a_off + batch * M * K, bbase = b_off + batch * K * N;
  MT acc[WPT][WPT];
  for (int i = 0; i < WPT; ++i) {
    for (int j = 0; j < WPT; ++j) acc[i][j] = (MT)0;
  }
  for (long k0 = 0; k0 < K; k0 += TK) {
    for (int i = 0; i < WPT; ++i) {
      const long row = row0 + ly + 16 * i, ka = k0 + lx;
      ta[ly + 16 * i][lx] = (row < M && ka < K) ? (MT)LOAD(a, abase + row * K + ka) : (MT)0;
      const long kb = k0 + ly, col = col0 + lx + 16 * i;
      tb[ly][lx + 16 * i] = (kb < K && col < N) ? (MT)LOAD(b, bbase + kb * N + col) : (MT)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Only the real products: adding a padded 0 * 0 would turn a -0.0 sum into +0.0.
    const int kend = K - k0 < TK ? (int)(K - k0) : TK;
    for (int k = 0; k < kend; ++k) {
      MT bv[WPT];
      for (int j = 0; j < WPT; ++j) bv[j] = tb[k][lx + 16 * j];
      for (int i = 0; i < WPT; ++i) {
        const MT av = ta[ly + 16 * i][k];
        for (int j = 0; j < WPT; ++j) acc[i][j] = MT_MAD(acc[i][j], av, bv[j]);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int i = 0; i < WPT; ++i) {
    const long row = row0 + ly + 16 * i;
    for (int j = 0; j < WPT; ++j) {
      const long col = col0 + lx + 16 * j;
      if (row < M && col < N) STORE(o, o_off + batch * M * N + row * N + col, acc[i][j]);
    }
  }
}

// ---- reductions -----------------------------------------------------------------------------------------

// Float sums and means accumulate in double (as the eigen backend does) where the device has it.
#if IS_FLOAT && defined(EMBER_FP64)
#define FACC double
#else
#define FACC float
#endif

#if IS_FLOAT
// NumPy's pairwise summation of the n contiguous elements at p[off]: blocks of at most 128 with eight
// partial sums, halves (rounded down to a multiple of 8) above that. The recursion of the eigen backend's
// pairwise_sum runs here on an explicit stack (depth < 64 for any 64-bit n).
inline FACC pairwise_leaf(__global const T* p, long off, long n) {
  if (n < 8) {
    FACC s = -(FACC)0;
    for (long i = 0; i < n; ++i) s += (FACC)LOAD(p, off + i);
    return s;
  }
  FACC r[8];
  for (int j = 0; j < 8; ++j) r[j] = (FACC)LOAD(p, off + j);
  long i = 8;
  for (; i + 8 <= n; i += 8) {
    for (int j = 0; j < 8; ++j) r[j] += (FACC)LOAD(p, off + i + j);
  }
  FACC s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
  for (; i < n; ++i) s += (FACC)LOAD(p, off + i);
  return s;
}
inline long pairwise_split(long n) {
  long h = n / 2;
  return h - h % 8;
}
inline FACC pairwise_sum(__global const T* p, long off, long n) {
  long start[64], len[64];
  int stage[64];  // 0: nothing summed yet, 1: left half running, 2: right half running
  FACC left[64];
  int sp = 0;
  start[0] = off;
  len[0] = n;
  stage[0] = 0;
  sp = 1;
  FACC result = 0;
  while (sp > 0) {
    const int t = sp - 1;
    if (stage[t] == 0 && len[t] > 128) {
      stage[t] = 1;
      start[sp] = start[t];
      len[sp] = pairwise_split(len[t]);
      stage[sp] = 0;
      ++sp;
      continue;
    }
    if (stage[t] == 0) {
      result = pairwise_leaf(p, start[t], len[t]);
      --sp;
    } else {  // stage 2: the right half just finished
      result = left[t] + result;
      --sp;
    }
    // Hand `result` to the parent: a finished left half starts the right one.
    while (sp > 0 && stage[sp - 1] == 2) {
      result = left[sp - 1] + result;
      --sp;
    }
    if (sp > 0) {
      const int u = sp - 1;  // stage 1
      const long h = pairwise_split(len[u]);
      left[u] = result;
      stage[u] = 2;
      start[sp] = start[u] + h;
      len[sp] = len[u] - h;
      stage[sp] = 0;
      ++sp;
    }
  }
  return result;
}
#endif

// A reduction. Output element o reduces the input elements at
//   base(o) + (offset of the r-th index of rdims[0..nr) under rstrides) for r in [0, count),
// base(o) = ember_offset(o, nk, kdims, kstrides), in the row-major order of the reduced axes (the eigen
// backend's order). With `contiguous`, the run is contiguous (the host passes it as one axis of stride 1)
// and float sums use the pairwise order. Each work-item reduces up to LANES outputs side by side: when the
// last axis is kept (extent > 1), outputs o .. o + lanes - 1 read neighbouring input elements, so the
// loop over the reduced elements walks memory in rows, not columns; each output still adds its own
// elements in order. `extent` is the last kept axis' extent (1 when the last axis is reduced) and `chunks`
// = ceil(extent / LANES) work-items cover one run of it.
#define LANES 32
#define REDUCE_ARGS                                                                                        \
  long n, __global const T *x, long x_off, int nk, ember_dims kdims, ember_dims kstrides, int nr,           \
      ember_dims rdims, ember_dims rstrides, long count, int contiguous, long extent, long chunks
#define REDUCE_OFFSETS                                                                                     \
  const long w = get_global_id(0);                                                                         \
  if (w >= n) return;                                                                                      \
  const long chunk = w % chunks;                                                                           \
  const long o = (w / chunks) * extent + chunk * LANES;                                                    \
  const int lanes = extent - chunk * LANES < LANES ? (int)(extent - chunk * LANES) : LANES;                \
  const long base = x_off + ember_offset(o, nk, &kdims, &kstrides);

// Steps *off and the index idx[0..nd) to the next element in row-major order (an odometer: no division).
inline void next_offset(long* off, long* idx, int nd, const ember_dims* dims, const ember_dims* strides) {
  for (int d = nd - 1; d >= 0; --d) {
    *off += strides->v[d];
    if (++idx[d] < dims->v[d]) return;
    *off -= strides->v[d] * dims->v[d];
    idx[d] = 0;
  }
}
// for (each reduced element, in order) with `at` its offset for lane 0.
#define FOR_REDUCED(at)                                                                                    \
  long idx_[EMBER_MAX_RANK] = {0, 0, 0, 0, 0, 0, 0, 0};                                                   \
  long at = base;                                                                                          \
  for (long r_ = 0; r_ < count; ++r_, next_offset(&at, idx_, nr, &rdims, &rstrides))
#define FOR_LANES(j) for (int j = 0; j < lanes; ++j)
#define KEEP(a) (a)

// A reduction kernel with accumulator type A: acc = INIT; acc = STEP(acc, value) per element; output
// FINISH(acc).
#define REDUCER(name, A, INIT, STEP, FINISH)                                                                \
  __kernel void name(REDUCE_ARGS, __global T* out, long out_off) {                                        \
    REDUCE_OFFSETS                                                                                         \
    A acc[LANES];                                                                                          \
    FOR_LANES(j) acc[j] = (INIT);                                                                          \
    FOR_REDUCED(at) {                                                                                      \
      FOR_LANES(j) acc[j] = STEP(acc[j], LOAD(x, at + j));                                                 \
    }                                                                                                      \
    FOR_LANES(j) STORE(out, out_off + o + j, FINISH(acc[j]));                                              \
  }

#if IS_FLOAT
// Float sums: pairwise over a contiguous run (then lanes == 1), else in order from -0.0, the exact identity.
inline void sums_of(FACC* acc, __global const T* x, long base, int lanes, int contiguous, int nr,
                    ember_dims rdims, ember_dims rstrides, long count) {
  if (contiguous) {
    acc[0] = pairwise_sum(x, base, count);
    return;
  }
  FOR_LANES(j) acc[j] = -(FACC)0;
  if (lanes == LANES) {  // a constant trip count: the compiler keeps the lanes in one vector register
    FOR_REDUCED(at) {
      for (int j = 0; j < LANES; ++j) acc[j] += (FACC)LOAD(x, at + j);
    }
    return;
  }
  FOR_REDUCED(at) {
    FOR_LANES(j) acc[j] += (FACC)LOAD(x, at + j);
  }
}
__kernel void sum_kernel(REDUCE_ARGS, __global T* out, long out_off) {
  REDUCE_OFFSETS
  FACC acc[LANES];
  sums_of(acc, x, base, lanes, contiguous, nr, rdims, rstrides, count);
  FOR_LANES(j) STORE(out, out_off + o + j, (C)(count == 0 ? (FACC)0 : acc[j]));
}
// sum over the leading axes of a contiguous x seen as rows x cols: work-item w (one per work-group, a range of
// exactly ceil(cols / strip) of them) sums columns [w strip, w strip + strip) down the rows, ROW_BLOCK rows
// at a time for each LANES of them in turn (strip a multiple of LANES, at most MAX_STRIP). Reading a strip of
// neighbouring columns of a row at once (not one work-item's LANES, 16 KB apart in a 4096 x 4096 float32
// tensor) keeps the TLB and the prefetchers busy with few pages; each output still adds its elements in row
// order from -0.0, as sums_of does.
#define MAX_STRIP (32 * LANES)
#define ROW_BLOCK 32
__kernel void sum_columns(__global const T* x, long x_off, long rows, long cols, long strip, __global T* out,
                          long out_off) {
  const long c0 = get_global_id(0) * strip;
  const int width = cols - c0 < strip ? (int)(cols - c0) : (int)strip;
  FACC acc[MAX_STRIP];
  for (int j = 0; j < width; ++j) acc[j] = -(FACC)0;
  for (long r0 = 0; r0 < rows; r0 += ROW_BLOCK) {
    const long r1 = min(r0 + ROW_BLOCK, rows);
    for (int c = 0; c < width; c += LANES) {
      const long at = x_off + c0 + c;
      if (width - c >= LANES) {  // a constant trip count: the lanes stay in one vector register
        FACC a[LANES];
        for (int j = 0; j < LANES; ++j) a[j] = acc[c + j];
        for (long r = r0; r < r1; ++r) {
          for (int j = 0; j < LANES; ++j) a[j] += (FACC)LOAD(x, at + r * cols + j);
        }
        for (int j = 0; j < LANES; ++j) acc[c + j] = a[j];
      } else {
        for (long r = r0; r < r1; ++r) {
          for (int j = 0; j < width - c; ++j) acc[c + j] += (FACC)LOAD(x, at + r * cols + j);
        }
      }
    }
  }
  for (int j = 0; j < width; ++j) STORE(out, out_off + c0 + j, (C)(rows == 0 ? (FACC)0 : acc[j]));
}
// Means in FACC, as var's first pass keeps them (mean_kernel rounds them to T).
inline void means_of(FACC* mean, __global const T* x, long base, int lanes, int contiguous, int nr,
                     ember_dims rdims, ember_dims rstrides, long count) {
  sums_of(mean, x, base, lanes, contiguous, nr, rdims, rstrides, count);
  FOR_LANES(j) mean[j] = count == 0 ? (FACC)NAN : mean[j] / (FACC)count;
}
__kernel void mean_kernel(REDUCE_ARGS, __global T* out, long out_off) {
  REDUCE_OFFSETS
  FACC mean[LANES];
  means_of(mean, x, base, lanes, contiguous, nr, rdims, rstrides, count);
  FOR_LANES(j) STORE(out, out_off + o + j, (C)mean[j]);
}
// var and std: squared deviations from the mean, in order, divided by max(count - ddof, 0).
__kernel void var_kernel(REDUCE_ARGS, __global T* out, long out_off, FACC ddof, int take_sqrt) {
  REDUCE_OFFSETS
  FACC mean[LANES], squares[LANES];
  means_of(mean, x, base, lanes, contiguous, nr, rdims, rstrides, count);
  FOR_LANES(j) squares[j] = 0;
  FOR_REDUCED(at) {
    FOR_LANES(j) {
      const FACC d = (FACC)LOAD(x, at + j) - mean[j];
      squares[j] += d * d;
    }
  }
  FOR_LANES(j) {
    FACC v = squares[j] / fmax((FACC)count - ddof, (FACC)0);
    if (take_sqrt) v = sqrt(v);
    STORE(out, out_off + o + j, (C)v);
  }
}
#else
REDUCER(sum_kernel, C, (C)0, ADD, KEEP)
#endif

REDUCER(prod_kernel, C, (C)1, MUL, KEEP)

#if IS_FLOAT
#define LOWEST (-(C)INFINITY)
#define HIGHEST ((C)INFINITY)
#elif IS_BOOL
#define LOWEST ((C)0)
#define HIGHEST ((C)1)
#else
#define LOWEST ((C)(((UT)1) << (sizeof(C) * 8 - 1)) * (C)IS_SIGNED)
#define HIGHEST ((C)(IS_SIGNED ? ~(((UT)1) << (sizeof(C) * 8 - 1)) : ~(UT)0))
#endif
REDUCER(min_kernel, C, HIGHEST, min_of, KEEP)
REDUCER(max_kernel, C, LOWEST, max_of, KEEP)

// argmin/argmax along one axis of x seen as (outer, extent, inner): one work-item per (o, i). The first
// extreme wins; a NaN is more extreme than anything and the first NaN wins.
inline void arg_extremum(long n, __global const T* x, long x_off, __global long* out, long out_off,
                         long extent, long inner, int is_max) {
  const long w = get_global_id(0);
  if (w >= n) return;
  const long o = w / inner, i = w % inner;
  const long base = x_off + o * extent * inner + i;
  C best = LOAD(x, base);
  long idx = 0;
  if (!ISNAN(best)) {
    for (long k = 1; k < extent; ++k) {
      const C v = LOAD(x, base + k * inner);
      if (ISNAN(v)) {
        idx = k;
        break;
      }
      if (is_max ? best < v : v < best) {
        best = v;
        idx = k;
      }
    }
  }
  out[out_off + w] = idx;
}
__kernel void argmin_kernel(long n, __global const T* x, long x_off, __global long* out, long out_off,
                            long extent, long inner) {
  arg_extremum(n, x, x_off, out, out_off, extent, inner, 0);
}
__kernel void argmax_kernel(long n, __global const T* x, long x_off, __global long* out, long out_off,
                            long extent, long inner) {
  arg_extremum(n, x, x_off, out, out_off, extent, inner, 1);
}

// Inclusive prefix sums along one axis, one work-item per (o, i); every step rounds to T like NumPy.
__kernel void cumsum_kernel(long n, __global const T* x, long x_off, __global T* out, long out_off,
                            long extent, long inner) {
  const long w = get_global_id(0);
  if (w >= n) return;
  const long o = w / inner, i = w % inner;
  const long base = o * extent * inner + i;
  for (long k = 0; k < extent; ++k) {
    const long at = base + k * inner;
    if (k == 0) {
      STORE(out, out_off + at, LOAD(x, x_off + at));
    } else {
      STORE(out, out_off + at, ADD(LOAD(out, out_off + at - inner), LOAD(x, x_off + at)));
    }
  }
}
