#pragma OPENCL FP_CONTRACT OFF
// Stable sort of every line of x along one axis, built once per dtype (common.cl's T, C and IS_* flags).
// x is seen as (outer, extent, inner); line (o, i) is scratch row o * inner + i. For lines shorter than
// kRadixMinExtent (tensor_ops.cpp; longer ones: the radix sort at the end of this file) the host runs
//   sort_runs: each work-item copies RUN elements of a line into contiguous scratch (keys in C, original
//              positions as long) and insertion-sorts them;
//   sort_merge: log2(extent / RUN) passes, each work-item merging two adjacent sorted runs of one row,
// then layout.cl's apply_permutation or store_permutation writes the result. Merging takes the left run's
// element unless the right one sorts strictly before it, so equal elements keep their order (stable, in
// both directions, exactly like std::stable_sort in the eigen backend).

#define RUN 32

// a sorts strictly before b: ascending puts NaN after everything (+inf included), descending reverses the
// comparison and puts NaN first.
inline int before(C a, C b, int descending) {
#if IS_FLOAT
  const int na = isnan(a), nb = isnan(b);
  if (na || nb) return descending ? (na && !nb) : (!na && nb);
#endif
  return descending ? b < a : a < b;
}

__kernel void sort_runs(long n, __global const T* x, long x_off, __global C* keys, __global long* pos,
                        long extent, long inner, long runs_per_row, int descending) {
  const long w = get_global_id(0);
  if (w >= n) return;
  const long row = w / runs_per_row, run = w - row * runs_per_row;
  const long outer = row / inner, i = row - outer * inner;
  const long src = x_off + outer * extent * inner + i;
  const long lo = run * RUN, hi = min(lo + RUN, extent);
  __global C* k = keys + row * extent;
  __global long* p = pos + row * extent;
  for (long e = lo; e < hi; ++e) {
    const C v = LOAD(x, src + e * inner);
    long j = e;
    while (j > lo && before(v, k[j - 1], descending)) {
      k[j] = k[j - 1];
      p[j] = p[j - 1];
      --j;
    }
    k[j] = v;
    p[j] = e;
  }
}

// Merges runs [lo, lo + width) and [lo + width, lo + 2 width) of one row from (ks, ps) into (kd, pd).
__kernel void sort_merge(long n, __global const C* ks, __global const long* ps, __global C* kd,
                         __global long* pd, long extent, long width, long pairs_per_row, int descending) {
  const long w = get_global_id(0);
  if (w >= n) return;
  const long row = w / pairs_per_row, pair = w - row * pairs_per_row;
  const long base = row * extent;
  const long lo = pair * 2 * width;
  const long mid = min(lo + width, extent), hi = min(lo + 2 * width, extent);
  long a = lo, b = mid, out = lo;
  while (a < mid && b < hi) {
    if (before(ks[base + b], ks[base + a], descending)) {
      kd[base + out] = ks[base + b];
      pd[base + out++] = ps[base + b++];
    } else {
      kd[base + out] = ks[base + a];
      pd[base + out++] = ps[base + a++];
    }
  }
  for (; a < mid; ++a, ++out) {
    kd[base + out] = ks[base + a];
    pd[base + out] = ps[base + a];
  }
  for (; b < hi; ++b, ++out) {
    kd[base + out] = ks[base + b];
    pd[base + out] = ps[base + b];
  }
}

// ---- radix sort of long lines ----------------------------------------------------------------------------
// Lines of at least kRadixMinExtent elements (tensor_ops.cpp) are sorted instead by a stable LSD radix sort
// of unsigned keys KEY (uint or ulong, -DKEY=..., KEY_BITS of them significant) whose order is the sort
// order, RADIX_BITS bits a pass, each key carrying a payload P: the element's own bits for sort
// (-DPAYLOAD_VALUES=1, P as wide as the element), its position in the line for argsort (P = long). Each line
// is cut into tiles of `tile` elements. A pass is radix_count (each work-item: the digit histogram of one
// tile) and radix_scatter (each work-item: its line's exclusive prefix sums of the counts in digit-major,
// tile-minor order, which is where its tile's first element of each digit goes, then the tile's elements
// moved, in order, to those places): stable, so its result is the merge sort's exactly. A sort whose keys
// each stand for one value (no -0, no NaN: radix_keys_alone says whether one was seen) moves its keys alone
// and turns them back into values at the end (radix_values): equal keys are then equal values.
#ifdef KEY

