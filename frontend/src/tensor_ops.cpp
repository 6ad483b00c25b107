// PLACEHOLDER: replaced by the real frontend tensor ops.
#include "ember/ops/tensor.hpp"
#include "ember/error.hpp"

namespace ember::ops {

Tensor zeros(const Shape& /*shape*/, DType /*dtype*/, std::optional<Device> /*device*/) { throw Error("zeros: pending"); }
Tensor ones(const Shape& /*shape*/, DType /*dtype*/, std::optional<Device> /*device*/) { throw Error("ones: pending"); }
Tensor full(const Shape& /*shape*/, Scalar /*value*/, std::optional<DType> /*dtype*/, std::optional<Device> /*device*/) { throw Error("full: pending"); }
Tensor zeros_like(const Tensor& /*x*/, std::optional<DType> /*dtype*/) { throw Error("zeros_like: pending"); }
Tensor ones_like(const Tensor& /*x*/, std::optional<DType> /*dtype*/) { throw Error("ones_like: pending"); }
Tensor full_like(const Tensor& /*x*/, Scalar /*value*/, std::optional<DType> /*dtype*/) { throw Error("full_like: pending"); }
Tensor eye(std::int64_t /*n*/, std::optional<std::int64_t> /*m*/, std::int64_t /*k*/, DType /*dtype*/, std::optional<Device> /*device*/) { throw Error("eye: pending"); }
Tensor arange(Scalar /*start*/, Scalar /*stop*/, Scalar /*step*/, std::optional<DType> /*dtype*/, std::optional<Device> /*device*/) { throw Error("arange: pending"); }
Tensor arange(Scalar /*stop*/) { throw Error("arange: pending"); }
Tensor linspace(double /*start*/, double /*stop*/, std::int64_t /*num*/, bool /*endpoint*/, DType /*dtype*/, std::optional<Device> /*device*/) { throw Error("linspace: pending"); }
Tensor from_bytes(const void* /*bytes*/, std::size_t /*nbytes*/, const Shape& /*shape*/, DType /*dtype*/, std::optional<Device> /*device*/) { throw Error("from_bytes: pending"); }
Scalar item(const Tensor& /*x*/) { throw Error("item: pending"); }
Tensor copy(const Tensor& /*x*/) { throw Error("copy: pending"); }
Tensor cast(const Tensor& /*x*/, DType /*dtype*/) { throw Error("cast: pending"); }
Tensor reshape(const Tensor& /*x*/, const Shape& /*shape*/) { throw Error("reshape: pending"); }
Tensor transpose(const Tensor& /*x*/, std::optional<std::vector<std::int64_t>> /*axes*/) { throw Error("transpose: pending"); }
Tensor expand_dims(const Tensor& /*x*/, std::int64_t /*axis*/) { throw Error("expand_dims: pending"); }
Tensor squeeze(const Tensor& /*x*/, std::optional<std::vector<std::int64_t>> /*axes*/) { throw Error("squeeze: pending"); }
Tensor flatten(const Tensor& /*x*/) { throw Error("flatten: pending"); }
Tensor broadcast_to(const Tensor& /*x*/, const Shape& /*shape*/) { throw Error("broadcast_to: pending"); }
Tensor concatenate(const std::vector<Tensor>& /*xs*/, std::int64_t /*axis*/) { throw Error("concatenate: pending"); }
Tensor stack(const std::vector<Tensor>& /*xs*/, std::int64_t /*axis*/) { throw Error("stack: pending"); }
std::vector<Tensor> split(const Tensor& /*x*/, std::int64_t /*sections*/, std::int64_t /*axis*/) { throw Error("split: pending"); }
std::vector<Tensor> split(const Tensor& /*x*/, const std::vector<std::int64_t>& /*indices*/, std::int64_t /*axis*/) { throw Error("split: pending"); }
Tensor tile(const Tensor& /*x*/, const std::vector<std::int64_t>& /*reps*/) { throw Error("tile: pending"); }
Tensor pad(const Tensor& /*x*/, const std::vector<std::pair<std::int64_t, std::int64_t>>& /*pad_width*/, PadMode /*mode*/, Scalar /*value*/) { throw Error("pad: pending"); }
Tensor slice(const Tensor& /*x*/, const std::vector<Slice>& /*slices*/) { throw Error("slice: pending"); }
Tensor gather(const Tensor& /*x*/, const Tensor& /*indices*/, std::optional<std::int64_t> /*axis*/) { throw Error("gather: pending"); }
Tensor scatter_add(const Tensor& /*x*/, const Tensor& /*indices*/, const Tensor& /*updates*/, std::int64_t /*axis*/) { throw Error("scatter_add: pending"); }
Tensor flip(const Tensor& /*x*/, std::optional<std::vector<std::int64_t>> /*axes*/) { throw Error("flip: pending"); }
Tensor sort(const Tensor& /*x*/, std::int64_t /*axis*/, bool /*descending*/) { throw Error("sort: pending"); }
Tensor argsort(const Tensor& /*x*/, std::int64_t /*axis*/, bool /*descending*/) { throw Error("argsort: pending"); }

}  // namespace ember::ops
