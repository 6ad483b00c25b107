// Every bad input of the ember library, one row each: the call must throw the right ember::Error subclass
// with a message that names the op and what is wrong (DESIGN.md section 6), on every backend: the shapes for
// shape and axis errors, the dtypes for dtype errors, the value for value and index errors, the name for
// backends and devices. A few rows are inputs ember defines instead of rejecting ("none": no error, and the
// row checks the defined result). Each row runs with a fresh, empty configuration folder (XDG_CONFIG_HOME),
// so persisted backend choices are the row's own. A new bad input is one new row.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "backend_support.hpp"
#include "ember/ember.hpp"
#include "golden_support.hpp"

namespace {

using ember::DType;
using ember::Shape;
using ember::Tensor;
namespace ops = ember::ops;
using Axes = std::vector<std::int64_t>;

Tensor f32(const Shape& s) {
  return ops::zeros(s, DType::float32);
}
Tensor f64(const Shape& s) {
  return ops::ones(s, DType::float64);
}
Tensor boolean(const Shape& s) {
  return ops::zeros(s, DType::bool_);
}
Tensor matrix(const std::vector<double>& v, std::int64_t n) {
  return ops::from_data<double>(v, {n, n});
}
Tensor indices(const std::vector<std::int64_t>& v) {
  return ops::from_data<std::int64_t>(v, {static_cast<std::int64_t>(v.size())});
}

struct Row {
  std::string name;
  std::string error;                   // the ember::Error subclass, or "none"
  std::vector<std::string> fragments;  // each must appear in what()
  std::function<void()> call;
  bool selection = false;  // about choosing the backend: runs outside the test's BackendScope
};

// Sets (or, with nullptr, unsets) an environment variable for the rest of the row.
class EnvironmentVariable {
 public:
  EnvironmentVariable(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    value ? ::setenv(name, value, 1) : ::unsetenv(name);
  }
  ~EnvironmentVariable() { old_ ? ::setenv(name_, old_->c_str(), 1) : ::unsetenv(name_); }
  EnvironmentVariable(const EnvironmentVariable&) = delete;
  EnvironmentVariable& operator=(const EnvironmentVariable&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// The persisted backend choice of this row's configuration folder holds `text`.
void persist(const std::string& text) {
  const std::filesystem::path file = ember::persisted_config_path();
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

// Thrown by a row that cannot run here: the test skips it with the reason.
struct Skip {
  std::string why;
};

// Another registered backend that can run here.
std::string other_backend() {
  for (const auto& name : ember::registered_backends()) {
    if (name != ember::current_backend_name() && ember::test::unavailable_reason(name).empty()) return name;
  }
  throw Skip{"no second backend is available here"};
}

// Fails the row (a std::logic_error, not an ember::Error) when a defined result is not what ember defines.
void expect_values(const Tensor& x, const std::vector<std::int64_t>& expected, const char* what) {
  if (ops::to_host<std::int64_t>(x) != expected)
    throw std::logic_error(std::string(what) + ": unexpected values");
}

constexpr std::int64_t k20 = std::int64_t{1} << 20;

std::vector<Row> make_rows() {
  std::vector<Row> t;
  auto row = [&t](std::string name, std::string error, std::vector<std::string> fragments,
                  std::function<void()> call) {
    t.push_back({std::move(name), std::move(error), std::move(fragments), std::move(call)});
  };
  // Shapes that do not broadcast or do not fit the op.
  row("add_shapes", "ShapeError", {"add", "(2, 3)", "(4,)"}, [] { ops::add(f32({2, 3}), f32({4})); });
  row("multiply_shapes", "ShapeError", {"multiply", "(3, 2)", "(3,)"}, [] {
    ops::multiply(f64({3, 2}), f64({3}));
  });
  row("equal_shapes", "ShapeError", {"equal", "(2,)", "(3,)"}, [] { ops::equal(f32({2}), f32({3})); });
  row("where_shapes", "ShapeError", {"where", "(2,)", "(3,)"},
      [] { ops::where(boolean({2}), f32({3}), f32({3})); });
  row("matmul_inner", "ShapeError", {"matmul", "(2, 3)", "(4, 2)"}, [] {
    ops::matmul(f64({2, 3}), f64({4, 2}));
  });
  row("matmul_0d", "ShapeError", {"matmul", "()"}, [] { ops::matmul(f64({}), f64({2})); });
  row("dot_shapes", "ShapeError", {"dot", "(3,)", "(4,)"}, [] { ops::dot(f32({3}), f32({4})); });
  row("concatenate_shapes", "ShapeError", {"concatenate", "(2, 3)", "(2, 4)"}, [] {
    ops::concatenate({f32({2, 3}), f32({2, 4})}, 0);
  });
  row("stack_shapes", "ShapeError", {"stack", "(2, 3)", "(3, 2)"}, [] {
    ops::stack({f32({2, 3}), f32({3, 2})});
  });
  row("split_unequal", "ShapeError", {"split", "(5,)", "2"}, [] { ops::split(f32({5}), std::int64_t{2}); });
  row("broadcast_to_shapes", "ShapeError", {"broadcast_to", "(3,)", "(4,)"},
      [] { ops::broadcast_to(f32({3}), {4}); });
  row("reshape_count", "ShapeError", {"reshape", "(2, 3)", "(4, 2)"}, [] {
    ops::reshape(f32({2, 3}), {4, 2});
  });
  row("reshape_two_unknown", "ShapeError", {"reshape", "(-1, -1)"}, [] {
    ops::reshape(f32({2, 3}), {-1, -1});
  });
  row("pad_widths", "ShapeError", {"pad", "(4,)"}, [] { ops::pad(f32({4}), {{1, 1}, {1, 1}}); });
  row("item_size", "ShapeError", {"item", "(2,)"}, [] { ops::item(f64({2})); });
  row("solve_shapes", "ShapeError", {"solve", "(3, 3)", "(4,)"}, [] { ops::solve(f64({3, 3}), f64({4})); });
  row("det_not_square", "ShapeError", {"det", "(2, 3)"}, [] { ops::det(f64({2, 3})); });
  row("trace_1d", "ShapeError", {"trace", "(3,)"}, [] { ops::trace(f64({3})); });
  // Bad axes: the message names the axis and the shape it does not fit.
  row("sum_axis", "ShapeError", {"sum", "2", "(2, 3)"}, [] { ops::sum(f32({2, 3}), Axes{2}); });
  row("mean_repeated_axis", "ShapeError", {"mean", "(2, 3)"}, [] { ops::mean(f32({2, 3}), Axes{0, -2}); });
  row("argmax_axis", "ShapeError", {"argmax", "-3", "(2, 3)"}, [] { ops::argmax(f32({2, 3}), -3); });
  row("cumsum_axis", "ShapeError", {"cumsum", "2", "(2, 3)"}, [] { ops::cumsum(f32({2, 3}), 2); });
  row("transpose_perm", "ShapeError", {"transpose", "(2, 3)"}, [] {
    ops::transpose(f32({2, 3}), Axes{0, 0});
  });
  row("squeeze_not_one", "ShapeError", {"squeeze", "(2, 1)"}, [] { ops::squeeze(f32({2, 1}), Axes{0}); });
  row("expand_dims_axis", "ShapeError", {"expand_dims", "4", "(2, 3)"}, [] {
    ops::expand_dims(f32({2, 3}), 4);
  });
  row("flip_axis", "ShapeError", {"flip", "(2,)"}, [] { ops::flip(f32({2}), Axes{1}); });
  row("sort_axis", "ShapeError", {"sort", "2", "(2, 3)"}, [] { ops::sort(f32({2, 3}), 2); });
  row("all_axis", "ShapeError", {"all", "(2,)"}, [] { ops::all(boolean({2}), Axes{1}); });
  // Empty reductions without identity.
  row("min_empty", "ShapeError", {"min", "(0,)", "float32"}, [] { ops::min(f32({0})); });
  row("max_empty_axis", "ShapeError", {"max", "(2, 0)", "float64"}, [] { ops::max(f64({2, 0}), Axes{1}); });
  row("argmin_empty", "ShapeError", {"argmin", "(0,)", "float32"}, [] { ops::argmin(f32({0})); });
  // Unsupported dtypes.
  row("add_bool", "DTypeError", {"add", "bool", "(2,)"}, [] { ops::add(boolean({2}), boolean({2})); });
  row("negative_bool", "DTypeError", {"negative", "bool", "(3,)"}, [] { ops::negative(boolean({3})); });
  row("sqrt_bool", "DTypeError", {"sqrt", "bool", "(3,)"}, [] { ops::sqrt(boolean({3})); });
  row("power_bool", "DTypeError", {"power", "bool"}, [] { ops::power(boolean({3}), boolean({3})); });
  row("matmul_bool", "DTypeError", {"matmul", "bool"}, [] { ops::matmul(boolean({2, 2}), boolean({2, 2})); });
  row("gather_float_indices", "DTypeError", {"gather", "float64", "(2,)"},
      [] { ops::gather(f32({3}), f64({2})); });
  row("random_uniform_int", "DTypeError", {"random_uniform", "int32"},
      [] { ops::random_uniform({2}, 0.0, 1.0, DType::int32); });
  row("random_normal_bool", "DTypeError", {"random_normal", "bool"},
      [] { ops::random_normal({2}, 0.0, 1.0, DType::bool_); });
  row("random_gamma_int", "DTypeError", {"random_gamma", "int64"},
      [] { ops::random_gamma({2}, 1.0, 1.0, DType::int64); });
  row("dtype_from_name", "DTypeError", {"dtype_from_name", "complex64"},
      [] { ops::dtype_from_name("complex64"); });
  row("finfo_int", "DTypeError", {"finfo", "int32"}, [] { ops::finfo(DType::int32); });
  // Values.
  row("random_bernoulli_p", "ValueError", {"random_bernoulli", "1.5"},
      [] { ops::random_bernoulli({2}, 1.5); });
  row("linspace_num", "ValueError", {"linspace", "-1"}, [] { ops::linspace(0.0, 1.0, -1); });
  // Indices, checked where the values are read.
  row("gather_index", "IndexError", {"gather", "5", "3"}, [] { ops::gather(f32({3}), indices({0, 5}), 0); });
  row("gather_negative_index", "IndexError", {"gather", "-4", "3"},
      [] { ops::gather(f32({3}), indices({-4}), 0); });
  row("scatter_add_index", "IndexError", {"scatter_add", "3"},
      [] { ops::scatter_add(f32({3}), indices({3}), f32({1}), 0); });
  // Numerical failures.
  row("solve_singular", "LinAlgError", {"solve", "singular"}, [] {
    ops::solve(matrix({1, 2, 2, 4}, 2), f64({2}));
  });
  row("inv_singular", "LinAlgError", {"inv", "singular"}, [] { ops::inv(matrix({1, 2, 2, 4}, 2)); });
  row("cholesky_indefinite", "LinAlgError", {"cholesky", "positive definite"}, [] {
    ops::cholesky(matrix({1, 2, 2, 1}, 2));
  });
  // Sizes that cannot exist: 2^70 elements overflow int64, 2^60 floats cannot be allocated, 2^64 bytes
  // overflow size_t, negative extents.
  row("zeros_count_overflow", "ShapeError", {"zeros", "(1099511627776, 1073741824)"}, [] {
    ops::zeros({std::int64_t{1} << 40, std::int64_t{1} << 30});
  });
  row("zeros_cannot_allocate", "BackendError", {"zeros", "(1048576, 1048576, 1048576)", "float32"}, [] {
    ops::zeros({k20, k20, k20});
  });
  row("zeros_bytes_overflow", "BackendError", {"zeros", "(1048576, 1048576, 4194304)", "float64"}, [] {
    ops::zeros({k20, k20, 4 * k20}, DType::float64);
  });
  row("zeros_negative", "ShapeError", {"zeros", "(2, -1)"}, [] { ops::zeros({2, -1}); });
  // Host data that does not fit its shape.
  row("from_data_count", "ShapeError", {"from_data", "3 elements", "(2, 2)"}, [] {
    ops::from_data<float>({1, 2, 3}, {2, 2});
  });
  row("from_bytes_count", "ShapeError", {"from_bytes", "7 bytes", "(2,)", "float32"}, [] {
    const char bytes[7] = {};
    ops::from_bytes(bytes, sizeof bytes, {2}, DType::float32);
  });
  // More values.
  row("arange_zero_step", "ValueError", {"arange", "step must not be zero"}, [] { ops::arange(0, 4, 0); });
  row("arange_not_finite", "ValueError", {"arange", "finite"},
      [] { ops::arange(0.0, std::numeric_limits<double>::infinity(), 1.0); });
  row("split_zero_sections", "ValueError", {"split", "positive", "0"},
      [] { ops::split(f32({4}), std::int64_t{0}); });
  row("tile_negative", "ValueError", {"tile", "-1"}, [] { ops::tile(f32({2}), {-1}); });
  row("pad_negative", "ValueError", {"pad", "non-negative"}, [] { ops::pad(f32({2}), {{-1, 0}}); });
  row("slice_zero_step", "ValueError", {"slice", "step", "zero"}, [] {
    ops::slice(f32({4}), {ops::Slice{std::nullopt, std::nullopt, 0}});
  });
  row("norm_order", "ValueError", {"norm", "invalid order 'bogus'"}, [] { ops::norm(f64({3}), "bogus"); });
  row("concatenate_nothing", "ValueError", {"concatenate", "at least one tensor"},
      [] { ops::concatenate({}, 0); });
  row("diagonal_same_axes", "ShapeError", {"diagonal", "axis1 and axis2 must differ"}, [] {
    ops::diagonal(f64({2, 2}), 0, 1, 1);
  });
  // Dtypes that do not promote to what the op needs.
  row("categorical_int_logits", "DTypeError", {"random_categorical", "floating-point logits", "int32"},
      [] { ops::random_categorical(ops::zeros({3}, DType::int32), 2); });
  row("iinfo_float", "DTypeError", {"iinfo", "float32"}, [] { ops::iinfo(DType::float32); });
  // Tensors that do not belong together, or to anything.
  row("undefined_operand", "BackendError", {"add", "undefined tensor"}, [] { ops::add(Tensor(), f32({2})); });
  row("mixed_backends", "BackendError", {"add", "different backends"}, [] {
    const std::string other = other_backend();
    Tensor a = f32({2});
    Tensor b;
    {
      ember::BackendScope scope(other);
      b = f32({2});
    }
    ops::add(a, b);
  });
  // Devices.
  row("device_name", "DeviceError", {"unknown device \"gpu:0\"", "cpu", "opencl:N"},
      [] { ember::Device::parse("gpu:0"); });
  row("device_index", "DeviceError", {"unknown device \"opencl:x\""},
      [] { ember::Device::parse("opencl:x"); });
  row("device_unavailable", "DeviceError", {"zeros", "opencl:99"},
      [] { ops::zeros({2}, DType::float32, ember::Device::opencl(99)); });
  // Choosing a backend: by name, environment and persisted file (in this row's configuration folder).
  row("backend_name", "BackendError", {"unknown backend \"cuda\"", "registered backends"},
      [] { ember::get_backend("cuda"); });
  row("backend_scope_name", "BackendError", {"unknown backend \"cuda\""},
      [] { ember::BackendScope scope("cuda"); });
  row("set_backend_name", "BackendError", {"unknown backend \"cuda\""}, [] { ember::set_backend("cuda"); });
  t.push_back({"environment_backend",
               "BackendError",
               {"EMBER_BACKEND", "\"cuda\"", "registered backends"},
               [] {
                 EnvironmentVariable env("EMBER_BACKEND", "cuda");
                 ember::current_backend();
               },
               true});
  t.push_back({"persisted_not_json",
               "BackendError",
               {"config.json", "is not valid JSON", "fix or delete the file"},
               [] {
                 EnvironmentVariable env("EMBER_BACKEND", nullptr);
                 persist("{\"backend\": ");
                 ember::current_backend();
               },
               true});
  t.push_back({"persisted_wrong_shape",
               "BackendError",
               {"config.json", "string \"backend\""},
               [] {
                 EnvironmentVariable env("EMBER_BACKEND", nullptr);
                 persist("{\"backend\": 3}");
                 ember::current_backend();
               },
               true});
  t.push_back({"persisted_unknown_backend",
               "BackendError",
               {"config.json", "unknown backend \"cuda\""},
               [] {
                 EnvironmentVariable env("EMBER_BACKEND", nullptr);
                 persist("{\"backend\": \"cuda\"}");
                 ember::current_backend();
               },
               true});
  // Defined, not errors: NaN and out-of-range floats cast to integers (0, saturated), integer division by 0.
  row("nan_to_int", "none", {}, [] {
    const Tensor nan = ops::from_data<double>({std::nan(""), 1e30, -1e30}, {3});
    const std::int64_t max = std::numeric_limits<std::int32_t>::max(),
                       min = std::numeric_limits<std::int32_t>::min();
    expect_values(ops::cast(nan, DType::int32), {0, max, min}, "cast of NaN, 1e30 and -1e30 to int32");
  });
  return t;
}

const std::vector<Row>& rows() {
  static const std::vector<Row> table = make_rows();
  return table;
}

using Param = std::tuple<std::string, std::size_t>;

class BadInput : public ::testing::TestWithParam<Param> {};

TEST_P(BadInput, ThrowsNamedError) {
  const auto& [backend, index] = GetParam();
  EMBER_REQUIRE_BACKEND(backend);
  const Row& row = rows()[index];
  // A fresh configuration folder: the persisted backend choice of this row only.
  const std::filesystem::path config = std::filesystem::temp_directory_path() /
                                       ("ember_bad_input_" + std::to_string(::getpid()) + "_" + row.name);
  std::filesystem::remove_all(config);
  std::filesystem::create_directories(config);
  struct RemoveAtEnd {
    std::filesystem::path folder;
    ~RemoveAtEnd() { std::filesystem::remove_all(folder); }
  } remove_at_end{config};
  EnvironmentVariable xdg("XDG_CONFIG_HOME", config.c_str());
  std::optional<ember::BackendScope> scope;
  if (row.selection) {
    ember::reset_backend();  // no explicit choice: the environment and the persisted file decide
  } else {
    scope.emplace(backend);
  }
  try {
    row.call();
    if (row.error != "none") ADD_FAILURE() << row.name << ": no error thrown, expected " << row.error;
  } catch (const Skip& skip) {
    GTEST_SKIP() << row.name << ": " << skip.why;
  } catch (const std::logic_error& e) {
    ADD_FAILURE() << row.name << ": " << e.what();
  } catch (const ember::Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(ember::golden::error_class(e), row.error) << row.name << ": " << what;
    for (const auto& fragment : row.fragments) {
      EXPECT_NE(what.find(fragment), std::string::npos)
          << row.name << ": the message does not name \"" << fragment << "\": " << what;
    }
  }
}

std::vector<std::size_t> row_indices() {
  std::vector<std::size_t> out(rows().size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = k;
  return out;
}

INSTANTIATE_TEST_SUITE_P(Backends, BadInput,
                         ::testing::Combine(::testing::ValuesIn(ember::registered_backends()),
                                            ::testing::ValuesIn(row_indices())),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return std::get<0>(info.param) + "_" + rows()[std::get<1>(info.param)].name;
                         });

}  // namespace
