// The host backends' sums on several threads (frontend/src/host/loops.hpp): a full sum splits its pairwise
// tree (pairwise_sum_parallel) and a sum over the last axis splits its rows, and both keep the bits of the
// serial pairwise summation NumPy does, at sizes around the split, of every residue mod 8, on each host
// backend; a large full sum runs on the pool.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ember/ember.hpp"
#include "host/loops.hpp"

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
  const std::int64_t rows = 1500, columns = 1037;  // 1.5M elements: the rows split over threads
  const std::vector<float> m = spread(rows * columns, 8);
  for (const std::string& name : host_backends()) {
    BackendScope scope(name);
    const float full = ops::item<float>(ops::sum(ops::from_data(v, {n})));
    EXPECT_EQ(std::bit_cast<std::uint32_t>(full),
              std::bit_cast<std::uint32_t>(static_cast<float>(serial(v.data(), n))))
        << name;
    const std::vector<float> sums = ops::to_host<float>(ops::sum(ops::from_data(m, {rows, columns}), {{1}}));
    ASSERT_EQ(sums.size(), static_cast<std::size_t>(rows)) << name;
    int wrong = 0;
    for (std::int64_t r = 0; r < rows; ++r) {
      const float want = static_cast<float>(serial(m.data() + r * columns, columns));
      wrong += std::bit_cast<std::uint32_t>(sums[static_cast<std::size_t>(r)]) !=
               std::bit_cast<std::uint32_t>(want);
    }
    EXPECT_EQ(wrong, 0) << name << ": rows whose sum differs from the serial pairwise sum";
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
