// The float32 pairwise-sum kernel of host/vector_kernels.hpp (pairwise_sums_f32): NumPy's summation tree of
// host/loops.hpp (pairwise_sum) with its leaves summed four at a time on AVX2 with FMA, one at a time at the
// baseline.
// Compiled as host/vector_kernels.cpp is (-ffp-contract=off: no FMA contraction; the one explicit
// multiply-add, add_on_fma, is an addition rounded once), so every level adds the same numbers in the same
// order and gives the same bits.
#include <algorithm>
#include <cstdint>

#include "host/simd_targets.hpp"
#include "host/vector_kernels.hpp"

namespace ember::host {

namespace {

// NumPy's pairwise summation (host/loops.hpp pairwise_sum) of float32 into double: a run of more than 128
// elements splits in halves (the first rounded down to a multiple of 8), and each leaf of at most 128 adds
// its elements into eight partial sums, combines them as ((0+1)+(2+3))+((4+5)+(6+7)) and adds its tail of
// fewer than 8. A leaf is one chain of dependent additions (about 4 cycles each), so one leaf at a time runs
// at the adder's latency; the leaves are independent, so four are summed at once here, each in its own
// order, and the tree above them is then added as pairwise_sum adds it: the same bits.
//
// The four leaves summed together are a quarter of a batch apart (tens of KiB), not neighbours: four
// interleaved sequential streams, which the cpu's prefetchers follow. Four neighbouring leaves (one 2 KiB
// stretch read in a 512-byte stride) defeat them: on an AMD EPYC a 16M-element sum from memory ran at a third
// of a plain read loop's bandwidth that way, and at the read loop's with the leaves spread.
namespace pairwise {

constexpr std::int64_t kLeaf = 128;
// The largest run summed as one batch of leaves (256 KiB of float32), and the batch's capacity: a run of at
// most kNode elements has at most 513 leaves (each of 64 to 128 elements; 512 when kNode is split exactly).
constexpr std::int64_t kNode = 65536;
constexpr int kBatch = 1024;

constexpr std::int64_t first_half(std::int64_t n) {
  const std::int64_t h = n / 2;
  return h - h % 8;
}

struct Leaf {
  const float* p;
  std::int64_t n;  // 8 to 128
};

// The length of every leaf when the tree over n elements (n >= 8) halves exactly down to its leaves (n is
// that length times a power of two, the length a multiple of 8 when there is more than one leaf, as for every
// power of two from 128), else 0. Such a tree's leaves and sums need no recursion, one node at a time: each
// leaf starts a leaf's length after the one before, and each level of nodes adds neighbouring pairs.
std::int64_t uniform_leaf(std::int64_t n) {
  for (; n > kLeaf; n /= 2) {
    if (n % 16 != 0) return 0;  // the first half n / 2 is a multiple of 8 exactly when n is of 16
  }
  return n;
}

// Appends the leaves of the tree over p[0, n) (n >= 8) in order.
void collect(const float* p, std::int64_t n, Leaf* leaves, int& count) {
  if (const std::int64_t len = uniform_leaf(n); len != 0) {
    for (std::int64_t start = 0; start < n; start += len) leaves[count++] = {p + start, len};
    return;
  }
  const std::int64_t h = first_half(n);
  collect(p, h, leaves, count);
  collect(p + h, n - h, leaves, count);
}

// The sum of the tree over n elements (n >= 8) whose leaf sums are sums[next ...], in pairwise_sum's order;
// the sums it reads are overwritten.
double combine(std::int64_t n, double* sums, int& next) {
  if (const std::int64_t len = uniform_leaf(n); len != 0) {
    double* s = sums + next;
    const std::int64_t count = n / len;  // a power of two
    next += static_cast<int>(count);
    for (std::int64_t width = count; width > 1; width /= 2) {  // (0 + 1), (2 + 3), ...: each node's halves
      for (std::int64_t i = 0; i < width / 2; ++i) s[i] = s[2 * i] + s[2 * i + 1];
    }
    return s[0];
  }
  const std::int64_t h = first_half(n);
  const double first = combine(h, sums, next);
  return first + combine(n - h, sums, next);
}

// A leaf's eight partial sums r (its blocks up to `end`, a multiple of 8) combined, then its tail added.
inline double finish(const double* r, const float* p, std::int64_t end, std::int64_t n) {
  double s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
  for (std::int64_t i = end; i < n; ++i) s += static_cast<double>(p[i]);
  return s;
}

// One leaf as pairwise_sum adds it.
inline double leaf_sum(const Leaf& l) {
  const std::int64_t end = l.n - l.n % 8;
  double r[8];
  for (int j = 0; j < 8; ++j) r[j] = static_cast<double>(l.p[j]);
  for (std::int64_t i = 8; i < end; i += 8) {
    for (int j = 0; j < 8; ++j) r[j] += static_cast<double>(l.p[i + j]);
  }
  return finish(r, l.p, end, l.n);
}

}  // namespace pairwise

// sums[j] = the sum of leaf j: one at a time at the baseline (and where there are no levels).
void leaf_sums_baseline(const pairwise::Leaf* leaves, int count, double* sums) {
  for (int j = 0; j < count; ++j) sums[j] = pairwise::leaf_sum(leaves[j]);
}

#if EMBER_HAVE_SIMD_LEVELS
// acc + x rounded once, as _mm256_add_pd(acc, x) rounds it (x * 1.0 is exact, and -0.0 * 1.0 is -0.0), on the
// multiply-add pipes. On AMD Zen 4 the conversions from float and the additions share two pipes and the
// multiply-adds have two others: one thread summing 64K float32 from L2 (pairwise_sums_f32) ran at 38.6 GB/s
// with additions and at 49.6 GB/s with these (the memory's read limit on two cores is about 47 GB/s); on
// Intel cores additions and multiply-adds share their ports alike.
EMBER_TARGET_AVX2_FMA inline __m256d add_on_fma(__m256d acc, __m256d x) {
  return _mm256_fmadd_pd(x, _mm256_set1_pd(1.0), acc);
}

// A leaf's remaining blocks from `from` added to its partial sums (a: 0 to 3, b: 4 to 7), then the partial
// sums combined and the tail added as pairwise_sum does.
EMBER_TARGET_AVX2_FMA inline double leaf_rest(__m256d a, __m256d b, const float* p, std::int64_t from,
                                              std::int64_t end, std::int64_t n) {
  for (std::int64_t k = from; k < end; k += 8) {
    a = add_on_fma(a, _mm256_cvtps_pd(_mm_loadu_ps(p + k)));
    b = add_on_fma(b, _mm256_cvtps_pd(_mm_loadu_ps(p + k + 4)));
  }
  alignas(32) double r[8];
  _mm256_store_pd(r, a);
  _mm256_store_pd(r + 4, b);
  return pairwise::finish(r, p, end, n);
}

// With AVX2 and FMA (every AVX2 cpu but a few low-end ones, and every AVX-512 one): four leaves at a time,
// leaves j, j + q, j + 2q and j + 3q for a quarter q of the batch (four streams through memory, see above),
// each leaf's eight partial sums in two registers of four doubles (partial sums 0 to 3 and 4 to 7), so eight
// independent chains of additions run at once.
EMBER_TARGET_AVX2_FMA void leaf_sums_avx2(const pairwise::Leaf* leaves, int count, double* sums) {
  const int q = count / 4;
  for (int j = 0; j < q; ++j) {
    const pairwise::Leaf l[4] = {leaves[j], leaves[j + q], leaves[j + 2 * q], leaves[j + 3 * q]};
    const float *p0 = l[0].p, *p1 = l[1].p, *p2 = l[2].p, *p3 = l[3].p;
    const std::int64_t e0 = l[0].n - l[0].n % 8, e1 = l[1].n - l[1].n % 8, e2 = l[2].n - l[2].n % 8,
                       e3 = l[3].n - l[3].n % 8;
    __m256d a0 = _mm256_cvtps_pd(_mm_loadu_ps(p0)), b0 = _mm256_cvtps_pd(_mm_loadu_ps(p0 + 4));
    __m256d a1 = _mm256_cvtps_pd(_mm_loadu_ps(p1)), b1 = _mm256_cvtps_pd(_mm_loadu_ps(p1 + 4));
    __m256d a2 = _mm256_cvtps_pd(_mm_loadu_ps(p2)), b2 = _mm256_cvtps_pd(_mm_loadu_ps(p2 + 4));
    __m256d a3 = _mm256_cvtps_pd(_mm_loadu_ps(p3)), b3 = _mm256_cvtps_pd(_mm_loadu_ps(p3 + 4));
    const std::int64_t common = std::min(std::min(e0, e1), std::min(e2, e3));
    std::int64_t i = 8;
    for (; i < common; i += 8) {
      a0 = add_on_fma(a0, _mm256_cvtps_pd(_mm_loadu_ps(p0 + i)));
      b0 = add_on_fma(b0, _mm256_cvtps_pd(_mm_loadu_ps(p0 + i + 4)));
      a1 = add_on_fma(a1, _mm256_cvtps_pd(_mm_loadu_ps(p1 + i)));
      b1 = add_on_fma(b1, _mm256_cvtps_pd(_mm_loadu_ps(p1 + i + 4)));
      a2 = add_on_fma(a2, _mm256_cvtps_pd(_mm_loadu_ps(p2 + i)));
      b2 = add_on_fma(b2, _mm256_cvtps_pd(_mm_loadu_ps(p2 + i + 4)));
      a3 = add_on_fma(a3, _mm256_cvtps_pd(_mm_loadu_ps(p3 + i)));
      b3 = add_on_fma(b3, _mm256_cvtps_pd(_mm_loadu_ps(p3 + i + 4)));
    }
    sums[j] = leaf_rest(a0, b0, p0, i, e0, l[0].n);
    sums[j + q] = leaf_rest(a1, b1, p1, i, e1, l[1].n);
    sums[j + 2 * q] = leaf_rest(a2, b2, p2, i, e2, l[2].n);
    sums[j + 3 * q] = leaf_rest(a3, b3, p3, i, e3, l[3].n);
  }
  for (int j = 4 * q; j < count; ++j) sums[j] = pairwise::leaf_sum(leaves[j]);
}
bool cpu_has_fma() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma") != 0;
  }();
  return has;
}
auto leaf_sums_at(SimdLevel level) {
  return level != SimdLevel::baseline && cpu_has_fma() ? leaf_sums_avx2 : leaf_sums_baseline;
}
#else
auto leaf_sums_at(SimdLevel) {
  return leaf_sums_baseline;
}
#endif

