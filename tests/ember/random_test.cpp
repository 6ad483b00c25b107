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

#include "backend_support.hpp"
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

// ---- statistics helpers -----------------------------------------------------------------------------

std::vector<double> values(const Tensor& t) {
  std::vector<double> out;
  switch (t.dtype()) {
    case DType::float16:
      for (ember::half h : ops::to_host<ember::half>(t)) out.push_back(static_cast<float>(h));
      return out;
    case DType::float32:
      for (float v : ops::to_host<float>(t)) out.push_back(v);
      return out;
    case DType::float64:
      return ops::to_host<double>(t);
    case DType::int64:
      for (std::int64_t v : ops::to_host<std::int64_t>(t)) out.push_back(static_cast<double>(v));
      return out;
    default:
      ADD_FAILURE() << "unexpected dtype";
      return out;
  }
}

// Sample mean and variance within 5 standard errors of the true values.
void expect_moments(const std::vector<double>& x, double mean, double var, const std::string& what) {
  const double n = static_cast<double>(x.size());
  double m = 0.0, v = 0.0, m4 = 0.0;
  for (double e : x) m += e / n;
  for (double e : x) v += (e - m) * (e - m) / n;
  for (double e : x) m4 += std::pow(e - m, 4) / n;
  EXPECT_NEAR(m, mean, 5.0 * std::sqrt(var / n)) << what;
  EXPECT_NEAR(v, var, 5.0 * std::sqrt(std::max(m4 - v * v, 1e-300) / n)) << what;
}

