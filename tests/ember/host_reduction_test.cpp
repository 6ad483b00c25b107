// The host backends' sums on several threads (frontend/src/host/loops.hpp): a full sum splits its pairwise
// tree (pairwise_sum_parallel) and a sum over the last axis splits its rows, and both keep the bits of the
// serial pairwise summation NumPy does, at sizes around the split, of every residue mod 8, on each host
// backend; a sum over a leading axis splits its columns and adds each in order; a large full sum runs on the
// pool.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ember/ember.hpp"
#include "host/loops.hpp"
#include "simd_level_scope.hpp"

namespace ember {
namespace {

namespace ops = ember::ops;

// Floats of magnitudes 2^-20 to 2^20: their sum in double rounds, so another order of the additions would
// give other bits.
std::vector<float> spread(std::int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-20, 20);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& x : v) x = std::ldexp(mantissa(gen), exponent(gen));
  return v;
}

const auto widen = [](float v) { return static_cast<double>(v); };

double serial(const float* p, std::int64_t n) {
  return host::pairwise_sum<double>(p, n, widen);
}

const std::int64_t kM = std::int64_t{1} << 20;

TEST(HostReductions, TheParallelPairwiseSumHasTheSerialBits) {
  for (std::int64_t n : {kM - 1, kM, kM + 1, kM + 7, 3 * kM + 13, 4 * kM + 5}) {
    const std::vector<float> v = spread(n, static_cast<unsigned>(n));
    const double parallel = host::pairwise_sum_parallel<double>(v.data(), n, widen);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(parallel), std::bit_cast<std::uint64_t>(serial(v.data(), n))) << n;
  }
  // The data is sensitive to the order: a plain left-to-right sum gives other bits.
  const std::vector<float> v = spread(kM + 7, 1);
  double in_order = -0.0;
  for (float x : v) in_order += x;
  EXPECT_NE(std::bit_cast<std::uint64_t>(in_order), std::bit_cast<std::uint64_t>(serial(v.data(), kM + 7)));
}

TEST(HostReductions, TheTreeSplitsFromItsThresholdWithTheSerialBits) {
  const std::int64_t m = host::kPairwiseParallelMin;
  for (std::int64_t n : {m - 1, m, m + 1, m + 7, m + 129, 3 * m + 13}) {
    const std::vector<float> v = spread(n, static_cast<unsigned>(n) + 3);
    const double parallel = host::pairwise_sum_parallel<double>(v.data(), n, widen);
    const double kernel = host::pairwise_sum_f32(v.data(), n);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(parallel), std::bit_cast<std::uint64_t>(serial(v.data(), n))) << n;
    EXPECT_EQ(std::bit_cast<std::uint64_t>(kernel), std::bit_cast<std::uint64_t>(serial(v.data(), n))) << n;
  }
}

using test::SimdLevelScope;

// The vector kernel sums four leaves of the tree at once (of one row, or of several short rows), each in the
// tree's order: the bits of the serial pairwise sum for every length from 0 to 5000 (every residue mod 8,
// every shape of tree up to 40 leaves), for rows of every kind of length, at every SIMD level.
TEST(HostReductions, TheVectorPairwiseKernelHasTheSerialBitsAtEveryLevel) {
  const SimdLevelScope restore;
  const std::vector<float> v = spread(5000 * 3, 11);
  for (const char* level : {"baseline", "avx2", "avx512"}) {
    const std::string used = set_host_simd_level(level);
    int wrong = 0;
    for (std::int64_t n = 0; n <= 5000; ++n) {
      double s = 1.0;
      host::pairwise_sums_f32(v.data() + n % 5, 1, n, &s);
      wrong += std::bit_cast<std::uint64_t>(s) != std::bit_cast<std::uint64_t>(serial(v.data() + n % 5, n));
    }
    EXPECT_EQ(wrong, 0) << used << ": lengths whose kernel sum differs from the serial pairwise sum";
    for (std::int64_t len :
         {1, 7, 8, 9, 64, 100, 127, 128, 129, 255, 256, 300, 1000, 2047, 2048, 2049, 4100}) {
      const std::int64_t rows =
          static_cast<std::int64_t>(v.size()) / len < 70 ? static_cast<std::int64_t>(v.size()) / len : 70;
      std::vector<double> sums(static_cast<std::size_t>(rows), 1.0);
      host::pairwise_sums_f32(v.data(), rows, len, sums.data());
      for (std::int64_t r = 0; r < rows; ++r) {
        EXPECT_EQ(std::bit_cast<std::uint64_t>(sums[static_cast<std::size_t>(r)]),
                  std::bit_cast<std::uint64_t>(serial(v.data() + r * len, len)))
            << used << ": row " << r << " of " << rows << " rows of " << len;
      }
    }
  }
}

