// The OpenCL backend's runtime: device discovery, per-device context and queue, device buffers with memory
// counters, the program cache and the kernel-launch helper. Private to backends/opencl/.
//
// How an op file uses it (every op is a member of OpenCLBackend, which owns one Runtime):
//
//   DeviceContext& dev = runtime_->device(out.device(), "negative");  // DeviceError if it does not exist
//   cl_kernel k = dev.kernel("math", dtype_options(out.dtype()), "negative_kernel");
//   dev.launch(k, out.size(), arg(x), arg(out));
//
// runs `__kernel void negative_kernel(long n, __global const T* in, long in_off, __global T* o, long o_off)`
// of kernels/math.cl on out.size() work-items.
//
// launch() passes the work-item count n (as cl_long) as argument 0, then the listed arguments in order; the
// global size is n rounded up to a multiple of kWorkGroupSize, so every kernel starts with
// `if (get_global_id(0) >= n) return;`. A TensorArg (from arg(tensor)) expands to TWO kernel arguments,
// `__global T* p, long p_off`: the buffer and the tensor's element offset into it (views may start inside
// a buffer; kernels must index p[p_off + i]). Any other trivially copyable value is passed by value; ClDims
// is the fixed-size shape/stride array of kernels/common.cl (at most kMaxRank axes, check_rank() throws
// beyond). Every program is compiled from kernels/common.cl + kernels/<name>.cl (kernels/math.cl with the
// random headers and kernels/math_scalar.cl between them) with the options given and
// -cl-fp32-correctly-rounded-divide-sqrt, so + - * / and sqrt round correctly like the host backends.
// Generated programs (kernel_from_source: the fused element-wise kernels of fusion_ops.cpp) get what
// math.cl gets first and the same options.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "build_stats.hpp"  // generated_programs_built()
#include "ember/buffer.hpp"
#include "ember/device.hpp"
#include "ember/dtype.hpp"
#include "ember/error.hpp"
#include "ember/tensor.hpp"

namespace ember::opencl {

// ---- errors ----------------------------------------------------------------------------------------------

// "CL_OUT_OF_RESOURCES" for -5, ...; "CL error <code>" for codes this runtime does not know.
std::string cl_error_name(cl_int code);
// Throws BackendError("opencl: <call> failed: <error name>").
[[noreturn]] void throw_cl_error(const char* call, cl_int code);
inline void check(cl_int code, const char* call) {
  if (code != CL_SUCCESS) throw_cl_error(call, code);
}

// ---- memory ----------------------------------------------------------------------------------------------

// What one device's buffers hold. Buffers keep it alive, so a buffer may outlive the backend.
struct MemoryCounters {
  std::atomic<std::size_t> bytes_in_use{0};
  std::atomic<std::size_t> peak_bytes_in_use{0};
  std::atomic<std::size_t> allocations{0};
  void on_allocate(std::size_t nbytes);
  void on_free(std::size_t nbytes) { bytes_in_use.fetch_sub(nbytes, std::memory_order_relaxed); }
};

// Freed buffers of one device kept by size and handed out again, at most `bound` bytes of them (the oldest
// go first). Memory from clCreateBuffer is new to the process: pocl's CPU device first touches it in the
// kernel that writes it, and the page faults cost more than the op (a 64 MiB float32 add: 25 ms into a
// reused buffer, 90 ms into a new one). Reuse is safe because every command of a device runs on its one
// in-order queue: whatever used the buffer before was enqueued earlier. Thread-safe.
class BufferCache {
 public:
  explicit BufferCache(std::size_t bound) : bound_(bound) {}
  ~BufferCache();
  BufferCache(const BufferCache&) = delete;
  BufferCache& operator=(const BufferCache&) = delete;
  // A cached buffer of exactly nbytes, or nullptr.
  cl_mem take(std::size_t nbytes);
  // Keeps `mem` (nbytes) for reuse, or releases it (and older ones) beyond the bound.
  void give(cl_mem mem, std::size_t nbytes);