#define RADIX_BITS 11
#define RADIX (1 << RADIX_BITS)

// The key of v: ascending puts NaN (all NaNs one key) after +inf and -0 with +0 (one key), descending is the
// complement (NaN first). Signed integers are offset by 2^(KEY_BITS - 1) to count from 0.
inline KEY radix_key(C v, int descending) {
  const KEY mask = KEY_BITS == 8 * sizeof(KEY) ? ~(KEY)0 : (((KEY)1 << KEY_BITS) - 1);
  KEY k;
#if IS_FLOAT && IS_F64
  const ulong b = as_ulong(v);
  k = isnan(v) ? ~(ulong)0 : v == 0.0 ? (ulong)1 << 63 : (b >> 63) ? ~b : b | ((ulong)1 << 63);
#elif IS_FLOAT
  const uint b = as_uint(v);
  k = isnan(v) ? ~0u : v == 0.0f ? 0x80000000u : (b >> 31) ? ~b : b | 0x80000000u;
#elif IS_SIGNED
  k = ((KEY)v + ((KEY)1 << (KEY_BITS - 1))) & mask;
#else
  k = (KEY)v;
#endif
  return descending ? ~k & mask : k;
}

// The value whose key (radix_key) is k, for keys of values other than -0 and NaN.
inline C radix_value(KEY k, int descending) {
  const KEY mask = KEY_BITS == 8 * sizeof(KEY) ? ~(KEY)0 : (((KEY)1 << KEY_BITS) - 1);
  if (descending) k = ~k & mask;
#if IS_FLOAT && IS_F64
  return as_double((k >> 63) ? k & ~((ulong)1 << 63) : ~k);
#elif IS_FLOAT
  return as_float((k >> 31) ? k & 0x7fffffffu : ~k);
#elif IS_SIGNED && KEY_BITS == 64
  return as_long(k ^ ((ulong)1 << 63));
#elif IS_SIGNED
  return (C)((long)k - ((long)1 << (KEY_BITS - 1)));
#else
  return (C)k;
#endif
}

// Whether v's key stands for v alone: not -0 (keyed as +0), not NaN (one key for all NaNs).
inline int radix_key_is_exact(C v) {
#if IS_FLOAT
  return !(isnan(v) || (v == 0 && signbit(v)));
#else
  return 1;
#endif
}

// The element of x at (line row, position e) for lines `extent` long with `inner` lines side by side.
inline long radix_at(long row, long e, long extent, long inner) {
  const long outer = row / inner, i = row - outer * inner;
  return (outer * extent + e) * inner + i;
}

// Keys alone, as radix_keys; *inexact becomes 1 if a key does not stand for its value alone.
__kernel void radix_keys_alone(long extent, __global const T* x, long x_off, __global KEY* keys,
                               __global int* inexact, long inner, int descending) {
  const long e = get_global_id(0);
  if (e >= extent) return;
  const long row = get_global_id(1);
  const C v = LOAD(x, x_off + radix_at(row, e, extent, inner));
  keys[row * extent + e] = radix_key(v, descending);
  if (!radix_key_is_exact(v)) atomic_or(inexact, 1);
}

// out's lines from sorted keys (keys alone): the same 2-D range as radix_keys.
__kernel void radix_values(long extent, __global const KEY* keys, __global T* out, long out_off, long inner,
                           int descending) {
  const long e = get_global_id(0);
  if (e >= extent) return;
  const long row = get_global_id(1);
  STORE(out, out_off + radix_at(row, e, extent, inner), radix_value(keys[row * extent + e], descending));
}

