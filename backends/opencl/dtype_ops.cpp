// OpenCL backend, category "dtype": conversions between all nine dtypes (kernels/cast.cl, one program per
// destination dtype with a kernel per source dtype) and dtype support per device.
#include <string>

#include "ember/ops/dtype.hpp"
#include "opencl_backend.hpp"
#include "runtime.hpp"

namespace ember::opencl {

void OpenCLBackend::cast(const Tensor& x, Tensor& out) {
  if (x.dtype() == out.dtype()) {
    copy(x, out);
    return;
  }
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "cast");
  const std::string kernel = "cast_from_" + ops::dtype_name(x.dtype());
  dev.launch(dev.kernel("cast", dtype_options(out.dtype()), kernel.c_str()), out.size(), arg(x), arg(out));
}

bool OpenCLBackend::supports_dtype(DType dtype, Device device) {
  if (!runtime_->has_device(device)) return false;
  // float16 is stored as bits and computed in float (vload_half), so only float64 needs an extension.
  return dtype != DType::float64 || runtime_->device(device, "supports_dtype").has_fp64();
}

}  // namespace ember::opencl
