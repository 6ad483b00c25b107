// The Eigen backend's math ops. Its own: add/subtract/multiply/divide, matmul and dot with Eigen array and
// matrix maps where that is the fast path (float and double matmul through the BLAS Eigen is built with,
// other dtypes in row tiles on every core). The other element-wise ops and the reductions are the shared host
// layer's (backends/host/math_ops.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "eigen_backend.hpp"
#include "elementwise.hpp"
#include "host/math_kernels.hpp"

namespace ember::eigen {

namespace {

// ---- matmul ----------------------------------------------------------------------------------------------

template <class U>
using RowMatrix = Eigen::Matrix<U, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Rows of a product computed by one Eigen call: fixed, so that Eigen's blocking (which depends on the shape
// of each call) and with it every result bit are the same whatever the number of threads.
constexpr std::int64_t kProductTileRows = 128;

// Whether Eigen hands products of U to the BLAS it is built with (EIGEN_USE_BLAS, set in CMakeLists.txt:
// float and double GEMM through Eigen's own binding). That BLAS (OpenBLAS) blocks and threads the whole
// product itself, on its own threads (OPENBLAS_NUM_THREADS, not EMBER_NUM_THREADS). As on the blas backend,
// its result bits are the same run after run but may differ between one thread and several (OpenBLAS 0.3.21:
// 1000 x 777 x 1003 and 130 x 150 x 140 do, 1024^3 does not), within matmul's 2K ulp bound.
template <class U>
constexpr bool kBlasProduct =
#ifdef EIGEN_USE_BLAS
    std::is_same_v<U, float> || std::is_same_v<U, double>;
#else
    false;
#endif

// out[b] = a[b] * b[b] for (B, M, K) x (B, K, N) buffers of type U. Without a BLAS behind Eigen, products of
// 2^25 multiply-adds and more (above 256^3, where a thread start under load costs more than it saves) split
// their rows into tiles of kProductTileRows, computed on every core (Eigen's own product runs on one thread).
template <class U>
void batched_product(const U* a, const U* b, U* out, std::int64_t batches, std::int64_t m, std::int64_t k,
                     std::int64_t n) {
  for (std::int64_t i = 0; i < batches; ++i) {
    Eigen::Map<RowMatrix<U>> o(out + i * m * n, m, n);
    if (k == 0) {
      o.setZero();
      continue;
    }
    Eigen::Map<const RowMatrix<U>> mb(b + i * k * n, k, n);
    if constexpr (kBlasProduct<U>) {
      o.noalias() = Eigen::Map<const RowMatrix<U>>(a + i * m * k, m, k) * mb;
      continue;
    }
    const std::int64_t tiles = (m + kProductTileRows - 1) / kProductTileRows;
    host::parallel_for(
        tiles,
        [&](std::int64_t first, std::int64_t last) {
          for (std::int64_t t = first; t < last; ++t) {
            const std::int64_t r0 = t * kProductTileRows, rows = std::min(kProductTileRows, m - r0);
            Eigen::Map<const RowMatrix<U>> ma(a + i * m * k + r0 * k, rows, k);
            Eigen::Map<RowMatrix<U>> ot(out + i * m * n + r0 * n, rows, n);
            ot.noalias() = ma * mb;
          }
        },
        m * n * k >= (std::int64_t{1} << 25) ? 2 : std::numeric_limits<std::int64_t>::max(), 1);
  }
}

// Converts a tensor of T into a buffer of the type its products are computed in.
template <class U, class T>
std::vector<U> widened(const Tensor& x) {
  const T* p = x.data<const T>();
  std::vector<U> v(static_cast<std::size_t>(x.size()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<U>(load(p[i]));
  return v;
}

}  // namespace

// ---- binary arithmetic -----------------------------------------------------------------------------------

void EigenBackend::add(const Tensor& a, const Tensor& b, Tensor& out) {
  if (host::vector_binary(host::BinaryOp::add, a, b, out)) return;  // the per-cpu vector width
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2_vectorized<T>(
        a, b, out, [](auto x, auto y) { return host::add_of(x, y); },
        [](const auto& x, const auto& y) { return x + y; });
  });
}

void EigenBackend::subtract(const Tensor& a, const Tensor& b, Tensor& out) {
  if (host::vector_binary(host::BinaryOp::subtract, a, b, out)) return;  // the per-cpu vector width
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2_vectorized<T>(
        a, b, out, [](auto x, auto y) { return host::sub_of(x, y); },
        [](const auto& x, const auto& y) { return x - y; });
  });
}

void EigenBackend::multiply(const Tensor& a, const Tensor& b, Tensor& out) {
  if (host::vector_binary(host::BinaryOp::multiply, a, b, out)) return;  // the per-cpu vector width
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2_vectorized<T>(
        a, b, out, [](auto x, auto y) { return host::mul_of(x, y); },
        [](const auto& x, const auto& y) { return x * y; });
  });
}

void EigenBackend::divide(const Tensor& a, const Tensor& b, Tensor& out) {
  if (host::vector_binary(host::BinaryOp::divide, a, b, out)) return;  // the per-cpu vector width
  host::visit_float(kBackend, "divide", out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2_vectorized<T>(
        a, b, out, [](auto x, auto y) { return x / y; }, [](const auto& x, const auto& y) { return x / y; });
  });
}

// ---- matmul and dot --------------------------------------------------------------------------------------

void EigenBackend::matmul(const Tensor& a, const Tensor& b, Tensor& out) {
  const std::int64_t batches = a.shape()[0], m = a.shape()[1], k = a.shape()[2], n = b.shape()[2];
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      batched_product(a.data<const T>(), b.data<const T>(), out.data<T>(), batches, m, k, n);
    } else {
      // float16 in float32; integers in the unsigned type they wrap in (exact modulo 2^bits).
      using U = host::product_t<T>;
      const std::vector<U> wa = widened<U, T>(a), wb = widened<U, T>(b);
      std::vector<U> wo(static_cast<std::size_t>(out.size()));
      batched_product(wa.data(), wb.data(), wo.data(), batches, m, k, n);
      T* po = out.data<T>();
      for (std::size_t i = 0; i < wo.size(); ++i) po[i] = store<T>(wo[i]);
    }
  });
}

void EigenBackend::dot(const Tensor& a, const Tensor& b, Tensor& out) {
  const std::int64_t n = a.size();
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;
      Eigen::Map<const Vector> va(a.data<const T>(), n), vb(b.data<const T>(), n);
      out.data<T>()[0] = n == 0 ? T(0) : va.dot(vb);
    } else {
      out.data<T>()[0] = host::dot_loop<T>(a, b);
    }
  });
}

// ---- the shared host layer's (backends/host/math_ops.cpp) ------------------------------------------------

EMBER_HOST_MATH_OPS(EMBER_HOST_FORWARD, EigenBackend)

}  // namespace ember::eigen
