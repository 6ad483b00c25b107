// Eigen backend, category "solver": batched dense linear algebra with Eigen's decompositions. Matrices are
// float32 or float64 and are computed in their own precision.
#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "common.hpp"
#include "eigen_backend.hpp"

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

// Start (row, col) and length of the offset-th diagonal of an n x m matrix.
struct DiagonalSpan {
  std::int64_t row = 0, col = 0, length = 0;
};
DiagonalSpan diagonal_span(std::int64_t n, std::int64_t m, std::int64_t offset) {
  DiagonalSpan d;
  if (offset >= 0) {
    d.col = offset < m ? offset : m;
    d.length = std::max<std::int64_t>(0, std::min(n, m - d.col));
  } else {
    d.row = offset > -n ? -offset : n;
    d.length = std::max<std::int64_t>(0, std::min(n - d.row, m));
  }
  return d;
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
      Eigen::BDCSVD<Matrix<T>> dec(matrix_of<T>(a, i), options);
      if (dec.info() != Eigen::Success) fail("svd", i, "did not converge");
      Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(s.data<T>() + i * k, k) = dec.singularValues();
      if (compute_uv) {
        matrix_of<T>(u, i) = dec.matrixU();
        matrix_of<T>(vt, i) = dec.matrixV().transpose();
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
    Eigen::BDCSVD<Matrix<T>> dec(am, Eigen::ComputeThinU | Eigen::ComputeThinV);
    if (dec.info() != Eigen::Success) throw LinAlgError("lstsq: the SVD did not converge");
    const auto& sv = dec.singularValues();
    const T cutoff = static_cast<T>(rcond) * (sv.size() ? sv(0) : T(0));
    rank = 0;
    Eigen::Matrix<T, Eigen::Dynamic, 1> inverse(sv.size());
    for (Eigen::Index j = 0; j < sv.size(); ++j) {
      const bool kept = sv(j) > cutoff;
      rank += kept ? 1 : 0;
      inverse(j) = kept ? T(1) / sv(j) : T(0);
    }
    xm = dec.matrixV() * (inverse.asDiagonal() * (dec.matrixU().transpose() * bm));
    Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(s.data<T>(), sv.size()) = sv;
  });
}

void EigenBackend::norm(const Tensor& x, double ord, const std::vector<int>& axes, Tensor& out) {
  const ReductionLayout layout = reduction_layout(x.shape(), axes);
  visit_float(x.dtype(), [&](auto t) {
    using T = decltype(t);
    const T* p = x.data<const T>();
    T* o = out.data<T>();
    for (std::size_t r = 0; r < layout.out_base.size(); ++r) {
      const T* base = p + layout.out_base[r];
      // Accumulate in double: float32 sums then round once, closer to NumPy's pairwise sums.
      double acc = 0.0;
      bool nan = false;
      if (std::isinf(ord)) {
        acc = ord > 0 ? 0.0 : std::numeric_limits<double>::infinity();
        for (auto off : layout.reduced_offsets) {
          const double v = std::abs(static_cast<double>(base[off]));
          nan = nan || std::isnan(v);
          acc = ord > 0 ? std::max(acc, v) : std::min(acc, v);
        }
      } else if (ord == 0.0) {
        for (auto off : layout.reduced_offsets) acc += base[off] != T(0) ? 1.0 : 0.0;
      } else if (ord == 1.0) {
        for (auto off : layout.reduced_offsets) acc += std::abs(static_cast<double>(base[off]));
      } else if (ord == 2.0) {
        for (auto off : layout.reduced_offsets)
          acc += static_cast<double>(base[off]) * static_cast<double>(base[off]);
        acc = std::sqrt(acc);
      } else {
        for (auto off : layout.reduced_offsets)
          acc += std::pow(std::abs(static_cast<double>(base[off])), ord);
        acc = std::pow(acc, 1.0 / ord);
      }
      o[r] = nan ? std::numeric_limits<T>::quiet_NaN() : static_cast<T>(acc);
    }
  });
}

void EigenBackend::diag(const Tensor& x, std::int64_t k, Tensor& out) {
  visit_dtype(x.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t n = x.shape()[0], size = out.shape()[0];
    const T* p = x.data<const T>();
    T* o = out.data<T>();
    std::fill_n(o, out.size(), store<T>(0));
    const std::int64_t row = k < 0 ? -k : 0, col = k > 0 ? k : 0;
    for (std::int64_t i = 0; i < n; ++i) o[(row + i) * size + col + i] = p[i];
  });
}

void EigenBackend::diagonal(const Tensor& x, std::int64_t offset, Tensor& out) {
  visit_dtype(x.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t n = x.shape()[1], m = x.shape()[2];
    const DiagonalSpan d = diagonal_span(n, m, offset);
    const T* p = x.data<const T>();
    T* o = out.data<T>();
    for (std::int64_t b = 0; b < x.shape()[0]; ++b) {
      for (std::int64_t i = 0; i < d.length; ++i)
        o[b * d.length + i] = p[b * n * m + (d.row + i) * m + d.col + i];
    }
  });
}

void EigenBackend::trace(const Tensor& x, std::int64_t offset, Tensor& out) {
  visit_dtype(x.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t n = x.shape()[1], m = x.shape()[2];
    const DiagonalSpan d = diagonal_span(n, m, offset);
    const T* p = x.data<const T>();
    T* o = out.data<T>();
    for (std::int64_t b = 0; b < x.shape()[0]; ++b) {
      if constexpr (std::is_integral_v<T>) {
        T acc = store<T>(0);
        for (std::int64_t i = 0; i < d.length; ++i)
          acc = wrapping_add(acc, p[b * n * m + (d.row + i) * m + d.col + i]);
        o[b] = acc;
      } else {
        compute_t<T> acc = 0;
        for (std::int64_t i = 0; i < d.length; ++i) acc += load(p[b * n * m + (d.row + i) * m + d.col + i]);
        o[b] = store<T>(acc);
      }
    }
  });
}

void EigenBackend::outer(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_dtype(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t n = a.size(), m = b.size();
    const T* pa = a.data<const T>();
    const T* pb = b.data<const T>();
    T* o = out.data<T>();
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < m; ++j) o[i * m + j] = wrapping_multiply(pa[i], pb[j]);
    }
  });
}

}  // namespace ember::eigen
