// The BLAS backend's matrix product, shared with the Eigen backend when ember is built with BLAS
// (EMBER_HAVE_BLAS): OpenBLAS picks its kernels for the cpu at run time and uses every core, where Eigen's
// product is compiled for the baseline instruction set and runs on one thread. Both host backends then
// give the same bytes for float32 and float64 products.
#pragma once

#include <cstdint>

namespace ember::blas {

// Whether batched_gemm takes these dimensions (cblas's 32-bit integers).
bool gemm_fits(std::int64_t m, std::int64_t k, std::int64_t n);

// out[i] = a[i] * b[i] for row-major (B, M, K) x (B, K, N) buffers (cblas_sgemm/dgemm per batch; k == 0 gives
// zeros). BackendError for a dimension gemm_fits refuses.
void batched_gemm(const float* a, const float* b, float* out, std::int64_t batches, std::int64_t m,
                  std::int64_t k, std::int64_t n);
void batched_gemm(const double* a, const double* b, double* out, std::int64_t batches, std::int64_t m,
                  std::int64_t k, std::int64_t n);

}  // namespace ember::blas
