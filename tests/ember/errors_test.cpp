// Bad inputs, one row each: every op must throw the right ember::Error subclass with a message that names
// the op, the shapes and the dtypes involved (DESIGN.md section 6), on every backend.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ember/ember.hpp"
#include "golden_support.hpp"

// Huge allocations must surface as ember::BackendError (std::bad_alloc), not abort the sanitized process.
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __asan_default_options() {
  return "allocator_may_return_null=1";
}
#endif

namespace {

using ember::DType;
using ember::Shape;
using ember::Tensor;
namespace ops = ember::ops;

Tensor f32(const Shape& s) {
  return ops::zeros(s, DType::float32);
}
Tensor f64(const Shape& s) {
  return ops::ones(s, DType::float64);
}
Tensor boolean(const Shape& s) {
  return ops::zeros(s, DType::bool_);
}
Tensor matrix(std::vector<double> v, std::int64_t n) {
  return ops::from_data<double>(v, {n, n});
}

struct Row {
  const char* name;
  std::function<void()> call;
  const char* error;                   // the ember::Error subclass
  std::vector<std::string> fragments;  // each must appear in what()
};

constexpr std::int64_t k20 = std::int64_t{1} << 20;

const std::vector<Row>& rows() {
  static const std::vector<Row> table = {
      // Shapes that do not broadcast or do not fit the op.
      {"add_shapes",
       [] {
         ops::add(f32({2, 3}), f32({4}));
       },
       "ShapeError",
       {"add", "(2, 3)", "(4,)", "float32"}},
      {"multiply_shapes",
       [] {
         ops::multiply(f64({3, 2}), f64({3}));
       },
       "ShapeError",
       {"multiply", "(3, 2)", "(3,)", "float64"}},
      {"equal_shapes",
       [] { ops::equal(f32({2}), f32({3})); },
       "ShapeError",
       {"equal", "(2,)", "(3,)", "float32"}},
      {"where_shapes",
       [] { ops::where(boolean({2}), f32({3}), f32({3})); },
       "ShapeError",
       {"where", "(2,)", "(3,)"}},
      {"matmul_inner",
       [] {
         ops::matmul(f64({2, 3}), f64({4, 2}));
       },
       "ShapeError",
       {"matmul", "(2, 3)", "(4, 2)", "float64"}},
      {"matmul_0d", [] { ops::matmul(f64({}), f64({2})); }, "ShapeError", {"matmul", "()", "float64"}},
      {"dot_shapes", [] { ops::dot(f32({3}), f32({4})); }, "ShapeError", {"dot", "(3,)", "(4,)", "float32"}},
      {"concatenate_shapes",
       [] {
         ops::concatenate({f32({2, 3}), f32({2, 4})}, 0);
       },
       "ShapeError",
       {"concatenate", "(2, 3)", "(2, 4)"}},
      {"stack_shapes",
       [] {
         ops::stack({f32({2, 3}), f32({3, 2})});
       },
       "ShapeError",
       {"stack", "(2, 3)", "(3, 2)"}},
      {"split_unequal", [] { ops::split(f32({5}), std::int64_t{2}); }, "ShapeError", {"split", "(5,)", "2"}},
      {"broadcast_to_shapes",
       [] { ops::broadcast_to(f32({3}), {4}); },
       "ShapeError",
       {"broadcast_to", "(3,)", "(4,)"}},
      {"reshape_count",
       [] {
         ops::reshape(f32({2, 3}), {4, 2});
       },
       "ShapeError",
       {"reshape", "(2, 3)", "(4, 2)", "float32"}},
      {"reshape_two_unknown",
       [] {
         ops::reshape(f32({2, 3}), {-1, -1});
       },
       "ShapeError",
       {"reshape", "(2, 3)"}},
      {"pad_widths",
       [] {
         ops::pad(f32({4}), {{1, 1}, {1, 1}});
       },
       "ShapeError",
       {"pad", "(4,)"}},
      {"item_size", [] { ops::item(f64({2})); }, "ShapeError", {"item", "(2,)", "float64"}},
      {"solve_shapes",
       [] {
         ops::solve(f64({3, 3}), f64({4}));
       },
       "ShapeError",
       {"solve", "(3, 3)", "(4,)"}},
      {"det_not_square",
       [] {
         ops::det(f64({2, 3}));
       },
       "ShapeError",
       {"det", "(2, 3)", "float64"}},
      {"trace_1d", [] { ops::trace(f64({3})); }, "ShapeError", {"trace", "(3,)"}},
      // Bad axes.
      {"sum_axis",
       [] {
         ops::sum(f32({2, 3}), std::vector<std::int64_t>{2});
       },
       "ShapeError",
       {"sum", "2", "(2, 3)"}},
      {"mean_repeated_axis",
       [] {
         ops::mean(f32({2, 3}), std::vector<std::int64_t>{0, -2});
       },
       "ShapeError",
       {"mean", "(2, 3)"}},
      {"argmax_axis",
       [] {
         ops::argmax(f32({2, 3}), -3);
       },
       "ShapeError",
       {"argmax", "-3", "(2, 3)"}},
      {"cumsum_axis",
       [] {
         ops::cumsum(f32({2, 3}), 2);
       },
       "ShapeError",
       {"cumsum", "2", "(2, 3)"}},
      {"transpose_perm",
       [] {
         ops::transpose(f32({2, 3}), std::vector<std::int64_t>{0, 0});
       },
       "ShapeError",
       {"transpose", "(2, 3)"}},
      {"squeeze_not_one",
       [] {
         ops::squeeze(f32({2, 1}), std::vector<std::int64_t>{0});
       },
       "ShapeError",
       {"squeeze", "(2, 1)"}},
      {"expand_dims_axis",
       [] {
         ops::expand_dims(f32({2, 3}), 4);
       },
       "ShapeError",
       {"expand_dims", "4", "(2, 3)"}},
      {"flip_axis",
       [] { ops::flip(f32({2}), std::vector<std::int64_t>{1}); },
       "ShapeError",
       {"flip", "(2,)"}},
      {"sort_axis",
       [] {
         ops::sort(f32({2, 3}), 2);
       },
       "ShapeError",
       {"sort", "2", "(2, 3)"}},
      {"all_axis",
       [] { ops::all(boolean({2}), std::vector<std::int64_t>{1}); },
       "ShapeError",
       {"all", "(2,)"}},
      // Empty reductions without identity.
      {"min_empty", [] { ops::min(f32({0})); }, "ShapeError", {"min", "(0,)", "float32"}},
      {"max_empty_axis",
       [] {
         ops::max(f64({2, 0}), std::vector<std::int64_t>{1});
       },
       "ShapeError",
       {"max", "(2, 0)", "float64"}},
      {"argmin_empty", [] { ops::argmin(f32({0})); }, "ShapeError", {"argmin", "(0,)", "float32"}},
      // Unsupported dtypes.
      {"add_bool", [] { ops::add(boolean({2}), boolean({2})); }, "DTypeError", {"add", "bool", "(2,)"}},
      {"negative_bool", [] { ops::negative(boolean({3})); }, "DTypeError", {"negative", "bool", "(3,)"}},
      {"sqrt_bool", [] { ops::sqrt(boolean({3})); }, "DTypeError", {"sqrt", "bool", "(3,)"}},
      {"power_bool", [] { ops::power(boolean({3}), boolean({3})); }, "DTypeError", {"power", "bool"}},
      {"matmul_bool",
       [] {
         ops::matmul(boolean({2, 2}), boolean({2, 2}));
       },
       "DTypeError",
       {"matmul", "bool"}},
      {"gather_float_indices",
       [] { ops::gather(f32({3}), f64({2})); },
       "DTypeError",
       {"gather", "float64", "(2,)"}},
      {"inv_bool",
       [] {
         ops::inv(boolean({2, 2}));
       },
       "DTypeError",
       {"inv", "bool", "(2, 2)"}},
      {"random_uniform_int",
       [] { ops::random_uniform({2}, 0.0, 1.0, DType::int32); },
       "DTypeError",
       {"random_uniform", "int32"}},
      {"random_normal_bool",
       [] { ops::random_normal({2}, 0.0, 1.0, DType::bool_); },
       "DTypeError",
       {"random_normal", "bool"}},
      {"random_gamma_int",
       [] { ops::random_gamma({2}, 1.0, 1.0, DType::int64); },
       "DTypeError",
       {"random_gamma", "int64"}},
      {"dtype_from_name",
       [] { ops::dtype_from_name("complex64"); },
       "DTypeError",
       {"dtype_from_name", "complex64"}},
      {"finfo_int", [] { ops::finfo(DType::int32); }, "DTypeError", {"finfo", "int32"}},
      // Values.
      {"random_bernoulli_p",
       [] { ops::random_bernoulli({2}, 1.5); },
       "ValueError",
       {"random_bernoulli", "1.5"}},
      {"linspace_num", [] { ops::linspace(0.0, 1.0, -1); }, "ValueError", {"linspace", "-1"}},
      // Indices.
      {"gather_index",
       [] {
         ops::gather(f32({3}), ops::from_data<std::int64_t>({0, 5}, {2}), 0);
       },
       "IndexError",
       {"gather", "5", "(3,)"}},
      {"gather_negative_index",
       [] { ops::gather(f32({3}), ops::from_data<std::int64_t>({-4}, {1}), 0); },
       "IndexError",
       {"gather", "-4", "(3,)"}},
      {"scatter_add_index",
       [] { ops::scatter_add(f32({3}), ops::from_data<std::int64_t>({3}, {1}), f32({1}), 0); },
       "IndexError",
       {"scatter_add", "3", "(3,)"}},
      // Numerical failures.
      {"solve_singular",
       [] {
         ops::solve(matrix({1, 2, 2, 4}, 2), f64({2}));
       },
       "LinAlgError",
       {"solve", "singular"}},
      {"inv_singular",
       [] {
         ops::inv(matrix({1, 2, 2, 4}, 2));
       },
       "LinAlgError",
       {"inv", "singular"}},
      {"cholesky_indefinite",
       [] {
         ops::cholesky(matrix({1, 2, 2, 1}, 2));
       },
       "LinAlgError",
       {"cholesky", "positive definite"}},
      // Sizes that cannot exist: 2^70 elements overflow int64, 2^60 floats cannot be allocated, 2^64 bytes
      // overflow size_t.
      {"zeros_count_overflow",
       [] {
         ops::zeros({std::int64_t{1} << 40, std::int64_t{1} << 30});
       },
       "ShapeError",
       {"zeros", "(1099511627776, 1073741824)"}},
      {"zeros_cannot_allocate",
       [] {
         ops::zeros({k20, k20, k20});
       },
       "BackendError",
       {"zeros", "(1048576, 1048576, 1048576)", "float32"}},
      {"zeros_bytes_overflow",
       [] {
         ops::zeros({k20, k20, 4 * k20}, DType::float64);
       },
       "BackendError",
       {"zeros", "(1048576, 1048576, 4194304)", "float64"}},
      {"zeros_negative",
       [] {
         ops::zeros({2, -1});
       },
       "ShapeError",
       {"zeros", "(2, -1)"}},
  };
  return table;
}

using Param = std::tuple<std::string, std::size_t>;

class BadInput : public ::testing::TestWithParam<Param> {};

TEST_P(BadInput, ThrowsNamedError) {
  const auto& [backend, index] = GetParam();
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
