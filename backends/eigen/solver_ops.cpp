// Eigen backend, category "solver": batched dense linear algebra with Eigen's decompositions. Matrices are
// float32 or float64 and are computed in their own precision. norm, outer and the diagonal ops are the shared
// host layer's (backends/host/solver_ops.cpp).
#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>

#include <string>

#include "common.hpp"
#include "eigen_backend.hpp"
#include "host/math_kernels.hpp"
#include "host/tensor_kernels.hpp"
#include "svd.hpp"

namespace ember::eigen {

namespace {

template <class T>
using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using MatrixMap = Eigen::Map<Matrix<T>>;
template <class T>
using ConstMatrixMap = Eigen::Map<const Matrix<T>>;

// Calls f(T{}) for the two float dtypes the solver computes in.
template <class F>
void visit_float(DType dtype, F&& f) {
  if (dtype == DType::float32) {
    f(float{});
  } else {
    f(double{});
  }
}

// Matrix `b` of a (B, rows, cols) tensor.
template <class T>
ConstMatrixMap<T> matrix_of(const Tensor& t, std::int64_t b) {
  const std::int64_t rows = t.shape()[1], cols = t.shape()[2];
  return ConstMatrixMap<T>(t.data<const T>() + b * rows * cols, rows, cols);
}
template <class T>
MatrixMap<T> matrix_of(Tensor& t, std::int64_t b) {
  const std::int64_t rows = t.shape()[1], cols = t.shape()[2];
  return MatrixMap<T>(t.data<T>() + b * rows * cols, rows, cols);
}

[[noreturn]] void fail(const char* op, std::int64_t b, const std::string& why) {
  throw LinAlgError(std::string(op) + ": matrix " + std::to_string(b) + " of the batch " + why);
}

// LU with partial pivoting; LinAlgError when a pivot is exactly zero.
template <class T>
Eigen::PartialPivLU<Matrix<T>> checked_lu(const char* op, const ConstMatrixMap<T>& a, std::int64_t b) {
  Eigen::PartialPivLU<Matrix<T>> lu(a);
  const auto& packed = lu.matrixLU();
  for (Eigen::Index i = 0; i < packed.rows(); ++i) {
    if (packed(i, i) == T(0)) fail(op, b, "is singular");
  }
  return lu;
}

// A result that came out non-finite from finite input means the matrix was numerically singular.
template <class Derived>
bool all_finite(const Eigen::MatrixBase<Derived>& m) {
  return m.array().isFinite().all();
}

}  // namespace

void EigenBackend::solve(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) {
      const auto am = matrix_of<T>(a, i);
      const auto bm = matrix_of<T>(b, i);
      auto lu = checked_lu<T>("solve", am, i);
      auto om = matrix_of<T>(out, i);
      om = lu.solve(bm);
      if (!all_finite(om) && all_finite(am) && all_finite(bm)) fail("solve", i, "is numerically singular");
    }
  });
}

void EigenBackend::inv(const Tensor& a, Tensor& out) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) {
      const auto am = matrix_of<T>(a, i);
      auto lu = checked_lu<T>("inv", am, i);
      auto om = matrix_of<T>(out, i);
      om = lu.inverse();
      if (!all_finite(om) && all_finite(am)) fail("inv", i, "is numerically singular");
    }
  });
}

void EigenBackend::det(const Tensor& a, Tensor& out) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    T* o = out.data<T>();
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) {
      const auto am = matrix_of<T>(a, i);
      o[i] = am.rows() == 0 ? T(1) : Eigen::PartialPivLU<Matrix<T>>(am).determinant();
    }
  });
}

void EigenBackend::cholesky(const Tensor& a, Tensor& out) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) {
      const auto am = matrix_of<T>(a, i);
      Eigen::LLT<Matrix<T>, Eigen::Lower> llt(am);
      auto om = matrix_of<T>(out, i);
      if (llt.info() != Eigen::Success) fail("cholesky", i, "is not positive definite");
      om = llt.matrixL();
      if (!all_finite(om)) fail("cholesky", i, "is not positive definite");
    }
  });
}

