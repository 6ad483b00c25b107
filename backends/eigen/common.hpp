// The Eigen backend's private helpers: the backend-independent loops and scalar semantics come from the
// shared host headers (frontend/src/host/), brought into ember::eigen here; Eigen array maps over tensors
// are the Eigen-specific part. Private to backends/eigen/.
#pragma once

#include <Eigen/Core>

#include "ember/tensor.hpp"
#include "host/loops.hpp"
#include "host/scalar_semantics.hpp"

namespace ember::eigen {

using host::compute_t;
using host::load;
using host::store;

// The name every error message of this backend starts with.
inline constexpr const char* kBackend = "eigen";

template <class T>
using ArrayMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T>
using ConstArrayMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

template <class T>
ArrayMap<T> array_of(Tensor& t) {
  return ArrayMap<T>(t.data<T>(), t.size());
}
template <class T>
ConstArrayMap<T> array_of(const Tensor& t) {
  return ConstArrayMap<T>(t.data<const T>(), t.size());
}

}  // namespace ember::eigen