// Kolmogorov-Smirnov: sqrt(n) D below 1.95 (p = 0.001) against the exact continuous CDF.
template <class Cdf>
void expect_ks(std::vector<double> x, Cdf cdf, const std::string& what) {
  std::sort(x.begin(), x.end());
  const double n = static_cast<double>(x.size());
  double d = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = cdf(x[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  EXPECT_LT(std::sqrt(n) * d, 1.95) << what;
}

// Pearson chi-square over cells with expected counts n * probs; below the 0.999 quantile (Wilson-Hilferty).
void expect_chi_square(const std::vector<double>& observed, const std::vector<double>& probs, double n,
                       const std::string& what) {
  double chi2 = 0.0;
  for (std::size_t c = 0; c < observed.size(); ++c) {
    const double e = n * probs[c];
    chi2 += (observed[c] - e) * (observed[c] - e) / e;
  }
  const double df = static_cast<double>(observed.size() - 1), h = 2.0 / (9.0 * df);
  EXPECT_LT(chi2, df * std::pow(1.0 - h + 3.0902 * std::sqrt(h), 3)) << what << " (" << df << " dof)";
}

// Regularized lower incomplete gamma P(a, x): series below a + 1, Lentz's continued fraction above.
double gamma_p(double a, double x) {
  if (x <= 0.0) return 0.0;
  const double log_front = -x + a * std::log(x) - std::lgamma(a);
  if (x < a + 1.0) {
    double ap = a, del = 1.0 / a, sum = del;
    while (std::abs(del) > std::abs(sum) * 1e-16) sum += (del *= x / ++ap);
    return sum * std::exp(log_front);
  }
  const double tiny = 1e-300;
  double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    d = std::abs(d) < tiny ? tiny : d;
    c = b + an / c;
    c = std::abs(c) < tiny ? tiny : c;
    d = 1.0 / d;
    h *= d * c;
    if (std::abs(d * c - 1.0) < 1e-16) break;
  }
  return 1.0 - std::exp(log_front) * h;
}

std::string label(const char* dist, DType dtype, double param) {
  return std::string(dist) + " " + ops::dtype_name(dtype) + " param " + std::to_string(param);
}

template <class T>
bool same_bytes(const Tensor& a, const Tensor& b) {
  const std::vector<T> x = ops::to_host<T>(a), y = ops::to_host<T>(b);
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

class Random : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { EMBER_REQUIRE_BACKEND(GetParam()); }
  ember::BackendScope scope_{GetParam()};
};

constexpr std::int64_t kN = 100000;

TEST_P(Random, UniformMomentsAndKS) {
  for (DType dtype : {DType::float32, DType::float64}) {
    ops::set_seed(11);
    const std::vector<double> x = values(ops::random_uniform({kN}, -2.0, 3.0, dtype));
    EXPECT_GE(*std::min_element(x.begin(), x.end()), -2.0);
    EXPECT_LT(*std::max_element(x.begin(), x.end()), 3.0);
    expect_moments(x, 0.5, 25.0 / 12.0, label("uniform", dtype, 5));
    expect_ks(
        x, [](double v) { return (v + 2.0) / 5.0; }, label("uniform", dtype, 5));
  }
  const std::vector<double> h = values(ops::random_uniform({1000}, 0.0, 1.0, DType::float16));
  EXPECT_GE(*std::min_element(h.begin(), h.end()), 0.0);
  EXPECT_LT(*std::max_element(h.begin(), h.end()), 1.0);
}

// The interval is half-open in the output dtype too. Regression: a float32 draw above 1 - 2^-12 rounded to
// float16 1.0 (about 1 in 4096 elements for [0, 1)); a narrow interval rounded to high in float32.
TEST_P(Random, UniformNeverReturnsHigh) {
  ops::set_seed(5);
  const std::vector<double> h = values(ops::random_uniform({1 << 16}, 0.0, 1.0, DType::float16));
  EXPECT_GE(*std::min_element(h.begin(), h.end()), 0.0);
  EXPECT_EQ(*std::max_element(h.begin(), h.end()), 1.0 - 0x1p-11);  // the largest float16 below 1
  const std::vector<double> g = values(ops::random_uniform({1 << 12}, -3.0, 2048.0, DType::float16));
  EXPECT_LT(*std::max_element(g.begin(), g.end()), 2048.0);
  // [1, 1 + 2^-22): float32 has two values inside, and low * (1 - u) + high * u rounds up to high often.
  const std::vector<double> f = values(ops::random_uniform({1 << 12}, 1.0, 1.0 + 0x1p-22, DType::float32));
  EXPECT_EQ(*std::min_element(f.begin(), f.end()), 1.0);
  EXPECT_EQ(*std::max_element(f.begin(), f.end()), 1.0 + 0x1p-23);
  const std::vector<double> d = values(ops::random_uniform({1 << 12}, 1.0, 1.0 + 0x1p-51, DType::float64));
  EXPECT_EQ(*std::max_element(d.begin(), d.end()), 1.0 + 0x1p-52);
  // A high above float16's range caps at its largest finite value; low == high gives low.
  const std::vector<double> big = values(ops::random_uniform({256}, 65000.0, 1e6, DType::float16));
  EXPECT_LE(*std::max_element(big.begin(), big.end()), 65504.0);
  for (double v : values(ops::random_uniform({8}, 0.5, 0.5, DType::float16))) EXPECT_EQ(v, 0.5);
}

TEST_P(Random, NormalMomentsAndKS) {
  for (DType dtype : {DType::float32, DType::float64}) {
    ops::set_seed(12);
    const std::vector<double> x = values(ops::random_normal({kN}, 1.5, 2.0, dtype));
    expect_moments(x, 1.5, 4.0, label("normal", dtype, 2));
    expect_ks(
        x, [](double v) { return 0.5 * std::erfc(-(v - 1.5) / (2.0 * std::numbers::sqrt2)); },
        label("normal", dtype, 2));
  }
}

TEST_P(Random, ExponentialMomentsAndKS) {
  for (DType dtype : {DType::float32, DType::float64}) {
    ops::set_seed(13);
    const std::vector<double> x = values(ops::random_exponential({kN}, 0.5, dtype));
    for (double v : x) ASSERT_FALSE(std::signbit(v));
    expect_moments(x, 0.5, 0.25, label("exponential", dtype, 0.5));
    expect_ks(
        x, [](double v) { return -std::expm1(-v / 0.5); }, label("exponential", dtype, 0.5));
  }
}

TEST_P(Random, GammaMomentsAndKS) {
  for (DType dtype : {DType::float32, DType::float64}) {
    for (double alpha : {0.25, 1.0, 3.7, 40.0}) {
      ops::set_seed(14);
      const std::vector<double> x = values(ops::random_gamma({kN}, alpha, 2.0, dtype));
      expect_moments(x, 2.0 * alpha, 4.0 * alpha, label("gamma", dtype, alpha));
      expect_ks(
          x, [alpha](double v) { return gamma_p(alpha, v / 2.0); }, label("gamma", dtype, alpha));
    }
  }
}

TEST_P(Random, BernoulliChiSquare) {
  for (double p : {0.3, 0.9}) {
    ops::set_seed(15);
    const std::vector<bool> x = ops::to_host<bool>(ops::random_bernoulli({kN}, p));
    const double ones = static_cast<double>(std::count(x.begin(), x.end(), true));
    expect_chi_square({kN - ones, ones}, {1.0 - p, p}, kN, label("bernoulli", DType::bool_, p));
  }
  const std::vector<bool> never = ops::to_host<bool>(ops::random_bernoulli({1000}, 0.0));
  const std::vector<bool> always = ops::to_host<bool>(ops::random_bernoulli({1000}, 1.0));
  EXPECT_EQ(std::count(never.begin(), never.end(), true), 0);
  EXPECT_EQ(std::count(always.begin(), always.end(), true), 1000);
}

TEST_P(Random, PoissonMomentsAndChiSquare) {
  for (double lam : {0.5, 4.0, 9.5, 10.0, 37.5, 1000.0}) {
    ops::set_seed(16);
    const std::vector<double> x = values(ops::random_poisson({kN}, lam));
    expect_moments(x, lam, lam, label("poisson", DType::int64, lam));
    // Cells k with expected count >= 5 (a contiguous range); the tails are lumped into the end cells.
    auto pmf = [lam](double k) { return std::exp(k * std::log(lam) - lam - std::lgamma(k + 1.0)); };
    std::vector<double> ks, probs;
    for (double k = 0.0; k < lam + 20.0 * std::sqrt(lam) + 20.0; k += 1.0) {
      if (kN * pmf(k) >= 5.0) ks.push_back(k), probs.push_back(pmf(k));
    }
    double below = 0.0;
    for (double k = 0.0; k < ks.front(); k += 1.0) below += pmf(k);
    probs.front() += below;
    double in_cells = 0.0;
    for (double pr : probs) in_cells += pr;
    probs.back() += 1.0 - in_cells;
    std::vector<double> observed(ks.size(), 0.0);
    for (double v : x)
      observed[static_cast<std::size_t>(std::clamp(v, ks.front(), ks.back()) - ks.front())] += 1;
    expect_chi_square(observed, probs, kN, label("poisson", DType::int64, lam));
  }
  const std::vector<double> zeros = values(ops::random_poisson({100}, 0.0));
  EXPECT_EQ(std::count(zeros.begin(), zeros.end(), 0.0), 100);
}

TEST_P(Random, CategoricalChiSquare) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> logits = {std::log(0.1), std::log(0.2), std::log(0.3), std::log(0.4),
                                      0.0,           -inf,          0.0,           std::log(2.0)};
  const std::vector<std::vector<double>> probs = {{0.1, 0.2, 0.3, 0.4}, {0.25, 0.0, 0.25, 0.5}};
  for (DType dtype : {DType::float32, DType::float64}) {
    ops::set_seed(17);
    const Tensor l = dtype == DType::float64
                         ? ops::from_data(logits, {2, 4})
                         : ops::from_data(std::vector<float>(logits.begin(), logits.end()), {2, 4});
    const Tensor out = ops::random_categorical(l, kN / 2);
    ASSERT_EQ(out.shape(), (ember::Shape{2, kN / 2}));
    const std::vector<std::int64_t> x = ops::to_host<std::int64_t>(out);
    for (int r = 0; r < 2; ++r) {
      std::vector<double> observed, cell_probs;
      for (std::int64_t k = 0; k < 4; ++k) {
        const auto count = std::count(x.begin() + r * kN / 2, x.begin() + (r + 1) * kN / 2, k);
        if (probs[r][k] == 0.0) {
          EXPECT_EQ(count, 0) << "a -inf logit was sampled";
        } else {
          observed.push_back(static_cast<double>(count)), cell_probs.push_back(probs[r][k]);
        }
      }
      expect_chi_square(observed, cell_probs, kN / 2.0, label("categorical", dtype, r));
    }
  }
  EXPECT_EQ(ops::random_categorical(ops::from_data(std::vector<float>{0.f, 1.f}, {2}), 7).shape(),
            (ember::Shape{7}));
}

