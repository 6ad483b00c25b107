// backends/blas/gemm.hpp: OpenBLAS's GEMM per batch.
#include "gemm.hpp"

#include <cblas.h>

#include <algorithm>
#include <climits>
#include <string>
#include <type_traits>

#include "ember/error.hpp"

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

template <class U>
void gemm_each(const U* a, const U* b, U* out, std::int64_t batches, std::int64_t m, std::int64_t k,
               std::int64_t n) {
  if (m == 0 || n == 0) return;
  if (k == 0) {  // an empty sum: BLAS may leave C untouched when k == 0, so zero it here
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

}  // namespace

bool gemm_fits(std::int64_t m, std::int64_t k, std::int64_t n) {
  return m <= INT_MAX && k <= INT_MAX && n <= INT_MAX;
}

void batched_gemm(const float* a, const float* b, float* out, std::int64_t batches, std::int64_t m,
                  std::int64_t k, std::int64_t n) {
  gemm_each(a, b, out, batches, m, k, n);
}
void batched_gemm(const double* a, const double* b, double* out, std::int64_t batches, std::int64_t m,
                  std::int64_t k, std::int64_t n) {
  gemm_each(a, b, out, batches, m, k, n);
}

}  // namespace ember::blas
