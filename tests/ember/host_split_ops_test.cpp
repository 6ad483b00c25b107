// Host ops that split their rows or bytes over the thread pool from 16K to 64K elements
// (frontend/src/host/loops.hpp, math_kernels.hpp, tensor_kernels.hpp): broadcast element-wise ops (float32
// and float64 through the vector kernels row by row, other dtypes through map2), where with broadcast
// operands, concatenate and transpose run as pool jobs at 256 x 256 and give exactly the values of a plain
// loop, on each host backend; transposes of 4-byte words in 4 x 4 blocks, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ember/ember.hpp"

namespace ember {
namespace {

namespace ops = ember::ops;

constexpr std::int64_t kSide = 256;  // 64K elements: split over the threads, not large enough to wake them

template <class T>
std::vector<T> values(std::int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> d(-1000, 1000);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (T& x : v) x = static_cast<T>(d(gen)) / static_cast<T>(8);
  return v;
}

std::size_t jobs() {
  const HostThreadsInfo i = host_threads_info();
  return i.parallel_jobs + i.jobs_run_alone;
}

std::vector<std::string> host_backends() {
  std::vector<std::string> names;
  for (const std::string& name : registered_backends()) {
    if (name == "eigen" || name == "blas") names.push_back(name);
  }
  return names;
}

// a (n, n) + b (n,) and a (n, n) + c (n, 1), as a loop computes them, and as one pool job each.
template <class T>
void check_broadcast_add(const std::string& backend) {
  const std::vector<T> a = values<T>(kSide * kSide, 1), b = values<T>(kSide, 2), c = values<T>(kSide, 3);
  const Tensor ta = ops::from_data(a, {kSide, kSide});
  const std::size_t before = jobs();
  const std::vector<T> row = ops::to_host<T>(ops::add(ta, ops::from_data(b, {kSide})));
  const std::vector<T> column = ops::to_host<T>(ops::add(ops::from_data(c, {kSide, 1}), ta));
  EXPECT_GE(jobs(), before + 2) << backend << ": each broadcast add of 64K elements is one pool job";
  int wrong = 0;
  for (std::int64_t i = 0; i < kSide; ++i) {
    for (std::int64_t j = 0; j < kSide; ++j) {
      const auto k = static_cast<std::size_t>(i * kSide + j);
      wrong += row[k] != static_cast<T>(a[k] + b[static_cast<std::size_t>(j)]);
      wrong += column[k] != static_cast<T>(c[static_cast<std::size_t>(i)] + a[k]);
    }
  }
  EXPECT_EQ(wrong, 0) << backend << ": broadcast sums that differ from a loop's";
}

TEST(HostSplitOps, BroadcastElementwiseOpsSplitTheirRows) {
  if (host_threads_info().threads < 2) GTEST_SKIP() << "one host thread (EMBER_NUM_THREADS or one core)";
  for (const std::string& name : host_backends()) {
    BackendScope scope(name);
    check_broadcast_add<float>(name);
    check_broadcast_add<double>(name);
    check_broadcast_add<std::int32_t>(name);
  }
}

// 3-d broadcasts of + - * /: the kernel takes a run of rows along the second-innermost dimension (40 rows
// here) at a time, and the threads' chunks of 240 rows start inside runs. Every element as a loop computes
// it.
template <class T>
void check_broadcast_runs(const std::string& backend) {
  constexpr std::int64_t kP = 6, kQ = 40, kR = 70;  // 16,800 elements: more than the split's 16K
  const std::vector<T> a = values<T>(kP * kQ * kR, 11), b = values<T>(kQ, 12), c = values<T>(kP * kR, 13),
                       d = values<T>(kR, 14);
  const Tensor ta = ops::from_data(a, {kP, kQ, kR}), tb = ops::from_data(b, {kQ, 1}),
               tc = ops::from_data(c, {kP, 1, kR}), td = ops::from_data(d, {kR});
  const auto at = [](const std::vector<T>& v, std::int64_t i) { return v[static_cast<std::size_t>(i)]; };
  const std::vector<T> sum = ops::to_host<T>(ops::add(ta, tb));
  const std::vector<T> difference = ops::to_host<T>(ops::subtract(tc, ta));
  const std::vector<T> product = ops::to_host<T>(ops::multiply(tb, tc));  // (6, 40, 70) from two broadcasts
  const std::vector<T> quotient = ops::to_host<T>(ops::divide(ta, ops::add(td, T(200))));
  int wrong = 0;
  for (std::int64_t p = 0; p < kP; ++p) {
    for (std::int64_t q = 0; q < kQ; ++q) {
      for (std::int64_t r = 0; r < kR; ++r) {
        const std::int64_t k = (p * kQ + q) * kR + r;
        wrong += at(sum, k) != static_cast<T>(at(a, k) + at(b, q));
        wrong += at(difference, k) != static_cast<T>(at(c, p * kR + r) - at(a, k));
        wrong += at(product, k) != static_cast<T>(at(b, q) * at(c, p * kR + r));
        wrong += at(quotient, k) != static_cast<T>(at(a, k) / static_cast<T>(at(d, r) + T(200)));
      }
    }
  }
  EXPECT_EQ(wrong, 0) << backend << ": elements of 3-d broadcast ops that differ from a loop's";
}

TEST(HostSplitOps, BroadcastOpsTakeRunsOfRowsAndKeepALoopsValues) {
  for (const std::string& name : host_backends()) {
    BackendScope scope(name);
    check_broadcast_runs<float>(name);
    check_broadcast_runs<double>(name);
  }
}

TEST(HostSplitOps, WhereWithBroadcastOperandsSplitsItsRows) {
  if (host_threads_info().threads < 2) GTEST_SKIP() << "one host thread (EMBER_NUM_THREADS or one core)";
  const std::vector<float> c = values<float>(kSide * kSide, 4), x = values<float>(kSide, 5),
                           y = values<float>(kSide, 6);
  for (const std::string& name : host_backends()) {
    BackendScope scope(name);
    const Tensor cond = ops::greater(ops::from_data(c, {kSide, kSide}), 0.0);
    const Tensor tx = ops::from_data(x, {kSide}), ty = ops::from_data(y, {kSide, 1});
    eval(cond);
    const std::size_t before = jobs();
    const std::vector<float> got = ops::to_host<float>(ops::where(cond, tx, ty));
    EXPECT_GE(jobs(), before + 1) << name << ": where over 64K elements is a pool job";
    int wrong = 0;
    for (std::int64_t i = 0; i < kSide; ++i) {
      for (std::int64_t j = 0; j < kSide; ++j) {
        const auto k = static_cast<std::size_t>(i * kSide + j);
        wrong += got[k] != (c[k] > 0 ? x[static_cast<std::size_t>(j)] : y[static_cast<std::size_t>(i)]);
      }
    }
    EXPECT_EQ(wrong, 0) << name << ": elements that differ from a loop's choice";
  }
}

TEST(HostSplitOps, ConcatenateAndTransposeSplitTheirCopies) {
  if (host_threads_info().threads < 2) GTEST_SKIP() << "one host thread (EMBER_NUM_THREADS or one core)";
  const std::int64_t n = kSide * kSide;
  const std::vector<float> a = values<float>(n, 7), b = values<float>(n, 8);
  for (const std::string& name : host_backends()) {
    BackendScope scope(name);
    const Tensor ta = ops::from_data(a, {n}), tb = ops::from_data(b, {n});
    std::size_t before = jobs();
    const std::vector<float> joined = ops::to_host<float>(ops::concatenate({ta, tb}));
    EXPECT_GE(jobs(), before + 2) << name << ": each input of 256 KiB is copied by one pool job";
    ASSERT_EQ(joined.size(), static_cast<std::size_t>(2 * n));
    EXPECT_TRUE(std::equal(a.begin(), a.end(), joined.begin())) << name;
    EXPECT_TRUE(std::equal(b.begin(), b.end(), joined.begin() + n)) << name;
    // Rows of a (kSide, 2 * kSide) matrix joined along axis 1: one memcpy per row of each input.
    const std::vector<float> rows = ops::to_host<float>(ops::concatenate(
        {ops::reshape(ta, {kSide * 2, kSide / 2}), ops::reshape(tb, {kSide * 2, kSide / 2})}, 1));
    int wrong = 0;
    for (std::int64_t i = 0; i < kSide * 2; ++i) {
      for (std::int64_t j = 0; j < kSide; ++j) {
        const float want = j < kSide / 2 ? a[static_cast<std::size_t>(i * (kSide / 2) + j)]
                                         : b[static_cast<std::size_t>(i * (kSide / 2) + j - kSide / 2)];
        wrong += rows[static_cast<std::size_t>(i * kSide + j)] != want;
      }
    }
    EXPECT_EQ(wrong, 0) << name << ": elements of a concatenation along axis 1 out of place";
    before = jobs();
    const std::vector<float> t = ops::to_host<float>(ops::transpose(ops::reshape(ta, {kSide, kSide})));
    EXPECT_GE(jobs(), before + 1) << name << ": a 256 x 256 transpose is one pool job";
    wrong = 0;
    for (std::int64_t i = 0; i < kSide; ++i) {
      for (std::int64_t j = 0; j < kSide; ++j) {
        wrong += t[static_cast<std::size_t>(i * kSide + j)] != a[static_cast<std::size_t>(j * kSide + i)];
      }
    }
    EXPECT_EQ(wrong, 0) << name << ": elements of the transpose out of place";
  }
}

// Transposes of 4-byte words move 4 x 4 blocks (tensor_kernels.hpp transpose_4x4_words) and the rows and
// columns of a tile past the last whole block one by one: every word where it belongs, bit for bit, for
// int32 and for float32 words that are NaNs with payloads, of a batch of matrices whose sides are no multiple
// of 4 (the last tile's width neither), on each host backend.
TEST(HostSplitOps, TransposesOfFourByteWordsMoveEveryWordInBlocksAndAtTheEdges) {
  const std::int64_t batch = 2, rows = 70, cols = 133, n = batch * rows * cols;
  std::vector<std::int32_t> words(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    words[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(0x7fc00000 + i);
  std::vector<float> nans(words.size());
  std::memcpy(nans.data(), words.data(), words.size() * 4);
  for (const std::string& name : host_backends()) {
    BackendScope scope(name);
    const std::vector<std::int64_t> perm{0, 2, 1};
    const std::vector<std::int32_t> t =
        ops::to_host<std::int32_t>(ops::transpose(ops::from_data(words, {batch, rows, cols}), perm));
    const std::vector<float> f =
        ops::to_host<float>(ops::transpose(ops::from_data(nans, {batch, rows, cols}), perm));
    std::int64_t wrong = 0;
    for (std::int64_t b = 0; b < batch; ++b) {
      for (std::int64_t i = 0; i < cols; ++i) {
        for (std::int64_t j = 0; j < rows; ++j) {
          const auto at = static_cast<std::size_t>((b * cols + i) * rows + j);
          const auto from = static_cast<std::size_t>((b * rows + j) * cols + i);
          wrong += t[at] != words[from];
          wrong += std::memcmp(&f[at], &words[from], 4) != 0;
        }
      }
    }
    EXPECT_EQ(wrong, 0) << name << ": words of the transposes out of place or changed";
  }
}

}  // namespace
}  // namespace ember