TEST_P(Random, PermutationIsUniform) {
  ops::set_seed(18);
  std::map<std::vector<std::int64_t>, double> orders;
  const int calls = 12000;
  for (int c = 0; c < calls; ++c) orders[ops::to_host<std::int64_t>(ops::random_permutation(3))] += 1;
  ASSERT_EQ(orders.size(), 6u);
  std::vector<double> observed;
  for (const auto& [order, count] : orders) observed.push_back(count);
  expect_chi_square(observed, std::vector<double>(6, 1.0 / 6.0), calls, "permutation of 3");
  std::vector<std::int64_t> big = ops::to_host<std::int64_t>(ops::random_permutation(1000));
  std::sort(big.begin(), big.end());
  for (std::int64_t i = 0; i < 1000; ++i) ASSERT_EQ(big[static_cast<std::size_t>(i)], i);
  EXPECT_EQ(ops::random_permutation(0).size(), 0);
}

TEST_P(Random, ShuffleGathersRowsByPermutation) {
  const std::vector<std::int32_t> data = {0, 1, 10, 11, 20, 21, 30, 31, 40, 41, 50, 51};
  const Tensor x = ops::from_data(data, {6, 2});
  ops::set_seed(19);
  const std::vector<std::int64_t> perm = ops::to_host<std::int64_t>(ops::random_permutation(6));
  ops::set_seed(19);
  const Tensor y = ops::shuffle(x);
  ASSERT_EQ(y.shape(), x.shape());
  const std::vector<std::int32_t> got = ops::to_host<std::int32_t>(y);
  for (std::size_t r = 0; r < 6; ++r) {
    for (std::size_t c = 0; c < 2; ++c)
      EXPECT_EQ(got[2 * r + c], data[2 * static_cast<std::size_t>(perm[r]) + c]);
  }
}

