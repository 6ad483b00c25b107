// Support for the golden tests (golden_test.cpp): reading the NumPy fixtures in tests/golden/*.json,
// building ember tensors from them, and comparing results (values, NaN positions, signed zeros, dtype,
// shape).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ember/ember.hpp"

namespace ember::golden {

using json = nlohmann::json;

// One fixture case. `error` is set (and `data` unused) when the fixture file could not be read: the case
// then fails, so a missing or empty fixture never passes silently.
struct Case {
  std::string category;
  std::string name;  // "<op>_<index of this op in the file>"
  std::string error;
  json data;
  const std::string& op() const;
};

// Every case of tests/golden/<category>.json (EMBER_TEST_DATA_DIR); never empty (see Case::error).
const std::vector<Case>& cases(const std::string& category);

// A result on the host: floating values as double, integer and bool values as int64.
struct HostTensor {
  DType dtype = DType::float64;
  Shape shape;
  std::vector<double> f;
  std::vector<std::int64_t> i;
  std::int64_t size() const;
  bool floating() const { return ops::is_floating(dtype); }
  double at(std::int64_t k) const { return floating() ? f[k] : static_cast<double>(i[k]); }
};

// Fixture decoding.
DType dtype_named(const std::string& name);
double decode_float(const json& v);
Tensor make_tensor(const json& t);  // {"dtype", "shape", "data"} -> ember tensor via ops::from_data
Scalar make_scalar(const json& s);  // {"scalar": v}
HostTensor decode_expected(const json& t);

// An op argument: a tensor, a scalar, or a list of tensors.
struct Arg {
  Tensor tensor;
  Scalar scalar;
  std::vector<Tensor> list;
  bool is_scalar = false;
};
std::vector<Arg> make_args(const json& args);

HostTensor host(const Tensor& x);
HostTensor host_bool(bool v);
HostTensor host_int64(std::int64_t v);
HostTensor host_scalar(const Scalar& s);  // 0-d of the scalar's natural dtype

using Results = std::vector<HostTensor>;
Results one(const Tensor& t);
Results many(const std::vector<Tensor>& ts);
// NumPy's expected result(s): one tensor or a list of tensors.
Results expected_results(const json& expected);
// The fixture tensor built with ops::from_bytes (the untyped form of from_data).
Tensor tensor_from_bytes(const json& t);

// Keyword arguments of a case; absent and null mean "not given".
template <class T>
T get(const json& kw, const char* key, T fallback) {
  return kw.contains(key) && !kw[key].is_null() ? kw[key].get<T>() : fallback;
}
template <class T>
std::optional<T> maybe(const json& kw, const char* key) {
  if (!kw.contains(key) || kw[key].is_null()) return std::nullopt;
  return kw[key].get<T>();
}
inline bool flag(const json& kw, const char* key) {
  return get<bool>(kw, key, false);
}
Axes axes_of(const json& kw, const char* key = "axes");
std::optional<DType> dtype_of(const json& kw);
std::optional<Scalar> scalar_of(const json& kw, const char* key);
Shape shape_of(const json& kw);
PadMode pad_mode(const json& kw);
std::vector<ops::Slice> slices_of(const json& kw);

// Accuracy demanded of floating-point results: |got - expected| <= atol + rtol * |expected|, per dtype.
struct Tol {
  double rtol = 0.0;
  double atol = 0.0;
};
struct TolByDType {
  Tol f16, f32, f64;
  bool exact_zero_sign = false;  // data movement: zeros keep their sign whatever the case says
  Tol for_dtype(DType d) const { return d == DType::float16 ? f16 : d == DType::float32 ? f32 : f64; }
};

// dtype, shape, then element values; integers and bools exactly. NaN must match NaN, infinities exactly.
::testing::AssertionResult same_tensor(const HostTensor& got, const HostTensor& expected, Tol tol,
                                       bool signed_zeros, const std::string& what);

// Property checks for factorizations unique only up to signs; `expected` holds NumPy's factors.
::testing::AssertionResult check_qr(const HostTensor& a, const std::vector<HostTensor>& got,
                                    const std::vector<HostTensor>& expected, Tol tol);
::testing::AssertionResult check_svd(const HostTensor& a, const std::vector<HostTensor>& got,
                                     const std::vector<HostTensor>& expected, Tol tol);
::testing::AssertionResult check_eigh(const HostTensor& a, const std::vector<HostTensor>& got,
                                      const std::vector<HostTensor>& expected, Tol tol);

// The name of an ember::Error's class ("ShapeError", ..., "Error").
std::string error_class(const Error& e);
// A case's arguments, abbreviated for failure messages.
std::string describe_args(const json& c);

}  // namespace ember::golden
