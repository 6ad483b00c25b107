// Eigen's divide-and-conquer SVD behind one function template, instantiated in its own translation units
// (svd_float.cpp, svd_double.cpp): BDCSVD's templates are most of this backend's build time, and apart from
// solver_ops.cpp they build in parallel. Private to backends/eigen/.
#pragma once

#include <Eigen/Core>
#include <Eigen/SVD>

namespace ember::eigen {

template <class T>
using SvdMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <class T>
struct Svd {
  SvdMatrix<T> u;                         // as requested by `options` (empty without ComputeFullU/ThinU)
  SvdMatrix<T> v;                         // V, not V^T
  Eigen::Matrix<T, Eigen::Dynamic, 1> s;  // descending
};

// The SVD of `a` with Eigen's ComputeFull*/ComputeThin* `options`; false if it did not converge.
template <class T>
bool bdc_svd(const SvdMatrix<T>& a, unsigned options, Svd<T>& out) {
  Eigen::BDCSVD<SvdMatrix<T>> dec(a, options);
  if (dec.info() != Eigen::Success) return false;
  out.s = dec.singularValues();
  if (options & (Eigen::ComputeFullU | Eigen::ComputeThinU)) out.u = dec.matrixU();
  if (options & (Eigen::ComputeFullV | Eigen::ComputeThinV)) out.v = dec.matrixV();
  return true;
}

extern template bool bdc_svd<float>(const SvdMatrix<float>&, unsigned, Svd<float>&);
extern template bool bdc_svd<double>(const SvdMatrix<double>&, unsigned, Svd<double>&);

}  // namespace ember::eigen
