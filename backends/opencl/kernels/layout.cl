#pragma OPENCL FP_CONTRACT OFF
// Element moves that never look at values: layout changes, indexing, diagonals, where and the last step of
// sort/argsort. Built once per element width (tensor_ops.cpp's word_options): T is the unsigned integer
// type as wide as one element, so one program serves every dtype of that width (float16 included, whose
// bits are moved without conversion) and the bytes equal the source's exactly, as in the eigen backend.

// How operand element i is found: 0 = element i, 1 = its only element, 2 = through broadcast strides.
inline long operand_at(long i, int mode, int nd, const ember_dims* dims, const ember_dims* strides) {
  return mode == 0 ? i : mode == 1 ? 0 : ember_offset(i, nd, dims, strides);
}

// out[i] = x[base + offset of i under `strides`] (strides may be 0 or negative): transpose, broadcast_to,
// slice and flip.
__kernel void strided_copy(long n, __global const T* x, long x_off, __global T* o, long o_off, int nd,
                           ember_dims dims, ember_dims strides, long base) {
  const long i = get_global_id(0);
  if (i >= n) return;
  o[o_off + i] = x[x_off + base + ember_offset(i, nd, &dims, &strides)];
}

// strided_copy with out seen as layers x rows x n (tensor_ops.cpp's copy_grid), on that 3-D range: no
// division per element.
__kernel void strided_copy_grid(long n, __global const T* x, long x_off, __global T* o, long o_off, long rows,
                                long layer_stride, long row_stride, long col_stride, long base) {
  const long col = get_global_id(0);
  if (col >= n) return;
  const long row = get_global_id(1), layer = get_global_id(2);
  o[o_off + (layer * rows + row) * n + col] =
      x[x_off + base + layer * layer_stride + row * row_stride + col * col_stride];
}

// out (odims) repeats x (xdims, row-major strides xstrides) along every axis.
__kernel void tile(long n, __global const T* x, long x_off, __global T* o, long o_off, int nd,
                   ember_dims odims, ember_dims xdims, ember_dims xstrides) {
  const long i = get_global_id(0);
  if (i >= n) return;
  long rest = i, off = 0;
  for (int d = nd - 1; d >= 0; --d) {
    const long q = rest / odims.v[d];
    off += (rest - q * odims.v[d]) % xdims.v[d] * xstrides.v[d];
    rest = q;
  }
  o[o_off + i] = x[x_off + off];
}

// NumPy's pad: mode 0 constant (`fill` holds the value's bits), 1 edge, 2 reflect (about the edge
// elements, period 2 (n - 1); the frontend guarantees n > 1 wherever an axis is padded in this mode).
__kernel void pad(long n, __global const T* x, long x_off, __global T* o, long o_off, int nd,
                  ember_dims odims, ember_dims xdims, ember_dims xstrides, ember_dims before, int mode,
                  T fill) {
  const long i = get_global_id(0);
  if (i >= n) return;
  long rest = i, off = 0;
  for (int d = nd - 1; d >= 0; --d) {
    const long q = rest / odims.v[d];
    const long extent = xdims.v[d];
    long k = rest - q * odims.v[d] - before.v[d];
    rest = q;
    if (k < 0 || k >= extent) {
      if (mode == 0) {
        o[o_off + i] = fill;
        return;
      }
      if (mode == 1) {
        k = k < 0 ? 0 : extent - 1;
      } else {
        const long period = 2 * (extent - 1);
        k %= period;
        if (k < 0) k += period;
        if (k >= extent) k = period - k;
      }
    }
    off += k * xstrides.v[d];
  }
  o[o_off + i] = x[x_off + off];
}

// One input of concatenate: x seen as (outer, block) lands at column `at` of out seen as (outer, out_block).
__kernel void block_copy(long n, __global const T* x, long x_off, __global T* o, long o_off, long block,
                         long out_block, long at) {
  const long i = get_global_id(0);
  if (i >= n) return;
  const long q = i / block;
  o[o_off + q * out_block + at + (i - q * block)] = x[x_off + i];
}

// Sets *bad when an index lies outside [-extent, extent); the host then finds the first one for the message.
__kernel void check_indices(long n, __global const long* idx, long idx_off, long extent, __global int* bad) {
  const long j = get_global_id(0);
  if (j >= n) return;
  const long v = idx[idx_off + j];
  if (v < -extent || v >= extent) atomic_or(bad, 1);
}