TEST_P(Random, SameSeedSameBytesAndCounterAdvances) {
  ops::set_seed(123);
  EXPECT_EQ(ops::get_seed(), 123u);
  EXPECT_EQ(ops::get_random_counter(), 0u);
  const Tensor a = ops::random_normal({257}, 0.0, 1.0, DType::float64);
  EXPECT_EQ(ops::get_random_counter(), 1u);
  const Tensor b = ops::random_normal({257}, 0.0, 1.0, DType::float64);
  ops::set_seed(123);
  const Tensor a2 = ops::random_normal({257}, 0.0, 1.0, DType::float64);
  const Tensor b2 = ops::random_normal({257}, 0.0, 1.0, DType::float64);
  EXPECT_TRUE(same_bytes<double>(a, a2));
  EXPECT_TRUE(same_bytes<double>(b, b2));
  const std::vector<double> va = ops::to_host<double>(a), vb = ops::to_host<double>(b);
  std::size_t equal = 0;
  for (std::size_t i = 0; i < va.size(); ++i) equal += va[i] == vb[i];
  EXPECT_EQ(equal, 0u) << "a new counter must give new values";
  ops::set_seed(124);
  EXPECT_FALSE(same_bytes<double>(a, ops::random_normal({257}, 0.0, 1.0, DType::float64)));
}

