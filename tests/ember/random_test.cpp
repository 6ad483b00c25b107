// Random sampling: Philox known answers, accuracy of the shared polynomial math, statistics of every
// distribution (moments and Kolmogorov-Smirnov / chi-square against exact distributions), reproducibility
// and parameter validation. Sampling tests run on every registered backend and also check that each backend
// reproduces the shared samplers of ember/random/distributions.h bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <numbers>
#include <vector>

#include "ember/ember.hpp"
#include "ember/random/distributions.h"

namespace {

using ember::DType;
using ember::Tensor;
namespace ops = ember::ops;

// ---- Philox and the polynomial math (backend independent) --------------------------------------------

ember_rng_block block(ember_u32 a, ember_u32 b, ember_u32 c, ember_u32 d) {
  return ember_rng_block{{a, b, c, d}};
}

// Random123's kat_vectors for philox4x32_10.
TEST(Philox, KnownAnswerVectors) {
  struct Kat {
    ember_rng_block ctr;
    ember_u32 k0, k1;
    ember_rng_block expected;
  };
  const Kat kats[] = {
      {block(0, 0, 0, 0), 0, 0, block(0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8)},
      {block(~0u, ~0u, ~0u, ~0u), ~0u, ~0u, block(0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd)},
      {block(0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), 0xa4093822, 0x299f31d0,
       block(0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1)},
  };
  for (const Kat& kat : kats) {
    const ember_rng_block out = ember_philox4x32_10(kat.ctr, kat.k0, kat.k1);
    for (int w = 0; w < 4; ++w) EXPECT_EQ(out.w[w], kat.expected.w[w]) << "word " << w;
  }
}

TEST(Philox, StreamLayoutAndUniformConversions) {
  const ember_u64 seed = 0x0123456789abcdefull, i = 0xfedcba9876543210ull;
  const ember_rng_block direct =
      ember_philox4x32_10(block(0x76543210, 0xfedcba98, 5, 9), 0x89abcdef, 0x01234567);
  const ember_rng_block drawn = ember_rng_draw(seed, 9, i, 5);
  for (int w = 0; w < 4; ++w) EXPECT_EQ(drawn.w[w], direct.w[w]);
  EXPECT_EQ(ember_u01_f32(0xffffffffu), 1.0f - 0x1p-24f);
  EXPECT_EQ(ember_u01_f32(0x000000ffu), 0.0f);
  EXPECT_EQ(ember_u01_open_f32(0x000000ffu), 0x1p-24f);
  EXPECT_EQ(ember_u01_open_f32(0xffffffffu), 1.0f);
  EXPECT_LT(ember_u01_mid_f32(0xffffffffu), 1.0f);
  EXPECT_GT(ember_u01_mid_f32(0u), 0.0f);
  EXPECT_EQ(ember_u01_f64(0xffffffffu, 0xffffffffu), 1.0 - 0x1p-53);
  EXPECT_EQ(ember_u01_open_f64(0u, 0u), 0x1p-53);
  EXPECT_LT(ember_u01_mid_f64(0xffffffffu, 0xffffffffu), 1.0);
}

double ulp_f32(double ref) {
  return std::ldexp(1.0, std::max(std::ilogb(ref), -126) - 23);
}
long double ulp_f64(long double ref) {
  return std::ldexp(1.0L, std::max(std::ilogb(ref), -1022) - 52);
}

// Max ulp error of f against ref over xs; ref is evaluated in higher precision.
template <class X, class F, class R>
double max_ulp_f32(const std::vector<X>& xs, F f, R ref) {
  double worst = 0.0;
  for (X x : xs) {
    const double r = ref(x), got = f(x);
    worst = std::max(worst, r == got ? 0.0 : std::abs(got - r) / ulp_f32(r));
  }
  return worst;
}
template <class F, class R>
double max_ulp_f64(const std::vector<double>& xs, F f, R ref) {
  double worst = 0.0;
  for (double x : xs) {
    const long double r = ref(x), got = f(x);
    worst = std::max(worst, r == got ? 0.0 : static_cast<double>(std::abs(got - r) / ulp_f64(r)));
  }
  return worst;
}

// n points spread evenly through [lo, hi] plus n random ones (fixed generator).
template <class T>
std::vector<T> dense(T lo, T hi, int n) {
  std::vector<T> xs;
  for (int k = 0; k <= n; ++k) xs.push_back(lo + (hi - lo) * static_cast<T>(k) / static_cast<T>(n));
  for (int k = 0; k < n; ++k) {
    const ember_rng_block b = ember_rng_draw(42, 0, static_cast<ember_u64>(k), 0);
    xs.push_back(lo + (hi - lo) * static_cast<T>(ember_u01_f64(b.w[0], b.w[1])));
  }
  return xs;
}

// Log-spaced positive values 2^e * m across the whole exponent range, subnormals included.
template <class T>
std::vector<T> log_spaced(int emin, int emax, int per_binade) {
  std::vector<T> xs;
  for (int e = emin; e <= emax; ++e) {
    for (int k = 0; k < per_binade; ++k) xs.push_back(std::ldexp(T(1) + T(k) / T(per_binade), e));
  }
  return xs;
}

constexpr long double kPiL = 3.141592653589793238462643383279502884L;

// cos/sin(2 pi u) in long double after the same exact quadrant reduction the library uses.
long double cossin_2pi_ref(double u, bool want_sin) {
  const double t = 4.0 * u, q = std::floor(t + 0.5);
  const long double a = static_cast<long double>(t - q) * (kPiL / 2);
  const int quadrant = (static_cast<int>(q) + (want_sin ? 3 : 0)) & 3;
  const long double c = std::cos(a), s = std::sin(a);
  return quadrant == 0 ? c : quadrant == 1 ? -s : quadrant == 2 ? -c : s;
}

TEST(RandomMath, Float32WithinOneUlpOfLibm) {
  std::vector<float> logs = log_spaced<float>(-149, 127, 4096);
  for (float x = 0.5f; x < 2.0f; x = std::nextafter(x, 4.0f) + 0x1p-18f) logs.push_back(x);
  const double log_err = max_ulp_f32(logs, ember_log_f32, [](float x) { return std::log(double(x)); });
  const std::vector<float> exps = dense<float>(-103.9f, 88.7f, 1 << 20);
  const double exp_err = max_ulp_f32(exps, ember_exp_f32, [](float x) { return std::exp(double(x)); });
  std::vector<float> us;
  for (ember_u32 m = 0; m < (1u << 24); m += 7) us.push_back(float(m) * 0x1p-24f);
  const double cos_err =
      max_ulp_f32(us, ember_cos_2pi_f32, [](float u) { return double(cossin_2pi_ref(u, false)); });
  const double sin_err =
      max_ulp_f32(us, ember_sin_2pi_f32, [](float u) { return double(cossin_2pi_ref(u, true)); });
  std::printf("float32 max ulp: log %.3f exp %.3f cos2pi %.3f sin2pi %.3f\n", log_err, exp_err, cos_err,
              sin_err);
  EXPECT_LE(log_err, 1.0);
  EXPECT_LE(exp_err, 1.0);
  EXPECT_LE(cos_err, 2.0);
  EXPECT_LE(sin_err, 2.0);
}

TEST(RandomMath, Float64WithinOneUlpOfLongDouble) {
  if (std::numeric_limits<long double>::digits < 64) GTEST_SKIP() << "long double is no wider than double";
  std::vector<double> logs = log_spaced<double>(-1074, 1023, 512);
  const std::vector<double> near_one = dense<double>(0.5, 2.0, 1 << 19);
  logs.insert(logs.end(), near_one.begin(), near_one.end());
  const double log_err = max_ulp_f64(logs, ember_log_f64, [](double x) { return std::log((long double)x); });
  const std::vector<double> exps = dense<double>(-745.0, 709.7, 1 << 20);
  const double exp_err = max_ulp_f64(exps, ember_exp_f64, [](double x) { return std::exp((long double)x); });
  const std::vector<double> us = dense<double>(0.0, 1.0 - 0x1p-53, 1 << 20);
  const double cos_err =
      max_ulp_f64(us, ember_cos_2pi_f64, [](double u) { return cossin_2pi_ref(u, false); });
  const double sin_err = max_ulp_f64(us, ember_sin_2pi_f64, [](double u) { return cossin_2pi_ref(u, true); });
  std::vector<double> ks;
  for (int k = 0; k < 200000; k += 7) ks.push_back(k);
  const double lf_err = max_ulp_f64(
      ks, [](double k) { return ember_log_factorial_f64(static_cast<ember_i64>(k)); },
      [](double k) { return std::lgamma((long double)k + 1.0L); });
  std::printf("float64 max ulp: log %.3f exp %.3f cos2pi %.3f sin2pi %.3f log_factorial %.3f\n", log_err,
              exp_err, cos_err, sin_err, lf_err);
  EXPECT_LE(log_err, 1.0);
  EXPECT_LE(exp_err, 1.0);
  EXPECT_LE(cos_err, 2.0);
  EXPECT_LE(sin_err, 2.0);
  EXPECT_LE(lf_err, 8.0);  // Stirling terms summed in double
}

TEST(RandomMath, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(ember_log_f32(0.0f), -inf);
  EXPECT_EQ(ember_log_f32(inf), inf);
  EXPECT_TRUE(std::isnan(ember_log_f32(-1.0f)));
  EXPECT_EQ(ember_log_f32(1.0f), 0.0f);
  EXPECT_EQ(ember_exp_f32(-inf), 0.0f);
  EXPECT_EQ(ember_exp_f32(100.0f), inf);
  EXPECT_EQ(ember_exp_f32(0.0f), 1.0f);
  EXPECT_EQ(ember_log_f64(0.0), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(ember_log_f64(-2.0)));
  EXPECT_EQ(ember_exp_f64(-std::numeric_limits<double>::infinity()), 0.0);
  EXPECT_EQ(ember_exp_f64(1000.0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(ember_cos_2pi_f64(0.0), 1.0);
  EXPECT_EQ(ember_sin_2pi_f64(0.25), 1.0);
  EXPECT_EQ(ember_bernoulli_threshold(0.0), 0u);
  EXPECT_EQ(ember_bernoulli_threshold(1.0), ember_u64{1} << 53);
  EXPECT_EQ(ember_bernoulli_threshold(0.5), ember_u64{1} << 52);
}

}  // namespace
