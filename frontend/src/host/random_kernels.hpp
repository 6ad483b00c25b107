// Random sampling shared by every host backend: plain loops over the flat output index calling the shared
// samplers of ember/random/distributions.h, so every element is a pure function of (key.seed, key.counter,
// index) and matches every other backend bit for bit. Include it only from sources compiled with
// -ffp-contract=off (every backend source is, see CMakeLists.txt). `backend` names the calling backend in
// error messages. Backend-agnostic: no backend library header may be included here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ember/backend/random_ops.hpp"
#include "ember/dtype.hpp"
#include "ember/error.hpp"
#include "ember/random/distributions.h"
#include "ember/tensor.hpp"
#include "host/parallel.hpp"
#include "host/scalar_semantics.hpp"
#include "host/vector_kernels.hpp"

namespace ember::host {

// out[i] = sample(i) for a floating-point out: f32(i) fills float16 (rounded once) and float32, f64(i)
// fills float64.
// Elements are independent (counter-based), so large outputs are filled on every core (host/parallel.hpp)
// with the same bits as one thread.
template <class F32, class F64>
void fill_floating(const char* backend, Tensor& out, const char* op, F32&& f32, F64&& f64) {
  const std::int64_t n = out.size();
  switch (out.dtype()) {
    case DType::float16: {
      half* p = out.data<half>();
      parallel_for(n, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) p[i] = half(f32(static_cast<ember_u64>(i)));
      });
      return;
    }
    case DType::float32: {
      float* p = out.data<float>();
      parallel_for(n, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) p[i] = f32(static_cast<ember_u64>(i));
      });
      return;
    }
    case DType::float64: {
      double* p = out.data<double>();
      parallel_for(n, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) p[i] = f64(static_cast<ember_u64>(i));
      });
      return;
    }
    default:
      throw BackendError(std::string(backend) + ": " + op + " needs a floating-point output");
  }
}

// A double parameter as the float the float32 samplers take: IEEE round to nearest, saturating to +-inf
// beyond the rounding boundary (where a plain cast would be undefined behaviour in C++).
inline float to_f32(double v) {
  constexpr double limit = 0x1.ffffffp127;  // FLT_MAX plus half an ulp
  if (v >= limit) return std::numeric_limits<float>::infinity();
  if (v <= -limit) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(v);
}

// The permutation of [0, n) given by sorting the per-element keys (ties by index).
inline std::vector<std::int64_t> permutation_of(std::int64_t n, RandomKey key) {
  std::vector<std::pair<std::uint64_t, std::int64_t>> keyed(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    keyed[static_cast<std::size_t>(i)] = {
        ember_sample_key64(key.seed, key.counter, static_cast<ember_u64>(i)), i};
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::int64_t> perm(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = keyed[i].second;
  return perm;
}

// Gumbel-max over each row of logits (R, K): out (R, S). The first maximum wins; a NaN logit never wins, and
// a row whose logits are all -inf or NaN gives 0.
template <class T>
void categorical_rows(const Tensor& logits, Tensor& out, RandomKey key) {
  const std::int64_t rows = logits.dim(0), k_count = logits.dim(1), samples = out.dim(1);
  const T* lp = logits.data<const T>();
  std::int64_t* op = out.data<std::int64_t>();
  using C = compute_t<T>;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t s = 0; s < samples; ++s) {
      const auto base = static_cast<ember_u64>((r * samples + s) * k_count);
      C best = -std::numeric_limits<C>::infinity();
      std::int64_t best_k = 0;
      for (std::int64_t k = 0; k < k_count; ++k) {
        C g;
        if constexpr (std::is_same_v<C, double>) {
          g = ember_sample_gumbel_f64(key.seed, key.counter, base + static_cast<ember_u64>(k));
        } else {
          g = ember_sample_gumbel_f32(key.seed, key.counter, base + static_cast<ember_u64>(k));
        }
        const C v = load(lp[r * k_count + k]) + g;
        if (v > best) {
          best = v;
          best_k = k;
        }
      }
      op[r * samples + s] = best_k;
    }
  }
}

// ---- op-level kernels ------------------------------------------------------------------------------------

inline void random_uniform(const char* backend, Tensor& out, double low, double high, RandomKey key) {
  const float lo32 = to_f32(low), hi32 = to_f32(high);
  const double cap = uniform_cap(low, high, out.dtype());
  const auto cap32 = static_cast<float>(cap);  // exact for float16 and float32 outputs
  if (out.dtype() == DType::float32) {         // the same samples, vectorized (host/vector_kernels.hpp)
    uniform_f32(out.data<float>(), out.size(), key.seed, key.counter, lo32, hi32, cap32);
    return;
  }
  fill_floating(
      backend, out, "random_uniform",
      [&](ember_u64 i) {
        return ember_below_f32(ember_sample_uniform_f32(key.seed, key.counter, i, lo32, hi32), cap32);
      },
      [&](ember_u64 i) {
        return ember_below_f64(ember_sample_uniform_f64(key.seed, key.counter, i, low, high), cap);
      });
}

