// BLAS backend, category "solver": the decompositions through LAPACKE (getrf/getrs/getri and potrf on the
// row-major matrix read as its column-major transpose; geqrf/orgqr, gesdd, syevd, gelsd on row-major copies),
// one matrix of the batch at a time; outer and the 2-norm of contiguous runs through cblas (?ger, ?nrm2); the
// diagonal ops and the other norms are the shared host layer's (backends/host/solver_ops.cpp). Matrices are
// float32 or float64 and are computed in their own precision. The LAPACKE *_work entry points are used on
// purpose: the plain ones reject NaN input (their NaN check), whereas every backend must let NaN propagate
// exactly where the Eigen backend does. LAPACK's info > 0 (singular, not positive definite, no convergence)
// becomes a LinAlgError naming the op and the batch index.
#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "blas_backend.hpp"
#include "common.hpp"
#include "host/math_kernels.hpp"
#include "host/tensor_kernels.hpp"

namespace ember::blas {

namespace {

// ---- typed LAPACKE entry points: in place, column-major --------------------------------------------------

// The LU family works on the row-major matrix in place, read as the column-major transpose: getrf factors
// A^T, getrs with trans = 'T' solves A x = b from that factorization, getri's inverse of A^T read row-major
// is inv(A), and det(A^T) = det(A). LAPACKE's row-major layout would transpose A into a column-major copy and
// back for each call (three n^2 copies per solve); this way there are none.
lapack_int getrf(lapack_int n, float* a, lapack_int* ipiv) {
  return LAPACKE_sgetrf_work(LAPACK_COL_MAJOR, n, n, a, n, ipiv);
}
lapack_int getrf(lapack_int n, double* a, lapack_int* ipiv) {
  return LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, a, n, ipiv);
}
// b is column-major n x k (leading dimension n).
lapack_int getrs(lapack_int n, lapack_int k, const float* lu, const lapack_int* ipiv, float* b) {
  return LAPACKE_sgetrs_work(LAPACK_COL_MAJOR, 'T', n, k, lu, n, ipiv, b, n);
}
lapack_int getrs(lapack_int n, lapack_int k, const double* lu, const lapack_int* ipiv, double* b) {
  return LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'T', n, k, lu, n, ipiv, b, n);
}
lapack_int getri(lapack_int n, float* a, const lapack_int* ipiv, float* work, lapack_int lwork) {
  return LAPACKE_sgetri_work(LAPACK_COL_MAJOR, n, a, n, ipiv, work, lwork);
}
lapack_int getri(lapack_int n, double* a, const lapack_int* ipiv, double* work, lapack_int lwork) {
  return LAPACKE_dgetri_work(LAPACK_COL_MAJOR, n, a, n, ipiv, work, lwork);
}

// The row-major lower triangle is the column-major upper one: potrf with UPLO = 'U' leaves A = U^T U there,
// which read row-major is L = U^T, without LAPACKE's transposed copies.
lapack_int potrf(lapack_int n, float* a) {
  return LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'U', n, a, n);
}
lapack_int potrf(lapack_int n, double* a) {
  return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', n, a, n);
}

// ---- typed LAPACKE entry points: the others, row-major ---------------------------------------------------