 private:
  std::mutex mutex_;
  std::vector<std::pair<std::size_t, cl_mem>> free_;  // oldest first
  std::size_t bytes_ = 0;
  std::size_t bound_;
};

// Device memory: a cl_mem in the device's context, from its BufferCache when one of the size is free and
// back to it when the buffer dies. host_data() is nullptr. A zero-byte buffer holds no cl_mem (mem() is
// nullptr): OpenCL cannot create empty buffers and no op ever reads one.
class ClBuffer final : public Buffer {
 public:
  ClBuffer(std::size_t nbytes, Device device, cl_context context, std::shared_ptr<MemoryCounters> counters,
           std::shared_ptr<BufferCache> cache = nullptr);
  ~ClBuffer() override;
  cl_mem mem() const { return mem_; }

 private:
  cl_mem mem_ = nullptr;
  std::shared_ptr<MemoryCounters> counters_;
  std::shared_ptr<BufferCache> cache_;
};

// The cl_mem behind a tensor of this backend; BackendError if the tensor is not on an OpenCL buffer.
cl_mem mem_of(const Tensor& t);

// ---- kernel arguments ------------------------------------------------------------------------------------

// Shapes and strides handed to kernels by value: ClDims on the host is `ember_dims` in kernels/common.cl.
inline constexpr int kMaxRank = 8;
struct ClDims {
  cl_long v[kMaxRank] = {};
};
// BackendError naming `op` if `rank` exceeds kMaxRank.
void check_rank(const char* op, std::size_t rank);
// A shape (or strides) as ClDims; check_rank first.
ClDims dims_of(const char* op, const std::vector<std::int64_t>& values);

// A tensor as a kernel argument: its buffer and its element offset (byte_offset / itemsize).
struct TensorArg {
  cl_mem mem;
  cl_long offset;
};
TensorArg arg(const Tensor& t);

// Kernel arguments collected at run time for DeviceContext::launch_args: a TensorArg adds the buffer and its
// element offset, as with launch(); any other trivially copyable value is passed by value.
class KernelArgs {
 public:
  template <class A>
  void add(const A& value) {
    if constexpr (std::is_same_v<A, TensorArg>) {
      add(value.mem);
      add(value.offset);
    } else {
      static_assert(std::is_trivially_copyable_v<A>, "kernel arguments are passed by value");
      const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
      sizes_.push_back(sizeof(A));
      bytes_.insert(bytes_.end(), bytes, bytes + sizeof(A));
    }
  }
  // The bytes of all arguments (a cl_mem as the host's pointer size): what CL_DEVICE_MAX_PARAMETER_SIZE
  // limits, at least 1024 bytes on every device.
  std::size_t total_bytes() const { return bytes_.size(); }

 private:
  friend class DeviceContext;
  std::vector<std::size_t> sizes_;
  std::vector<unsigned char> bytes_;
};

// ---- devices ---------------------------------------------------------------------------------------------

// launch() rounds global sizes up to a multiple of this; kernels that use local memory choose their
// work-group size through launch_2d.
inline constexpr std::size_t kWorkGroupSize = 64;

// One OpenCL device with its context, its in-order queue and its compiled programs. Created on first use.
class DeviceContext {
 public:
  DeviceContext(cl_platform_id platform, cl_device_id device, Device ember_device);
  ~DeviceContext();
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  Device ember_device() const { return ember_device_; }
  cl_device_id id() const { return device_; }
  cl_context context() const { return context_; }
  cl_command_queue queue() const { return queue_; }
  const std::string& name() const { return name_; }
  bool has_fp64() const { return has_fp64_; }
  // CL_DEVICE_MAX_COMPUTE_UNITS (the cores of a CPU device), at least 1.
  std::size_t compute_units() const { return compute_units_; }
  std::size_t global_mem_bytes() const { return global_mem_; }
  std::size_t max_alloc_bytes() const { return max_alloc_; }
  const std::shared_ptr<MemoryCounters>& counters() const { return counters_; }

  // Uninitialised device memory; BackendError beyond CL_DEVICE_MAX_MEM_ALLOC_SIZE.
  std::shared_ptr<ClBuffer> allocate(std::size_t nbytes);