TEST_P(Random, ElementDoesNotDependOnShape) {
  ops::set_seed(9);
  const Tensor n1 = ops::random_normal({1000});
  const Tensor g1 = ops::random_gamma({1000}, 0.7, 1.0, DType::float64);
  const Tensor p1 = ops::random_poisson({1000}, 25.0);
  ops::set_seed(9);
  EXPECT_TRUE(same_bytes<float>(n1, ops::random_normal({10, 100}).view({1000})));
  EXPECT_TRUE(same_bytes<double>(g1, ops::random_gamma({10, 100}, 0.7, 1.0, DType::float64).view({1000})));
  EXPECT_TRUE(same_bytes<std::int64_t>(p1, ops::random_poisson({10, 100}, 25.0).view({1000})));
}

// The backend must produce exactly the shared samplers' bits for (seed, counter, flat index).
TEST_P(Random, MatchesSharedSamplersBitForBit) {
  const std::uint64_t seed = 0xfeedfacecafebeefull;
  ops::set_seed(seed);
  const std::uint32_t c = ops::get_random_counter();
  const std::vector<float> n32 = ops::to_host<float>(ops::random_normal({3, 67}, 1.0, 3.0));
  const std::vector<double> g64 = ops::to_host<double>(ops::random_gamma({201}, 0.4, 2.0, DType::float64));
  const std::vector<ember::half> u16 =
      ops::to_host<ember::half>(ops::random_uniform({201}, -1.0, 1.0, DType::float16));
  const std::vector<std::int64_t> p = ops::to_host<std::int64_t>(ops::random_poisson({201}, 12.5));
  const std::vector<bool> b = ops::to_host<bool>(ops::random_bernoulli({201}, 0.25));
  const std::vector<double> e64 = ops::to_host<double>(ops::random_exponential({201}, 3.0, DType::float64));
  for (ember_u64 i = 0; i < 201; ++i) {
    const float n = ember_sample_normal_f32(seed, c, i, 1.0f, 3.0f);
    const double g = ember_sample_gamma_f64(seed, c + 1, i, 0.4, 2.0);
    const float u = ember_sample_uniform_f32(seed, c + 2, i, -1.0f, 1.0f);
    ASSERT_EQ(std::memcmp(&n32[i], &n, sizeof n), 0) << i;
    ASSERT_EQ(std::memcmp(&g64[i], &g, sizeof g), 0) << i;
    ASSERT_EQ(u16[i].bits, ember::half(ember_below_f32(u, 1.0f - 0x1p-11f)).bits) << i;
    ASSERT_EQ(p[i], ember_sample_poisson(seed, c + 3, i, 12.5)) << i;
    ASSERT_EQ(b[i], ember_sample_bernoulli(seed, c + 4, i, ember_bernoulli_threshold(0.25)) != 0) << i;
    const double e = ember_sample_exponential_f64(seed, c + 5, i, 3.0);
    ASSERT_EQ(std::memcmp(&e64[i], &e, sizeof e), 0) << i;
  }
}