lapack_int geqrf(lapack_int m, lapack_int n, float* a, float* tau, float* work, lapack_int lwork) {
  return LAPACKE_sgeqrf_work(LAPACK_ROW_MAJOR, m, n, a, n, tau, work, lwork);
}
lapack_int geqrf(lapack_int m, lapack_int n, double* a, double* tau, double* work, lapack_int lwork) {
  return LAPACKE_dgeqrf_work(LAPACK_ROW_MAJOR, m, n, a, n, tau, work, lwork);
}
lapack_int orgqr(lapack_int m, lapack_int k, float* q, const float* tau, float* work, lapack_int lwork) {
  return LAPACKE_sorgqr_work(LAPACK_ROW_MAJOR, m, k, k, q, k, tau, work, lwork);
}
lapack_int orgqr(lapack_int m, lapack_int k, double* q, const double* tau, double* work, lapack_int lwork) {
  return LAPACKE_dorgqr_work(LAPACK_ROW_MAJOR, m, k, k, q, k, tau, work, lwork);
}
lapack_int gesdd(char jobz, lapack_int m, lapack_int n, float* a, float* s, float* u, lapack_int ldu,
                 float* vt, lapack_int ldvt, float* work, lapack_int lwork, lapack_int* iwork) {
  return LAPACKE_sgesdd_work(LAPACK_ROW_MAJOR, jobz, m, n, a, n, s, u, ldu, vt, ldvt, work, lwork, iwork);
}
lapack_int gesdd(char jobz, lapack_int m, lapack_int n, double* a, double* s, double* u, lapack_int ldu,
                 double* vt, lapack_int ldvt, double* work, lapack_int lwork, lapack_int* iwork) {
  return LAPACKE_dgesdd_work(LAPACK_ROW_MAJOR, jobz, m, n, a, n, s, u, ldu, vt, ldvt, work, lwork, iwork);
}
lapack_int syevd(lapack_int n, float* a, float* w, float* work, lapack_int lwork, lapack_int* iwork,
                 lapack_int liwork) {
  return LAPACKE_ssyevd_work(LAPACK_ROW_MAJOR, 'V', 'L', n, a, n, w, work, lwork, iwork, liwork);
}
lapack_int syevd(lapack_int n, double* a, double* w, double* work, lapack_int lwork, lapack_int* iwork,
                 lapack_int liwork) {
  return LAPACKE_dsyevd_work(LAPACK_ROW_MAJOR, 'V', 'L', n, a, n, w, work, lwork, iwork, liwork);
}
lapack_int gelsd(lapack_int m, lapack_int n, lapack_int nrhs, float* a, float* b, float* s, float rcond,
                 lapack_int* rank, float* work, lapack_int lwork, lapack_int* iwork) {
  return LAPACKE_sgelsd_work(LAPACK_ROW_MAJOR, m, n, nrhs, a, n, b, nrhs, s, rcond, rank, work, lwork, iwork);
}
lapack_int gelsd(lapack_int m, lapack_int n, lapack_int nrhs, double* a, double* b, double* s, double rcond,
                 lapack_int* rank, double* work, lapack_int lwork, lapack_int* iwork) {
  return LAPACKE_dgelsd_work(LAPACK_ROW_MAJOR, m, n, nrhs, a, n, b, nrhs, s, rcond, rank, work, lwork, iwork);
}

// ---- helpers ---------------------------------------------------------------------------------------------

// Calls f(T{}) for the two float dtypes the solver computes in.
template <class F>
void visit_float(DType dtype, F&& f) {
  if (dtype == DType::float32) {
    f(float{});
  } else {
    f(double{});
  }
}

[[noreturn]] void fail(const char* op, std::int64_t b, const std::string& why) {
  throw LinAlgError(std::string(op) + ": matrix " + std::to_string(b) + " of the batch " + why);
}

// A dimension as LAPACK's 32-bit integer; larger ones are refused rather than truncated.
lapack_int dim(const char* op, std::int64_t v) {
  if (v > INT_MAX) {
    throw BackendError(std::string("blas: ") + op + ": dimension " + std::to_string(v) +
                       " exceeds the 32-bit LAPACK interface");
  }
  return static_cast<lapack_int>(v);
}

// info < 0 means LAPACKE rejected an argument or could not allocate its transposed copy: a bug or an
// out-of-memory condition, never a property of the matrix.
void check_call(const char* op, lapack_int info) {
  if (info < 0) {
    throw BackendError(std::string("blas: ") + op + ": LAPACK call failed with info " + std::to_string(info));
  }
}

// The workspace size a LAPACK query wrote as a floating-point number. A float query above 2^24 may have been
// rounded down, so the next representable value is taken before truncating.
template <class T>
lapack_int workspace_size(T query) {
  return std::max<lapack_int>(1,
                              static_cast<lapack_int>(std::nextafter(query, std::numeric_limits<T>::max())));
}

// dst (cols x rows, row-major) = src (rows x cols, row-major) transposed, by the host layer's strided copy.
template <class T>
void transpose_into(const T* src, std::int64_t rows, std::int64_t cols, T* dst) {
  host::strided_copy(src, 0, {1, cols}, {cols, rows}, dst);
}

template <class T>
bool all_finite(const T* p, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(p[i])) return false;
  }
  return true;
}

}  // namespace