// Long runs: the kernel sums runs of up to 64K elements as one batch of leaves, four leaves a quarter of the
// batch apart at a time, and the leaves a batch of four does not take (1 to 3) one by one. Runs around and
// past a batch, runs whose tree halves exactly down to leaves of 128 or of 96 (2 and 1.5 batches: their
// leaves and sums are laid out without recursion), and batches of many short rows whose leaf count is each
// residue mod 4, keep the serial bits.
TEST(HostReductions, TheVectorPairwiseKernelHasTheSerialBitsOverWholeBatches) {
  const SimdLevelScope restore;
  const std::int64_t batch = 65536;
  const std::vector<float> v = spread(3 * batch + 100, 12);
  for (const char* level : {"baseline", "avx2", "avx512"}) {
    const std::string used = set_host_simd_level(level);
    for (std::int64_t n : {batch - 1, batch, batch + 1, batch + 8 * 129 + 5, 3 * batch / 2, 2 * batch,
                           2 * batch + 77, 3 * batch + 99}) {
      double s = 1.0;
      host::pairwise_sums_f32(v.data() + 1, 1, n, &s);
      EXPECT_EQ(std::bit_cast<std::uint64_t>(s), std::bit_cast<std::uint64_t>(serial(v.data() + 1, n)))
          << used << ": a run of " << n;
    }
    // Rows of 1 leaf (batches of 1024 leaves, then of 1 or 276), of 2 leaves (511 rows: 1022 leaves, 2 left
    // over), of 3 leaves (341 rows: 1023) and of 33 leaves (31 rows of 4100 a batch, 1023 leaves, then 9).
    for (const auto& [len, rows] : std::vector<std::array<std::int64_t, 2>>{
             {9, 1025}, {100, 1300}, {256, 511}, {264, 341}, {4100, 40}}) {
      std::vector<double> sums(static_cast<std::size_t>(rows), 1.0);
      host::pairwise_sums_f32(v.data() + 3, rows, len, sums.data());
      int wrong = 0;
      for (std::int64_t r = 0; r < rows; ++r) {
        wrong += std::bit_cast<std::uint64_t>(sums[static_cast<std::size_t>(r)]) !=
                 std::bit_cast<std::uint64_t>(serial(v.data() + 3 + r * len, len));
      }
      EXPECT_EQ(wrong, 0) << used << ": rows of " << len << " whose kernel sum differs from the serial sum";
    }
  }
}

std::vector<std::string> host_backends() {
  std::vector<std::string> names;
  for (const std::string& name : registered_backends()) {
    if (name == "eigen" || name == "blas") names.push_back(name);
  }
  return names;
}