inline void random_normal(const char* backend, Tensor& out, double mean, double stddev, RandomKey key) {
  const float m32 = to_f32(mean), s32 = to_f32(stddev);
  if (out.dtype() == DType::float32) {  // the same samples, vectorized (host/vector_kernels.hpp)
    normal_f32(out.data<float>(), out.size(), key.seed, key.counter, m32, s32);
    return;
  }
  fill_floating(
      backend, out, "random_normal",
      [&](ember_u64 i) { return ember_sample_normal_f32(key.seed, key.counter, i, m32, s32); },
      [&](ember_u64 i) { return ember_sample_normal_f64(key.seed, key.counter, i, mean, stddev); });
}

inline void random_bernoulli(Tensor& out, double p, RandomKey key) {
  const ember_u64 threshold = ember_bernoulli_threshold(p);
  bool* o = out.data<bool>();
  for (std::int64_t i = 0; i < out.size(); ++i) {
    o[i] = ember_sample_bernoulli(key.seed, key.counter, static_cast<ember_u64>(i), threshold) != 0;
  }
}

inline void random_exponential(const char* backend, Tensor& out, double scale, RandomKey key) {
  const float s32 = to_f32(scale);
  if (out.dtype() == DType::float32) {  // the same samples, vectorized (host/vector_kernels.hpp)
    exponential_f32(out.data<float>(), out.size(), key.seed, key.counter, s32);
    return;
  }
  fill_floating(
      backend, out, "random_exponential",
      [&](ember_u64 i) { return ember_sample_exponential_f32(key.seed, key.counter, i, s32); },
      [&](ember_u64 i) { return ember_sample_exponential_f64(key.seed, key.counter, i, scale); });
}

inline void random_gamma(const char* backend, Tensor& out, double alpha, double scale, RandomKey key) {
  const float a32 = to_f32(alpha), s32 = to_f32(scale);
  if (out.dtype() == DType::float32) {  // the same samples, vectorized (host/vector_kernels.hpp)
    gamma_f32(out.data<float>(), out.size(), key.seed, key.counter, a32, s32);
    return;
  }
  fill_floating(
      backend, out, "random_gamma",
      [&](ember_u64 i) { return ember_sample_gamma_f32(key.seed, key.counter, i, a32, s32); },
      [&](ember_u64 i) { return ember_sample_gamma_f64(key.seed, key.counter, i, alpha, scale); });
}

inline void random_poisson(Tensor& out, double lam, RandomKey key) {
  std::int64_t* o = out.data<std::int64_t>();
  for (std::int64_t i = 0; i < out.size(); ++i) {
    o[i] = ember_sample_poisson(key.seed, key.counter, static_cast<ember_u64>(i), lam);
  }
}

inline void random_categorical(const char* backend, const Tensor& logits, Tensor& out, RandomKey key) {
  switch (logits.dtype()) {
    case DType::float16:
      return categorical_rows<half>(logits, out, key);
    case DType::float32:
      return categorical_rows<float>(logits, out, key);
    case DType::float64:
      return categorical_rows<double>(logits, out, key);
    default:
      throw BackendError(std::string(backend) + ": random_categorical needs floating-point logits");
  }
}

inline void random_permutation(Tensor& out, RandomKey key) {
  const std::vector<std::int64_t> perm = permutation_of(out.size(), key);
  std::copy(perm.begin(), perm.end(), out.data<std::int64_t>());
}

inline void shuffle(const Tensor& x, Tensor& out, RandomKey key) {
  const std::int64_t n = x.dim(0);
  if (n == 0 || x.size() == 0) return;
  const std::vector<std::int64_t> perm = permutation_of(n, key);
  const std::size_t row_bytes = x.nbytes() / static_cast<std::size_t>(n);
  const auto* src = static_cast<const unsigned char*>(x.raw_data());
  auto* dst = static_cast<unsigned char*>(out.raw_data());
  for (std::int64_t r = 0; r < n; ++r) {
    std::memcpy(dst + static_cast<std::size_t>(r) * row_bytes,
                src + static_cast<std::size_t>(perm[static_cast<std::size_t>(r)]) * row_bytes, row_bytes);
  }
}

}  // namespace ember::host
