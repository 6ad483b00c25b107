// The OpenCL implementations the frontend calls: element-wise math and uniform numbers so far.
#pragma once

#include <cstdint>

#include "legacy/tensor.hpp"

namespace legacy::opencl {

Tensor add(const Tensor& a, const Tensor& b);
Tensor add(const Tensor& a, double scalar);
Tensor subtract(const Tensor& a, const Tensor& b);
Tensor multiply(const Tensor& a, const Tensor& b);
Tensor uniform(std::size_t rows, std::size_t cols, std::uint64_t seed);
Tensor normal(std::size_t rows, std::size_t cols, std::uint64_t seed);

}  // namespace legacy::opencl
