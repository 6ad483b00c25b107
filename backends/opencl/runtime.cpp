// The OpenCL backend's runtime: discovery over every platform, lazily created contexts and queues, device
// buffers, the program cache and error translation. See runtime.hpp for the API.
#include "runtime.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>
#include <string>
#include <utility>

namespace ember::opencl {

// ---- errors ----------------------------------------------------------------------------------------------

std::string cl_error_name(cl_int code) {
  switch (code) {
#define EMBER_CL_ERROR(name) \
  case name:                 \
    return #name;
    EMBER_CL_ERROR(CL_DEVICE_NOT_FOUND)
    EMBER_CL_ERROR(CL_DEVICE_NOT_AVAILABLE)
    EMBER_CL_ERROR(CL_COMPILER_NOT_AVAILABLE)
    EMBER_CL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    EMBER_CL_ERROR(CL_OUT_OF_RESOURCES)
    EMBER_CL_ERROR(CL_OUT_OF_HOST_MEMORY)
    EMBER_CL_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE)
    EMBER_CL_ERROR(CL_MEM_COPY_OVERLAP)
    EMBER_CL_ERROR(CL_IMAGE_FORMAT_MISMATCH)
    EMBER_CL_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    EMBER_CL_ERROR(CL_BUILD_PROGRAM_FAILURE)
    EMBER_CL_ERROR(CL_MAP_FAILURE)
    EMBER_CL_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    EMBER_CL_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    EMBER_CL_ERROR(CL_COMPILE_PROGRAM_FAILURE)
    EMBER_CL_ERROR(CL_LINKER_NOT_AVAILABLE)
    EMBER_CL_ERROR(CL_LINK_PROGRAM_FAILURE)
    EMBER_CL_ERROR(CL_DEVICE_PARTITION_FAILED)
    EMBER_CL_ERROR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    EMBER_CL_ERROR(CL_INVALID_VALUE)
    EMBER_CL_ERROR(CL_INVALID_DEVICE_TYPE)
    EMBER_CL_ERROR(CL_INVALID_PLATFORM)
    EMBER_CL_ERROR(CL_INVALID_DEVICE)
    EMBER_CL_ERROR(CL_INVALID_CONTEXT)
    EMBER_CL_ERROR(CL_INVALID_QUEUE_PROPERTIES)
    EMBER_CL_ERROR(CL_INVALID_COMMAND_QUEUE)
    EMBER_CL_ERROR(CL_INVALID_HOST_PTR)
    EMBER_CL_ERROR(CL_INVALID_MEM_OBJECT)
    EMBER_CL_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    EMBER_CL_ERROR(CL_INVALID_IMAGE_SIZE)
    EMBER_CL_ERROR(CL_INVALID_SAMPLER)
    EMBER_CL_ERROR(CL_INVALID_BINARY)
    EMBER_CL_ERROR(CL_INVALID_BUILD_OPTIONS)
    EMBER_CL_ERROR(CL_INVALID_PROGRAM)
    EMBER_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE)
    EMBER_CL_ERROR(CL_INVALID_KERNEL_NAME)
    EMBER_CL_ERROR(CL_INVALID_KERNEL_DEFINITION)
    EMBER_CL_ERROR(CL_INVALID_KERNEL)
    EMBER_CL_ERROR(CL_INVALID_ARG_INDEX)
    EMBER_CL_ERROR(CL_INVALID_ARG_VALUE)
    EMBER_CL_ERROR(CL_INVALID_ARG_SIZE)
    EMBER_CL_ERROR(CL_INVALID_KERNEL_ARGS)
    EMBER_CL_ERROR(CL_INVALID_WORK_DIMENSION)
    EMBER_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE)
    EMBER_CL_ERROR(CL_INVALID_WORK_ITEM_SIZE)
    EMBER_CL_ERROR(CL_INVALID_GLOBAL_OFFSET)
    EMBER_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST)
    EMBER_CL_ERROR(CL_INVALID_EVENT)
    EMBER_CL_ERROR(CL_INVALID_OPERATION)
    EMBER_CL_ERROR(CL_INVALID_GL_OBJECT)
    EMBER_CL_ERROR(CL_INVALID_BUFFER_SIZE)
    EMBER_CL_ERROR(CL_INVALID_MIP_LEVEL)
    EMBER_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE)
    EMBER_CL_ERROR(CL_INVALID_PROPERTY)
    EMBER_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR)
    EMBER_CL_ERROR(CL_INVALID_COMPILER_OPTIONS)
    EMBER_CL_ERROR(CL_INVALID_LINKER_OPTIONS)
    EMBER_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef EMBER_CL_ERROR
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "CL error " + std::to_string(code);
  }
}

