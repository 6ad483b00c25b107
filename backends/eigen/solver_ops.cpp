// Eigen backend, category "solver": batched dense linear algebra with Eigen's decompositions. Matrices are
// float32 or float64 and are computed in their own precision. norm, outer and the diagonal ops are the shared
// host layer's (backends/host/solver_ops.cpp).
#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

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

template <class T>
using ColMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;

// LU with partial pivoting by recursion on halves of the columns (Toledo's recursive LU): the left half is
// factored, its row exchanges applied to the right half, A12 = L11^-1 A12 and A22 -= A21 A12, then the lower
// right is factored. Nearly all the work is in those triangular solves and products, which Eigen hands to the
// BLAS it is built with (EIGEN_USE_BLAS); only panels of at most kLeaf columns are factored column by column.
// The pivot is the first entry of largest magnitude in its column, as in Eigen's PartialPivLU; a zero pivot
// leaves its column unscaled and the factorization goes on, so U shows it on its diagonal. The row-major A is
// read in place as the column-major M = A^T, which is what is factored (P M = L U): det(A) = det(M), A x = b
// is solved with the transposed factors and inv(A) is inv(M) read row-major, so no transposed copy of A is
// made. Eigen's own PartialPivLU (16-column panels factored in Eigen's kernels) took 4.45 ms for a 512 x 512
// float64 solve where this takes 1.31 ms (bench/ember_bench.cpp, solve_512_f64/ember_eigen).
template <class T>
class RecursiveLU {
 public:
  explicit RecursiveLU(const ConstMatrixMap<T>& a)
      : lu_(Eigen::Map<const ColMatrix<T>>(a.data(), a.cols(), a.rows())),
        transpositions_(static_cast<std::size_t>(a.rows())) {
    factor(lu_, transpositions_.data());
  }

  bool singular() const { return (lu_.diagonal().array() == T(0)).any(); }

  // x <- A^-1 x = (U^T L^T P)^-1 x, for x of n rows in column-major order.
  void solve_in_place(ColMatrix<T>& x) const {
    lu_.template triangularView<Eigen::Upper>().transpose().solveInPlace(x);
    lu_.template triangularView<Eigen::UnitLower>().transpose().solveInPlace(x);
    for (Eigen::Index j = lu_.rows() - 1; j >= 0; --j) {
      const Eigen::Index p = transpositions_[static_cast<std::size_t>(j)];
      if (p != j) x.row(j).swap(x.row(p));
    }
  }

  // inv(A), row-major, into out: inv(M) = U^-1 L^-1 P in column-major order is inv(A) in row-major order.
  void inverse_into(T* out) const {
    const Eigen::Index n = lu_.rows();
    Eigen::Map<ColMatrix<T>> x(out, n, n);
    x.setIdentity();
    for (Eigen::Index j = 0; j < n; ++j) {
      const Eigen::Index p = transpositions_[static_cast<std::size_t>(j)];
      if (p != j) x.row(j).swap(x.row(p));
    }
    lu_.template triangularView<Eigen::UnitLower>().solveInPlace(x);
    lu_.template triangularView<Eigen::Upper>().solveInPlace(x);
  }

  T determinant() const {
    T product = lu_.diagonal().prod();
    for (Eigen::Index j = 0; j < lu_.rows(); ++j) {
      if (transpositions_[static_cast<std::size_t>(j)] != j) product = -product;
    }
    return product;
  }

 private:
  using Block = Eigen::Ref<ColMatrix<T>, 0, Eigen::OuterStride<>>;
  static constexpr Eigen::Index kLeaf = 16;  // 8 to 16 measured best at n = 512; 64 is 40% slower

  // Factors the m x n block a (m >= n) in place; t[j] is the row exchanged with row j at step j.
  static void factor(Block a, Eigen::Index* t) {
    const Eigen::Index m = a.rows(), n = a.cols();
    if (n <= kLeaf) {
      for (Eigen::Index j = 0; j < n; ++j) {
        Eigen::Index p = j;
        T biggest = std::abs(a(j, j));
        for (Eigen::Index r = j + 1; r < m; ++r) {
          const T v = std::abs(a(r, j));
          if (v > biggest) {
            biggest = v;
            p = r;
          }
        }
        t[j] = p;
        if (p != j) a.row(j).swap(a.row(p));
        const Eigen::Index below = m - j - 1, right = n - j - 1;
        if (biggest != T(0)) a.col(j).tail(below) /= a(j, j);
        if (right > 0)
          a.bottomRightCorner(below, right).noalias() -= a.col(j).tail(below) * a.row(j).tail(right);
      }
      return;
    }
    const Eigen::Index n1 = n / 2, n2 = n - n1;
    factor(a.leftCols(n1), t);
    auto right = a.rightCols(n2);
    for (Eigen::Index j = 0; j < n1; ++j) {
      if (t[j] != j) right.row(j).swap(right.row(t[j]));
    }
    auto a12 = a.topRightCorner(n1, n2);
    a.topLeftCorner(n1, n1).template triangularView<Eigen::UnitLower>().solveInPlace(a12);
    a.bottomRightCorner(m - n1, n2).noalias() -= a.bottomLeftCorner(m - n1, n1) * a12;
    factor(a.bottomRightCorner(m - n1, n2), t + n1);
    auto left = a.leftCols(n1);
    for (Eigen::Index j = n1; j < n; ++j) {
      t[j] += n1;
      if (t[j] != j) left.row(j).swap(left.row(t[j]));
    }
  }

  ColMatrix<T> lu_;
  std::vector<Eigen::Index> transpositions_;
};

// The LU of matrix b of the batch; LinAlgError when a pivot is exactly zero.
template <class T>
RecursiveLU<T> checked_lu(const char* op, const ConstMatrixMap<T>& a, std::int64_t b) {
  RecursiveLU<T> lu(a);
  if (lu.singular()) fail(op, b, "is singular");
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
      const auto lu = checked_lu<T>("solve", am, i);
      ColMatrix<T> x = bm;
      lu.solve_in_place(x);
      auto om = matrix_of<T>(out, i);
      om = x;
      if (!all_finite(om) && all_finite(am) && all_finite(bm)) fail("solve", i, "is numerically singular");
    }
  });
}

void EigenBackend::inv(const Tensor& a, Tensor& out) {
  visit_float(a.dtype(), [&](auto t) {
    using T = decltype(t);
    for (std::int64_t i = 0; i < a.shape()[0]; ++i) {
      const auto am = matrix_of<T>(a, i);
      checked_lu<T>("inv", am, i).inverse_into(out.data<T>() + i * am.size());
      const auto om = matrix_of<T>(out, i);
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
      o[i] = am.rows() == 0 ? T(1) : RecursiveLU<T>(am).determinant();
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
