// OpenCL backend, category "random": kernels/random.cl runs the shared samplers of
// ember/random/distributions.h on the device, one work-item per element or per block of 16 (float16 and
// float32 uniform, normal, exponential and gamma fills, whose Philox draws run 16 at once), so the same key
// gives tensors byte-identical to the eigen backend's. Host-side parameter handling follows
// backends/eigen/random_ops.cpp exactly: float32 parameters are rounded with the same to_f32 rule and the
// Bernoulli threshold is computed here. random_permutation computes the 64-bit keys on the device and sorts
// (key, index) pairs on the host with std::sort (a stable order since indices are distinct), then uploads the
// permutation.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "ember/random/distributions.h"
#include "opencl_backend.hpp"
#include "runtime.hpp"

namespace ember::opencl {
namespace {

// A double parameter as the float the float32 samplers take: IEEE round to nearest, saturating to +-inf
// beyond the rounding boundary (the eigen backend's rule).
float to_f32(double v) {
  constexpr double limit = 0x1.ffffffp127;  // FLT_MAX plus half an ulp
  if (v >= limit) return std::numeric_limits<float>::infinity();
  if (v <= -limit) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(v);
}

cl_kernel random_kernel(DeviceContext& dev, const std::string& name) {
  return dev.kernel("random", "", name.c_str());
}

// Elements per work-item of random.cl's block kernels (EMBER_BLOCK).
constexpr std::int64_t kRandomBlock = 16;

// How a distribution's float16/float32 kernels take their range: one work-item per element, or per block
// of kRandomBlock elements (FILL_BLOCK in random.cl; float64 kernels are per element).
enum class Range { element, block };

// Fills floating-point out with kernel <name>_f16/_f32/_f64 of random.cl and parameters p0, p1, p2.
void fill_floating(Runtime& rt, const char* op, const char* name, Tensor& out, double p0, double p1,
                   RandomKey key, double p2 = 0.0, Range range = Range::element) {
  if (out.size() == 0) return;
  DeviceContext& dev = rt.device(out.device(), op);
  const cl_ulong seed = key.seed;
  const cl_uint call = key.counter;
  switch (out.dtype()) {
    case DType::float16:
    case DType::float32: {
      const cl_kernel kernel =
          random_kernel(dev, std::string(name) + (out.dtype() == DType::float16 ? "_f16" : "_f32"));
      const std::int64_t n = out.size();
      if (range == Range::block) {
        dev.launch(kernel, (n + kRandomBlock - 1) / kRandomBlock, static_cast<cl_long>(n), arg(out), seed,
                   call, to_f32(p0), to_f32(p1), to_f32(p2));
      } else {
        dev.launch(kernel, n, arg(out), seed, call, to_f32(p0), to_f32(p1), to_f32(p2));
      }
      return;
    }
    case DType::float64:
      dev.launch(random_kernel(dev, std::string(name) + "_f64"), out.size(), arg(out), seed, call,
                 static_cast<cl_double>(p0), static_cast<cl_double>(p1), static_cast<cl_double>(p2));
      return;
    default:
      throw BackendError(std::string("opencl: ") + op + " needs a floating-point output");
  }
}

// The permutation of [0, n) given by sorting the per-element keys (ties by index), as int64 on the host.
std::vector<std::int64_t> permutation_of(DeviceContext& dev, std::int64_t n, RandomKey key) {
  std::vector<std::int64_t> perm(static_cast<std::size_t>(n));
  if (n == 0) return perm;
  const auto nbytes = static_cast<std::size_t>(n) * sizeof(cl_ulong);
  const std::shared_ptr<ClBuffer> keys = dev.allocate(nbytes);
  dev.launch(random_kernel(dev, "permutation_keys"), n, keys->mem(), static_cast<cl_ulong>(key.seed),
             static_cast<cl_uint>(key.counter));
  std::vector<cl_ulong> host_keys(static_cast<std::size_t>(n));
  dev.read(keys->mem(), 0, nbytes, host_keys.data());
  std::vector<std::pair<std::uint64_t, std::int64_t>> keyed(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < keyed.size(); ++i) keyed[i] = {host_keys[i], static_cast<std::int64_t>(i)};
  std::sort(keyed.begin(), keyed.end());
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = keyed[i].second;
  return perm;
}

}  // namespace

void OpenCLBackend::random_uniform(Tensor& out, double low, double high, RandomKey key) {
  fill_floating(*runtime_, "random_uniform", "uniform", out, low, high, key,
                uniform_cap(low, high, out.dtype()), Range::block);
}

void OpenCLBackend::random_normal(Tensor& out, double mean, double stddev, RandomKey key) {
  fill_floating(*runtime_, "random_normal", "normal", out, mean, stddev, key, 0.0, Range::block);
}

void OpenCLBackend::random_exponential(Tensor& out, double scale, RandomKey key) {
  fill_floating(*runtime_, "random_exponential", "exponential", out, scale, 0.0, key, 0.0, Range::block);
}

void OpenCLBackend::random_gamma(Tensor& out, double alpha, double scale, RandomKey key) {
  fill_floating(*runtime_, "random_gamma", "gamma", out, alpha, scale, key, 0.0, Range::block);
}

void OpenCLBackend::random_bernoulli(Tensor& out, double p, RandomKey key) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "random_bernoulli");
  const cl_ulong threshold = ember_bernoulli_threshold(p);
  dev.launch(random_kernel(dev, "bernoulli"), out.size(), arg(out), static_cast<cl_ulong>(key.seed),
             static_cast<cl_uint>(key.counter), threshold);
}