void throw_cl_error(const char* call, cl_int code) {
  throw BackendError(std::string("opencl: ") + call + " failed: " + cl_error_name(code));
}

// ---- memory ----------------------------------------------------------------------------------------------

void MemoryCounters::on_allocate(std::size_t nbytes) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  const std::size_t now = bytes_in_use.fetch_add(nbytes, std::memory_order_relaxed) + nbytes;
  std::size_t peak = peak_bytes_in_use.load(std::memory_order_relaxed);
  while (now > peak && !peak_bytes_in_use.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

BufferCache::~BufferCache() {
  for (const auto& [nbytes, mem] : free_) clReleaseMemObject(mem);
}

cl_mem BufferCache::take(std::size_t nbytes) {
  const std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = free_.end(); it != free_.begin();) {  // the most recently freed first: warmest
    --it;
    if (it->first != nbytes) continue;
    const cl_mem mem = it->second;
    free_.erase(it);
    bytes_ -= nbytes;
    return mem;
  }
  return nullptr;
}

void BufferCache::give(cl_mem mem, std::size_t nbytes) {
  std::vector<cl_mem> released;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (nbytes > bound_) {
      released.push_back(mem);
    } else {
      free_.emplace_back(nbytes, mem);
      bytes_ += nbytes;
      std::size_t drop = 0;
      while (bytes_ > bound_) {
        bytes_ -= free_[drop].first;
        released.push_back(free_[drop++].second);
      }
      free_.erase(free_.begin(), free_.begin() + static_cast<std::ptrdiff_t>(drop));
    }
  }
  // The driver defers each release until every enqueued command that uses the buffer has finished.
  for (cl_mem m : released) clReleaseMemObject(m);
}

ClBuffer::ClBuffer(std::size_t nbytes, Device device, cl_context context,
                   std::shared_ptr<MemoryCounters> counters, std::shared_ptr<BufferCache> cache)
    : Buffer(nbytes, device), counters_(std::move(counters)), cache_(std::move(cache)) {
  if (nbytes != 0 && cache_ != nullptr) mem_ = cache_->take(nbytes);
  if (nbytes != 0 && mem_ == nullptr) {
    cl_int err = CL_SUCCESS;
    mem_ = clCreateBuffer(context, CL_MEM_READ_WRITE, nbytes, nullptr, &err);
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_HOST_MEMORY) throw std::bad_alloc();
    check(err, "clCreateBuffer");
  }
  counters_->on_allocate(nbytes);
}

ClBuffer::~ClBuffer() {
  if (mem_ != nullptr) {
    if (cache_ != nullptr) {
      cache_->give(mem_, nbytes());
    } else {
      clReleaseMemObject(mem_);  // deferred by the driver until the commands that use it have finished
    }
  }
  counters_->on_free(nbytes());
}

cl_mem mem_of(const Tensor& t) {
  auto* buffer = dynamic_cast<ClBuffer*>(t.buffer().get());
  if (buffer == nullptr) throw BackendError("opencl: " + t.str() + " is not stored in an OpenCL buffer");
  return buffer->mem();
}

TensorArg arg(const Tensor& t) {
  return {mem_of(t), static_cast<cl_long>(t.byte_offset() / t.itemsize())};
}

void check_rank(const char* op, std::size_t rank) {
  if (rank > static_cast<std::size_t>(kMaxRank)) {
    throw BackendError(std::string("opencl: ") + op + ": tensors of rank " + std::to_string(rank) +
                       " are not supported (at most " + std::to_string(kMaxRank) + " axes)");
  }
}

ClDims dims_of(const char* op, const std::vector<std::int64_t>& values) {
  check_rank(op, values.size());
  ClDims d;
  for (std::size_t i = 0; i < values.size(); ++i) d.v[i] = values[i];
  return d;
}

// ---- dtypes ----------------------------------------------------------------------------------------------

