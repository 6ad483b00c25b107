// PLACEHOLDER: replaced by the real frontend comparison ops.
#include "ember/ops/comparison.hpp"
#include "ember/error.hpp"

namespace ember::ops {

Tensor equal(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("equal: pending"); }
Tensor equal(const Tensor& /*a*/, Scalar /*b*/) { throw Error("equal: pending"); }
Tensor not_equal(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("not_equal: pending"); }
Tensor not_equal(const Tensor& /*a*/, Scalar /*b*/) { throw Error("not_equal: pending"); }
Tensor less(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("less: pending"); }
Tensor less(const Tensor& /*a*/, Scalar /*b*/) { throw Error("less: pending"); }
Tensor less_equal(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("less_equal: pending"); }
Tensor less_equal(const Tensor& /*a*/, Scalar /*b*/) { throw Error("less_equal: pending"); }
Tensor greater(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("greater: pending"); }
Tensor greater(const Tensor& /*a*/, Scalar /*b*/) { throw Error("greater: pending"); }
Tensor greater_equal(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("greater_equal: pending"); }
Tensor greater_equal(const Tensor& /*a*/, Scalar /*b*/) { throw Error("greater_equal: pending"); }
Tensor logical_and(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("logical_and: pending"); }
Tensor logical_or(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("logical_or: pending"); }
Tensor logical_xor(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("logical_xor: pending"); }
Tensor logical_not(const Tensor& /*x*/) { throw Error("logical_not: pending"); }
Tensor isnan(const Tensor& /*x*/) { throw Error("isnan: pending"); }
Tensor isinf(const Tensor& /*x*/) { throw Error("isinf: pending"); }
Tensor isfinite(const Tensor& /*x*/) { throw Error("isfinite: pending"); }
Tensor isclose(const Tensor& /*a*/, const Tensor& /*b*/, double /*rtol*/, double /*atol*/, bool /*equal_nan*/) { throw Error("isclose: pending"); }
bool allclose(const Tensor& /*a*/, const Tensor& /*b*/, double /*rtol*/, double /*atol*/, bool /*equal_nan*/) { throw Error("allclose: pending"); }
Tensor all(const Tensor& /*x*/, Axes /*axes*/, bool /*keepdims*/) { throw Error("all: pending"); }
Tensor any(const Tensor& /*x*/, Axes /*axes*/, bool /*keepdims*/) { throw Error("any: pending"); }
Tensor where(const Tensor& /*cond*/, const Tensor& /*x*/, const Tensor& /*y*/) { throw Error("where: pending"); }

}  // namespace ember::ops