  // The kernel `kernel_name` of program `program` (kernels/<program>.cl after kernels/common.cl, and for
  // "random" and "math" after ember/random/philox.h and distributions.h too, for "math" then after
  // kernels/math_scalar.cl)
  // built with `options`. Programs are built once per (program, options) and kernels created once; a failed
  // build throws BackendError with the build log. Built programs are also kept on disk under
  // $XDG_CACHE_HOME/ember/opencl (or ~/.cache/ember/opencl), keyed by a hash of device name, driver version,
  // options and source, and loaded from there next time (EMBER_OPENCL_BINARY_CACHE=0 turns that off; CPU
  // devices need =1 to turn it on, see runtime.cpp).
  cl_kernel kernel(std::string_view program, const std::string& options, const char* kernel_name);
  // The kernel `kernel_name` of a program generated at run time: the text body() returns, after
  // kernels/common.cl, the random headers and kernels/math_scalar.cl, built with `options` (plus the flags
  // every program gets). `key` names the program: equal keys must mean equal bodies, and each (key, options)
  // is built once per device and kept, like the programs of kernel(); body() is called only to build it (a
  // cached program costs no text). The on-disk binary cache applies too. generated_programs_built()
  // (build_stats.hpp) counts the builds.
  cl_kernel kernel_from_source(const std::string& key, const std::function<std::string()>& body,
                               const std::string& options, const char* kernel_name);

  // Sets cl_long(n) as argument 0 and `args` after it, then enqueues n work-items (1-D) rounded up to a
  // multiple of kWorkGroupSize; the driver picks the work-group size (no kernel-specific limit can then
  // fail the launch). Nothing is enqueued for n == 0. Asynchronous; the in-order queue keeps op order.
  template <class... Args>
  void launch(cl_kernel kernel, std::int64_t n, const Args&... args) {
    if (n <= 0) return;
    std::lock_guard<std::mutex> lock(launch_mutex_);  // kernel arguments are per cl_kernel state
    cl_uint index = 0;
    set_arg(kernel, index, static_cast<cl_long>(n));
    (set_arg(kernel, index, args), ...);
    const std::size_t global = round_up(static_cast<std::size_t>(n), kWorkGroupSize);
    enqueue(kernel, 1, &global, nullptr);
  }
  // As launch, for a 2-D range of exactly global[0] x global[1] work-items in groups of local[0] x local[1]
  // (the caller rounds global to multiples of local); no implicit n argument.
  template <class... Args>
  void launch_2d(cl_kernel kernel, const std::size_t global[2], const std::size_t local[2],
                 const Args&... args) {
    std::lock_guard<std::mutex> lock(launch_mutex_);
    cl_uint index = 0;
    (set_arg(kernel, index, args), ...);
    enqueue(kernel, 2, global, local);
  }

  // As launch, on a 2-D range for an output seen as rows x cols (layout.hpp's RowsView), or a 3-D one with
  // layers > 1 (layers x rows x cols): argument 0 is cols, the range cols (rounded up to a multiple of
  // kWorkGroupSize) x rows x layers in groups the driver picks; the kernel returns for
  // get_global_id(0) >= cols and takes the row from get_global_id(1), the layer from get_global_id(2).
  template <class... Args>
  void launch_rows(cl_kernel kernel, std::int64_t layers, std::int64_t rows, std::int64_t cols,
                   const Args&... args) {
    if (layers <= 0 || rows <= 0 || cols <= 0) return;
    std::lock_guard<std::mutex> lock(launch_mutex_);
    cl_uint index = 0;
    set_arg(kernel, index, static_cast<cl_long>(cols));
    (set_arg(kernel, index, args), ...);
    enqueue_rows(kernel, layers, rows, cols);
  }

  // As launch, with the arguments after n collected at run time (kernels whose parameter list depends on
  // what they compute, such as the generated fused kernels). With rows > 1, as launch_rows with cols = n.
  void launch_args(cl_kernel kernel, std::int64_t n, const KernelArgs& args, std::int64_t rows = 1);

  // Blocking copies between host memory and a buffer (offsets in bytes).
  void read(cl_mem mem, std::size_t offset, std::size_t nbytes, void* host);
  void write(cl_mem mem, std::size_t offset, std::size_t nbytes, const void* host);
  // Every enqueued command has finished.
  void finish();