const char* cl_storage_type(DType dtype) {
  switch (dtype) {
    case DType::bool_:
    case DType::uint8:
      return "uchar";
    case DType::int8:
      return "char";
    case DType::int16:
      return "short";
    case DType::int32:
      return "int";
    case DType::int64:
      return "long";
    case DType::float16:
      return "half";
    case DType::float32:
      return "float";
    case DType::float64:
      break;
  }
  return "double";
}

std::string opaque_options(DType dtype) {
  switch (dtype) {
    case DType::bool_:
    case DType::uint8:
    case DType::int8:
      return "-DW=uchar";
    case DType::int16:
    case DType::float16:
      return "-DW=ushort";
    case DType::int32:
    case DType::float32:
      return "-DW=uint";
    case DType::int64:
    case DType::float64:
      break;
  }
  return "-DW=ulong";
}

std::string dtype_options(DType dtype) {
  const bool is_half = dtype == DType::float16;
  const bool is_float = is_half || dtype == DType::float32 || dtype == DType::float64;
  const bool is_bool = dtype == DType::bool_;
  const bool is_signed =
      dtype == DType::int8 || dtype == DType::int16 || dtype == DType::int32 || dtype == DType::int64;
  const std::string storage = cl_storage_type(dtype);
  const std::string compute = is_half ? "float" : storage;
  // Integer arithmetic wraps in an unsigned type at least as wide as uint, like the eigen backend's wrap_t.
  const char* wrap = dtype == DType::int64 ? "ulong" : "uint";
  std::string o = "-DT=" + storage + " -DC=" + compute + " -DUT=" + wrap;
  o += std::string(" -DIS_HALF=") + (is_half ? "1" : "0");
  o += std::string(" -DIS_FLOAT=") + (is_float ? "1" : "0");
  o += std::string(" -DIS_BOOL=") + (is_bool ? "1" : "0");
  o += std::string(" -DIS_INT=") + (!is_float && !is_bool ? "1" : "0");
  o += std::string(" -DIS_SIGNED=") + (is_signed ? "1" : "0");
  o += std::string(" -DIS_F64=") + (dtype == DType::float64 ? "1" : "0");
  return o;
}

// ---- device context --------------------------------------------------------------------------------------

