#pragma OPENCL FP_CONTRACT OFF
// Stable sort of every line of x along one axis, built once per dtype (common.cl's T, C and IS_* flags).
// x is seen as (outer, extent, inner); line (o, i) is scratch row o * inner + i. The host runs
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