void BlasBackend::solve(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t n = a.shape()[1], k = b.shape()[2];
    const lapack_int ln = dim("solve", n), lk = dim("solve", k);
    std::vector<T> lu(static_cast<std::size_t>(n * n));
    std::vector<lapack_int> ipiv(static_cast<std::size_t>(n));
    // The right-hand sides as getrs wants them, column-major; a single column is its own transpose.
    std::vector<T> columns(k > 1 ? static_cast<std::size_t>(n * k) : 0);
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) {
      const T* ai = a.data<const T>() + i * n * n;
      const T* bi = b.data<const T>() + i * n * k;
      T* oi = out.data<T>() + i * n * k;
      std::copy_n(ai, n * n, lu.data());
      const lapack_int info = getrf(ln, lu.data(), ipiv.data());
      check_call("solve", info);
      if (info > 0) fail("solve", i, "is singular");
      if (k > 1) {
        transpose_into(bi, n, k, columns.data());
        check_call("solve", getrs(ln, lk, lu.data(), ipiv.data(), columns.data()));
        transpose_into(columns.data(), k, n, oi);
      } else {
        std::copy_n(bi, n * k, oi);
        check_call("solve", getrs(ln, lk, lu.data(), ipiv.data(), oi));
      }
      if (!all_finite(oi, n * k) && all_finite(ai, n * n) && all_finite(bi, n * k)) {
        fail("solve", i, "is numerically singular");
      }
    }
  });
}

void BlasBackend::inv(const Tensor& a, Tensor& out) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t n = a.shape()[1];
    const lapack_int ln = dim("inv", n);
    std::vector<lapack_int> ipiv(static_cast<std::size_t>(n));
    T query{};
    check_call("inv", getri(ln, out.data<T>(), ipiv.data(), &query, -1));
    std::vector<T> work(static_cast<std::size_t>(workspace_size(query)));
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) {
      const T* ai = a.data<const T>() + i * n * n;
      T* oi = out.data<T>() + i * n * n;
      std::copy_n(ai, n * n, oi);
      const lapack_int info = getrf(ln, oi, ipiv.data());
      check_call("inv", info);
      if (info > 0) fail("inv", i, "is singular");
      check_call("inv", getri(ln, oi, ipiv.data(), work.data(), static_cast<lapack_int>(work.size())));
      if (!all_finite(oi, n * n) && all_finite(ai, n * n)) fail("inv", i, "is numerically singular");
    }
  });
}

void BlasBackend::det(const Tensor& a, Tensor& out) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t n = a.shape()[1];
    const lapack_int ln = dim("det", n);
    std::vector<T> lu(static_cast<std::size_t>(n * n));
    std::vector<lapack_int> ipiv(static_cast<std::size_t>(n));
    T* o = out.data<T>();
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) {
      if (n == 0) {
        o[i] = T(1);
        continue;
      }
      std::copy_n(a.data<const T>() + i * n * n, n * n, lu.data());
      // getrf completes the factorization even past an exactly zero pivot (info > 0): the determinant is then
      // the product below, zero (or NaN where an infinity met the zero).
      check_call("det", getrf(ln, lu.data(), ipiv.data()));
      T product = T(1);
      bool negate = false;
      for (std::int64_t j = 0; j < n; ++j) {
        product *= lu[static_cast<std::size_t>(j * n + j)];
        negate = negate != (ipiv[static_cast<std::size_t>(j)] != j + 1);  // ipiv is 1-based
      }
      o[i] = negate ? -product : product;
    }
  });
}

void BlasBackend::cholesky(const Tensor& a, Tensor& out) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t n = a.shape()[1];
    const lapack_int ln = dim("cholesky", n);
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) {
      T* oi = out.data<T>() + i * n * n;
      std::copy_n(a.data<const T>() + i * n * n, n * n, oi);
      const lapack_int info = potrf(ln, oi);
      check_call("cholesky", info);
      if (info > 0) fail("cholesky", i, "is not positive definite");
      for (std::int64_t r = 0; r < n; ++r) std::fill(oi + r * n + r + 1, oi + (r + 1) * n, T(0));
      if (!all_finite(oi, n * n)) fail("cholesky", i, "is not positive definite");
    }
  });
}