void EigenBackend::qr(const Tensor& a, Tensor& q, Tensor& r) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t m = a.shape()[1], n = a.shape()[2], k = std::min(m, n);
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) {
      Eigen::HouseholderQR<Matrix<T>> house(matrix_of<T>(a, i));
      auto qm = matrix_of<T>(q, i);
      auto rm = matrix_of<T>(r, i);
      qm = house.householderQ() * Matrix<T>::Identity(m, k);
      rm = house.matrixQR().topRows(k).template triangularView<Eigen::Upper>();
      for (std::int64_t j = 0; j < k; ++j) {  // make diag(r) >= 0
        if (rm(j, j) < T(0)) {
          rm.row(j) *= T(-1);
          qm.col(j) *= T(-1);
        }
      }
    }
  });
}

void EigenBackend::svd(const Tensor& a, Tensor& u, Tensor& s, Tensor& vt, bool compute_uv) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t m = a.shape()[1], n = a.shape()[2], k = std::min(m, n);
    const bool full = compute_uv && u.shape()[2] == m && vt.shape()[1] == n;
    const unsigned options = !compute_uv ? 0u
                             : full      ? (Eigen::ComputeFullU | Eigen::ComputeFullV)
                                         : (Eigen::ComputeThinU | Eigen::ComputeThinV);
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) {
      if (!all_finite(matrix_of<T>(a, i))) fail("svd", i, "has non-finite entries: the SVD did not converge");
      Svd<T> dec;
      if (!bdc_svd<T>(Matrix<T>(matrix_of<T>(a, i)), options, dec)) fail("svd", i, "did not converge");
      Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(s.data<T>() + i * k, k) = dec.s;
      if (compute_uv) {
        matrix_of<T>(u, i) = dec.u;
        matrix_of<T>(vt, i) = dec.v.transpose();
      }
    }
  });
}

void EigenBackend::eigh(const Tensor& a, Tensor& w, Tensor& v) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t n = a.shape()[1];
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) {
      // The solver reads the lower triangle, like LAPACK's syevd with UPLO='L'.
      const Matrix<T> lower = matrix_of<T>(a, i).template triangularView<Eigen::Lower>();
      if (!all_finite(lower)) fail("eigh", i, "has non-finite entries: eigenvalues did not converge");
      Eigen::SelfAdjointEigenSolver<Matrix<T>> dec(matrix_of<T>(a, i));
      if (dec.info() != Eigen::Success) fail("eigh", i, "did not converge");
      Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(w.data<T>() + i * n, n) = dec.eigenvalues();
      matrix_of<T>(v, i) = dec.eigenvectors();
    }
  });
}

void EigenBackend::lstsq(const Tensor& a, const Tensor& b, double rcond, Tensor& x, std::int64_t& rank,
                         Tensor& s) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t m = a.shape()[0], n = a.shape()[1], k = b.shape()[1];
    const ConstMatrixMap<T> am(a.data<const T>(), m, n);
    const ConstMatrixMap<T> bm(b.data<const T>(), m, k);
    MatrixMap<T> xm(x.data<T>(), n, k);
    if (!all_finite(am) || !all_finite(bm))
      throw LinAlgError("lstsq: non-finite entries: the SVD did not converge");
    Svd<T> dec;
    if (!bdc_svd<T>(Matrix<T>(am), Eigen::ComputeThinU | Eigen::ComputeThinV, dec))
      throw LinAlgError("lstsq: the SVD did not converge");
    const auto& sv = dec.s;
    const T cutoff = static_cast<T>(rcond) * (sv.size() ? sv(0) : T(0));
    rank = 0;
    Eigen::Matrix<T, Eigen::Dynamic, 1> inverse(sv.size());
    for (Eigen::Index j = 0; j < sv.size(); ++j) {
      const bool kept = sv(j) > cutoff;
      rank += kept ? 1 : 0;
      inverse(j) = kept ? T(1) / sv(j) : T(0);
    }
    xm = dec.v * (inverse.asDiagonal() * (dec.u.transpose() * bm));
    Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(s.data<T>(), sv.size()) = sv;
  });
}

// ---- the shared host layer's (backends/host/solver_ops.cpp) ----------------------------------------------

EMBER_HOST_DIAGONAL_OPS(EMBER_HOST_FORWARD, EigenBackend)
EMBER_HOST_PRODUCT_OPS(EMBER_HOST_FORWARD, EigenBackend)

}  // namespace ember::eigen