// Float16/float32 uniform, normal, exponential and gamma fills draw 16 elements at a time on OpenCL
// (kernels/random.cl's block kernels; gamma's first attempt from the block's words, its rejections and
// shapes below 1 per element), and float32 uniform, normal, exponential and gamma fills by chunks of 256
// elements on the host (host/vector_kernels.cpp; on every core from 256K elements): every length around a
// block's or chunk's edge, the last one partial or full, gives the shared samplers' bits, element by element.
TEST_P(Random, BlockFillsMatchSharedSamplersAtEveryLength) {
  const std::uint64_t seed = 0x0123456789abcdefull;
  for (const std::int64_t n : {1, 2, 15, 16, 17, 31, 32, 33, 255, 256, 257, 513, 1000, 4099, 70001, 300001}) {
    ops::set_seed(seed);
    const std::uint32_t c = ops::get_random_counter();
    const std::vector<float> u32 = ops::to_host<float>(ops::random_uniform({n}, -2.0, 5.0));
    const std::vector<float> n32 = ops::to_host<float>(ops::random_normal({n}, 0.5, 2.0));
    const std::vector<ember::half> u16 =
        ops::to_host<ember::half>(ops::random_uniform({n}, 0.0, 1.0, DType::float16));
    const std::vector<ember::half> n16 =
        ops::to_host<ember::half>(ops::random_normal({n}, -1.0, 0.25, DType::float16));
    const std::vector<float> e32 = ops::to_host<float>(ops::random_exponential({n}, 1.5));
    const std::vector<ember::half> e16 =
        ops::to_host<ember::half>(ops::random_exponential({n}, 0.75, DType::float16));
    const std::vector<float> g32 = ops::to_host<float>(ops::random_gamma({n}, 2.5, 1.5));
    const std::vector<float> gs32 = ops::to_host<float>(ops::random_gamma({n}, 0.4, 2.0));  // boosted
    const std::vector<ember::half> g16 =
        ops::to_host<ember::half>(ops::random_gamma({n}, 1.0, 0.5, DType::float16));
    ASSERT_EQ(u32.size(), static_cast<std::size_t>(n));
    for (ember_u64 i = 0; i < static_cast<ember_u64>(n); ++i) {
      const float u =
          ember_below_f32(ember_sample_uniform_f32(seed, c, i, -2.0f, 5.0f), std::nextafter(5.0f, 0.0f));
      const float g = ember_sample_normal_f32(seed, c + 1, i, 0.5f, 2.0f);
      ASSERT_EQ(std::memcmp(&u32[i], &u, sizeof u), 0) << "uniform n " << n << " i " << i;
      ASSERT_EQ(std::memcmp(&n32[i], &g, sizeof g), 0) << "normal n " << n << " i " << i;
      const float h = ember_below_f32(ember_sample_uniform_f32(seed, c + 2, i, 0.0f, 1.0f), 1.0f - 0x1p-11f);
      ASSERT_EQ(u16[i].bits, ember::half(h).bits) << "uniform float16 n " << n << " i " << i;
      ASSERT_EQ(n16[i].bits, ember::half(ember_sample_normal_f32(seed, c + 3, i, -1.0f, 0.25f)).bits)
          << "normal float16 n " << n << " i " << i;
      const float e = ember_sample_exponential_f32(seed, c + 4, i, 1.5f);
      ASSERT_EQ(std::memcmp(&e32[i], &e, sizeof e), 0) << "exponential n " << n << " i " << i;
      ASSERT_EQ(e16[i].bits, ember::half(ember_sample_exponential_f32(seed, c + 5, i, 0.75f)).bits)
          << "exponential float16 n " << n << " i " << i;
      const float ga = ember_sample_gamma_f32(seed, c + 6, i, 2.5f, 1.5f);
      ASSERT_EQ(std::memcmp(&g32[i], &ga, sizeof ga), 0) << "gamma n " << n << " i " << i;
      const float gs = ember_sample_gamma_f32(seed, c + 7, i, 0.4f, 2.0f);
      ASSERT_EQ(std::memcmp(&gs32[i], &gs, sizeof gs), 0) << "gamma below 1 n " << n << " i " << i;
      ASSERT_EQ(g16[i].bits, ember::half(ember_sample_gamma_f32(seed, c + 8, i, 1.0f, 0.5f)).bits)
          << "gamma float16 n " << n << " i " << i;
    }
  }
  // Float32 gamma at the shapes that take the host's rejection and boost passes most or at the ends of the
  // range: shape 1 (d = 2/3, the most rejections), one above and one below it, an alpha that underflows to
  // FLT_MIN in float and ones that round to 1e30 and to +inf.
  for (const double alpha : {1.0, 1.0000001, 0.9999999, 1e-300, 1e30, 1e300}) {
    ops::set_seed(seed);
    const std::uint32_t c = ops::get_random_counter();
    const std::int64_t n = 4099;
    const std::vector<float> g32 = ops::to_host<float>(ops::random_gamma({n}, alpha, 0.5));
    for (ember_u64 i = 0; i < static_cast<ember_u64>(n); ++i) {
      const float a32 = alpha > 1e39 ? std::numeric_limits<float>::infinity() : static_cast<float>(alpha);
      const float g = ember_sample_gamma_f32(seed, c, i, a32, 0.5f);
      ASSERT_EQ(std::memcmp(&g32[i], &g, sizeof g), 0) << "gamma alpha " << alpha << " i " << i;
    }
  }
}