// take(x, idx, axis) with x seen as (outer, extent, inner) and out as (outer, m, inner). Elements with an
// out-of-range index become 0: check_indices has flagged them and the host throws.
__kernel void gather(long n, __global const T* x, long x_off, __global const long* idx, long idx_off,
                     __global T* o, long o_off, long m, long extent, long inner) {
  const long i = get_global_id(0);
  if (i >= n) return;
  const long row = i / inner, k = i - row * inner;
  const long outer = row / m, j = row - outer * m;
  long v = idx[idx_off + j];
  if (v < 0) v += extent;
  o[o_off + i] = (v >= 0 && v < extent) ? x[x_off + (outer * extent + v) * inner + k] : (T)0;
}

// Integer arange: start + i * step wrapping modulo 2^64, truncated to the element width.
__kernel void arange_words(long n, __global T* o, long o_off, ulong start, ulong step) {
  const long i = get_global_id(0);
  if (i >= n) return;
  o[o_off + i] = (T)(start + (ulong)i * step);
}

// diag: x (len,) on the k-th diagonal of out (size, size), zero bits (+0, false) elsewhere.
__kernel void diag(long n, __global const T* x, long x_off, __global T* o, long o_off, long size, long k) {
  const long i = get_global_id(0);
  if (i >= n) return;
  const long r = i / size, c = i - r * size;
  o[o_off + i] = c - r == k ? x[x_off + (k >= 0 ? r : c)] : (T)0;
}

// diagonal: x (B, rows, cols) -> out (B, len), the diagonal starting at (row, col).
__kernel void diagonal(long n, __global const T* x, long x_off, __global T* o, long o_off, long rows,
                       long cols, long row, long col, long len) {
  const long i = get_global_id(0);
  if (i >= n) return;
  const long b = i / len, j = i - b * len;
  o[o_off + i] = x[x_off + b * rows * cols + (row + j) * cols + col + j];
}

// where(cond, x, y) with three-way broadcasting; cond holds bool bytes. Both values are loaded and one
// selected, without a branch, so that the compiler vectorizes across work-items (as in where_select_rows).
__kernel void where_select(long n, __global const uchar* c, long c_off, __global const T* x, long x_off,
                           __global const T* y, long y_off, __global T* o, long o_off, int nd,
                           ember_dims dims, ember_dims sc, ember_dims sx, ember_dims sy, int cmode, int xmode,
                           int ymode) {
  const long i = get_global_id(0);
  if (i >= n) return;
  const T a = x[x_off + operand_at(i, xmode, nd, &dims, &sx)];
  const T b = y[y_off + operand_at(i, ymode, nd, &dims, &sy)];
  o[o_off + i] = c[c_off + operand_at(i, cmode, nd, &dims, &sc)] != 0 ? a : b;
}

// where_select on a 2-D range over out as rows x columns of n (layout.hpp's launch_broadcast_rows), each
// operand found by its kind without division.
__kernel void where_select_rows(long n, __global const uchar* c, long c_off, __global const T* x, long x_off,
                                __global const T* y, long y_off, __global T* o, long o_off, int ckind,
                                int xkind, int ykind) {
  EMBER_ROWS_INDEX;
  const T a = x[x_off + ember_rows_offset(n, row, col, xkind)];
  const T b = y[y_off + ember_rows_offset(n, row, col, ykind)];
  o[o_off + row * n + col] = c[c_off + ember_rows_offset(n, row, col, ckind)] != 0 ? a : b;
}

// The last step of sort along an axis of x seen as (outer, extent, inner): row r = (o, i) of the scratch
// permutation `perm` (rows of `extent` source positions) becomes the line x[o, :, i] reordered (sort) ...
__kernel void apply_permutation(long n, __global const T* x, long x_off, __global const long* perm,
                                __global T* o, long o_off, long extent, long inner) {
  const long w = get_global_id(0);
  if (w >= n) return;
  const long row = w / extent, k = w - row * extent;
  const long outer = row / inner, i = row - outer * inner;
  const long base = outer * extent * inner + i;
  o[o_off + base + k * inner] = x[x_off + base + perm[w] * inner];
}

// ... or the permutation itself (argsort; built for 8-byte words, where T holds the int64 indices).
__kernel void store_permutation(long n, __global const T* perm, __global T* o, long o_off, long extent,
                                long inner) {
  const long w = get_global_id(0);
  if (w >= n) return;
  const long row = w / extent, k = w - row * extent;
  const long outer = row / inner, i = row - outer * inner;
  o[o_off + outer * extent * inner + i + k * inner] = perm[w];
}
