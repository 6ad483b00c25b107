// Every op of ember::ops against NumPy 1.24: the cases live in tests/golden/<category>.json (written by
// tests/golden/generate.py) and run on every registered backend. Each op below names the accuracy it must
// reach; a case may carry its own tolerance (linear algebra does).
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "backend_support.hpp"
#include "golden_support.hpp"

namespace ember::golden {
namespace {

using Args = std::vector<Arg>;
using OpFn = std::function<Results(const Args&, const json&)>;

struct OpSpec {
  OpFn fn;
  TolByDType tol;
};

// Accuracy classes: {float16, float32, float64} as {rtol, atol}, inputs being O(1)-O(100).
// Bit-exact: data movement, selection, integer-valued and sign ops (zeros keep their sign).
constexpr TolByDType kExact{{0, 0}, {0, 0}, {0, 0}, true};
// Correctly rounded element-wise arithmetic: 1 float16 ulp (computed in float32, rounded once), about
// 8 float32 ulps (room for OpenCL's native division), 1e-12 in float64.
constexpr TolByDType kArith{{1e-3, 1e-3}, {1e-6, 1e-6}, {1e-12, 1e-12}};
// libm-class functions (NumPy uses its own SIMD versions, up to 4 ulps): 1 float16 ulp, ~16 float32 ulps,
// ~45 float64 ulps.
constexpr TolByDType kTranscendental{{1e-3, 1e-3}, {2e-6, 2e-6}, {1e-14, 1e-14}};
// Sums of up to 24 terms in any order (NumPy sums pairwise): 2 float16 ulps, ~84 float32 ulps, 1e-12.
constexpr TolByDType kReduction{{2e-3, 2e-3}, {1e-5, 1e-5}, {1e-12, 1e-12}};

#define EMBER_UNARY(op) [](const Args& a, const json&) { return one(ops::op(a[0].tensor)); }
#define EMBER_BINARY(op) [](const Args& a, const json&) { return one(ops::op(a[0].tensor, a[1].tensor)); }
#define EMBER_BINARY_OR_SCALAR(op)                                                                      \
  [](const Args& a, const json&) {                                                                      \
    return one(a[1].is_scalar ? ops::op(a[0].tensor, a[1].scalar) : ops::op(a[0].tensor, a[1].tensor)); \
  }
#define EMBER_REDUCE(op) \
  [](const Args& a, const json& kw) { return one(ops::op(a[0].tensor, axes_of(kw), flag(kw, "keepdims"))); }
#define EMBER_MOMENT(op)                                                                               \
  [](const Args& a, const json& kw) {                                                                  \
    return one(ops::op(a[0].tensor, axes_of(kw), flag(kw, "keepdims"), get<double>(kw, "ddof", 0.0))); \
  }
#define EMBER_ARG(op)                                                                        \
  [](const Args& a, const json& kw) {                                                        \
    return one(ops::op(a[0].tensor, maybe<std::int64_t>(kw, "axis"), flag(kw, "keepdims"))); \
  }

const std::map<std::string, OpSpec>& math_ops() {
  static const std::map<std::string, OpSpec> table = {
      {"add", {EMBER_BINARY_OR_SCALAR(add), kArith}},
      {"subtract", {EMBER_BINARY_OR_SCALAR(subtract), kArith}},
      {"multiply", {EMBER_BINARY_OR_SCALAR(multiply), kArith}},
      {"divide", {EMBER_BINARY_OR_SCALAR(divide), kArith}},
      {"power", {EMBER_BINARY_OR_SCALAR(power), kTranscendental}},
      {"floor_divide", {EMBER_BINARY(floor_divide), kArith}},
      {"mod", {EMBER_BINARY(mod), kArith}},
      {"minimum", {EMBER_BINARY(minimum), kArith}},
      {"maximum", {EMBER_BINARY(maximum), kArith}},
      {"negative", {EMBER_UNARY(negative), kExact}},
      {"abs", {EMBER_UNARY(abs), kExact}},
      {"sign", {EMBER_UNARY(sign), kExact}},
      {"square", {EMBER_UNARY(square), kArith}},
      {"sqrt", {EMBER_UNARY(sqrt), kArith}},  // correctly rounded in IEEE 754
      {"exp", {EMBER_UNARY(exp), kTranscendental}},
      {"expm1", {EMBER_UNARY(expm1), kTranscendental}},
      {"log", {EMBER_UNARY(log), kTranscendental}},
      {"log1p", {EMBER_UNARY(log1p), kTranscendental}},
      {"log2", {EMBER_UNARY(log2), kTranscendental}},
      {"log10", {EMBER_UNARY(log10), kTranscendental}},
      {"sin", {EMBER_UNARY(sin), kTranscendental}},
      {"cos", {EMBER_UNARY(cos), kTranscendental}},
      {"tan", {EMBER_UNARY(tan), kTranscendental}},
      {"sinh", {EMBER_UNARY(sinh), kTranscendental}},
      {"cosh", {EMBER_UNARY(cosh), kTranscendental}},
      {"tanh", {EMBER_UNARY(tanh), kTranscendental}},
      {"floor", {EMBER_UNARY(floor), kExact}},
      {"ceil", {EMBER_UNARY(ceil), kExact}},
      {"round", {EMBER_UNARY(round), kExact}},
      {"clip",
       {[](const Args& a, const json& kw) {
          return one(ops::clip(a[0].tensor, scalar_of(kw, "lo"), scalar_of(kw, "hi")));
        },
        kExact}},
      {"matmul", {EMBER_BINARY(matmul), kReduction}},
      {"dot", {EMBER_BINARY(dot), kReduction}},
      {"sum", {EMBER_REDUCE(sum), kReduction}},
      {"prod", {EMBER_REDUCE(prod), kReduction}},
      {"mean", {EMBER_REDUCE(mean), kReduction}},
      {"var", {EMBER_MOMENT(var), kReduction}},
      {"std", {EMBER_MOMENT(std), kReduction}},
      {"min", {EMBER_REDUCE(min), kExact}},
      {"max", {EMBER_REDUCE(max), kExact}},
      {"argmin", {EMBER_ARG(argmin), kExact}},
      {"argmax", {EMBER_ARG(argmax), kExact}},
      {"cumsum",
       {[](const Args& a, const json& kw) {
          return one(ops::cumsum(a[0].tensor, maybe<std::int64_t>(kw, "axis")));
        },
        kReduction}},
  };
  return table;
}

const std::map<std::string, OpSpec>& comparison_ops() {
  static const std::map<std::string, OpSpec> table = {
      {"equal", {EMBER_BINARY_OR_SCALAR(equal), kExact}},
      {"not_equal", {EMBER_BINARY_OR_SCALAR(not_equal), kExact}},
      {"less", {EMBER_BINARY_OR_SCALAR(less), kExact}},
      {"less_equal", {EMBER_BINARY_OR_SCALAR(less_equal), kExact}},
      {"greater", {EMBER_BINARY_OR_SCALAR(greater), kExact}},
      {"greater_equal", {EMBER_BINARY_OR_SCALAR(greater_equal), kExact}},
      {"logical_and", {EMBER_BINARY(logical_and), kExact}},
      {"logical_or", {EMBER_BINARY(logical_or), kExact}},
      {"logical_xor", {EMBER_BINARY(logical_xor), kExact}},
      {"logical_not", {EMBER_UNARY(logical_not), kExact}},
      {"isnan", {EMBER_UNARY(isnan), kExact}},
      {"isinf", {EMBER_UNARY(isinf), kExact}},
      {"isfinite", {EMBER_UNARY(isfinite), kExact}},
      {"isclose",
       {[](const Args& a, const json& kw) {
          return one(ops::isclose(a[0].tensor, a[1].tensor, get<double>(kw, "rtol", 1e-5),
                                  get<double>(kw, "atol", 1e-8), flag(kw, "equal_nan")));
        },
        kExact}},
      {"allclose",
       {[](const Args& a, const json& kw) {
          return Results{host_bool(ops::allclose(a[0].tensor, a[1].tensor, get<double>(kw, "rtol", 1e-5),
                                                 get<double>(kw, "atol", 1e-8), flag(kw, "equal_nan")))};
        },
        kExact}},
      {"all", {EMBER_REDUCE(all), kExact}},
      {"any", {EMBER_REDUCE(any), kExact}},
      {"where",
       {[](const Args& a, const json&) { return one(ops::where(a[0].tensor, a[1].tensor, a[2].tensor)); },
        kExact}},
  };
  return table;
}

const std::map<std::string, OpSpec>& tensor_ops() {
  static const std::map<std::string, OpSpec> table = {
      {"zeros",
       {[](const Args&, const json& kw) {
          return one(ops::zeros(shape_of(kw), dtype_of(kw).value_or(DType::float32)));
        },
        kExact}},
      {"ones",
       {[](const Args&, const json& kw) {
          return one(ops::ones(shape_of(kw), dtype_of(kw).value_or(DType::float32)));
        },
        kExact}},
      {"full",
       {[](const Args& a, const json& kw) { return one(ops::full(shape_of(kw), a[0].scalar, dtype_of(kw))); },
        kExact}},
      {"zeros_like",
       {[](const Args& a, const json& kw) { return one(ops::zeros_like(a[0].tensor, dtype_of(kw))); },
        kExact}},
      {"ones_like",
       {[](const Args& a, const json& kw) { return one(ops::ones_like(a[0].tensor, dtype_of(kw))); },
        kExact}},
      {"full_like",
       {[](const Args& a, const json& kw) {
          return one(ops::full_like(a[0].tensor, a[1].scalar, dtype_of(kw)));
        },
        kExact}},
      {"eye",
       {[](const Args&, const json& kw) {
          return one(ops::eye(kw.at("n").get<std::int64_t>(), maybe<std::int64_t>(kw, "m"),
                              get<std::int64_t>(kw, "k", 0), dtype_of(kw).value_or(DType::float32)));
        },
        kExact}},
      {"arange",
       {[](const Args& a, const json& kw) {
          return one(a.size() == 1 ? ops::arange(a[0].scalar)
                                   : ops::arange(a[0].scalar, a[1].scalar, a[2].scalar, dtype_of(kw)));
        },
        kArith}},
      {"linspace",
       {[](const Args&, const json& kw) {
          return one(ops::linspace(kw.at("start").get<double>(), kw.at("stop").get<double>(),
                                   kw.at("num").get<std::int64_t>(), get<bool>(kw, "endpoint", true),
                                   dtype_of(kw).value_or(DType::float64)));
        },
        kArith}},
      // from_data (the input builder) and to_host (the result reader) round trip.
      {"from_data", {[](const Args& a, const json&) { return one(a[0].tensor); }, kExact}},
      {"from_bytes",
       {[](const Args&, const json& kw) { return one(tensor_from_bytes(kw.at("tensor"))); }, kExact}},
      {"item",
       {[](const Args& a, const json&) { return Results{host_scalar(ops::item(a[0].tensor))}; }, kExact}},
      {"copy", {EMBER_UNARY(copy), kExact}},
      {"cast",
       {[](const Args& a, const json& kw) { return one(ops::cast(a[0].tensor, *dtype_of(kw))); }, kExact}},
      {"reshape",
       {[](const Args& a, const json& kw) { return one(ops::reshape(a[0].tensor, shape_of(kw))); }, kExact}},
      {"transpose",
       {[](const Args& a, const json& kw) { return one(ops::transpose(a[0].tensor, axes_of(kw))); }, kExact}},
      {"expand_dims",
       {[](const Args& a, const json& kw) {
          return one(ops::expand_dims(a[0].tensor, kw.at("axis").get<std::int64_t>()));
        },
        kExact}},
      {"squeeze",
       {[](const Args& a, const json& kw) { return one(ops::squeeze(a[0].tensor, axes_of(kw))); }, kExact}},
      {"flatten", {EMBER_UNARY(flatten), kExact}},
      {"broadcast_to",
       {[](const Args& a, const json& kw) { return one(ops::broadcast_to(a[0].tensor, shape_of(kw))); },
        kExact}},
      {"concatenate",
       {[](const Args& a, const json& kw) {
          return one(ops::concatenate(a[0].list, get<std::int64_t>(kw, "axis", 0)));
        },
        kExact}},
      {"stack",
       {[](const Args& a, const json& kw) {
          return one(ops::stack(a[0].list, get<std::int64_t>(kw, "axis", 0)));
        },
        kExact}},
      {"split",
       {[](const Args& a, const json& kw) {
          const auto axis = get<std::int64_t>(kw, "axis", 0);
          return many(kw.contains("sections")
                          ? ops::split(a[0].tensor, kw["sections"].get<std::int64_t>(), axis)
                          : ops::split(a[0].tensor, kw.at("indices").get<std::vector<std::int64_t>>(), axis));
        },
        kExact}},
      {"tile",
       {[](const Args& a, const json& kw) {
          return one(ops::tile(a[0].tensor, kw.at("reps").get<std::vector<std::int64_t>>()));
        },
        kExact}},
      {"pad",
       {[](const Args& a, const json& kw) {
          const auto widths = kw.at("pad_width").get<std::vector<std::pair<std::int64_t, std::int64_t>>>();
          return one(ops::pad(a[0].tensor, widths, pad_mode(kw), a[1].scalar));
        },
        kExact}},
      {"slice",
       {[](const Args& a, const json& kw) { return one(ops::slice(a[0].tensor, slices_of(kw))); }, kExact}},
      {"gather",
       {[](const Args& a, const json& kw) {
          return one(ops::gather(a[0].tensor, a[1].tensor, maybe<std::int64_t>(kw, "axis")));
        },
        kExact}},
      {"scatter_add",
       {[](const Args& a, const json& kw) {
          return one(
              ops::scatter_add(a[0].tensor, a[1].tensor, a[2].tensor, get<std::int64_t>(kw, "axis", 0)));
        },
        kArith}},
      {"flip",
       {[](const Args& a, const json& kw) { return one(ops::flip(a[0].tensor, axes_of(kw))); }, kExact}},
      {"sort",
       {[](const Args& a, const json& kw) {
          return one(ops::sort(a[0].tensor, get<std::int64_t>(kw, "axis", -1), flag(kw, "descending")));
        },
        kExact}},
      {"argsort",
       {[](const Args& a, const json& kw) {
          return one(ops::argsort(a[0].tensor, get<std::int64_t>(kw, "axis", -1), flag(kw, "descending")));
        },
        kExact}},
  };
  return table;
}

// Linear algebra cases carry their own tolerance (tests/golden/cases_solver.py: 1e-10 in float64, 1e-4 in
// float32 on well-conditioned inputs); kReduction applies to the rest.
const std::map<std::string, OpSpec>& solver_ops() {
  static const std::map<std::string, OpSpec> table = {
      {"solve", {EMBER_BINARY(solve), kReduction}},
      {"inv", {EMBER_UNARY(inv), kReduction}},
      {"det", {EMBER_UNARY(det), kReduction}},
      {"cholesky", {EMBER_UNARY(cholesky), kReduction}},
      {"qr",
       {[](const Args& a, const json&) {
          auto r = ops::qr(a[0].tensor);
          return Results{host(r.q), host(r.r)};
        },
        kReduction}},
      {"svd",
       {[](const Args& a, const json& kw) {
          const bool uv = get<bool>(kw, "compute_uv", true);
          auto r = ops::svd(a[0].tensor, get<bool>(kw, "full_matrices", true), uv);
          return uv ? Results{host(r.u), host(r.s), host(r.vt)} : Results{host(r.s)};
        },
        kReduction}},
      {"eigh",
       {[](const Args& a, const json&) {
          auto r = ops::eigh(a[0].tensor);
          return Results{host(r.eigenvalues), host(r.eigenvectors)};
        },
        kReduction}},
      {"lstsq",
       {[](const Args& a, const json& kw) {
          auto r = ops::lstsq(a[0].tensor, a[1].tensor, maybe<double>(kw, "rcond"));
          return Results{host(r.x), host(r.residuals), host_int64(r.rank), host(r.singular_values)};
        },
        kReduction}},
      {"norm",
       {[](const Args& a, const json& kw) {
          return one(ops::norm(a[0].tensor, maybe<std::string>(kw, "ord"), axes_of(kw, "axis"),
                               flag(kw, "keepdims")));
        },
        kReduction}},
      {"diag",
       {[](const Args& a, const json& kw) {
          return one(ops::diag(a[0].tensor, get<std::int64_t>(kw, "k", 0)));
        },
        kExact}},
      {"diagonal",
       {[](const Args& a, const json& kw) {
          return one(ops::diagonal(a[0].tensor, get<std::int64_t>(kw, "offset", 0),
                                   get<std::int64_t>(kw, "axis1", 0), get<std::int64_t>(kw, "axis2", 1)));
        },
        kExact}},
      {"trace",
       {[](const Args& a, const json& kw) {
          return one(ops::trace(a[0].tensor, get<std::int64_t>(kw, "offset", 0)));
        },
        kReduction}},
      {"outer", {EMBER_BINARY(outer), kArith}},
  };
  return table;
}

// dtype ops are pure functions of dtypes: their results are compared as JSON values.
using DTypeFn = std::function<json(const json&)>;
const std::map<std::string, DTypeFn>& dtype_ops() {
  static const std::map<std::string, DTypeFn> table = {
      {"result_type",
       [](const json& kw) {
         return ops::dtype_name(ops::result_type(dtype_named(kw.at("a")), dtype_named(kw.at("b"))));
       }},
      {"can_cast",
       [](const json& kw) { return ops::can_cast(dtype_named(kw.at("from")), dtype_named(kw.at("to"))); }},
      {"dtype_name", [](const json& kw) { return ops::dtype_name(dtype_named(kw.at("dtype"))); }},
      {"dtype_from_name",
       [](const json& kw) {
         return ops::dtype_name(ops::dtype_from_name(kw.at("name").get<std::string>()));
       }},
      {"itemsize", [](const json& kw) { return ops::itemsize(dtype_named(kw.at("dtype"))); }},
      {"is_floating", [](const json& kw) { return ops::is_floating(dtype_named(kw.at("dtype"))); }},
      {"is_integer", [](const json& kw) { return ops::is_integer(dtype_named(kw.at("dtype"))); }},
      {"is_signed", [](const json& kw) { return ops::is_signed(dtype_named(kw.at("dtype"))); }},
      {"finfo",
       [](const json& kw) {
         const auto f = ops::finfo(dtype_named(kw.at("dtype")));
         return json{{"bits", f.bits},
                     {"eps", f.eps},
                     {"max", f.max},
                     {"min", f.min},
                     {"tiny", f.tiny},
                     {"smallest_subnormal", f.smallest_subnormal},
                     {"resolution", f.resolution}};
       }},
      {"iinfo",
       [](const json& kw) {
         const auto i = ops::iinfo(dtype_named(kw.at("dtype")));
         return json{{"bits", i.bits}, {"min", i.min}, {"max", i.max}};
       }},
  };
  return table;
}

const std::map<std::string, OpSpec>& ops_of(const std::string& category) {
  if (category == "math") return math_ops();
  if (category == "comparison") return comparison_ops();
  if (category == "solver") return solver_ops();
  return tensor_ops();
}

void run_case(const Case& c) {
  ASSERT_TRUE(c.error.empty()) << c.error;
  const json& d = c.data;
  const auto& table = ops_of(c.category);
  const auto entry = table.find(c.op());
  ASSERT_NE(entry, table.end()) << "golden_test.cpp has no entry for op " << c.op();
  const json& expected = d.at("expected");
  const json kw = d.value("kwargs", json::object());
  const bool wants_error = expected.is_object() && expected.contains("error");
  Args args;
  Results got;
  try {
    args = make_args(d.at("args"));
    got = entry->second.fn(args, kw);
  } catch (const Error& e) {
    if (wants_error) {
      EXPECT_EQ(error_class(e), expected["error"].get<std::string>()) << c.op() << ": " << e.what();
      return;
    }
    FAIL() << c.op() << " threw " << error_class(e) << ": " << e.what() << "\n" << describe_args(d);
  } catch (const std::exception& e) {
    FAIL() << c.op() << " threw a non-ember exception: " << e.what() << "\n" << describe_args(d);
  }
  ASSERT_FALSE(wants_error) << c.op() << " returned instead of throwing " << expected["error"] << "\n"
                            << describe_args(d);
  const auto want = expected_results(expected);
  const DType float_dtype = want[0].floating() ? want[0].dtype : DType::float64;
  Tol tol = entry->second.tol.for_dtype(float_dtype);
  if (d.contains("tol")) tol = Tol{d["tol"]["rtol"].get<double>(), d["tol"]["atol"].get<double>()};
  const std::string check = d.value("check", "");
  if (!check.empty()) {
    const HostTensor a = host(args[0].tensor);
    const auto result = check == "qr"    ? check_qr(a, got, want, tol)
                        : check == "svd" ? check_svd(a, got, want, tol)
                                         : check_eigh(a, got, want, tol);
    EXPECT_TRUE(result) << describe_args(d);
    return;
  }
  ASSERT_EQ(got.size(), want.size()) << c.op() << " returned the wrong number of results";
  const bool signed_zeros = d.value("signed_zeros", false) || entry->second.tol.exact_zero_sign;
  for (std::size_t k = 0; k < want.size(); ++k) {
    const Tol t = d.contains("tol") ? tol : entry->second.tol.for_dtype(want[k].dtype);
    EXPECT_TRUE(same_tensor(got[k], want[k], t, signed_zeros, c.op() + " result " + std::to_string(k)))
        << describe_args(d);
  }
}

struct Param {
  std::string backend;
  const Case* c;
};
void PrintTo(const Param& p, std::ostream* os) {
  *os << p.backend << " " << p.c->category << " " << p.c->name;
}

std::vector<Param> params(const std::string& category) {
  std::vector<Param> out;
  for (const auto& backend : registered_backends()) {
    for (const auto& c : cases(category)) out.push_back({backend, &c});
  }
  return out;
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  return info.param.backend + "_" + info.param.c->name;
}

class Golden : public ::testing::TestWithParam<Param> {};

TEST_P(Golden, MatchesNumPy) {
  EMBER_REQUIRE_BACKEND(GetParam().backend);
  BackendScope scope(GetParam().backend);
  run_case(*GetParam().c);
}

INSTANTIATE_TEST_SUITE_P(Math, Golden, ::testing::ValuesIn(params("math")), param_name);
INSTANTIATE_TEST_SUITE_P(Comparison, Golden, ::testing::ValuesIn(params("comparison")), param_name);
INSTANTIATE_TEST_SUITE_P(Tensor, Golden, ::testing::ValuesIn(params("tensor")), param_name);
INSTANTIATE_TEST_SUITE_P(Solver, Golden, ::testing::ValuesIn(params("solver")), param_name);

class GoldenDType : public ::testing::TestWithParam<const Case*> {};

TEST_P(GoldenDType, MatchesNumPy) {
  const Case& c = *GetParam();
  ASSERT_TRUE(c.error.empty()) << c.error;
  const auto entry = dtype_ops().find(c.op());
  ASSERT_NE(entry, dtype_ops().end()) << "golden_test.cpp has no entry for op " << c.op();
  const json& expected = c.data.at("expected");
  try {
    const json got = entry->second(c.data.at("kwargs"));
    ASSERT_TRUE(expected.contains("value")) << c.op() << " returned " << got << " instead of throwing";
    EXPECT_EQ(got, expected["value"]) << describe_args(c.data);
  } catch (const Error& e) {
    ASSERT_TRUE(expected.contains("error")) << c.op() << " threw " << e.what() << "\n"
                                            << describe_args(c.data);
    EXPECT_EQ(error_class(e), expected["error"].get<std::string>()) << e.what();
  }
}

std::vector<const Case*> dtype_params() {
  std::vector<const Case*> out;
  for (const auto& c : cases("dtype")) out.push_back(&c);
  return out;
}

INSTANTIATE_TEST_SUITE_P(DType, GoldenDType, ::testing::ValuesIn(dtype_params()),
                         [](const ::testing::TestParamInfo<const Case*>& info) { return info.param->name; });

// Guards against a fixture that lost cases or an op that lost its coverage: every op the driver knows has
// cases, every case's op is known, and there is a backend to run them on.
TEST(GoldenFixtures, EveryOpHasCasesOnEveryBackend) {
  ASSERT_FALSE(registered_backends().empty());
  for (const std::string category : {"math", "comparison", "tensor", "solver", "dtype"}) {
    const auto& all = cases(category);
    ASSERT_TRUE(all.front().error.empty()) << all.front().error;
    std::set<std::string> seen;
    for (const auto& c : all) seen.insert(c.op());
    std::set<std::string> known;
    if (category == "dtype") {
      for (const auto& [name, fn] : dtype_ops()) known.insert(name);
    } else {
      for (const auto& [name, spec] : ops_of(category)) known.insert(name);
    }
    EXPECT_EQ(seen, known) << category << ".json and golden_test.cpp disagree on the op list";
  }
}

}  // namespace
}  // namespace ember::golden