void OpenCLBackend::random_poisson(Tensor& out, double lam, RandomKey key) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "random_poisson");
  if (!dev.has_fp64()) {
    throw BackendError("opencl: random_poisson needs cl_khr_fp64, which " + dev.name() + " does not have");
  }
  dev.launch(random_kernel(dev, "poisson"), out.size(), arg(out), static_cast<cl_ulong>(key.seed),
             static_cast<cl_uint>(key.counter), static_cast<cl_double>(lam));
}

void OpenCLBackend::random_categorical(const Tensor& logits, Tensor& out, RandomKey key) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "random_categorical");
  const char* kernel = nullptr;
  switch (logits.dtype()) {
    case DType::float16:
      kernel = "categorical_f16";
      break;
    case DType::float32:
      kernel = "categorical_f32";
      break;
    case DType::float64:
      kernel = "categorical_f64";
      break;
    default:
      throw BackendError("opencl: random_categorical needs floating-point logits");
  }
  dev.launch(random_kernel(dev, kernel), out.size(), arg(logits), arg(out), static_cast<cl_ulong>(key.seed),
             static_cast<cl_uint>(key.counter), static_cast<cl_long>(logits.dim(1)),
             static_cast<cl_long>(out.dim(1)));
}

void OpenCLBackend::random_permutation(Tensor& out, RandomKey key) {
  DeviceContext& dev = runtime_->device(out.device(), "random_permutation");
  const std::vector<std::int64_t> perm = permutation_of(dev, out.size(), key);
  dev.write(mem_of(out), out.byte_offset(), out.nbytes(), perm.data());
}

void OpenCLBackend::shuffle(const Tensor& x, Tensor& out, RandomKey key) {
  const std::int64_t n = x.dim(0);
  if (n == 0 || x.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "shuffle");
  const std::vector<std::int64_t> perm = permutation_of(dev, n, key);
  const std::shared_ptr<ClBuffer> device_perm = dev.allocate(perm.size() * sizeof(std::int64_t));
  dev.write(device_perm->mem(), 0, perm.size() * sizeof(std::int64_t), perm.data());
  const auto row_bytes = static_cast<cl_long>(x.nbytes() / static_cast<std::size_t>(n));
  dev.launch(random_kernel(dev, "gather_rows"), static_cast<std::int64_t>(x.nbytes()), mem_of(x),
             static_cast<cl_long>(x.byte_offset()), mem_of(out), static_cast<cl_long>(out.byte_offset()),
             device_perm->mem(), row_bytes);
}

}  // namespace ember::opencl