namespace {

std::string device_string(cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  check(clGetDeviceInfo(device, what, 0, nullptr, &size), "clGetDeviceInfo");
  std::string s(size, '\0');
  check(clGetDeviceInfo(device, what, size, s.data(), nullptr), "clGetDeviceInfo");
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

template <class V>
V device_value(cl_device_id device, cl_device_info what) {
  V v{};
  check(clGetDeviceInfo(device, what, sizeof v, &v, nullptr), "clGetDeviceInfo");
  return v;
}

}  // namespace

DeviceContext::DeviceContext(cl_platform_id platform, cl_device_id device, Device ember_device)
    : ember_device_(ember_device), device_(device) {
  name_ = device_string(device, CL_DEVICE_NAME);
  driver_ = device_string(device, CL_DRIVER_VERSION);
  // OpenCL 1.2 devices with double support list cl_khr_fp64 even though it became an optional core feature.
  has_fp64_ = device_string(device, CL_DEVICE_EXTENSIONS).find("cl_khr_fp64") != std::string::npos;
  compute_units_ = std::max<std::size_t>(1, device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS));
  global_mem_ = static_cast<std::size_t>(device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE));
  max_alloc_ = static_cast<std::size_t>(device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE));
  // Freed buffers kept for reuse: up to an eighth of the device's memory, at most 512 MiB.
  buffer_cache_ =
      std::make_shared<BufferCache>(std::min<std::size_t>(global_mem_ / 8, std::size_t{512} << 20));
  is_cpu_ = (device_value<cl_device_type>(device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                         reinterpret_cast<cl_context_properties>(platform), 0};
  cl_int err = CL_SUCCESS;
  context_ = clCreateContext(props, 1, &device_, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  queue_ = clCreateCommandQueue(context_, device_, 0, &err);
  if (err != CL_SUCCESS) {
    clReleaseContext(context_);
    throw_cl_error("clCreateCommandQueue", err);
  }
}

DeviceContext::~DeviceContext() {
  clFinish(queue_);
  for (auto& [key, k] : kernels_) clReleaseKernel(k);
  for (auto& [key, p] : programs_) clReleaseProgram(p);
  clReleaseCommandQueue(queue_);
  clReleaseContext(context_);
}

std::shared_ptr<ClBuffer> DeviceContext::allocate(std::size_t nbytes) {
  if (nbytes > max_alloc_) {
    throw BackendError("opencl: cannot allocate " + std::to_string(nbytes) + " bytes on " +
                       ember_device_.str() + " (" + name_ + "): the largest allocation it allows is " +
                       std::to_string(max_alloc_) + " bytes");
  }
  return std::make_shared<ClBuffer>(nbytes, ember_device_, context_, counters_, buffer_cache_);
}

namespace {

// FNV-1a, 64 bits: a stable name for a program's cache file (std::hash may change between libraries).
std::uint64_t fnv1a(std::string_view text, std::uint64_t h = 14695981039346656037ull) {
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

// $XDG_CACHE_HOME/ember/opencl, else ~/.cache/ember/opencl; empty (no cache) when neither variable is set or
// EMBER_OPENCL_BINARY_CACHE is 0. CPU devices use it only with EMBER_OPENCL_BINARY_CACHE=1: pocl keeps its
// own kernel cache and can hand out a program binary only after compiling every kernel in it, which made a
// cold run of the test suite three times slower (warm runs were eight times faster).
std::filesystem::path binary_cache_dir(bool cpu_device) {
  const char* flag = std::getenv("EMBER_OPENCL_BINARY_CACHE");
  const std::string setting = flag != nullptr ? flag : "";
  if (setting == "0" || (cpu_device && setting != "1")) return {};
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::filesystem::path(xdg) / "ember" / "opencl";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".cache" / "ember" / "opencl";
  }
  return {};
}

std::vector<unsigned char> read_binary(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Writes to a file of this process first and renames it into place, so a concurrent reader sees either no
// file or a whole one. The cache is an optimisation: any failure just leaves it without this entry.
void write_binary_atomically(const std::filesystem::path& path, const std::vector<unsigned char>& bytes) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return;
  std::filesystem::path tmp = path;
  tmp += ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      out.close();
      std::filesystem::remove(tmp, ec);
      return;
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) std::filesystem::remove(tmp, ec);
}

std::vector<unsigned char> program_binary(cl_program p) {
  std::size_t size = 0;
  if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) != CL_SUCCESS || size == 0) {
    return {};
  }
  std::vector<unsigned char> bytes(size);
  unsigned char* data = bytes.data();
  if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof data, &data, nullptr) != CL_SUCCESS) return {};
  return bytes;
}

}  // namespace

namespace {

// The complete source of kernels/<program>.cl: common.cl first (the dtype macros, ember_dims and the
// FP_CONTRACT pragma every program relies on); the random and math programs also need the shared math of
// the samplers (their #include lines were dropped by embed.cmake), and the math program the scalar
// semantics it shares with the generated kernels (math_scalar.cl, whose exp and log use that shared math).
std::string program_source(std::string_view program) {
  std::string source(embedded_source("common"));
  source += '\n';
  if (program == "random" || program == "math") {
    for (const char* header : {"philox.h", "distributions.h"}) {
      source += embedded_source(header);
      source += '\n';
    }
  }
  if (program == "math") {
    source += embedded_source("math_scalar");
    source += '\n';
  }
  source += embedded_source(program);
  return source;
}

// The complete source of a generated program: the math program's without math.cl, then its body.
std::string generated_source(const std::string& body) {
  std::string source = program_source("math");
  source.resize(source.size() - embedded_source("math").size());
  source += body;
  return source;
}

std::atomic<std::size_t> generated_builds{0};

}  // namespace

std::size_t generated_programs_built() {
  return generated_builds.load(std::memory_order_relaxed);
}