// Parameters at the ends of their ranges give defined, sensible values (the suite runs under UBSan).
TEST_P(Random, ExtremeParametersStayDefined) {
  ops::set_seed(20);
  for (DType dtype : {DType::float32, DType::float64}) {
    for (double v : values(ops::random_gamma({500}, 1e-300, 1.0, dtype)))
      ASSERT_TRUE(v >= 0.0 && std::isfinite(v));
    for (double v : values(ops::random_gamma({500}, 1e300, 1.0, dtype))) ASSERT_GT(v, 1e37);
  }
  const std::vector<double> big = values(ops::random_poisson({2000}, 1e15));
  for (double v : big) ASSERT_NEAR(v, 1e15, 6.0 * std::sqrt(1e15));
  const std::vector<double> top = values(ops::random_poisson({50}, EMBER_POISSON_LAM_MAX));
  for (double v : top) ASSERT_GT(v, 9e18);
  EXPECT_THROW(ops::random_poisson({3}, 1e19), ember::ValueError);
  EXPECT_EQ(ops::random_categorical(ops::from_data(std::vector<float>{0.f, 1.f}, {1, 2}), 0).shape(),
            (ember::Shape{1, 0}));
}

TEST_P(Random, ValidatesParameters) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(ops::random_bernoulli({3}, 1.5), ember::ValueError);
  EXPECT_THROW(ops::random_bernoulli({3}, -0.1), ember::ValueError);
  EXPECT_THROW(ops::random_bernoulli({3}, nan), ember::ValueError);
  EXPECT_THROW(ops::random_gamma({3}, 0.0), ember::ValueError);
  EXPECT_THROW(ops::random_gamma({3}, nan), ember::ValueError);
  EXPECT_THROW(ops::random_gamma({3}, 1.0, -1.0), ember::ValueError);
  EXPECT_THROW(ops::random_exponential({3}, 0.0), ember::ValueError);
  EXPECT_THROW(ops::random_normal({3}, 0.0, -1.0), ember::ValueError);
  EXPECT_THROW(ops::random_normal({3}, nan, 1.0), ember::ValueError);
  EXPECT_THROW(ops::random_uniform({3}, nan, 1.0), ember::ValueError);
  EXPECT_THROW(ops::random_poisson({3}, -1.0), ember::ValueError);
  EXPECT_THROW(ops::random_poisson({3}, nan), ember::ValueError);
  EXPECT_THROW(ops::random_permutation(-1), ember::ValueError);
  EXPECT_THROW(ops::random_uniform({3}, 0.0, 1.0, DType::int32), ember::DTypeError);
  EXPECT_THROW(ops::random_normal({3}, 0.0, 1.0, DType::bool_), ember::DTypeError);
  EXPECT_THROW(ops::random_gamma({3}, 1.0, 1.0, DType::int64), ember::DTypeError);
  const Tensor logits = ops::from_data(std::vector<float>(8, 0.0f), {2, 2, 2});
  EXPECT_THROW(ops::random_categorical(logits, 3), ember::ShapeError);
  EXPECT_THROW(ops::random_categorical(ops::from_data(std::vector<float>{}, {2, 0}), 3), ember::ShapeError);
  EXPECT_THROW(ops::random_categorical(ops::from_data(std::vector<std::int32_t>{1, 2}, {2}), 3),
               ember::DTypeError);
  EXPECT_THROW(ops::random_categorical(ops::from_data(std::vector<float>{1, 2}, {2}), -1), ember::ValueError);
  EXPECT_THROW(ops::shuffle(ops::from_data(std::vector<float>{1}, {})), ember::ShapeError);
}

INSTANTIATE_TEST_SUITE_P(Backends, Random, ::testing::ValuesIn(ember::registered_backends()),
                         ember::test::backend_param_name);

}  // namespace
