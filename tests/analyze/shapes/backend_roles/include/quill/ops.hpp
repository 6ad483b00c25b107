// quill: one class per op; each backend defines run_cpu or run_gpu out of line in its folder. A Composite op
// carries the composite of simpler ops that the frontend runs instead when prefers_composite(device) says
// so: its backends may decline it.
#pragma once

#include <functional>
#include <stdexcept>
#include <vector>

namespace quill {

struct Tensor {
  std::vector<double> values;
};
using Tensors = std::vector<Tensor>;

class Op {
 public:
  virtual ~Op() = default;
  virtual void run_cpu(const Tensors& in, Tensor& out) = 0;
  virtual void run_gpu(const Tensors& in, Tensor& out) = 0;
};

class Composite : public Op {
 public:
  explicit Composite(std::function<Tensor(const Tensors&)> composite) : composite_(std::move(composite)) {}
  // Whether the frontend runs the composite on this device instead of creating the op.
  static bool prefers_composite(int device);

 protected:
  std::function<Tensor(const Tensors&)> composite_;
};

class Add : public Op {
 public:
  void run_cpu(const Tensors& in, Tensor& out) override;
  void run_gpu(const Tensors& in, Tensor& out) override;
};

class Mul : public Op {
 public:
  void run_cpu(const Tensors& in, Tensor& out) override;
  void run_gpu(const Tensors& in, Tensor& out) override;
};

class Sort : public Op {
 public:
  void run_cpu(const Tensors& in, Tensor& out) override;
  void run_gpu(const Tensors& in, Tensor& out) override;
};

class LayerNorm : public Composite {
 public:
  using Composite::Composite;
  // The CPU never gets here: prefers_composite is true there and the frontend runs the composite.
  void run_cpu(const Tensors&, Tensor&) override { throw std::runtime_error("LayerNorm: NYI"); }
  void run_gpu(const Tensors& in, Tensor& out) override;
};

class Attention : public Composite {
 public:
  using Composite::Composite;
  void run_cpu(const Tensors& in, Tensor& out) override;
  void run_gpu(const Tensors& in, Tensor& out) override;
};

}  // namespace quill