// Keys and payloads of every line, line r at [r * extent, (r + 1) * extent): a 2-D range of extent x lines
// (DeviceContext::launch_rows).
__kernel void radix_keys(long extent, __global const T* x, long x_off, __global KEY* keys, __global P* payload,
                         long inner, int descending) {
  const long e = get_global_id(0);
  if (e >= extent) return;
  const long row = get_global_id(1);
  const long at = x_off + radix_at(row, e, extent, inner);
  keys[row * extent + e] = radix_key(LOAD(x, at), descending);
#if PAYLOAD_VALUES
  payload[row * extent + e] = ((__global const P*)x)[at];
#else
  payload[row * extent + e] = e;
#endif
}

// The elements [lo, hi) of line `row`'s tile t, for work-item w of a launch over lines x tiles, and the
// tile's first count.
#define RADIX_TILE(w)                                         \
  const long row = (w) / tiles, t = (w) - row * tiles;        \
  const long lo = row * extent + t * tile;                    \
  const long hi = row * extent + min((t + 1) * tile, extent); \
  __global uint* tile_counts = counts + row * RADIX * tiles + t

// counts[(row * RADIX + d) * tiles + t]: how many elements of tile t of line row have digit d.
__kernel void radix_count(long n, __global const KEY* keys, __global uint* counts, long extent, long tile,
                          long tiles, int shift) {
  const long w = get_global_id(0);
  uint hist[RADIX];
  if (w >= n) return;
  RADIX_TILE(w);
  for (int d = 0; d < RADIX; ++d) hist[d] = 0u;
  for (long e = lo; e < hi; ++e) ++hist[(uint)(keys[e] >> shift) & (RADIX - 1)];
  for (int d = 0; d < RADIX; ++d) tile_counts[d * tiles] = hist[d];
}

// The body of a scatter: each element e of tile t, in order, to its digit's next place `to`, where MOVE
// puts it. The first place of digit d in tile t is the exclusive prefix sum of the line's counts in
// digit-major, tile-minor order up to (d, t), which every work-item of the line sums for itself (RADIX x
// tiles reads, against a separate scan kernel's launch).
#define RADIX_SCATTER(MOVE)                                                 \
  const long w = get_global_id(0);                                          \
  uint next[RADIX];                                                         \
  if (w >= n) return;                                                       \
  RADIX_TILE(w);                                                            \
  const long line = row * extent;                                           \
  __global const uint* line_counts = tile_counts - t;                       \
  uint sum = 0u;                                                            \
  for (int d = 0; d < RADIX; ++d) {                                         \
    for (long u = 0; u < tiles; ++u) {                                      \
      if (u == t) next[d] = sum;                                            \
      sum += line_counts[d * tiles + u];                                    \
    }                                                                       \
  }                                                                         \
  for (long e = lo; e < hi; ++e) {                                          \
    const KEY k = ks[e];                                                    \
    const long to = line + next[(uint)(k >> shift) & (RADIX - 1)]++;        \
    MOVE;                                                                   \
  }

// Moves tile t of each line from (ks, ps) to (kd, pd + pd_off), each element to its digit's next place.
__kernel void radix_scatter(long n, __global const KEY* ks, __global const P* ps, __global KEY* kd,
                            __global P* pd, long pd_off, __global uint* counts, long extent, long tile,
                            long tiles, int shift) {
  RADIX_SCATTER((kd[to] = k, pd[pd_off + to] = ps[e]))
}

// As radix_scatter, keys alone.
__kernel void radix_scatter_keys(long n, __global const KEY* ks, __global KEY* kd, __global uint* counts,
                                 long extent, long tile, long tiles, int shift) {
  RADIX_SCATTER(kd[to] = k)
}

#endif  // KEY
