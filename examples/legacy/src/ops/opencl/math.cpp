// Element-wise math: the operands go through an OpenCL buffer on the first device when there is one (any ICD;
// CI uses pocl), and the arithmetic runs on the host. Without a device the host copy is used directly.
#include <CL/cl.h>

#include <stdexcept>
#include <string>

#include "ops/opencl/opencl_ops.hpp"

namespace legacy::opencl {

namespace {

// Copies `values` into a device buffer and back; returns them unchanged when no device is usable.
std::vector<double> through_device(const std::vector<double>& values) {
  cl_platform_id platform = nullptr;
  cl_uint platforms = 0;
  if (values.empty() || clGetPlatformIDs(1, &platform, &platforms) != CL_SUCCESS || platforms == 0)
    return values;
  cl_device_id device = nullptr;
  if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) return values;
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  if (err != CL_SUCCESS) return values;
  std::vector<double> out = values;
  const std::size_t bytes = values.size() * sizeof(double);
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                                 const_cast<double*>(values.data()), &err);
  if (err == CL_SUCCESS) {
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    if (err == CL_SUCCESS) {
      if (clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, bytes, out.data(), 0, nullptr, nullptr) !=
          CL_SUCCESS)
        out = values;
      clReleaseCommandQueue(queue);
    }
    clReleaseMemObject(buffer);
  }
  clReleaseContext(context);
  return out;
}

void check_same_shape(const Tensor& a, const Tensor& b, const char* op) {
  if (a.rows != b.rows || a.cols != b.cols)
    throw std::invalid_argument(std::string("opencl: ") + op + ": shapes differ");
}

}  // namespace

Tensor add(const Tensor& a, const Tensor& b) {
  check_same_shape(a, b, "add");
  Tensor out(a.rows, a.cols, through_device(a.data));
  for (std::size_t i = 0; i < out.size(); ++i) out.data[i] += b.data[i];
  return out;
}

Tensor add(const Tensor& a, double scalar) {
  Tensor out(a.rows, a.cols, through_device(a.data));
  for (double& v : out.data) v += scalar;
  return out;
}

Tensor subtract(const Tensor& a, const Tensor& b) {
  check_same_shape(a, b, "subtract");
  Tensor out(a.rows, a.cols, through_device(a.data));
  for (std::size_t i = 0; i < out.size(); ++i) out.data[i] -= b.data[i];
  return out;
}

Tensor multiply(const Tensor& a, const Tensor& b) {
  check_same_shape(a, b, "multiply");
  Tensor out(a.rows, a.cols, through_device(a.data));
  for (std::size_t i = 0; i < out.size(); ++i) out.data[i] *= b.data[i];
  return out;
}

}  // namespace legacy::opencl
