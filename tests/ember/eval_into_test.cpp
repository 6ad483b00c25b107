// ember::eval_into (ember/lazy.hpp), NumPy's out=: an element-wise expression is evaluated straight into the
// caller's tensor on every backend (no result allocated, the same bytes as a fresh result), in place over one
// of its inputs too; evaluated values are copied; mismatched outs are errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "backend_support.hpp"
#include "ember/backend.hpp"
#include "ember/ember.hpp"

namespace {

using ember::DType;
using ember::Tensor;
namespace ops = ember::ops;

constexpr std::int64_t kN = 1 << 16;  // above fusion_min_elements: the expression is pending

std::vector<unsigned char> bytes_of(const Tensor& t) {
  std::vector<unsigned char> bytes(t.nbytes());
  if (!bytes.empty()) t.backend().to_host(t, bytes.data());
  return bytes;
}

// Restores the fusion check the suite may run with.
class VerifyOff {
 public:
  VerifyOff() : saved_(ember::verifies_fusion()) { ember::set_verify_fusion(false); }
  ~VerifyOff() { ember::set_verify_fusion(saved_); }
  VerifyOff(const VerifyOff&) = delete;
  VerifyOff& operator=(const VerifyOff&) = delete;

 private:
  bool saved_;
};

class EvalInto : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { EMBER_REQUIRE_BACKEND(GetParam()); }
};

TEST_P(EvalInto, WritesTheExpressionIntoOutWithoutAllocating) {
  ember::BackendScope backend(GetParam());
  ops::set_seed(3);
  const Tensor a = ember::eval(ops::random_uniform({kN}, -1.0, 1.0));
  const Tensor b = ember::eval(ops::random_uniform({kN}, -1.0, 1.0));
  const Tensor out = ember::eval(ops::zeros({kN}, DType::float32));
  const auto expression = [&] { return ops::exp(ops::add(ops::multiply(a, 2.0), b)); };
  const std::vector<unsigned char> want = bytes_of(ember::eval(expression()));
  const ember::Buffer* storage = out.buffer().get();
  {
    VerifyOff verify_off;  // the check computes an eager copy, which allocates
    const Tensor x = expression();
    const bool deferred = x.pending();
    const std::size_t before = ops::memory_info().allocations;
    const Tensor r = ember::eval_into(x, out);
    if (deferred) {
      EXPECT_EQ(ops::memory_info().allocations, before) << "eval_into allocated a result";
    }
    EXPECT_EQ(r.buffer().get(), storage);
  }
  EXPECT_EQ(out.buffer().get(), storage);
  EXPECT_EQ(bytes_of(out), want);
}

TEST_P(EvalInto, InPlaceOverAnInput) {
  ember::BackendScope backend(GetParam());
  ops::set_seed(4);
  const Tensor a = ember::eval(ops::random_uniform({kN}, -1.0, 1.0));
  const Tensor b = ember::eval(ops::random_uniform({kN}, -1.0, 1.0));
  const std::vector<unsigned char> want = bytes_of(ember::eval(ops::subtract(ops::multiply(a, 3.0), b)));
  ember::eval_into(ops::subtract(ops::multiply(a, 3.0), b), a);
  EXPECT_EQ(bytes_of(a), want);
}

TEST_P(EvalInto, CopiesAnEvaluatedValueAndKeepsTheShapeOfAView) {
  ember::BackendScope backend(GetParam());
  const Tensor x = ember::eval(ops::arange(0.0, 24.0, 1.0, DType::float32));
  const Tensor out = ember::eval(ops::zeros({24}, DType::float32));
  ember::eval_into(x, out);
  EXPECT_EQ(bytes_of(out), bytes_of(x));
  // A reshaped pending expression into an out of the reshaped shape.
  const Tensor big = ember::eval(ops::full({256, 256}, 1.5, DType::float32));
  const Tensor pending = ops::reshape(ops::add(big, 1.0), {65536});
  const Tensor flat = ember::eval(ops::zeros({65536}, DType::float32));
  ember::eval_into(pending, flat);
  EXPECT_EQ(bytes_of(flat), bytes_of(ember::eval(ops::full({65536}, 2.5, DType::float32))));
}

TEST_P(EvalInto, MismatchedOutIsAnError) {
  ember::BackendScope backend(GetParam());
  const Tensor a = ember::eval(ops::zeros({kN}, DType::float32));
  EXPECT_THROW(ember::eval_into(ops::add(a, 1.0), ember::eval(ops::zeros({kN + 1}, DType::float32))),
               ember::ShapeError);
  EXPECT_THROW(ember::eval_into(ops::add(a, 1.0), ember::eval(ops::zeros({kN}, DType::float64))),
               ember::DTypeError);
}

INSTANTIATE_TEST_SUITE_P(Backends, EvalInto, ::testing::Values("eigen", "blas", "opencl"),
                         ember::test::backend_param_name);

}  // namespace
