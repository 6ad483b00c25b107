// PLACEHOLDER: replaced by the real frontend math ops.
#include "ember/ops/math.hpp"
#include "ember/error.hpp"

namespace ember::ops {

Tensor add(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("add: pending"); }
Tensor add(const Tensor& /*a*/, Scalar /*b*/) { throw Error("add: pending"); }
Tensor subtract(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("subtract: pending"); }
Tensor subtract(const Tensor& /*a*/, Scalar /*b*/) { throw Error("subtract: pending"); }
Tensor multiply(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("multiply: pending"); }
Tensor multiply(const Tensor& /*a*/, Scalar /*b*/) { throw Error("multiply: pending"); }
Tensor divide(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("divide: pending"); }
Tensor divide(const Tensor& /*a*/, Scalar /*b*/) { throw Error("divide: pending"); }
Tensor floor_divide(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("floor_divide: pending"); }
Tensor mod(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("mod: pending"); }
Tensor power(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("power: pending"); }
Tensor power(const Tensor& /*a*/, Scalar /*b*/) { throw Error("power: pending"); }
Tensor minimum(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("minimum: pending"); }
Tensor maximum(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("maximum: pending"); }
Tensor negative(const Tensor& /*x*/) { throw Error("negative: pending"); }
Tensor abs(const Tensor& /*x*/) { throw Error("abs: pending"); }
Tensor sign(const Tensor& /*x*/) { throw Error("sign: pending"); }
Tensor square(const Tensor& /*x*/) { throw Error("square: pending"); }
Tensor sqrt(const Tensor& /*x*/) { throw Error("sqrt: pending"); }
Tensor exp(const Tensor& /*x*/) { throw Error("exp: pending"); }
Tensor expm1(const Tensor& /*x*/) { throw Error("expm1: pending"); }
Tensor log(const Tensor& /*x*/) { throw Error("log: pending"); }
Tensor log1p(const Tensor& /*x*/) { throw Error("log1p: pending"); }
Tensor log2(const Tensor& /*x*/) { throw Error("log2: pending"); }
Tensor log10(const Tensor& /*x*/) { throw Error("log10: pending"); }
Tensor sin(const Tensor& /*x*/) { throw Error("sin: pending"); }
Tensor cos(const Tensor& /*x*/) { throw Error("cos: pending"); }
Tensor tan(const Tensor& /*x*/) { throw Error("tan: pending"); }
Tensor sinh(const Tensor& /*x*/) { throw Error("sinh: pending"); }
Tensor cosh(const Tensor& /*x*/) { throw Error("cosh: pending"); }
Tensor tanh(const Tensor& /*x*/) { throw Error("tanh: pending"); }
Tensor floor(const Tensor& /*x*/) { throw Error("floor: pending"); }
Tensor ceil(const Tensor& /*x*/) { throw Error("ceil: pending"); }
Tensor round(const Tensor& /*x*/) { throw Error("round: pending"); }
Tensor clip(const Tensor& /*x*/, std::optional<Scalar> /*lo*/, std::optional<Scalar> /*hi*/) { throw Error("clip: pending"); }
Tensor matmul(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("matmul: pending"); }
Tensor dot(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("dot: pending"); }
Tensor sum(const Tensor& /*x*/, Axes /*axes*/, bool /*keepdims*/) { throw Error("sum: pending"); }
Tensor prod(const Tensor& /*x*/, Axes /*axes*/, bool /*keepdims*/) { throw Error("prod: pending"); }
Tensor mean(const Tensor& /*x*/, Axes /*axes*/, bool /*keepdims*/) { throw Error("mean: pending"); }
Tensor var(const Tensor& /*x*/, Axes /*axes*/, bool /*keepdims*/, double /*ddof*/) { throw Error("var: pending"); }
Tensor std(const Tensor& /*x*/, Axes /*axes*/, bool /*keepdims*/, double /*ddof*/) { throw Error("std: pending"); }
Tensor min(const Tensor& /*x*/, Axes /*axes*/, bool /*keepdims*/) { throw Error("min: pending"); }
Tensor max(const Tensor& /*x*/, Axes /*axes*/, bool /*keepdims*/) { throw Error("max: pending"); }
Tensor argmin(const Tensor& /*x*/, std::optional<std::int64_t> /*axis*/, bool /*keepdims*/) { throw Error("argmin: pending"); }
Tensor argmax(const Tensor& /*x*/, std::optional<std::int64_t> /*axis*/, bool /*keepdims*/) { throw Error("argmax: pending"); }
Tensor cumsum(const Tensor& /*x*/, std::optional<std::int64_t> /*axis*/) { throw Error("cumsum: pending"); }

}  // namespace ember::ops
