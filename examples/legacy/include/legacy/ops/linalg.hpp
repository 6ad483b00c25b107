// Linear algebra.
#pragma once

#include "legacy/tensor.hpp"

namespace legacy::ops {

Tensor matmul(const Tensor& a, const Tensor& b);
double dot(const Tensor& a, const Tensor& b);
Tensor transpose(const Tensor& x);
double norm(const Tensor& x);

}  // namespace legacy::ops
