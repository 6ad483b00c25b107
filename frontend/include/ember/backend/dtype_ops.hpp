// Backend interface, category "dtype": conversions and dtype support.
// See ember/backend/tensor_ops.hpp for the contract every backend method follows.
#pragma once

#include "ember/device.hpp"
#include "ember/dtype.hpp"
#include "ember/tensor.hpp"

namespace ember {

class DTypeOps {
 public:
  virtual ~DTypeOps() = default;

  // Element-wise conversion to out's dtype, NumPy's astype with defined edge cases: to bool is `!= 0`
  // (NaN is true); float to integer truncates toward zero, saturates out of range and maps NaN to 0;
  // integer to narrower integer wraps; to float16 rounds to nearest even.
  virtual void cast(const Tensor& x, Tensor& out) = 0;
  // Whether tensors of `dtype` can live and be computed on `device`.
  virtual bool supports_dtype(DType dtype, Device device) = 0;
};

}  // namespace ember
