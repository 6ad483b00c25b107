// Backend interface, category "fusion": a chain of element-wise ops evaluated in one pass.
// See ember/backend/tensor_ops.hpp for the contract every backend method follows, and ember/lazy.hpp for how
// the frontend builds these programs from deferred ops.
//
// A FusedProgram is a small expression graph in evaluation order. Each step is one of the MathOps
// element-wise methods (or DTypeOps::cast) applied to program inputs, constants or earlier steps; the last
// step is the result. A backend evaluates it without full-size temporaries, and the result is bit-identical
// to running the steps one by one through the backend's own MathOps/DTypeOps methods: every step rounds to
// its dtype.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ember/dtype.hpp"
#include "ember/scalar.hpp"
#include "ember/tensor.hpp"

namespace ember {

// The element-wise ops a program holds: the MathOps methods of the same name, and cast.
enum class ElementOp : std::uint8_t {
  // binary (MathOps)
  add,
  subtract,
  multiply,
  divide,
  floor_divide,
  mod,
  power,
  minimum,
  maximum,
  // unary (MathOps)
  negative,
  abs,
  sign,
  square,
  sqrt,
  exp,
  expm1,
  log,
  log1p,
  log2,
  log10,
  sin,
  cos,
  tan,
  sinh,
  cosh,
  tanh,
  floor,
  ceil,
  round,
  // DTypeOps::cast: the operand has its own dtype
  cast,
};

// "add", "exp", "cast", ...: the name of the MathOps/DTypeOps method.
const char* element_op_name(ElementOp op);
// 2 for the binary ops, 1 for the unary ops and cast.
int element_op_arity(ElementOp op);

// Where a step's operand comes from.
struct FusedRef {
  enum class Kind : std::uint8_t { input, constant, step };
  Kind kind = Kind::input;
  std::uint32_t index = 0;  // into FusedProgram::inputs, ::constants or ::steps (an earlier step)
};

// One op. Operands have the step's dtype, except a cast's operand, which has its own.
struct FusedStep {
  ElementOp op = ElementOp::add;
  DType dtype = DType::float32;
  FusedRef a;
  FusedRef b;  // binary ops only
};

// A scalar operand: the value a 0-d tensor of `dtype` holds after TensorOps::full(value).
struct FusedConstant {
  Scalar value;
  DType dtype = DType::float32;
};

struct FusedProgram {
  // Tensors of this backend and out's device, each broadcasting to out's shape: one with out's element count
  // is read element by element, one of a single element is a scalar, any other through broadcast strides.
  std::vector<Tensor> inputs;
  std::vector<FusedConstant> constants;
  std::vector<FusedStep> steps;  // in evaluation order; the last one is the result

  // A text key of the program's structure: ops, dtypes and operand references, and the inputs' and
  // constants' dtypes; not shapes, strides or values. Equal keys can share one compiled kernel.
  std::string structure() const;
};

class FusionOps {
 public:
  virtual ~FusionOps() = default;

  // Whether fused_elementwise accepts a step `op` with result dtype `dtype` whose operand dtype is
  // `operand_dtype` (equal to dtype except for cast) on `device`. The frontend computes the other ops one by
  // one, as it does when lazy evaluation is off.
  virtual bool fuses(ElementOp op, DType dtype, DType operand_dtype, Device device) = 0;
  // Evaluates `program` into out, whose dtype is the last step's and whose shape is the broadcast shape of
  // the inputs. Every step is accepted by fuses(). out.size() may be 0.
  virtual void fused_elementwise(const FusedProgram& program, Tensor& out) = 0;
};

}  // namespace ember
