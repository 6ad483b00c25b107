// Bad inputs, one row each: every op must throw the right ember::Error subclass with a message that names
// the op and what is wrong (DESIGN.md section 6), on every backend: the shapes for shape and axis errors,
// the dtypes for dtype errors, the value for value and index errors.
#include <gtest/gtest.h>

#include <functional>
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
  std::string error;                   // the ember::Error subclass
  std::vector<std::string> fragments;  // each must appear in what()
  std::function<void()> call;
};

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
  ember::BackendScope scope(backend);
  const Row& row = rows()[index];
  try {
    row.call();
    ADD_FAILURE() << row.name << ": no error thrown, expected " << row.error;
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