cl_program DeviceContext::build(const std::string& source, const std::string& options, std::string_view label,
                                const std::string& what) {
  std::string all_options = "-cl-fp32-correctly-rounded-divide-sqrt " + options;
  // Without cl_khr_fp64, distributions.h leaves out its double-precision samplers.
  all_options += has_fp64_ ? " -DEMBER_FP64=1" : " -DEMBER_RNG_NO_DOUBLE=1";

  // The on-disk cache: one file per (device, driver, options, source), tried before compiling the source.
  std::filesystem::path cached;
  if (const std::filesystem::path dir = binary_cache_dir(is_cpu_); !dir.empty()) {
    const std::uint64_t key = fnv1a(source, fnv1a(all_options, fnv1a(driver_, fnv1a(name_))));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(key));
    cached = dir / (std::string(label) + "-" + hex + ".bin");
    const std::vector<unsigned char> bytes = read_binary(cached);
    if (!bytes.empty()) {
      const unsigned char* data = bytes.data();
      const std::size_t size = bytes.size();
      cl_int status = CL_SUCCESS, err = CL_SUCCESS;
      cl_program p = clCreateProgramWithBinary(context_, 1, &device_, &size, &data, &status, &err);
      if (err == CL_SUCCESS && status == CL_SUCCESS) {
        if (clBuildProgram(p, 1, &device_, all_options.c_str(), nullptr, nullptr) == CL_SUCCESS) return p;
      }
      if (p != nullptr) clReleaseProgram(p);  // a stale or foreign binary: compile the source instead
    }
  }

  const char* text = source.c_str();
  const std::size_t length = source.size();
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(context_, 1, &text, &length, &err);
  check(err, "clCreateProgramWithSource");
  err = clBuildProgram(p, 1, &device_, all_options.c_str(), nullptr, nullptr);
  if (err != CL_SUCCESS) {
    std::string log;
    std::size_t size = 0;
    if (clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) == CL_SUCCESS) {
      log.resize(size);
      clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
      while (!log.empty() && log.back() == '\0') log.pop_back();
    }
    clReleaseProgram(p);
    throw BackendError("opencl: building " + what + " (" + all_options + ") for " + name_ +
                       " failed: " + cl_error_name(err) + "\n" + log);
  }
  if (!cached.empty()) {
    if (const std::vector<unsigned char> bytes = program_binary(p); !bytes.empty()) {
      write_binary_atomically(cached, bytes);
    }
  }
  return p;
}

template <class MakeSource>
cl_kernel DeviceContext::cached_kernel(const std::string& program_key, const std::string& options,
                                       const char* kernel_name, std::string_view label,
                                       const std::string& what, MakeSource&& make_source) {
  auto key = std::make_tuple(program_key, options, std::string(kernel_name));
  if (auto it = kernels_.find(key); it != kernels_.end()) return it->second;
  auto pkey = std::make_pair(program_key, options);
  auto pit = programs_.find(pkey);
  if (pit == programs_.end()) pit = programs_.emplace(pkey, build(make_source(), options, label, what)).first;
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(pit->second, kernel_name, &err);
  if (err != CL_SUCCESS) {
    throw BackendError(std::string("opencl: clCreateKernel(") + kernel_name + ") in " + what +
                       " failed: " + cl_error_name(err));
  }
  kernels_.emplace(std::move(key), k);
  return k;
}

cl_kernel DeviceContext::kernel(std::string_view program, const std::string& options,
                                const char* kernel_name) {
  std::lock_guard<std::mutex> lock(build_mutex_);
  return cached_kernel(std::string(program), options, kernel_name, program,
                       "kernels/" + std::string(program) + ".cl", [&] { return program_source(program); });
}

cl_kernel DeviceContext::kernel_from_source(const std::string& key, const std::function<std::string()>& body,
                                            const std::string& options, const char* kernel_name) {
  std::lock_guard<std::mutex> lock(build_mutex_);
  // A leading '#' keeps generated keys apart from the names of kernels/*.cl.
  return cached_kernel("#" + key, options, kernel_name, "generated", "the generated program " + key, [&] {
    generated_builds.fetch_add(1, std::memory_order_relaxed);
    return generated_source(body());
  });
}

void DeviceContext::launch_args(cl_kernel kernel, std::int64_t n, const KernelArgs& args, std::int64_t rows) {
  if (n <= 0 || rows <= 0) return;
  std::lock_guard<std::mutex> lock(launch_mutex_);
  cl_uint index = 0;
  set_arg(kernel, index, static_cast<cl_long>(n));
  std::size_t at = 0;
  for (const std::size_t size : args.sizes_) {
    set_raw_arg(kernel, index++, size, args.bytes_.data() + at);
    at += size;
  }
  if (rows > 1) {
    enqueue_rows(kernel, 1, rows, n);
    return;
  }
  const std::size_t global = round_up(static_cast<std::size_t>(n), kWorkGroupSize);
  enqueue(kernel, 1, &global, nullptr);
}

