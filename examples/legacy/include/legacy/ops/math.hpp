// Element-wise math and reductions.
#pragma once

#include "legacy/tensor.hpp"

namespace legacy::ops {

Tensor add(const Tensor& a, const Tensor& b);
Tensor add(const Tensor& a, double scalar);
Tensor subtract(const Tensor& a, const Tensor& b);
Tensor multiply(const Tensor& a, const Tensor& b);
Tensor exp(const Tensor& x);
double sum(const Tensor& x);

}  // namespace legacy::ops