void BlasBackend::qr(const Tensor& a, Tensor& q, Tensor& r) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t m = a.shape()[1], n = a.shape()[2], k = std::min(m, n);
    const lapack_int lm = dim("qr", m), ln = dim("qr", n), lk = dim("qr", k);
    std::vector<T> packed(static_cast<std::size_t>(m * n)), tau(static_cast<std::size_t>(k));
    T query_geqrf{}, query_orgqr{};
    check_call("qr", geqrf(lm, ln, packed.data(), tau.data(), &query_geqrf, -1));
    check_call("qr", orgqr(lm, lk, q.data<T>(), tau.data(), &query_orgqr, -1));
    std::vector<T> work(
        static_cast<std::size_t>(std::max(workspace_size(query_geqrf), workspace_size(query_orgqr))));
    const auto lwork = static_cast<lapack_int>(work.size());
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) {
      std::copy_n(a.data<const T>() + i * m * n, m * n, packed.data());
      check_call("qr", geqrf(lm, ln, packed.data(), tau.data(), work.data(), lwork));
      T* qi = q.data<T>() + i * m * k;
      T* ri = r.data<T>() + i * k * n;
      // r: the upper triangle of the first k rows; q: the first k columns hold the reflectors for orgqr.
      for (std::int64_t row = 0; row < k; ++row) {
        for (std::int64_t col = 0; col < n; ++col)
          ri[row * n + col] = col >= row ? packed[static_cast<std::size_t>(row * n + col)] : T(0);
      }
      for (std::int64_t row = 0; row < m; ++row) std::copy_n(packed.data() + row * n, k, qi + row * k);
      check_call("qr", orgqr(lm, lk, qi, tau.data(), work.data(), lwork));
      for (std::int64_t j = 0; j < k; ++j) {  // make diag(r) >= 0
        if (ri[j * n + j] < T(0)) {
          for (std::int64_t col = 0; col < n; ++col) ri[j * n + col] = -ri[j * n + col];
          for (std::int64_t row = 0; row < m; ++row) qi[row * k + j] = -qi[row * k + j];
        }
      }
    }
  });
}

void BlasBackend::svd(const Tensor& a, Tensor& u, Tensor& s, Tensor& vt, bool compute_uv) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t m = a.shape()[1], n = a.shape()[2], k = std::min(m, n);
    const bool full = compute_uv && u.shape()[2] == m && vt.shape()[1] == n;
    const char jobz = !compute_uv ? 'N' : full ? 'A' : 'S';
    const std::int64_t ucols = full ? m : k, vrows = full ? n : k;
    const lapack_int lm = dim("svd", m), ln = dim("svd", n);
    // Without vectors gesdd references neither u nor vt, but LAPACKE still checks ldvt >= n.
    const lapack_int ldu = compute_uv ? dim("svd", ucols) : 1, ldvt = ln;
    T unused_u{}, unused_vt{};
    std::vector<T> packed(static_cast<std::size_t>(m * n));
    std::vector<lapack_int> iwork(static_cast<std::size_t>(8 * k));
    T query{};
    check_call("svd", gesdd(jobz, lm, ln, packed.data(), s.data<T>(), compute_uv ? u.data<T>() : &unused_u,
                            ldu, compute_uv ? vt.data<T>() : &unused_vt, ldvt, &query, -1, iwork.data()));
    std::vector<T> work(static_cast<std::size_t>(workspace_size(query)));
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) {
      const T* ai = a.data<const T>() + i * m * n;
      if (!all_finite(ai, m * n)) fail("svd", i, "has non-finite entries: the SVD did not converge");
      std::copy_n(ai, m * n, packed.data());
      T* ui = compute_uv ? u.data<T>() + i * m * ucols : &unused_u;
      T* vti = compute_uv ? vt.data<T>() + i * vrows * n : &unused_vt;
      const lapack_int info = gesdd(jobz, lm, ln, packed.data(), s.data<T>() + i * k, ui, ldu, vti, ldvt,
                                    work.data(), static_cast<lapack_int>(work.size()), iwork.data());
      check_call("svd", info);
      if (info > 0) fail("svd", i, "did not converge");
    }
  });
}

void BlasBackend::eigh(const Tensor& a, Tensor& w, Tensor& v) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t n = a.shape()[1];
    const lapack_int ln = dim("eigh", n);
    T query{};
    lapack_int iquery = 0;
    check_call("eigh", syevd(ln, v.data<T>(), w.data<T>(), &query, -1, &iquery, -1));
    std::vector<T> work(static_cast<std::size_t>(workspace_size(query)));
    std::vector<lapack_int> iwork(static_cast<std::size_t>(std::max<lapack_int>(1, iquery)));
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) {
      const T* ai = a.data<const T>() + i * n * n;
      T* vi = v.data<T>() + i * n * n;
      // syevd with UPLO='L' reads the lower triangle only; a non-finite entry there cannot converge.
      for (std::int64_t row = 0; row < n; ++row) {
        if (!all_finite(ai + row * n, row + 1))
          fail("eigh", i, "has non-finite entries: eigenvalues did not converge");
      }
      std::copy_n(ai, n * n, vi);
      const lapack_int info =
          syevd(ln, vi, w.data<T>() + i * n, work.data(), static_cast<lapack_int>(work.size()), iwork.data(),
                static_cast<lapack_int>(iwork.size()));
      check_call("eigh", info);
      if (info > 0) fail("eigh", i, "did not converge");
    }
  });
}