void DeviceContext::enqueue_rows(cl_kernel kernel, std::int64_t layers, std::int64_t rows,
                                 std::int64_t cols) {
  // The driver picks the work-group size, as for 1-D launches: pocl's CPU device then runs a 256 x 256 range
  // in a few large groups instead of 1024 groups of 64 x 1, which halved the time of a 64K broadcast add.
  const std::size_t global[3] = {round_up(static_cast<std::size_t>(cols), kWorkGroupSize),
                                 static_cast<std::size_t>(rows), static_cast<std::size_t>(layers)};
  enqueue(kernel, layers > 1 ? 3 : 2, global, nullptr);
}

void DeviceContext::set_raw_arg(cl_kernel kernel, cl_uint index, std::size_t size, const void* value) {
  const cl_int err = clSetKernelArg(kernel, index, size, value);
  if (err != CL_SUCCESS) {
    throw BackendError("opencl: clSetKernelArg(argument " + std::to_string(index) +
                       ") failed: " + cl_error_name(err));
  }
}

void DeviceContext::enqueue(cl_kernel kernel, cl_uint dims, const std::size_t* global,
                            const std::size_t* local) {
  check(clEnqueueNDRangeKernel(queue_, kernel, dims, nullptr, global, local, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
}

void DeviceContext::read(cl_mem mem, std::size_t offset, std::size_t nbytes, void* host) {
  if (nbytes == 0) return;
  check(clEnqueueReadBuffer(queue_, mem, CL_TRUE, offset, nbytes, host, 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
}

void DeviceContext::write(cl_mem mem, std::size_t offset, std::size_t nbytes, const void* host) {
  if (nbytes == 0) return;
  check(clEnqueueWriteBuffer(queue_, mem, CL_TRUE, offset, nbytes, host, 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
}

void DeviceContext::finish() {
  check(clFinish(queue_), "clFinish");
}

// ---- runtime ---------------------------------------------------------------------------------------------

Runtime::Runtime() = default;
Runtime::~Runtime() = default;

void Runtime::discover() {
  std::call_once(discovered_, [this] {
    cl_uint count = 0;
    cl_int err = clGetPlatformIDs(0, nullptr, &count);
    if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR: the ICD loader found no driver */ || count == 0) {
      reason_ = "no OpenCL platform found (is an ICD such as pocl-opencl-icd installed?)";
      return;
    }
    if (err != CL_SUCCESS) {
      reason_ = "clGetPlatformIDs failed: " + cl_error_name(err);
      return;
    }
    std::vector<cl_platform_id> platforms(count);
    err = clGetPlatformIDs(count, platforms.data(), nullptr);
    if (err != CL_SUCCESS) {
      reason_ = "clGetPlatformIDs failed: " + cl_error_name(err);
      return;
    }
    for (cl_platform_id platform : platforms) {
      cl_uint n = 0;
      if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS || n == 0) continue;
      std::vector<cl_device_id> ids(n);
      if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, ids.data(), nullptr) != CL_SUCCESS) continue;
      for (cl_device_id id : ids) ids_.emplace_back(platform, id);
    }
    if (ids_.empty()) {
      reason_ = std::to_string(count) + " OpenCL platform(s) found but no device";
      return;
    }
    contexts_.resize(ids_.size());
  });
}

bool Runtime::available() {
  discover();
  return !ids_.empty();
}

std::string Runtime::unavailable_reason() {
  discover();
  return reason_;
}

std::vector<Device> Runtime::devices() {
  discover();
  std::vector<Device> result;
  for (std::size_t i = 0; i < ids_.size(); ++i) result.push_back(Device::opencl(static_cast<int>(i)));
  return result;
}

bool Runtime::has_device(Device device) {
  discover();
  return device.kind() == Device::Kind::opencl && device.index() >= 0 &&
         static_cast<std::size_t>(device.index()) < ids_.size();
}

DeviceContext& Runtime::device(Device device, const char* op) {
  if (!has_device(device)) {
    throw DeviceError(std::string("opencl: ") + op + ": device " + device.str() + " does not exist (" +
                      (ids_.empty() ? reason_ : std::to_string(ids_.size()) + " OpenCL device(s)") + ")");
  }
  const auto index = static_cast<std::size_t>(device.index());
  std::lock_guard<std::mutex> lock(mutex_);
  if (!contexts_[index]) {
    contexts_[index] = std::make_unique<DeviceContext>(ids_[index].first, ids_[index].second, device);
  }
  return *contexts_[index];
}

}  // namespace ember::opencl