TEST(HostReductions, AFullSumAndRowSumsHaveTheSerialPairwiseBitsOnEveryHostBackend) {
  const std::int64_t n = 4 * kM + 3;
  const std::vector<float> v = spread(n, 7);
  // 1.5M elements (the rows split over threads and sleeping workers are woken), 70K (the rows split over
  // awake workers), 30K (one thread); long rows, rows of one leaf, rows shorter than a block.
  const std::vector<std::array<std::int64_t, 2>> shapes = {{1500, 1037}, {700, 100}, {3000, 9}, {300, 100}};
  for (const std::string& name : host_backends()) {
    BackendScope scope(name);
    const float full = ops::item<float>(ops::sum(ops::from_data(v, {n})));
    EXPECT_EQ(std::bit_cast<std::uint32_t>(full),
              std::bit_cast<std::uint32_t>(static_cast<float>(serial(v.data(), n))))
        << name;
    for (const auto& [rows, columns] : shapes) {
      const std::vector<float> m = spread(rows * columns, 8);
      const std::vector<float> sums =
          ops::to_host<float>(ops::sum(ops::from_data(m, {rows, columns}), {{1}}));
      ASSERT_EQ(sums.size(), static_cast<std::size_t>(rows)) << name;
      int wrong = 0;
      for (std::int64_t r = 0; r < rows; ++r) {
        const float want = static_cast<float>(serial(m.data() + r * columns, columns));
        wrong += std::bit_cast<std::uint32_t>(sums[static_cast<std::size_t>(r)]) !=
                 std::bit_cast<std::uint32_t>(want);
      }
      EXPECT_EQ(wrong, 0) << name << ": rows of " << columns
                          << " whose sum differs from the serial pairwise sum";
    }
  }
}

// A float32 sum over leading axes adds each column's elements in order in double (the order the OpenCL
// backend and Parity.SumOverLeadingAxesIsExact hold every backend to): the kernel takes eight rows a sweep
// and bands of host::kAddRowsBand columns, the reduction a band a thread. Row counts of every residue mod 8,
// bands cut short, several outer slices, inputs large enough to split over threads, at every SIMD level.
TEST(HostReductions, ColumnSumsAddEachColumnInOrderOnEveryHostBackendAndLevel) {
  const SimdLevelScope restore;
  const std::int64_t band = host::kAddRowsBand;
  // {outer, rows, columns}: the sum is over rows.
  const std::vector<std::array<std::int64_t, 3>> shapes = {
      {1, 17, band + 5},   {1, 9, 2 * band},          {1, 23, 7},
      {2, 13, band + 100}, {1, 1029, 2 * band + 300}, {3, 300, band / 2 + 3}};
  for (const char* level : {"baseline", "avx2", "avx512"}) {
    const std::string used = set_host_simd_level(level);
    for (const std::string& name : host_backends()) {
      BackendScope scope(name);
      for (const auto& [outer, rows, columns] : shapes) {
        const std::vector<float> m = spread(outer * rows * columns, static_cast<unsigned>(rows + columns));
        const std::vector<float> sums =
            ops::to_host<float>(ops::sum(ops::from_data(m, {outer, rows, columns}), {{1}}));
        ASSERT_EQ(sums.size(), static_cast<std::size_t>(outer * columns)) << name;
        int wrong = 0;
        for (std::int64_t o = 0; o < outer; ++o) {
          for (std::int64_t c = 0; c < columns; ++c) {
            double acc = -0.0;
            for (std::int64_t r = 0; r < rows; ++r)
              acc += static_cast<double>(m[static_cast<std::size_t>((o * rows + r) * columns + c)]);
            wrong += std::bit_cast<std::uint32_t>(sums[static_cast<std::size_t>(o * columns + c)]) !=
                     std::bit_cast<std::uint32_t>(static_cast<float>(acc));
          }
        }
        EXPECT_EQ(wrong, 0) << used << ", " << name << ": columns of " << outer << " x " << rows << " x "
                            << columns << " whose sum differs from the in-order sum";
      }
    }
  }
}

TEST(HostReductions, ALargeFullSumRunsOnThePool) {
  const HostThreadsInfo before = host_threads_info();
  if (before.threads < 2) GTEST_SKIP() << "one host thread (EMBER_NUM_THREADS or one core)";
  const std::vector<float> v = spread(4 * kM, 9);
  BackendScope scope("eigen");
  const Tensor x = ops::from_data(v, {4 * kM});
  const HostThreadsInfo start = host_threads_info();
  for (int i = 0; i < 3; ++i) ops::item<float>(ops::sum(x));
  const HostThreadsInfo after = host_threads_info();
  EXPECT_GE(after.parallel_jobs + after.jobs_run_alone, start.parallel_jobs + start.jobs_run_alone + 3)
      << "each full sum of 4M elements is one job split over the pool";
}

}  // namespace
}  // namespace ember