namespace pairwise {

using LeafSums = void (*)(const Leaf*, int, double*);

// The pairwise sum of p[0, n) (n >= 8): runs of at most kNode elements in one batch of leaves.
double node_sum(const float* p, std::int64_t n, LeafSums leaf_sums) {
  if (n > kNode) {
    const std::int64_t h = first_half(n);
    const double first = node_sum(p, h, leaf_sums);
    return first + node_sum(p + h, n - h, leaf_sums);
  }
  Leaf leaves[kBatch];
  double sums[kBatch];
  int count = 0;
  collect(p, n, leaves, count);
  leaf_sums(leaves, count, sums);
  int next = 0;
  return combine(n, sums, next);
}

}  // namespace pairwise

}  // namespace

void pairwise_sums_f32(const float* p, std::int64_t rows, std::int64_t len, double* sums) {
  if (len < 8) {  // one leaf shorter than a block: added in order
    for (std::int64_t r = 0; r < rows; ++r) {
      double s = -0.0;
      for (std::int64_t i = 0; i < len; ++i) s += static_cast<double>(p[r * len + i]);
      sums[r] = s;
    }
    return;
  }
  const auto leaf_sums = leaf_sums_at(simd_level());
  if (len > pairwise::kNode) {
    for (std::int64_t r = 0; r < rows; ++r) sums[r] = pairwise::node_sum(p + r * len, len, leaf_sums);
    return;
  }
  // Short rows: the leaves of several rows in one batch.
  pairwise::Leaf leaves[pairwise::kBatch];
  double leaf_sum[pairwise::kBatch];
  int per_row = 0;
  pairwise::collect(p, len, leaves, per_row);
  const std::int64_t batch_rows = std::max(1, pairwise::kBatch / per_row);
  for (std::int64_t first = 0; first < rows; first += batch_rows) {
    const std::int64_t last = std::min(rows, first + batch_rows);
    int count = 0;
    for (std::int64_t r = first; r < last; ++r) pairwise::collect(p + r * len, len, leaves, count);
    leaf_sums(leaves, count, leaf_sum);
    int next = 0;
    for (std::int64_t r = first; r < last; ++r) sums[r] = pairwise::combine(len, leaf_sum, next);
  }
}
}  // namespace ember::host
