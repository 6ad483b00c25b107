// The BLAS backend's math ops. matmul and dot of float32/float64 go to OpenBLAS (cblas_?gemm per batch,
// cblas_?dot); float16 products convert to float32 for sgemm and round once; integer products are plain
// wrapping loops (exact modulo 2^bits, so every backend gives the same bytes). Element-wise arithmetic and
// reductions are the shared host layer's (backends/host/math_ops.cpp).
#include <cblas.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "blas_backend.hpp"
#include "common.hpp"
#include "host/math_kernels.hpp"

namespace ember::blas {

namespace {

// A dimension as the 32-bit integer cblas takes; larger ones are refused rather than truncated.
blasint blas_dim(const char* op, std::int64_t v) {
  if (v > INT_MAX) {
    throw BackendError(std::string("blas: ") + op + ": dimension " + std::to_string(v) +
                       " exceeds the 32-bit BLAS interface");
  }
  return static_cast<blasint>(v);
}

// out[b] = a[b] * b[b] for row-major (B, M, K) x (B, K, N) buffers of float or double.
template <class U>
void batched_gemm(const U* a, const U* b, U* out, std::int64_t batches, std::int64_t m, std::int64_t k,
                  std::int64_t n) {
  if (m == 0 || n == 0) return;
  if (k == 0) {  // an empty sum: BLAS may leave C untouched when k == 0, so zero
                 // it here
    std::fill_n(out, batches * m * n, U(0));
    return;
  }
  const blasint bm = blas_dim("matmul", m), bk = blas_dim("matmul", k), bn = blas_dim("matmul", n);
  for (std::int64_t i = 0; i < batches; ++i) {
    const U* ai = a + i * m * k;
    const U* bi = b + i * k * n;
    U* oi = out + i * m * n;
    if constexpr (std::is_same_v<U, float>) {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, bm, bn, bk, 1.0f, ai, bk, bi, bn, 0.0f, oi, bn);
    } else {
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, bm, bn, bk, 1.0, ai, bk, bi, bn, 0.0, oi, bn);
    }
  }
}

// Integer (and bool) matmul in the unsigned type the dtype wraps in: row i of out accumulates a[i, p] * row p
// of b, which keeps the inner loop contiguous and vectorizable.
template <class T>
void integer_matmul(const T* a, const T* b, T* out, std::int64_t batches, std::int64_t m, std::int64_t k,
                    std::int64_t n) {
  using U = host::product_t<T>;
  std::vector<U> row(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < batches; ++i) {
    const T* ai = a + i * m * k;
    const T* bi = b + i * k * n;
    T* oi = out + i * m * n;
    for (std::int64_t r = 0; r < m; ++r) {
      std::fill(row.begin(), row.end(), U(0));
      for (std::int64_t p = 0; p < k; ++p) {
        const U x = static_cast<U>(ai[r * k + p]);
        const T* brow = bi + p * n;
        for (std::int64_t c = 0; c < n; ++c) row[static_cast<std::size_t>(c)] += x * static_cast<U>(brow[c]);
      }
      for (std::int64_t c = 0; c < n; ++c) oi[r * n + c] = static_cast<T>(row[static_cast<std::size_t>(c)]);
    }
  }
}

// sum(a[i] * b[i]) with cblas_?dot over chunks that fit its 32-bit length.
template <class U>
U blas_dot(const U* a, const U* b, std::int64_t n) {
  constexpr std::int64_t kChunk = std::int64_t{1} << 30;
  U acc = 0;
  for (std::int64_t at = 0; at < n; at += kChunk) {
    const auto len = static_cast<blasint>(std::min(kChunk, n - at));
    if constexpr (std::is_same_v<U, float>) {
      acc += cblas_sdot(len, a + at, 1, b + at, 1);
    } else {
      acc += cblas_ddot(len, a + at, 1, b + at, 1);
    }
  }
  return acc;
}

}  // namespace

// ---- the shared host layer's (backends/host/math_ops.cpp) ------------------------------------------------

EMBER_HOST_ARITHMETIC_OPS(EMBER_HOST_FORWARD, BlasBackend)
EMBER_HOST_MATH_OPS(EMBER_HOST_FORWARD, BlasBackend)

// ---- matmul and dot --------------------------------------------------------------------------------------

void BlasBackend::matmul(const Tensor& a, const Tensor& b, Tensor& out) {
  const std::int64_t batches = a.shape()[0], m = a.shape()[1], k = a.shape()[2], n = b.shape()[2];
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      batched_gemm(a.data<const T>(), b.data<const T>(), out.data<T>(), batches, m, k, n);
    } else if constexpr (std::is_same_v<T, half>) {
      // float16 has no BLAS routine: sgemm on float32 copies, then one rounding per element.
      const auto widen = [](const Tensor& x) {
        const half* p = x.data<const half>();
        std::vector<float> v(static_cast<std::size_t>(x.size()));
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(p[i]);
        return v;
      };
      const std::vector<float> wa = widen(a), wb = widen(b);
      std::vector<float> wo(static_cast<std::size_t>(out.size()));
      batched_gemm(wa.data(), wb.data(), wo.data(), batches, m, k, n);
      half* po = out.data<half>();
      for (std::size_t i = 0; i < wo.size(); ++i) po[i] = half(wo[i]);
    } else {
      integer_matmul(a.data<const T>(), b.data<const T>(), out.data<T>(), batches, m, k, n);
    }
  });
}

void BlasBackend::dot(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      out.data<T>()[0] = blas_dot(a.data<const T>(), b.data<const T>(), a.size());
    } else {
      out.data<T>()[0] = host::dot_loop<T>(a, b);
    }
  });
}

}  // namespace ember::blas