void BlasBackend::lstsq(const Tensor& a, const Tensor& b, double rcond, Tensor& x, std::int64_t& rank,
                        Tensor& s) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t m = a.shape()[0], n = a.shape()[1], k = b.shape()[1];
    // gelsd overwrites b (max(m, n) rows) with x in its first n rows; with no right-hand side it still has
    // one zero column to work on, so that rank and s are computed all the same.
    const std::int64_t rows = std::max(m, n), nrhs = std::max<std::int64_t>(k, 1);
    const lapack_int lm = dim("lstsq", m), ln = dim("lstsq", n), lrhs = dim("lstsq", nrhs);
    if (!all_finite(a.data<const T>(), m * n) || !all_finite(b.data<const T>(), m * k)) {
      throw LinAlgError("lstsq: non-finite entries: the SVD did not converge");
    }
    std::vector<T> packed(a.data<const T>(), a.data<const T>() + m * n);
    std::vector<T> rhs(static_cast<std::size_t>(rows * nrhs), T(0));
    for (std::int64_t row = 0; row < m; ++row)
      std::copy_n(b.data<const T>() + row * k, k, rhs.data() + row * nrhs);
    const auto cutoff = static_cast<T>(rcond);
    lapack_int found_rank = 0;
    T query{};
    lapack_int iquery = 0;
    check_call("lstsq", gelsd(lm, ln, lrhs, packed.data(), rhs.data(), s.data<T>(), cutoff, &found_rank,
                              &query, -1, &iquery));
    std::vector<T> work(static_cast<std::size_t>(workspace_size(query)));
    std::vector<lapack_int> iwork(static_cast<std::size_t>(std::max<lapack_int>(1, iquery)));
    const lapack_int info = gelsd(lm, ln, lrhs, packed.data(), rhs.data(), s.data<T>(), cutoff, &found_rank,
                                  work.data(), static_cast<lapack_int>(work.size()), iwork.data());
    check_call("lstsq", info);
    if (info > 0) throw LinAlgError("lstsq: the SVD did not converge");
    rank = found_rank;
    for (std::int64_t row = 0; row < n; ++row) std::copy_n(rhs.data() + row * nrhs, k, x.data<T>() + row * k);
  });
}

void BlasBackend::norm(const Tensor& x, double ord, const std::vector<int>& axes, Tensor& out) {
  const host::ReductionPlan p = host::plan_reduction(x.shape(), axes);
  // The 2-norm of contiguous runs is BLAS's ?nrm2; other orders and strided reductions are host loops.
  if (ord != 2.0 || !p.consecutive || p.inner != 1 || p.extent > INT_MAX) {
    host::norm(x, ord, axes, out);
    return;
  }
  visit_float(x.dtype(), [&](auto t) {
    using T = decltype(t);
    const T* px = x.data<const T>();
    T* po = out.data<T>();
    for (std::int64_t o = 0; o < p.outer; ++o) {
      const T* run = px + o * p.extent;
      const auto len = static_cast<blasint>(p.extent);
      if (all_finite(run, p.extent)) {
        if constexpr (std::is_same_v<T, float>) {
          po[o] = cblas_snrm2(len, run, 1);
        } else {
          po[o] = cblas_dnrm2(len, run, 1);
        }
      } else {
        // A sum of squares with an infinity is infinite, with a NaN is NaN (what nrm2 need not promise).
        const bool nan = std::any_of(run, run + p.extent, [](T v) { return std::isnan(v); });
        po[o] = nan ? std::numeric_limits<T>::quiet_NaN() : std::numeric_limits<T>::infinity();
      }
    }
  });
}

void BlasBackend::outer(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_dtype(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t n = a.size(), m = b.size();
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (n <= INT_MAX && m <= INT_MAX) {
        // ?ger adds a b^T to out: starting from -0.0, the exact identity of addition, every element is the
        // product itself, signed zeros included.
        T* o = out.data<T>();
        std::fill_n(o, out.size(), -T(0));
        const auto bn = static_cast<blasint>(n), bm = static_cast<blasint>(m);
        if constexpr (std::is_same_v<T, float>) {
          cblas_sger(CblasRowMajor, bn, bm, 1.0f, a.data<const T>(), 1, b.data<const T>(), 1, o, bm);
        } else {
          cblas_dger(CblasRowMajor, bn, bm, 1.0, a.data<const T>(), 1, b.data<const T>(), 1, o, bm);
        }
        return;
      }
    }
    host::outer_loop<T>(a, b, out);
  });
}

// ---- the shared host layer's (backends/host/solver_ops.cpp) ----------------------------------------------

EMBER_HOST_DIAGONAL_OPS(EMBER_HOST_FORWARD, BlasBackend)

}  // namespace ember::blas