  static std::size_t round_up(std::size_t n, std::size_t multiple) {
    return (n + multiple - 1) / multiple * multiple;
  }

 private:
  template <class A>
  void set_arg(cl_kernel kernel, cl_uint& index, const A& value) {
    if constexpr (std::is_same_v<A, TensorArg>) {
      set_raw_arg(kernel, index++, sizeof(cl_mem), &value.mem);
      set_raw_arg(kernel, index++, sizeof(cl_long), &value.offset);
    } else {
      static_assert(std::is_trivially_copyable_v<A>, "kernel arguments are passed by value");
      set_raw_arg(kernel, index++, sizeof(A), &value);
    }
  }
  void set_raw_arg(cl_kernel kernel, cl_uint index, std::size_t size, const void* value);
  void enqueue(cl_kernel kernel, cl_uint dims, const std::size_t* global, const std::size_t* local);
  // launch_rows's range.
  void enqueue_rows(cl_kernel kernel, std::int64_t layers, std::int64_t rows, std::int64_t cols);
  // Builds `source` (complete, common.cl included) with `options`; `what` names it in errors and `label` in
  // the binary cache's file names.
  cl_program build(const std::string& source, const std::string& options, std::string_view label,
                   const std::string& what);
  // The cached kernel (program_key, options, kernel_name), building the program from make_source() first if
  // needed. Call with build_mutex_ held.
  template <class MakeSource>
  cl_kernel cached_kernel(const std::string& program_key, const std::string& options, const char* kernel_name,
                          std::string_view label, const std::string& what, MakeSource&& make_source);

  Device ember_device_;
  cl_device_id device_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::string name_;
  std::string driver_;
  bool has_fp64_ = false;
  std::size_t compute_units_ = 1;
  bool is_cpu_ = false;
  std::size_t global_mem_ = 0;
  std::size_t max_alloc_ = 0;
  std::shared_ptr<MemoryCounters> counters_ = std::make_shared<MemoryCounters>();
  std::shared_ptr<BufferCache> buffer_cache_;

  std::mutex build_mutex_;  // programs_ and kernels_
  std::map<std::pair<std::string, std::string>, cl_program> programs_;
  std::map<std::tuple<std::string, std::string, std::string>, cl_kernel> kernels_;
  std::mutex launch_mutex_;
};

// Every device of every OpenCL platform, numbered opencl:0..N-1 in platform order, found on first use.
class Runtime {
 public:
  Runtime();
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  bool available();
  // Why available() is false; empty when it is true.
  std::string unavailable_reason();
  std::vector<Device> devices();
  bool has_device(Device device);
  // The device's context (created on first use); DeviceError naming `op` if the device does not exist.
  DeviceContext& device(Device device, const char* op = "opencl");

 private:
  void discover();

  std::once_flag discovered_;
  std::string reason_;
  std::vector<std::pair<cl_platform_id, cl_device_id>> ids_;
  std::mutex mutex_;  // contexts_
  std::vector<std::unique_ptr<DeviceContext>> contexts_;
};

// Program options that make kernels/common.cl's T, C, LOAD and STORE refer to `dtype`:
// -DT=<storage type> -DC=<compute type> -DUT=<wrapping unsigned type> and the IS_* flags (see common.cl).
std::string dtype_options(DType dtype);
// "-DW=uchar|ushort|uint|ulong": an unsigned type as wide as one element of `dtype`, for kernels that move
// elements as opaque bits (layout ops); float16 included, whose half pointers cannot be dereferenced.
std::string opaque_options(DType dtype);
// The OpenCL C spelling of dtype's storage type ("uchar" for bool and uint8, "half" for float16, which
// kernels only read and write through vload_half/vstore_half_rte, ...).
const char* cl_storage_type(DType dtype);

// The embedded text of kernels/<name>.cl or of the random headers ("philox.h", "distributions.h"), from the
// source file embed.cmake generates; BackendError if there is no such file.
std::string_view embedded_source(std::string_view name);

}  // namespace ember::opencl
