// The BLAS implementations the frontend calls.
#pragma once

#include <cstdint>

#include "legacy/tensor.hpp"

namespace legacy::blas {

Tensor add(const Tensor& a, const Tensor& b);
Tensor add(const Tensor& a, double scalar);
Tensor subtract(const Tensor& a, const Tensor& b);
Tensor multiply(const Tensor& a, const Tensor& b);
Tensor exp(const Tensor& x);
double sum(const Tensor& x);
Tensor matmul(const Tensor& a, const Tensor& b);
double dot(const Tensor& a, const Tensor& b);
Tensor transpose(const Tensor& x);
double norm(const Tensor& x);
Tensor uniform(std::size_t rows, std::size_t cols, std::uint64_t seed);
Tensor normal(std::size_t rows, std::size_t cols, std::uint64_t seed);

}  // namespace legacy::blas
